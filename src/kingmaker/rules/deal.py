"""The start of a game: shuffle the crown deck, deal it, place everything on the board.

Pure and reproducible: the shuffle draws from ``sha256(f"{seed}:deal:{k}")``
(``chance.raw_value`` on the seed string ``f"{seed}:deal"``), a stream of its own, so the
game's recorded random source starts at counter 0. ``creation`` gives the shuffles it
made with the state; ``verify-draws`` calls it to re-derive the deal from the revealed
seed.

The rules of the deal, in order:

1. **Deck.** Every noble card, every crown item (each copy of a card with ``copies``) and
   every ship card of the catalog, in catalog order, without the cards of
   ``catalog.removed`` and ``removed``.
2. **Shuffle.** Fisher-Yates: for ``i`` from the last index down to 1, swap card ``i``
   with card ``v mod (i + 1)``, ``v`` the next value of the deal stream.
3. **Deal.** Cards go round the factions in turn order, one at a time from the top,
   until each faction holds ``cards_per_faction`` cards.
4. **A noble each (re-deal).** If a faction holds no noble, the whole deck is shuffled
   again (the stream goes on) and dealt again, until every faction holds a noble. Every
   faction thus always holds the same number of cards.
5. **Assignment (WotR: every item that can be assigned must be).** Each faction's items
   go to its own nobles, titles first, then offices, sees, mercenaries, towns, others,
   each kind in the order dealt. A title goes to a noble without a title (a pre-printed
   title counts); an office to a titled noble without an office; anything else to any
   noble. Among the eligible nobles the one with the most troops (his card's) is chosen,
   ties by id. A title, office or see no noble may hold goes to the Chancery, any other
   card to the Crown discard (DEAL.setup: "every dealt card that can legally be assigned
   must be assigned"; since step 4 gives every faction a noble, and a noble may hold any
   number of sees, mercenaries and towns, only titles and offices are ever left over).
6. **Placing.** A dealt noble starts inside the first of his castles with room for his
   troop potential (ruling R9: his troops and all his items' troops, regional ones
   included), so that no location starts over its capacity (LOC.capacity); if none has
   room, he starts in the open at his first castle. His castles are controlled by his
   faction, and so is every place a held item names (a town card's town, an office's
   castle). Ships are the faction's, in port at their home port. Heirs stand
   inside their start places, unescorted; those in ``crowned`` are crowned. Cards not
   dealt are not in play.

>>> from .board import Board, Place, PlaceKind
>>> from .cards import Catalog, NobleCard
>>> from .frozen import FrozenDict
>>> board = Board("t", FrozenDict({"keep": Place("keep", "Keep", PlaceKind.CASTLE, 300, 100)}))
>>> cat = Catalog(nobles=FrozenDict({"percy": NobleCard("percy", "Percy", 100, castles=("keep",))}))
>>> g = new_game(board, cat, ["red"], "s", cards_per_faction=1)
>>> g.nobles["percy"].place, g.control["keep"]
('keep', 'red')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .board import Board
from .cards import AwardKind, Catalog
from .chance import raw_value
from .frozen import FrozenDict
from .state import GameState, Heir, Noble, RandomSource, Ship

DEFAULT_CARDS_PER_FACTION = 7
MAX_DEALS = 1000  # re-deals tried before giving up (step 4)
ASSIGN_ORDER = (
    AwardKind.TITLE,
    AwardKind.OFFICE,
    AwardKind.SEE,
    AwardKind.MERCENARY,
    AwardKind.TOWN,
    AwardKind.OTHER,
)
TO_CHANCERY = frozenset({AwardKind.TITLE, AwardKind.OFFICE, AwardKind.SEE})


@dataclass(frozen=True, slots=True)
class Shuffle:
    """One shuffle made at creation (steps 2 and 4, and the full game's first shuffle of
    the event deck): its deck ("crown" or "event"), the pick of each swap in order
    (``v mod (i + 1)`` for ``i`` from the last index down to 1) and the order it gave
    (top first). ``verify-draws`` re-derives these from the revealed seed."""

    deck: str
    picks: tuple[int, ...]
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Deal:
    """The dealt hands (by faction, in the order dealt), the undealt stock (top first)
    and how many shuffles it took (1 when no re-deal was needed); ``made``: each of
    those shuffles."""

    hands: FrozenDict[str, tuple[str, ...]]
    stock: tuple[str, ...]
    shuffles: int
    made: tuple[Shuffle, ...] = ()


def deal_seed(seed: str) -> str:
    """The seed string of the deal's own random stream.

    >>> deal_seed("england-1455")
    'england-1455:deal'
    """
    return f"{seed}:deal"


def crown_deck(catalog: Catalog, removed: Iterable[str] = ()) -> tuple[str, ...]:
    """Every card of the crown deck before the shuffle (step 1)."""
    out_of_play = set(catalog.removed) | set(removed)
    cards = [n for n in catalog.nobles if n not in out_of_play]
    for award in catalog.awards.values():
        if award.id not in out_of_play:
            cards.extend([award.id] * award.copies)
    cards.extend(s for s in catalog.ships if s not in out_of_play)
    return tuple(cards)


def shuffled(
    cards: Sequence[str], seed: str, counter: int = 0, picks: list[int] | None = None
) -> tuple[tuple[str, ...], int]:
    """``cards`` shuffled by Fisher-Yates from the stream ``seed`` starting at ``counter``;
    returns the order and the next counter (each swap's pick is appended to ``picks``).

    >>> shuffled(["a", "b", "c"], "x")[1]
    2
    """
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = raw_value(seed, counter) % (i + 1)
        counter += 1
        if picks is not None:
            picks.append(j)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck), counter


def deal_hands(
    catalog: Catalog,
    factions: Sequence[str],
    seed: str,
    cards_per_faction: int = DEFAULT_CARDS_PER_FACTION,
    removed: Iterable[str] = (),
) -> Deal:
    """Shuffle and deal (steps 1-4). Raises ``ValueError`` if the deck cannot serve."""
    deck = crown_deck(catalog, removed)
    _check_deal(catalog, factions, deck, cards_per_faction)
    stream, counter = deal_seed(seed), 0
    n = len(factions)
    made: list[Shuffle] = []
    for attempt in range(1, MAX_DEALS + 1):
        picks: list[int] = []
        order, counter = shuffled(deck, stream, counter, picks)
        made.append(Shuffle("crown", tuple(picks), order))
        hands = {f: order[i : n * cards_per_faction : n] for i, f in enumerate(factions)}
        if all(any(c in catalog.nobles for c in hand) for hand in hands.values()):
            return Deal(FrozenDict(hands), order[n * cards_per_faction :], attempt, tuple(made))
    raise ValueError(
        f"no deal in {MAX_DEALS} shuffles gave every faction a noble; deal more cards per faction"
    )


def _check_deal(catalog: Catalog, factions: Sequence[str], deck: Sequence[str], per: int) -> None:
    if not factions:
        raise ValueError("a game needs at least one faction")
    if len(set(factions)) != len(factions):
        raise ValueError(f"factions must be distinct: {list(factions)}")
    if per < 1:
        raise ValueError("each faction must be dealt at least one card")
    if len(factions) * per > len(deck):
        raise ValueError(
            f"{len(factions)} factions x {per} cards need {len(factions) * per} cards;"
            f" the deck holds {len(deck)}"
        )
    if sum(1 for c in deck if c in catalog.nobles) < len(factions):
        raise ValueError("the deck holds fewer nobles than there are factions")


@dataclass(frozen=True, slots=True)
class Assignment:
    """Step 5 for one hand (DEAL.setup): the items each noble holds, those left for the
    Chancery (titles, offices, sees) and those for the Crown discard (anything else)."""

    held: dict[str, list[str]]
    chancery: list[str]
    discard: list[str]


def assign_items(catalog: Catalog, hand: Sequence[str]) -> tuple[dict[str, list[str]], list[str]]:
    """Step 5 for one hand: the items each noble holds, and those left for the Chancery
    (``assignment`` also gives the Crown discard's, which a hand with a noble never has)."""
    a = assignment(catalog, hand)
    return a.held, a.chancery


def assignment(catalog: Catalog, hand: Sequence[str]) -> Assignment:
    """Step 5 for one hand, with the cards no noble may hold split between the Chancery
    and the Crown discard (DEAL.setup)."""
    nobles = sorted((c for c in hand if c in catalog.nobles), key=lambda n: (-catalog.nobles[n].troops, n))
    held: dict[str, list[str]] = {n: [] for n in nobles}
    titled = {n for n in nobles if catalog.nobles[n].title is not None}
    officers: set[str] = set()
    chancery: list[str] = []
    discard: list[str] = []
    for kind in ASSIGN_ORDER:
        for item in (c for c in hand if c in catalog.awards and catalog.awards[c].kind is kind):
            if kind is AwardKind.TITLE:
                eligible = [n for n in nobles if n not in titled]
            elif kind is AwardKind.OFFICE:
                eligible = [n for n in nobles if n in titled and n not in officers]
            else:
                eligible = list(nobles)
            if not eligible:
                (chancery if kind in TO_CHANCERY else discard).append(item)
                continue
            chosen = eligible[0]
            held[chosen].append(item)
            if kind is AwardKind.TITLE:
                titled.add(chosen)
            elif kind is AwardKind.OFFICE:
                officers.add(chosen)
    return Assignment(held, chancery, discard)


def _start(
    board: Board,
    catalog: Catalog,
    castles: Sequence[str],
    nid: str,
    items: Sequence[str],
    inside_troops: dict[str, int],
) -> tuple[str | None, bool]:
    """Where a dealt noble starts (step 6); records the troops he adds inside."""
    if not castles:
        return None, False
    troops = catalog.nobles[nid].troops + sum(catalog.award(a).potential for a in items)
    for castle in castles:
        place = board.places.get(castle)
        capacity = place.capacity if place is not None else None
        if capacity is None or inside_troops.get(castle, 0) + troops <= capacity:
            inside_troops[castle] = inside_troops.get(castle, 0) + troops
            return castle, True
    return castles[0], False


def new_game(
    board: Board,
    catalog: Catalog,
    factions: Sequence[str],
    seed: str,
    cards_per_faction: int = DEFAULT_CARDS_PER_FACTION,
    removed: Iterable[str] = (),
    crowned: Iterable[str] = ("henry_vi",),
    *,
    full_game: bool = False,
    options: dict[str, str] | None = None,
) -> GameState:
    """The state at the start of a game: the deal made, items assigned, units placed.

    ``removed`` adds to ``catalog.removed``; ``crowned`` names the heirs crowned at the
    start. With ``full_game`` the game plays the whole of FULL_GAME: its phases (the
    first turn begins with its event phase), the event deck shuffled from a stream of
    its own (``f"{seed}:events"``, so the recorded source still starts at 0), the Crown
    cards not dealt as the Crown deck, and ``options`` (FULL_GAME §1). The same
    arguments always give the same state. Raises ``ValueError`` when the deck cannot be
    dealt or a dealt ship has no home port.
    """
    return creation(
        board,
        catalog,
        factions,
        seed,
        cards_per_faction,
        removed,
        crowned,
        full_game=full_game,
        options=options,
    ).state


@dataclass(frozen=True, slots=True)
class Creation:
    """A game's start (``new_game``) and the shuffles that made it, in the order made:
    the Crown deck's (one per deal, step 4), then the event deck's (full game only)."""

    state: GameState
    shuffles: tuple[Shuffle, ...]


def creation(
    board: Board,
    catalog: Catalog,
    factions: Sequence[str],
    seed: str,
    cards_per_faction: int = DEFAULT_CARDS_PER_FACTION,
    removed: Iterable[str] = (),
    crowned: Iterable[str] = ("henry_vi",),
    *,
    full_game: bool = False,
    options: dict[str, str] | None = None,
) -> Creation:
    """``new_game``, with the shuffles it made: the one function that deals a game, so
    that ``verify-draws`` re-derives the deal exactly as the game was created."""
    deal = deal_hands(catalog, factions, seed, cards_per_faction, removed)
    nobles: dict[str, Noble] = {}
    ships: dict[str, Ship] = {}
    control: dict[str, str] = {}
    chancery: list[str] = []
    discard: list[str] = []
    inside_troops: dict[str, int] = {}  # troops already inside each castle

    def take(place: str, faction: str) -> None:
        p = board.places.get(place)
        if p is not None and p.kind.controllable:
            control.setdefault(place, faction)

    for faction in factions:
        hand = deal.hands[faction]
        dealt = assignment(catalog, hand)
        held = dealt.held
        chancery.extend(dealt.chancery)
        discard.extend(dealt.discard)
        for nid in (c for c in hand if c in catalog.nobles):
            card = catalog.nobles[nid]
            place, inside = _start(board, catalog, card.castles, nid, held[nid], inside_troops)
            nobles[nid] = Noble(nid, faction, card.troops, tuple(held[nid]), place, inside)
            for castle in card.castles:
                take(castle, faction)
            for item in held[nid]:
                for place in catalog.awards[item].places:
                    take(place, faction)
        for sid in (c for c in hand if c in catalog.ships):
            ship = catalog.ships[sid]
            if ship.home_port is None:
                raise ValueError(f"ship {sid!r} has no home port to start in")
            ships[sid] = Ship(sid, faction, ship.capacity, ship.home_port, in_port=True)
    crowned_ids = set(crowned)
    heirs = {
        h.id: Heir(h.id, h.house, h.order, h.id in crowned_ids, None, h.start, h.start is not None)
        for h in catalog.heirs.values()
        if h.noble is None
    }
    # An heir who is a noble card (Beaufort) is in play when his noble is, and goes where he goes.
    for h in catalog.heirs.values():
        if h.noble is not None and h.noble in nobles:
            heirs[h.id] = Heir(h.id, h.house, h.order, h.id in crowned_ids, h.noble, None, False)
    state = GameState(
        board=board,
        catalog=catalog,
        turn_order=tuple(factions),
        control=FrozenDict(control),
        nobles=FrozenDict(nobles),
        ships=FrozenDict(ships),
        heirs=FrozenDict(heirs),
        chancery=tuple(chancery),
        rng=RandomSource(seed=seed),
        crown_discard=tuple(discard),  # always empty: every faction is dealt a noble (step 4)
    )
    if not full_game:
        return Creation(state, deal.made)
    picks: list[int] = []
    events, _ = shuffled(sorted(catalog.events), event_seed(seed), 0, picks)
    state = state.evolve(
        phase="event", event_deck=events, crown_deck=deal.stock, options=FrozenDict(options or {})
    )
    return Creation(state, (*deal.made, Shuffle("event", tuple(picks), events)))


def event_seed(seed: str) -> str:
    """The seed string of the event deck's first shuffle.

    >>> event_seed("england-1455")
    'england-1455:events'
    """
    return f"{seed}:events"
