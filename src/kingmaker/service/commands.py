"""The service's commands: what a GM or a player asks of a game."""

from __future__ import annotations

from dataclasses import dataclass, field

from kingmaker.rules.commands import Command

from .settings import GameSettings


@dataclass(frozen=True)
class CreateGame:
    name: str
    factions: tuple[str, ...]
    seed: str | None = None  # None: a fresh secret seed
    data_folder: str | None = None  # None: the packaged "England 1455"
    settings: GameSettings = field(default_factory=GameSettings)
    game_id: str | None = None
    cards_per_faction: int | None = None


@dataclass(frozen=True)
class SeatPlayer:
    game: str
    faction: str
    player: str
    email: str | None = None  # where the player is told (secret; ``service.contact`` checks it)


@dataclass(frozen=True)
class Submit:
    """An order, declaration, answer, grant, or a GM ruling (a rules command);
    ``text``: the line the player wrote, when it came as text (kept in the log)."""

    game: str
    command: Command
    text: str | None = None


@dataclass(frozen=True)
class NoteUnreadLine:
    """A line of a post that gave no command, kept in the log with ``by``'s words and
    what was wrong (``problem``: its kind; ``message``: the answer the author got)."""

    game: str
    by: str
    text: str
    problem: str
    message: str


@dataclass(frozen=True)
class AskPermission:
    """``faction`` asks ``of`` (the place's controller) for these aspects at ``place``."""

    game: str
    faction: str
    of: str
    place: str
    aspects: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class FinishTurn:
    """The faction whose turn it is has finished: its turn ends. The GM's is refused
    while something the turn's end would settle or drop is still open
    (``open_business``), unless ``force``."""

    game: str
    faction: str
    force: bool = False


@dataclass(frozen=True)
class Undo:
    """The GM restores the state as it stood after log entry ``to_seq``."""

    game: str
    to_seq: int
    reason: str = ""


@dataclass(frozen=True)
class ExtendDeadline:
    game: str
    target: str  # a faction (its turn), an alliance id or a request id
    hours: float


@dataclass(frozen=True)
class Tick:
    """Record every deadline that has passed by the clock's time."""

    game: str


ServiceCommand = (
    CreateGame
    | SeatPlayer
    | Submit
    | NoteUnreadLine
    | AskPermission
    | FinishTurn
    | Undo
    | ExtendDeadline
    | Tick
)
