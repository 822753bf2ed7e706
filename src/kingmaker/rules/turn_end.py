"""What happens when a turn of the full game ends (FULL_GAME §2, 3.13.8): the steps of
the phases left unplayed that happen by themselves, in their order.

1. A storm still waiting for ports is settled at random, as at its deadline
   (EVENT.storm: the turn's end is every deadline's end).
2. The Crown draw, if none was made this turn (DEAL.draw): the top Crown card to the
   hand of the faction whose turn it is, the Crown discard shuffled into a new deck when
   the deck is empty (DEAL.empty); nothing when both are empty.
3. Captives neither ransomed nor freed are executed (EXEC.unransomed): a captive lives
   until the end of the turn in which he was taken, whoever's turn it is (CAPTURE.noble,
   v1.1; docs/rulings.md, "The full game"), so every captive dies now, in the order
   they were taken (``captives.unransomed``).
4. With the option ``two_houses_limit``, a faction that has ended more than two of its
   turns in a row controlling heirs of both houses gives one house up: its heirs of it
   are executed (EXEC.two_houses, ``two_houses.two_houses_at_turn_end``).
5. The victory check (VICTORY.timing, ``victory.victory_at_turn_end``): a victory, or
   no heir left, ends the game there, and the next turn does not begin.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import events as ev
from . import ids
from .apply import replay
from .captives import unransomed
from .crown_cards import crown_draw
from .decks import CROWN_DRAWN
from .parliament import at_turn_end
from .remains import death
from .state import GameState
from .storms import settle_all
from .two_houses import two_houses_at_turn_end
from .units import names
from .victory import victory_at_turn_end


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """The events of a turn's end, the clauses that say them, the executed, and whether
    the game ended there (``game_over``: the rule; ``winner``: None for no winner)."""

    events: list[ev.Event]
    clauses: list[str]
    executed: tuple[str, ...]
    game_over: str | None = None
    winner: str | None = None


def turn_end_steps(state: GameState) -> TurnEnd:
    events: list[ev.Event] = []
    clauses: list[str] = []
    s = state
    if s.storms:
        more, where = settle_all(s)
        events += more
        s = replay(s, more)
        clauses.append(f"the storm is settled at random: it drives {where} ({ids.EVENT_STORM})")
    more, said = at_turn_end(s)  # a sitting Parliament is dissolved; a summons owed is said
    events += more
    clauses += said
    s = replay(s, more)
    if CROWN_DRAWN not in s.event_flags:
        more, clause, _ = crown_draw(s)
        clauses.append(clause)
        events += more
        s = replay(s, more)
    executed = tuple(unransomed(s))
    for n in executed:
        more = death(s, n, "execution")
        events += more
        s = replay(s, more)
    if executed:
        verb = "is" if len(executed) == 1 else "are"
        clauses.append(
            f"{names(state, list(executed))}, neither ransomed nor freed, {verb} executed ({ids.EXEC_UNRANSOMED})"
        )
    houses = two_houses_at_turn_end(s)
    if houses.events:
        events += houses.events
        s = replay(s, list(houses.events))
    if houses.clause:
        clauses.append(houses.clause)
    executed += houses.executed
    won = victory_at_turn_end(s)
    if won is None:
        return TurnEnd(events, clauses, executed)
    events += won.events
    if won.clause:
        clauses.append(won.clause)
    if not won.ended:
        return TurnEnd(events, clauses, executed)
    return TurnEnd(events, clauses, executed, won.rule, won.winner)
