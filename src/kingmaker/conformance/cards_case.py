"""The cards of a format-2 case (FULL_GAME §5, 3.13.7): awards with their kinds, the
case's event cards, the heirs' succession, and any card named by id alone, looked up in
the default data's catalog (or in the case's own ``state.catalog``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache
from typing import Any

from kingmaker.rules.board import default_name
from kingmaker.rules.cards import Award, AwardKind, Catalog, EventCard, HeirCard, NobleCard, ShipCard
from kingmaker.rules.frozen import FrozenDict

from .schema import AWARD_KEYS, CaseError, as_int, as_list, as_str, check_keys
from .schema_full import AWARD_KEYS_2, CARD_KEYS, CATALOG_KEYS, VOTES_KEYS

#: Award kinds as a case writes them. Sees of either rank are the engine's ``see``;
#: ships and held event cards as awards count for their troops only.
KINDS: dict[str, AwardKind] = {
    "title": AwardKind.TITLE,
    "office": AwardKind.OFFICE,
    "bishop": AwardKind.SEE,
    "archbishop": AwardKind.SEE,
    "see": AwardKind.SEE,
    "mercenary": AwardKind.MERCENARY,
    "town": AwardKind.TOWN,
    "ship": AwardKind.OTHER,
    "held": AwardKind.OTHER,
    "other": AwardKind.OTHER,
}


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The card catalog of the default data set (read once, when a case needs it)."""
    from kingmaker.data.loader import load_dataset

    return load_dataset().catalog


#: The two ranks of a see a case may write (CROWN.clergy: ``cards.archbishopric``).
SEE_RANKS = ("archbishop", "bishop")


def see_rank(raw: Any) -> str | None:
    """The rank a case gives a see (``kind: archbishop`` or ``kind: bishop``), or None."""
    kind = raw.get("kind") if isinstance(raw, dict) else None
    return kind if kind in SEE_RANKS else None


def catalog_ranks(raw: Any) -> dict[str, str]:
    """The ranks of the sees of ``state.catalog``."""
    table = raw if isinstance(raw, dict) else {}
    return {str(cid): rank for cid, spec in table.items() if (rank := see_rank(spec)) is not None}


def _kind(where: str, raw: Any) -> AwardKind:
    k = as_str(where, raw)
    if k not in KINDS:
        raise CaseError(f"{where}: unknown award kind {k!r}; expected one of {', '.join(sorted(KINDS))}")
    return KINDS[k]


def _votes(where: str, raw: Any) -> tuple[int, int]:
    v = check_keys(where, raw or {}, VOTES_KEYS)
    return as_int(f"{where}.lords", v.get("lords", 0)), as_int(f"{where}.commons", v.get("commons", 0))


def _regional(where: str, raw: Any) -> tuple[tuple[str, int], ...]:
    table = check_keys(where, raw or {}, set(raw or {}))
    return tuple((str(k), as_int(f"{where}.{k}", v)) for k, v in sorted(table.items()))


def award(where: str, raw: Any, own: dict[str, Award]) -> Award:
    """An award a noble holds: a mapping (``id``, ``troops``, ``regional``, ``kind``,
    ``controls``, ``votes``) whose kind defaults to the default data's for a known id, or
    an id alone, taken whole from ``state.catalog`` (``own``) or the default data."""
    if isinstance(raw, str):
        return card_award(where, raw, own)
    a = check_keys(where, raw, AWARD_KEYS | AWARD_KEYS_2)
    aid = as_str(f"{where}.id", a.get("id"))
    known = own.get(aid) or default_catalog().awards.get(aid)
    kind = _kind(f"{where}.kind", a["kind"]) if "kind" in a else (known.kind if known else AwardKind.OTHER)
    lords, commons = _votes(f"{where}.votes", a.get("votes"))
    return Award(
        aid,
        known.name if known else default_name(aid),
        kind,
        troops=as_int(f"{where}.troops", a.get("troops", 0)),
        regional=_regional(f"{where}.regional", a.get("regional")),
        places=tuple(as_str(f"{where}.controls", p) for p in as_list(f"{where}.controls", a.get("controls"))),
        commons_votes=commons,
        lords_votes=lords,
    )


def card_award(where: str, aid: str, own: dict[str, Award]) -> Award:
    card = own.get(aid) or default_catalog().awards.get(aid)
    if card is None:
        raise CaseError(f"{where}: unknown award {aid!r} (not in state.catalog nor in the default data)")
    return card


def catalog_entries(raw: Any) -> dict[str, Award]:
    """``state.catalog: {ID: {kind, troops, regional, votes}}``: the case's own cards."""
    out: dict[str, Award] = {}
    for cid, spec in check_keys("state.catalog", raw or {}, set(raw or {})).items():
        where = f"state.catalog.{cid}"
        spec = check_keys(where, spec, CATALOG_KEYS)
        lords, commons = _votes(f"{where}.votes", spec.get("votes"))
        out[str(cid)] = Award(
            str(cid),
            as_str(f"{where}.name", spec.get("name", default_name(str(cid)))),
            _kind(f"{where}.kind", spec["kind"]) if "kind" in spec else AwardKind.OTHER,
            troops=as_int(f"{where}.troops", spec.get("troops", 0)),
            regional=_regional(f"{where}.regional", spec.get("regional")),
            commons_votes=commons,
            lords_votes=lords,
        )
    return out


def event_cards(raw: Any) -> dict[str, EventCard]:
    """``state.cards``: the case's event cards, read as the data files read them."""
    from kingmaker.data.deck import read_card

    out: dict[str, EventCard] = {}
    for cid, spec in check_keys("state.cards", raw or {}, set(raw or {})).items():
        where = f"state.cards.{cid}"
        spec = check_keys(where, spec, CARD_KEYS)
        card, problems = read_card(str(cid), dict(spec), "state.cards")
        if card is None:
            raise CaseError("; ".join(str(p) for p in problems) or f"{where}: not an event card")
        out[str(cid)] = card
    return out


def heir_cards(raw: Any) -> dict[str, HeirCard]:
    """``succession: {house: [heirs]}``: each heir's house and place in the order.
    Beaufort (3.13.4) is his noble card's heir."""
    out: dict[str, HeirCard] = {}
    for house, line in check_keys("state.succession", raw or {}, set(raw or {})).items():
        for i, hid in enumerate(as_list(f"state.succession.{house}", line)):
            hid = as_str(f"state.succession.{house}[{i}]", hid)
            if hid in out:
                raise CaseError(f"state.succession: {hid!r} is listed twice")
            noble = "beaufort" if hid == "beaufort" else None
            out[hid] = HeirCard(hid, default_name(hid), str(house), i + 1, noble=noble)
    return out


def town_card(place: str) -> Award | None:
    """A card named by a place's id (``bristol``): that place's town card in the default
    data (the City of Bristol), under the id the case uses."""
    for a in default_catalog().awards.values():
        if a.kind is AwardKind.TOWN and place in a.places:
            return replace(a, id=place)
    return None


class CardBook:
    """Every card a case names, gathered into the case's catalog."""

    def __init__(
        self,
        awards: dict[str, Award],
        own: dict[str, Award],
        events: dict[str, EventCard],
        ranks: dict[str, str] | None = None,
    ):
        self.awards = dict(awards)
        self.own = own
        self.events = dict(events)
        self.nobles: dict[str, NobleCard] = {}
        self.ships: dict[str, ShipCard] = {}
        self.ranks = dict(ranks or {})

    def event(self, where: str, cid: str) -> str:
        """An event card by id: the case's, else the default deck's."""
        if cid not in self.events:
            card = default_catalog().events.get(cid)
            if card is None:
                raise CaseError(
                    f"{where}: unknown event card {cid!r} (not in state.cards nor the default deck)"
                )
            self.events[cid] = card
        return cid

    def any(self, where: str, cid: str) -> str:
        """A card held in a hand, the Chancery or the Crown deck: an award, a noble card, a
        ship or a held event card; the case's own first, then the default data's."""
        if cid in self.awards or cid in self.events or cid in self.nobles or cid in self.ships:
            return cid
        if cid in self.own:
            self.awards[cid] = self.own[cid]
            return cid
        cat = default_catalog()
        if cid in cat.awards:
            self.awards[cid] = cat.awards[cid]
        elif cid in cat.nobles:
            self.nobles[cid] = cat.nobles[cid]
        elif cid in cat.ships:
            self.ships[cid] = cat.ships[cid]
        elif cid in cat.events:
            self.events[cid] = cat.events[cid]
        elif (town := town_card(cid)) is not None:
            self.awards[cid] = town
        else:
            raise CaseError(f"{where}: unknown card {cid!r} (not in the case nor in the default data)")
        return cid

    def ids(self, where: str, raw: Any, *, events: bool) -> tuple[str, ...]:
        look = self.event if events else self.any
        return tuple(
            look(f"{where}[{i}]", as_str(f"{where}[{i}]", c)) for i, c in enumerate(as_list(where, raw))
        )

    def noble_card(self, nid: str, troops: int, titled: bool, castles: Iterable[str]) -> None:
        """The card of a noble in play; one ``titled`` in the case carries a pre-printed
        title (DEAL.limits): the default card's when it has one."""
        known = default_catalog().nobles.get(nid)
        title = (
            (known.title if known and known.title else f"{default_name(nid)}'s title") if titled else None
        )
        self.nobles[nid] = NobleCard(nid, default_name(nid), troops, title, tuple(castles))

    def with_castles(self, castles: dict[str, tuple[str, ...]]) -> None:
        """Every noble card's castles as the case's ``castle_of`` gives them (3.13.3): a
        noble it does not list has none on the case's board."""
        self.nobles = {nid: replace(card, castles=castles.get(nid, ())) for nid, card in self.nobles.items()}

    def catalog(self, heirs: dict[str, HeirCard]) -> Catalog:
        return Catalog(
            nobles=FrozenDict(self.nobles),
            awards=FrozenDict(self.awards),
            ships=FrozenDict(self.ships),
            heirs=FrozenDict(heirs),
            events=FrozenDict(self.events),
            see_ranks=FrozenDict(self.ranks),
        )
