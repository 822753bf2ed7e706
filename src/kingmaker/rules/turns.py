"""The GM's own acts: ending a turn, setting control, feeding the random source,
revealing the seed."""

from __future__ import annotations

from . import events as ev
from . import ids
from .apply import replay
from .commands import EndTurn, InjectRandom, RevealSeed, SetControl
from .context import invalid, require_place
from .decision import Decision, Report, Result
from .requests import lapse_events
from .state import GameState
from .turn_end import turn_end_steps
from .units import name


def decide_end_turn(state: GameState, cmd: EndTurn) -> Decision:
    """The turn ends (TURN.end): unanswered requests lapse (R15); in a game with phases
    (FULL_GAME §2, 3.13.8), whatever phases are left are passed and their automatic
    steps happen, in order: a storm still waiting is settled at random (EVENT.storm),
    the Crown draw if none was made this turn (DEAL.draw, DEAL.empty), the execution of
    captives not ransomed or freed (EXEC.unransomed), with the option
    ``two_houses_limit`` the heirs of a house a faction may no longer keep
    (EXEC.two_houses), then the victory check
    (VICTORY.timing); then the next faction's turn begins in its event phase, unless the
    game ended there (a victory, or no heir left: the decision names that rule)."""
    lapsed = lapse_events(state)
    rnd, nxt = state.next_turn()
    if rnd == state.round:
        text = f"{state.turn}'s turn ends; {nxt}'s turn begins"
    else:
        text = f"round {state.round} ends; round {rnd} begins with {nxt}'s turn"
    if lapsed:
        text += f"; {len(lapsed)} unanswered request(s) lapse"
    if not state.phased:
        return Decision(Result.ACCEPTED, ids.TURN_END, text, (*lapsed, ev.TurnEnded()))
    end = turn_end_steps(replay(state, lapsed))
    if end.game_over is not None:
        return Decision(
            Result.ACCEPTED,
            end.game_over,
            "; ".join([*end.clauses, f"{state.turn}'s turn is the game's last"]) + f" ({ids.VICTORY_TIMING})",
            (*lapsed, *end.events),
            report=Report(executed=end.executed, winner=end.winner),
        )
    return Decision(
        Result.ACCEPTED,
        ids.TURN_END,
        "; ".join([*end.clauses, text]) + f" ({ids.TURN_END})",
        (*lapsed, *end.events, ev.TurnEnded()),
        report=Report(executed=end.executed),
    )


def decide_set_control(state: GameState, cmd: SetControl) -> Decision:
    place = require_place(state, cmd.place)
    if not place.kind.controllable:
        raise invalid(f"{place.name} is a {place.kind.label}, which no faction controls", place=place.id)
    if cmd.faction is not None and cmd.faction not in state.turn_order:
        raise invalid(f"there is no faction {cmd.faction!r}", place=place.id)
    who = cmd.faction or "no faction (neutral)"
    return Decision(
        Result.ACCEPTED,
        ids.GM_ACTION,
        f"{name(state, place.id)} is now controlled by {who}",
        (ev.ControlSet(place.id, cmd.faction),),
        place=place.id,
    )


def decide_inject(state: GameState, cmd: InjectRandom) -> Decision:
    if any(v < 0 for v in cmd.values):
        raise invalid("random values must be whole numbers of zero or more")
    return Decision(
        Result.ACCEPTED,
        ids.GM_ACTION,
        f"the next random draws use {', '.join(map(str, cmd.values))}",
        (ev.RandomInjected(tuple(cmd.values)),),
    )


def decide_reveal_seed(state: GameState, cmd: RevealSeed) -> Decision:
    if state.seed_revealed:
        raise invalid("the seed has already been revealed")
    return Decision(
        Result.ACCEPTED, ids.GM_ACTION, "the GM reveals the random seed", (ev.SeedRevealed(state.rng.seed),)
    )
