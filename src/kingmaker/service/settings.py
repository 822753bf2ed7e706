"""A game's settings, chosen by the GM at creation."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from .errors import BadRequest

Policy = Literal["hold", "extend"]

# The longest deadline a game may set: a year (a deadline must stay a date)
MAX_HOURS = 24 * 365


@dataclass(frozen=True)
class GameSettings:
    """``policy`` for a turn whose faction sent no order by its deadline: ``hold`` (the
    turn ends, its units hold) or ``extend`` (the deadline is extended once by
    ``turn_hours``, then the turn ends). ``turn_hours`` / ``request_hours`` of None:
    no deadline. ``snapshot_every``: a snapshot every N log entries."""

    policy: Policy = "hold"
    turn_hours: float | None = 24.0
    request_hours: float | None = 24.0
    snapshot_every: int = 100

    def __post_init__(self) -> None:
        if self.policy not in ("hold", "extend"):
            raise BadRequest(f"policy must be 'hold' or 'extend', not {self.policy!r}")
        for name in ("turn_hours", "request_hours"):
            v = getattr(self, name)
            if v is not None and not (isinstance(v, (int, float)) and 0 < v <= MAX_HOURS):
                raise BadRequest(f"{name} must be a positive number of hours, at most {MAX_HOURS} (or none)")
        if not isinstance(self.snapshot_every, int) or self.snapshot_every < 1:
            raise BadRequest("snapshot_every must be a whole number of 1 or more")

    def to_data(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> GameSettings:
        known = {k: data[k] for k in ("policy", "turn_hours", "request_hours", "snapshot_every") if k in data}
        return cls(**known)
