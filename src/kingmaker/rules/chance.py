"""The recorded random source: every random choice is ``sha256(seed:counter)``.

Replaying a game gives the same draws; after the GM reveals the seed anyone can
re-derive every draw from the log and check it against the published commitment.
"""

from __future__ import annotations

import hashlib

from .state import RandomSource


def commitment(seed: str) -> str:
    """The SHA-256 commitment to ``seed`` published at game creation.

    >>> commitment("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def opaque_id(seed: str, what: str, seq: int) -> str:
    """An id the rules give something nobody named (a request waiting for answers),
    made from the secret seed and the log's position: it tells no one how long the log
    is or how many secrets it holds, and it replays the same.

    >>> opaque_id("abc", "request", 7) == opaque_id("abc", "request", 7) != opaque_id("abc", "request", 8)
    True
    """
    return hashlib.sha256(f"{seed}:{what}:{seq}".encode()).hexdigest()[:10]


def raw_value(seed: str, counter: int) -> int:
    """The source's ``counter``-th value (a 64-bit number)."""
    digest = hashlib.sha256(f"{seed}:{counter}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def draw(source: RandomSource, n: int) -> tuple[int, RandomSource]:
    """Pick one of ``n`` candidates: ``v mod n`` of the next value ``v``.

    Injected values (conformance ``random`` steps) are used first.
    """
    if n <= 0:
        raise ValueError("draw from no candidates")
    if source.injected:
        v = source.injected[0]
        return v % n, RandomSource(source.seed, source.counter, source.injected[1:])
    v = raw_value(source.seed, source.counter)
    return v % n, RandomSource(source.seed, source.counter + 1, ())


def advance(source: RandomSource) -> RandomSource:
    """The source after one draw (what ``apply`` does for a ``RandomDrawn`` event)."""
    if source.injected:
        return RandomSource(source.seed, source.counter, source.injected[1:])
    return RandomSource(source.seed, source.counter + 1, ())
