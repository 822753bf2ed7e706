"""The full game's part of the position summary, from a ``View`` only: the phase, the
decks' and the Chancery's sizes, the hands (their sizes; the cards only of the hands
the viewer may see: its own, or all for the GM), sieges in progress, captives, storms
waiting for ports (the ports chosen only for the viewer's own ships), the dead and
this turn's events in force."""

from __future__ import annotations

from kingmaker.rules.views import View

from .crown_position import crown_position
from .document import Block, Inline, Item, bullets, heading, inlines, item, para
from .naming import Names

PHASE_WORDS = {
    "event": "the event phase",
    "movement": "the movement phase",
    "combat": "the combat phase",
    "parliament": "Parliament",
    "coronation": "the coronation phase",
    "crown": "the Crown phase",
}


def _n(count: int, what: str) -> str:
    return f"{count} {what}{'' if count == 1 else 's'}"


def _listed(items: list[Item]) -> Block:
    return bullets(items) if items else para("None.")


def full_position(v: View, n: Names, level: int) -> list[Block]:
    """The blocks of the full game's position for ``v``'s viewer (``level``: the level
    of the position's subsections)."""
    turn = inlines(
        f"Round {v.round}, ",
        n.possessive(v.turn),
        f" turn: {'the game is over' if v.game_over else PHASE_WORDS.get(v.phase, v.phase)}. ",
        f"Event deck {_n(v.event_deck_size, 'card')} (discard {len(v.event_discard)}); ",
        f"Crown deck {_n(v.crown_deck_size, 'card')} (discard {len(v.crown_discard)}); ",
        f"Chancery {_n(v.chancery_size, 'card')}.",
    )
    out: list[Block] = [heading(level, "The turn and the decks"), para(turn)]
    flags = _flags(v, n)
    if flags:
        out.append(bullets(flags))
    out += crown_position(v, n, level)  # the Kings; Parliament while it sits
    out += [heading(level, "Hands"), _listed(_hands(v, n))]
    out += [heading(level, "Sieges"), _listed(_sieges(v, n))]
    out += [heading(level, "Captives"), _listed(_captives(v, n))]
    if v.storms:
        out += [heading(level, "Storms waiting for ports"), _listed(_storms(v, n))]
    if v.dead:
        out += [heading(level, "The dead"), para(n.units(v.dead), ".")]
    return out


def _hands(v: View, n: Names) -> list[Item]:
    seen, sizes = dict(v.hands), dict(v.hand_sizes)
    out = []
    order = [f for f in v.turn_order if f in sizes] + sorted(f for f in sizes if f not in v.turn_order)
    for faction in order:
        size = sizes[faction]
        cards = seen.get(faction)
        whose = " (yours)" if faction == v.viewer else ""
        listed: tuple[Inline, ...] = inlines(": ", ", ".join(n.card(c) for c in cards)) if cards else ()
        out.append(item(n.faction(faction), f"{whose}: {_n(size, 'card')}", listed))
    return out


def _sieges(v: View, n: Names) -> list[Item]:
    out = []
    for s in v.sieges:
        drawn = f"; last drawn in round {s.last_draw_round}" if s.last_draw_round else "; not drawn yet"
        out.append(
            item(
                f"{n.place(s.place)}: besieged by ",
                n.faction(s.by),
                f" ({n.units(s.besiegers)}) since round {s.round}, ",
                n.possessive(s.turn) if s.turn else "",
                f" turn{drawn}.",
            )
        )
    return out


def _captives(v: View, n: Names) -> list[Item]:
    held = {x.id: x for x in v.nobles}
    out = []
    for noble, c in v.captivity:
        x = held.get(noble)
        if x is None or x.captive_of is None:
            continue
        out.append(
            item(
                f"{n.unit(noble)} (",
                n.faction(x.faction),
                "): held by ",
                n.faction(x.captive_of),
                f", taken at {n.place(c.place)} in round {c.round}, ",
                n.possessive(c.turn),
                " turn.",
            )
        )
    return out


def _storms(v: View, n: Names) -> list[Item]:
    owner = {s.id: s.faction for s in v.ships}
    out = []
    for storm in v.storms:
        for ship in storm.ships:
            chosen = storm.chosen.get(ship)
            now = f": {n.place(chosen)} chosen" if chosen else ": waiting"
            ports = ", ".join(n.place(p) for p in storm.ports.get(ship, ()))
            out.append(item(f"{n.unit(ship)} (", n.faction(owner.get(ship)), f") into one of {ports}{now}."))
    return out


def _flags(v: View, n: Names) -> list[Item]:
    out = []
    for flag in v.event_flags:
        kind, _, rest = flag.partition(":")
        if kind == "parliament_chancellor":
            out.append(
                item("This turn, if there is no sole King, the Chancellor's faction may summon Parliament.")
            )
        elif kind == "parliament_must":
            out.append(item("This turn, if there is no sole King, Parliament must be summoned."))
        elif kind == "free_move":
            out.append(item(f"A Free Move for {n.unit(rest)} this turn."))
        elif kind == "crown_drawn":
            out.append(item("The Crown card of this turn is drawn."))
    return out
