"""The clock is injected: the rules never see time, the service sees it only here."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock tests move by hand."""

    def __init__(self, start: datetime | str = "2026-11-30T12:00:00+00:00"):
        self._now = datetime.fromisoformat(start) if isinstance(start, str) else start
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, hours: float = 0, minutes: float = 0) -> datetime:
        with self._lock:
            self._now += timedelta(hours=hours, minutes=minutes)
            return self._now


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC, to the second: ``2026-11-30T12:00:00Z``."""
    return moment.astimezone(UTC).replace(microsecond=0, tzinfo=None).isoformat() + "Z"  # half strftime's cost


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
