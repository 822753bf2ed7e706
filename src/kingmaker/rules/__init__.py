"""The pure rules core: standard library only, no I/O, clock or global randomness.

>>> from kingmaker.rules import decide, replay, MoveRoad
"""

from __future__ import annotations

from . import ids
from .apply import apply, replay
from .board import Board, Place, PlaceKind, Road, Sea
from .cards import Award, AwardKind, Catalog, HeirCard, NobleCard, ShipCard
from .chance import commitment, draw, raw_value
from .commands import (
    GM,
    AnswerAlliance,
    Attack,
    Command,
    Confirm,
    Deadline,
    DeclareAlliance,
    Defend,
    Disembark,
    Embark,
    EndTurn,
    Enter,
    FormArmy,
    Grant,
    InjectRandom,
    Leave,
    LeaveAlliance,
    Move,
    MoveRoad,
    MoveRoute,
    Reject,
    RevealSeed,
    Revoke,
    Sail,
    SetControl,
    Siege,
    Storm,
)
from .decide import decide, play
from .decision import Decision, Result
from .events import Event
from .frozen import FrozenDict
from .hashing import state_hash
from .potential import potential
from .queries import Destination, Destinations, SeaDestination, legal_destinations
from .records import from_data, to_data
from .seniority import Seniority, choose_senior
from .state import Alliance, Army, GameState, Heir, Noble, Ship
from .status import judge, status
from .views import PUBLIC, View, view

__all__ = [
    "GM",
    "PUBLIC",
    "Alliance",
    "AnswerAlliance",
    "Army",
    "Attack",
    "Award",
    "AwardKind",
    "Board",
    "Catalog",
    "Command",
    "Confirm",
    "Deadline",
    "Decision",
    "DeclareAlliance",
    "Defend",
    "Destination",
    "Destinations",
    "Disembark",
    "Embark",
    "EndTurn",
    "Enter",
    "Event",
    "FormArmy",
    "FrozenDict",
    "GameState",
    "Grant",
    "Heir",
    "HeirCard",
    "InjectRandom",
    "Leave",
    "LeaveAlliance",
    "Move",
    "MoveRoad",
    "MoveRoute",
    "Noble",
    "NobleCard",
    "Place",
    "PlaceKind",
    "Reject",
    "Result",
    "RevealSeed",
    "Revoke",
    "Road",
    "Sail",
    "Sea",
    "SeaDestination",
    "Seniority",
    "SetControl",
    "Ship",
    "ShipCard",
    "Siege",
    "Storm",
    "View",
    "apply",
    "choose_senior",
    "commitment",
    "decide",
    "draw",
    "from_data",
    "ids",
    "judge",
    "legal_destinations",
    "play",
    "potential",
    "raw_value",
    "replay",
    "state_hash",
    "status",
    "to_data",
    "view",
]
