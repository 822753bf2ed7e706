"""The event deck (``events.toml``): reading each card, then checking what it names.

A card is a table with an optional ``name``, an optional ``event`` section (a table whose
``kind`` is one of FULL_GAME 3.13.1) and an optional ``battle`` half (``"bad_weather"`` or
``{ odds = "2:1", deaths = [...] }``); it needs at least one of the two sections.
``parse_events`` checks each card on its own; ``check_events`` checks what the cards
name against the other files, and the deck as a whole against the set-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kingmaker.rules.board import PlaceKind, default_name
from kingmaker.rules.cards import (
    BAD_WEATHER,
    AwardKind,
    BattleHalf,
    CardEvent,
    Embassy,
    EventCard,
    EventKind,
    FreeMove,
    King,
    Mercenaries,
    NoEvent,
    Odds,
    ParliamentChancellor,
    ParliamentMust,
    Plague,
    Storm,
    Summons,
    Writ,
)

from . import schema as s
from .fields import FileReader, describe
from .parse import Parsed
from .problems import DataProblem

EVENT_KINDS = tuple(k.value for k in EventKind)
ODDS = tuple(o.value for o in Odds)
KINGS = tuple(k.value for k in King)
# The places a plague may strike: cities and towns of every kind (EVENT.plague).
PLAGUE_KINDS = frozenset({PlaceKind.CITY, PlaceKind.TOWN, PlaceKind.UNFORTIFIED_TOWN, PlaceKind.OPEN_TOWN})


def parse_events(out: Parsed, data: dict[str, Any]) -> None:
    """``events.toml``: one table per event card."""
    r = out.reader(s.EVENTS)
    for cid, path, table in r.tables(data):
        out.event_ids.append(cid)
        card = _card(r, cid, path, table)
        if card is not None:
            out.events[cid] = card


def read_card(cid: str, table: dict[str, Any], file: str) -> tuple[EventCard | None, list[DataProblem]]:
    """One event card read on its own, as ``events.toml`` would read it (a conformance
    case's ``cards``), with the problems found; ``file`` names where it was written."""
    problems: list[DataProblem] = []
    card = _card(FileReader(file, problems), cid, cid, table)
    return card, problems


def _card(r: FileReader, cid: str, path: str, table: dict[str, Any]) -> EventCard | None:
    ok = True
    for key in table:
        if key not in s.EVENT_CARD_FIELDS:
            r.report(f"{path}.{key}", f"unknown field; expected one of: {', '.join(s.EVENT_CARD_FIELDS)}")
            ok = False
    name = default_name(cid)
    if "name" in table:
        value, good = r.value(f"{path}.name", table["name"], s.NAME_FIELD)
        name, ok = (value, ok) if good else (name, False)
    event: CardEvent | None = None
    battle: BattleHalf | None = None
    if "event" in table:
        event = _event(r, f"{path}.event", table["event"])
        ok = ok and event is not None
    if "battle" in table:
        battle = _battle(r, f"{path}.battle", table["battle"])
        ok = ok and battle is not None
    if not ok:
        return None
    if event is None and battle is None:
        r.report(path, "a card needs an `event` section, a `battle` half or both")
        return None
    return EventCard(cid, name, event, battle)


def _battle(r: FileReader, path: str, raw: Any) -> BattleHalf | None:
    """The battle half ``raw`` gives, or None (its problems reported)."""
    if raw == s.BAD_WEATHER:
        return BAD_WEATHER
    if not isinstance(raw, dict):
        r.report(
            path, f'expected "bad_weather" or a table {{ odds = "2:1", deaths = [...] }}, got {describe(raw)}'
        )
        return None
    f = r.fields(path, raw, s.BATTLE_FIELDS)
    if f is None:
        return None
    if f["odds"] not in ODDS:
        r.report(f"{path}.odds", f"unknown odds {f['odds']!r}; expected one of: {', '.join(ODDS)}")
        return None
    deaths: tuple[str, ...] = f.get("deaths", ())
    if not _distinct(r, f"{path}.deaths", deaths):
        return None
    return BattleHalf(Odds(f["odds"]), deaths)


def _event(r: FileReader, path: str, raw: Any) -> CardEvent | None:
    """The event section ``raw`` gives, or None (its problems reported)."""
    if not isinstance(raw, dict):
        r.report(
            path, f'expected a table such as {{ kind = "plague", places = ["bristol"] }}, got {describe(raw)}'
        )
        return None
    if "kind" not in raw:
        r.report(f"{path}.kind", f"missing required field; expected one of: {', '.join(EVENT_KINDS)}")
        return None
    kind_raw = raw["kind"]
    if not isinstance(kind_raw, str) or kind_raw not in EVENT_KINDS:
        shown = repr(kind_raw) if isinstance(kind_raw, str) else describe(kind_raw)
        r.report(f"{path}.kind", f"unknown event kind {shown}; expected one of: {', '.join(EVENT_KINDS)}")
        return None
    kind = EventKind(kind_raw)
    f = r.fields(path, raw, {"kind": s.EVENT_KIND_FIELD, **s.EVENT_FIELDS[kind]})
    if f is None:
        return None
    for name, what in (("places", "place"), ("seas", "sea zone"), ("cards", "mercenary card")):
        values = f.get(name)
        if values is not None and not (
            _some(r, f"{path}.{name}", values, what) and _distinct(r, f"{path}.{name}", values)
        ):
            return None
    return _build(r, path, kind, f)


def _build(r: FileReader, path: str, kind: EventKind, f: dict[str, Any]) -> CardEvent | None:
    if kind is EventKind.PLAGUE:
        return Plague(f["places"])
    if kind is EventKind.STORM:
        return Storm(f["seas"])
    if kind is EventKind.MERCENARIES:
        return Mercenaries(f["cards"])
    if kind is EventKind.SUMMONS:
        if "target" in f and "holder" in f:
            r.report(path, "give `target` (a noble) or `holder` (an award whose holder goes), not both")
            return None
        if "target" not in f and "holder" not in f:
            r.report(f"{path}.target", "missing: a summons needs `target` (a noble) or `holder` (an award)")
            return None
        return Summons(f["place"], f.get("target"), f.get("holder"))
    if kind is EventKind.EMBASSY:
        if f["king"] not in KINGS:
            r.report(f"{path}.king", f"unknown king {f['king']!r}; expected one of: {', '.join(KINGS)}")
            return None
        return Embassy(King(f["king"]), f["place"])
    if kind in (EventKind.WRIT, EventKind.FREE_MOVE):
        if not f.get("held", True):
            r.report(
                f"{path}.held",
                f"a {kind.value} card is always held (EVENT.held): leave out `held` or say true",
            )
            return None
        return Writ() if kind is EventKind.WRIT else FreeMove()
    if kind is EventKind.PARLIAMENT_CHANCELLOR:
        return ParliamentChancellor()
    if kind is EventKind.PARLIAMENT_MUST:
        return ParliamentMust()
    return NoEvent()


def _some(r: FileReader, path: str, values: Sequence[str], what: str) -> bool:
    if not values:
        r.report(path, f"name at least one {what}")
    return bool(values)


def _distinct(r: FileReader, path: str, values: Sequence[str]) -> bool:
    ok = True
    for i, v in enumerate(values):
        if v in values[:i]:
            r.report(f"{path}[{i}]", f"{v!r} is listed twice")
            ok = False
    return ok


# -- checks across files ------------------------------------------------------------------


def check_events(out: Parsed) -> None:
    """What the cards name exists and fits; the deck is as large as the set-up asks and
    can decide a battle."""
    if s.EVENTS not in out.raw:
        return
    problems = out.problems
    for card in out.events.values():
        problems.extend(_card_references(out, card))
    _check_deck(out)


def _card_references(out: Parsed, card: EventCard) -> list[DataProblem]:
    found: list[DataProblem] = []

    def report(key: str, reason: str) -> None:
        found.append(DataProblem(s.EVENTS, f"{card.id}.{key}", reason))

    have = {f: f in out.raw for f in (s.PLACES, s.SEAS, s.NOBLES, s.AWARDS)}
    nobles, places, seas = set(out.noble_ids), set(out.place_ids), set(out.sea_ids)
    awards = {a for a, _ in out.award_ids}
    if card.battle is not None and have[s.NOBLES]:
        for i, nid in enumerate(card.battle.deaths):
            if nid not in nobles:
                report(f"battle.deaths[{i}]", f"unknown noble {nid!r}")
    ev = card.event
    if isinstance(ev, Plague) and have[s.PLACES]:
        for i, pid in enumerate(ev.places):
            place = out.places.get(pid)
            if pid not in places:
                report(f"event.places[{i}]", f"unknown place {pid!r}")
            elif place is not None and place.kind not in PLAGUE_KINDS:
                what = "countryside" if place.kind is PlaceKind.COUNTRY else f"a {place.kind.label}"
                report(
                    f"event.places[{i}]", f"{pid!r} is {what}: plague strikes cities and towns (EVENT.plague)"
                )
    elif isinstance(ev, Storm) and have[s.SEAS]:
        for i, sid in enumerate(ev.seas):
            if sid not in seas:
                report(f"event.seas[{i}]", f"unknown sea zone {sid!r}")
    elif isinstance(ev, Mercenaries) and have[s.AWARDS]:
        for i, aid in enumerate(ev.cards):
            award = out.awards.get(aid)
            if aid not in awards:
                report(f"event.cards[{i}]", f"unknown award {aid!r}")
            elif award is not None and award.kind is not AwardKind.MERCENARY:
                report(f"event.cards[{i}]", f"{aid!r} is a {award.kind.value}, not a mercenary card")
    elif isinstance(ev, Summons):
        if ev.target is not None and have[s.NOBLES] and ev.target not in nobles:
            report("event.target", f"unknown noble {ev.target!r}")
        held = out.awards.get(ev.holder or "")
        if ev.holder is not None and have[s.AWARDS] and ev.holder not in awards:
            report("event.holder", f"unknown award {ev.holder!r}")
        elif held is not None and held.copies > 1:
            report(
                "event.holder", f"{ev.holder!r} has {held.copies} copies, so it has no one holder to summon"
            )
    if isinstance(ev, Summons | Embassy) and have[s.PLACES] and ev.place not in places:
        report("event.place", f"unknown place {ev.place!r}")
    return found


def _check_deck(out: Parsed) -> None:
    count = len(out.event_ids)  # cards with problems of their own count too
    asked = out.setup.get("min_event_cards", 0) if out.setup is not None else 0
    if count < asked:
        out.problems.append(
            DataProblem(
                s.SETUP,
                "min_event_cards",
                f"asks for at least {asked} event cards; events.toml holds {count}",
            )
        )
        return
    if len(out.events) < count:
        return  # a broken card might have been the one that decides
    if not any(c.battle is not None and not c.battle.bad_weather for c in out.events.values()):
        reason = (
            "the deck holds no card, but the event phase and every battle draw one (EVENT.draw)"
            if count == 0
            else "no card has a battle half with odds (only Bad Weather or none): no battle would "
            "ever be won and no siege would ever fall (EVENT.combat_draw)"
        )
        out.problems.append(DataProblem(s.EVENTS, "", reason))
