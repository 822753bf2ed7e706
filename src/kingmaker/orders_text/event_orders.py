"""Answers to the event deck (FULL_GAME 3.2): the port a storm drives a ship into
(``Grace Dieu TO Hull``) and a held event card played (``Red PLAYS Forced March FOR
Percy``)."""

from __future__ import annotations

import re

from lark import Token, Tree

from kingmaker.rules import commands as c

from . import names as nm
from .errors import SyntaxProblem
from .reading import Fail, LineReader, span_of, subtrees
from .syntax import misspelt_verb, with_example
from .verbs import closest_verb


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
            unknown = self._verb_not_known(subject)
            if unknown is not None:
                raise Fail(unknown) from None
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

    def _verb_not_known(self, subject: Tree[Token]) -> SyntaxProblem | None:
        """``Percy marches TO York``: a unit's name, then a word that is no verb (read as
        one name with it, a ship answering a storm). The problem at that word, with the
        closest verb's example; None when the subject does not start with a unit's name."""
        start, end = span_of(subject)
        written = self.text[start:end]
        words = list(re.finditer(r"\S+", written))
        for k in range(len(words) - 1, 0, -1):
            head = written[: words[k - 1].end()]
            try:
                e = self.names.resolve(head, nm.UNIT | nm.HEIRS)
            except nm.NameProblem:
                continue
            if nm.normalize(head) not in {nm.normalize(e.name), nm.normalize(e.id), nm.normalize(e.note)}:
                continue  # "Grace Deiu": a misspelt name, not a name and a verb
            found = words[k].group()
            verb = closest_verb(self.text)
            message = with_example(f"“{found}” is not a verb of the orders: expected a verb", verb)
            return SyntaxProblem(
                self.lineno,
                start + words[k].start() + 1,
                self.text,
                message,
                ("a verb",),
                found,
                verb.title,
                verb.example,
            )
        return None
