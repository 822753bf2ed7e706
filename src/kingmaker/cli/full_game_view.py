"""What ``status`` and ``view`` add in a game with phases (issue 13): the phase, the
game options in force (public), the decks' and hands' sizes, sieges, captives, and the
ransoms and storms that wait for answers. All of it read from the viewer's ``View`` (``rules.views``): a faction's view
shows only its own pending ransoms and its own ships' storm choices."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from kingmaker.orders_text import format_order
from kingmaker.rules import ids
from kingmaker.rules.options import in_force
from kingmaker.rules.state import GameState
from kingmaker.rules.units import name, names
from kingmaker.rules.views import View
from kingmaker.service.projection import Deadline

from .output import console, safe


def full_game_data(state: GameState, v: View, deadlines: list[Deadline]) -> dict[str, Any]:
    """The full game's part of the position, as ``v``'s viewer may see it (empty for a
    game without phases)."""
    if not v.phase:
        return {}
    due = {d.target: d.due for d in deadlines}
    taken = dict(v.captivity)
    captives = [
        {
            "noble": n.id,
            "faction": n.faction,
            "captive_of": n.captive_of,
            "taken_at": taken[n.id].place if n.id in taken else None,
            "taken": {"round": taken[n.id].round, "turn": taken[n.id].turn} if n.id in taken else None,
        }
        for n in v.nobles
        if n.captive_of is not None
    ]
    ransoms = [
        {
            "id": r.id,
            "by": r.by,
            "awaiting": list(r.awaiting),
            "captive": getattr(r.command, "captive", None),
            "offer": _text(r.command, state),
            "due": due.get(r.id),
        }
        for r in v.requests
        if r.rule == ids.RANSOM_OFFER
    ]
    storms = [
        {
            "id": s.id,
            "ships": {
                ship: {"ports": list(s.ports.get(ship, ())), "chosen": s.chosen.get(ship)} for ship in s.ships
            },
            "due": due.get(s.id),
        }
        for s in v.storms
    ]
    return {
        "phase": v.phase,
        "options": in_force(state.options),  # every option's value (the rules of the game)
        "decks": {"event": v.event_deck_size, "crown": v.crown_deck_size, "chancery": v.chancery_size},
        "hand_sizes": dict(v.hand_sizes),
        "sieges": [
            {
                "place": s.place,
                "by": s.by,
                "besiegers": list(s.besiegers),
                "since": {"round": s.round, "turn": s.turn},
            }
            for s in v.sieges
        ],
        "captives": captives,
        "ransoms": ransoms,
        "storms": storms,
        "dead": list(v.dead),
    }


def _text(command: Any, state: GameState) -> str:
    """The offer as its canonical order (``Blue: Blue RANSOMS Stafford FOR ...``)."""
    try:
        return format_order(command, state, label=True)
    except ValueError:
        return str(getattr(command, "kind", "ransom"))


def show_full_game(state: GameState, data: dict[str, Any]) -> None:
    """The full game's part of ``status`` for people."""
    if not data:
        return
    decks = data["decks"]
    hands = ", ".join(f"{safe(f)} {n}" for f, n in data["hand_sizes"].items()) or "none"
    console.print(
        f"[bold]{data['phase']}[/bold] phase; event deck {decks['event']}, Crown deck {decks['crown']}, "
        f"Chancery {decks['chancery']}; cards in hand: {hands}"
    )
    force = [f"{k} {v}" + (" (chosen)" if k in state.options else "") for k, v in data["options"].items()]
    console.print("options in force: " + safe(", ".join(force)))
    if data["dead"]:
        console.print(f"dead: {safe(names(state, data['dead']))}")
    if data["sieges"]:
        t = Table("siege of", "by", "besiegers", "since", title="sieges")
        for s in data["sieges"]:
            t.add_row(
                safe(name(state, s["place"])),
                safe(s["by"]),
                safe(names(state, s["besiegers"])),
                f"round {s['since']['round']}, {safe(s['since']['turn'])}'s turn",
            )
        console.print(t)
    if data["captives"]:
        t = Table("captive", "faction", "held by", "taken at", "when", title="captives")
        for c in data["captives"]:
            when = c["taken"]
            t.add_row(
                safe(name(state, c["noble"])),
                safe(c["faction"] or ""),
                safe(c["captive_of"]),
                safe(name(state, c["taken_at"])) if c["taken_at"] else "?",
                f"round {when['round']}, {safe(when['turn'])}'s turn" if when else "",
            )
        console.print(t)
    if data["ransoms"]:
        t = Table("ransom", "offered by", "awaiting", "due (UTC)", "offer", title="ransoms waiting")
        for r in data["ransoms"]:
            t.add_row(
                safe(r["id"]),
                safe(r["by"]),
                safe(", ".join(r["awaiting"])),
                r["due"] or "-",
                safe(r["offer"]),
            )
        console.print(t)
    if data["storms"]:
        t = Table("storm", "ship", "ports", "chosen", "due (UTC)", title="storms waiting for ports")
        for s in data["storms"]:
            for ship, choice in s["ships"].items():
                t.add_row(
                    safe(s["id"]),
                    safe(name(state, ship)),
                    safe(names(state, choice["ports"])),
                    safe(name(state, choice["chosen"])) if choice["chosen"] else "-",
                    s["due"] or "-",
                )
        console.print(t)
