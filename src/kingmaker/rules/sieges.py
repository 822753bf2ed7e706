"""Sieges in a game with phases (FULL_GAME 3.4, SIEGE.*): laying one (SIEGE.strength,
for a ``siege`` order and for an R3 landing alike), the GM's draw for it
(``siege_assault``: SIEGE.resolve, SIEGE.deaths and the heirs' survival draws of the
option ``heir_survival``, SIEGE.fall, SIEGE.continue), the sealed place (SIEGE.sealed)
and the siege lifted when its besiegers leave or grow too weak
(SIEGE.lift). The garrison belongs to the place (SIEGE.garrison): it only adds to what
the besiegers must match.

A game without phases (format 1, F26) keeps its sieges as declared combats that the GM
settles by hand; nothing here applies to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from . import events as ev
from . import ids
from .apply import replay
from .board import Place
from .commands import SiegeAssault
from .context import invalid
from .decision import Decision, Refusal, Report, Result, SiegeReport
from .fighting import (
    SURVIVAL_OPTION,
    Chain,
    combat_draw,
    commanding,
    faction_name,
    heirs_with,
    kill,
    named_dead,
    present,
    strength,
    strongest,
    survival,
    take,
)
from .orders import prior_order
from .state import COMBAT, GameState, Siege
from .units import name, names


def besieged(state: GameState, place: str | None) -> bool:
    """Whether a siege is in progress at ``place`` (SIEGE.sealed: nothing enters or
    leaves it, and no award goes to a noble inside)."""
    return place is not None and place in state.sieges


def noble_besieged(state: GameState, noble: str) -> bool:
    """Whether ``noble`` is inside a place under siege."""
    n = state.nobles.get(noble)
    return n is not None and n.inside and besieged(state, n.place)


def besiegers(state: GameState, siege: Siege) -> tuple[str, ...]:
    """The siege's besiegers still in the open at its place."""
    return tuple(b for b in siege.besiegers if present(state, b, siege.place) and not state.nobles[b].inside)


def defenders(state: GameState, place: str) -> tuple[str, ...]:
    """Every noble inside the place, of any faction (SIEGE.strength, R16)."""
    return tuple(n for n in state.inside_by_place.get(place, ()) if state.nobles[n].captive_of is None)


def held(state: GameState, place: Place, inside: Sequence[str] | None = None) -> tuple[int, str]:
    """What the besiegers must match: the garrison plus the strength of every noble
    inside (``inside``, else those inside now) (SIEGE.strength, SIEGE.garrison), and
    those words: "its garrison of 200 and the 30 of Stafford inside (230)"."""
    if inside is None:
        inside = defenders(state, place.id)
    total = place.garrison + strength(state, inside, place)
    words = f"its garrison of {place.garrison}"
    if inside:
        words += f" and the {strength(state, inside, place)} of {names(state, list(inside))} inside ({total})"
    return total, words


# -- laying a siege ----------------------------------------------------------------------


def begin_siege(
    state: GameState, laying: Sequence[str], place: Place
) -> tuple[list[ev.Event], tuple[str, ...]]:
    """SIEGE.strength for nobles laying (or joining) a siege of ``place``: their strength,
    with the besiegers of a friendly siege already in progress there, must be at least
    the garrison plus every noble inside. The events that lay it, and every besieger.
    Raises ``Refusal``."""
    faction = state.nobles[laying[0]].faction
    existing = state.sieges.get(place.id)
    if existing is not None and not state.friends(faction, existing.by):
        raise invalid(
            f"{place.name} is already besieged by {existing.by}, not allied with {faction}",
            unit=laying[0],
            place=place.id,
        )
    everyone, mine, theirs = _siege_strengths(state, laying, place)
    if mine < theirs:
        _, words = held(state, place)
        raise Refusal(
            ids.SIEGE_STRENGTH,
            f"{names(state, list(everyone))} ({mine}) may not besiege {place.name}: the besiegers must "
            f"match {words} ({ids.SIEGE_STRENGTH})",
            unit=laying[0],
            place=place.id,
        )
    if existing is not None:
        return [ev.SiegeBegan(place.id, existing.by, everyone)], everyone
    by, draws = commanding(state, everyone)
    return [*draws, ev.SiegeBegan(place.id, by or faction or "", everyone)], everyone


def may_besiege(state: GameState, laying: Sequence[str], place: Place) -> bool:
    """Whether ``begin_siege`` would accept these nobles laying (or joining) a siege of
    ``place``, judged without the words of a refusal or the events (SIEGE.strength; a
    siege in progress there by a faction not allied with theirs refuses it): the
    legal-move queries ask this for every place a noble may reach."""
    existing = state.sieges.get(place.id)
    if existing is not None and not state.friends(state.nobles[laying[0]].faction, existing.by):
        return False
    _, mine, theirs = _siege_strengths(state, laying, place)
    return mine >= theirs


def _siege_strengths(
    state: GameState, laying: Sequence[str], place: Place
) -> tuple[tuple[str, ...], int, int]:
    """Every besieger (those of a siege in progress there first, then ``laying``), their
    strength, and what they must match (SIEGE.strength, SIEGE.garrison)."""
    existing = state.sieges.get(place.id)
    joined = besiegers(state, existing) if existing is not None else ()
    everyone = (*joined, *(n for n in laying if n not in joined))
    theirs = place.garrison + strength(state, defenders(state, place.id), place)
    return everyone, strength(state, everyone, place), theirs


def siege_words(state: GameState, laying: Sequence[str], place: Place) -> str:
    """The words of an accepted siege (SIEGE.strength): "Percy and Neville lay siege to
    Bristol, 250 against its garrison of 200"."""
    verb = "lays" if len(laying) == 1 else "lay"
    _, words = held(state, place)
    return f"{names(state, list(laying))} {verb} siege to {place.name}, {strength(state, laying, place)} against {words}"


# -- sealed places --------------------------------------------------------------------


def check_sealed(state: GameState, nobles: Iterable[str], to: str | None, enter: bool) -> None:
    """SIEGE.sealed: no noble leaves a besieged place he is inside (``to`` elsewhere, or
    out into the open) and none enters one. Raises ``Refusal``."""
    if not state.sieges:
        return
    for m in nobles:
        n = state.nobles[m]
        if n.inside and besieged(state, n.place) and not (enter and to == n.place):
            raise Refusal(
                ids.SIEGE_SEALED,
                f"{name(state, m)} may not leave {name(state, n.place)}: it is under siege, and no one "
                f"leaves a besieged place ({ids.SIEGE_SEALED})",
                unit=m,
                place=n.place,
            )
        if enter and besieged(state, to) and not (n.inside and n.place == to):
            raise Refusal(
                ids.SIEGE_SEALED,
                f"{name(state, m)} may not enter {name(state, to)}: it is under siege, and no one enters "
                f"a besieged place ({ids.SIEGE_SEALED})",
                unit=m,
                place=to,
            )


# -- lifting ----------------------------------------------------------------------------


def lift_events(before: GameState, events: Sequence[ev.Event]) -> tuple[list[ev.Event], list[str]]:
    """SIEGE.lift after ``events``: each siege whose besiegers have all left, or whose
    besiegers' strength fell below the garrison plus the nobles inside, ends at once.
    The ``SiegeEnded`` events, and the places."""
    if not before.sieges:
        return [], []
    settled = {e.place for e in events if isinstance(e, (ev.SiegeEnded, ev.SiegeDrawn))}
    after = replay(before, events)
    out: list[ev.Event] = []
    places: list[str] = []
    for place in before.sieges:
        if place in settled:
            continue
        siege = after.sieges.get(place)
        if siege is not None:
            p = after.board.places[place]
            left = besiegers(after, siege)
            if left and strength(after, left, p) >= held(after, p)[0]:
                continue
        out.append(ev.SiegeEnded(place, "lift"))
        places.append(place)
    return out, places


def with_lifts(state: GameState, d: Decision) -> Decision:
    """``d`` with the sieges its events lift (SIEGE.lift), in a game with sieges."""
    if not state.sieges or not d.accepted or not d.events:
        return d
    lifted, places = lift_events(state, d.events)
    if not lifted:
        return d
    text = d.explanation + "; " + ", ".join(f"the siege of {name(state, p)} is lifted" for p in places)
    return replace(d, explanation=f"{text} ({ids.SIEGE_LIFT})", events=d.events + tuple(lifted))


# -- the draw ------------------------------------------------------------------------


def decide_siege_assault(state: GameState, cmd: SiegeAssault) -> Decision:
    """The GM draws for a siege (SIEGE.resolve): Bad Weather, it continues; any other
    card, its named nobles die (SIEGE.deaths), then the place falls if the surviving
    besiegers still match the garrison and the surviving nobles inside (SIEGE.fall),
    else the siege lifts (3.13.6). A later round's draw is the besiegers' combat order
    for that round (SIEGE.continue, ALLY.5)."""
    siege = state.sieges.get(cmd.place)
    if siege is None:
        raise invalid(f"there is no siege at {name(state, cmd.place)}", place=cmd.place)
    place = state.board.places[siege.place]
    if siege.last_draw_round == state.round:
        raise Refusal(
            ids.SIEGE_CONTINUE,
            f"the siege of {place.name} has had its draw this round; it is drawn again in {siege.by}'s "
            f"next combat phase ({ids.SIEGE_CONTINUE})",
            place=place.id,
        )
    laid_now = (siege.round, siege.turn) == (state.round, state.turn)
    if not laid_now and state.turn != siege.by:
        raise Refusal(
            ids.SIEGE_CONTINUE,
            f"the siege of {place.name} is drawn in {siege.by}'s combat phase, not {state.turn}'s "
            f"({ids.SIEGE_CONTINUE})",
            place=place.id,
        )
    laying = besiegers(state, siege)
    orders: list[ev.Event] = []
    if state.round != siege.round:  # F10: the draw is the besiegers' combat order this round
        for b in laying:
            o = prior_order(state, b, siege.by, COMBAT)
            if o is not None:
                raise Refusal(
                    ids.ALLY_5,
                    f"the siege of {place.name} may not be drawn this round: {name(state, b)} has already had "
                    f"a combat order this round, and the draw would be another ({ids.ALLY_5})",
                    unit=b,
                    place=place.id,
                )
        orders = [ev.OrderGiven(b, COMBAT, state.turn, siege.by) for b in laying]
    card, drawn = combat_draw(state)
    chain = Chain(state)
    chain.add(drawn)
    chain.add(orders)
    half = card.battle
    assert half is not None
    what = f"the card for the siege of {place.name} ({card.name}"
    if half.odds is None:
        chain.add([ev.SiegeDrawn(place.id, card.id, "continues")])
        text = f"{what}) is Bad Weather: the siege goes on ({ids.SIEGE_RESOLVE})"
        return _accepted(
            ids.SIEGE_RESOLVE, text, chain, place.id, SiegeReport(outcome="continues", card=card.id)
        )
    inside = defenders(state, place.id)
    dead = named_dead(state, half, laying, place) + named_dead(state, half, inside, place)
    kill(chain, dead, "siege")
    in_siege = heirs_with(state, (*laying, *inside)) + [
        h.id for h in state.heirs.values() if h.with_noble is None and h.place == place.id and h.inside
    ]
    lost = survival(chain, in_siege, "siege")
    s = chain.state
    left = besiegers(s, siege)
    survivors = tuple(d for d in inside if d in s.nobles)
    mine = strength(s, left, place)
    theirs, words = held(s, place, survivors)
    deaths = f"; {names(state, dead)} {'dies' if len(dead) == 1 else 'die'}" if dead else ""
    if lost:
        verb = "does" if len(lost) == 1 else "do"
        deaths += (
            f"; {names(state, lost)} {verb} not survive the siege ({SURVIVAL_OPTION}, {ids.SIEGE_DEATHS})"
        )
    if not left or mine < theirs:
        chain.add([ev.SiegeDrawn(place.id, card.id, "lifted", tuple(dead))])
        text = (
            f"{what}, {half.odds.value}) is drawn{deaths}: the besiegers' {mine} no longer match {words}, "
            f"and the siege is lifted ({ids.SIEGE_LIFT})"
        )
        report = SiegeReport(outcome="lifted", card=card.id, killed=tuple(dead), captured=())
        return _accepted(ids.SIEGE_LIFT, text, chain, place.id, report)
    own = [b for b in left if s.nobles[b].faction == siege.by]
    keeper = strongest(s, own or left, place)
    heirs_inside = [
        h.id for h in s.heirs.values() if h.with_noble is None and h.place == place.id and h.inside
    ]
    escorted = [h.id for h in s.heirs.values() if h.with_noble in survivors]
    if keeper is not None:
        chain.add(ev.HeirMoved(h, keeper) for h in heirs_inside)
    take(chain, survivors, siege.by, place.id, keeper)
    heirs_inside += escorted
    if place.kind.controllable:
        chain.add([ev.ControlSet(place.id, siege.by)])
    chain.add([ev.SiegeDrawn(place.id, card.id, "fallen", tuple(dead), survivors)])
    taken = (
        f"; {names(state, list(survivors))} {'is' if len(survivors) == 1 else 'are'} captured"
        if survivors
        else ""
    )
    heirs = (
        f"; {names(state, heirs_inside)} {'goes' if len(heirs_inside) == 1 else 'go'} to {name(state, keeper)}"
        if heirs_inside and keeper
        else ""
    )
    held_by = f"; {faction_name(siege.by)} now holds {place.name}" if place.kind.controllable else ""
    text = (
        f"{what}, {half.odds.value}) takes it{deaths}: the besiegers' {mine} against {words}{taken}{heirs}"
        f"{held_by} ({ids.SIEGE_FALL})"
    )
    report = SiegeReport(outcome="fallen", card=card.id, killed=tuple(dead), captured=survivors)
    return _accepted(ids.SIEGE_FALL, text, chain, place.id, report)


def _accepted(rule: str, text: str, chain: Chain, place: str, report: SiegeReport) -> Decision:
    return Decision(
        Result.ACCEPTED,
        rule,
        text[0].upper() + text[1:],
        tuple(chain.events),
        place=place,
        report=Report(siege=report),
    )


__all__ = [
    "begin_siege",
    "besieged",
    "besiegers",
    "check_sealed",
    "decide_siege_assault",
    "defenders",
    "held",
    "lift_events",
    "noble_besieged",
    "with_lifts",
]
