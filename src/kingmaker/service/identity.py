"""Who sends a command: a faction's player, the GM, or the service's own clock."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Literal

Role = Literal["gm", "player", "clock"]


@dataclass(frozen=True, slots=True)
class Actor:
    role: Role
    faction: str | None = None

    @property
    def label(self) -> str:
        """How the log names the actor: the faction id, ``gm`` or ``clock``."""
        return self.faction if self.role == "player" and self.faction else self.role

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"


GM_ACTOR = Actor("gm")
CLOCK = Actor("clock")


def player(faction: str) -> Actor:
    return Actor("player", faction)


def new_token() -> str:
    """A player's secret link token (shown once; only its hash is stored)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
