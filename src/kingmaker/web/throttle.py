"""Failed GM logins, counted per client: after ``limit`` failures within ``window``
seconds, that client must wait until the oldest of them is ``window`` old. Guards the
login form and the API's ``Bearer gm:<password>`` alike.

Kept in the server process's memory: with several server processes each counts its
own (the limit per client is then ``limit`` × processes), and a restart forgets.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

from kingmaker.service import ServiceError


class TooManyAttempts(ServiceError):
    """Too many failed logins from this client: try again after ``retry_after`` s."""

    code = "too_many_attempts"

    def __init__(self, retry_after: int):
        minutes = max(1, math.ceil(retry_after / 60))
        super().__init__(
            f"too many failed GM logins from this address; try again in {minutes} minute"
            f"{'s' if minutes != 1 else ''}"
        )
        self.retry_after = retry_after


class LoginThrottle:
    def __init__(
        self,
        limit: int = 5,
        window: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = 10_000,
    ):
        self.limit, self.window, self.clock, self.max_clients = limit, window, clock, max_clients
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, client: str) -> None:
        """Raise ``TooManyAttempts`` if ``client`` has used up its attempts."""
        with self._lock:
            now = self.clock()
            times = self._recent(client, now)
            if len(times) >= self.limit:
                raise TooManyAttempts(max(1, math.ceil(times[0] + self.window - now)))

    def failed(self, client: str) -> None:
        with self._lock:
            now = self.clock()
            self._recent(client, now).append(now)
            if len(self._failures) > self.max_clients:
                self._prune(now)

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._failures.pop(client, None)

    def _recent(self, client: str, now: float) -> deque[float]:
        times = self._failures.setdefault(client, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def _prune(self, now: float) -> None:
        for client in list(self._failures):
            if not self._recent(client, now):
                del self._failures[client]
        while len(self._failures) > self.max_clients:  # still too many: forget the oldest
            del self._failures[next(iter(self._failures))]
