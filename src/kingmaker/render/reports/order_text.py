"""The text of an order as the reports print it.

Reports take the formatter as ``describe``; this module's ``default_describe`` is a
stand-in until the canonical ``kingmaker.orders_text.format_order`` exists (pass it as
``describe=format_order`` then). Answers are written as the replies players type:
``Green CONFIRMS q12``, ``Green ACCEPTS ALLIANCE rg``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from kingmaker.rules import commands as c
from kingmaker.rules.state import GameState

from .naming import ASPECT_WORDS

Describe = Callable[[c.Command, GameState], str]


def _who(faction: str | None) -> str:
    return "GM" if faction in (None, c.GM) else faction.capitalize()


def _aspects(aspects: tuple[str, ...]) -> str:
    return ", ".join(ASPECT_WORDS.get(a, a) for a in aspects)


def default_describe(command: c.Command, state: GameState) -> str:
    """``Percy: move_road York → Tadcaster → Leeds``; ``Green CONFIRMS q12``."""
    cat, board = state.catalog, state.board

    def u(ident: str) -> str:
        return (
            cat.name_of(ident) if ident in cat.nobles or ident in cat.ships or ident in cat.heirs else ident
        )

    def p(ident: str) -> str:
        return board.name_of(ident)

    def inside(enter: bool) -> str:
        return " (enter)" if enter else ""

    match command:
        case c.MoveRoad(unit=unit, path=path, enter=enter):
            return f"{u(unit)}: move_road {' → '.join(p(x) for x in path)}{inside(enter)}"
        case c.Move(unit=unit, to=to, enter=enter):
            return f"{u(unit)}: move → {p(to)}{inside(enter)}"
        case c.Enter(unit=unit) | c.Leave(unit=unit):
            return f"{u(unit)}: {command.kind}"
        case c.Embark(ship=ship, nobles=nobles):
            return f"{u(ship)}: embark {', '.join(u(n) for n in nobles)}"
        case c.Disembark(ship=ship, nobles=nobles, port=port, enter=enter):
            return f"{u(ship)}: disembark {', '.join(u(n) for n in nobles)} at {p(port)}{inside(enter)}"
        case c.Sail(ship=ship, to=to, via=via):
            return f"{u(ship)}: sail {' → '.join(p(x) for x in (*via, to))}"
        case c.Siege(unit=unit, place=place):
            return f"{u(unit)}: siege {p(place)}"
        case c.Attack(unit=unit, target=target):
            return f"{u(unit)}: attack {u(target)}"
        case c.Defend(unit=unit, with_=with_):
            return f"{u(unit)}: defend with {u(with_)}"
        case c.FormArmy(id=ident, units=units, fleet=fleet):
            return f"form_{'fleet' if fleet else 'army'} {ident}: {', '.join(u(x) for x in units)}"
        case c.Confirm(by=by, id=ident):
            return f"{_who(by)} CONFIRMS {ident}"
        case c.Reject(by=by, id=ident):
            return f"{_who(by)} REJECTS {ident}"
        case c.DeclareAlliance(by=by, id=ident, with_=with_):
            return f"{_who(by)} DECLARES ALLIANCE WITH {', '.join(_who(f) for f in with_)} AS {ident}"
        case c.AnswerAlliance(by=by, alliance=ident, confirm=yes):
            return f"{_who(by)} {'ACCEPTS' if yes else 'DECLINES'} ALLIANCE {ident}"
        case c.LeaveAlliance(by=by, alliance=ident):
            return f"{_who(by)} LEAVES ALLIANCE {ident}"
        case c.Grant(by=by, to=to, place=place, aspects=aspects):
            return f"{_who(by)} GRANTS {_who(to)} {_aspects(aspects)} AT {p(place)}"
        case c.Revoke(by=by, to=to, place=place, aspects=()):
            return f"{_who(by)} REVOKES ALL FROM {_who(to)} AT {p(place)}"
        case c.Revoke(by=by, to=to, place=place, aspects=aspects):
            return f"{_who(by)} REVOKES {_who(to)} {_aspects(aspects)} AT {p(place)}"
        case c.Storm(ship=ship, into=into):
            return f"storm: {u(ship)} into {p(into)}"
        case c.SetControl(place=place, faction=faction):
            return f"set_control {p(place)} → {_who(faction) if faction else 'nobody'}"
        case c.Kill(noble=noble):
            return f"kill {u(noble)}"
        case c.Capture(noble=noble, faction=faction):
            return f"capture {u(noble)} by {_who(faction)}"
        case c.Release(noble=noble, place=place, inside=ins):
            return f"release {u(noble)} at {p(place)}{inside(ins)}"
        case c.MoveHeir(heir=heir, with_noble=noble, place=place):
            return f"move_heir {u(heir)} → {u(noble) if noble else p(place or '?')}"
        case c.ResolveCombat(combat=combat, summary=summary):
            return f"resolve_combat {combat}" + (f": {summary}" if summary else "")
        case c.Expire(request=req):
            return f"expire {req}"
        case c.Deadline(alliance=ident):
            return f"deadline {ident}"
    fields = ", ".join(
        f"{f.name}={getattr(command, f.name)!r}"
        for f in dataclasses.fields(command)
        if f.name != "by"
    )
    return f"{command.kind} {fields}".strip()
