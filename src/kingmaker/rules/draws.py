"""Checking the random draws of a game log against its revealed seed.

At creation the log records the SHA-256 commitment to the secret seed; every random
choice is recorded as a ``random_drawn`` event; at the end the GM reveals the seed.
Anyone can then check that the seed matches the commitment and re-derive every draw,
and every value a deck's shuffle used (``deck_shuffled``: one value per swap, and an
order that must follow from them). Given the state a game's creation recorded (its
export's), it also re-deals the game from the seed, as creation did (``deal.creation``):
every value of the Crown deck's shuffles and of the event deck's first shuffle, and the
hands, Crown deck and event deck they gave, compared with the recorded ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from . import events as ev
from .cards import Catalog
from .chance import commitment, raw_value, shuffle_order
from .deal import creation
from .state import GameState


@dataclass(frozen=True, slots=True)
class DrawCheck:
    index: int  # 1-based position among the draws
    n: int  # candidates (a shuffle's swap at position i: i + 1)
    #: the pick; for a shuffle, the value itself; None for a shuffle at creation, whose
    #: record is the order it gave (``outcome_ok``), not its picks
    recorded: int | None
    derived: int | None  # None for a value the GM injected (not from the seed)
    purpose: str
    outcome_ok: bool = True  # a shuffle at creation: the recorded order is the seed's

    @property
    def ok(self) -> bool:
        if not self.outcome_ok:
            return False
        return self.derived is None or self.recorded is None or self.derived == self.recorded

    @property
    def at_creation(self) -> bool:
        return self.recorded is None


@dataclass(frozen=True, slots=True)
class DrawReport:
    seed: str | None
    commitment: str | None
    commitment_ok: bool
    draws: tuple[DrawCheck, ...]
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.commitment_ok and not self.problems and all(d.ok for d in self.draws)

    @property
    def at_creation(self) -> int:
        """How many of the draws were made at creation (the deal, the first event deck)."""
        return sum(1 for d in self.draws if d.at_creation)


@dataclass(frozen=True, slots=True)
class Created:
    """What a game recorded at its creation (its export's initial state): the state the
    deal gave, and whether the game plays the full game (the event deck shuffled then).
    ``catalog``: the cards in the order of the data set the game was dealt from (the
    Crown deck is built in that order, DEAL step 1; a stored record need not keep it);
    None when that data set is not at hand, ``why`` saying so."""

    state: GameState
    full_game: bool
    catalog: Catalog | None
    why: str = ""


def _uses(
    events: list[ev.Event],
) -> tuple[list[tuple[int, int, str, bool]], list[tuple[int, tuple[int, ...]]], list[str]]:
    """Every use of the random source in order, as (n, recorded, purpose, whole): a
    ``random_drawn`` records its pick (``v mod n``); a ``deck_shuffled`` records each
    value ``v`` whole, one per swap (FULL_GAME §4). Also where the GM injected values,
    and the shuffles whose order does not follow from their values."""
    uses: list[tuple[int, int, str, bool]] = []
    injected_at: list[tuple[int, tuple[int, ...]]] = []
    problems: list[str] = []
    shuffles = 0
    for e in events:
        if isinstance(e, ev.RandomDrawn):
            uses.append((e.n, e.pick, e.purpose, False))
        elif isinstance(e, ev.DeckShuffled):
            shuffles += 1
            what = f"shuffle {shuffles} of the {e.deck} deck"
            size = len(e.order)
            for k, v in enumerate(e.values):
                uses.append((size - k, v, f"{what}, swap {k + 1}", True))
            if len(e.values) != max(size - 1, 0) or shuffle_order(sorted(e.order), e.values) != list(e.order):
                problems.append(f"{what}: its order does not follow from its values (FULL_GAME section 4)")
        elif isinstance(e, ev.RandomInjected):
            injected_at.append((len(uses), e.values))
    return uses, injected_at, problems


def verify_draws(
    events: Iterable[ev.Event], seed: str | None = None, created: Created | None = None
) -> DrawReport:
    """Re-derive every draw of ``events`` from ``seed`` (or the seed the log reveals):
    the random picks and every value a deck's shuffle used; with ``created``, first the
    shuffles and the deal made at creation (``creation_draws``)."""
    committed: str | None = None
    revealed: str | None = None
    listed = list(events)
    for e in listed:
        if isinstance(e, ev.SeedCommitted):
            committed = e.commitment
        elif isinstance(e, ev.SeedRevealed):
            revealed = e.seed
    uses, injected_at, problems = _uses(listed)
    key = seed if seed is not None else revealed
    if committed is None:
        problems.append("the log has no seed commitment")
    if key is None:
        problems.append("no seed: the GM has not revealed it and none was given")
    ok_commit = key is not None and committed is not None and commitment(key) == committed
    if key is not None and committed is not None and not ok_commit:
        problems.append("the seed does not match the commitment published at creation")
    checks: list[DrawCheck] = []
    if created is not None and key is not None:
        checks, more = creation_draws(created, key)
        problems.extend(more)
    first = len(checks)
    counter = 0
    queue: list[int] = []
    pending = list(injected_at)
    for i, (n, recorded, purpose, whole) in enumerate(uses):
        while pending and pending[0][0] <= i:
            queue.extend(pending.pop(0)[1])
        if queue:
            v = queue.pop(0)
            checks.append(
                DrawCheck(first + i + 1, n, recorded, v if whole else v % n, purpose + " (GM-injected)")
            )
            continue
        derived: int | None = None
        if key is not None:
            raw = raw_value(key, counter)
            derived = raw if whole else raw % n
        counter += 1
        checks.append(DrawCheck(first + i + 1, n, recorded, derived, purpose))
    return DrawReport(key, committed, ok_commit, tuple(checks), tuple(problems))


def creation_draws(created: Created, seed: str) -> tuple[list[DrawCheck], list[str]]:
    """Deal the game again from ``seed`` as its creation did (``deal.creation``, with the
    recorded factions and board and the data set's catalog; the number of cards dealt
    each faction read from the record) and compare it with the recorded state. Each
    value the shuffles used is a draw: the Crown deck's (one shuffle per deal, DEAL
    step 4) and the event deck's (full game). The log keeps the order each gave, not
    its values, so a draw is wrong when its shuffle's order differs from the record.
    The checks, and one problem per deck naming the draws whose order differs."""
    rec = created.state
    factions = rec.turn_order
    if created.catalog is None:
        return [], [f"the deal at creation cannot be re-derived: {created.why}"]
    dealt = sum(len(_holding(rec, f)) for f in factions) + len(rec.chancery) + len(rec.crown_discard)
    if not factions or dealt == 0 or dealt % len(factions):
        return [], [
            f"the deal recorded at creation ({dealt} cards) cannot be a deal to {len(factions)} factions"
        ]
    crowned = tuple(h.id for h in rec.heirs.values() if h.crowned)
    try:
        got = creation(
            rec.board,
            created.catalog,
            factions,
            seed,
            dealt // len(factions),
            (),
            crowned,
            full_game=created.full_game,
        )
    except ValueError as e:
        return [], [f"the seed cannot deal the game recorded at creation: {e}"]
    differences = {
        "crown": _crown_difference(rec, got.state),
        "event": _order_difference("event deck", rec.event_deck, got.state.event_deck),
    }
    labels = {
        "crown": "the Crown deck's shuffle and deal at creation",
        "event": "the event deck's shuffle at creation",
    }
    checks: list[DrawCheck] = []
    spans: dict[str, tuple[int, int]] = {}
    crowns = sum(1 for sh in got.shuffles if sh.deck == "crown")
    for m, sh in enumerate(got.shuffles, start=1):
        what = (
            f"the Crown deck's shuffle {m} of {crowns} at creation" if sh.deck == "crown" else labels["event"]
        )
        if sh.deck == "crown" and m < crowns:
            what += " (re-dealt: a faction had no noble)"
        start = len(checks) + 1
        ok = differences[sh.deck] is None
        checks.extend(
            DrawCheck(start + k, len(sh.order) - k, None, pick, f"{what}, swap {k + 1}", ok)
            for k, pick in enumerate(sh.picks)
        )
        spans[sh.deck] = (spans.get(sh.deck, (start, 0))[0], len(checks))
    problems: list[str] = []
    for deck, difference in differences.items():
        if difference is None:
            continue
        first, last = spans.get(deck, (1, 0))
        which = f"draws {first}-{last}" if first <= last else "no draw"
        problems.append(f"{which} ({labels[deck]}) differ from the record: {difference}")
    return checks, problems


def _holding(state: GameState, faction: str) -> list[str]:
    """The cards ``faction`` was dealt, as a state after the deal shows them: its nobles,
    their items, its ships."""
    cards = [n.id for n in state.nobles.values() if n.faction == faction]
    cards += [a for n in state.nobles.values() if n.faction == faction for a in n.awards]
    cards += [s.id for s in state.ships.values() if s.faction == faction]
    return sorted(cards)


def _multiset_difference(recorded: Sequence[str], derived: Sequence[str]) -> str | None:
    extra = sorted((Counter(recorded) - Counter(derived)).elements())
    missing = sorted((Counter(derived) - Counter(recorded)).elements())
    if not extra and not missing:
        return None
    return f"the record has {', '.join(extra) or 'nothing more'}, the seed gives {', '.join(missing) or 'nothing more'}"


def _order_difference(what: str, recorded: Sequence[str], derived: Sequence[str]) -> str | None:
    if tuple(recorded) == tuple(derived):
        return None
    for k, (a, b) in enumerate(zip(recorded, derived, strict=False), start=1):
        if a != b:
            return f"the recorded {what} has {a} at position {k}, the seed gives {b}"
    return f"the recorded {what} holds {len(recorded)} cards, the seed gives {len(derived)}"


def _crown_difference(rec: GameState, got: GameState) -> str | None:
    """How the deal recorded at creation differs from the seed's (None: it does not)."""
    for f in rec.turn_order:
        diff = _multiset_difference(_holding(rec, f), _holding(got, f))
        if diff is not None:
            return f"{f}'s hand: {diff}"
    for what in ("chancery", "crown_discard"):
        diff = _multiset_difference(getattr(rec, what), getattr(got, what))
        if diff is not None:
            return f"the {what.replace('_', ' ')}: {diff}"
    diff = _order_difference("Crown deck", rec.crown_deck, got.crown_deck)
    if diff is not None:
        return diff
    if rec.nobles != got.nobles or rec.ships != got.ships or rec.control != got.control:
        return "the dealt cards are held, placed or control places otherwise than the seed's deal gives"
    return None
