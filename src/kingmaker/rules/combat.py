"""Combat orders: sieges (``siege`` aspect, R16, R20), attacks, defending together, and the
bars on fighting allies (ALLY.9) and former allies (ALLY.12, R12)."""

from __future__ import annotations

from collections.abc import Sequence

from . import events as ev
from . import ids
from .battles import attack_sides
from .board import Place
from .chance import opaque_id
from .commands import Attack, Defend, Siege
from .context import finish, invalid, judge_all, land_units, missing_unit
from .decision import Decision, Refusal, Result
from .fighting import force, order_units
from .orders import check_order
from .peace import check_peace
from .sieges import begin_siege, siege_words
from .state import COMBAT, GameState
from .units import name, names
from .views import can_see_alliance, can_see_defence


def combat_id(state: GameState, named: str | None = None) -> str:
    """A new combat's id: the id its order gave (``AS b1``), else one made from the
    secret seed, not from the log's length (which would tell how many secret entries
    there are)."""
    return named or f"c-{opaque_id(state.rng.seed, 'combat', state.seq)}"


def cooling(state: GameState, a: str | None, b: str | None) -> int | None:
    """The sequence number at which a cooling-off in force between ``a`` and ``b``
    began (ALLY.12), or None. It ends when the leaver's turn in ``until_round`` begins."""
    if a is None or b is None or a == b:
        return None
    order = state.turn_order
    now = (state.round, state.turn_index)
    for c in state.cooling_off:
        if {a, b} <= {c.faction, *c.former_allies} and c.faction in (a, b):
            idx = order.index(c.faction) if c.faction in order else 0
            if now < (c.until_round, idx):
                return c.seq
    return None


def _reveal(state: GameState, groups: Sequence[Sequence[str]]) -> list[ev.Event]:
    """Ruling R7: alliances whose factions fight on the same side become public."""
    out: set[str] = set()
    for nobles in groups:
        factions = {state.nobles[n].faction for n in nobles if n in state.nobles}
        for a in state.alliances.values():
            if not a.public and len(factions & set(a.members)) >= 2:
                out.add(a.id)
    return [ev.AlliancesRevealed(tuple(sorted(out)))] if out else []


def siege_reveal(
    state: GameState, besiegers: Sequence[str], place: Place, defenders: Sequence[str]
) -> list[ev.Event]:
    """Rulings R7, R16, R20: the besiegers fight together, and with the nobles of any
    siege of the place already under way (declared, not yet resolved, its besiegers
    still in the open there); the nobles inside fight together too."""
    joined: list[str] = []
    for c in state.combats:
        if c.kind != "siege" or c.place != place.id:
            continue
        for n in c.attackers:
            noble = state.nobles.get(n)
            if noble is not None and noble.place == place.id and not noble.inside and n not in joined:
                joined.append(n)
    return _reveal(state, [(*joined, *besiegers), defenders])


def siege_checks(state: GameState, by: str, besiegers: Sequence[str], place: Place) -> tuple[str, ...]:
    """ALLY.9 and ALLY.12 for a siege; returns the nobles inside (the defenders)."""
    inside = state.inside_by_place.get(place.id, ())
    for b in besiegers:
        fb = state.nobles[b].faction
        for d in inside:
            fd = state.nobles[d].faction
            if fb is not None and fd is not None and state.allied(fb, fd):
                raise Refusal(
                    ids.ALLY_9,
                    f"{name(state, b)} may not besiege {place.name}: {name(state, d)} of an allied faction "
                    f"is inside ({ids.ALLY_9})",
                    unit=b,
                    place=place.id,
                )
    for b in besiegers:
        fb = state.nobles[b].faction
        for d in inside:
            if cooling(state, fb, state.nobles[d].faction) is not None:
                raise Refusal(
                    ids.ALLY_12,
                    f"{name(state, b)} may not besiege {place.name}: {name(state, d)} is inside, and "
                    f"their factions left an alliance less than a round ago ({ids.ALLY_12})",
                    unit=b,
                    place=place.id,
                )
    if besiegers:
        check_peace(
            state, place.id, f"{name(state, besiegers[0])} may not besiege {place.name}", besiegers[0]
        )
    return inside


def decide_siege(state: GameState, cmd: Siege, confirmed: bool = False) -> Decision:
    """A siege order: the ``siege`` aspect of the place, ALLY.9 and ALLY.12 with the
    nobles inside; in a game with phases the unit's whole force lays it, if it is at
    least as strong as the garrison and the nobles inside (SIEGE.strength)."""
    members = land_units(state, cmd.unit)
    if state.phased:
        members = force(state, cmd.unit)
    place = state.board.places.get(cmd.place)
    if place is None:
        raise invalid(f"there is no place {cmd.place!r}", unit=cmd.unit, place=cmd.place)
    for m in members:
        n = state.nobles[m]
        if n.place != place.id or n.inside:
            raise invalid(
                f"{name(state, m)} must stand in the open at {place.name} to besiege it",
                unit=m,
                place=place.id,
            )
    if not place.kind.is_location:
        raise invalid(f"there is nothing to besiege at {place.name}", unit=cmd.unit, place=place.id)
    own = {state.nobles[m].faction for m in members}
    for d in state.inside_by_place.get(place.id, ()):
        if state.nobles[d].faction in own:
            raise invalid(
                f"{name(state, d)} of the besiegers' own faction is inside {place.name}",
                unit=cmd.unit,
                place=place.id,
            )
    top = order_units(state, cmd.unit, members) if state.phased else (cmd.unit,)
    check = check_order(state, cmd.by, top, COMBAT, confirmed=confirmed)
    rule = judge_all(state, place, members, ids.SIEGE, "besiege", by=cmd.by)
    defenders = siege_checks(state, cmd.by, members, place)
    what = f"{name(state, cmd.unit)} lays siege to {place.name}"
    if state.phased:  # a siege in progress, held until the GM's draws settle it (SIEGE.*)
        effects, laying = begin_siege(state, members, place)
        effects += _reveal(state, [laying, defenders])
        what = siege_words(state, laying, place)
    else:
        effects = [
            ev.CombatDeclared("siege", cmd.by, members, place.id, None, defenders, combat_id(state, cmd.id))
        ]
        effects += siege_reveal(state, members, place, defenders)
    return finish(
        state,
        cmd.by,
        check,
        COMBAT,
        effects,
        rule=rule,
        explanation=f"{what} ({rule})",
        unit=cmd.unit,
        place=place.id,
        request=cmd.id,
    )


def _side(state: GameState, target: str) -> tuple[str, ...]:
    """The nobles an attack on ``target`` is aimed at: the noble, or his whole army."""
    army = state.armies.get(target)
    if army is not None:
        return army.units
    army_id = state.army_of.get(target)
    return state.armies[army_id].units if army_id is not None else (target,)


def decide_attack(state: GameState, cmd: Attack, confirmed: bool = False) -> Decision:
    attackers = land_units(state, cmd.unit)
    if cmd.target not in state.nobles and cmd.target not in state.armies:
        raise invalid(f"{missing_unit(state, cmd.target, 'noble or army')}: nothing to attack", unit=cmd.unit)
    aimed = _side(state, cmd.target)
    for t in aimed:
        if state.nobles[t].aboard is not None:
            raise invalid(f"{name(state, t)} is at sea", unit=cmd.unit)
    a0, t0 = state.nobles[attackers[0]], state.nobles[aimed[0]]
    if (a0.place, a0.inside) != (t0.place, t0.inside):
        where = "inside" if t0.inside else "in the open at"
        raise invalid(
            f"{name(state, cmd.target)} is not where {name(state, cmd.unit)} is; he stands {where} "
            f"{name(state, t0.place)}" + ("; lay siege to reach him" if t0.inside and not a0.inside else ""),
            unit=cmd.unit,
            place=t0.place,
        )
    own = {state.nobles[m].faction for m in attackers}
    if any(state.nobles[t].faction in own for t in aimed):
        raise invalid(f"{name(state, cmd.unit)} may not attack his own faction", unit=cmd.unit)
    top: tuple[str, ...] = (cmd.unit,)
    sally: tuple[str, ...] = ()
    if state.phased:  # whole forces fight (BATTLE.sides), with nobles sallying (SIEGE.sally)
        attackers, aimed, sally, top = attack_sides(state, cmd)
        attackers = (*attackers, *sally)
    elif cmd.sally:
        raise invalid("nobles sally only from a siege of a game with phases", unit=cmd.unit)
    check = check_order(state, cmd.by, top, COMBAT, confirmed=confirmed)
    pacts = [d for d in state.defences if d.with_ in aimed and d.unit not in aimed]
    joiners = tuple(d.unit for d in pacts)
    defenders = (*aimed, *joiners)
    # What the ordering faction may be told: a defence pact it is not party to is a
    # secret (it implies an alliance), so explanations name only the pacts it can see.
    known = {d.unit for d in pacts if can_see_defence(state, d, cmd.by)}

    def defender(d: str) -> str:
        return name(state, d) if d in aimed or d in known else "a noble defending with him"

    # The pairs the ordering faction can see allied come first, so the refusal names an
    # alliance it knows when there is one (a third faction's secret alliance is never
    # named in place of it).
    pairs = [(a, d) for a in attackers for d in defenders]
    pairs.sort(
        key=lambda p: not _sees_allied(state, state.nobles[p[0]].faction, state.nobles[p[1]].faction, cmd.by)
    )
    for a, d in pairs:
        fa, fd = state.nobles[a].faction, state.nobles[d].faction
        if fa is not None and fd is not None and state.allied(fa, fd):
            raise Refusal(
                ids.ALLY_9,
                f"{name(state, a)} may not attack {name(state, cmd.target)}: {defender(d)} "
                f"belongs to a faction allied with {fa} ({ids.ALLY_9})",
                unit=a,
            )
    for a in attackers:
        fa = state.nobles[a].faction
        for d in aimed:
            if cooling(state, fa, state.nobles[d].faction) is not None:
                raise Refusal(
                    ids.ALLY_12,
                    f"{name(state, a)} may not attack {name(state, d)}: their factions left an alliance "
                    f"less than a round ago ({ids.ALLY_12})",
                    unit=a,
                )
        for d in joiners:
            fd = state.nobles[d].faction
            since = cooling(state, fa, fd)
            if since is not None and not _new_ally(state, fd, aimed, since):
                raise Refusal(
                    ids.ALLY_12,
                    f"{name(state, a)} may not attack {name(state, cmd.target)}: {defender(d)} of a faction "
                    f"that left an alliance with {fa} less than a round ago defends with him ({ids.ALLY_12})",
                    unit=a,
                )
    check_peace(
        state, a0.place, f"{name(state, cmd.unit)} may not attack {name(state, cmd.target)}", cmd.unit
    )
    effects: list[ev.Event] = [
        ev.CombatDeclared(
            "attack", cmd.by, attackers, a0.place or "", cmd.target, defenders, combat_id(state, cmd.id)
        )
    ]
    effects += _reveal(state, [attackers, defenders])
    return finish(
        state,
        cmd.by,
        check,
        COMBAT,
        effects,
        rule=None,
        explanation=f"{name(state, cmd.unit)}{_with(state, cmd.unit, attackers, sally)} attacks "
        f"{names(state, [d for d in defenders if d in aimed or d in known])} at {name(state, a0.place)}"
        + (f", with {names(state, list(sally))} sallying from inside" if sally else ""),
        unit=cmd.unit,
        place=a0.place,
        request=cmd.id,
    )


def _with(state: GameState, unit: str, attackers: Sequence[str], sally: Sequence[str]) -> str:
    """The rest of the ordered noble's force, as " with Neville" (BATTLE.sides)."""
    rest = [a for a in attackers if a != unit and a not in sally and unit not in state.armies]
    return f" with {names(state, rest)}" if rest else ""


def _new_ally(state: GameState, joiner_faction: str | None, aimed: Sequence[str], since: int) -> bool:
    """R12: the joiner's faction formed an alliance with the target's side after it left."""
    targets = {state.nobles[t].faction for t in aimed}
    return any(
        a.formed_seq > since and joiner_faction in a.members and targets & set(a.members)
        for a in state.alliances.values()
    )


def decide_defend(state: GameState, cmd: Defend) -> Decision:
    """ALLY.12 exception: a noble chooses to fight on an allied noble's side this round."""
    n = state.nobles.get(cmd.unit)
    w = state.nobles.get(cmd.with_)
    if n is None or w is None:
        raise invalid(f"there is no noble {cmd.unit if n is None else cmd.with_!r}", unit=cmd.unit)
    if n.faction != cmd.by:
        raise Refusal(
            ids.ORDER_FOREIGN,
            f"{cmd.by} may not choose for {name(state, cmd.unit)}, who is not its noble ({ids.ORDER_FOREIGN})",
            unit=cmd.unit,
        )
    if n.aboard is not None or (n.place, n.inside) != (w.place, w.inside):
        raise invalid(f"{name(state, cmd.unit)} is not where {name(state, cmd.with_)} is", unit=cmd.unit)
    if w.faction is None or not state.allied(cmd.by, w.faction):
        raise invalid(
            f"{name(state, cmd.with_)} is not a noble of a faction allied with {cmd.by}", unit=cmd.unit
        )
    return Decision(
        Result.ACCEPTED,
        None,
        f"{name(state, cmd.unit)} will defend with {name(state, cmd.with_)} until the round ends",
        (ev.DefenceDeclared(cmd.unit, cmd.with_),),
        unit=cmd.unit,
        place=n.place,
    )


def _sees_allied(state: GameState, a: str | None, b: str | None, viewer: str) -> bool:
    """``viewer`` can see an alliance of factions ``a`` and ``b``."""
    if a is None or b is None or a == b:
        return False
    return any(
        a in al.members and b in al.members and can_see_alliance(state, al, viewer)
        for al in state.alliances.values()
    )
