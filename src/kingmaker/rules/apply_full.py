"""``apply`` for the events of the full game (docs/full-game.md §4): phases, decks and
hands, battles and sieges, deaths, captives, awards moving, storms and event flags.

Registered with ``apply`` on import (``apply`` imports this module last)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import events as ev
from .apply import off_the_map, on
from .chance import advance
from .frozen import FrozenDict
from .state import Captivity, GameState, Siege, StormRequest


@on(ev.PhaseBegan)
def _phase_began(state: GameState, e: ev.PhaseBegan) -> dict[str, Any]:
    return {"phase": e.phase}


def _deck_fields(deck: str) -> tuple[str, str]:
    if deck not in ("event", "crown"):
        raise ValueError(f"no deck {deck!r}")
    return f"{deck}_deck", f"{deck}_discard"


@on(ev.DeckShuffled)
def _deck_shuffled(state: GameState, e: ev.DeckShuffled) -> dict[str, Any]:
    deck, discard = _deck_fields(e.deck)
    rng = state.rng
    for _ in e.values:
        rng = advance(rng)
    shuffled = set(e.order)
    kept = tuple(c for c in getattr(state, discard) if c not in shuffled)
    return {deck: e.order, discard: kept, "rng": rng}


@on(ev.CardDrawn)
def _card_drawn(state: GameState, e: ev.CardDrawn) -> dict[str, Any]:
    deck, discard = _deck_fields(e.deck)
    cards: tuple[str, ...] = getattr(state, deck)
    rest = cards[1:] if cards and cards[0] == e.card else tuple(c for c in cards if c != e.card)
    changes: dict[str, Any] = {deck: rest}
    changes.update(_put(state, (e.card,), e.to, discard_field=discard))
    return changes


@on(ev.BattleFought)
def _battle_fought(state: GameState, e: ev.BattleFought) -> dict[str, Any]:
    return {"combats": tuple(c for c in state.combats if c.id != e.combat)}


@on(ev.SiegeBegan)
def _siege_began(state: GameState, e: ev.SiegeBegan) -> dict[str, Any]:
    siege = state.sieges.get(e.place)
    if siege is not None:  # nobles join a siege in progress (R20): it keeps its commander and draws
        joined = (*siege.besiegers, *(b for b in e.besiegers if b not in siege.besiegers))
        return {"sieges": state.sieges.set(e.place, replace(siege, besiegers=joined))}
    siege = Siege(e.place, e.by, e.besiegers, state.round, state.turn, 0)
    return {"sieges": state.sieges.set(e.place, siege)}


@on(ev.SiegeDrawn)
def _siege_drawn(state: GameState, e: ev.SiegeDrawn) -> dict[str, Any]:
    siege = state.sieges.get(e.place)
    if e.outcome == "continues":
        if siege is None:
            return {}
        return {"sieges": state.sieges.set(e.place, replace(siege, last_draw_round=state.round))}
    changes: dict[str, Any] = {"sieges": state.sieges.without(e.place)}
    if e.outcome == "fallen" and siege is not None:
        changes["conquests"] = state.conquests.set(e.place, siege.by)
    return changes


@on(ev.SiegeEnded)
def _siege_ended(state: GameState, e: ev.SiegeEnded) -> dict[str, Any]:
    return {"sieges": state.sieges.without(e.place)}


def _without_noble_in_sieges(state: GameState, noble: str) -> FrozenDict[str, Siege]:
    out = {}
    for place, s in state.sieges.items():
        if noble in s.besiegers:
            rest = tuple(b for b in s.besiegers if b != noble)
            if not rest:
                continue  # no one left to lay it (SIEGE.lift)
            s = replace(s, besiegers=rest)
        out[place] = s
    return FrozenDict(out)


@on(ev.NobleDied)
def _noble_died(state: GameState, e: ev.NobleDied) -> dict[str, Any]:
    changes = off_the_map(state, e.noble)
    changes["heirs"] = changes["heirs"].without(*e.heirs_dead)
    changes["nobles"] = state.nobles.without(e.noble)
    changes["dead"] = (*state.dead, e.noble)
    changes["crown_discard"] = (*state.crown_discard, e.noble, *e.to_discard)
    changes["chancery"] = (*state.chancery, *e.to_chancery)
    changes["sieges"] = _without_noble_in_sieges(state, e.noble)
    changes["captivity"] = state.captivity.without(e.noble)
    return changes


@on(ev.HeirDied)
def _heir_died(state: GameState, e: ev.HeirDied) -> dict[str, Any]:
    return {"heirs": state.heirs.without(e.heir)}


@on(ev.NobleTaken)
def _noble_taken(state: GameState, e: ev.NobleTaken) -> dict[str, Any]:
    n = state.nobles[e.noble]
    changes = off_the_map(state, e.noble)
    changes["nobles"] = state.nobles.set(n.id, replace(n, place=None, inside=False, aboard=None, captive_of=e.by))
    changes["captivity"] = state.captivity.set(n.id, Captivity(e.place, state.round, state.turn))
    changes["sieges"] = _without_noble_in_sieges(state, e.noble)
    return changes


def _put(state: GameState, cards: tuple[str, ...], to: str, *, discard_field: str = "") -> dict[str, Any]:
    """The changes that add ``cards`` to ``to`` ("discard" being ``discard_field``)."""
    if to == "discard":
        return {discard_field: (*getattr(state, discard_field), *cards)}
    if to == "event_discard":  # a held event card played (EVENT.held)
        return {"event_discard": (*state.event_discard, *cards)}
    if to == "chancery":
        return {"chancery": (*state.chancery, *cards)}
    if to == "crown_discard":
        return {"crown_discard": (*state.crown_discard, *cards)}
    kind, _, who = to.partition(":")
    if kind == "hand":
        return {"hands": state.hands.set(who, (*state.hands.get(who, ()), *cards))}
    if kind == "noble":
        n = state.nobles[who]
        return {"nobles": state.nobles.set(who, replace(n, awards=(*n.awards, *cards)))}
    raise ValueError(f"no place for cards {to!r}")


def _take(state: GameState, cards: tuple[str, ...], source: str) -> dict[str, Any]:
    """The changes that take ``cards`` out of ``source`` (each once: a card with copies
    may be held twice, and only the copies named move)."""
    if source == "chancery":
        return {"chancery": without_once(state.chancery, cards)}
    if source == "crown_discard":
        return {"crown_discard": without_once(state.crown_discard, cards)}
    kind, _, who = source.partition(":")
    if kind == "hand":
        left = without_once(state.hands.get(who, ()), cards)
        return {"hands": state.hands.set(who, left) if left else state.hands.without(who)}
    if kind == "noble":
        n = state.nobles[who]
        return {"nobles": state.nobles.set(who, replace(n, awards=without_once(n.awards, cards)))}
    raise ValueError(f"no place for cards {source!r}")


def without_once(held: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    """``held`` less one occurrence of each of ``cards``.

    >>> without_once(("saxons", "saxons", "bristol"), ("saxons",))
    ('saxons', 'bristol')
    """
    left = list(held)
    for card in cards:
        if card in left:
            left.remove(card)
    return tuple(left)


@on(ev.AwardsMoved)
def _awards_moved(state: GameState, e: ev.AwardsMoved) -> dict[str, Any]:
    changes = _take(state, e.cards, e.source)
    return changes | _put(state.evolve(**changes), e.cards, e.to)


@on(ev.StormBegan)
def _storm_began(state: GameState, e: ev.StormBegan) -> dict[str, Any]:
    ports = FrozenDict(dict(zip(e.ships, e.ports, strict=True)))
    return {"storms": state.storms.set(e.storm, StormRequest(e.storm, e.ships, ports))}


@on(ev.PortChosen)
def _port_chosen(state: GameState, e: ev.PortChosen) -> dict[str, Any]:
    storm = state.storms[e.storm]
    return {"storms": state.storms.set(e.storm, replace(storm, chosen=storm.chosen.set(e.ship, e.port)))}


@on(ev.StormSettled)
def _storm_settled(state: GameState, e: ev.StormSettled) -> dict[str, Any]:
    return {"storms": state.storms.without(e.storm)}


@on(ev.EventFlagSet)
def _flag_set(state: GameState, e: ev.EventFlagSet) -> dict[str, Any]:
    return {"event_flags": (*state.event_flags, e.flag)}
