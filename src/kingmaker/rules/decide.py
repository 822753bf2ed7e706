"""``decide(state, command) -> Decision``: the one entry point of the rules.

A refused decision carries no events and changes nothing; an accepted or pending one
carries the events to append. Nothing here touches files, clocks or global randomness.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from . import commands as c
from . import events as ev
from . import ids
from .alliances import decide_answer, decide_deadline, decide_declare, decide_leave
from .apply import replay
from .battles import decide_battle
from .captives import decide_capture_heir, decide_execute, decide_ransom, decide_release_captive
from .chance import opaque_id
from .combat import decide_attack, decide_defend, decide_siege
from .context import Pending
from .coronation import decide_crown
from .crown_cards import decide_assign, decide_draw_crown, decide_enter_play
from .decision import Decision, Refusal, Result
from .event_cards import decide_draw_event
from .formation import decide_form_army
from .held_cards import decide_play_card
from .kings import with_proclamation_end
from .limits import command_problem
from .movement import decide_enter, decide_move, decide_move_road
from .movement import decide_leave as decide_leave_location
from .outcomes import (
    decide_capture,
    decide_kill,
    decide_move_heir,
    decide_release,
    decide_resolve_combat,
)
from .parliament import decide_attend, decide_close, decide_propose, decide_summon, decide_vote
from .permissions import decide_grant, decide_revoke
from .phases import decide_end_phase, phase_check
from .ports import decide_disembark, decide_embark, decide_sail, decide_storm
from .requests import decide_confirm, decide_reject
from .routes import decide_move_route
from .sieges import decide_siege_assault, with_lifts
from .state import GameState
from .storms import decide_choose_port, decide_expire
from .turns import decide_end_turn, decide_inject, decide_reveal_seed, decide_set_control
from .units import name
from .victory import game_over_refusal

_ORDERS: dict[type[c.Command], Callable[[GameState, Any, bool], Decision]] = {
    c.MoveRoad: decide_move_road,
    c.MoveRoute: decide_move_route,
    c.Move: decide_move,
    c.Enter: decide_enter,
    c.Leave: decide_leave_location,
    c.Embark: decide_embark,
    c.Disembark: decide_disembark,
    c.Sail: decide_sail,
    c.Siege: decide_siege,
    c.Attack: decide_attack,
    c.FormArmy: decide_form_army,
    c.Ransom: decide_ransom,  # pending until the other party confirms (RANSOM.offer)
}
_OTHER: dict[type[c.Command], Callable[[GameState, Any], Decision]] = {
    c.Defend: decide_defend,
    c.Reject: decide_reject,
    c.DeclareAlliance: decide_declare,
    c.AnswerAlliance: decide_answer,
    c.LeaveAlliance: decide_leave,
    c.Grant: decide_grant,
    c.Revoke: decide_revoke,
    c.ChoosePort: decide_choose_port,
    c.PlayCard: decide_play_card,
    c.CaptureHeir: decide_capture_heir,
    c.ReleaseCaptive: decide_release_captive,
    c.Execute: decide_execute,
    c.Assign: decide_assign,
    c.EnterPlay: decide_enter_play,
    c.Crown: decide_crown,
}
#: Steps of a faction or of the GM (Parliament's closing: PARL.close).
_ANYONE: dict[type[c.Command], Callable[[GameState, Any], Decision]] = {
    c.CloseParliament: decide_close,
}
#: Parliament's steps (PARL.*): attending and voting come out of turn.
_PARLIAMENT: dict[type[c.Command], Callable[[GameState, Any], Decision]] = {
    c.SummonParliament: decide_summon,
    c.Attend: decide_attend,
    c.Propose: decide_propose,
    c.Vote: decide_vote,
}
_GM: dict[type[c.Command], Callable[[GameState, Any], Decision]] = {
    c.Deadline: decide_deadline,
    c.Storm: decide_storm,
    c.SetControl: decide_set_control,
    c.InjectRandom: decide_inject,
    c.EndTurn: decide_end_turn,
    c.RevealSeed: decide_reveal_seed,
    c.Kill: decide_kill,
    c.Capture: decide_capture,
    c.Release: decide_release,
    c.MoveHeir: decide_move_heir,
    c.ResolveCombat: decide_resolve_combat,
    c.Expire: decide_expire,
    c.EndPhase: decide_end_phase,
    c.DrawEvent: decide_draw_event,
    c.Battle: decide_battle,
    c.SiegeAssault: decide_siege_assault,
    c.DrawCrown: decide_draw_crown,
}


def decide(state: GameState, command: c.Command) -> Decision:
    """Judge ``command`` in ``state``; in a game with phases (FULL_GAME §2), first the
    phase machine: a step of a phase already passed is refused (``PHASE.order``, after
    ``ORDER.invalid``); a step of a later phase moves the turn on to it first. Whatever
    an accepted step does, a siege whose besiegers left or grew too weak ends (SIEGE.lift).

    >>> from kingmaker.conformance.case import build_board, build_state
    >>> board = build_board({
    ...     "places": {"york": {"kind": "city"}, "tadcaster": {"kind": "castle"}, "leeds": {"kind": "town"}},
    ...     "roads": [["york", "tadcaster", "leeds"]],
    ... })
    >>> state = build_state({
    ...     "turn_order": ["red", "blue"],
    ...     "nobles": {"percy": {"faction": "red", "at": "york", "troops": 100}},
    ... }, board, "doc")
    >>> d = decide(state, c.MoveRoad("red", "percy", ("york", "tadcaster", "leeds")))
    >>> d.result.value, d.rule, d.events
    ('refused', 'LOC.neutral.road', ())
    >>> d.explanation
    'Percy may not pass through Tadcaster: a neutral castle blocks road movement (LOC.neutral.road)'
    >>> decide(state, c.MoveRoad("red", "percy", ("york", "tadcaster"))).explanation
    'Percy moves by road to Tadcaster'
    """
    over = game_over_refusal(state, command)
    if over is not None:
        return over
    d = with_lifts(state, _phased_decide(state, command))
    return with_proclamation_end(state, replay(state, d.events), d) if state.proclaimed else d


def _phased_decide(state: GameState, command: c.Command) -> Decision:
    try:
        advance = phase_check(state, command)
    except Refusal as r:
        first = _plain_decide(state, command)
        if first.refused and first.rule == ids.ORDER_INVALID:
            return first
        return Decision(Result.REFUSED, r.rule, r.explanation, unit=r.unit, place=r.place)
    if advance is None:
        return _plain_decide(state, command)
    moved = (ev.PhaseBegan(advance),)
    d = _plain_decide(replay(state, moved), command)
    if d.refused:
        return d
    return replace(d, events=(*moved, *d.events))


def _plain_decide(state: GameState, command: c.Command) -> Decision:
    try:
        return _decide(state, command)
    except Refusal as r:
        return Decision(Result.REFUSED, r.rule, r.explanation, unit=r.unit, place=r.place)


def _decide(state: GameState, command: c.Command) -> Decision:
    malformed = command_problem(command)
    if malformed is not None:
        raise Refusal(ids.ORDER_INVALID, f"{malformed} ({ids.ORDER_INVALID})")
    kind = type(command)
    by = command.by
    if kind in _GM:
        if by != c.GM:
            raise Refusal(
                ids.ORDER_INVALID, f"only the GM may {command.kind.replace('_', ' ')} ({ids.ORDER_INVALID})"
            )
        return _GM[kind](state, command)
    if kind in _ANYONE and by == c.GM:
        return _ANYONE[kind](state, command)
    if by not in state.turn_order:
        raise Refusal(ids.ORDER_INVALID, f"{by!r} is not a faction of this game ({ids.ORDER_INVALID})")
    if kind in _ANYONE:
        return _ANYONE[kind](state, command)
    if kind in _PARLIAMENT:
        return _PARLIAMENT[kind](state, command)
    if isinstance(command, c.Confirm):
        return decide_confirm(state, command, _decide_confirmed)
    if kind in _OTHER:
        return _OTHER[kind](state, command)
    handler = _ORDERS.get(kind)
    if handler is None:
        raise Refusal(ids.ORDER_INVALID, f"unknown command {command.kind!r} ({ids.ORDER_INVALID})")
    try:
        return handler(state, command, False)
    except Pending as p:
        return _pending(state, command, p.awaiting)


def _decide_confirmed(state: GameState, command: c.Command, confirmed: bool) -> Decision:
    handler = _ORDERS[type(command)]
    try:
        return handler(state, command, confirmed)
    except Refusal as r:
        return Decision(Result.REFUSED, r.rule, r.explanation, unit=r.unit, place=r.place)


def _pending(state: GameState, command: c.Command, awaiting: tuple[str, ...]) -> Decision:
    req = getattr(command, "id", None) or f"req-{opaque_id(state.rng.seed, 'request', state.seq)}"
    if req in state.requests or req in state.closed:
        raise Refusal(ids.ORDER_INVALID, f"a request {req!r} already exists ({ids.ORDER_INVALID})")
    rule = ids.ALLY_6 if isinstance(command, c.FormArmy) else ids.ALLY_4
    unit = getattr(command, "unit", None) or getattr(command, "ship", None)
    what = (
        f"{command.by}'s new army waits for {' and '.join(awaiting)} to confirm it"
        if rule == ids.ALLY_6
        else f"{command.by}'s order for {name(state, unit)} waits for {' and '.join(awaiting)} to confirm it"
    )
    return Decision(
        Result.PENDING,
        rule,
        f"{what} ({rule})",
        (ev.RequestOpened(req, rule, command.by, command, awaiting),),
        awaiting=awaiting,
        unit=unit if isinstance(unit, str) else None,
        request=req,
    )


def play(state: GameState, command: c.Command) -> tuple[GameState, Decision]:
    """Decide ``command`` and apply its events: the state after it, and the decision."""
    d = decide(state, command)
    return (replay(state, d.events) if d.events else state), d
