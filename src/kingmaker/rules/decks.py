"""The decks (FULL_GAME 3.2, 3.9, §4): drawing the top card, reshuffling a discard into an
empty deck (EVENT.reshuffle, DEAL.empty), the option ``reshuffle: each_draw``, the
combat draw (EVENT.combat_draw) and the Crown draw (DEAL.draw).

Every shuffle comes from the recorded source and is written as a ``DeckShuffled`` event
with the values it used, one per swap, so that ``verify-draws`` re-derives it; a draw
itself uses no value: it takes the top card. Nothing here decides a command: the event,
combat and turn rules call these and put the events in their decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from . import events as ev
from . import ids
from .apply import replay
from .cards import EventCard
from .chance import next_value, shuffle_order
from .decision import Refusal
from .state import GameState, RandomSource

EVENT_DECK = "event"
CROWN_DECK = "crown"
EACH_DRAW = "each_draw"
#: The flag a Crown draw of the turn sets (``draw_crown``, issue 14): the turn's end then
#: makes none (DEAL.draw).
CROWN_DRAWN = "crown_drawn"


def shuffled(source: RandomSource, cards: Iterable[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """FULL_GAME §4: the cards sorted by id, shuffled with one value per swap; the new
    order (top first) and the values used."""
    order = sorted(cards)
    values: list[int] = []
    for _ in range(len(order) - 1):
        v, source = next_value(source)
        values.append(v)
    return tuple(shuffle_order(order, values)), tuple(values)


def held_cards(state: GameState) -> frozenset[str]:
    """Cards in the factions' hands (held event cards stay out of a reshuffle)."""
    return frozenset(c for hand in state.hands.values() for c in hand)


def reshuffle(state: GameState, deck: str, *, everything: bool = False) -> list[ev.Event]:
    """The discard of ``deck`` (held cards excluded) shuffled into a new deck
    (EVENT.reshuffle, DEAL.empty); with ``everything`` the cards still in the deck go in
    too (``reshuffle: each_draw``). No event when there is nothing to shuffle."""
    held = held_cards(state)
    cards = [c for c in getattr(state, f"{deck}_discard") if c not in held]
    if everything:
        cards += [c for c in getattr(state, f"{deck}_deck") if c not in held]
    if not cards:
        return []
    order, values = shuffled(state.rng, cards)
    return [ev.DeckShuffled(deck, order, values)]


def draw(state: GameState, deck: str, to: Callable[[str], str]) -> tuple[str | None, list[ev.Event]]:
    """The top card of ``deck`` drawn to ``to(card)`` ("discard" or "hand:<faction>"),
    the discard first shuffled into a new deck when the deck is empty (an empty deck is
    reshuffled at the next draw, 3.13.8). None, and no events, when deck and discard are
    both empty."""
    events: list[ev.Event] = []
    if not getattr(state, f"{deck}_deck"):
        events = reshuffle(state, deck)
        if not events:
            return None, []
        state = replay(state, events)
    card = getattr(state, f"{deck}_deck")[0]
    events.append(ev.CardDrawn(deck, card, to(card)))
    return card, events


def after_draw(state: GameState) -> list[ev.Event]:
    """Option ``reshuffle: each_draw`` (EVENT.reshuffle): after each draw of the event
    deck every card not held goes back and the deck is shuffled; else nothing."""
    if state.option("reshuffle") != EACH_DRAW:
        return []
    return reshuffle(state, EVENT_DECK, everything=True)


def combat_draw(state: GameState) -> tuple[EventCard, list[ev.Event]]:
    """EVENT.combat_draw: the top card of the event deck that has a battle half; a card
    without one goes to the discard and the next is drawn; an empty deck is reshuffled
    from the discard (EVENT.reshuffle). The card and the events of the draw (the card
    ends in the discard; with ``reshuffle: each_draw`` the deck is then shuffled anew).
    Raises ``Refusal`` (EVENT.combat_draw) when no card of deck or discard has one."""
    cards = state.catalog.events
    pool = [*state.event_deck, *(c for c in state.event_discard if c not in held_cards(state))]
    if not any((card := cards.get(c)) is not None and card.battle is not None for c in pool):
        raise Refusal(
            ids.EVENT_COMBAT_DRAW,
            f"no card of the event deck or its discard has a battle half to decide it ({ids.EVENT_COMBAT_DRAW})",
        )
    events: list[ev.Event] = []
    s = state
    while True:  # ends: a card with a battle half is in the deck, or in the discard it reshuffles
        top, drawn = draw(s, EVENT_DECK, lambda _: "discard")
        assert top is not None
        events += drawn
        s = replay(s, drawn)
        card = cards.get(top)
        if card is not None and card.battle is not None:
            more = after_draw(s)
            return card, events + more
