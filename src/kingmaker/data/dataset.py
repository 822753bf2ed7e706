"""A loaded data set: the board, the card catalog and the set-up of a game."""

from __future__ import annotations

from dataclasses import dataclass

from kingmaker.rules.board import Board
from kingmaker.rules.cards import Catalog


@dataclass(frozen=True, slots=True)
class Faction:
    """A faction a game may seat: its id, the name players read and a display colour."""

    id: str
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Setup:
    """How a game of this data set starts (``setup.toml``, plus heir and see facts).

    ``removed`` lists the cards the set-up takes out of the crown deck (also kept in
    ``Catalog.removed``); ``crowned`` the heirs crowned at the start (``heirs.toml``);
    ``see_seniority`` the sees from most to least senior (``awards.toml``);
    ``min_event_cards`` the fewest cards the event deck (``events.toml``) may hold.
    """

    name: str
    factions: tuple[Faction, ...]
    min_factions: int
    max_factions: int
    cards_per_faction: int
    removed: tuple[str, ...] = ()
    crowned: tuple[str, ...] = ()
    see_seniority: tuple[str, ...] = ()
    min_event_cards: int = 0

    def faction_ids(self, count: int) -> tuple[str, ...]:
        """The ids of the first ``count`` factions, for a game of ``count`` players.

        Raises ``ValueError`` when ``count`` is outside ``min_factions..max_factions``.
        """
        if not self.min_factions <= count <= self.max_factions:
            raise ValueError(
                f"{self.name} seats {self.min_factions} to {self.max_factions} factions, not {count}"
            )
        return tuple(f.id for f in self.factions[:count])


@dataclass(frozen=True, slots=True)
class DataSet:
    """Everything a data set folder holds, checked and ready to start a game."""

    board: Board
    catalog: Catalog
    setup: Setup

    @property
    def name(self) -> str:
        return self.setup.name
