"""Alliances and permissions: declaring an alliance, answering or leaving one,
confirming or rejecting a request, granting and revoking passage."""

from __future__ import annotations

from typing import Final

from lark import Token, Tree

from kingmaker.rules import commands as c
from kingmaker.rules import ids

from . import names as nm
from .reading import LineReader, first_of, subtrees

_ASPECT_OF: Final = {
    "road": ids.ROAD,
    "enter": ids.ENTER,
    "ship_enter": ids.SHIP_ENTER,
    "embark": ids.EMBARK,
    "forced_leave": ids.FORCED_LEAVE,
}


class DiplomacyOrders(LineReader):
    """The statements of alliances, requests and permissions."""

    # .. alliances ...........................................................................
    def _st_declare(self, st: Tree[Token]) -> c.Command:
        lists = subtrees(st, "names")
        subject = lists[0] if len(lists) == 2 else None
        by = self.speaker(st, subject)
        invited = self.many(lists[-1], nm.FACTIONS)
        as_id = first_of(st, "as_id")
        if as_id is not None:
            ident = self.new_ident(as_id.children[0])
        else:
            state = self.state
            ident = self.post.new_id(
                "alliance",
                lambda x: (
                    x in state.alliances
                    or x in state.declarations
                    or x in state.closed
                    or x in state.requests
                ),
            )
        return c.DeclareAlliance(by, ident, invited)

    def declaration_by(self, node: Tree[Token], answering: str) -> str:
        """The one declaration by the faction ``node`` names that awaits ``answering``."""
        f = self.resolve(node.children[0], nm.FACTIONS)
        found = sorted(
            d.id for d in self.state.declarations.values() if d.by == f.id and answering in d.awaiting
        )
        return self.one_of(
            found,
            node,
            f"{f.name} has no alliance declaration awaiting {answering}'s answer",
            f"{f.name} has several alliance declarations awaiting {answering}",
        )

    def alliance_ref(self, st: Tree[Token], kinds: frozenset[str], by: str, leaving: bool) -> str:
        ref = next(
            ch for ch in self.rest(st) if isinstance(ch, Tree) and ch.data in ("with_faction", "ident")
        )
        if ref.data == "ident":
            return self.resolve(ref, kinds).id
        if not leaving:
            return self.declaration_by(ref, by)
        f = self.resolve(ref.children[0], nm.FACTIONS)
        found = sorted(a.id for a in self.state.alliances.values() if {by, f.id} <= set(a.members))
        return self.one_of(
            found, ref, f"{by} is in no alliance with {f.id}", f"{by} is in several alliances with {f.id}"
        )

    def _st_accept_alliance(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        ident = self.alliance_ref(st, nm.DECLARATIONS | nm.ALLIANCES, by, leaving=False)
        return c.AnswerAlliance(by, ident, True)

    def _st_decline_alliance(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        ident = self.alliance_ref(st, nm.DECLARATIONS | nm.ALLIANCES, by, leaving=False)
        return c.AnswerAlliance(by, ident, False)

    def _st_leave_alliance(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        ident = self.alliance_ref(st, nm.ALLIANCES | nm.DECLARATIONS, by, leaving=True)
        return c.LeaveAlliance(by, ident)

    def _st_confirm(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        e = self.resolve(first_of(st, "ident") or st, nm.ANSWERABLE)
        if e.kind == nm.DECLARATION:
            return c.AnswerAlliance(by, e.id, True)
        return c.Confirm(by, e.id)

    def _st_reject(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        e = self.resolve(first_of(st, "ident") or st, nm.ANSWERABLE)
        if e.kind == nm.DECLARATION:
            return c.AnswerAlliance(by, e.id, False)
        return c.Reject(by, e.id)

    # .. permissions ............................................................................
    def grant_parts(self, st: Tree[Token]) -> tuple[str, str, str, tuple[str, ...]]:
        by = self.speaker(st, self.subject(st))
        to = self.resolve(first_of(st, "name") or st, nm.FACTIONS).id
        place: str | None = None
        aspects: list[str] = []
        for clause in subtrees(st, "grant_clause"):
            node = first_of(clause, "name")
            assert node is not None
            p = self.resolve(node, nm.PLACES).id
            if place is not None and p != place:
                raise self.syntax(node, "a permission is for one place: write a line for each place")
            place = p
            aspects += [
                _ASPECT_OF[str(a.data)] for a in clause.children if isinstance(a, Tree) and a.data != "name"
            ]
        assert place is not None
        return by, to, place, tuple(aspects)

    def _st_grant(self, st: Tree[Token]) -> c.Command:
        by, to, place, aspects = self.grant_parts(st)
        return c.Grant(by, to, place, aspects)

    def _st_revoke(self, st: Tree[Token]) -> c.Command:
        by, to, place, aspects = self.grant_parts(st)
        return c.Revoke(by, to, place, aspects)

    def _st_revoke_all(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        nodes = subtrees(st, "name")
        to = self.resolve(nodes[0], nm.FACTIONS).id
        place = self.resolve(nodes[1], nm.PLACES).id
        return c.Revoke(by, to, place, ())
