"""The event phase (EVENT.*, FULL_GAME 3.2): the GM draws the top card of the event deck
for the turn (EVENT.draw); its event section takes effect at once, on every faction it
touches; the card goes to the discard, or, if held, to the hand of the faction whose turn
it is (EVENT.held); the turn moves on to its movement phase, unless a storm waits for
its ships' ports (EVENT.storm, ``storms``).

The kinds of event: none (EVENT.none), plague (EVENT.plague), storm, summons and embassy
(``summons``), mercenaries going home (EVENT.mercenaries), the two Parliament cards
(EVENT.parliament) and the held cards, Writ and Free Move (EVENT.held, ``held_cards``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import events as ev
from . import ids
from .apply import replay
from .cards import (
    Embassy,
    EventCard,
    FreeMove,
    Mercenaries,
    ParliamentChancellor,
    ParliamentMust,
    Plague,
    Storm,
    Summons,
    Writ,
)
from .chance import opaque_id
from .commands import DrawEvent
from .context import invalid
from .decision import Decision, Refusal, Report, Result
from .decks import EVENT_DECK, after_draw, draw
from .remains import death, lost_control
from .state import MOVEMENT, GameState
from .storms import storm
from .summons import embassy, summons
from .units import name, names


@dataclass(frozen=True, slots=True)
class Effect:
    """What an event section does: its rule, its events, a clause for the sentence, the
    nobles and heirs it killed, and the factions a storm waits for."""

    rule: str
    events: list[ev.Event]
    text: str
    killed: tuple[str, ...] = ()
    awaiting: tuple[str, ...] = field(default=())


def decide_draw_event(state: GameState, cmd: DrawEvent) -> Decision:
    """EVENT.draw: the turn's event card, and its event at once."""
    if not state.phased:
        raise invalid("this game plays without phases, so it has no event phase")
    if state.storms:
        raise Refusal(
            ids.PHASE_ORDER,
            f"this turn's event card is drawn and its storm waits for ports: the storm must be settled "
            f"first ({ids.PHASE_ORDER})",
        )
    storm_id = cmd.id or f"storm-{opaque_id(state.rng.seed, 'storm', state.seq)}"
    if cmd.id is not None and (cmd.id in state.requests or cmd.id in state.closed):
        raise invalid(f"a request {cmd.id!r} already exists")
    turn = state.turn
    cards = state.catalog.events
    top, events = draw(
        state, EVENT_DECK, lambda c: f"hand:{turn}" if (c in cards and cards[c].held) else "discard"
    )
    shuffled = any(isinstance(e, ev.DeckShuffled) for e in events)
    again = f"the discard is shuffled into a new deck ({ids.EVENT_RESHUFFLE}); " if shuffled else ""
    if top is None:
        return Decision(
            Result.ACCEPTED,
            ids.EVENT_DRAW,
            f"the event deck and its discard are empty: {turn}'s turn has no event ({ids.EVENT_DRAW})",
            (ev.PhaseBegan(MOVEMENT),),
        )
    s1 = replay(state, events)
    events += after_draw(s1)
    s1 = replay(state, events)
    card = cards.get(top) or EventCard(top, name(state, top))
    effect = event_effect(s1, card, storm_id)
    events += effect.events
    report = Report(event={"card": card.id, "kind": card.event_kind.value}, killed=effect.killed)
    text = f"{again}{card.name} is drawn for {turn}'s turn: {effect.text} ({effect.rule})"
    if effect.awaiting:
        return Decision(
            Result.PENDING,
            effect.rule,
            text,
            tuple(events),
            awaiting=effect.awaiting,
            request=storm_id,
            report=report,
        )
    return Decision(Result.ACCEPTED, effect.rule, text, (*events, ev.PhaseBegan(MOVEMENT)), report=report)


def event_effect(state: GameState, card: EventCard, storm_id: str) -> Effect:
    """What the card's event section does (the card itself already drawn)."""
    e = card.event
    if e is None:
        return Effect(ids.EVENT_NONE, [], "it has no event")
    if isinstance(e, Plague):
        return plague(state, e.places)
    if isinstance(e, Storm):
        out = storm(state, e.seas, storm_id)
        return Effect(ids.EVENT_STORM, out.events, out.text, awaiting=out.awaiting)
    if isinstance(e, Summons | Embassy):
        placed = summons(state, e) if isinstance(e, Summons) else embassy(state, e)
        return Effect(placed.rule, placed.events, placed.text)
    if isinstance(e, Mercenaries):
        return mercenaries(state, e.cards)
    if isinstance(e, ParliamentChancellor):
        return Effect(
            ids.EVENT_PARLIAMENT,
            [ev.EventFlagSet("parliament_chancellor")],
            "if there is no sole King, the Chancellor's faction may summon Parliament this turn",
        )
    if isinstance(e, ParliamentMust):
        return Effect(
            ids.EVENT_PARLIAMENT,
            [ev.EventFlagSet("parliament_must")],
            "if there is no sole King, Parliament must be summoned this turn",
        )
    if isinstance(e, Writ | FreeMove):
        what = "a Writ" if isinstance(e, Writ) else "a Free Move"
        return Effect(ids.EVENT_HELD, [], f"{what}, it goes to {state.turn}'s hand, to be played later")
    return Effect(ids.EVENT_NONE, [], "no event")


def plague(state: GameState, places: tuple[str, ...]) -> Effect:
    """EVENT.plague: every noble and heir inside each place, or aboard a ship in its port,
    dies; those in the open there, and the garrison, are spared. Heirs die first, then
    the nobles one by one (EXEC.remains), each judged on the state the others left."""
    dying: list[str] = []
    for p in places:
        if p not in state.board.places:
            continue
        dying += [n for n in state.inside_by_place.get(p, ()) if n not in dying]
        for ship in sorted(s.id for s in state.ships.values() if s.in_port and s.place == p):
            dying += [n for n in sorted(state.ships[ship].passengers) if n not in dying]
    heirs = sorted(
        h.id
        for h in state.heirs.values()
        if (h.with_noble is not None and h.with_noble in dying)
        or (h.with_noble is None and h.inside and h.place in places)
    )
    events: list[ev.Event] = [ev.HeirDied(h, "plague") for h in heirs]
    s = replay(state, events)
    for n in dying:
        if n not in s.nobles:
            continue
        more = death(s, n, "plague")
        events += more
        s = replay(s, more)
    where = names(state, [p for p in places if p in state.board.places]) or "no place on this map"
    if not dying and not heirs:
        return Effect(ids.EVENT_PLAGUE, [], f"plague in {where}, where no noble or heir is inside")
    text = f"plague in {where}: {names(state, [*dying, *heirs])} die{'s' if len(dying) + len(heirs) == 1 else ''}"
    return Effect(ids.EVENT_PLAGUE, events, text, tuple([*dying, *heirs]))


def mercenaries(state: GameState, cards: tuple[str, ...]) -> Effect:
    """EVENT.mercenaries: every copy in play of each named mercenary card leaves its
    holder for the Crown discard; control held only through it ends (F16)."""
    events: list[ev.Event] = []
    gone: list[str] = []
    s = state
    for card in cards:
        holders = sorted(x.id for x in s.nobles.values() if card in x.awards)
        for n in holders:
            more: list[ev.Event] = [
                *lost_control(s, n, (card,)),
                ev.AwardsMoved((card,), f"noble:{n}", "crown_discard"),
            ]
            holder = s.nobles[n]
            if holder.inside and any(isinstance(e, ev.ControlSet) and e.place == holder.place for e in more):
                assert holder.place is not None
                more.append(ev.NobleMoved(n, holder.place, False))  # he too goes out into the open
            events += more
            s = replay(s, more)
        if holders:
            gone.append(f"the {name(state, card)} leave {names(state, holders)}")
    what = names(state, list(cards))
    if not gone:
        return Effect(ids.EVENT_MERCENARIES, [], f"the {what} go home, but none is in play")
    return Effect(ids.EVENT_MERCENARIES, events, "; ".join(gone) + " for the Crown discard")
