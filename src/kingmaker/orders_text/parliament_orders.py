"""Parliament (FULL_GAME 3.7): summoning it (``Red SUMMONS PARLIAMENT AT Ipswich``),
attendance (``Blue ATTENDS WITH Roos``, ``Gold ATTENDS WITH NO ONE``), proposals
(``Red PROPOSES Marshal of England FOR Pole``, ``Red PROPOSES Henry VI AS SOLE KING``,
``Red PROPOSES VICTORY``), votes (``Blue VOTES AGAINST m1``, ``Gold ABSTAINS ON m1``,
``Green VOTES FOR IN THE LORDS AND AGAINST IN THE COMMONS ON m1``) and closing it
(``Red CLOSES PARLIAMENT``; the GM's ``CLOSE PARLIAMENT``).

A proposal is named by its id or by what it proposes (``Marshal of England FOR Pole``,
``Pole``, ``Henry VI AS SOLE KING``, ``VICTORY``) when that fits one proposal of the
sitting Parliament (of several, the one still open). Ids left out are made up: a
summons is ``parliament-<round>-<faction>``, a proposal ``m<n>``, the next number of
its sitting."""

from __future__ import annotations

import difflib
from typing import Final

from lark import Token, Tree

from kingmaker.rules import commands as c
from kingmaker.rules.choices import proposal_id, summons_id
from kingmaker.rules.limits import CHOSEN_ID_MAX, id_problem
from kingmaker.rules.parliament import SOLE_KING, VICTORY, seats
from kingmaker.rules.state import GameState, Proposal
from kingmaker.rules.votes import ABSTAIN, AGAINST, FOR

from . import names as nm
from .crown_orders import CrownOrders
from .errors import UnknownName
from .reading import Fail, Node, Refuse, column_of, first_of, subtrees

NO_ONE: Final = frozenset({"no one", "noone", "nobody", "none", "no noble", "no nobles"})
_STANCES: Final = {"for_": FOR, "against": AGAINST, "abstain_": ABSTAIN}
_HOUSES: Final = {"lords": "the Lords", "commons": "the Commons"}
_PROPOSALS: Final = ("award_for", "sole_king", "victory", "proposal_named")


def matter(state: GameState, pr: Proposal) -> str:
    """What a proposal proposes, in words: ``Marshal of England for Pole``."""
    cat = state.catalog
    if pr.motion == SOLE_KING:
        return f"{cat.name_of(pr.heir)} as sole King"
    if pr.motion == VICTORY:
        return "victory"
    return f"{cat.name_of(pr.award)} for {cat.name_of(pr.to)}"


class ParliamentOrders(CrownOrders):
    """The statements of Parliament."""

    def _st_summon_parliament(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        node = first_of(st, "name")
        if node is not None:
            seat = self.resolve(node, nm.PLACES).id
        else:
            mine = seats(self.state, by)
            if len(mine) != 1:
                where = (
                    f"{by} may seat it at {nm.join_or([self.state.board.name_of(p) for p in mine])}"
                    if mine
                    else f"{by} controls no city or town where it may sit"
                )
                raise Refuse(f"say where Parliament sits (“SUMMONS PARLIAMENT AT <city or town>”): {where}")
            seat = mine[0]
        as_id = first_of(st, "as_id")
        ident = self.new_ident(as_id.children[0]) if as_id is not None else summons_id(self.state, by)
        return c.SummonParliament(by, ident, seat)

    def _st_attend(self, st: Tree[Token]) -> c.Command:
        by, who = self.faction_and_object(st)
        parts = self.items(who)
        if len(parts) == 1 and nm.normalize(self.raw(parts[0])) in NO_ONE:
            return c.Attend(by, ())
        return c.Attend(by, self.many(who, nm.NOBLES))

    def _st_close_parliament(self, st: Tree[Token]) -> c.Command:
        return c.CloseParliament(self.speaker(st, self.subject(st)))

    # .. proposals .............................................................................
    def _st_propose(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        what = next(ch for ch in st.children if isinstance(ch, Tree) and ch.data in _PROPOSALS)
        as_id = first_of(st, "as_id")
        ident = (
            self.new_ident(as_id.children[0])
            if as_id is not None
            else proposal_id(self.state, self.post.taken)
        )
        self.post.taken.add(ident)
        if what.data == "victory":
            return c.Propose(by, ident, motion=VICTORY)
        if what.data == "sole_king":
            heir = self.one(subtrees(what, "names")[0], nm.HEIRS, "heir")
            return c.Propose(by, ident, motion=SOLE_KING, heir=heir.id)
        card_node, noble_node = subtrees(what, "names")
        card = self.card_among(card_node, self.state.chancery)
        return c.Propose(by, ident, award=card.id, to=self.one(noble_node, nm.NOBLES, "noble").id)

    # .. votes ...................................................................................
    def _st_vote(self, st: Tree[Token]) -> c.Command:
        return self._vote(st, None)

    def _st_abstain(self, st: Tree[Token]) -> c.Command:
        return self._vote(st, ABSTAIN)

    def _vote(self, st: Tree[Token], first: str | None) -> c.Command:
        """A stance for both houses, or one for each (``FOR IN THE LORDS AND AGAINST IN THE
        COMMONS``)."""
        by = self.speaker(st, self.subject(st))
        ref = next(ch for ch in st.children if isinstance(ch, Tree) and ch.data in _PROPOSALS)
        pairs: list[tuple[str, str | None, Node]] = [(first, None, st)] if first is not None else []
        for ch in self.rest(st):
            if not isinstance(ch, Tree):
                continue
            if ch.data in _STANCES:
                pairs.append((_STANCES[str(ch.data)], None, ch))
            elif ch.data in _HOUSES:
                stance, _, node = pairs[-1]
                pairs[-1] = (stance, str(ch.data), node)
        if len(pairs) == 1 and pairs[0][1] is None:
            stance = pairs[0][0]
            return c.Vote(by, self.proposal_ref(ref), stance, stance)
        houses: dict[str, str] = {}
        for stance, house, node in pairs:
            if house is None:
                raise self.syntax(
                    node, "voting differently in each house, say which: “… IN THE LORDS AND … IN THE COMMONS”"
                )
            if house in houses:
                raise self.syntax(node, f"{_HOUSES[house]} are given twice")
            houses[house] = stance
        missing = [h for h in _HOUSES if h not in houses]
        if missing:
            raise self.syntax(st, f"say how {by} votes in {_HOUSES[missing[0]]} too")
        return c.Vote(by, self.proposal_ref(ref), houses["lords"], houses["commons"])

    def proposal_ref(self, ref: Tree[Token]) -> str:
        """The id of the proposal ``ref`` names (see the module's text)."""
        p = self.state.parliament
        if ref.data == "proposal_named":
            named = ref.children[0]
            assert isinstance(named, Tree)
            parts = self.items(named)
            ident = (self.raw(parts[0]) if len(parts) == 1 else self.raw(ref)).strip()
            if p is None:
                # no Parliament: the rules say so (PARL.vote) of anything that reads as an id
                if id_problem(ident.lower(), "id", CHOSEN_ID_MAX) is None:
                    return ident.lower()
                raise Refuse("no Parliament sits, so there is no proposal to vote on")
            for pr in p.proposals:
                if pr.id.lower() == ident.lower():
                    return pr.id
        elif p is None:
            raise Refuse("no Parliament sits, so there is no proposal to vote on")
        assert p is not None
        found = self._matching(ref, p.proposals)
        if not found:
            return self._unknown(ref, p.proposals)
        if len(found) > 1:
            still = [pr for pr in found if not pr.outcome]
            if len(still) == 1:
                found = still
        return self.one_of(
            [pr.id for pr in found],
            ref,
            "",
            f"“{self.raw(ref)}” could be several proposals",
        )

    def _matching(self, ref: Tree[Token], proposals: tuple[Proposal, ...]) -> list[Proposal]:
        """The proposals of the sitting that ``ref`` describes."""
        if ref.data == "victory":
            return [pr for pr in proposals if pr.motion == VICTORY]
        if ref.data == "sole_king":
            heir = self.one(subtrees(ref, "names")[0], nm.HEIRS, "heir").id
            return [pr for pr in proposals if pr.motion == SOLE_KING and pr.heir == heir]
        if ref.data == "award_for":
            card_node, noble_node = subtrees(ref, "names")
            card = self.card_among(card_node, {pr.award for pr in proposals})
            noble = self.one(noble_node, nm.NOBLES, "noble").id
            return [pr for pr in proposals if pr.award == card.id and pr.to == noble]
        node = ref.children[0]
        assert isinstance(node, Tree)
        found: list[Proposal] = []
        for kinds, field in ((nm.CARDS, "award"), (nm.NOBLES, "to"), (nm.HEIRS, "heir")):
            wanted = {getattr(pr, field) for pr in proposals} - {""}
            try:
                ids = {self.one(node, kinds, "proposal").id}
            except Fail as f:
                ids = set(getattr(f.problem, "candidate_ids", ())) & wanted
            found += [pr for pr in proposals if getattr(pr, field) in ids and pr not in found]
        return found

    def _unknown(self, ref: Tree[Token], proposals: tuple[Proposal, ...]) -> str:
        written = self.raw(ref)
        if not proposals:
            raise Refuse("no proposal has been made in this Parliament yet")
        listed = ", ".join(f"{pr.id} ({matter(self.state, pr)})" for pr in proposals)
        if ref.data != "proposal_named":  # named well, but never proposed
            what = "no victory motion" if ref.data == "victory" else f"no proposal of {written}"
            raise Refuse(f"{what} is before Parliament; its proposals: {listed}")
        near = tuple(difflib.get_close_matches(written.strip().lower(), [pr.id for pr in proposals], n=3))
        message = f"there is no proposal “{written}” before Parliament; its proposals: {listed}"
        if near:
            message += f"; {nm.did_you_mean(near)}"
        raise Fail(UnknownName(self.lineno, column_of(ref), self.text, message, written, near))
