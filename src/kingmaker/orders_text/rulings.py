"""The GM's rulings: heirs, storms, control, deaths and captures, combat outcomes (by
hand, or the engine's draw for a battle or a siege), expiries and deadlines, the event
card, the end of a phase or a turn, the seed and injected randomness."""

from __future__ import annotations

from typing import Final

from lark import Token, Tree

from kingmaker.rules import commands as c

from . import names as nm
from .errors import UnknownName
from .reading import Fail, LineReader, first_of, span_of, subtrees

_NEUTRAL: Final = frozenset({"neutral", "nobody", "none", "no one", "no faction"})


class GmRulings(LineReader):
    """The statements only the GM gives."""

    # .. heirs (the GM's rulings) ...........................................................
    def _st_heir_with(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        heir = self.one(subject, nm.HEIRS, "heir")
        noble = self.resolve(first_of(st, "name") or st, nm.NOBLES).id
        return c.MoveHeir(self.by, heir.id, with_noble=noble, inside=first_of(st, "inside") is not None)

    def _st_heir_left(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        heir = self.one(subject, nm.HEIRS, "heir")
        place = self.resolve(first_of(st, "name") or st, nm.PLACES).id
        return c.MoveHeir(self.by, heir.id, place=place, inside=first_of(st, "inside") is not None)

    # .. the GM ..................................................................................
    def _st_storm(self, st: Tree[Token]) -> c.Command:
        ship_node, port_node = subtrees(st, "name")
        return c.Storm(self.by, self.resolve(ship_node, nm.SHIPS).id, self.resolve(port_node, nm.PLACES).id)

    def _st_set_control(self, st: Tree[Token]) -> c.Command:
        place_node, who = subtrees(st, "name")
        place = self.resolve(place_node, nm.PLACES).id
        if nm.normalize(self.raw(who)) in _NEUTRAL:
            return c.SetControl(self.by, place, None)
        return c.SetControl(self.by, place, self.resolve(who, nm.FACTIONS).id)

    def _st_set_neutral(self, st: Tree[Token]) -> c.Command:
        return c.SetControl(self.by, self.resolve(subtrees(st, "name")[0], nm.PLACES).id, None)

    def _st_kill(self, st: Tree[Token]) -> c.Command:
        return c.Kill(self.by, self.resolve(subtrees(st, "name")[0], nm.NOBLES).id)

    def _st_capture(self, st: Tree[Token]) -> c.Command:
        noble, faction = subtrees(st, "name")
        return c.Capture(self.by, self.resolve(noble, nm.NOBLES).id, self.resolve(faction, nm.FACTIONS).id)

    def _st_release(self, st: Tree[Token]) -> c.Command:
        noble, place = subtrees(st, "name")
        return c.Release(
            self.by,
            self.resolve(noble, nm.NOBLES).id,
            self.resolve(place, nm.PLACES).id,
            first_of(st, "inside") is not None,
        )

    def _st_resolve(self, st: Tree[Token]) -> c.Command:
        """``RESOLVE c7: <summary>`` is the GM's ruling by hand (``ResolveCombat``); so is
        ``RESOLVE c7`` in a game without phases. In a game with phases ``RESOLVE c7`` is
        the engine's draw: the battle of an attack (``Battle``), or the draw for a siege
        (``SiegeAssault``), which may also be named by its place (``RESOLVE York``).
        ``RESOLVE c7 BY DRAW`` asks for the engine's draw in any game."""
        node = subtrees(st, "name")[0]
        summary = first_of(st, "summary")
        by_draw = first_of(st, "by_draw") is not None
        if summary is not None or not (by_draw or self.state.phased):
            combat = self.resolve(node, nm.COMBATS).id
            spans = [span_of(t) for t in (summary.children if summary else ()) if isinstance(t, Token)]
            text = self.text[spans[0][0] : spans[0][1]] if spans else ""
            return c.ResolveCombat(self.by, combat, text.strip())
        try:
            e = self.resolve(node, nm.COMBATS | nm.PLACES if self.state.sieges else nm.COMBATS)
        except Fail as f:  # a mistyped combat id: "did you mean c7?" if it is near one
            if isinstance(f.problem, UnknownName) and self.state.combats:
                try:
                    self.resolve(node, nm.COMBATS)
                except Fail as g:
                    if isinstance(g.problem, UnknownName) and g.problem.suggestions:
                        raise g from None
            raise
        if e.kind == nm.PLACE:
            return c.SiegeAssault(self.by, e.id)
        fight = next(x for x in self.state.combats if x.id == e.id)
        if fight.kind == "siege" and not by_draw:
            return c.SiegeAssault(self.by, fight.place)
        return c.Battle(self.by, e.id)

    def _st_assault(self, st: Tree[Token]) -> c.Command:
        return c.SiegeAssault(self.by, self.resolve(subtrees(st, "name")[0], nm.PLACES).id)

    def _st_draw_event(self, st: Tree[Token]) -> c.Command:
        return c.DrawEvent(self.by, self.request_id(st))

    def _st_end_phase(self, st: Tree[Token]) -> c.Command:
        return c.EndPhase(self.by)

    def _st_expire(self, st: Tree[Token]) -> c.Command:
        return c.Expire(self.by, self.resolve(subtrees(st, "ident")[0], nm.REQUESTS).id)

    def _st_deadline(self, st: Tree[Token]) -> c.Command:
        return c.Deadline(self.by, self.resolve(subtrees(st, "ident")[0], nm.DECLARATIONS).id)

    def _st_end_turn(self, st: Tree[Token]) -> c.Command:
        return c.EndTurn(self.by, first_of(st, "anyway") is not None)

    def _st_reveal_seed(self, st: Tree[Token]) -> c.Command:
        return c.RevealSeed(self.by)

    def _st_random(self, st: Tree[Token]) -> c.Command:
        values = tuple(int(t.value) for t in st.children if isinstance(t, Token) and t.type == "INT")
        return c.InjectRandom(self.by, values)
