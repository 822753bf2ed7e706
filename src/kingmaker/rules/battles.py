"""Battles in the open (FULL_GAME 3.3, BATTLE.*): the sides an attack engages in a game
with phases (whole forces, armies, R12 defenders, nobles sallying from a besieged
place: BATTLE.sides, SIEGE.sally), and the GM's ``battle`` step that resolves an
accepted attack with one card: strengths (BATTLE.strength, F4), the odds category
(BATTLE.ratio), Bad Weather, decisive, indecisive and desperate outcomes, the named
deaths, the heirs' survival draws (option ``heir_survival``), the captives with their
heirs and the spoils, and the relief of a siege.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import events as ev
from . import ids
from .board import Place
from .cards import EventCard
from .commands import Attack, Battle
from .context import invalid
from .decision import BattleReport, Decision, Report, Result
from .fighting import (
    SURVIVAL_OPTION,
    Chain,
    category,
    combat_draw,
    commanding,
    decides,
    faction_name,
    force,
    heirs_with,
    kill,
    named_dead,
    order_units,
    present,
    ratio_words,
    strength,
    strongest,
    survival,
    take,
)
from .state import Combat, GameState
from .units import name, names

# -- the attack's sides (format 2) ----------------------------------------------------------


def attack_sides(
    state: GameState, cmd: Attack
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """BATTLE.sides when an attack is ordered in a game with phases: the ordered unit's
    whole force, the target's whole force, the nobles sallying from a besieged place
    (SIEGE.sally, 3.13.6), and the units the order is given to (the ordered unit, the
    rest of its force, the sallying nobles). Raises ``Refusal`` for a sally that cannot be."""
    mine = force(state, cmd.unit)
    theirs = force(state, cmd.target)
    lead = state.nobles[mine[0]]
    place = lead.place or ""
    sally: list[str] = []
    if cmd.sally:
        siege = state.sieges.get(place)
        if siege is None or lead.inside:
            raise invalid(
                f"no one may sally to join {name(state, cmd.unit)}: {name(state, place)} is not under siege"
                if siege is None
                else f"{name(state, cmd.unit)} is inside {name(state, place)}; a sally joins an attack from the open",
                unit=cmd.unit,
                place=place,
            )
        if not set(theirs) & set(siege.besiegers):
            raise invalid(
                f"nobles sally from {name(state, place)} only to fight its besiegers, and "
                f"{name(state, cmd.target)} is not one of them",
                unit=cmd.unit,
                place=place,
            )
        for s in cmd.sally:
            n = state.nobles.get(s)
            if n is None or n.captive_of is not None or n.place != place or not n.inside or s in sally:
                raise invalid(
                    f"{name(state, s)} is not a noble inside {name(state, place)} who can sally",
                    unit=s,
                    place=place,
                )
            if not state.friends(cmd.by, n.faction):
                raise invalid(
                    f"{name(state, s)} may sally only with his own faction or an ally's attack",
                    unit=s,
                    place=place,
                )
            sally.append(s)
    return mine, theirs, tuple(sally), order_units(state, cmd.unit, (*mine, *sally))


# -- the battle -------------------------------------------------------------------------------


def decide_battle(state: GameState, cmd: Battle) -> Decision:
    """The GM resolves the accepted attack ``cmd.attack`` with one combat draw."""
    combat = next((c for c in state.combats if c.id == cmd.attack), None)
    if combat is None:
        raise invalid(f"there is no open attack {cmd.attack!r}")
    if combat.kind != "attack":
        raise invalid(f"{cmd.attack} is a siege: the GM draws for it with siege_assault", place=combat.place)
    place = state.board.places[combat.place]
    attackers = tuple(a for a in combat.attackers if present(state, a, place.id))
    defenders = tuple(d for d in combat.defenders if present(state, d, place.id))
    if not attackers or not defenders:
        gone = "attackers" if not attackers else "defenders"
        return Decision(
            Result.ACCEPTED,
            ids.BATTLE_SIDES,
            f"Attack {combat.id} at {place.name} has no {gone} left on the field: no battle is fought "
            f"({ids.BATTLE_SIDES})",
            (ev.CombatResolved(combat.id, "no battle"),),
            place=place.id,
        )
    card, drawn = combat_draw(state)
    chain = Chain(state)
    chain.add(drawn)
    a_by, draws = commanding(chain.state, attackers)
    chain.add(draws)
    d_by, draws = commanding(chain.state, defenders)
    chain.add(draws)
    return _fight(state, chain, combat, place, card, (attackers, a_by), (defenders, d_by))


def _fight(
    state: GameState,
    chain: Chain,
    combat: Combat,
    place: Place,
    card: EventCard,
    attacking: tuple[tuple[str, ...], str | None],
    defending: tuple[tuple[str, ...], str | None],
) -> Decision:
    (atk, a_by), (dfn, d_by) = attacking, defending
    half = card.battle
    assert half is not None
    sa, sd = strength(state, atk, place), strength(state, dfn, place)
    cat = category(sa, sd)
    A, D = faction_name(a_by), faction_name(d_by)
    opening = f"{A}'s {sa} against {D}'s {sd} is {ratio_words(cat)}"
    winners: Sequence[str] = ()
    losers: Sequence[str] = ()
    winner: str | None = None
    killed: list[str] = []
    if half.odds is None:
        outcome, rule = "bad_weather", ids.BATTLE_BAD_WEATHER
        verdict = f"the card ({card.name}) is Bad Weather: no one dies or is taken, and both sides stay"
    elif sd > 4 * sa:
        outcome, rule = "desperate", ids.BATTLE_DESPERATE
        winners, losers, winner = dfn, atk, d_by
        killed = named_dead(state, half, atk, place) + named_dead(state, half, dfn, place, first_only=True)
        opening = f"{A}'s {sa} against {D}'s {sd}: {D} is more than four times as strong"
        verdict = (
            f"the attack is desperate and the card ({card.name}, {half.odds.value}) gives it to {D}: {D} wins"
        )
    elif decides(cat, half.odds):
        outcome, rule = "decisive", ids.BATTLE_DECISIVE
        if sa > sd:
            winners, losers, winner = atk, dfn, a_by
        else:
            winners, losers, winner = dfn, atk, d_by
        killed = named_dead(state, half, atk, place) + named_dead(state, half, dfn, place)
        verdict = f"the card ({card.name}, {half.odds.value}) is decisive: {faction_name(winner)} wins"
    else:
        outcome, rule = "indecisive", ids.BATTLE_INDECISIVE
        killed = named_dead(state, half, atk, place) + named_dead(state, half, dfn, place)
        verdict = (
            f"the card ({card.name}, {half.odds.value}) is not decisive: no one wins, and both sides stay "
            "where they are"
        )
    captured = tuple(n for n in losers if n not in killed)
    chain.add(
        [
            ev.BattleFought(
                combat.id,
                place.id,
                atk,
                dfn,
                ((a_by or "", sa), (d_by or "", sd)),
                cat,
                card.id,
                half.odds.value if half.odds is not None else None,
                outcome,
                winner,
                tuple(killed),
                captured,
            )
        ]
    )
    for n in killed:
        kill(chain, [n], "battle", spoils_to=winner if n in losers else None)
    parts = [opening, verdict]
    if killed:
        parts.append(f"{names(state, killed)} {'dies' if len(killed) == 1 else 'die'}")
        orphans = [h.id for h in state.heirs.values() if h.with_noble in killed and h.id in chain.state.heirs]
        if orphans:  # CAPTURE.orphan
            verb = "is" if len(orphans) == 1 else "are"
            parts.append(f"{names(state, orphans)} {verb} left unescorted on the field")
    if outcome != "bad_weather":
        lost = survival(chain, heirs_with(state, (*atk, *dfn)), "battle")
        if lost:
            verb = "does" if len(lost) == 1 else "do"
            parts.append(
                f"{names(state, lost)} {verb} not survive the battle ({SURVIVAL_OPTION}, {ids.BATTLE_DEATHS})"
            )
    if winner is not None:
        s = chain.state
        alive = [w for w in winners if w in s.nobles]
        keeper = strongest(s, [w for w in alive if s.nobles[w].faction == winner] or alive, place)
        heirs = [h.id for h in s.heirs.values() if h.with_noble in captured]
        take(chain, captured, winner, place.id, keeper)
        if captured:
            parts.append(f"{names(state, list(captured))} {'is' if len(captured) == 1 else 'are'} captured")
        if heirs and keeper is not None:
            parts.append(
                f"{names(state, heirs)} {'passes' if len(heirs) == 1 else 'pass'} to {name(state, keeper)}"
            )
    parts += _relief(state, chain, place, atk, dfn, winner is not None and winners == atk)
    text = "; ".join(parts)
    report = BattleReport(
        strengths={a_by or "": sa, d_by or "": sd},
        ratio=cat,
        card=card.id,
        odds=half.odds.value if half.odds is not None else None,
        outcome=outcome,
        winner=winner,
        killed=tuple(killed),
        captured=captured,
    )
    return Decision(
        Result.ACCEPTED,
        rule,
        f"{text[0].upper()}{text[1:]} ({rule})",
        tuple(chain.events),
        place=place.id,
        report=Report(battle=report),
    )


def _relief(
    state: GameState, chain: Chain, place: Place, atk: Sequence[str], dfn: Sequence[str], relieved: bool
) -> list[str]:
    """SIEGE.sally, F11: a battle against the besiegers of the place that the attackers
    win decisively ends the siege; otherwise nobles who sallied are back inside (they
    never left the walls) and the siege goes on, unless SIEGE.lift ends it."""
    siege = state.sieges.get(place.id)
    if siege is None or not set(dfn) & set(siege.besiegers):
        return []
    sallied = [a for a in atk if state.nobles[a].inside]
    if relieved:
        chain.add([ev.SiegeEnded(place.id, "relieved")])
        return [f"the siege of {place.name} is raised"]
    if sallied:
        back = [a for a in sallied if a in chain.state.nobles and chain.state.nobles[a].captive_of is None]
        if back:
            return [f"{names(state, back)} {'goes' if len(back) == 1 else 'go'} back inside {place.name}"]
    return []
