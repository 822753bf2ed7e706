"""kingmaker: a game-master engine for Kingmaker (the Wars of the Roses board game)
played by forum.

The rules core lives in :mod:`kingmaker.rules` (pure, standard library only); the
most used names are re-exported here.

>>> import kingmaker
>>> kingmaker.Result.REFUSED.value
'refused'
"""

from __future__ import annotations

from .rules import (
    GM,
    PUBLIC,
    Board,
    Catalog,
    Command,
    Decision,
    GameState,
    Result,
    apply,
    decide,
    legal_destinations,
    play,
    replay,
    state_hash,
    view,
)

__version__ = "0.1.0"

__all__ = [
    "GM",
    "PUBLIC",
    "Board",
    "Catalog",
    "Command",
    "Decision",
    "GameState",
    "Result",
    "__version__",
    "apply",
    "decide",
    "legal_destinations",
    "play",
    "replay",
    "state_hash",
    "view",
]
