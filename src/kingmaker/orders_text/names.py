"""Names as players write them: nobles (by id, name or title), ships, armies and fleets,
heirs, places, sea zones, factions, cards (awards, noble and ship cards, event cards,
as a ransom or a held card names them), and the ids of requests, alliances and combats.

Resolution is case-insensitive and ignores punctuation and a leading "the"; it tries,
in order, an exact match, a unique prefix (at least three letters: ``Tadc`` is
Tadcaster) and a unique run of whole words inside a name (``Wight`` is Newport (Isle of
Wight)). Where several things match, one that is in play wins over cards that are not;
otherwise the name is ambiguous and the candidates are given. An unknown name comes with
near misses from :mod:`difflib`. Ids (requests, alliances, combats) match exactly
(case-insensitively) only: ``q1`` never means ``q12``.

>>> normalize("The St. George's  Channel")
'st georges channel'
"""

from __future__ import annotations

import bisect
import threading
import weakref
from collections import OrderedDict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, TypeVar

from kingmaker.orders_text.name_matching import (
    SUGGEST_SPREAD,
    close_matches,
    letter_pairs,
)
from kingmaker.orders_text.name_matching import (
    did_you_mean as did_you_mean,
)
from kingmaker.orders_text.name_matching import (
    normalize as normalize,
)
from kingmaker.rules.board import Board, default_name
from kingmaker.rules.cards import AwardKind, Catalog
from kingmaker.rules.commands import GM
from kingmaker.rules.queries import Destinations
from kingmaker.rules.state import GameState

# -- kinds of named things ---------------------------------------------------------------
NOBLE: Final = "noble"
SHIP: Final = "ship"
ARMY: Final = "army"
FLEET: Final = "fleet"
HEIR: Final = "heir"
PLACE: Final = "place"
SEA: Final = "sea"
FACTION: Final = "faction"
GAME_MASTER: Final = "gm"
TITLE: Final = "title"  # a title no noble in play holds (it resolves to nothing)
CARD: Final = "card"  # a card as a hand holds it: an award, a noble or ship card, an event card
REQUEST: Final = "request"
DECLARATION: Final = "declaration"
ALLIANCE: Final = "alliance"
COMBAT: Final = "combat"

_T = TypeVar("_T")

ID_KINDS: Final = frozenset({REQUEST, DECLARATION, ALLIANCE, COMBAT})
_ID_PRIORITY: Final = (REQUEST, DECLARATION, ALLIANCE, COMBAT)  # when one id is several things

# -- what each position of an order accepts ------------------------------------------------
UNIT: Final = frozenset({NOBLE, SHIP, ARMY, FLEET})
NOBLES: Final = frozenset({NOBLE})
SHIPS: Final = frozenset({SHIP})
LAND_UNIT: Final = frozenset({NOBLE, ARMY})
TARGET: Final = frozenset({NOBLE, ARMY, FACTION})
PLACES: Final = frozenset({PLACE})
WATERS: Final = frozenset({PLACE, SEA})
SEAS: Final = frozenset({SEA})
HEIRS: Final = frozenset({HEIR})
CARDS: Final = frozenset({CARD})
CAPTIVES: Final = frozenset({NOBLE, HEIR})  # a ransom's captive, an execution's victim
RANSOM_ITEMS: Final = frozenset({CARD, HEIR})  # what a ransom gives
FACTIONS: Final = frozenset({FACTION})
SPEAKER: Final = frozenset({FACTION, GAME_MASTER})  # a line's label, a declaration's subject
REQUESTS: Final = frozenset({REQUEST})
ANSWERABLE: Final = frozenset({REQUEST, DECLARATION})
DECLARATIONS: Final = frozenset({DECLARATION})
ALLIANCES: Final = frozenset({ALLIANCE})
COMBATS: Final = frozenset({COMBAT})

_LABELS: Final = {
    NOBLE: "a noble",
    SHIP: "a ship",
    ARMY: "an army",
    FLEET: "a fleet",
    HEIR: "a royal heir",
    CARD: "a card",
    PLACE: "a place",
    SEA: "a sea zone",
    FACTION: "a faction",
    GAME_MASTER: "the GM",
    TITLE: "a title",
    REQUEST: "a request",
    DECLARATION: "an alliance declaration",
    ALLIANCE: "an alliance",
    COMBAT: "a combat",
}

MIN_PREFIX: Final = 3
_MEMO_SIZE: Final = 4096


def kind_label(kind: str) -> str:
    """``a noble``, ``a sea zone``..."""
    return _LABELS.get(kind, kind)


def wanted_label(kinds: Collection[str]) -> str:
    """``a noble, a ship or an army``: what a position accepts, in plain words."""
    order = [k for k in _LABELS if k in kinds and k != TITLE]
    parts = [_LABELS[k] for k in order]
    return join_or(parts)


def wanted_nouns(kinds: Collection[str]) -> str:
    """``noble, ship or army``: the same without articles."""
    order = [k for k in _LABELS if k in kinds and k != TITLE]
    return join_or([_LABELS[k].split(" ", 1)[-1] for k in order])


def join_or(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


@dataclass(frozen=True, slots=True)
class Entity:
    """A named thing: its kind, its id, and its name as players read it. ``live``: in
    play in this state (a noble card that was not dealt is not)."""

    kind: str
    id: str
    name: str
    live: bool = True
    note: str = ""  # e.g. "the Earl of Warwick" for a noble found by his title

    def label(self) -> str:
        """How a message names it: ``Tadcaster``, ``Neville (the Earl of Warwick)``."""
        return f"{self.name} ({self.note})" if self.note else self.name


class NameProblem(Exception):
    """A name that does not resolve to one thing."""

    def __init__(self, text: str, message: str):
        super().__init__(message)
        self.text = text
        self.message = message


class UnknownNameError(NameProblem):
    def __init__(self, text: str, message: str, suggestions: tuple[str, ...] = ()):
        super().__init__(text, message)
        self.suggestions = suggestions


class AmbiguousNameError(NameProblem):
    def __init__(self, text: str, message: str, candidates: tuple[Entity, ...]):
        super().__init__(text, message)
        self.candidates = candidates


@dataclass
class _Pool:
    """The names of some kinds: normalized key -> entities, and the keys sorted."""

    exact: dict[str, list[Entity]] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)
    lower_ids: dict[str, list[Entity]] = field(default_factory=dict)  # for ids
    bigram_index: dict[str, list[str]] | None = None  # letter pair -> keys (built when first asked)
    near: dict[str, tuple[str, ...]] = field(default_factory=dict)  # memo of suggestions

    def add(self, key: str, e: Entity) -> None:
        if not key:
            return
        lst = self.exact.setdefault(key, [])
        if e not in lst:
            lst.append(e)

    def seal(self) -> None:
        self.keys = sorted(self.exact)
        self.bigram_index = None

    @property
    def bigrams(self) -> dict[str, list[str]]:
        """Letter pair -> keys, for suggestions (only a name that does not resolve needs it)."""
        if self.bigram_index is None:
            index: dict[str, list[str]] = {}
            for k in self.keys:
                for bg in letter_pairs(k):
                    index.setdefault(bg, []).append(k)
            self.bigram_index = index
        return self.bigram_index


class _Index:
    """Names (by kind, display forms, pools made as asked), shared by equal signatures: one
    index of the things named (``_named_signature``), one of the ids a viewer may know
    (``_ids_signature``), so a declaration or an answer rebuilds only the small second."""

    __slots__ = ("by_kind", "display", "pools")

    def __init__(self) -> None:
        self.by_kind: dict[str, _Pool] = {}
        self.display: dict[tuple[str, str], str] = {}
        self.pools: dict[frozenset[str], _Pool] = {}


class Names:
    """Every name of one game state, by kind. Build with :func:`names_for`."""

    def __init__(
        self,
        state: GameState,
        faction_names: Mapping[str, str] | None = None,
        viewer: str | None = None,
        *,
        index: _Index | None = None,
        ids: _Index | None = None,
    ):
        self.state = state
        self.viewer = viewer  # a faction: only the ids it may know are names (no hint of secrets)
        self.destinations: dict[str, Destinations] = {}  # legal_destinations, as orders ask
        self.index = index or _Index()  # the things named
        self.ids = ids or _Index()  # the ids of requests, declarations, alliances, combats
        self._by_kind = self.index.by_kind
        if index is None:
            self._build(faction_names or {})
        if ids is None:
            self._build_ids()

    # -- building --------------------------------------------------------------------------
    def _put(self, e: Entity, keys: Iterable[str]) -> None:
        index = self.ids if e.kind in ID_KINDS else self.index
        pool = index.by_kind.setdefault(e.kind, _Pool())
        index.display.setdefault((e.kind, e.id), e.name)
        if e.kind in ID_KINDS:
            for k in (e.id, *keys):
                pool.add(k, e)
                pool.lower_ids.setdefault(k.lower(), []).append(e)
            return
        for k in keys:
            pool.add(normalize(k), e)

    def _build(self, faction_names: Mapping[str, str]) -> None:
        state = self.state
        cat, board = state.catalog, state.board
        for card in cat.nobles.values():
            live = card.id in state.nobles
            self._put(Entity(NOBLE, card.id, card.name, live), (card.id, card.name))
            if card.title:
                self._put(Entity(NOBLE, card.id, card.name, live, f"the {card.title}"), (card.title,))
        for n in state.nobles.values():
            if n.id not in cat.nobles:
                self._put(Entity(NOBLE, n.id, default_name(n.id)), (n.id,))
            for a in n.awards:
                award = cat.awards.get(a)
                if award is not None and award.kind is AwardKind.TITLE:
                    self._put(
                        Entity(NOBLE, n.id, cat.name_of(n.id), True, f"the {award.name}"), (award.name,)
                    )
        held = {a for n in state.nobles.values() for a in n.awards}
        for award in cat.awards.values():
            if award.kind is AwardKind.TITLE and award.id not in held:
                self._put(Entity(TITLE, award.id, award.name, False), (award.name, award.id))
        for ship in cat.ships.values():
            self._put(Entity(SHIP, ship.id, ship.name, ship.id in state.ships), (ship.id, ship.name))
        for s in state.ships.values():
            if s.id not in cat.ships:
                self._put(Entity(SHIP, s.id, default_name(s.id)), (s.id,))
        for army in state.armies.values():
            kind = FLEET if army.fleet else ARMY
            self._put(Entity(kind, army.id, army.id), (army.id,))
        for heir in cat.heirs.values():
            self._put(Entity(HEIR, heir.id, heir.name, heir.id in state.heirs), (heir.id, heir.name))
        for h in state.heirs.values():
            if h.id not in cat.heirs:
                self._put(Entity(HEIR, h.id, default_name(h.id)), (h.id,))
        self._cards()
        for p in board.places.values():
            self._put(Entity(PLACE, p.id, p.name), (p.id, p.name))
        for sea in board.seas.values():
            self._put(Entity(SEA, sea.id, sea.name), (sea.id, sea.name))
        for f in state.turn_order:
            shown = faction_names.get(f) or default_name(f)
            self._put(Entity(FACTION, f, shown), (f, shown))
        self._put(Entity(GAME_MASTER, GM, "GM"), (GM, "game master", "the GM"))
        for pool in self._by_kind.values():
            pool.seal()

    def _build_ids(self) -> None:
        state, who = self.state, self.viewer
        secret_ok = who is None or who == GM
        for r in state.requests.values():
            if secret_ok or who == r.by or who in r.awaiting:
                self._put(Entity(REQUEST, r.id, r.id), _chosen(state, r.id))
        if secret_ok:  # an ended request's parties are not recorded: only the GM names it
            for rid in state.closed:
                if rid not in state.requests:
                    self._put(Entity(REQUEST, rid, rid, False), ())
        for d in state.declarations.values():
            if secret_ok or who == d.by or who in d.invited:
                self._put(Entity(DECLARATION, d.id, d.id), _chosen(state, d.id))
        for ally in state.alliances.values():
            if secret_ok or ally.public or who in ally.members:
                self._put(Entity(ALLIANCE, ally.id, ally.id), _chosen(state, ally.id))
        for c in state.combats:
            self._put(Entity(COMBAT, c.id, c.id), ())
        for pool in self.ids.by_kind.values():
            pool.seal()

    def _cards(self) -> None:
        """Cards by id and name: awards, noble and ship cards, event cards. One that a hand or
        a noble in play holds is live (so a faction's own card wins over a namesake)."""
        state, cat = self.state, self.state.catalog
        held = {c for hand in state.hands.values() for c in hand}
        held |= {a for n in state.nobles.values() for a in n.awards}
        tables: tuple[Mapping[str, object], ...] = (cat.awards, cat.nobles, cat.ships, cat.events)
        for table in tables:
            for ident in table:
                name = cat.name_of(ident)
                self._put(Entity(CARD, ident, name, ident in held), (ident, name))

    def _pool(self, kinds: frozenset[str]) -> _Pool:
        index = self.ids if kinds and kinds <= ID_KINDS else self.index
        pool = index.pools.get(kinds)
        if pool is None:
            pool = _Pool()
            for k in sorted(kinds):
                part = index.by_kind.get(k)
                if part is None:
                    continue
                for key, ents in part.exact.items():
                    for e in ents:
                        pool.add(key, e)
                for key, ents in part.lower_ids.items():
                    pool.lower_ids.setdefault(key, []).extend(ents)
            pool.seal()
            index.pools[kinds] = pool
        return pool

    # -- questions -------------------------------------------------------------------------
    def display(self, kind: str, ident: str) -> str:
        """The name players read for ``ident`` of ``kind`` (the id itself if unknown)."""
        index = self.ids if kind in ID_KINDS else self.index
        return index.display.get((kind, ident), ident)

    def resolve(self, text: str, kinds: frozenset[str]) -> Entity:
        """The one thing of ``kinds`` that ``text`` names. Raises ``UnknownNameError`` or
        ``AmbiguousNameError``."""
        ids = kinds & ID_KINDS
        if ids:
            found = self._resolve_id(text, frozenset(ids))
            if found is not None:
                return found
            if ids == kinds:
                raise self._unknown_id(text, frozenset(ids))
        named = frozenset(kinds - ID_KINDS | ({TITLE} if NOBLE in kinds else set()))
        t = normalize(text)
        pool = self._pool(named)
        for tier in (self._exact, self._prefix, self._words):
            cands = tier(pool, t)
            if cands:
                return self._pick(text, cands, kinds)
        raise self._unknown(text, t, kinds)

    def _resolve_id(self, text: str, kinds: frozenset[str]) -> Entity | None:
        pool = self._pool(kinds)
        raw = text.strip()
        exact = pool.exact.get(raw)
        cands = exact if exact else pool.lower_ids.get(raw.lower(), [])
        if not cands:
            return None
        return min(cands, key=lambda e: (not e.live, _ID_PRIORITY.index(e.kind), e.id))

    @staticmethod
    def _exact(pool: _Pool, t: str) -> list[Entity]:
        return list(pool.exact.get(t, ()))

    @staticmethod
    def _prefix(pool: _Pool, t: str) -> list[Entity]:
        if len(t) < MIN_PREFIX:
            return []
        out: list[Entity] = []
        i = bisect.bisect_left(pool.keys, t)
        while i < len(pool.keys) and pool.keys[i].startswith(t):
            out.extend(pool.exact[pool.keys[i]])
            i += 1
        return out

    @staticmethod
    def _words(pool: _Pool, t: str) -> list[Entity]:
        if len(t) < MIN_PREFIX:
            return []
        needle = f" {t} "
        out: list[Entity] = []
        for k in pool.keys:
            if needle in f" {k} ":
                out.extend(pool.exact[k])
        return out

    def _pick(self, text: str, cands: list[Entity], kinds: frozenset[str]) -> Entity:
        unique: dict[tuple[str, str], Entity] = {}
        for e in cands:
            unique.setdefault((e.kind, e.id), e)
        found = list(unique.values())
        if len(found) > 1:
            live = [e for e in found if e.live]
            if len(live) == 1:
                found = live
        if len(found) == 1:
            e = found[0]
            if e.kind == TITLE:
                raise UnknownNameError(text, f"no noble in play holds the title {e.name}")
            return e
        found.sort(key=lambda e: (e.name.lower(), e.kind, e.id))
        shown = join_or([e.label() for e in found])
        return_msg = f"“{text}” could be {shown}"
        raise AmbiguousNameError(text, return_msg, tuple(found))

    def _unknown(self, text: str, t: str, kinds: frozenset[str]) -> UnknownNameError:
        # named, but as something of another kind?
        other = frozenset(self._by_kind) - kinds - ID_KINDS - {TITLE}
        # a card last: a noble's card is the noble, a town's card the town, for this question
        for others in (other - {CARD}, other & {CARD}):
            if not t or not others:
                continue
            pool = self._pool(others)
            for tier in (self._exact, self._prefix):
                cands = tier(pool, t)
                if len({(e.kind, e.id) for e in cands}) == 1:
                    e = cands[0]
                    return UnknownNameError(
                        text, f"{e.name} is {kind_label(e.kind)}, not {wanted_label(kinds)}"
                    )
        suggestions = self.suggest(t, frozenset(kinds - ID_KINDS))
        msg = f"there is no {wanted_nouns(kinds)} called “{text}”"
        if suggestions:
            msg += f"; {did_you_mean(suggestions)}"
        return UnknownNameError(text, msg, suggestions)

    def _unknown_id(self, text: str, kinds: frozenset[str]) -> UnknownNameError:
        pool = self._pool(kinds)
        scored = close_matches(text.strip(), list(pool.exact))
        close = [k for score, k in scored if score >= scored[0][0] - SUGGEST_SPREAD][:3]
        msg = f"there is no {wanted_nouns(kinds)} “{text}”"
        if close:
            msg += f"; {did_you_mean(close)}"
        elif not pool.exact:
            msg += " (there are none now)"
        return UnknownNameError(text, msg, tuple(close))

    def suggest(self, t: str, kinds: frozenset[str], n: int = 3) -> tuple[str, ...]:
        """Near misses for the normalized text ``t`` among names of ``kinds``: the closest,
        and any others nearly as close."""
        if not t:
            return ()
        pool = self._pool(kinds)
        memo = pool.near.get(t)
        if memo is not None:
            return memo[:n]
        scored = close_matches(t, pool.keys, pool.bigrams)
        out: list[str] = []
        best = scored[0][0] if scored else 0.0
        for score, key in scored:
            if score < best - SUGGEST_SPREAD:
                break
            for e in pool.exact[key]:
                if e.kind != TITLE and e.name not in out:
                    out.append(e.name)
        if len(pool.near) >= _MEMO_SIZE:
            pool.near.clear()
        pool.near[t] = tuple(out)
        return tuple(out[:n])

    def reads_back(self, text: str, kinds: frozenset[str], kind: str, ident: str) -> bool:
        """Whether ``text`` resolves to ``ident`` of ``kind`` in a position of ``kinds``."""
        try:
            e = self.resolve(text, kinds)
        except NameProblem:
            return False
        return (e.kind, e.id) == (kind, ident)


_CACHE: dict[tuple[int, str | None], tuple[weakref.ref[GameState], tuple[tuple[str, str], ...], Names]] = {}
_CACHE_SIZE: Final = 16
#: The indexes of the states last asked about, by signature (a move names nothing new; a
#: declaration or an answer changes only the ids).
_NAMED: OrderedDict[tuple[object, ...], tuple[Catalog, Board, _Index]] = OrderedDict()
_IDS: OrderedDict[tuple[object, ...], _Index] = OrderedDict()
_INDEXES_SIZE: Final = 32
_LOCK = threading.Lock()


def _chosen(state: GameState, ident: str) -> tuple[str, ...]:
    """The id as its author chose it, when the service kept it under the author's
    faction (``red-rg`` is also ``rg``: players write the id they chose)."""
    faction, dash, rest = ident.partition("-")
    return (rest,) if dash and rest and faction in state.turn_order else ()


def _named_signature(state: GameState, fn: tuple[tuple[str, str], ...]) -> tuple[object, ...]:
    """What ``Names._build`` reads of ``state`` (catalog and board: by identity); no secret
    is in it, so every viewer shares it."""
    return (
        id(state.catalog),
        id(state.board),
        fn,
        state.turn_order,
        tuple((n.id, n.awards) for n in state.nobles.values()),
        tuple(state.ships),
        tuple((a.id, a.fleet) for a in state.armies.values()),
        tuple(state.heirs),
        tuple(state.hands.values()),
    )


def _ids_signature(state: GameState, viewer: str | None) -> tuple[object, ...]:
    """What ``Names._build_ids`` reads of ``state`` for ``viewer``."""
    return (
        viewer,
        state.turn_order,
        tuple((r.id, r.by, r.awaiting) for r in state.requests.values()),
        tuple(state.closed) if viewer is None or viewer == GM else (),
        tuple((d.id, d.by, d.invited) for d in state.declarations.values()),
        tuple((a.id, a.public, a.members) for a in state.alliances.values()),
        tuple(c.id for c in state.combats),
    )


def _remember(cache: OrderedDict[tuple[object, ...], _T], key: tuple[object, ...], value: _T) -> None:
    with _LOCK:
        cache[key] = value
        while len(cache) > _INDEXES_SIZE:
            cache.popitem(last=False)


def names_for(
    state: GameState, faction_names: Mapping[str, str] | None = None, viewer: str | None = None
) -> Names:
    """The names of ``state`` as ``viewer`` may know them (a faction sees no secret ids;
    None or the GM: every name). Cached for the few states most recently asked about;
    states that name the same things share one index, and the same ids another."""
    key = (id(state), viewer)
    fn = tuple(sorted((faction_names or {}).items()))
    hit = _CACHE.get(key)
    if hit is not None and hit[0]() is state and hit[1] == fn:
        return hit[2]
    sig_named, sig_ids = _named_signature(state, fn), _ids_signature(state, viewer)
    with _LOCK:
        shared = _NAMED.get(sig_named)
        ids = _IDS.get(sig_ids)
    index = None
    if shared is not None and shared[0] is state.catalog and shared[1] is state.board:
        index = shared[2]
    names = Names(state, faction_names, viewer, index=index, ids=ids)
    if index is None:
        _remember(_NAMED, sig_named, (state.catalog, state.board, names.index))
    if ids is None:
        _remember(_IDS, sig_ids, names.ids)
    if len(_CACHE) >= _CACHE_SIZE:
        for k in list(_CACHE)[: _CACHE_SIZE // 2]:
            _CACHE.pop(k, None)
    _CACHE[key] = (weakref.ref(state), fn, names)
    return names
