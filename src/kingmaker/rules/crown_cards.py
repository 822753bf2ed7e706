"""Crown cards (FULL_GAME 3.9, DEAL.*): the turn's Crown draw (``draw_crown``:
DEAL.draw, DEAL.empty), assigning a card from a hand to a noble (``assign``:
DEAL.assign, DEAL.limits) and a noble card entering play (``enter_play``: DEAL.noble).
DEAL.setup is the deal of ``rules.deal``; DEAL.chancery is ``rules.views``.

None of these is an order (ALLY.5 never counts them). Refusals come in the order of
FULL_GAME 3.11: ``ORDER.invalid`` (what the step names does not exist, or is not the
faction's card), then ``PHASE.order`` (the phase machine), ``TURN.order``,
``ORDER.foreign``, ``DEAL.assign`` (a captive, or a noble at sea: docs/rulings.md),
``SIEGE.sealed`` and ``DEAL.limits``.
"""

from __future__ import annotations

from . import events as ev
from . import ids
from .cards import AwardKind
from .commands import Assign, DrawCrown, EnterPlay
from .context import invalid, require_place
from .decision import Decision, Refusal, Result
from .decks import CROWN_DECK, CROWN_DRAWN, draw
from .phases import CROWN, MOVEMENT, register_phase
from .potential import held_inside
from .sieges import besieged, noble_besieged
from .state import GameState
from .status import non_allied_inside
from .units import name

register_phase(DrawCrown, CROWN)
register_phase(EnterPlay, MOVEMENT)

# -- DEAL.draw, DEAL.empty --------------------------------------------------------------


def crown_draw(state: GameState) -> tuple[list[ev.Event], str, str]:
    """The turn's Crown draw (DEAL.draw): the top Crown card to the hand of the faction
    whose turn it is, even one with no nobles; an empty deck first takes its discard,
    shuffled (DEAL.empty); nothing when both are empty. The events, the clause that says
    it (naming no card: the hand is secret, DEAL.chancery) and the rule that decided."""
    turn = state.turn
    card, events = draw(state, CROWN_DECK, lambda _: f"hand:{turn}")
    if card is None:
        return (
            [],
            f"the Crown deck and its discard are empty: {turn} draws nothing ({ids.DEAL_DRAW})",
            ids.DEAL_DRAW,
        )
    if any(isinstance(e, ev.DeckShuffled) for e in events):
        text = (
            f"the Crown discard is shuffled into a new deck ({ids.DEAL_EMPTY}) and {turn} draws a Crown "
            f"card into its hand ({ids.DEAL_DRAW})"
        )
        return events, text, ids.DEAL_EMPTY
    return events, f"{turn} draws a Crown card into its hand ({ids.DEAL_DRAW})", ids.DEAL_DRAW


def decide_draw_crown(state: GameState, cmd: DrawCrown) -> Decision:
    """DEAL.draw: the GM makes the turn's Crown draw in its Crown phase, once a turn (F23:
    one draw per turn); the turn's end then makes none."""
    if not state.phased:
        raise invalid("this game plays without phases, and so without the Crown phase's draw")
    if CROWN_DRAWN in state.event_flags:
        raise Refusal(
            ids.DEAL_DRAW,
            f"{state.turn} has made this turn's Crown draw: one card a turn (F23) ({ids.DEAL_DRAW})",
        )
    events, text, rule = crown_draw(state)
    return Decision(Result.ACCEPTED, rule, text, (*events, ev.EventFlagSet(CROWN_DRAWN)))


# -- DEAL.assign, DEAL.limits -----------------------------------------------------------


def titled(state: GameState, noble: str) -> bool:
    """Whether ``noble`` holds a title: a pre-printed one (his card's) or a title card."""
    card = state.catalog.nobles.get(noble)
    if card is not None and card.title is not None:
        return True
    return any(state.catalog.award(a).kind is AwardKind.TITLE for a in state.nobles[noble].awards)


def within_limits(state: GameState, card: str, noble: str) -> bool:
    """DEAL.limits without its words: whether ``limits_problem`` finds nothing."""
    kind = state.catalog.award(card).kind
    n = state.nobles[noble]
    if kind is AwardKind.TITLE:
        return not titled(state, noble)
    if kind is AwardKind.OFFICE:
        award = state.catalog.award
        return titled(state, noble) and not any(award(a).kind is AwardKind.OFFICE for a in n.awards)
    return True


def limits_problem(state: GameState, card: str, noble: str) -> str | None:
    """DEAL.limits: why ``noble`` may not hold ``card`` (at most one title, a pre-printed
    one counting; an office only if titled, and at most one), or None."""
    if within_limits(state, card, noble):
        return None
    kind = state.catalog.award(card).kind
    n = state.nobles[noble]
    who = name(state, noble)
    if kind is AwardKind.TITLE and titled(state, noble):
        own = state.catalog.nobles.get(noble)
        held = next((a for a in n.awards if state.catalog.award(a).kind is AwardKind.TITLE), None)
        which = (
            f"pre-printed: {own.title}"
            if own is not None and own.title and held is None
            else name(state, held)
        )
        return f"{who} already holds a title ({which}), and a noble holds at most one"
    if kind is AwardKind.OFFICE:
        if not titled(state, noble):
            return f"{who} holds no title, and only a titled noble may hold an office"
        held = next((a for a in n.awards if state.catalog.award(a).kind is AwardKind.OFFICE), None)
        if held is not None:
            return f"{who} already holds an office ({name(state, held)}), and a noble holds at most one"
    return None


def decide_assign(state: GameState, cmd: Assign) -> Decision:
    """DEAL.assign: a faction assigns a card from its hand to one of its nobles, at any
    time, except to a captive, a noble at sea (DEAL.assign) or one inside a besieged place
    (SIEGE.sealed), within DEAL.limits. A ship card puts the ship in play, in port at its
    home port; a card naming places (a town, an office's castle) gives control of those
    no faction holds, as at the deal."""
    cat = state.catalog
    if cmd.card not in state.hands.get(cmd.by, ()):
        raise invalid(f"{cmd.by} holds no card {name(state, cmd.card)} in its hand")
    if cmd.card in cat.nobles:
        raise invalid(f"{name(state, cmd.card)} is a noble card: he enters play with enter_play (DEAL.noble)")
    if cmd.card in cat.events:
        raise invalid(f"{name(state, cmd.card)} is an event card: it is played, not assigned (play_card)")
    n = state.nobles.get(cmd.to)
    if n is None:
        raise invalid(f"there is no noble {cmd.to!r} in play", unit=cmd.to)
    ship = cat.ships.get(cmd.card)
    if ship is not None and (ship.home_port is None or ship.home_port not in state.board.places):
        raise invalid(f"{name(state, cmd.card)} has no home port on this map to come into play at", unit=n.id)
    if n.faction != cmd.by:
        raise Refusal(
            ids.ORDER_FOREIGN,
            f"{cmd.by} may not assign a card to {name(state, n.id)}: he is not its noble ({ids.ORDER_FOREIGN})",
            unit=n.id,
        )
    if n.captive_of is not None or (n.aboard is not None and not state.ships[n.aboard].in_port):
        where = f"a captive of {n.captive_of}" if n.captive_of is not None else "at sea"
        raise Refusal(
            ids.DEAL_ASSIGN,
            f"{name(state, n.id)} is {where}, and no card may be assigned to him ({ids.DEAL_ASSIGN})",
            unit=n.id,
        )
    if noble_besieged(state, n.id):
        raise Refusal(
            ids.SIEGE_SEALED,
            f"{name(state, n.id)} is inside {name(state, n.place)}, which is under siege: no card may be "
            f"assigned to him ({ids.SIEGE_SEALED})",
            unit=n.id,
            place=n.place,
        )
    problem = limits_problem(state, cmd.card, n.id)
    if problem is not None:
        raise Refusal(ids.DEAL_LIMITS, f"{problem} ({ids.DEAL_LIMITS})", unit=n.id)
    if ship is not None and ship.home_port is not None:
        port = ship.home_port
        return Decision(
            Result.ACCEPTED,
            ids.DEAL_ASSIGN,
            f"{cmd.by} assigns {name(state, ship.id)} to {name(state, n.id)}: the ship comes into play in "
            f"port at {name(state, port)} ({ids.DEAL_ASSIGN})",
            (ev.ShipEntered(ship.id, cmd.by, port),),
            unit=n.id,
            place=port,
        )
    events: list[ev.Event] = [ev.AwardsMoved((cmd.card,), f"hand:{cmd.by}", f"noble:{n.id}")]
    gained = [
        p
        for p in cat.award(cmd.card).places
        if p in state.board.places and state.board.places[p].kind.controllable and p not in state.control
    ]
    events += [ev.ControlSet(p, cmd.by) for p in gained]
    text = f"{cmd.by} assigns {name(state, cmd.card)} to {name(state, n.id)}"
    if gained:
        text += f"; {', '.join(name(state, p) for p in gained)} {'is' if len(gained) == 1 else 'are'} now {cmd.by}'s"
    for p in cat.award(cmd.card).places:
        holder = state.control.get(p)
        if holder is not None and holder != cmd.by:
            text += f"; {name(state, p)} stays {holder}'s"
    return Decision(Result.ACCEPTED, ids.DEAL_ASSIGN, f"{text} ({ids.DEAL_ASSIGN})", tuple(events), unit=n.id)


# -- DEAL.noble -------------------------------------------------------------------------


def castles_of(state: GameState, noble: str) -> tuple[str, ...]:
    """The castles a noble card names (the places where he may enter play: F24)."""
    card = state.catalog.nobles.get(noble)
    return card.castles if card is not None else ()


def decide_enter_play(state: GameState, cmd: EnterPlay) -> Decision:
    """DEAL.noble (F24): a noble card in the faction's hand enters play in its movement
    phase at one of his castles: inside if the castle is neutral (it becomes the
    faction's) or friendly, else in the open there; in the open too when it is under
    siege, full (LOC.capacity) or holds a noble of a faction not allied. No order."""
    cat = state.catalog
    if cmd.noble not in cat.nobles:
        raise invalid(f"there is no noble card {cmd.noble!r}")
    if cmd.noble in state.nobles or cmd.noble in state.dead:
        raise invalid(
            f"{name(state, cmd.noble)} is {'dead' if cmd.noble in state.dead else 'in play already'}"
        )
    if cmd.noble not in state.hands.get(cmd.by, ()):
        raise invalid(f"{cmd.by} holds no noble card {name(state, cmd.noble)} in its hand")
    place = require_place(state, cmd.castle)
    if cmd.by != state.turn:
        raise Refusal(
            ids.TURN_ORDER,
            f"{cmd.by} may bring a noble into play only in its own movement phase, and it is {state.turn}'s "
            f"turn ({ids.TURN_ORDER})",
            unit=cmd.noble,
        )
    castles = castles_of(state, cmd.noble)
    if place.id not in castles:
        theirs = ", ".join(name(state, c) for c in castles) or "none on this map"
        raise Refusal(
            ids.DEAL_NOBLE,
            f"{name(state, cmd.noble)} enters play only at one of his castles ({theirs}), not at "
            f"{place.name} ({ids.DEAL_NOBLE})",
            unit=cmd.noble,
            place=place.id,
        )
    holder = state.control.get(place.id)
    card = cat.nobles[cmd.noble]
    blocked = None
    if not place.kind.is_location:
        blocked = "it is open country"
    elif holder is not None and not state.friends(cmd.by, holder):
        blocked = f"it is held by {holder}"
    elif besieged(state, place.id):
        blocked = "it is under siege, and nothing crosses its walls"
    elif non_allied_inside(state, place.id, cmd.by):
        blocked = f"a noble of a faction not allied with {cmd.by} is inside"
    elif place.capacity is not None and held_inside(state, place.id) + card.troops > place.capacity:
        blocked = f"it holds at most {place.capacity} troops, and {held_inside(state, place.id)} are inside"
    who = name(state, cmd.noble)
    if blocked is not None:
        return Decision(
            Result.ACCEPTED,
            ids.DEAL_NOBLE,
            f"{who} enters play for {cmd.by} in the open at {place.name}: {blocked} ({ids.DEAL_NOBLE})",
            (ev.NobleEntered(cmd.noble, cmd.by, place.id, False),),
            unit=cmd.noble,
            place=place.id,
        )
    events: list[ev.Event] = [ev.NobleEntered(cmd.noble, cmd.by, place.id, True)]
    text = f"{who} enters play for {cmd.by} inside {place.name}"
    if holder is None and place.kind.controllable:
        events.append(ev.ControlSet(place.id, cmd.by))
        text += f", which becomes {cmd.by}'s"
    return Decision(
        Result.ACCEPTED,
        ids.DEAL_NOBLE,
        f"{text} ({ids.DEAL_NOBLE})",
        tuple(events),
        unit=cmd.noble,
        place=place.id,
    )
