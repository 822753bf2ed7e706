"""Commands: what a faction (or the GM) asks for. ``decide`` answers each one.

``by`` is a faction id, or ``GM`` for the game master. ``id`` on an order names the
request it becomes if it must wait for other factions' answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .records import Record

GM: Final = "gm"


class Command(Record):
    """Base of every command."""

    by: str


@dataclass(frozen=True, slots=True)
class MoveRoad(Command):
    kind = "move_road"
    by: str
    unit: str
    path: tuple[str, ...]
    enter: bool = False
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Move(Command):
    """A cross-country move of one link."""

    kind = "move"
    by: str
    unit: str
    to: str
    enter: bool = False
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Enter(Command):
    kind = "enter"
    by: str
    unit: str
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Leave(Command):
    kind = "leave"
    by: str
    unit: str
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Embark(Command):
    kind = "embark"
    by: str
    ship: str
    nobles: tuple[str, ...]
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Disembark(Command):
    kind = "disembark"
    by: str
    ship: str
    nobles: tuple[str, ...]
    port: str
    enter: bool = False
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Sail(Command):
    """Sail to ``to`` (a sea zone or a port), through the sea zones ``via`` first."""

    kind = "sail"
    by: str
    ship: str
    to: str
    via: tuple[str, ...] = ()
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Siege(Command):
    kind = "siege"
    by: str
    unit: str
    place: str
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Attack(Command):
    kind = "attack"
    by: str
    unit: str
    target: str
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Defend(Command):
    kind = "defend"
    by: str
    unit: str
    with_: str


@dataclass(frozen=True, slots=True)
class FormArmy(Command):
    kind = "form_army"
    by: str
    id: str
    units: tuple[str, ...]
    fleet: bool = False


@dataclass(frozen=True, slots=True)
class Confirm(Command):
    kind = "confirm"
    by: str
    id: str


@dataclass(frozen=True, slots=True)
class Reject(Command):
    kind = "reject"
    by: str
    id: str


@dataclass(frozen=True, slots=True)
class DeclareAlliance(Command):
    kind = "declare_alliance"
    by: str
    id: str
    with_: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AnswerAlliance(Command):
    kind = "answer_alliance"
    by: str
    alliance: str
    confirm: bool


@dataclass(frozen=True, slots=True)
class Deadline(Command):
    """The GM records that an alliance's confirmation deadline has passed."""

    kind = "deadline"
    by: str
    alliance: str


@dataclass(frozen=True, slots=True)
class LeaveAlliance(Command):
    kind = "leave_alliance"
    by: str
    alliance: str


@dataclass(frozen=True, slots=True)
class Grant(Command):
    kind = "grant"
    by: str
    to: str
    place: str
    aspects: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Revoke(Command):
    kind = "revoke"
    by: str
    to: str
    place: str
    aspects: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Storm(Command):
    kind = "storm"
    by: str
    ship: str
    into: str


@dataclass(frozen=True, slots=True)
class SetControl(Command):
    kind = "set_control"
    by: str
    place: str
    faction: str | None


@dataclass(frozen=True, slots=True)
class InjectRandom(Command):
    kind = "random"
    by: str
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    kind = "end_turn"
    by: str


@dataclass(frozen=True, slots=True)
class RevealSeed(Command):
    kind = "reveal_seed"
    by: str


@dataclass(frozen=True, slots=True)
class Kill(Command):
    """The GM's ruling: a noble dies."""

    kind = "kill"
    by: str
    noble: str


@dataclass(frozen=True, slots=True)
class Capture(Command):
    """The GM's ruling: a noble is captured by ``faction``."""

    kind = "capture"
    by: str
    noble: str
    faction: str


@dataclass(frozen=True, slots=True)
class Release(Command):
    """The GM frees a captive noble (ransom paid) at ``place``."""

    kind = "release"
    by: str
    noble: str
    place: str
    inside: bool = False


@dataclass(frozen=True, slots=True)
class MoveHeir(Command):
    """The GM's ruling: an heir goes with ``with_noble``, or is left at ``place``."""

    kind = "move_heir"
    by: str
    heir: str
    with_noble: str | None = None
    place: str | None = None
    inside: bool = False


@dataclass(frozen=True, slots=True)
class ResolveCombat(Command):
    """The GM records that a declared siege or battle is settled (with its outcome)."""

    kind = "resolve_combat"
    by: str
    combat: str
    summary: str = ""


@dataclass(frozen=True, slots=True)
class Expire(Command):
    """A pending request's deadline passed: it lapses (R15)."""

    kind = "expire"
    by: str
    request: str


MOVEMENT_COMMANDS: Final = (MoveRoad, Move, Enter, Leave, Embark, Disembark, Sail)
COMBAT_COMMANDS: Final = (Siege, Attack)
GM_COMMANDS: Final = (
    Deadline,
    Storm,
    SetControl,
    InjectRandom,
    EndTurn,
    RevealSeed,
    Kill,
    Capture,
    Release,
    MoveHeir,
    ResolveCombat,
    Expire,
)
