"""The scenario game, played once for the report tests."""

from __future__ import annotations

import pytest

from kingmaker.render.reports import Reports, reports_for

from . import scenario_full
from .scenario import Played, play


@pytest.fixture(scope="session")
def played() -> Played:
    return play()


@pytest.fixture(scope="session")
def reports(played: Played) -> Reports:
    return reports_for(played.service, played.game)


@pytest.fixture(scope="session")
def played_full() -> scenario_full.Played:
    return scenario_full.play()


@pytest.fixture(scope="session")
def reports_full(played_full: scenario_full.Played) -> Reports:
    return reports_for(played_full.service, played_full.game)
