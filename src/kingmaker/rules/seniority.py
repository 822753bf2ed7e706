"""ALLY.7: who is the senior officer of an army or fleet, and why.

The criteria are tried in order (i to v, then faction-wide as ruling R10 defines it,
then at random from the recorded source); the answer names the one that decided and
says what each earlier one found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import ids
from .cards import ARMY_OFFICES, FLEET_OFFICES, SEES_BY_SENIORITY
from .chance import draw
from .potential import potential
from .state import GameState, RandomSource
from .units import name, names


@dataclass(frozen=True, slots=True)
class Seniority:
    senior: str | None
    rule: str | None
    explanation: str
    draws: tuple[tuple[int, int], ...] = ()  # (n, pick) for each random draw made
    rng: RandomSource | None = None  # the source after the draws


def choose_senior(
    state: GameState, nobles: Sequence[str], fleet: bool, rng: RandomSource | None = None
) -> Seniority:
    """The senior officer among ``nobles`` (an army's members, or a fleet's passengers).

    The Chancellor of England outranks a larger noble (more cases in the SEN-* vectors):

    >>> from kingmaker.conformance.case import build_board, build_state
    >>> board = build_board({"places": {"york": {"kind": "city"}}})
    >>> state = build_state({
    ...     "turn_order": ["red", "green"],
    ...     "alliances": [{"id": "rg", "members": ["red", "green"], "public": False}],
    ...     "nobles": {
    ...         "percy": {"faction": "red", "at": "york", "troops": 100},
    ...         "neville": {"faction": "green", "at": "york", "troops": 50,
    ...                     "awards": [{"id": "chancellor_of_england", "troops": 50}]},
    ...     },
    ... }, board, "doc")
    >>> s = choose_senior(state, ("percy", "neville"), fleet=False)
    >>> s.senior, s.rule
    ('neville', 'ALLY.7.ii')
    """
    source = rng if rng is not None else state.rng
    members = tuple(sorted(nobles))
    if not members:
        return Seniority(None, None, "a fleet with no passengers has no senior officer", (), source)
    if len(members) == 1:
        only = members[0]
        return Seniority(only, ids.ALLY_7, f"{name(state, only)} is the only noble", (), source)
    notes: list[str] = []
    kind = "fleet" if fleet else "army"

    def done(senior: str, rule: str, why: str, draws: tuple[tuple[int, int], ...] = ()) -> Seniority:
        text = "; ".join([*notes, why]) + f": {name(state, senior)} is senior officer ({rule})"
        return Seniority(senior, rule, text[0].upper() + text[1:], draws, source)

    # i. the noble escorting the one crowned monarch present
    crowned = [h for h in state.heirs.values() if h.crowned and h.with_noble in members]
    escort = crowned[0].with_noble if len(crowned) == 1 else None
    if escort is not None:
        return done(
            escort, ids.ALLY_7_I, f"{name(state, escort)} escorts the crowned {name(state, crowned[0].id)}"
        )
    notes.append("no crowned monarch present" if not crowned else "two crowned monarchs present")

    # ii. the most senior office, iii. the most senior see
    held = {m: set(state.nobles[m].awards) for m in members}
    for rule, ladder, what in (
        (ids.ALLY_7_II, FLEET_OFFICES if fleet else ARMY_OFFICES, "office"),
        (ids.ALLY_7_III, SEES_BY_SENIORITY, "see"),
    ):
        present = [(rank, card, m) for rank, card in enumerate(ladder) for m in members if card in held[m]]
        if present:
            present.sort()
            _, card, holder = present[0]
            others = sorted({c for _, c, _ in present[1:] if c != card}, key=ladder.index)
            why = f"{name(state, holder)} holds {_card(state, card)}"
            if others:
                why = f"{_card(state, card)} outranks {', '.join(_card(state, c) for c in others)}"
            return done(holder, rule, why)
        notes.append(f"no senior {what} present in the {kind}")

    # iv. the largest troop potential
    pot = {m: potential(state, m) for m in members}
    top = max(pot.values())
    tied = [m for m in members if pot[m] == top]
    if len(tied) == 1:
        return done(tied[0], ids.ALLY_7_IV, f"{name(state, tied[0])} has the largest troop potential ({top})")
    notes.append(f"{names(state, tied)} tie at {top} troops")

    # v. the faction with the largest combined potential among those of the tied nobles
    faction_of = {m: state.nobles[m].faction or "" for m in members}
    combined: dict[str, int] = {}
    for m in members:
        combined[faction_of[m]] = combined.get(faction_of[m], 0) + pot[m]
    contenders = sorted({faction_of[m] for m in tied})
    best = max(combined[f] for f in contenders)
    leaders = [f for f in contenders if combined[f] == best]
    if len(leaders) == 1:
        f = leaders[0]
        mine = [m for m in tied if faction_of[m] == f]
        if len(mine) == 1:
            return done(mine[0], ids.ALLY_7_V, f"{f} has the largest combined potential ({best})")
        pick, source = draw(source, len(mine))
        notes.append(f"{f} has the largest combined potential ({best})")
        return done(
            mine[pick], ids.ALLY_7_RANDOM, f"drawn at random from {names(state, mine)}", ((len(mine), pick),)
        )
    notes.append(f"{' and '.join(leaders)} tie at {best} combined")

    # faction-wide (R10), over every faction with nobles in the army or fleet
    factions = sorted(set(faction_of.values()))
    winner, why = _faction_wide(state, factions, combined, fleet)
    if winner is not None:
        theirs = [m for m in members if faction_of[m] == winner]
        top_f = max(pot[m] for m in theirs)
        best_nobles = [m for m in theirs if pot[m] == top_f]
        if len(best_nobles) == 1:
            return done(best_nobles[0], ids.ALLY_7_FACTION, why)
        notes.append(why)
        pick, source = draw(source, len(best_nobles))
        return done(
            best_nobles[pick],
            ids.ALLY_7_RANDOM,
            f"drawn at random from {names(state, best_nobles)}",
            ((len(best_nobles), pick),),
        )
    notes.append(why)
    pick, source = draw(source, len(members))
    return done(members[pick], ids.ALLY_7_RANDOM, "drawn at random from all present", ((len(members), pick),))


def _card(state: GameState, card_id: str) -> str:
    return state.catalog.award(card_id).name


def _faction_wide(
    state: GameState, factions: list[str], combined: dict[str, int], fleet: bool
) -> tuple[str | None, str]:
    """Ruling R10: criteria i-iv applied to each faction as a whole."""
    monarchs = {
        f
        for h in state.heirs.values()
        if h.crowned and h.with_noble is not None and h.with_noble in state.nobles
        for f in [state.nobles[h.with_noble].faction]
        if f in factions
    }
    if len(monarchs) == 1:
        f = next(iter(monarchs))
        return f, f"faction-wide, {f} controls the one crowned monarch"
    holdings: dict[str, set[str]] = {f: set() for f in factions}
    for n in state.nobles.values():
        if n.faction in holdings:
            holdings[n.faction].update(n.awards)
    for ladder in (FLEET_OFFICES if fleet else ARMY_OFFICES, SEES_BY_SENIORITY):
        for card in ladder:
            have = [f for f in factions if card in holdings[f]]
            if len(have) == 1:
                return have[0], f"faction-wide, {have[0]} holds {_card(state, card)}"
            if have:
                break
    top = max(combined[f] for f in factions)
    best = [f for f in factions if combined[f] == top]
    if len(best) == 1:
        return best[0], f"faction-wide, {best[0]} has the largest total potential ({top})"
    return None, "faction-wide, no faction stands out"
