"""Build a board, a card set and a state from a conformance case (FORMAT.md)."""

from __future__ import annotations

from typing import Any

from kingmaker.rules.board import Board, Place, PlaceKind, Road, Sea, default_name
from kingmaker.rules.cards import Award, Catalog
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.seniority import choose_senior
from kingmaker.rules.state import (
    COMBAT,
    MOVEMENT,
    Alliance,
    Army,
    CoolingOff,
    GameState,
    Heir,
    Noble,
    OrderRecord,
    Permission,
    RandomSource,
    Ship,
)
from kingmaker.rules.units import fleet_nobles

from . import cards_case, case_full
from .schema import (
    ALLIANCE_KEYS,
    ARMY_KEYS,
    AWARD_KEYS,
    BOARD_KEYS,
    COOLING_KEYS,
    HEIR_KEYS,
    NOBLE_KEYS,
    ORDER_KEYS,
    PERMISSION_KEYS,
    PLACE_KEYS,
    SEA_KEYS,
    SHIP_KEYS,
    STATE_KEYS,
    CaseError,
    as_bool,
    as_int,
    as_list,
    as_str,
    check_keys,
)
from .schema_full import LATER_PLACE, NOBLE_KEYS_2, PLACE_KEYS_2, STATE_KEYS_2


def build_board(raw: Any, fmt: int = 1) -> Board:
    """The case's board; format 2 adds garrisons (by kind when absent), cathedrals,
    regions and places outside England (FULL_GAME §5)."""
    board = check_keys("board", raw, BOARD_KEYS)
    places: dict[str, Place] = {}
    for pid, spec in check_keys(
        "board.places", board.get("places") or {}, set(board.get("places") or {})
    ).items():
        where = f"board.places.{pid}"
        spec = check_keys(where, spec, PLACE_KEYS | (PLACE_KEYS_2 if fmt == 2 else set()))
        for key in sorted(LATER_PLACE & set(spec)):
            raise CaseError(f"{where}.{key}: not supported yet (new nobles entering play are issue 14)")
        try:
            kind = PlaceKind(as_str(f"{where}.kind", spec.get("kind")))
        except ValueError:
            raise CaseError(f"{where}.kind: unknown kind {spec.get('kind')!r}") from None
        cap = spec.get("capacity")
        port_seas = tuple(as_str(f"{where}.port", s) for s in as_list(f"{where}.port", spec.get("port")))
        garrison = spec.get("garrison")
        places[str(pid)] = Place(
            str(pid),
            default_name(str(pid)),
            kind,
            as_int(f"{where}.capacity", cap) if cap is not None else None,
            garrison=(
                as_int(f"{where}.garrison", garrison)
                if garrison is not None
                else case_full.GARRISONS.get(kind, 0)
                if fmt == 2
                else 0
            ),
            cathedral=as_bool(f"{where}.cathedral", spec.get("cathedral", False)),
            regions=tuple(
                as_str(f"{where}.regions", r) for r in as_list(f"{where}.regions", spec.get("regions"))
            ),
            seas=port_seas,
            offmap=not as_bool(f"{where}.england", spec.get("england", True)),
        )
    seas_raw = board.get("seas") or {}
    seas: dict[str, Sea] = {}
    for sid, spec in check_keys("board.seas", seas_raw, set(seas_raw)).items():
        spec = check_keys(f"board.seas.{sid}", spec or {}, SEA_KEYS)
        adj = tuple(
            as_str(f"board.seas.{sid}.adjacent", s)
            for s in as_list(f"board.seas.{sid}", spec.get("adjacent"))
        )
        seas[str(sid)] = Sea(str(sid), default_name(str(sid)), adj)
    roads = []
    for i, r in enumerate(as_list("board.roads", board.get("roads"))):
        seq = tuple(as_str(f"board.roads[{i}]", p) for p in as_list(f"board.roads[{i}]", r))
        roads.append(Road(f"road{i}", f"road {i}", seq))
    adjacent = []
    for i, pair in enumerate(as_list("board.adjacent", board.get("adjacent"))):
        pair = as_list(f"board.adjacent[{i}]", pair)
        if len(pair) != 2:
            raise CaseError(f"board.adjacent[{i}]: a pair needs two places")
        adjacent.append((as_str(f"board.adjacent[{i}]", pair[0]), as_str(f"board.adjacent[{i}]", pair[1])))
    for r in roads:
        for p in r.places:
            if p not in places:
                raise CaseError(f"board.roads: unknown place {p!r}")
    for a, b in adjacent:
        for p in (a, b):
            if p not in places:
                raise CaseError(f"board.adjacent: unknown place {p!r}")
    for place in places.values():
        for zone in place.seas:
            if zone not in seas:
                raise CaseError(f"board.places.{place.id}.port: unknown sea {zone!r}")
    for sea in seas.values():
        for n in sea.adjacent:
            if n not in seas:
                raise CaseError(f"board.seas.{sea.id}.adjacent: unknown sea {n!r}")
    return Board("case", FrozenDict(places), FrozenDict(seas), tuple(roads), tuple(adjacent))


def _position(where: str, spec: dict[str, Any], board: Board, *, ports: bool) -> tuple[str | None, bool]:
    if "in" in spec and "at" in spec:
        raise CaseError(f"{where}: give either `in` or `at`, not both")
    if "in" in spec:
        p = as_str(f"{where}.in", spec["in"])
        if p not in board.places:
            raise CaseError(f"{where}.in: unknown place {p!r}")
        return p, True
    if "at" in spec:
        p = as_str(f"{where}.at", spec["at"])
        if ports:
            if p not in board.seas:
                raise CaseError(f"{where}.at: unknown sea zone {p!r}")
        elif p not in board.places:
            raise CaseError(f"{where}.at: unknown place {p!r}")
        return p, False
    return None, False


def build_state(
    raw: Any, board: Board, case_id: str, fmt: int = 1, castles: dict[str, tuple[str, ...]] | None = None
) -> GameState:
    """The case's state; format 2 adds the full game's fields (``case_full``), with each
    noble card's castles from the board's ``castle_of`` (``case_full.castles``)."""
    st = check_keys("state", raw, STATE_KEYS | (STATE_KEYS_2 if fmt == 2 else set()))
    if fmt == 2:
        case_full.check_later(st)
    own = cards_case.catalog_entries(st.get("catalog")) if fmt == 2 else {}
    captives = case_full.captive_ids(st) if fmt == 2 else set()
    order = tuple(as_str("state.turn_order", f) for f in as_list("state.turn_order", st.get("turn_order")))
    if not order:
        raise CaseError("state.turn_order: at least one faction is needed")
    turn = as_str("state.turn", st.get("turn", order[0]))
    if turn not in order:
        raise CaseError(f"state.turn: {turn!r} is not in the turn order")
    rnd = as_int("state.round", st.get("round", 1))

    def faction(where: str, raw: Any) -> str:
        f = as_str(where, raw)
        if f not in order:
            raise CaseError(f"{where}: unknown faction {f!r}")
        return f

    control: dict[str, str] = {}
    for pid, f in check_keys("state.control", st.get("control") or {}, set(st.get("control") or {})).items():
        if pid not in board.places:
            raise CaseError(f"state.control: unknown place {pid!r}")
        if f is not None:
            control[str(pid)] = faction(f"state.control.{pid}", f)

    awards: dict[str, Award] = {}
    ranks = cards_case.catalog_ranks(st.get("catalog")) if fmt == 2 else {}
    nobles: dict[str, Noble] = {}
    for nid, spec in check_keys("state.nobles", st.get("nobles") or {}, set(st.get("nobles") or {})).items():
        where = f"state.nobles.{nid}"
        spec = check_keys(where, spec, NOBLE_KEYS | (NOBLE_KEYS_2 if fmt == 2 else set()))
        held = []
        for i, a in enumerate(as_list(f"{where}.awards", spec.get("awards"))):
            card = (
                cards_case.award(f"{where}.awards[{i}]", a, own)
                if fmt == 2
                else _award(f"{where}.awards[{i}]", a)
            )
            aid = card.id
            rank = cards_case.see_rank(a) if fmt == 2 else None
            if rank is not None:
                ranks[aid] = rank
            if aid in awards and awards[aid] != card:
                raise CaseError(f"{where}.awards[{i}]: award {aid!r} is given different troops elsewhere")
            awards[aid] = card
            held.append(aid)
        place, inside = _position(where, spec, board, ports=False)
        nobles[str(nid)] = Noble(
            str(nid),
            faction(f"{where}.faction", spec.get("faction")),
            as_int(f"{where}.troops", spec.get("troops", 0)),
            tuple(held),
            place,
            inside,
            None,
        )

    ships: dict[str, Ship] = {}
    for sid, spec in check_keys("state.ships", st.get("ships") or {}, set(st.get("ships") or {})).items():
        where = f"state.ships.{sid}"
        spec = check_keys(where, spec, SHIP_KEYS)
        place, in_port = _position(where, spec, board, ports=True)
        if place is None:
            raise CaseError(f"{where}: a ship is either `in` a port or `at` a sea zone")
        if in_port and not board.places[place].is_port:
            raise CaseError(f"{where}.in: {place!r} is not a port")
        passengers = tuple(
            as_str(f"{where}.passengers", p) for p in as_list(f"{where}.passengers", spec.get("passengers"))
        )
        for p in passengers:
            n = nobles.get(p)
            if n is None:
                raise CaseError(f"{where}.passengers: unknown noble {p!r}")
            if n.place is not None:
                raise CaseError(f"{where}.passengers: {p!r} is also `in` or `at` a place")
            nobles[p] = Noble(n.id, n.faction, n.troops, n.awards, None, False, str(sid))
        ships[str(sid)] = Ship(
            str(sid),
            faction(f"{where}.faction", spec.get("faction")),
            as_int(f"{where}.capacity", spec.get("capacity", 0)),
            place,
            in_port,
            as_bool(f"{where}.forced", spec.get("forced", False)),
            passengers,
        )
    for n in nobles.values():
        if n.place is None and n.aboard is None and n.id not in captives:
            raise CaseError(
                f"state.nobles.{n.id}: the noble is nowhere (give `in`, `at`, or a ship's passengers)"
            )

    heir_cards = cards_case.heir_cards(st.get("succession")) if fmt == 2 else {}
    heirs: dict[str, Heir] = {}
    for i, (hid, spec) in enumerate(
        check_keys("state.heirs", st.get("heirs") or {}, set(st.get("heirs") or {})).items()
        if fmt == 1
        else ()
    ):
        where = f"state.heirs.{hid}"
        spec = check_keys(where, spec, HEIR_KEYS)
        escort = spec.get("with")
        if escort is not None and escort not in nobles:
            raise CaseError(f"{where}.with: unknown noble {escort!r}")
        heirs[str(hid)] = Heir(
            str(hid),
            as_str(f"{where}.house", spec.get("house", "")),
            i + 1,
            as_bool(f"{where}.crowned", spec.get("crowned", False)),
            escort,
        )
    if fmt == 2:
        heirs = case_full.build_heirs(st, board, nobles, heir_cards)

    alliances: dict[str, Alliance] = {}
    for i, a in enumerate(as_list("state.alliances", st.get("alliances"))):
        where = f"state.alliances[{i}]"
        a = check_keys(where, a, ALLIANCE_KEYS)
        aid = as_str(f"{where}.id", a.get("id", f"alliance{i + 1}"))
        members = tuple(
            sorted(faction(f"{where}.members", m) for m in as_list(f"{where}.members", a.get("members")))
        )
        if len(members) < 2:
            raise CaseError(f"{where}.members: an alliance needs two or more factions")
        alliances[aid] = Alliance(aid, members, as_bool(f"{where}.public", a.get("public", False)), 1)

    cooling = []
    for i, c in enumerate(as_list("state.cooling_off", st.get("cooling_off"))):
        where = f"state.cooling_off[{i}]"
        c = check_keys(where, c, COOLING_KEYS)
        cooling.append(
            CoolingOff(
                faction(f"{where}.faction", c.get("faction")),
                tuple(
                    faction(f"{where}.former_allies", f)
                    for f in as_list(f"{where}.former_allies", c.get("former_allies"))
                ),
                as_int(f"{where}.until_round", c.get("until_round")),
                0,
            )
        )

    permissions = []
    for i, raw_permission in enumerate(as_list("state.permissions", st.get("permissions"))):
        where = f"state.permissions[{i}]"
        perm = check_keys(where, raw_permission, PERMISSION_KEYS)
        place = as_str(f"{where}.place", perm.get("place"))
        if place not in board.places:
            raise CaseError(f"{where}.place: unknown place {place!r}")
        permissions.append(
            Permission(
                faction(f"{where}.by", perm.get("by")),
                faction(f"{where}.to", perm.get("to")),
                place,
                tuple(
                    sorted(
                        as_str(f"{where}.aspects", x)
                        for x in as_list(f"{where}.aspects", perm.get("aspects"))
                    )
                ),
            )
        )

    orders = []
    for i, o in enumerate(as_list("state.orders_this_round", st.get("orders_this_round"))):
        where = f"state.orders_this_round[{i}]"
        o = check_keys(where, o, ORDER_KEYS)
        unit = as_str(f"{where}.unit", o.get("unit"))
        if unit not in nobles and unit not in ships:
            raise CaseError(f"{where}.unit: unknown unit {unit!r}")
        kind = as_str(f"{where}.kind", o.get("kind"))
        if kind not in (MOVEMENT, COMBAT):
            raise CaseError(f"{where}.kind: expected movement or combat, got {kind!r}")
        owner = nobles[unit].faction if unit in nobles else ships[unit].faction
        orders.append(
            OrderRecord(
                unit,
                kind,
                faction(f"{where}.turn_of", o.get("turn_of")),
                faction(f"{where}.by", o.get("by", owner)),
            )
        )

    catalog = Catalog(awards=FrozenDict(awards))
    full: dict[str, Any] = {}
    if fmt == 2:
        book = cards_case.CardBook(awards, own, cards_case.event_cards(st.get("cards")), ranks)
        for n in nobles.values():
            titled = as_bool(f"state.nobles.{n.id}.titled", (st["nobles"][n.id] or {}).get("titled", False))
            book.noble_card(n.id, n.troops, titled, ())
        full = case_full.deck_fields(st, book)
        book.with_castles(castles or {})
        catalog = book.catalog(heir_cards)
    state = GameState(
        board=board,
        catalog=catalog,
        turn_order=order,
        turn_index=order.index(turn),
        round=rnd,
        control=FrozenDict(control),
        nobles=FrozenDict(nobles),
        ships=FrozenDict(ships),
        heirs=FrozenDict(heirs),
        alliances=FrozenDict(alliances),
        permissions=tuple(permissions),
        cooling_off=tuple(cooling),
        orders=tuple(orders),
        rng=RandomSource(seed=f"conformance:{case_id}"),
        seq=1,
        **full,
    )
    armies: dict[str, Army] = {}
    rng = state.rng
    for aid, spec in check_keys("state.armies", st.get("armies") or {}, set(st.get("armies") or {})).items():
        where = f"state.armies.{aid}"
        spec = check_keys(where, spec, ARMY_KEYS)
        fleet = as_bool(f"{where}.fleet", spec.get("fleet", False))
        units = tuple(
            sorted(as_str(f"{where}.units", u) for u in as_list(f"{where}.units", spec.get("units")))
        )
        for u in units:
            if (u not in ships) if fleet else (u not in nobles):
                raise CaseError(f"{where}.units: unknown {'ship' if fleet else 'noble'} {u!r}")
        who = fleet_nobles(state, units) if fleet else units
        s = choose_senior(state, who, fleet, rng)
        rng = s.rng or rng
        armies[str(aid)] = Army(str(aid), units, fleet, s.senior, s.rule, s.explanation)
    state = state.evolve(armies=FrozenDict(armies), rng=rng)
    return case_full.finish(st, state) if fmt == 2 else state


def _award(where: str, raw: Any) -> Award:
    """A format-1 award: ``id``, ``troops`` and ``regional`` (R9)."""
    a = check_keys(where, raw, AWARD_KEYS)
    aid = as_str(f"{where}.id", a.get("id"))
    regional = tuple(
        (str(k), as_int(f"{where}.regional.{k}", v))
        for k, v in sorted(
            check_keys(f"{where}.regional", a.get("regional") or {}, set(a.get("regional") or {})).items()
        )
    )
    return Award(
        aid, default_name(aid), troops=as_int(f"{where}.troops", a.get("troops", 0)), regional=regional
    )
