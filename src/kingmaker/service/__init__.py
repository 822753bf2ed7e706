"""The GM service: commands as dataclasses, handlers as functions, a unit of work over
the store, an injected clock for deadlines, and identity checks. No rules here: every
ruling comes from :mod:`kingmaker.rules`."""

from .clock import Clock, FixedClock, SystemClock
from .errors import BadRequest, Conflict, NotFound, PermissionDenied, ServiceError
from .identity import CLOCK, GM_ACTOR, Actor, player
from .settings import GameSettings

__all__ = [
    "CLOCK",
    "GM_ACTOR",
    "Actor",
    "BadRequest",
    "Clock",
    "Conflict",
    "FixedClock",
    "GameSettings",
    "NotFound",
    "PermissionDenied",
    "ServiceError",
    "SystemClock",
    "player",
]
