"""The position summary, from a ``View`` only: a report shows what its viewer may see
and nothing else (the public sees public alliances; the Chancery is the GM's)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from kingmaker.render.position import KIND_LABELS
from kingmaker.rules.commands import GM
from kingmaker.rules.state import Heir, Noble, Ship
from kingmaker.rules.views import PUBLIC, View

from .crown_position import game_over_blocks
from .document import Block, Code, Inline, Item, bullets, field, heading, inlines, italic, item, para
from .naming import Names
from .position_full import full_position


class _Where:
    """Where units stand, read from the view."""

    def __init__(self, v: View, names: Names):
        self.names = names
        self.nobles = {n.id: n for n in v.nobles}
        self.ships = {s.id: s for s in v.ships}

    def ship(self, ship: Ship) -> str:
        name = self.names.place(ship.place)
        if ship.in_port:
            return f"{'forced into port' if ship.forced else 'in port'} at {name}"
        return f"at sea, {name}"

    def noble(self, noble: Noble) -> tuple[Inline, ...]:
        n = self.names
        if noble.aboard is not None:
            ship = self.ships.get(noble.aboard)
            return inlines(f"aboard {n.unit(noble.aboard)}", f" ({self.ship(ship)})" if ship else "")
        if noble.captive_of is not None:
            return inlines("held captive by ", n.faction(noble.captive_of))
        if noble.place is None:
            return inlines("nowhere on the board")
        return inlines(f"{'inside' if noble.inside else 'in the open at'} {n.place(noble.place)}")

    def heir(self, heir: Heir) -> tuple[Inline, ...]:
        n = self.names
        if heir.with_noble is not None:
            escort = self.nobles.get(heir.with_noble)
            if escort is None:
                return inlines(f"with {n.unit(heir.with_noble)}")
            side = inlines(", ", n.faction(escort.faction)) if escort.faction else ()
            return inlines(f"with {n.unit(escort.id)}", side, " (", self.noble(escort), ")")
        if heir.place is None:
            return inlines("nowhere on the board")
        return inlines(f"{'inside' if heir.inside else 'in the open at'} {n.place(heir.place)}")

    def unit(self, uid: str) -> tuple[Inline, ...]:
        if uid in self.nobles:
            return self.noble(self.nobles[uid])
        if uid in self.ships:
            return inlines(self.ship(self.ships[uid]))
        return inlines("not on the board")


def _cards(names: Names, ids: Iterable[str]) -> str:
    counts = Counter(ids)
    return ", ".join(names.card(i) + (f" x{k}" if k > 1 else "") for i, k in counts.items())


def _noble_item(noble: Noble, names: Names, where: _Where) -> Item:
    card = names.catalog.nobles.get(noble.id)
    title = f" ({card.title})" if card is not None and card.title else ""
    rows = []
    for kind, label in KIND_LABELS:
        held = [a for a in noble.awards if names.catalog.award(a).kind is kind]
        if held:
            rows.append(field(label, _cards(names, held)))
    return item(f"{names.unit(noble.id)}{title}, {noble.troops} troops: ", where.noble(noble), children=rows)


def _faction_blocks(v: View, faction: str | None, names: Names, where: _Where, level: int) -> list[Block]:
    nobles = sorted((n for n in v.nobles if n.faction == faction), key=lambda n: n.id)
    ships = sorted((s for s in v.ships if s.faction == faction), key=lambda s: s.id)
    rows = [
        field("Nobles", None if nobles else "none", children=[_noble_item(n, names, where) for n in nobles]),
        field(
            "Ships",
            None if ships else "none",
            children=[item(f"{names.unit(s.id)} (capacity {s.capacity}): {where.ship(s)}") for s in ships],
        ),
    ]
    if faction is not None:
        held = sorted(names.place(p) for p, f in v.control if f == faction)
        rows.append(field(f"Controls ({len(held)})", ", ".join(held) or "nothing"))
    title = names.faction(faction) if faction is not None else "Nobles of no faction"
    return [heading(level, title), bullets(rows)]


def position(
    v: View, names: Names, *, title: str | tuple[Inline, ...] | None = None, level: int = 2
) -> list[Block]:
    """The position as ``v``'s viewer sees it: each faction's nobles (with their titles,
    offices, sees, mercenaries and towns), ships and places; armies and fleets; the
    royal heirs; the alliances it may see; open combats; the Chancery for the GM."""
    where = _Where(v, names)
    out: list[Block] = [
        heading(level, title or f"Position: round {v.round}, {names.faction_name(v.turn)} to play"),
        para("Turn order: ", names.factions_list(v.turn_order), "."),
        *game_over_blocks(v, names),
    ]
    for faction in v.turn_order:
        out += _faction_blocks(v, faction, names, where, level + 1)
    if any(x.faction is None for x in v.nobles) or any(s.faction is None for s in v.ships):
        out += _faction_blocks(v, None, names, where, level + 1)
    sub = level + 1
    out += [heading(sub, "Armies and fleets"), _armies(v, names, where)]
    out += [heading(sub, "Royal heirs"), _heirs(v, names, where)]
    out += [heading(sub, "Public alliances" if v.viewer == PUBLIC else "Alliances"), _alliances(v, names)]
    out += [heading(sub, "Open combats"), _combats(v, names)]
    held = dict(v.control)
    neutral = [p for p in names.board.places.values() if p.kind.controllable and p.id not in held]
    out.append(para(italic(f"{len(neutral)} cities, towns and castles are controlled by no faction.")))
    if v.phase:  # the full game: phase, decks, hands, sieges, captives, storms, the dead
        out += full_position(v, names, sub)
    if v.viewer == GM:
        out += [heading(sub, "Chancery (GM only)"), para(_cards(names, v.chancery) or "Empty.")]
    return out


def _listed(items: list[Item]) -> Block:
    return bullets(items) if items else para("None.")


def _armies(v: View, n: Names, where: _Where) -> Block:
    return _listed(
        [
            item(
                "Fleet " if a.fleet else "Army ",
                Code(a.id),
                f": {n.units(a.units)}",
                f"; senior officer {n.unit(a.senior)} ({a.senior_rule})" if a.senior else "",
                "; ",
                where.unit(a.units[0]) if a.units else "empty",
            )
            for a in sorted(v.armies, key=lambda a: a.id)
        ]
    )


def _heirs(v: View, n: Names, where: _Where) -> Block:
    return _listed(
        [
            item(
                f"{n.unit(h.id)} ({h.house.capitalize()} {h.order}{', crowned' if h.crowned else ''}): ",
                where.heir(h),
            )
            for h in sorted(v.heirs, key=lambda h: (h.house, h.order))
        ]
    )


def _alliances(v: View, n: Names) -> Block:
    public = v.viewer == PUBLIC
    return _listed(
        [
            item(
                Code(a.id),
                ": ",
                n.factions_list(a.members),
                "" if public else (" (public)" if a.public else " (secret)"),
            )
            for a in sorted(v.alliances, key=lambda a: a.id)
        ]
    )


def _combats(v: View, n: Names) -> Block:
    return _listed(
        [
            item(
                f"{c.kind.capitalize()} ",
                Code(c.id),
                f" at {n.place(c.place)} by ",
                n.faction(c.by),
                f": attackers {n.units(c.attackers)}",
                f"; target {n.unit(c.target)}" if c.target else "",
                f"; defenders {n.units(c.defenders)}" if c.defenders else "",
            )
            for c in v.combats
        ]
    )
