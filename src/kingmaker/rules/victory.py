"""Victory (FULL_GAME 3.10, VICTORY.*): checked when each turn ends, after the
executions of unransomed captives (VICTORY.timing, ``turn_end``), and when a
``victory`` motion passes in Parliament (``victory_motion_passed``, called by the
Parliament rules). Once the game has ended, every command is refused (VICTORY.timing),
except the GM's revealing of the seed (docs/rulings.md).

At a turn's end, in this order: no heir lives, in a game that has heirs (VICTORY.none:
no winner, the game ends);
a faction controls a crowned heir who is the only living heir of both houses, in England
(VICTORY.last_heir); the only heirs alive are an uncrowned Beaufort and a crowned
Yorkist in England (VICTORY.beaufort); with the option ``victory_hold_turns``, a faction
has kept the sole King, not Henry VI, at the end of that many turns in a row
(VICTORY.hold).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import events as ev
from . import ids
from .commands import Command, RevealSeed
from .decision import Decision, Report, Result
from .kings import HENRY_VI, controller, heir_place, in_england, living_heirs, noble_heir, sole_king
from .state import GameState
from .units import name

#: The option of VICTORY.hold: the turns a King must be kept (off when absent or 0).
HOLD_OPTION = "victory_hold_turns"


@dataclass(frozen=True, slots=True)
class Victory:
    """How the game ends: the rule, the winner (None: no winner), the events (the
    ``GameEnded`` last) and the clause that says it. ``ended`` False: the game goes on,
    and the events only count the turns a King was kept (VICTORY.hold)."""

    rule: str
    winner: str | None
    events: tuple[ev.Event, ...]
    clause: str
    ended: bool = True


def _ended(rule: str, winner: str | None, clause: str, before: tuple[ev.Event, ...] = ()) -> Victory:
    return Victory(rule, winner, (*before, ev.GameEnded(rule, winner)), clause)


def _where(state: GameState, heir: str) -> str:
    place, inside = heir_place(state, heir)
    return f"{'inside' if inside else 'at'} {name(state, place)}"


def hold_turns(state: GameState) -> int:
    """The option ``victory_hold_turns`` as a number of turns (0: VICTORY.hold is off)."""
    raw = state.option(HOLD_OPTION)
    return int(raw) if raw.isdigit() else 0


def victory_at_turn_end(state: GameState) -> Victory | None:
    """The victory check of a turn's end (VICTORY.timing): how the game ends, or None.
    With VICTORY.hold on and no victory, the count of the King kept goes on (a Victory
    that has not ``ended``)."""
    if not state.heirs and state.catalog.heirs:
        return _ended(
            ids.VICTORY_NONE,
            None,
            f"no heir of either house lives: no faction can win, and the game ends ({ids.VICTORY_NONE})",
        )
    heirs = living_heirs(state)
    if len(heirs) == 1:
        (last,) = heirs
        who = name(state, last)
        faction = controller(state, last)
        h = state.heirs[last]
        if h.crowned and faction is not None and in_england(state, last):
            return _ended(
                ids.VICTORY_LAST_HEIR,
                faction,
                f"{who}, crowned and {_where(state, last)}, is the last living heir of both houses: "
                f"{faction}, whose {name(state, h.with_noble)} escorts him, wins the game ({ids.VICTORY_LAST_HEIR})",
            )
    if len(heirs) == 2:
        beaufort = [x for x in heirs if noble_heir(state, x) and not state.heirs[x].crowned]
        yorkist = [x for x in heirs if x not in beaufort and state.heirs[x].crowned]
        if (
            len(beaufort) == 1
            and len(yorkist) == 1
            and state.heirs[yorkist[0]].house != state.heirs[beaufort[0]].house
        ):
            king = yorkist[0]
            faction = controller(state, king)
            if faction is not None and in_england(state, king):
                return _ended(
                    ids.VICTORY_BEAUFORT,
                    faction,
                    f"only {name(state, beaufort[0])}, uncrowned, and King {name(state, king)} live, and the King "
                    f"is {_where(state, king)} in England: {faction}, who keeps him, wins the game "
                    f"({ids.VICTORY_BEAUFORT})",
                )
    return _hold(state)


def _hold(state: GameState) -> Victory | None:
    """VICTORY.hold (option): the count of turns a faction has kept the sole King (not
    Henry VI), and the victory when it reaches the option's number."""
    need = hold_turns(state)
    if not need:
        return None
    king = sole_king(state)
    faction = controller(state, king) if king is not None and king != HENRY_VI else None
    held = state.king_held
    if king is None or faction is None:
        if held is None:
            return None
        return Victory(ids.VICTORY_HOLD, None, (ev.KingHeldCounted("", "", 0),), "", ended=False)
    turns = held.turns + 1 if held is not None and (held.king, held.faction) == (king, faction) else 1
    count = ev.KingHeldCounted(king, faction, turns)
    if turns >= need:
        return _ended(
            ids.VICTORY_HOLD,
            faction,
            f"{faction} has kept {name(state, king)}, the sole King, for {turns} turns: it wins the game "
            f"({ids.VICTORY_HOLD})",
            (count,),
        )
    return Victory(
        ids.VICTORY_HOLD,
        None,
        (count,),
        f"{faction} has kept {name(state, king)}, the sole King, for {turns} of {need} turns ({ids.VICTORY_HOLD})",
        ended=False,
    )


def victory_motion_passed(state: GameState, faction: str) -> Victory:
    """VICTORY.parliament and VICTORY.timing: a passed ``victory`` motion ends the game,
    ``faction`` (the sole King's, who moved it) the winner. The Parliament rules judge
    the motion and its votes; this says the end."""
    king = sole_king(state)
    whose = f", the faction of King {name(state, king)}," if king is not None else ""
    return _ended(
        ids.VICTORY_PARLIAMENT,
        faction,
        f"Parliament passes the victory motion: {faction}{whose} wins the game ({ids.VICTORY_PARLIAMENT})",
    )


def game_over_refusal(state: GameState, command: Command) -> Decision | None:
    """VICTORY.timing: once the game has ended, every command is refused, except the
    GM's revealing of the seed (so that anyone may re-derive the draws); None while the
    game goes on."""
    if not state.game_over or isinstance(command, RevealSeed):
        return None
    end = (
        f"{state.winner} won it ({state.game_over})" if state.winner else f"no one won it ({state.game_over})"
    )
    return Decision(
        Result.REFUSED,
        ids.VICTORY_TIMING,
        f"the game is over: {end}; no step may follow ({ids.VICTORY_TIMING})",
        report=Report(winner=state.winner or None),
    )
