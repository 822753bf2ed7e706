"""The in-memory store passes the GameStore contract."""

from __future__ import annotations

import pytest

from kingmaker.storage.memory import MemoryStore
from tests.storage.contract import *  # noqa: F403


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()
