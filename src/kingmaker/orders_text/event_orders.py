"""Answers to the event deck (FULL_GAME 3.2): the port a storm drives a ship into
(``Grace Dieu TO Hull``) and a held event card played (``Red PLAYS Forced March FOR
Percy``)."""

from __future__ import annotations

from lark import Token, Tree

from kingmaker.rules import commands as c

from . import names as nm
from .reading import Fail, LineReader, span_of, subtrees
from .syntax import misspelt_verb


class EventOrders(LineReader):
    """The statements that answer events."""

    def _st_choose_port(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        port_node = subtrees(st, "name")[0]
        try:
            unit = self.one(subject, nm.UNIT, "ship")
        except Fail:
            # "Percy moevs TO York": a misspelt verb, not a ship that no one knows
            end = span_of(subject)[1]
            to = end + len(self.text[end:]) - len(self.text[end:].lstrip())
            misspelt = misspelt_verb(self.lineno, self.text, to)
            if misspelt is not None:
                raise Fail(misspelt) from None
            raise
        if unit.kind != nm.SHIP:
            node = self.items(subject)[0]
            if unit.kind == nm.FLEET:
                raise self.syntax(node, f"a storm drives each ship of {unit.name} on its own: name the ship")
            verb = "MOVES" if unit.kind in (nm.NOBLE, nm.ARMY) else "SAILS"
            raise self.syntax(
                node,
                f"“<ship> TO <port>” answers a storm; to move {unit.name} write "
                f"“{self.raw(node)} {verb} TO {self.raw(port_node)}”",
            )
        return c.ChoosePort(self.by, unit.id, self.resolve(port_node, nm.PLACES).id)

    def _st_play_card(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        nodes = subtrees(st, "name")
        card = self.resolve(nodes[0], nm.CARDS)
        if len(nodes) < 2:
            raise self.syntax(
                st, f"say whom {card.name} is played for: “PLAYS {self.raw(nodes[0])} FOR <unit>”"
            )
        return c.PlayCard(by, card.id, self.resolve(nodes[1], nm.UNIT).id)
