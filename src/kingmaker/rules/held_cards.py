"""Playing a held event card (EVENT.held, FULL_GAME §7 Q8): the Free Move and the Writ.

- **Free Move**: in its own turn, a faction plays it for one of its units (a noble, a
  ship, or an army or fleet it commands) that has already had a movement order this round
  in an earlier turn: ALLY.5 is waived for one further movement order of that unit this
  turn (the steps of one turn form one order, R11).
- **Writ**: a faction plays it, before the turn ends, after a summons of this turn moved
  one of its nobles, naming another noble of its own: the summoned noble goes back to
  where he stood and the named noble is summoned in his place (EVENT.summons; a Writ
  naming a noble who could not be summoned is refused). Embassies are not answered.

The card goes to the event discard. Both are this project's readings of a thin text
(docs/rulings.md, "The full game").
"""

from __future__ import annotations

from . import events as ev
from . import ids
from .cards import FreeMove, Writ
from .commands import PlayCard
from .context import invalid
from .decision import Decision, Refusal, Result
from .orders import check_turn, prior_order
from .state import MOVEMENT, GameState
from .summons import summoned_this_turn, swap, void_reason
from .units import ARMY, FLEET, NOBLE, SHIP, commander, name, owner, unit_kind

FREE_MOVE = "free_move"
ANSWERED = "writ"


def decide_play_card(state: GameState, cmd: PlayCard) -> Decision:
    if not state.phased:
        raise invalid("this game plays without phases, so it has no held event cards")
    if cmd.card not in state.hands.get(cmd.by, ()):
        raise invalid(f"{cmd.by} holds no card {name(state, cmd.card)!r}")
    card = state.catalog.events.get(cmd.card)
    event = card.event if card is not None else None
    if isinstance(event, FreeMove):
        return _free_move(state, cmd)
    if isinstance(event, Writ):
        return _writ(state, cmd)
    raise invalid(f"{name(state, cmd.card)} is not a held event card that can be played")


def _discard(cmd: PlayCard) -> ev.Event:
    return ev.AwardsMoved((cmd.card,), f"hand:{cmd.by}", "event_discard")


def _free_move(state: GameState, cmd: PlayCard) -> Decision:
    check_turn(state, cmd.by, MOVEMENT, "a Free Move")
    kind = unit_kind(state, cmd.unit)
    if kind is None:
        raise invalid(f"there is no unit {cmd.unit!r}", unit=cmd.unit)
    unit = name(state, cmd.unit)
    mine = commander(state, cmd.unit) if kind in (ARMY, FLEET) else owner(state, cmd.unit)
    if mine != cmd.by:
        raise Refusal(
            ids.ORDER_FOREIGN,
            f"{cmd.by} may play a Free Move only for a unit of its own, and {unit} is not ({ids.ORDER_FOREIGN})",
            unit=cmd.unit,
        )
    if kind in (NOBLE, SHIP):
        members: tuple[str, ...] = (cmd.unit,)
    else:
        members = state.armies[cmd.unit].units
    if f"{FREE_MOVE}:{cmd.unit}" in state.event_flags:
        raise Refusal(
            ids.EVENT_HELD, f"{unit} already has a Free Move this turn ({ids.EVENT_HELD})", unit=cmd.unit
        )
    if not any(prior_order(state, m, cmd.by, MOVEMENT) is not None for m in members):
        raise Refusal(
            ids.EVENT_HELD,
            f"{unit} has had no movement order this round that ALLY.5 would count, so needs no Free Move "
            f"({ids.EVENT_HELD})",
            unit=cmd.unit,
        )
    return Decision(
        Result.ACCEPTED,
        ids.EVENT_HELD,
        f"{cmd.by} plays {name(state, cmd.card)}: {unit} may be given one further movement order this turn, "
        f"ALLY.5 waived ({ids.EVENT_HELD})",
        (ev.EventFlagSet(f"{FREE_MOVE}:{cmd.unit}"), _discard(cmd)),
        unit=cmd.unit,
    )


def _writ(state: GameState, cmd: PlayCard) -> Decision:
    summoned = [
        n
        for n in sorted(state.nobles)
        if state.nobles[n].faction == cmd.by
        and summoned_this_turn(state, n) is not None
        and f"{ANSWERED}:{n}" not in state.event_flags
    ]
    if not summoned:
        raise Refusal(
            ids.EVENT_HELD,
            f"{cmd.by} may play a Writ only after a summons of this turn moved one of its nobles ({ids.EVENT_HELD})",
        )
    target = summoned[0]
    origin = summoned_this_turn(state, target)
    assert origin is not None
    n = state.nobles[target]
    if n.place != origin[2] or n.aboard is not None:
        raise Refusal(
            ids.EVENT_HELD,
            f"{name(state, target)} no longer stands where the summons put him, so the Writ cannot answer it "
            f"({ids.EVENT_HELD})",
            unit=target,
        )
    sub = state.nobles.get(cmd.unit)
    if sub is None or sub.faction != cmd.by or cmd.unit == target:
        raise invalid(
            f"a Writ names another noble of {cmd.by}'s to go in {name(state, target)}'s place", unit=cmd.unit
        )
    reason = void_reason(state, cmd.unit)
    if reason is not None:
        raise Refusal(
            ids.EVENT_HELD,
            f"{name(state, cmd.unit)} cannot be summoned in {name(state, target)}'s place: {reason} ({ids.EVENT_HELD})",
            unit=cmd.unit,
        )
    placed = swap(state, target, cmd.unit)
    return Decision(
        Result.ACCEPTED,
        ids.EVENT_HELD,
        f"{cmd.by} plays {name(state, cmd.card)}: {placed.text} ({ids.EVENT_HELD})",
        (
            *placed.events,
            ev.EventFlagSet(f"{ANSWERED}:{target}"),
            ev.EventFlagSet(f"{ANSWERED}:{cmd.unit}"),
            _discard(cmd),
        ),
        unit=cmd.unit,
    )
