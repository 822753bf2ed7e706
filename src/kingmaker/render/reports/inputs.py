"""A game's report inputs, from the service's query ``GameService.report_inputs``: the
timeline the service holds (caught up with the store, never folded again here) and the
game's factions' names and colours. The reports themselves are pure functions of them."""

from __future__ import annotations

from collections.abc import Mapping

from kingmaker.rules.commands import Command
from kingmaker.rules.state import GameState
from kingmaker.service.game_service import GameService

from .context import Reports
from .naming import Names
from .order_text import Describe, default_describe


def reports_for(service: GameService, game: str, describe: Describe | None = None) -> Reports:
    """The report inputs of ``game``: its timeline (the log folded from the first entry
    to the latest) and its factions' names and colours. Orders are written as players
    write them (``orders_text.format_order``) unless ``describe`` says otherwise."""
    inputs = service.report_inputs(game)
    factions = inputs.settings.factions
    initial = inputs.timeline.initial
    names = Names.of(initial.board, initial.catalog, factions)
    return Reports(inputs.timeline, names, describe or canonical_describe(inputs.settings.faction_names()))


def catch_up(reports: Reports, service: GameService, game: str) -> Reports:
    """``reports`` with the timeline as the service holds it now (the entries appended
    since are folded once, by the service)."""
    reports.timeline = service.report_inputs(game).timeline
    return reports


def canonical_describe(names: Mapping[str, str]) -> Describe:
    """``format_order`` with the game's faction ``names`` (``Red``, not ``red``)."""
    from kingmaker.orders_text import format_order

    def describe(command: Command, state: GameState) -> str:
        try:
            return format_order(command, state, faction_names=names)
        except ValueError:  # a command no text can say (see format_order): say what it is
            return default_describe(command, state)

    return describe
