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
4. The victory check (VICTORY.timing) belongs to issue 14 and comes here.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import events as ev
from . import ids
from .apply import replay
from .captives import unransomed
from .decks import CROWN_DECK, CROWN_DRAWN, draw
from .remains import death
from .state import GameState
from .storms import settle_all
from .units import names


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """The events of a turn's end, the clauses that say them, and the executed."""

    events: list[ev.Event]
    clauses: list[str]
    executed: tuple[str, ...]


def turn_end_steps(state: GameState) -> TurnEnd:
    events: list[ev.Event] = []
    clauses: list[str] = []
    s = state
    if s.storms:
        more, where = settle_all(s)
        events += more
        s = replay(s, more)
        clauses.append(f"the storm is settled at random: it drives {where} ({ids.EVENT_STORM})")
    if CROWN_DRAWN not in s.event_flags:
        turn = s.turn
        card, more = draw(s, CROWN_DECK, lambda _: f"hand:{turn}")
        if card is None:
            clauses.append(
                f"the Crown deck and its discard are empty: {turn} draws nothing ({ids.DEAL_DRAW})"
            )
        else:
            shuffled = any(isinstance(e, ev.DeckShuffled) for e in more)
            again = (
                f"the Crown discard is shuffled into a new deck ({ids.DEAL_EMPTY}) and " if shuffled else ""
            )
            clauses.append(f"{again}{turn} draws a Crown card into its hand ({ids.DEAL_DRAW})")
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
    return TurnEnd(events, clauses, executed)
