"""Parliament's votes (FULL_GAME 3.7, PARL.vote, F20, F21): the vote table, each
faction's bloc in each house, and the tally of a proposal.

A faction's bloc (PARL.vote) holds the votes of its attending nobles, of the awards they
hold (titles, offices, sees: their holder attends), of the cities and towns it controls,
of each house's senior heir whose escort attends for it, and the King's (the sole King's,
his escort attending; with no sole King, the Chancellor's, the Chancellor attending).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import AwardKind, Catalog, VoteTable
from .frozen import FrozenDict
from .kings import senior_heir, sole_king
from .state import GameState, Parliament

FOR, AGAINST, ABSTAIN = "for", "against", "abstain"
STANCES = (FOR, AGAINST, ABSTAIN)
LORDS, COMMONS = "lords", "commons"
KING = "king"
HOUSES = ("lancaster", "york")
CHANCELLOR = "chancellor_of_england"


def senior_key(house: str) -> str:
    """The vote table's key of a house's senior heir: ``senior_lancaster``."""
    return f"senior_{house}"


def from_cards(catalog: Catalog) -> VoteTable:
    """The votes printed on the cards, for a card set without a vote table: each noble
    card's and award's, a town card's going to the places it controls."""
    lords: dict[str, int] = {}
    commons: dict[str, int] = {}
    for n in catalog.nobles.values():
        lords[n.id] = n.lords_votes
        commons[n.id] = n.commons_votes
    for a in catalog.awards.values():
        keys = a.places if a.kind is AwardKind.TOWN and a.places else (a.id,)
        for k in keys:
            lords[k] = lords.get(k, 0) + a.lords_votes
            commons[k] = commons.get(k, 0) + a.commons_votes
    return VoteTable(
        FrozenDict({k: v for k, v in lords.items() if v}), FrozenDict({k: v for k, v in commons.items() if v})
    )


def table(state: GameState) -> VoteTable:
    """The game's vote table: its card set's, else the votes printed on its cards."""
    votes = state.catalog.votes
    return votes if votes is not None else from_cards(state.catalog)


@dataclass(frozen=True, slots=True)
class Bloc:
    """A faction's votes in each house, and what they come from (holder, Lords, Commons)."""

    lords: int = 0
    commons: int = 0
    parts: tuple[tuple[str, int, int], ...] = ()

    @property
    def any(self) -> bool:
        return bool(self.lords or self.commons)


def _attending(state: GameState, parliament: Parliament, faction: str) -> tuple[str, ...]:
    """The nobles ``faction`` declared who are still free and its own."""
    out = []
    for n in parliament.attending.get(faction, ()):
        noble = state.nobles.get(n)
        if noble is not None and noble.faction == faction and noble.captive_of is None:
            out.append(n)
    return tuple(out)


def _royal(state: GameState, parliament: Parliament) -> dict[str, str]:
    """Who holds each royal key's votes: a senior heir's, the King's (PARL.vote)."""
    out: dict[str, str] = {}

    def escort_faction(heir: str | None) -> str | None:
        h = state.heirs.get(heir) if heir is not None else None
        if h is None or h.with_noble is None:
            return None
        n = state.nobles.get(h.with_noble)
        if n is None or n.faction is None or n.captive_of is not None:
            return None
        return n.faction if n.id in _attending(state, parliament, n.faction) else None

    for house in HOUSES:
        f = escort_faction(senior_heir(state, house))
        if f is not None:
            out[senior_key(house)] = f
    king = sole_king(state)
    f = escort_faction(king) if king is not None else chancellor_attending(state, parliament)
    if f is not None:
        out[KING] = f
    return out


def chancellor_faction(state: GameState) -> str | None:
    """The faction of the free noble who holds the Chancellor of England, if any."""
    for n in state.nobles.values():
        if CHANCELLOR in n.awards and n.captive_of is None:
            return n.faction
    return None


def chancellor_attending(state: GameState, parliament: Parliament) -> str | None:
    """The Chancellor's faction, when he attends (with no sole King, the King's votes)."""
    for n in state.nobles.values():
        if (
            CHANCELLOR in n.awards
            and n.faction is not None
            and n.id in _attending(state, parliament, n.faction)
        ):
            return n.faction
    return None


def bloc(state: GameState, parliament: Parliament, faction: str, votes: VoteTable | None = None) -> Bloc:
    """``faction``'s votes in each house in this Parliament (PARL.vote)."""
    t = votes if votes is not None else table(state)
    parts: list[tuple[str, int, int]] = []

    def add(holder: str) -> None:
        lords, commons = t.lords.get(holder, 0), t.commons.get(holder, 0)
        if lords or commons:
            parts.append((holder, lords, commons))

    for n in _attending(state, parliament, faction):
        add(n)
        for a in state.nobles[n].awards:
            add(a)
    for place, f in sorted(state.control.items()):
        if f == faction:
            add(place)
    for key, f in sorted(_royal(state, parliament).items()):
        if f == faction:
            add(key)
    return Bloc(sum(p[1] for p in parts), sum(p[2] for p in parts), tuple(parts))


def blocs(state: GameState, parliament: Parliament) -> dict[str, Bloc]:
    """Every faction's bloc, in turn order."""
    t = table(state)
    return {f: bloc(state, parliament, f, t) for f in state.turn_order}


@dataclass(frozen=True, slots=True)
class Tally:
    """A proposal's count by house (abstentions are not counted: F20), and the Commons
    votes present (every bloc of the sitting, whatever its stance: F21)."""

    lords_for: int
    lords_against: int
    commons_for: int
    commons_against: int
    commons_present: int

    @property
    def passes(self) -> bool:
        """F20: ``for`` above ``against`` in both houses."""
        return self.lords_for > self.lords_against and self.commons_for > self.commons_against

    @property
    def carries_victory(self) -> bool:
        """F21 (VICTORY.parliament): ``for`` above ``against`` in the Lords, and ``for``
        above half of all Commons votes present."""
        return self.lords_for > self.lords_against and 2 * self.commons_for > self.commons_present


def tally(
    state: GameState,
    parliament: Parliament,
    votes: FrozenDict[str, tuple[str, str]] | dict[str, tuple[str, str]],
) -> Tally:
    """The count of ``votes`` (faction -> (Lords stance, Commons stance)) with each
    faction's bloc as it stands now."""
    counts = {(LORDS, FOR): 0, (LORDS, AGAINST): 0, (COMMONS, FOR): 0, (COMMONS, AGAINST): 0}
    present = 0
    for f, b in blocs(state, parliament).items():
        present += b.commons
        stance = votes.get(f)
        if stance is None:
            continue
        lords, commons = stance
        if lords in (FOR, AGAINST):
            counts[(LORDS, lords)] += b.lords
        if commons in (FOR, AGAINST):
            counts[(COMMONS, commons)] += b.commons
    return Tally(
        counts[(LORDS, FOR)],
        counts[(LORDS, AGAINST)],
        counts[(COMMONS, FOR)],
        counts[(COMMONS, AGAINST)],
        present,
    )
