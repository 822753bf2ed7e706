"""Checking the random draws of a game log against its revealed seed.

At creation the log records the SHA-256 commitment to the secret seed; every random
choice is recorded as a ``random_drawn`` event; at the end the GM reveals the seed.
Anyone can then check that the seed matches the commitment and re-derive every draw.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import events as ev
from .chance import commitment, raw_value


@dataclass(frozen=True, slots=True)
class DrawCheck:
    index: int  # 1-based position among the draws
    n: int
    recorded: int
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


def verify_draws(events: Iterable[ev.Event], seed: str | None = None) -> DrawReport:
    """Re-derive every draw of ``events`` from ``seed`` (or the seed the log reveals)."""
    committed: str | None = None
    revealed: str | None = None
    drawn: list[ev.RandomDrawn] = []
    injected_at: list[tuple[int, tuple[int, ...]]] = []
    for e in events:
        if isinstance(e, ev.SeedCommitted):
            committed = e.commitment
        elif isinstance(e, ev.SeedRevealed):
            revealed = e.seed
        elif isinstance(e, ev.RandomDrawn):
            drawn.append(e)
        elif isinstance(e, ev.RandomInjected):
            injected_at.append((len(drawn), e.values))
    problems: list[str] = []
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
    for i, d in enumerate(drawn):
        while pending and pending[0][0] <= i:
            queue.extend(pending.pop(0)[1])
        if queue:
            v = queue.pop(0)
            checks.append(DrawCheck(i + 1, d.n, d.pick, v % d.n, d.purpose + " (GM-injected)"))
            continue
        derived = raw_value(key, counter) % d.n if key is not None else None
        counter += 1
        checks.append(DrawCheck(i + 1, d.n, d.pick, derived, d.purpose))
    return DrawReport(key, committed, ok_commit, tuple(checks), tuple(problems))
