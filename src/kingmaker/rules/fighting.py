"""What battles and sieges share: a noble's battle strength (BATTLE.strength, F4), the
odds categories (BATTLE.ratio), the whole force a unit fights with (BATTLE.sides), the
side's commanding faction, the combat draw (EVENT.combat_draw), the named deaths
(BATTLE.deaths, SIEGE.deaths), the heirs' survival draws (option ``heir_survival``,
FULL_GAME §4) and the taking of captives with their heirs and spoils (BATTLE.capture,
BATTLE.spoils, CAPTURE.noble).

Nothing here decides a command: ``battles``, ``sieges`` and ``combat`` do, with these.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import events as ev
from .apply import apply
from .armies import settle_armies
from .board import Place
from .cards import BattleHalf, Odds
from .chance import draw
from .decks import combat_draw
from .kings import noble_heir
from .remains import death, spoils_of_captive
from .seniority import choose_senior
from .state import GameState

__all__ = ["combat_draw"]  # EVENT.combat_draw, for battles and sieges (rules/decks.py)

#: The category of two equal strengths: never decisive (F5).
EVEN = "even"


class Chain:
    """Events built one after another, each judged on the state the earlier ones left."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def add(self, events: Iterable[ev.Event]) -> None:
        for e in events:
            self.state = apply(self.state, e)
            self.events.append(e)


def faction_name(faction: str | None) -> str:
    """A faction as a battle or siege report names it: ``Red``."""
    return (faction[:1].upper() + faction[1:]) if faction else "No faction"


# -- strength and odds -------------------------------------------------------------------


def battle_strength(state: GameState, noble: str, place: Place) -> int:
    """A noble's troops, his awards' troops, and the regional troops of his awards whose
    region is one of ``place``'s (F4); heirs add nothing (F3)."""
    n = state.nobles[noble]
    total = n.troops
    cards = state.catalog.awards
    for a in n.awards:
        card = cards.get(a)
        if card is not None:
            total += card.troops + sum(v for region, v in card.regional if region in place.regions)
    return total


def strength_bounds(state: GameState, noble: str) -> tuple[int, int]:
    """The least and the most ``battle_strength`` of ``noble`` anywhere: his troops and
    his awards' troops, with none and with all of their regional troops (F4); kept per
    state. Beside ``battle_strength``, whose sum it bounds."""
    memo = state.place_verdicts
    key = ("strength bounds", noble)
    got: tuple[int, int] | None = memo.get(key)
    if got is None:
        n = state.nobles[noble]
        low = high = n.troops
        cards = state.catalog.awards
        for a in n.awards:
            card = cards.get(a)
            if card is not None:
                low += card.troops + sum(min(v, 0) for _, v in card.regional)
                high += card.troops + sum(max(v, 0) for _, v in card.regional)
        got = memo[key] = (low, high)
    return got


def strength(state: GameState, nobles: Iterable[str], place: Place) -> int:
    """The sum of the nobles' battle strengths at ``place`` (BATTLE.strength)."""
    return sum(battle_strength(state, n, place) for n in nobles)


def category(a: int, b: int) -> str:
    """The odds category of the larger strength against the smaller, rounded down in
    favour of the smaller (BATTLE.ratio); ``even`` when they are equal (F5).

    >>> category(300, 150), category(299, 150), category(150, 300), category(5, 4), category(4, 4)
    ('2:1', '3:2', '2:1', '5:4', 'even')
    >>> category(6, 5), category(100, 0)
    ('majority', '4:1')
    """
    big, small = max(a, b), min(a, b)
    if big == small:
        return EVEN
    best = Odds.MAJORITY
    for odds in Odds:
        num, den = odds.ratio
        if big * den >= small * num:
            best = odds
    return best.value


def decides(cat: str, odds: Odds) -> bool:
    """Whether a card of ``odds`` decides a battle of category ``cat`` (BATTLE.decisive)."""
    return cat != EVEN and Odds(cat).rank >= odds.rank


def ratio_words(cat: str) -> str:
    return "even" if cat == EVEN else "a majority" if cat == Odds.MAJORITY.value else cat


# -- sides ----------------------------------------------------------------------------


def present(state: GameState, noble: str, place: str) -> bool:
    """Whether ``noble`` is alive, free and on land at ``place`` (inside or in the open)."""
    n = state.nobles.get(noble)
    return n is not None and n.captive_of is None and n.aboard is None and n.place == place


def force(state: GameState, unit: str) -> tuple[str, ...]:
    """The nobles that fight as one body with ``unit`` (BATTLE.sides): an army's members
    (a noble in an army fights with his army), else every noble of the unit's faction
    on the same side of the walls at its place who is in no army; the unit's own first."""
    army = state.armies.get(unit)
    if army is None and unit in state.army_of:
        army = state.armies[state.army_of[unit]]
    if army is not None:
        return army.units
    n = state.nobles[unit]
    if n.place is None:
        return (unit,)
    same = sorted(
        m.id
        for m in state.nobles.values()
        if m.id != unit
        and m.faction == n.faction
        and m.place == n.place
        and m.inside == n.inside
        and m.aboard is None
        and m.captive_of is None
        and m.id not in state.army_of
    )
    return (unit, *same)


def order_units(state: GameState, unit: str, nobles: Iterable[str]) -> tuple[str, ...]:
    """The units an order for ``unit`` that moves ``nobles`` gives orders to: ``unit``
    first, then each other noble's army, or the noble himself (for ``check_order``)."""
    out = [unit]
    for n in nobles:
        top = state.army_of.get(n, n)
        if top not in out and not (unit in state.armies and n in state.armies[unit].units):
            out.append(top)
    return tuple(out)


def commanding(state: GameState, nobles: Sequence[str]) -> tuple[str | None, list[ev.Event]]:
    """The commanding faction of a side (3.13.5): its one faction; the senior officer's
    faction of the army it is; else the senior officer chosen among its nobles (ALLY.7),
    with the random draws that choice made."""
    factions = {state.nobles[n].faction for n in nobles}
    if len(factions) == 1:
        return next(iter(factions)), []
    for army in state.armies.values():
        if set(army.units) == set(nobles) and army.senior is not None and army.senior in state.nobles:
            return state.nobles[army.senior].faction, []
    s = choose_senior(state, nobles, False, state.rng)
    draws: list[ev.Event] = [
        ev.RandomDrawn(n, pick, "senior officer of a side in battle") for n, pick in s.draws
    ]
    return (state.nobles[s.senior].faction if s.senior is not None else None), draws


def strongest(state: GameState, nobles: Iterable[str], place: Place) -> str | None:
    """The noble of the highest battle strength at ``place`` (ties: the first by id)."""
    best: tuple[int, str] | None = None
    for n in sorted(nobles):
        key = (-battle_strength(state, n, place), n)
        if best is None or key < best:
            best = key
    return best[1] if best else None


# -- deaths and captives ----------------------------------------------------------------


def named_dead(
    state: GameState, half: BattleHalf, side: Sequence[str], place: Place, *, first_only: bool = False
) -> list[str]:
    """The nobles of ``side`` the card kills (BATTLE.deaths, SIEGE.deaths): all named, in
    the card's order; with ``first_only`` (BATTLE.desperate) the first named; with the
    option ``deaths_per_side: 1`` the strongest named (ties: the first named)."""
    named = [n for n in half.deaths if n in side]
    if first_only:
        return named[:1]
    if state.option("deaths_per_side") == "1" and len(named) > 1:
        top = max(battle_strength(state, n, place) for n in named)
        return [next(n for n in named if battle_strength(state, n, place) == top)]
    return named


def kill(chain: Chain, nobles: Iterable[str], cause: str, spoils_to: str | None = None) -> None:
    """Each noble dies in turn (EXEC.remains); ``spoils_to`` takes a killed loser's
    transferable awards (F8)."""
    for n in nobles:
        chain.add(death(chain.state, n, cause, spoils_to=spoils_to))


#: The option of FULL_GAME §4: heirs in a battle or siege may die (one value each).
SURVIVAL_OPTION = "heir_survival"
#: An heir dies when his value ``v`` has ``v mod 36 = 0`` (a 2 on two dice, 1 in 36).
SURVIVAL_ODDS = 36


def heirs_with(state: GameState, nobles: Iterable[str]) -> list[str]:
    """The heirs ``nobles`` escort, Beaufort left out (he lives and dies as his noble)."""
    escorts = set(nobles)
    return [h.id for h in state.heirs.values() if h.with_noble in escorts and not noble_heir(state, h.id)]


def survival(chain: Chain, heirs: Iterable[str], cause: str) -> list[str]:
    """Option ``heir_survival`` (off by default; FULL_GAME §4, Q4): after the card's
    deaths, each heir who was in the battle or siege and still lives draws one value
    ``v`` from the recorded source, heirs sorted by id, and dies if ``v mod 36 = 0``.
    The heirs who die (none, and no draw, while the option is off)."""
    if not chain.state.option_on(SURVIVAL_OPTION):
        return []
    dead: list[str] = []
    for h in sorted(set(heirs)):
        if h not in chain.state.heirs:
            continue
        pick, _ = draw(chain.state.rng, SURVIVAL_ODDS)
        chain.add([ev.RandomDrawn(SURVIVAL_ODDS, pick, f"survival of {h} ({cause})")])
        if pick == 0:
            chain.add([ev.HeirDied(h, cause)])
            dead.append(h)
    return dead


def take(chain: Chain, nobles: Iterable[str], by: str, place: str, keeper: str | None) -> None:
    """Each noble becomes ``by``'s captive taken at ``place`` (CAPTURE.noble): the heirs
    he escorts go to ``keeper`` (else stay where he was), he leaves his army, and his
    sees and transferable awards go to ``by``'s hand (BATTLE.spoils)."""
    for n in nobles:
        s = chain.state
        if keeper is not None:
            chain.add(ev.HeirMoved(h.id, keeper) for h in s.heirs.values() if h.with_noble == n)
        before = chain.state
        taken: list[ev.Event] = [ev.NobleTaken(n, by, place)]
        chain.add(taken + settle_armies(before, taken, (n,)))
        chain.add(spoils_of_captive(chain.state, n, by))
