"""The scenario game, played once for the report tests."""

from __future__ import annotations

import pytest

from kingmaker.render.reports import Reports, reports_for

from .scenario import Played, play


@pytest.fixture(scope="session")
def played() -> Played:
    return play()


@pytest.fixture(scope="session")
def reports(played: Played) -> Reports:
    return reports_for(played.service, played.game)
