"""The phase machine (FULL_GAME §2, PHASE.*): the six phases of a faction's turn, the
phase each step belongs to, ``PHASE.order`` and the implicit advance, and ``end_phase``.

A game whose ``phase`` is "" plays without phases (format 1, F26): nothing here applies.
The phases are the turn's faction's: a step of another faction's (an order out of turn,
an answer) is judged by the other rules (``TURN.order`` and the rest), and never moves
the turn on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import commands as c
from . import events as ev
from . import ids
from .decision import Decision, Refusal, Result
from .state import PHASES, GameState
from .units import name

EVENT, MOVEMENT, COMBAT, PARLIAMENT, CORONATION, CROWN = PHASES

_PHASE_OF: dict[type[c.Command], str] = {
    c.DrawEvent: EVENT,
    **{k: MOVEMENT for k in c.MOVEMENT_COMMANDS},
    c.FormArmy: MOVEMENT,
    c.CaptureHeir: MOVEMENT,
    **{k: COMBAT for k in c.COMBAT_COMMANDS},
    c.Battle: COMBAT,
    c.SiegeAssault: COMBAT,
}


def phase_of(command: c.Command) -> str | None:
    """The phase ``command`` belongs to, or None for a step that may come at any time
    (answers, declarations, grants, ransoms, executions, the GM's rulings...)."""
    return phase_of_kind(type(command))


def phase_of_kind(kind: type[c.Command]) -> str | None:
    """The phase a step of ``kind`` belongs to (``phase_of``, by the command's class)."""
    return _PHASE_OF.get(kind)


#: The steps no other step of a batch is moved across: after them the turn is in
#: another phase, or it is another faction's turn.
_BATCH_BREAKS: tuple[type[c.Command], ...] = (c.EndPhase, c.EndTurn)


def batch_order(state: GameState, kinds: Sequence[type[c.Command] | None]) -> list[int]:
    """The order a batch of steps is applied in (FULL_GAME §2: "the engine accepts the
    batch and applies it in phase order"; docs/rulings.md, "A post is applied in phase
    order"), as indices into ``kinds``: the kind of step each line of the batch gives, in
    the order written (None: a line giving no step). The steps of a phase go in phase
    order, in the written order within a phase (a stable sort), in the places the batch's
    phase steps take; a step of no phase (an answer, a declaration, a ruling...) and a
    line giving none keep their place. No step is moved across an ``end_phase`` or
    ``end_turn``. A game without phases (F26) takes its batch in the written order."""
    order = list(range(len(kinds)))
    if not state.phased:
        return order
    breaks = [i for i, k in enumerate(kinds) if k in _BATCH_BREAKS]
    start = 0
    for end in (*breaks, len(kinds)):
        ranks: dict[int, int] = {}
        for i in range(start, end):
            kind = kinds[i]
            phase = phase_of_kind(kind) if kind is not None else None
            if phase is not None:
                ranks[i] = rank(phase)
        slots = sorted(ranks)
        for slot, i in zip(slots, sorted(slots, key=ranks.__getitem__), strict=True):
            order[slot] = i
        start = end + 1
    return order


def register_phase(kind: type[c.Command], phase: str) -> None:
    """Give a command of a later issue its phase (Parliament, coronation, the Crown draw)."""
    if phase not in PHASES:
        raise ValueError(f"no phase {phase!r}")
    _PHASE_OF[kind] = phase


def rank(phase: str) -> int:
    return PHASES.index(phase)


#: Checks made before the turn moves on past its current phase (an implicit advance or
#: ``end_phase``), with the phase it would move to: each raises ``Refusal`` while the
#: turn may not move on yet (a Parliament sitting, or owed: ``parliament.leaving_check``).
_LEAVING: list[Callable[[GameState, str], None]] = []


def register_leaving_check(check: Callable[[GameState, str], None]) -> None:
    """Add a check made before the turn moves on to a later phase (issue 14: Parliament)."""
    _LEAVING.append(check)


def leaving(state: GameState, target: str) -> None:
    """Raise ``Refusal`` if the turn may not move on from its phase to ``target`` yet."""
    for check in _LEAVING:
        check(state, target)


def phase_check(state: GameState, command: c.Command) -> str | None:
    """For a phased game: the phase ``command`` moves the turn on to (implicit advance),
    or None when it needs no move. Raises ``Refusal`` (``PHASE.order``) for a step of a
    phase already passed, or of a later phase while a storm waits for its ports."""
    if not state.phased:
        return None
    wanted = phase_of(command)
    if isinstance(command, c.Defend):
        _defend_check(state, command)
        return None
    if wanted is None or command.by not in (state.turn, c.GM):
        return None
    now = state.phase
    if rank(wanted) < rank(now):
        raise Refusal(
            ids.PHASE_ORDER,
            f"{_what(state, command)} belongs to the {wanted} phase, and {state.turn}'s turn is in its "
            f"{now} phase: that phase has passed ({ids.PHASE_ORDER})",
        )
    if rank(wanted) > rank(now) and state.storms:
        raise Refusal(
            ids.PHASE_ORDER,
            f"{_what(state, command)} must wait: the storm must be settled first (ports for "
            f"{', '.join(s for st in state.storms.values() for s in st.waiting)}) ({ids.PHASE_ORDER})",
        )
    if rank(wanted) <= rank(now):
        return None
    leaving(state, wanted)
    return wanted


def _defend_check(state: GameState, command: c.Defend) -> None:
    """FULL_GAME 3.13.8: ``defend`` in the defending faction's own movement or combat phase."""
    if command.by != state.turn or state.phase not in (MOVEMENT, COMBAT):
        raise Refusal(
            ids.PHASE_ORDER,
            f"{command.by} may choose to defend only in its own movement or combat phase; it is "
            f"{state.turn}'s {state.phase} phase ({ids.PHASE_ORDER})",
        )


#: A step of a phase in words, by its kind (``{u}``: the unit or ship it is given to).
_STEP_WORDS = {
    "move_road": "order to move {u} by road",
    "move": "order to move {u} cross country",
    "enter": "order for {u} to go inside",
    "leave": "order for {u} to leave",
    "embark": "order to embark on {u}",
    "disembark": "order to land from {u}",
    "sail": "order to sail {u}",
    "siege": "order for {u} to lay siege",
    "attack": "order for {u} to attack",
    "form_army": "new army",
    "capture_heir": "order to take an heir",
    "battle": "battle",
    "siege_assault": "draw for a siege",
    "draw_event": "event draw",
    "draw_crown": "Crown draw",
    "enter_play": "noble brought into play",
    "crown": "coronation",
    "summon_parliament": "summons of Parliament",
    "attend": "attendance at Parliament",
    "propose": "proposal to Parliament",
    "vote": "vote in Parliament",
    "close_parliament": "closing of Parliament",
}


def _what(state: GameState, command: c.Command) -> str:
    """``red's order to move Percy by road``: the step as a player would name it."""
    who = "the GM" if command.by == c.GM else command.by
    unit = getattr(command, "unit", None) or getattr(command, "ship", None)
    words = _STEP_WORDS.get(command.kind, command.kind.replace("_", " "))
    if "{u}" in words:
        words = words.format(u=name(state, unit) if isinstance(unit, str) else "a unit")
    return f"{who}'s {words}"


def decide_end_phase(state: GameState, cmd: c.EndPhase) -> Decision:
    """The GM moves the turn on to its next phase; from the Crown phase, ``end_turn``
    ends the turn instead."""
    if not state.phased:
        raise Refusal(ids.ORDER_INVALID, f"this game plays without phases ({ids.ORDER_INVALID})")
    if state.phase == CROWN:
        raise Refusal(
            ids.PHASE_ORDER, f"the Crown phase is the last: end the turn (end_turn) ({ids.PHASE_ORDER})"
        )
    if state.storms:
        raise Refusal(ids.PHASE_ORDER, f"the storm must be settled first ({ids.PHASE_ORDER})")
    nxt = PHASES[rank(state.phase) + 1]
    leaving(state, nxt)
    rule = f"PHASE.{nxt}"
    return Decision(
        Result.ACCEPTED,
        rule,
        f"{state.turn}'s turn moves on to its {nxt} phase ({rule})",
        (ev.PhaseBegan(nxt),),
    )
