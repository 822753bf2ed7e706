"""How reports name things: factions (in their colours), units, places and times.

Everything here is public, static data (the board, the card set, the factions' names
and colours chosen at creation): nothing a viewer may not see."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from kingmaker.rules.board import Board
from kingmaker.rules.cards import Catalog
from kingmaker.rules.commands import GM
from kingmaker.rules.permissions import ASPECT_WORDS as ASPECT_WORDS  # order_text reads it here
from kingmaker.rules.permissions import aspect_words
from kingmaker.service.settings import FactionInfo

from .document import Colour, Inline, Text, bold, joined


@dataclass(frozen=True)
class Names:
    board: Board
    catalog: Catalog
    factions: Mapping[str, FactionInfo] = field(default_factory=dict)

    @classmethod
    def of(cls, board: Board, catalog: Catalog, factions: Iterable[FactionInfo]) -> Names:
        """From the game's factions (``GameSettings.factions``)."""
        return cls(board, catalog, {f.id: f for f in factions})

    # -- factions ---------------------------------------------------------------------
    def style(self, faction: str) -> FactionInfo:
        """The faction's name and colour (the defaults for one the game lacks)."""
        return self.factions.get(faction) or FactionInfo.of(faction)

    def faction_name(self, faction: str | None) -> str:
        if faction is None:
            return "no faction"
        if faction == GM:
            return "the GM"
        return self.style(faction).name

    def faction(self, faction: str | None) -> Inline:
        """A faction's name, bold in its colour (the GM and "no faction" plain)."""
        if faction is None or faction in (GM, "clock"):
            return Text("the clock" if faction == "clock" else self.faction_name(faction))
        st = self.style(faction)
        return Colour(st.colour, (bold(st.name),))

    def factions_list(self, factions: Iterable[str]) -> tuple[Inline, ...]:
        fs = list(factions)
        return joined([self.faction(f) for f in fs]) if fs else (Text("none"),)

    def possessive(self, faction: str) -> tuple[Inline, ...]:
        return (self.faction(faction), Text("'s"))

    # -- units and places -------------------------------------------------------------
    def unit(self, ident: str) -> str:
        """A noble's, ship's or heir's name; an army is named by its id."""
        c = self.catalog
        if ident in c.nobles or ident in c.ships or ident in c.heirs or ident in c.awards:
            return c.name_of(ident)
        return f"army {ident}"

    def units(self, idents: Iterable[str]) -> str:
        return ", ".join(self.unit(u) for u in idents) or "nobody"

    def place(self, ident: str | None) -> str:
        return "nowhere" if ident is None else self.board.name_of(ident)

    def card(self, ident: str) -> str:
        return self.catalog.name_of(ident)


def when(iso_utc: str | None) -> str:
    """``2026-12-01T12:00:00Z`` as ``2026-12-01 12:00 UTC``."""
    if not iso_utc:
        return "no deadline"
    text = iso_utc.replace("T", " ").replace("Z", "").replace("+00:00", "")
    return text[:16] + " UTC"


def aspects(names: Iterable[str]) -> str:
    """Permission aspects as words (the rules' ``ASPECT_WORDS``, ruling R5):
    ``("ship_enter", "embark")`` -> ``harbour and embarkation``."""
    return aspect_words(list(names)) or "every permission"
