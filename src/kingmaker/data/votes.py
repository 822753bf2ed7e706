"""Parliament's vote table from the data files (FULL_GAME 3.7), and its checks.

The table (``rules.cards.VoteTable``) gathers every holder's votes by house: each noble
card's (``nobles.toml``), each title's, office's and see's (``awards.toml``), each city's
and town's Commons votes (``places.toml`` ``commons_votes``: its controller's), and the
royal votes (``setup.toml`` ``[parliament]``: ``king``, ``senior_lancaster``,
``senior_york``). A town card's votes are its place's, counted through control: they
are written on the place, and the card may repeat them (``check_votes`` says if it
disagrees; a card's votes go to its places when they give none), never counted twice.
"""

from __future__ import annotations

from kingmaker.rules.board import PlaceKind
from kingmaker.rules.cards import AwardKind, Catalog, VoteTable
from kingmaker.rules.frozen import FrozenDict

from . import schema as s
from .parse import Parsed
from .problems import DataProblem

VOTING_PLACES = (PlaceKind.CITY, PlaceKind.TOWN)


def vote_table(out: Parsed) -> VoteTable:
    """The vote table of a folder that checked clean."""
    lords: dict[str, int] = {}
    commons: dict[str, int] = {}
    for n in out.nobles.values():
        lords[n.id], commons[n.id] = n.lords_votes, n.commons_votes
    for a in out.awards.values():
        if a.kind is not AwardKind.TOWN:
            lords[a.id], commons[a.id] = a.lords_votes, a.commons_votes
    for a in out.awards.values():  # a town card's votes, for its places that give none
        if a.kind is AwardKind.TOWN and a.commons_votes:
            for p in a.places:
                commons[p] = a.commons_votes
    commons.update(out.place_votes)
    for house, table in (("lords", lords), ("commons", commons)):
        table.update(out.royal_votes.get(house, {}))
    return VoteTable(
        FrozenDict({k: v for k, v in lords.items() if v}), FrozenDict({k: v for k, v in commons.items() if v})
    )


def check_votes(out: Parsed) -> None:
    """Votes only on cities and towns (and not on open towns, which no one controls); the
    royal votes under their keys; a town card's Commons votes, when it and its places both
    give them, equal to its places' (they are one vote, counted through control)."""
    for pid, votes in out.place_votes.items():
        place = out.places.get(pid)
        if place is not None and votes and place.kind not in VOTING_PLACES:
            out.problems.append(
                DataProblem(
                    s.PLACES,
                    f"{pid}.commons_votes",
                    f"a {place.kind.label} has no votes: only cities and towns (their controller's) have",
                )
            )
    for house, table in out.royal_votes.items():
        for key in table:
            if key not in s.ROYAL_VOTES:
                out.problems.append(
                    DataProblem(
                        s.SETUP,
                        f"{s.PARLIAMENT_KEY}.{house}.{key}",
                        f"unknown royal vote; expected one of: {', '.join(s.ROYAL_VOTES)}",
                    )
                )
    for a in out.awards.values():
        if a.kind is not AwardKind.TOWN or not a.commons_votes or not a.places:
            continue
        given = [p for p in a.places if p in out.place_votes]
        on_places = sum(out.place_votes[p] for p in given)
        if given and a.commons_votes != on_places:
            section = s.SECTION_OF_KIND[a.kind]
            out.problems.append(
                DataProblem(
                    s.AWARDS,
                    f"{section}.{a.id}.commons_votes",
                    f"{a.commons_votes} Commons votes, but its places {', '.join(a.places)} have "
                    f"{on_places}: a town's votes are its place's (places.toml), counted once",
                )
            )


def totals(catalog: Catalog) -> tuple[int, int]:
    """The Lords and Commons votes of the whole table, the cards the set-up removes left
    out (FULL_GAME 3.7: 82 and 156 in the default data)."""
    votes = catalog.votes
    if votes is None:
        return 0, 0
    gone = set(catalog.removed)
    return (
        sum(v for k, v in votes.lords.items() if k not in gone),
        sum(v for k, v in votes.commons.items() if k not in gone),
    )
