"""Orders: the units an actor may order now and where each may go
(``rules.candidates``), an order chosen on the map, a post of text orders (the
service's one use case, ``GameService.post``), ending a turn and asking for permission.

The rules decide: the units come from ``orderable_units``, their orders from
``candidate_orders`` with the verdict ``decide`` gives; an order chosen on the map
must be one of them (found in the list without judging it: ``candidate_command``), and
goes through the service like any other, which decides it once.
"""

from __future__ import annotations

from typing import TypeVar

from kingmaker.render.reports import render
from kingmaker.render.reports.receipt import receipt_for
from kingmaker.rules import commands as rc
from kingmaker.rules.candidates import (
    ATTACK,
    EMBARK,
    ENTER,
    LAND,
    LAND_ENTER,
    LEAVE,
    MOVE,
    MOVE_ENTER,
    SAIL,
    SIEGE,
    Candidate,
    OrderableUnit,
    candidate_command,
    candidate_orders,
    orderable_units,
    why_not_orderable,
)
from kingmaker.rules.commands import GM
from kingmaker.rules.state import GameState
from kingmaker.rules.units import owner, unit_kind, unit_place
from kingmaker.service import Actor, BadRequest, NotFound, PermissionDenied
from kingmaker.service.commands import AskPermission, FinishTurn, Submit
from kingmaker.service.posts import LineVerdict

from .. import schemas as s
from .site import Site, key_for, orderer, outcome_out

K = TypeVar("K", bound=str)


# -- units and where they may go --------------------------------------------------------
def units(site: Site, actor: Actor, game: str) -> list[s.UnitOut]:
    """The units ``actor`` may order now (``rules.orderable_units``): its own on
    its turn, an ally's where one of its own units stands (ALLY.4), the armies it
    commands (ALLY.6). The GM orders for the faction to play."""
    state = site.svc.state(game)
    by = orderer(actor, state)
    if by is None:
        return []
    return [_unit_out(state, u) for u in orderable_units(state, by)]


def _unit_out(state: GameState, u: OrderableUnit) -> s.UnitOut:
    army = u.kind in ("army", "fleet")
    return s.UnitOut(
        id=u.id,
        name=f"{'Fleet' if u.kind == 'fleet' else 'Army'} {u.id}" if army else state.catalog.name_of(u.id),
        kind=_one_of(s.UNIT_KINDS, u.kind),
        faction=u.faction,
        place=u.place,
        place_name=state.board.name_of(u.place) if u.place else "nowhere",
        inside=u.inside,
        allied=u.allied,
    )


def destinations(site: Site, actor: Actor, game: str, unit: str) -> s.DestinationsOut:
    """Where ``unit`` may go this turn and what it may do there: its candidate
    orders (``rules.candidate_orders``), each with the verdict ``decide`` gives."""
    state = site.svc.state(game)
    kind = unit_kind(state, unit)
    by = orderer(actor, state)
    if kind is None or by is None:
        raise NotFound(f"there is no unit {unit[:40]!r}")
    _require_friendly(state, unit, by)
    cands = candidate_orders(state, unit, by)
    place = unit_place(state, unit)
    first = state.armies[unit].units[0] if unit in state.armies else unit
    inside = state.nobles[first].inside if first in state.nobles else state.ships[first].in_port
    label = _label(state, unit)
    orderable = any(c.allowed for c in cands)
    if not orderable:
        refusal = next((c for c in cands if not c.allowed), None)
        reason = refusal.explanation if refusal else f"{label} can take no order here now"
        return s.DestinationsOut(
            unit=unit,
            name=label,
            orderable=False,
            reason=reason,
            place=place,
            inside=inside,
            can_leave=False,
            destinations=[],
        )
    return s.DestinationsOut(
        unit=unit,
        name=label,
        orderable=True,
        reason="",
        place=place,
        inside=inside,
        can_leave=any(c.action == LEAVE and c.allowed for c in cands),
        destinations=_destination_rows(state, cands),
        others=[_other_row(state, c) for c in cands if c.action in _OTHER_ACTIONS],
    )


def _require_friendly(state: GameState, unit: str, by: str) -> None:
    """A unit neither ``by``'s nor an ally's is not ``by``'s to order (ORDER.foreign)."""
    members = state.armies[unit].units if unit in state.armies else (unit,)
    owners = {owner(state, m) for m in members}
    if not any(f == by or (f is not None and state.allied(by, f)) for f in owners):
        raise PermissionDenied(f"you cannot order {_label(state, unit)}: it is neither yours nor an ally's")


def _label(state: GameState, unit: str) -> str:
    if unit in state.armies:
        return f"{'Fleet' if state.armies[unit].fleet else 'Army'} {unit}"
    return state.catalog.name_of(unit)


def map_order(site: Site, actor: Actor, game: str, body: s.MapOrderIn, key: str | None) -> s.OutcomeOut:
    """An order chosen on the map: one of the unit's candidate orders, submitted
    through the service (a retried request with the same key gets its first answer;
    otherwise the order must be one the list offers, key or no key)."""
    k = key_for(actor, key)
    if k is not None:
        seen = site.svc.earlier_answer(game, k)
        if seen is not None:
            return outcome_out(seen, actor)
    state = site.svc.state(game)
    by = orderer(actor, state)
    if actor.is_gm and body.by:
        by = body.by
    elif body.by and body.by != by:
        raise PermissionDenied(f"you play {actor.faction}; you cannot give {body.by}'s orders")
    if by is None:
        raise PermissionDenied("only a player or the GM gives orders")
    if unit_kind(state, body.unit) is None:
        raise NotFound(f"there is no unit {body.unit[:40]!r}")
    _require_friendly(state, body.unit, by)
    if body.action in (ENTER, LEAVE, SIEGE):
        wanted = unit_place(state, body.unit)
    elif body.action in (EMBARK, ATTACK):
        wanted = body.target
    else:
        wanted = body.to
    if not wanted:
        raise BadRequest("say where (to) or what (target) the order is for")
    refusal = why_not_orderable(state, body.unit, by)
    if refusal is not None:
        raise PermissionDenied(f"you cannot order {_label(state, body.unit)} now: {refusal.explanation}")
    command = candidate_command(state, body.unit, by, body.action, wanted)
    if command is None:
        raise BadRequest(f"{_label(state, body.unit)} has no such order here now: choose one from its list")
    return site.run(actor, Submit(game, command), k)  # decided once, by the service


# -- text orders ---------------------------------------------------------------------------
def _author(actor: Actor, by: str | None) -> str:
    if actor.is_gm:
        return by or GM
    if by and by != actor.faction:
        raise PermissionDenied(f"you play {actor.faction}; you cannot post for {by}")
    assert actor.faction is not None
    return actor.faction


def check_text(site: Site, actor: Actor, game: str, body: s.TextOrdersIn) -> list[s.VerdictOut]:
    """One verdict per order line, judged on the current state; nothing is sent."""
    return _post(site, actor, game, body, None, send=False)


def send_text(
    site: Site, actor: Actor, game: str, body: s.TextOrdersIn, key: str | None
) -> list[s.VerdictOut]:
    """Each line read against the state as it stands when its turn comes (a later
    order sees the effect of an earlier one) and submitted. Every line gets its
    verdict, whatever happens to the others."""
    return _post(site, actor, game, body, key, send=True)


def _post(
    site: Site, actor: Actor, game: str, body: s.TextOrdersIn, key: str | None, *, send: bool
) -> list[s.VerdictOut]:
    verdicts = site.svc.post(
        actor,
        game,
        body.text,
        _author(actor, body.by),
        send=send,
        key=key_for(actor, key),
    )
    return [
        s.VerdictOut(
            line=v.line,
            column=v.column,
            text=v.text,
            result=v.result,
            rule=v.rule,
            explanation=v.explanation,
            request=v.request,
            reading=v.reading,
            suggestions=list(v.suggestions),
            example=v.example,
            awaiting=list(v.awaiting),
        )
        for v in verdicts
    ]


def receipt(
    site: Site, actor: Actor, game: str, by: str | None, verdicts: list[s.VerdictOut], *, sent: bool
) -> s.ReceiptOut:
    """The receipt of a post the service answered (``render.reports.receipt``, the one
    the CLI prints), in the three formats."""
    author = _author(actor, by)
    lines = [
        LineVerdict(
            v.line,
            v.column,
            v.text,
            v.result,
            v.rule,
            v.explanation,
            v.request,
            v.reading,
            tuple(v.suggestions),
            v.example,
            tuple(v.awaiting),
        )
        for v in verdicts
    ]
    doc = receipt_for(site.svc, game, author, lines, sent=sent)
    return s.ReceiptOut(
        bbcode=render(doc, "bbcode"), markdown=render(doc, "markdown"), plain=render(doc, "plain")
    )


# -- a turn's end, permissions ---------------------------------------------------------------
def finish_turn(site: Site, actor: Actor, game: str, key: str | None, force: bool = False) -> s.OutcomeOut:
    """The turn ends; the GM's is refused while something is still open
    (``GameService.open_business``), unless ``force``."""
    faction = actor.faction if not actor.is_gm else site.svc.state(game).turn
    if faction is None:
        raise BadRequest("only the faction to play or the GM ends a turn")
    return site.run(actor, FinishTurn(game, faction, force), key_for(actor, key))


def ask_permission(
    site: Site, actor: Actor, game: str, body: s.PermissionAskIn, key: str | None
) -> s.OutcomeOut:
    if actor.faction is None:
        raise BadRequest("a faction asks for permission")
    cmd = AskPermission(game, actor.faction, body.of, body.place, tuple(body.aspects), body.note)
    return site.run(actor, cmd, key_for(actor, key))


# -- rows of the unit panel -------------------------------------------------------------------
_OTHER_ACTIONS = {EMBARK: "Embark on", LAND: "Land at", LAND_ENTER: "Land at", ATTACK: "Attack"}


def _other_row(state: GameState, c: Candidate) -> s.OtherOrderOut:
    """An order that goes nowhere new on the map (embark, land, attack), with its verdict."""
    target = (
        state.catalog.name_of(c.target)
        if c.target in state.nobles or c.target in state.ships
        else (f"army {c.target}" if c.target in state.armies else state.board.name_of(c.target))
    )
    label = f"{_OTHER_ACTIONS[c.action]} {target}"
    if c.action == LAND:
        label += " (in the open)"
    elif c.action == LAND_ENTER:
        label += " and go inside"
    elif c.action == EMBARK and c.target in state.nobles:
        label = f"Take {target} aboard"
    return s.OtherOrderOut(
        action=_one_of(s.OTHER_ACTIONS, c.action),
        target=c.target,
        label=label,
        allowed=c.allowed,
        rule=c.rule,
        explanation=c.explanation,
    )


def _destination_rows(state: GameState, cands: tuple[Candidate, ...]) -> list[s.DestinationOut]:
    """The unit's moves, voyages, and what it may do where it stands, one row per place:
    ``actions`` lists the allowed ones; ``enter``/``siege``/``rule``/``reason`` say
    whether it may go inside (or lay siege) there and, when not, why."""
    board = state.board
    rows: dict[str, s.DestinationOut] = {}
    for c in cands:
        if c.action not in (MOVE, MOVE_ENTER, ENTER, SIEGE, SAIL):
            continue
        row = rows.get(c.target)
        if row is None:
            sea = c.action == SAIL and c.target in board.seas
            row = rows[c.target] = s.DestinationOut(
                place=c.target,
                name=board.name_of(c.target),
                path=list(c.path),
                sea=sea,
                port=c.action == SAIL and not sea,
                by_road=isinstance(c.command, rc.MoveRoad),
                actions=[],
            )
        if c.allowed:
            row.actions.append(c.action)
        if c.action in (MOVE_ENTER, ENTER) or (c.action == SAIL and row.port):
            row.enter = c.allowed
            row.rule = c.rule
            row.reason = "" if c.allowed else c.explanation
        elif c.action == SIEGE:
            row.siege = c.allowed
    for c in cands:  # a port where the passengers may land and go inside
        if c.action == LAND_ENTER and c.allowed and c.target in rows:
            rows[c.target].land = True
    return list(rows.values())


def _one_of(known: tuple[K, ...], value: str) -> K:
    """``value`` as one of the ``known`` words the API's model allows (the rules name
    the unit kinds and actions with the same words)."""
    for k in known:
        if k == value:
            return k
    raise ValueError(f"{value!r} is not one of {', '.join(known)}")
