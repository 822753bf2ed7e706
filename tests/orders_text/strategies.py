"""Hypothesis strategies: game states from random play on the default data, and commands
of every kind made from a state's own units, places, factions and ids."""

from __future__ import annotations

import functools
from collections.abc import Callable

from hypothesis import strategies as st

from kingmaker.data import load_dataset
from kingmaker.rules import commands as c
from kingmaker.rules import ids
from kingmaker.rules.choices import proposal_id, summons_id
from kingmaker.rules.deal import new_game
from kingmaker.rules.queries import legal_destinations
from kingmaker.rules.state import GameState
from kingmaker.simulation import random_play

Draw = Callable[..., object]


@functools.cache
def played_states() -> tuple[GameState, ...]:
    """States of a few random games on new default games (every 40th step): four
    without phases, two with (the full game: phases, hands, decks)."""
    ds = load_dataset()
    out: list[GameState] = []
    for seed in range(6):
        factions = ds.setup.faction_ids(3 + seed % 3)
        game = new_game(
            ds.board, ds.catalog, factions, f"orders-text-{seed}", removed=ds.setup.removed, full_game=seed >= 4
        )
        out.append(game)
        for i, p in enumerate(random_play(game, 320, seed)):
            if i % 40 == 39:
                out.append(p.state)
    return tuple(out)


# A new id, as the rules take ids (kingmaker.rules.limits): lower case letters, digits,
# "-" and "_" (the reader lower-cases what players type: see test_limits.py).
new_ids = st.from_regex(r"[a-z0-9][a-z0-9_\-]{0,10}", fullmatch=True)
request_ids = st.none() | new_ids


def _walk(draw: Draw, links: dict[str, tuple[str, ...]], start: str, longest: int) -> tuple[str, ...]:
    path = [start]
    for _ in range(draw(st.integers(0, longest))):
        nxt = links.get(path[-1], ())
        if not nxt:
            break
        path.append(draw(st.sampled_from(nxt)))  # type: ignore[arg-type]
    return tuple(path)


@st.composite
def commands(draw: Draw, state: GameState) -> c.Command:
    board, cat = state.board, state.catalog
    factions = list(state.turn_order)
    faction = draw(st.sampled_from(factions))
    places = sorted(board.places)
    seas = sorted(board.seas)
    ports = sorted(p for p in places if board.places[p].is_port)
    nobles = sorted(state.nobles) or sorted(cat.nobles)
    all_nobles = sorted(set(nobles) | set(cat.nobles) - set(cat.removed))
    armies = sorted(a.id for a in state.armies.values() if not a.fleet)
    fleets = sorted(a.id for a in state.armies.values() if a.fleet)
    ships = sorted(state.ships) or sorted(cat.ships)
    land_units = nobles + armies
    place = st.sampled_from(places)
    noble = st.sampled_from(all_nobles)
    kind = draw(
        st.sampled_from(
            [
                "move_road", "move", "enter", "leave", "embark", "disembark", "sail", "siege",
                "attack", "defend", "form_army", "confirm", "reject", "declare", "answer",
                "deadline", "leave_alliance", "grant", "revoke", "storm", "set_control",
                "random", "end_turn", "reveal_seed", "kill", "capture", "release", "move_heir",
                "resolve", "expire", "battle", "siege_assault", "draw_event", "end_phase",
                "capture_heir", "choose_port", "play_card", "ransom", "release_captive", "execute",
                "draw_crown", "assign", "enter_play", "crown", "summon_parliament", "attend", "propose",
                "vote", "close_parliament",
            ]
        )
    )  # fmt: skip
    if kind == "move_road":
        unit = draw(st.sampled_from(land_units))
        dests = legal_destinations(state, unit).places
        if dests and draw(st.booleans()):
            path = draw(st.sampled_from(dests)).path
        else:
            path = _walk(draw, dict(board.road_order), draw(place), 5)
        return c.MoveRoad(faction, unit, path, draw(st.booleans()), draw(request_ids))
    if kind == "move":
        unit = draw(st.sampled_from(land_units))
        return c.Move(faction, unit, draw(place), draw(st.booleans()), draw(request_ids))
    if kind in ("enter", "leave"):
        make = c.Enter if kind == "enter" else c.Leave
        return make(faction, draw(st.sampled_from(land_units)), draw(request_ids))
    if kind == "embark":
        who = tuple(draw(st.lists(st.sampled_from(nobles), max_size=3)))
        return c.Embark(faction, draw(st.sampled_from(ships)), who, draw(request_ids))
    if kind == "disembark":
        who = tuple(draw(st.lists(st.sampled_from(nobles), max_size=3)))
        return c.Disembark(
            faction, draw(st.sampled_from(ships)), who, draw(st.sampled_from(ports)), draw(st.booleans()),
            draw(request_ids),
        )  # fmt: skip
    if kind == "sail":
        ship = draw(st.sampled_from(ships + fleets))
        waters = legal_destinations(state, ship).waters
        if waters and draw(st.booleans()):
            d = draw(st.sampled_from(waters))
            return c.Sail(faction, ship, d.place, d.path[1:-1], draw(request_ids))
        via = _walk(draw, dict(board.sea_order), draw(st.sampled_from(seas)), 3)[: draw(st.integers(0, 3))]
        to = draw(st.sampled_from(seas + ports))
        return c.Sail(faction, ship, to, via, draw(request_ids))
    if kind == "siege":
        return c.Siege(faction, draw(st.sampled_from(land_units)), draw(place), draw(request_ids))
    if kind == "attack":
        sally = tuple(draw(st.lists(st.sampled_from(nobles), max_size=2))) if draw(st.booleans()) else ()
        return c.Attack(
            faction,
            draw(st.sampled_from(land_units)),
            draw(st.sampled_from(land_units)),
            draw(request_ids),
            sally,
        )
    if kind == "defend":
        return c.Defend(faction, draw(st.sampled_from(nobles)), draw(st.sampled_from(nobles)))
    if kind == "form_army":
        fleet = draw(st.booleans())
        units = tuple(draw(st.lists(st.sampled_from(ships if fleet else nobles), min_size=1, max_size=3)))
        return c.FormArmy(faction, draw(new_ids), units, fleet)
    if kind in ("confirm", "reject", "expire"):
        known = sorted(set(state.requests) | set(state.closed))
        rid = draw(st.sampled_from(known)) if known else None
        if rid is None:
            return c.EndTurn(c.GM)
        if kind == "expire":
            return c.Expire(c.GM, rid)
        return (c.Confirm if kind == "confirm" else c.Reject)(faction, rid)
    if kind == "declare":
        others = draw(st.lists(st.sampled_from(factions), min_size=1, max_size=3))
        return c.DeclareAlliance(faction, draw(new_ids), tuple(others))
    if kind in ("answer", "deadline", "leave_alliance"):
        pool = sorted(state.declarations) if kind != "leave_alliance" else sorted(state.alliances)
        if kind == "answer":
            pool = sorted(set(state.declarations) | set(state.alliances))
        if not pool:
            return c.RevealSeed(c.GM)
        ident = draw(st.sampled_from(pool))
        if kind == "answer":
            return c.AnswerAlliance(faction, ident, draw(st.booleans()))
        if kind == "deadline":
            return c.Deadline(c.GM, ident)
        return c.LeaveAlliance(faction, ident)
    if kind in ("grant", "revoke"):
        low = 1 if kind == "grant" else 0
        aspects = tuple(draw(st.lists(st.sampled_from(ids.GRANTABLE), min_size=low, max_size=3)))
        make = c.Grant if kind == "grant" else c.Revoke
        return make(faction, draw(st.sampled_from(factions)), draw(place), aspects)
    if kind == "storm":
        return c.Storm(c.GM, draw(st.sampled_from(ships)), draw(place))
    if kind == "set_control":
        return c.SetControl(c.GM, draw(place), draw(st.none() | st.sampled_from(factions)))
    if kind == "random":
        return c.InjectRandom(c.GM, tuple(draw(st.lists(st.integers(-3, 10**6), max_size=4))))
    if kind == "end_turn":
        return c.EndTurn(c.GM)
    if kind == "reveal_seed":
        return c.RevealSeed(c.GM)
    if kind == "kill":
        return c.Kill(c.GM, draw(noble))
    if kind == "capture":
        return c.Capture(c.GM, draw(noble), draw(st.sampled_from(factions)))
    if kind == "release":
        return c.Release(c.GM, draw(noble), draw(place), draw(st.booleans()))
    if kind == "move_heir":
        heir = draw(st.sampled_from(sorted(cat.heirs)))
        if draw(st.booleans()):
            return c.MoveHeir(c.GM, heir, with_noble=draw(noble), inside=draw(st.booleans()))
        return c.MoveHeir(c.GM, heir, place=draw(place), inside=draw(st.booleans()))
    if kind == "resolve":
        if not state.combats:
            return c.EndTurn(c.GM)
        summary = draw(st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp")), max_size=30))
        return c.ResolveCombat(c.GM, draw(st.sampled_from(state.combats)).id, summary.strip())
    return _full_game(draw, state, kind, faction)


def _cards(state: GameState) -> list[str]:
    cat = state.catalog
    return sorted({*cat.awards, *cat.events, *cat.ships, *(x for hand in state.hands.values() for x in hand)})


def _full_game(draw: Draw, state: GameState, kind: str, faction: str) -> c.Command:
    """Commands of the full game (FULL_GAME 3.2-3.6)."""
    cat = state.catalog
    nobles = sorted(state.nobles) or sorted(cat.nobles)
    noble = st.sampled_from(nobles)
    heirs = sorted(cat.heirs)
    places = sorted(state.board.places)
    if kind == "battle":
        attacks = [x.id for x in state.combats]
        return c.Battle(c.GM, draw(st.sampled_from(attacks))) if attacks else c.EndPhase(c.GM)
    if kind == "siege_assault":
        return c.SiegeAssault(c.GM, draw(st.sampled_from(sorted(state.sieges) or places)))
    if kind == "draw_event":
        return c.DrawEvent(c.GM, draw(request_ids))
    if kind == "end_phase":
        return c.EndPhase(c.GM)
    if kind == "capture_heir":
        return c.CaptureHeir(faction, draw(noble), draw(st.sampled_from(heirs)))
    if kind == "choose_port":
        ports = sorted(p for p in places if state.board.places[p].is_port)
        ships = sorted(state.ships) or sorted(cat.ships)
        return c.ChoosePort(faction, draw(st.sampled_from(ships)), draw(st.sampled_from(ports)))
    if kind == "play_card":
        unit = draw(st.sampled_from(nobles + sorted(state.ships) + sorted(state.armies)))
        return c.PlayCard(faction, draw(st.sampled_from(_cards(state))), unit)
    if kind == "release_captive":
        return c.ReleaseCaptive(faction, draw(noble))
    if kind == "execute":
        if draw(st.booleans()):
            return c.Execute(faction, captive=draw(noble))
        return c.Execute(faction, heir=draw(st.sampled_from(heirs)))
    if kind in _CROWN_AND_PARLIAMENT:
        return _crown_and_parliament(draw, state, kind, faction)
    assert kind == "ransom", kind
    parties = st.sampled_from(list(state.turn_order))
    give = draw(
        st.lists(
            st.builds(
                c.Consideration,
                parties,
                st.lists(st.sampled_from(_cards(state)), max_size=2).map(tuple),
                st.lists(st.sampled_from(heirs), max_size=1).map(tuple),
            ),
            max_size=2,
        )
    )
    words = st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp")), max_size=30)
    note = " ".join(draw(words).split())
    captive = draw(noble) if draw(st.integers(0, 4)) else draw(st.sampled_from(heirs))
    return c.Ransom(faction, draw(new_ids), captive, tuple(give), note)


_CROWN_AND_PARLIAMENT = frozenset(
    {"draw_crown", "assign", "enter_play", "crown", "summon_parliament", "attend", "propose", "vote", "close_parliament"}
)


def _crown_and_parliament(draw: Draw, state: GameState, kind: str, faction: str) -> c.Command:
    """Commands of the Crown's cards, coronation and Parliament (FULL_GAME 3.7-3.9)."""
    cat = state.catalog
    nobles = sorted(state.nobles) or sorted(cat.nobles)
    heirs = sorted(cat.heirs)
    places = sorted(state.board.places)
    if kind == "draw_crown":
        return c.DrawCrown(c.GM)
    if kind == "assign":
        return c.Assign(faction, draw(st.sampled_from(_cards(state))), draw(st.sampled_from(nobles)))
    if kind == "enter_play":
        noble = draw(st.sampled_from(sorted(set(cat.nobles) - set(cat.removed))))
        castles = list(cat.nobles[noble].castles)
        return c.EnterPlay(faction, noble, draw(st.sampled_from(castles + places[:5])))
    if kind == "crown":
        return c.Crown(faction, draw(st.sampled_from(heirs)))
    if kind == "summon_parliament":
        ident = draw(st.sampled_from([summons_id(state, faction)]) | new_ids)
        return c.SummonParliament(faction, ident, draw(st.sampled_from(places)))
    if kind == "attend":
        return c.Attend(faction, tuple(draw(st.lists(st.sampled_from(nobles), max_size=3))))
    if kind == "propose":
        ident = draw(st.sampled_from([proposal_id(state)]) | new_ids)
        what = draw(st.sampled_from(["award", "sole_king", "victory"]))
        if what == "award":
            cards = sorted(state.chancery) or _cards(state)
            return c.Propose(faction, ident, draw(st.sampled_from(cards)), draw(st.sampled_from(nobles)))
        if what == "sole_king":
            return c.Propose(faction, ident, motion="sole_king", heir=draw(st.sampled_from(heirs)))
        return c.Propose(faction, ident, motion="victory")
    if kind == "vote":
        sitting = state.parliament
        known = [p.id for p in sitting.proposals] if sitting is not None else []
        if sitting is not None and not known:  # nothing to name yet (an unknown id reads as one)
            return c.CloseParliament(faction)
        proposal = draw(st.sampled_from(known)) if known else draw(new_ids)
        stance = st.sampled_from(["for", "against", "abstain"])
        return c.Vote(faction, proposal, draw(stance), draw(stance))
    assert kind == "close_parliament", kind
    return c.CloseParliament(draw(st.sampled_from([faction, c.GM])))
