"""Figures of an event deck: what ``kingmaker data show`` prints and the data docs quote.

>>> from kingmaker.data import load_dataset
>>> f = deck_figures(load_dataset().catalog)
>>> f.cards, f.battle_cards, f.bad_weather
(72, 68, 10)
>>> f.decisive_at(Odds.TWO_TO_ONE), f.percent(f.decisive_at(Odds.TWO_TO_ONE), f.battle_cards)
(39, 57)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from kingmaker.rules.cards import Catalog, Embassy, EventKind, Mercenaries, Odds, Plague, Storm, Summons


@dataclass(frozen=True, slots=True)
class DeckFigures:
    """Counts over the cards of a deck (every count is of cards, unless it says names)."""

    cards: int
    by_event: dict[EventKind, int]  # every kind, `none` also for cards with no event section
    both_halves: int
    event_only: int
    battle_only: int
    battle_cards: int  # cards with a battle half
    bad_weather: int
    by_odds: dict[Odds, int]  # every category
    named: dict[str, int]  # noble id -> death lists naming him (every noble of the catalog)
    plague_places: dict[str, int]
    storm_seas: dict[str, int]
    summonses: dict[str, int]  # the noble (target) or the award (holder) named -> cards
    embassies: dict[tuple[str, str], int]  # (king, place) -> cards
    mercenaries: dict[str, int]

    def decisive_at(self, ratio: Odds) -> int:
        """How many cards decide a battle of category ``ratio`` (odds at most ``ratio``)."""
        return sum(n for odds, n in self.by_odds.items() if odds.rank <= ratio.rank)

    @property
    def siege_falls(self) -> int:
        """How many battle halves take a besieged place (all but Bad Weather, F9)."""
        return self.battle_cards - self.bad_weather

    @staticmethod
    def percent(part: int, whole: int) -> int:
        """``part`` of ``whole`` in whole percent, rounded half up (0 when ``whole`` is 0).

        >>> DeckFigures.percent(39, 68), DeckFigures.percent(1, 8)
        (57, 13)
        """
        return (200 * part + whole) // (2 * whole) if whole else 0


def deck_figures(catalog: Catalog) -> DeckFigures:
    """The figures of ``catalog``'s event deck."""
    cards = list(catalog.events.values())
    battles = [c.battle for c in cards if c.battle is not None]
    by_event = Counter(c.event_kind for c in cards)
    odds = Counter(b.odds for b in battles if b.odds is not None)
    named = Counter({n: 0 for n in catalog.nobles})
    named.update(n for b in battles for n in b.deaths)
    plague, storm, summons, mercs = Counter[str](), Counter[str](), Counter[str](), Counter[str]()
    embassies = Counter[tuple[str, str]]()
    for c in cards:
        ev = c.event
        if isinstance(ev, Plague):
            plague.update(ev.places)
        elif isinstance(ev, Storm):
            storm.update(ev.seas)
        elif isinstance(ev, Summons):
            summons[ev.target or ev.holder or ""] += 1
        elif isinstance(ev, Embassy):
            embassies[(ev.king.value, ev.place)] += 1
        elif isinstance(ev, Mercenaries):
            mercs.update(ev.cards)
    with_event = sum(1 for c in cards if c.event is not None and c.event_kind is not EventKind.NONE)
    both = sum(1 for c in cards if c.event is not None and c.event_kind is not EventKind.NONE and c.battle)
    return DeckFigures(
        cards=len(cards),
        by_event={k: by_event[k] for k in EventKind},
        both_halves=both,
        event_only=with_event - both,
        battle_only=sum(1 for c in cards if c.battle is not None) - both,
        battle_cards=len(battles),
        bad_weather=sum(1 for b in battles if b.bad_weather),
        by_odds={o: odds[o] for o in Odds},
        named=dict(named),
        plague_places=dict(plague),
        storm_seas=dict(storm),
        summonses=dict(summons),
        embassies=dict(embassies),
        mercenaries=dict(mercs),
    )
