"""What a format-2 case adds to the state (FULL_GAME §5): the phase, the decks and
discards, the Chancery and the hands, the heirs with their succession, captives, sieges
and options. ``case.build_state`` calls these for ``format: 2``."""

from __future__ import annotations

from typing import Any

from kingmaker.rules.board import Board, PlaceKind
from kingmaker.rules.cards import HeirCard
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.state import PHASES, Captivity, GameState, Heir, Noble, Siege

from . import parliament_case
from .cards_case import CardBook
from .schema import HEIR_KEYS, CaseError, as_bool, as_list, as_str, check_keys
from .schema_full import CAPTIVE_KEYS, HEIR_KEYS_2, LATER_STATE, SIEGE_KEYS

#: Garrisons by kind when a place gives none (FULL_GAME §1, SIEGE.garrison).
GARRISONS: dict[PlaceKind, int] = {
    PlaceKind.CITY: 300,
    PlaceKind.TOWN: 200,
    PlaceKind.ROYAL_CASTLE: 200,
    PlaceKind.CASTLE: 100,
}

DEFAULT_PHASE = "movement"


def castles(raw_board: Any) -> dict[str, tuple[str, ...]]:
    """Each noble's castles from the places' ``castle_of: [nobles]`` (3.13.3), in the
    board's order of places."""
    out: dict[str, list[str]] = {}
    places = raw_board.get("places") if isinstance(raw_board, dict) else None
    for pid, spec in (places or {}).items():
        if not isinstance(spec, dict) or "castle_of" not in spec:
            continue
        where = f"board.places.{pid}.castle_of"
        for nid in as_list(where, spec["castle_of"]):
            out.setdefault(as_str(where, nid), []).append(str(pid))
    return {k: tuple(v) for k, v in out.items()}


def check_later(st: dict[str, Any]) -> None:
    """State fields of issue 14 (Parliament sitting, vote tables) are refused clearly."""
    for key in sorted(LATER_STATE & set(st)):
        raise CaseError(f"state.{key}: not supported yet (Parliament is issue 14)")


def deck_fields(st: dict[str, Any], book: CardBook) -> dict[str, Any]:
    """The decks, discards, Chancery and hands, every card looked up (3.13.7)."""
    out: dict[str, Any] = {}
    for key in ("event_deck", "event_discard"):
        out[key] = book.ids(f"state.{key}", st.get(key), events=True)
    for key in ("crown_deck", "crown_discard", "chancery"):
        out[key] = book.ids(f"state.{key}", st.get(key), events=False)
    hands: dict[str, tuple[str, ...]] = {}
    for f, cards in check_keys("state.hands", st.get("hands") or {}, set(st.get("hands") or {})).items():
        held = book.ids(f"state.hands.{f}", cards, events=False)
        if held:
            hands[str(f)] = held
    out["hands"] = FrozenDict(hands)
    everywhere = [c for k in ("event_deck", "event_discard") for c in out[k]]
    twice = sorted({c for c in everywhere if everywhere.count(c) > 1})
    if twice:
        raise CaseError(f"state: event card(s) {', '.join(twice)} are in the deck or discard twice")
    return out


def build_heirs(
    st: dict[str, Any], board: Board, nobles: dict[str, Noble], cards: dict[str, HeirCard]
) -> dict[str, Heir]:
    """Living heirs: escorted (``with``) or unescorted inside (``in``) or in the open
    (``at``); house and order from ``succession`` when it lists them. Beaufort, named in
    the succession, lives while his noble is in play and goes with him (3.13.4)."""
    heirs: dict[str, Heir] = {}
    raw = st.get("heirs") or {}
    for i, (hid, spec) in enumerate(check_keys("state.heirs", raw, set(raw)).items()):
        where = f"state.heirs.{hid}"
        spec = check_keys(where, spec, HEIR_KEYS | HEIR_KEYS_2)
        if len({"with", "at", "in"} & set(spec)) > 1:
            raise CaseError(f"{where}: give one of `with`, `at` and `in`")
        card = cards.get(str(hid))
        house = as_str(f"{where}.house", spec.get("house", card.house if card else ""))
        if card is not None and card.house != house:
            raise CaseError(f"{where}.house: the succession lists {hid!r} in the house of {card.house}")
        escort = spec.get("with")
        if escort is not None and escort not in nobles:
            raise CaseError(f"{where}.with: unknown noble {escort!r}")
        place: str | None = None
        inside = True
        for key in ("at", "in"):
            if key in spec:
                place = as_str(f"{where}.{key}", spec[key])
                if place not in board.places:
                    raise CaseError(f"{where}.{key}: unknown place {place!r}")
                inside = key == "in"
        if escort is None and place is None:
            raise CaseError(f"{where}: the heir is nowhere (give `with`, `at` or `in`)")
        heirs[str(hid)] = Heir(
            str(hid),
            house,
            card.order if card else i + 1,
            as_bool(f"{where}.crowned", spec.get("crowned", False)),
            escort,
            place,
            inside if place is not None else True,
        )
    for card in cards.values():
        if card.noble is not None and card.noble in nobles and card.id not in heirs:
            heirs[card.id] = Heir(card.id, card.house, card.order, False, card.noble)
    return heirs


def captive_ids(st: dict[str, Any]) -> set[str]:
    return {
        str(k) for k in check_keys("state.captives", st.get("captives") or {}, set(st.get("captives") or {}))
    }


def finish(st: dict[str, Any], state: GameState) -> GameState:
    """The phase, options, captives and sieges, on the state the case built."""
    phase = as_str("state.phase", st.get("phase", DEFAULT_PHASE))
    if phase not in PHASES:
        raise CaseError(f"state.phase: unknown phase {phase!r}; expected one of {', '.join(PHASES)}")
    options: dict[str, str] = {}
    for k, v in check_keys("state.options", st.get("options") or {}, set(st.get("options") or {})).items():
        if v is not None:
            options[str(k)] = str(v).lower() if isinstance(v, bool) else str(v)
    nobles = dict(state.nobles)
    captivity: dict[str, Captivity] = {}
    for nid, spec in check_keys(
        "state.captives", st.get("captives") or {}, set(st.get("captives") or {})
    ).items():
        where = f"state.captives.{nid}"
        spec = check_keys(where, spec, CAPTIVE_KEYS)
        n = nobles.get(str(nid))
        if n is None:
            raise CaseError(f"{where}: unknown noble {nid!r} (list him under state.nobles, with no place)")
        if n.place is not None or n.aboard is not None:
            raise CaseError(f"state.nobles.{nid}: a captive is off the board: give no `in`, `at` or ship")
        by = as_str(f"{where}.by", spec.get("by"))
        if by not in state.turn_order or by == n.faction:
            raise CaseError(f"{where}.by: {by!r} is not another faction of this case")
        place = as_str(f"{where}.place", spec.get("place"))
        if place not in state.board.places:
            raise CaseError(f"{where}.place: unknown place {place!r}")
        nobles[n.id] = Noble(n.id, n.faction, n.troops, n.awards, None, False, None, by)
        captivity[n.id] = Captivity(place, state.round, state.turn)
    sieges: dict[str, Siege] = {}
    for i, spec in enumerate(as_list("state.sieges", st.get("sieges"))):
        where = f"state.sieges[{i}]"
        spec = check_keys(where, spec, SIEGE_KEYS)
        place = as_str(f"{where}.place", spec.get("place"))
        if place not in state.board.places:
            raise CaseError(f"{where}.place: unknown place {place!r}")
        besiegers = tuple(as_str(f"{where}.by", b) for b in as_list(f"{where}.by", spec.get("by")))
        if not besiegers:
            raise CaseError(f"{where}.by: name the besieging nobles")
        for b in besiegers:
            n = nobles.get(b)
            if n is None or n.place != place or n.inside:
                raise CaseError(f"{where}.by: {b!r} is not a noble in the open at {place}")
        faction = nobles[besiegers[0]].faction or ""  # the first named commands (the case's choice)
        sieges[place] = Siege(place, faction, tuple(sorted(besiegers)), state.round, state.turn, 0)
    state = state.evolve(
        phase=phase,
        options=FrozenDict(options),
        nobles=FrozenDict(nobles),
        captivity=FrozenDict(captivity),
        sieges=FrozenDict(sieges),
    )
    return parliament_case.sitting(st, parliament_case.with_votes(st, state))
