"""Gathering a game's report inputs from a ``GameService`` (the one module here that
reads a store; the reports themselves are pure functions of what it returns)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kingmaker.rules.codec import board_from_data, catalog_from_data
from kingmaker.rules.commands import Command
from kingmaker.rules.state import GameState
from kingmaker.service.game_service import GameService
from kingmaker.service.projection import Projection
from kingmaker.service.settings import GameSettings

from .context import Reports
from .naming import Names
from .order_text import Describe, default_describe
from .timeline import Timeline


def reports_for(service: GameService, game: str, describe: Describe | None = None) -> Reports:
    """The report inputs of ``game``: its initial state (the creation snapshot), every
    log entry, and its factions' names and colours. Orders are written as players write
    them (``orders_text.format_order``) unless ``describe`` says otherwise."""
    rec = service.store.game(game)
    if describe is None:
        describe = canonical_describe(rec.settings)
    board, catalog = board_from_data(rec.board), catalog_from_data(rec.catalog)
    first = service.store.latest_snapshot(game, at_or_before=0)
    initial = Projection.from_snapshot(rec, GameSettings.from_data(rec.settings), first, board, catalog).state
    timeline = Timeline(initial, service.store.envelopes(game))
    return Reports(timeline, Names.from_settings(board, catalog, rec.settings), describe)


def catch_up(reports: Reports, service: GameService, game: str) -> Reports:
    """Read the entries appended since ``reports`` was built (the timeline grows)."""
    reports.timeline.add(service.store.envelopes(game, after=reports.timeline.head))
    return reports


def canonical_describe(settings: Mapping[str, Any]) -> Describe:
    """``format_order`` with the game's faction names (``Red``, not ``red``)."""
    from kingmaker.orders_text import format_order

    info = settings.get("factions", {})
    names = {f: str(v.get("name", f)) for f, v in info.items()} if isinstance(info, dict) else {}

    def describe(command: Command, state: GameState) -> str:
        try:
            return format_order(command, state, faction_names=names)
        except ValueError:  # a command no text can say (see format_order): say what it is
            return default_describe(command, state)

    return describe
