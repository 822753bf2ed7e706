"""The position summary: a plain-text report of who holds what and where everything is.

It is the GM's full view (nothing is hidden): players' views are filtered elsewhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from kingmaker.rules.cards import AwardKind
from kingmaker.rules.state import GameState, Heir, Noble, Ship

WIDTH = 100
KIND_LABELS = (
    (AwardKind.TITLE, "title"),
    (AwardKind.OFFICE, "office"),
    (AwardKind.SEE, "see"),
    (AwardKind.MERCENARY, "mercenaries"),
    (AwardKind.TOWN, "town"),
    (AwardKind.OTHER, "other"),
)


def _names(state: GameState, ids: Iterable[str]) -> str:
    """Names of cards, with "x2" for a card held twice, in first-seen order."""
    counts = Counter(ids)
    return ", ".join(state.catalog.name_of(i) + (f" x{n}" if n > 1 else "") for i, n in counts.items())


def _wrap(text: str, indent: str) -> list[str]:
    """``text`` wrapped at WIDTH, breaking only after the commas between list items."""
    items = text.split(", ")
    lines: list[str] = []
    line = indent + items[0]
    for item in items[1:]:
        if len(line) + 2 + len(item) > WIDTH:
            lines.append(line + ",")
            line = indent + "  " + item
        else:
            line += ", " + item
    lines.append(line)
    return lines


def noble_whereabouts(state: GameState, noble: Noble) -> str:
    """Where a noble stands: ``inside York``, ``in the open at York``, ``aboard Grace Dieu``.

    The ship's own position follows a passenger's: ``aboard Grace Dieu (at sea, North Sea)``.
    """
    if noble.aboard is not None:
        ship = state.ships.get(noble.aboard)
        where = f" ({ship_whereabouts(state, ship)})" if ship is not None else ""
        return f"aboard {state.catalog.name_of(noble.aboard)}{where}"
    if noble.captive_of is not None:
        return f"held captive by {noble.captive_of}"
    if noble.place is None:
        return "nowhere on the board"
    name = state.board.name_of(noble.place)
    return f"inside {name}" if noble.inside else f"in the open at {name}"


def ship_whereabouts(state: GameState, ship: Ship) -> str:
    """Where a ship is: ``in port at London`` (``forced into port`` after a storm) or ``at sea, North Sea``."""
    name = state.board.name_of(ship.place)
    if ship.in_port:
        return f"{'forced into port' if ship.forced else 'in port'} at {name}"
    return f"at sea, {name}"


def heir_whereabouts(state: GameState, heir: Heir) -> str:
    """Where an heir is: with the noble escorting him (and where that is), or at a place."""
    if heir.with_noble is not None:
        noble = state.nobles.get(heir.with_noble)
        escort = state.catalog.name_of(heir.with_noble)
        if noble is None:
            return f"with {escort}"
        faction = f", {noble.faction}" if noble.faction else ""
        return f"with {escort}{faction} ({noble_whereabouts(state, noble)})"
    if heir.place is None:
        return "nowhere on the board"
    name = state.board.name_of(heir.place)
    return f"inside {name}" if heir.inside else f"in the open at {name}"


def _noble_lines(state: GameState, noble: Noble) -> list[str]:
    card = state.catalog.nobles.get(noble.id)
    title = f" ({card.title})" if card is not None and card.title else ""
    lines = [
        f"  {state.catalog.name_of(noble.id)}{title}, {noble.troops} troops: {noble_whereabouts(state, noble)}"
    ]
    for kind, label in KIND_LABELS:
        ids = [a for a in noble.awards if state.catalog.award(a).kind is kind]
        if ids:
            lines.extend(_wrap(f"{label}: {_names(state, ids)}", "      "))
    return lines


def _faction_section(state: GameState, faction: str) -> list[str]:
    lines = [f"== {faction} =="]
    nobles = sorted((n for n in state.nobles.values() if n.faction == faction), key=lambda n: n.id)
    lines.append("Nobles:" if nobles else "Nobles: none")
    for noble in nobles:
        lines.extend(_noble_lines(state, noble))
    ships = sorted((s for s in state.ships.values() if s.faction == faction), key=lambda s: s.id)
    lines.append("Ships:" if ships else "Ships: none")
    for ship in ships:
        passengers = f"; passengers: {_names(state, ship.passengers)}" if ship.passengers else ""
        lines.append(
            f"  {state.catalog.name_of(ship.id)} (capacity {ship.capacity}): "
            f"{ship_whereabouts(state, ship)}{passengers}"
        )
    return lines


def _place_list(state: GameState, places: Iterable[str]) -> str:
    """Place names, alphabetically."""
    return ", ".join(sorted(state.board.name_of(p) for p in places))


def _heir_lines(state: GameState) -> list[str]:
    lines = ["== Royal heirs =="]
    heirs = sorted(state.heirs.values(), key=lambda h: (h.house, h.order))
    for heir in heirs:
        crowned = ", crowned" if heir.crowned else ""
        lines.append(
            f"  {state.catalog.name_of(heir.id)} ({heir.house.capitalize()} {heir.order}{crowned}): "
            f"{heir_whereabouts(state, heir)}"
        )
    return lines


def _control_lines(state: GameState) -> list[str]:
    lines = ["== Control of places =="]
    for faction in state.turn_order:
        places = [p for p, f in state.control.items() if f == faction]
        lines.extend(_wrap(f"{faction} ({len(places)}): {_place_list(state, places) or '-'}", "  "))
    neutral = [p.id for p in state.board.places.values() if p.kind.controllable and p.id not in state.control]
    lines.extend(_wrap(f"uncontrolled ({len(neutral)}): {_place_list(state, neutral) or '-'}", "  "))
    return lines


def position_summary(state: GameState) -> str:
    """The whole position as plain text: each faction's nobles (with their titles,
    offices, sees, mercenaries and towns), ships and places; the Chancery; where every
    royal heir is; and who controls which place."""
    order = ", ".join(state.turn_order)
    lines = [
        f"Position: {state.board.name}, round {state.round}, {state.turn} to play",
        f"Turn order: {order}",
        "",
    ]
    for faction in state.turn_order:
        lines.extend(_faction_section(state, faction))
        lines.append("")
    lines.extend(_wrap(f"== Chancery == {_names(state, state.chancery) or 'empty'}", ""))
    lines.append("")
    lines.extend(_heir_lines(state))
    lines.append("")
    lines.extend(_control_lines(state))
    return "\n".join(lines) + "\n"
