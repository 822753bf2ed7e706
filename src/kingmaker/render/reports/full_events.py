"""Sentences for the full game's log entries (docs/full-game.md §4): event cards drawn
and what their events did, sieges laid, drawn and ended, deaths, captives taken and
freed, cards passing between nobles and hands, storms and event flags.

A sentence says what its entry holds, in words; it decides nothing (the figures a
sentence repeats were counted by the rules). What a viewer may read is decided before:
entries by ``visible_log``; a Crown card drawn or a deck shuffled that the viewer may
not read reaches these sentences with its secret fields emptied (``redacted``), and
says only that it happened. Cards going to the Chancery are counted, never named."""

from __future__ import annotations

import dataclasses

from kingmaker.log.envelope import Envelope
from kingmaker.rules import events as ev
from kingmaker.rules import ids
from kingmaker.rules.cards import (
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
from kingmaker.rules.fighting import strength
from kingmaker.rules.records import Record
from kingmaker.rules.sieges import held
from kingmaker.rules.state import GameState

from .document import Code, Inline, bold, inlines, joined
from .fighting import battle_sentence, siege_sentence
from .naming import Names

Sentence = tuple[Inline, ...]

DECKS = {"event": "event", "crown": "Crown"}


def redacted(env: Envelope) -> Envelope:
    """``env`` as one who may not read it learns of it (the drawer's Crown card, a deck's
    new order): its secret fields emptied."""
    e = env.event
    if isinstance(e, ev.CardDrawn):
        return dataclasses.replace(env, event=ev.CardDrawn(e.deck, "", e.to))
    if isinstance(e, ev.DeckShuffled):
        return dataclasses.replace(env, event=ev.DeckShuffled(e.deck, (), ()))
    raise ValueError(f"{e.kind} entries are not told in part")


def told_in_part(env: Envelope, viewer: str) -> bool:
    """Whether ``env``, which ``viewer`` may not read, is still told in part: that a
    Crown card was drawn (the hands' sizes are public), that a deck was shuffled."""
    e = env.event
    if isinstance(e, ev.CardDrawn):
        return e.deck == "crown" and e.to.startswith("hand:") and e.to != f"hand:{viewer}"
    return isinstance(e, ev.DeckShuffled)


def event_words(n: Names, card: EventCard) -> str:
    """What an event card's event section says (public: the card set is)."""
    e = card.event
    if isinstance(e, Plague):
        return f"plague in {', '.join(n.place(p) for p in e.places)}"
    if isinstance(e, Storm):
        return f"a storm over {' and '.join(n.place(s) for s in e.seas)}"
    if isinstance(e, Summons):
        who = n.unit(e.target) if e.target else f"the holder of the {n.card(e.holder or '')}"
        return f"{who} is summoned to {n.place(e.place)}"
    if isinstance(e, Embassy):
        return f"an embassy sends the King ({e.king.value}) to {n.place(e.place)}"
    if isinstance(e, Mercenaries):
        return f"the {', '.join(n.card(c) for c in e.cards)} go home"
    if isinstance(e, ParliamentChancellor):
        return "the Chancellor's faction may summon Parliament"
    if isinstance(e, ParliamentMust):
        return "Parliament must be summoned"
    if isinstance(e, Writ):
        return "a Writ, held to answer a summons"
    if isinstance(e, FreeMove):
        return "a Free Move, held for later"
    return "no event"


def _s(count: int) -> str:
    return "s" if count == 1 else ""


def _hand(where: str) -> str | None:
    kind, _, who = where.partition(":")
    return who if kind == "hand" else None


def _noble(where: str) -> str | None:
    kind, _, who = where.partition(":")
    return who if kind == "noble" else None


def _cards(n: Names, cards: tuple[str, ...]) -> str:
    return ", ".join(n.card(c) for c in cards) or "nothing"


_DEATHS = {
    "battle": "dies in battle",
    "siege": "dies in the siege",
    "plague": "dies of plague",
    "execution": "is executed",
}


FULL_EVENTS = (
    ev.PhaseBegan,
    ev.DeckShuffled,
    ev.CardDrawn,
    ev.BattleFought,
    ev.SiegeBegan,
    ev.SiegeDrawn,
    ev.SiegeEnded,
    ev.NobleDied,
    ev.HeirDied,
    ev.NobleTaken,
    ev.AwardsMoved,
    ev.StormBegan,
    ev.PortChosen,
    ev.StormSettled,
    ev.EventFlagSet,
)


def is_full(env: Envelope) -> bool:
    """Whether ``full_sentence`` tells ``env``: a full game's entry, or a captive freed
    by ransom or for nothing."""
    e = env.event
    return isinstance(e, FULL_EVENTS) or (
        isinstance(e, ev.NobleReleased) and env.rule in (ids.RANSOM_OFFER, ids.RANSOM_RELEASE)
    )


def full_sentence(env: Envelope, n: Names, before: GameState) -> Sentence | None:
    """The sentence of a full game's entry; None for entries told elsewhere (a phase
    begun: the report's phase headings; a battle's card: its battle) or told by none."""
    e = env.event
    if isinstance(e, ev.NobleReleased):
        how = "is ransomed and freed" if env.rule == ids.RANSOM_OFFER else "is freed for nothing"
        return inlines(f"{n.unit(e.noble)} {how}, in the open at {n.place(e.place)}.")
    return _cards_and_decks(env, e, n) or _fighting(e, n, before) or _others(e, n, before)


def _cards_and_decks(env: Envelope, e: Record, n: Names) -> Sentence | None:
    match e:
        case ev.CardDrawn(deck="crown", card="", to=to):
            return inlines(n.faction(_hand(to)), " draws a Crown card.")
        case ev.CardDrawn(deck="crown", card=card, to=to):
            return inlines(n.faction(_hand(to)), " draws ", bold(n.card(card)), " from the Crown deck.")
        case ev.CardDrawn(deck=deck, card=card, to=to):
            rule = env.rule or ""
            if rule.startswith(("BATTLE.", "SIEGE.")):
                return inlines(
                    f"The card drawn for {'the siege' if rule.startswith('SIEGE') else 'the battle'}: ",
                    bold(n.card(card)),
                    ".",
                )
            found = n.catalog.events.get(card)
            what = f" ({event_words(n, found)})" if found is not None else ""
            holder = _hand(to)
            goes = inlines("; it goes to ", n.possessive(holder), " hand") if holder else ()
            return inlines(
                f"The {DECKS.get(deck, deck)} card for ",
                n.possessive(env.turn),
                " turn: ",
                bold(n.card(card)),
                what,
                goes,
                ".",
            )
        case ev.DeckShuffled(deck=deck):
            return inlines(f"The {DECKS.get(deck, deck)} discard is shuffled into a new deck.")
        case ev.AwardsMoved(cards=cards, source=source, to=to):
            return _awards(n, cards, source, to, env.rule)
    return None


def _awards(n: Names, cards: tuple[str, ...], source: str, to: str, rule: str | None) -> Sentence:
    giver, getter, holder = _hand(source), _hand(to), _noble(source)
    count = f"{len(cards)} card{'' if len(cards) == 1 else 's'}"
    if to == "chancery":  # the Chancery's contents are the GM's: counted, not named
        verb = "goes" if len(cards) == 1 else "go"
        return inlines(f"{count} from ", _place_of(n, source), f" {verb} to the Chancery.")
    if source == "chancery":
        return inlines(f"{count} leave{_s(len(cards))} the Chancery for ", _place_of(n, to), ".")
    if giver is not None and getter is not None:
        why = " (the ransom)" if rule == ids.RANSOM_OFFER else ""
        return inlines(n.faction(giver), " gives ", n.faction(getter), f" {_cards(n, cards)}{why}.")
    if giver is not None and (receiver := _noble(to)) is not None and rule == ids.DEAL_ASSIGN:
        return inlines(n.faction(giver), f" assigns {_cards(n, cards)} to {n.unit(receiver)}.")
    if holder is not None and getter is not None:
        return inlines(n.faction(getter), f" takes {n.unit(holder)}'s {_cards(n, cards)} as spoils.")
    if giver is not None and to == "event_discard":
        return inlines(n.faction(giver), f" plays {_cards(n, cards)}.")
    if to == "crown_discard":
        frm = f" from {n.unit(holder)}" if holder else ""
        return inlines(f"{_cards(n, cards)} go{'es' if len(cards) == 1 else ''}{frm} to the Crown discard.")
    return inlines(f"{_cards(n, cards)}: from ", _place_of(n, source), " to ", _place_of(n, to), ".")


def _place_of(n: Names, where: str) -> tuple[Inline, ...]:
    """A card's place (``noble:percy``, ``hand:red``, ``crown_discard``) in words."""
    if (h := _hand(where)) is not None:
        return inlines(n.possessive(h), " hand")
    if (x := _noble(where)) is not None:
        return inlines(n.unit(x))
    return inlines(where.replace("_", " "))


def _fighting(e: Record, n: Names, before: GameState) -> Sentence | None:
    match e:
        case ev.PhaseBegan():
            return None
        case ev.BattleFought():
            return battle_sentence(n, e)
        case ev.SiegeBegan(place=place, by=by, besiegers=besiegers):
            p = before.board.places.get(place)
            figures = ""
            if p is not None and all(b in before.nobles for b in besiegers):
                figures = f", {strength(before, besiegers, p)} against {held(before, p)[1]}"
            return inlines(n.faction(by), f" lays siege to {n.place(place)}: {n.units(besiegers)}{figures}.")
        case ev.SiegeDrawn():
            return siege_sentence(n, e, before)
        case ev.SiegeEnded(place=place, reason=reason):
            why = (
                "a relief has won the battle against its besiegers"
                if reason == "relieved"
                else ("its besiegers have left or no longer match the garrison and the nobles inside")
            )
            return inlines(f"The siege of {n.place(place)} is lifted: {why}.")
        case ev.NobleDied(
            noble=noble, cause=cause, to_chancery=chancery, to_discard=discard, heirs_dead=heirs
        ):
            captor = before.nobles[noble].captive_of if noble in before.nobles else None
            executor = inlines(" by ", n.faction(captor)) if cause == "execution" and captor else ()
            also = f"; {n.units(heirs)} die{_s(len(heirs))} with him" if heirs else ""
            remains = []
            if discard:
                remains.append(f"{_cards(n, discard)} to the Crown discard")
            if chancery:
                remains.append(f"{len(chancery)} card{'' if len(chancery) == 1 else 's'} to the Chancery")
            rest = f" ({'; '.join(remains)})" if remains else ""
            return inlines(f"{n.unit(noble)} {_DEATHS.get(cause, 'dies')}", executor, f"{also}{rest}.")
        case ev.HeirDied(heir=heir, cause=cause):
            return inlines(f"{n.unit(heir)} {_DEATHS.get(cause, 'dies')}.")
        case ev.NobleTaken(noble=noble, by=by, place=place):
            return inlines(f"{n.unit(noble)} is taken captive by ", n.faction(by), f" at {n.place(place)}.")
    return None


def _others(e: Record, n: Names, before: GameState) -> Sentence | None:
    match e:
        case ev.StormBegan(storm=storm, ships=ships, ports=ports):
            driven = [
                inlines(
                    f"{n.unit(ship)} (",
                    n.faction(before.ships[ship].faction if ship in before.ships else None),
                    f") into one of {', '.join(n.place(p) for p in choices)}",
                )
                for ship, choices in zip(ships, ports, strict=True)
            ]
            return inlines("A storm drives ", joined(driven, "; "), " (request ", Code(storm), ").")
        case ev.PortChosen(ship=ship, port=port):
            return inlines(f"The port for {n.unit(ship)} is {n.place(port)}.")
        case ev.StormSettled():
            return None
        case ev.EventFlagSet(flag=flag):
            return _flag(n, flag)
    return None


def _flag(n: Names, flag: str) -> Sentence | None:
    kind, _, rest = flag.partition(":")
    if kind == "parliament_chancellor":
        return inlines("If there is no sole King, the Chancellor's faction may summon Parliament this turn.")
    if kind == "parliament_must":
        return inlines("If there is no sole King, Parliament must be summoned this turn.")
    if kind == "free_move":
        return inlines(f"{n.unit(rest)} may be given one further movement order this turn (a Free Move).")
    if kind == "summoned":
        noble = rest.split(":")[0]
        return inlines(
            f"{n.unit(noble)} goes where he is summoned; a Writ may send another noble of his faction in his place this turn."
        )
    return None  # crown_drawn, writ:, answered: (said by the entries around them)
