"""The Crown's cards and coronation (FULL_GAME 3.8, 3.9): a card from a faction's hand
assigned to its noble (``Red ASSIGNS Earl of Kent TO Percy``), a noble card brought
into play at one of his castles (``Red BRINGS Stanley INTO PLAY AT Lathom``, or
``Stanley ENTERS PLAY AT Lathom``), an heir crowned (``Red CROWNS Richard, Duke of
York``) and the GM's Crown draw (``DRAW CROWN CARD``).

A card is named as its author may know it: a name that fits several cards means the one
in the author's hand when only one of them is there."""

from __future__ import annotations

from collections.abc import Collection

from lark import Token, Tree

from kingmaker.rules import commands as c
from kingmaker.rules.crown_cards import castles_of

from . import names as nm
from .errors import AmbiguousName
from .reading import Fail, LineReader, Refuse, first_of, subtrees


class CrownOrders(LineReader):
    """The statements of Crown cards and coronation."""

    def card_among(self, node: Tree[Token], preferred: Collection[str], what: str = "card") -> nm.Entity:
        """The card ``node`` names; of several that fit, the one in ``preferred`` (a hand,
        the Chancery) when only one of them is."""
        try:
            return self.one(node, nm.CARDS, what)
        except Fail as f:
            p = f.problem
            if isinstance(p, AmbiguousName):
                mine = [i for i in p.candidate_ids if i in preferred]
                if len(mine) == 1:
                    return nm.Entity(nm.CARD, mine[0], self.state.catalog.name_of(mine[0]))
            raise

    def _st_assign(self, st: Tree[Token]) -> c.Command:
        lists = subtrees(st, "names")
        by = self.speaker(st, lists[0] if len(lists) == 3 else None)
        card = self.card_among(lists[-2], self.state.hands.get(by, ()))
        noble = self.one(lists[-1], nm.NOBLES, "noble")
        return c.Assign(by, card.id, noble.id)

    def _enter_play(self, by: str, noble_node: Tree[Token], st: Tree[Token]) -> c.Command:
        noble = self.one(noble_node, nm.NOBLES, "noble")
        castle_node = first_of(st, "name")
        if castle_node is not None:
            return c.EnterPlay(by, noble.id, self.resolve(castle_node, nm.PLACES).id)
        castles = castles_of(self.state, noble.id)
        if len(castles) == 1:
            return c.EnterPlay(by, noble.id, castles[0])
        if not castles:
            raise Refuse(f"{noble.name} has no castle on this map to come into play at", unit=noble.id)
        shown = nm.join_or([self.state.board.name_of(p) for p in castles])
        raise Refuse(f"say at which of his castles {noble.name} comes into play: {shown}", unit=noble.id)

    def _st_enter_play(self, st: Tree[Token]) -> c.Command:
        by, noble = self.faction_and_object(st)
        return self._enter_play(by, noble, st)

    def _st_noble_enters_play(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        return self._enter_play(self.by, subject, st)

    def _st_crown(self, st: Tree[Token]) -> c.Command:
        by, heir = self.faction_and_object(st)
        return c.Crown(by, self.one(heir, nm.HEIRS, "heir").id)

    def _st_draw_crown(self, st: Tree[Token]) -> c.Command:
        return c.DrawCrown(self.by)
