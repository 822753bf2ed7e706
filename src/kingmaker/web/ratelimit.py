"""Requests per player token per minute, shared by every server process through the
database: past the limit, 429 with ``Retry-After`` (the seconds left in the minute).

Each process takes a share of a token's minute at a time (``chunk`` requests, a tenth
of the limit by default) and counts it down in memory, so the database sees one write
per share, not one per request. A share taken and not used is lost for that minute:
with ``k`` processes a token may be refused up to ``k * chunk`` requests early, never
served more than the limit.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from kingmaker.service import ServiceError
from kingmaker.storage.websec import WebSecurityStore

from .throttle import wait_text

#: The default limit: generous for a person clicking, or a bot polling every second.
DEFAULT_PER_MINUTE = 300
PERIOD = 60


class TooManyRequests(ServiceError):
    """This token has made too many requests this minute."""

    code = "too_many_requests"

    def __init__(self, retry_after: int, limit: int):
        super().__init__(
            f"too many requests with this link ({limit} a minute); try again in {wait_text(retry_after)}"
        )
        self.retry_after = retry_after


class TokenRateLimit:
    def __init__(
        self,
        db: WebSecurityStore,
        per_minute: int = DEFAULT_PER_MINUTE,
        *,
        chunk: int | None = None,
        clock: Callable[[], float] = time.time,
        max_keys: int = 10_000,
    ):
        if per_minute < 1:
            raise ValueError("the limit is at least 1 request a minute")
        self.db, self.limit, self.clock = db, per_minute, clock
        self.chunk = max(1, min(per_minute, chunk if chunk is not None else per_minute // 10))
        self.max_keys = max_keys
        self._left: dict[str, tuple[int, int]] = {}  # key -> (period, requests left in this process's share)
        self._lock = threading.Lock()

    def hit(self, key: str) -> None:
        """Count one request by ``key``; raise ``TooManyRequests`` past the limit."""
        now = self.clock()
        period = int(now // PERIOD)
        with self._lock:
            p, left = self._left.get(key, (-1, 0))
            if p == period and left > 0:
                self._left[key] = (p, left - 1)
                return
            used_up = p == period and left < 0
        if not used_up:
            granted = self.db.reserve(key, period, self.chunk, self.limit)
            with self._lock:
                if len(self._left) >= self.max_keys:
                    self._left = {k: v for k, v in self._left.items() if v[0] == period}
                p, left = self._left.get(key, (-1, 0))
                left = max(left, 0) if p == period else 0
                left += granted
                # -1: used up this minute (remembered, so the database is not asked again)
                self._left[key] = (period, left - 1 if left > 0 else -1)
                if left > 0:
                    return
        raise TooManyRequests(max(1, math.ceil((period + 1) * PERIOD - now)), self.limit)
