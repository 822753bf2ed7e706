"""The web app's shared parts (``Site``: the service, the data root, per-game caches)
and who may see what: the viewer an answer is for, and the actor's own space of
idempotency keys."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from kingmaker.render.map import Geometry, Styles, geometry
from kingmaker.rules.board import Board
from kingmaker.rules.commands import GM
from kingmaker.rules.state import GameState
from kingmaker.rules.views import PUBLIC
from kingmaker.service import Actor, BadRequest, PermissionDenied
from kingmaker.service.commands import ServiceCommand
from kingmaker.service.game_service import GameService
from kingmaker.service.outcome import Outcome

from .. import schemas as s


def viewer_of(actor: Actor) -> str:
    if actor.is_gm:
        return GM
    if actor.role == "player" and actor.faction:
        return actor.faction
    return PUBLIC


def key_for(actor: Actor, key: str | None) -> str | None:
    """An idempotency key in the actor's own space (a key never replays another's answer)."""
    if not key:
        return None
    return f"web:{actor.label}:{key[:100]}"


def outcome_out(o: Outcome, actor: Actor) -> s.OutcomeOut:
    """The service's answer for ``actor``: the log entries written are numbered only
    for the GM (a player's numbers would give the log's head, and with it how many
    entries they may not read, away)."""
    return s.OutcomeOut(
        game=o.game,
        result=o.result,
        explanation=o.explanation,
        rule=o.rule,
        awaiting=list(o.awaiting),
        request=o.request,
        first_seq=o.first_seq if actor.is_gm else None,
        last_seq=o.last_seq if actor.is_gm else None,
        replayed=o.replayed,
    )


def gm_only(actor: Actor) -> None:
    if not actor.is_gm:
        raise PermissionDenied("only the GM may do this")


def orderer(actor: Actor, state: GameState) -> str | None:
    """Whose orders ``actor`` gives on the map: a player's own faction's; the GM's,
    the faction to play's (None for an observer)."""
    if actor.is_gm:
        return state.turn
    return actor.faction if actor.role == "player" else None


@dataclass
class Site:
    """The web app's shared parts: the service, the data root, per-game caches."""

    svc: GameService
    data_root: Path | None = None  # where the GM may name a data folder from the web (None: nowhere)

    def __post_init__(self) -> None:
        self._geo: dict[str, Geometry] = {}
        self._guard = threading.Lock()

    def run(self, actor: Actor, command: ServiceCommand, key: str | None = None) -> s.OutcomeOut:
        """Execute ``command`` for ``actor`` (``key``: an idempotency key, already in
        the actor's own space) and answer it as ``actor`` may read it."""
        return outcome_out(self.svc.execute(actor, command, key), actor)

    # -- static facts of a game ----------------------------------------------------------
    def geometry(self, game: str, board: Board) -> Geometry:
        with self._guard:
            g = self._geo.get(game)
            if g is None:
                g = self._geo[game] = geometry(board)
            return g

    def styles(self, game: str) -> Styles:
        return Styles.of(self.svc.settings(game).factions)

    # -- who may see what ----------------------------------------------------------------
    def require_faction(self, actor: Actor, faction: str | None) -> str:
        """The viewer an answer is for: the player's own faction, or (the GM only) any
        faction, ``gm`` or ``public``."""
        if faction is None or faction == "":
            return viewer_of(actor)
        if actor.is_gm:
            return faction
        if faction == PUBLIC:
            return PUBLIC
        if faction != actor.faction:
            raise PermissionDenied(f"you play {actor.faction}; you cannot see what {faction} sees")
        return faction

    def check_viewer(self, game: str, who: str) -> str:
        if who in (GM, PUBLIC):
            return who
        if who not in self.svc.require_game(game).factions:
            raise BadRequest(f"{who!r} is not a faction of game {game}")  # the game is there: a bad parameter
        return who

    def viewer(self, actor: Actor, game: str, faction: str | None) -> str:
        """Whose view ``actor`` asks for with ``faction`` (see ``require_faction``),
        checked to be a viewer of ``game``."""
        return self.check_viewer(game, self.require_faction(actor, faction))
