"""Checking the random draws of a game log against its revealed seed.

At creation the log records the SHA-256 commitment to the secret seed; every random
choice is recorded as a ``random_drawn`` event; at the end the GM reveals the seed.
Anyone can then check that the seed matches the commitment and re-derive every draw,
and every value a deck's shuffle used (``deck_shuffled``: one value per swap, and an
order that must follow from them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import events as ev
from .chance import commitment, raw_value, shuffle_order


@dataclass(frozen=True, slots=True)
class DrawCheck:
    index: int  # 1-based position among the draws
    n: int  # candidates (a shuffle's swap at position i: i + 1)
    recorded: int  # the pick; for a shuffle, the value itself
    derived: int | None  # None for a value the GM injected (not from the seed)
    purpose: str

    @property
    def ok(self) -> bool:
        return self.derived is None or self.derived == self.recorded


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


def verify_draws(events: Iterable[ev.Event], seed: str | None = None) -> DrawReport:
    """Re-derive every draw of ``events`` from ``seed`` (or the seed the log reveals):
    the random picks and every value a deck's shuffle used."""
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
    counter = 0
    queue: list[int] = []
    pending = list(injected_at)
    for i, (n, recorded, purpose, whole) in enumerate(uses):
        while pending and pending[0][0] <= i:
            queue.extend(pending.pop(0)[1])
        if queue:
            v = queue.pop(0)
            checks.append(DrawCheck(i + 1, n, recorded, v if whole else v % n, purpose + " (GM-injected)"))
            continue
        derived: int | None = None
        if key is not None:
            raw = raw_value(key, counter)
            derived = raw if whole else raw % n
        counter += 1
        checks.append(DrawCheck(i + 1, n, recorded, derived, purpose))
    return DrawReport(key, committed, ok_commit, tuple(checks), tuple(problems))
