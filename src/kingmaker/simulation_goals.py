"""What the players with aims (``simulation_aims``) read in a state: the heirs a faction
could crown and the cathedral it takes one to, the clergy it lacks, the nobles it means
to take or kill, the place it gathers its nobles at and why, and the cards a noble had
better not hold. Pure functions of the state (no randomness); every step they lead to
is still judged by ``decide``.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import NamedTuple

from .rules import commands as c
from .rules import ids, kings
from .rules.board import PlaceKind
from .rules.cards import AwardKind, archbishopric
from .rules.decision import Refusal
from .rules.fighting import force, strength
from .rules.parliament import seats, summons_rule
from .rules.potential import held_inside, potential
from .rules.sieges import besieged, held, noble_besieged
from .rules.state import GameState, Heir, Noble
from .rules.status import judge, status
from .rules.units import owner
from .simulation import decided
from .simulation_full import distances_to

FAR = 10**6
#: After this round a faction crowns its heir even while another house's King reigns in
#: England, and gives up an heir stranded abroad.
LATE = 60
#: Parliament's seats (PARL.seat): the kinds of place it may sit in.
SEAT_KINDS = (PlaceKind.CITY, PlaceKind.TOWN)
#: A place that must be besieged before a coronation counts as this many links further.
SIEGE_COST = 8


class Objective(NamedTuple):
    """Where a faction gathers its nobles (``place``), ``why`` ("crown", "seat",
    "capture" or "attack") and ``whom`` (an heir or a noble; "" for a seat)."""

    place: str
    why: str
    whom: str


def takes(state: GameState, cmd: c.Command) -> bool:
    """Whether ``decide`` takes ``cmd`` (accepted, or waiting for answers)."""
    return not decided(state, cmd).refused


#: Where an unescorted heir inside a place may be taken (CAPTURE.heir); anywhere else
#: inside, only the place's fall takes him (CAPTURE.fortified).
_TAKEN_INSIDE = (ids.UNFORTIFIED, ids.OPEN, ids.FRIENDLY)


def fortified_against(state: GameState, heir: Heir, faction: str) -> bool:
    """Whether ``heir``, unescorted, is inside a place whose status for ``faction``
    makes ``decide`` refuse any noble of it taking him (CAPTURE.fortified): a refusal
    known without asking."""
    if heir.with_noble is not None or not heir.inside or heir.place is None:
        return False
    return status(state, state.board.places[heir.place], faction) not in _TAKEN_INSIDE


def shut_to(state: GameState, unit: str) -> bool:
    """Whether ``decide`` refuses ``unit`` (a noble or an army on land) entering the
    location where it stands because the place is closed to one of its members'
    factions (``context.judge_all``, LOC.*.enter): a refusal known without asking."""
    members = state.armies[unit].units if unit in state.armies else (unit,)
    first = state.nobles.get(members[0])
    if first is None or first.place is None:
        return False
    place = state.board.places[first.place]
    if not place.kind.is_location:
        return False
    return any(not judge(state, place, owner(state, m), ids.ENTER).ok for m in members)


def may_summon(state: GameState, faction: str) -> bool:
    """Whether ``faction`` may summon Parliament now as far as who may (PARL.summon.*,
    ``parliament.summons_rule``): if not, ``decide`` refuses its summons to any seat in
    its Parliament phase (in another phase, ``decide`` is asked)."""
    if state.phase != "parliament":
        return True
    try:
        summons_rule(state, faction)
    except Refusal:
        return False
    return True


_NOBLE_HEIRS: dict[int, tuple[object, dict[str, str]]] = {}


def noble_heirs(state: GameState) -> dict[str, str]:
    """The heirs who are nobles themselves (Beaufort), with their noble cards, in the
    catalog's order: made once per catalog."""
    cat = state.catalog
    got = _NOBLE_HEIRS.get(id(cat))
    if got is None or got[0] is not cat:
        got = _NOBLE_HEIRS[id(cat)] = (cat, {h: card.noble for h, card in cat.heirs.items() if card.noble})
    return got[1]


def free(n: Noble) -> bool:
    """On the map, on land, and no captive."""
    return n.captive_of is None and n.aboard is None and n.place is not None


def free_by_place(state: GameState, faction: str) -> dict[str | None, list[Noble]]:
    """``faction``'s ``free`` nobles by place, in the order of ``state.nobles``."""
    out: dict[str | None, list[Noble]] = {}
    for n in state.nobles.values():
        if n.faction == faction and free(n):
            out.setdefault(n.place, []).append(n)
    return out


def at_home(state: GameState, n: Noble) -> bool:
    """On land in England (not abroad, not at sea)."""
    return n.place is not None and n.aboard is None and not state.board.places[n.place].offmap


def crownable(state: GameState, faction: str) -> list[Heir]:
    """The heirs ``faction`` keeps who could be crowned (CROWN.succession): his house's
    senior heir, uncrowned, and his house with no living King."""
    return [
        h
        for h in state.heirs.values()
        if not h.crowned
        and kings.controller(state, h.id) == faction
        and kings.senior_heir(state, h.house) == h.id
        and kings.king_of(state, h.house) is None
    ]


def is_see(state: GameState, card: str) -> bool:
    award = state.catalog.awards.get(card)
    return award is not None and award.kind is AwardKind.SEE


def enough_clergy(state: GameState, awards: Iterable[str]) -> bool:
    """An archbishopric or two bishoprics among ``awards`` (CROWN.clergy)."""
    sees = [a for a in awards if is_see(state, a)]
    return any(archbishopric(state.catalog, a) for a in sees) or len(sees) >= 2


def clergy_short(state: GameState, faction: str) -> bool:
    """Whether ``faction`` keeps an heir it could crown, but its nobles and its hand
    hold not the sees to crown him (CROWN.clergy)."""
    if not crownable(state, faction):
        return False
    held_ = [
        a for n in state.nobles.values() if n.faction == faction and n.captive_of is None for a in n.awards
    ]
    return not enough_clergy(state, [*held_, *state.hands.get(faction, ())])


# -- what keeps an heir from coming home ------------------------------------------------------
_EXILES: dict[tuple[int, int], frozenset[str]] = {}


def exiles(state: GameState) -> frozenset[str]:
    """The cards whose holder an event may summon abroad (EVENT.summons to a place
    marked ``england: false``: the Lieutenant of Ireland, the Captain of Calais)."""
    key = (id(state.catalog), id(state.board))
    got = _EXILES.get(key)
    if got is None:
        out = []
        for card in state.catalog.events.values():
            holder, place = getattr(card.event, "holder", None), getattr(card.event, "place", None)
            if isinstance(holder, str) and isinstance(place, str):
                p = state.board.places.get(place)
                if p is not None and p.offmap:
                    out.append(holder)
        got = _EXILES[key] = frozenset(out)
    return got


def largest_ship(state: GameState) -> int:
    return max((s.capacity for s in state.catalog.ships.values()), default=0)


def unwise(state: GameState, noble: str, card: str) -> bool:
    """Whether ``card`` is unwise for ``noble`` when he escorts an heir (or is one,
    Beaufort): a card whose holder an event may summon abroad, or one that makes him
    too heavy for the largest ship (SHIP.capacity counts a noble's troops with every
    troop of his cards, R9): abroad, he and his heir could never come home."""
    if not any(h.with_noble == noble for h in state.heirs.values()):
        return False
    if card in exiles(state):
        return True
    award = state.catalog.awards.get(card)
    return award is not None and potential(state, noble) + award.potential > largest_ship(state)


def futility(state: GameState, mine: Iterable[Noble], guarding: Container[str | None]) -> tuple[object, ...]:
    """What of ``mine`` (a faction's free nobles in England) decides which cards of its
    hand ``decide_assign`` would give them (their cards, troops and whether they are
    shut in a besieged place) and which ``unwise`` keeps from them (whether each guards
    an heir): equal for two states, the same cards may go to the same nobles."""
    return tuple((n.id, n.awards, n.troops, noble_besieged(state, n.id), n.id in guarding) for n in mine)


def stranded(state: GameState, noble: str) -> bool:
    """Whether ``noble`` is abroad and too heavy for the largest ship to bring home."""
    n = state.nobles.get(noble)
    return (
        n is not None
        and n.place is not None
        and state.board.places[n.place].offmap
        and potential(state, noble) > largest_ship(state)
    )


def keeps_beaufort_away(state: GameState, heir: str) -> bool:
    """Whether ``heir`` is the last Lancastrian who is no noble card while Beaufort is
    ``stranded``: while he lives, Beaufort counts as no heir (3.1), and the game may
    still end without him."""
    h = state.heirs.get(heir)
    if h is None or kings.noble_heir(state, heir) or kings.others_of_house(state, h):
        return False
    beauforts = [x.id for x in state.heirs.values() if x.house == h.house and kings.noble_heir(state, x.id)]
    return any(stranded(state, state.catalog.heirs[b].noble or "") for b in beauforts)


# -- whom to take, and where to go -------------------------------------------------------------
def prey(state: GameState, faction: str) -> list[Noble]:
    """The nobles ``faction`` means to take or kill: the escorts of heirs that factions
    not allied with it keep, and, while it lacks the clergy for its own heir, the holders
    of sees (a captive's sees are the captor's spoils: BATTLE.spoils)."""
    out: dict[str, Noble] = {}
    for h in state.heirs.values():
        ctl = kings.controller(state, h.id)
        if ctl is not None and not state.friends(faction, ctl) and h.with_noble is not None:
            out[h.with_noble] = state.nobles[h.with_noble]
    if clergy_short(state, faction):
        for n in state.nobles.values():
            if n.faction is None or state.friends(faction, n.faction):
                continue
            if any(is_see(state, a) for a in n.awards):
                out.setdefault(n.id, n)
    return [n for n in out.values() if free(n)]


def coronation_target(state: GameState, faction: str) -> tuple[Heir, str] | None:
    """The heir ``faction`` means to crown and the cathedral it takes him to: the one
    he is inside, else the nearest it may go inside (under its own or an ally's
    control, or an unfortified town; a place it must besiege counts ``SIEGE_COST`` links
    further) and that has room for him (LOC.capacity). None while another house's King
    reigns in England and a faction keeps him (a second King would only keep Parliament
    from sitting: PARL.summon.king), until round ``LATE``."""
    for h in crownable(state, faction):
        escort = state.nobles.get(h.with_noble or "")
        if escort is None or not at_home(state, escort):
            continue
        rival = [k for k in kings.crowned(state) if k != h.id]
        kept = bool(rival) and kings.controller(state, rival[0]) is not None
        if kept and state.round <= LATE and kings.in_england(state, rival[0]):
            continue
        here = state.board.places[escort.place or ""]
        if escort.inside and here.cathedral:
            return h, here.id
        near = distances_to(state, here.id)
        weight = potential(state, escort.id)
        best, cost = None, FAR
        for p in state.board.places.values():
            if not p.cathedral or p.id not in near:
                continue
            if p.capacity is not None and weight + held_inside(state, p.id) > p.capacity:
                continue
            walls = p.kind not in (PlaceKind.UNFORTIFIED_TOWN, PlaceKind.OPEN_TOWN)
            open_ = not walls or state.friends(faction, state.control.get(p.id))
            hostile = any(
                not state.friends(faction, state.nobles[n].faction)
                for n in state.inside_by_place.get(p.id, ())
            )
            d = near[p.id] + (0 if open_ and not hostile else SIEGE_COST)
            if not open_ and besieged(state, p.id):
                d += 20  # another's siege there: a poor choice
            if d < cost:
                best, cost = p.id, d
        if best is not None:
            return h, best
    return None


def nearest(state: GameState, mine: list[Noble], places: Iterable[str]) -> str | None:
    """Of ``places``, the one fewest links from any of ``mine``."""
    best, cost = None, FAR
    for p in sorted(places):
        near = distances_to(state, p)
        d = min(near.get(n.place or "", FAR) for n in mine)
        if d < cost:
            best, cost = p, d
    return best


def objective(state: GameState, f: str, plan: tuple[Heir, str] | None) -> Objective | None:
    """Where ``f`` gathers its nobles: the cathedral it must besiege to crown its heir
    (``plan``, from ``coronation_target``); a city or town for Parliament when it keeps
    the sole King and has no seat (PARL.seat); else the nearest heir held by no one
    (capture), or noble of its ``prey`` (attack, or a siege if he is inside), that all its
    strength could take: the sole King's escort first, then a King's or a holder of the
    sees it lacks, then the other heirs' escorts."""
    if plan is not None:
        heir, goal = plan
        escort = state.nobles[heir.with_noble or ""]
        if escort.place == goal and not escort.inside:
            return Objective(goal, "crown", heir.id)
    mine = [n for n in state.nobles.values() if n.faction == f and free(n)]
    if not mine:
        return None
    might = sum(potential(state, n.id) for n in mine)
    king = kings.sole_king(state)
    if king is not None and kings.controller(state, king) == f and not seats(state, f):
        towns = [
            p.id
            for p in state.board.places.values()
            if p.kind in SEAT_KINDS
            and not p.offmap
            and not state.friends(f, state.control.get(p.id))
            and held(state, p)[0] <= might
        ]
        seat = nearest(state, mine, towns)
        if seat is not None:
            return Objective(seat, "seat", "")
    wanted: list[tuple[int, Objective]] = []
    for h in state.heirs.values():
        if h.with_noble is not None or h.place is None or state.board.places[h.place].offmap:
            continue
        p = state.board.places[h.place]
        if (held(state, p)[0] if h.inside and p.kind.is_location else 0) <= might:
            wanted.append((0 if h.crowned else 2, Objective(h.place, "capture", h.id)))
    kept = {h.with_noble: h for h in state.heirs.values() if h.with_noble}
    for n in prey(state, f):
        p = state.board.places[n.place or ""]
        if p.offmap:
            continue
        need = held(state, p)[0] if n.inside else strength(state, force(state, n.id), p) + 1
        if need > might:
            continue
        escorted = kept.get(n.id)  # none: a holder of the sees it lacks, as urgent as a King
        rank = 1 if escorted is None else 0 if escorted.id == king else 1 if escorted.crowned else 2
        wanted.append((rank, Objective(p.id, "attack", n.id)))
    if not wanted:
        return None
    top = min(rank for rank, _ in wanted)
    first = [o for rank, o in wanted if rank == top]
    place = nearest(state, mine, {o.place for o in first})
    return next((o for o in first if o.place == place), None)


def inside(state: GameState, goal: Objective) -> bool:
    """Whether the heir or noble an objective is after is inside a location."""
    n = state.nobles.get(goal.whom)
    if n is not None:
        return n.inside
    return goal.whom in state.heirs and kings.heir_place(state, goal.whom)[1]
