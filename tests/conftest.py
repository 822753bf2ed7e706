"""Shared fixtures: small worlds built from the conformance format."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kingmaker.conformance.case import build_board, build_state
from kingmaker.rules.state import GameState

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[1]
# The public conformance vectors: the in-repository copy of the shared ones
# (conformance/README.md), so that the tests run on a bare clone.
CASES = REPO / "conformance" / "cases"
# The shared rule texts, when they are beside the checkout (only tests/test_shared_copies.py
# reads them, to compare the copies with them).
SHARED = REPO.parent / "shared"


def world_from_case(path: Path) -> GameState:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    return build_state(raw["state"], build_board(raw["board"]), str(raw["id"]))


@pytest.fixture(scope="session")
def mini_world() -> GameState:
    return world_from_case(FIXTURES / "mini_world.yaml")


@pytest.fixture(scope="session")
def england() -> GameState:
    """A new six-faction game on the default "England 1455" data, most cards dealt."""
    from kingmaker.data import load_dataset
    from kingmaker.rules.deal import new_game

    ds = load_dataset()
    factions = ("red", "blue", "green", "white", "black", "gold")
    return new_game(ds.board, ds.catalog, factions, "tests", cards_per_faction=12, removed=ds.setup.removed)
