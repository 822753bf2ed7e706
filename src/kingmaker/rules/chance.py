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


def next_value(source: RandomSource) -> tuple[int, RandomSource]:
    """The next value ``v`` itself (an injected one first) and the source after it: a
    shuffle records the values it used (FULL_GAME §4)."""
    if source.injected:
        return source.injected[0], RandomSource(source.seed, source.counter, source.injected[1:])
    return raw_value(source.seed, source.counter), RandomSource(source.seed, source.counter + 1, ())


def shuffle_order(cards: list[str], values: tuple[int, ...] | list[int]) -> list[str]:
    """The shuffle of FULL_GAME §4 with the given values: ``cards`` in the order given
    (sorted by id, for a deck); for i = n-1 down to 1, j = v mod (i+1), swap i and j;
    index 0 is the top.

    >>> shuffle_order(["a", "b", "c"], [1, 0])
    ['c', 'a', 'b']
    """
    order = list(cards)
    for v, i in zip(values, range(len(order) - 1, 0, -1), strict=False):
        j = v % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


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
