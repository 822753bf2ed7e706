"""The map a GM posts (issue 15 §10): 1600 pixels wide; every place named, no two labels
overlapping, none leaving the picture, none on a place's symbol or on the caption or
legend; every noble, army, ship and heir a counter, sieges told; a caption; and only what
its reader may see.

The layout is tested from the boxes ``labels.place`` computed (``ForumMap.labels``); the
text is checked against the font as Pillow draws it, so a box holds what is drawn in it;
the PNG is opened to check its size."""

from __future__ import annotations

import dataclasses
import io
import math
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageFont

from kingmaker.data import load_dataset
from kingmaker.render.map import Styles
from kingmaker.render.map.forum import (
    FORUM_WIDTH,
    SCALE,
    SYMBOL_RADIUS,
    ForumMap,
    forum_map,
    forum_png,
    heir_label,
    overlapping,
)
from kingmaker.render.map.labels import Placed, segment_hits_box
from kingmaker.render.map.metrics import Box
from kingmaker.render.map.posting import posted_map
from kingmaker.render.map.svg import svg
from kingmaker.render.reports import catch_up, reports_for
from kingmaker.rules import commands as rc
from kingmaker.rules.deal import new_game
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.state import GameState
from kingmaker.rules.views import PUBLIC, view
from kingmaker.service import GM_ACTOR, FixedClock, player
from kingmaker.service.commands import CreateGame, Submit
from kingmaker.service.errors import ServiceError
from kingmaker.service.game_service import GameService
from kingmaker.simulation_full import FullGamePlayer
from kingmaker.storage.memory import MemoryStore
from tests.reports import scenario, scenario_full
from tests.reports.test_leaks import Secrets
from tests.reports.test_leaks_full import searchable, secret_cards, shown_to

FONTS = Path("/usr/share/fonts/truetype/dejavu")


@cache
def _full() -> scenario_full.Played:
    return scenario_full.play()


@cache
def _classic() -> scenario.Played:
    return scenario.play()


def _styles(svc: GameService, game: str) -> Styles:
    return Styles.of(svc.settings(game).factions)


def _positions() -> Iterator[tuple[str, GameState, Styles]]:
    ds = load_dataset()
    for n in (2, 4, 6):
        fs = ("red", "blue", "green", "gold", "white", "black")[:n]
        yield f"deal-{n}", new_game(ds.board, ds.catalog, fs, f"seed-{n}"), Styles({}, {})
    full = _full()
    yield "full-end", full.service.state(full.game), _styles(full.service, full.game)
    classic = _classic()
    yield "classic-end", classic.service.state(classic.game), _styles(classic.service, classic.game)


@cache
def _maps() -> dict[str, tuple[GameState, ForumMap]]:
    out = {}
    for name, state, styles in _positions():
        out[name] = (state, forum_map(state.board, state.catalog, view(state, PUBLIC), styles, caption=name))
    full = _full()
    svc = full.service
    tl = svc.report_inputs(full.game).timeline
    seq = full.moments["storm"]  # Goodrich under siege, Grace Dieu at sea waiting for its port
    state = tl.state_after(seq)
    out["full-siege"] = (
        state,
        forum_map(state.board, state.catalog, view(state, PUBLIC), _styles(svc, full.game), caption="siege"),
    )
    seq = full.moments["ransom offered"]  # Mowbray held by Blue
    state = tl.state_after(seq)
    out["full-captive"] = (
        state,
        forum_map(
            state.board, state.catalog, view(state, "gold"), _styles(svc, full.game), caption="captive"
        ),
    )
    return out


MAPS = ["deal-2", "deal-4", "deal-6", "full-end", "classic-end", "full-siege", "full-captive"]


def _symbols(state: GameState, fm: ForumMap) -> dict[str, Box]:
    """Each place's symbol as the layout keeps clear of it."""
    from kingmaker.render.map.forum import forum_geometry

    geo = forum_geometry(state.board)
    out = {}
    for pid, (x, y) in geo.places.items():
        r = SYMBOL_RADIUS[state.board.places[pid].kind]
        out[pid] = Box(x - r, y - r, x + r, y + r)
    return out


@pytest.mark.parametrize("name", MAPS)
def test_every_place_named_once_and_no_label_overlaps_another(name: str) -> None:
    state, fm = _maps()[name]
    keys = [pl.key for pl in fm.labels]
    assert len(keys) == len(set(keys))
    located = {p.id for p in state.board.places.values() if p.lon is not None and p.lat is not None}
    assert {k.split(":", 1)[1] for k in keys if k.startswith("place:")} == located
    assert {k.split(":", 1)[1] for k in keys if k.startswith("sea:")} == set(state.board.seas)
    assert overlapping(fm.labels) == []
    # brute force, without the helper: no two boxes share any area
    boxes = [pl.box for pl in fm.labels]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not (a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1), (a, b)


@pytest.mark.parametrize("name", MAPS)
def test_no_label_leaves_the_picture_or_covers_a_symbol_or_a_panel(name: str) -> None:
    state, fm = _maps()[name]
    assert fm.bounds == Box(0, 0, fm.model.width, fm.model.height)
    symbols = _symbols(state, fm)
    for pl in fm.labels:
        assert pl.box.inside(fm.bounds), pl
        for panel in fm.panels:
            assert not pl.box.overlaps(panel), (pl.key, panel)
        for pid, sym in symbols.items():
            assert not pl.box.overlaps(sym), (pl.key, pid)
    for i, panel in enumerate(fm.panels):  # the caption, the legend (and the crowded places)
        assert panel.inside(fm.bounds)
        assert not any(panel.overlaps(other) for other in fm.panels[i + 1 :])
        assert not any(panel.overlaps(sym) for sym in symbols.values())


def _length(pl: Placed) -> float:
    assert pl.leader is not None
    (x0, y0), (x1, y1) = pl.leader
    return math.hypot(x1 - x0, y1 - y0)


@pytest.mark.parametrize("name", MAPS)
def test_a_label_away_from_its_place_has_a_leader_that_crosses_no_other_label(name: str) -> None:
    _, fm = _maps()[name]
    for pl in fm.labels:
        near = _gap(pl.at, pl.box)
        if pl.leader is None:
            # beside its point (a sea's name may stand off its zone's middle)
            assert near <= 16 or pl.key.startswith("sea:"), (pl.key, near)
            continue
        start, end = pl.leader
        assert math.dist(start, pl.at) <= 15, pl.key  # from the edge of its symbol
        assert _gap(end, pl.box) < 0.2, pl.key  # to the edge of its box
        for other in fm.labels:
            if other.key != pl.key:
                assert not segment_hits_box(pl.leader, other.box), (pl.key, other.key)
    leaders = [pl for pl in fm.labels if pl.leader]
    assert len(leaders) < len(fm.labels) / 4  # most labels stand beside their place


def _gap(p: tuple[float, float], b: Box) -> float:
    q = (min(max(p[0], b.x0), b.x1), min(max(p[1], b.y0), b.y1))
    return math.dist(p, q)


def test_the_neighbours_the_issue_names_are_apart_and_beside_their_places() -> None:
    _, fm = _maps()["deal-4"]
    by = {pl.key: pl for pl in fm.labels}
    for a, b in (("beaumaris", "conway"), ("great_yarmouth", "norwich"), ("bangor", "beaumaris")):
        pa, pb = by[f"place:{a}"], by[f"place:{b}"]
        assert not pa.box.overlaps(pb.box)
        for pl in (pa, pb):
            assert pl.leader is not None or _gap(pl.at, pl.box) <= 12, pl.key
    # Cornwall is in the picture, with its names
    for place in ("st_michaels_mount", "launceston", "bodmin", "truro", "fowey"):
        assert by[f"place:{place}"].box.inside(fm.bounds)


def _ink(text: str, size: float, bold: bool, italic: bool) -> tuple[float, float, float, float]:
    """The ink box of ``text`` (left, top, right, bottom from its baseline's start) at
    ``size`` in the PNG's pixels, as Pillow draws it (measured at ten times the size:
    Pillow's sizes are whole pixels)."""
    style = "-BoldOblique" if bold and italic else "-Bold" if bold else "-Oblique" if italic else ""
    font = ImageFont.truetype(str(FONTS / f"DejaVuSans{style}.ttf"), round(size * SCALE * 10))
    left, top, right, bottom = font.getbbox(text, anchor="ls")
    return left / 10, top / 10, right / 10, bottom / 10


@pytest.mark.skipif(not (FONTS / "DejaVuSans.ttf").exists(), reason="DejaVu Sans is not installed")
@pytest.mark.parametrize("name", ["deal-6", "full-siege", "classic-end"])
def test_every_text_drawn_stays_in_its_label_box(name: str) -> None:
    """The widths the layout counts with are the font's: each name and each counter's
    text, measured as Pillow draws it at the PNG's size, stays inside its label's box."""
    _, fm = _maps()[name]
    boxes = [pl.box for pl in fm.labels]
    groups = {g.cls: g for g in fm.model.groups}
    checked = 0
    for cls in ("names", "counters"):
        for s in groups[cls].shapes:
            if s.kind != "text":
                continue
            x, y = s.points[0]
            home = [b for b in boxes if b.x0 - 0.01 <= x <= b.x1 and b.y0 <= y <= b.y1]
            assert len(home) == 1, (s.text, home)
            b = home[0]
            left, top, right, bottom = _ink(s.text, s.size, s.bold, s.italic)
            slack = 1.0
            assert x * SCALE + left >= b.x0 * SCALE - slack, (s.text, "left")
            assert x * SCALE + right <= b.x1 * SCALE + slack, (s.text, "right")
            assert y * SCALE + top >= b.y0 * SCALE - slack, (s.text, "top")
            assert y * SCALE + bottom <= b.y1 * SCALE + slack, (s.text, "bottom")
            checked += 1
    assert checked > 190


def test_the_png_is_1600_pixels_wide() -> None:
    _, fm = _maps()["full-siege"]
    data = forum_png(fm)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.width == FORUM_WIDTH == 1600
    assert img.height == round(fm.model.height * SCALE)
    # Cornwall's tip is inside: the picture is taller than it is wide, to the last place
    assert img.height > img.width


def _texts(fm: ForumMap) -> str:
    return "\n".join(s.text for g in fm.model.groups for s in g.shapes if s.kind == "text")


def test_every_noble_army_ship_heir_and_siege_is_a_labelled_counter() -> None:
    state, fm = _maps()["full-siege"]
    v = view(state, PUBLIC)
    counters = [t for texts in fm.contents.values() for t in texts[1:]]
    on_board = [n for n in v.nobles if n.place is not None and n.aboard is None and n.captive_of is None]
    named = state.catalog.name_of
    for n in on_board:
        assert sum(named(n.id) in c for c in counters) >= 1, n.id
    for ship in v.ships:
        assert sum(c.startswith("\u2693 " + named(ship.id)) for c in counters) == 1, ship.id
    for h in v.heirs:
        if h.place is not None or h.with_noble is not None:
            assert any(heir_label(named(h.id), h.house, h.order) in c for c in counters), h.id
    assert v.sieges
    for siege in v.sieges:
        here = fm.contents[f"place:{siege.place}"]
        assert "\u2694 besieged by Red" in here and "Talbot" in " ".join(here) and "Herbert" in " ".join(here)
    # Grace Dieu at sea, under its sea's name
    assert fm.contents["sea:english_channel"][1:] == ("\u2693 Grace Dieu",)
    text = _texts(fm)
    assert "siege" in text and "Legend" in text and "The public map: what every player may see." in text


def test_an_army_is_one_counter_naming_its_nobles_senior_first() -> None:
    state, fm = _maps()["classic-end"]
    armies = [a for a in view(state, PUBLIC).armies if not a.fleet]
    assert armies
    for a in armies:
        names = [state.catalog.name_of(u) for u in a.units]
        senior = state.catalog.name_of(a.senior or a.units[0])
        counters = [c for texts in fm.contents.values() for c in texts[1:] if c.startswith("\u2694 ")]
        mine = [c for c in counters if all(n in c for n in names)]
        assert len(mine) == 1 and mine[0].startswith(f"\u2694 {senior}"), (counters, names)
        for n in names:  # and no noble of it has a counter of his own
            assert not any(c == n or c == f"{n}" for texts in fm.contents.values() for c in texts[1:])


def test_captives_are_listed_in_the_legend() -> None:
    _, fm = _maps()["full-captive"]
    text = _texts(fm)
    assert "Held captive" in text and "Mowbray (held by Blue)" in text
    assert "Gold's map: what Gold may see." in text


def test_the_posted_map_after_a_turn_is_captioned_and_drawn_from_that_turns_view() -> None:
    full = _full()
    inputs = full.service.report_inputs(full.game)
    tl = inputs.timeline
    turn = tl.turns()[1]
    fm = posted_map(inputs, PUBLIC, turn)
    assert fm.model.title == "Towton: round 1, after Blue's turn"
    state = tl.state_at_end_of(turn)
    again = forum_map(
        state.board,
        state.catalog,
        view(state, PUBLIC),
        _styles(full.service, full.game),
        caption=fm.model.title,
    )
    assert svg(fm.model) == svg(again.model)
    last = [t for t in tl.turns() if tl.is_over(t)][-1]
    default = posted_map(inputs, PUBLIC).model.title
    assert default == f"Towton: round {last[0]}, after {last[1].capitalize()}'s turn"
    now = posted_map(inputs, "blue", now=True)
    assert "to play" in now.model.title and "Blue's map" in _texts(now)
    with pytest.raises(KeyError):
        posted_map(inputs, PUBLIC, (9, "red"))


def test_no_map_shows_a_reader_what_it_may_not_see() -> None:
    """Random full games: after every turn, each faction's and the public's map (its
    SVG: every word drawn) names no card the reader was never shown (others' hands, the
    decks, the Chancery), no secret alliance or request id."""
    rnd = random.Random(5)
    svc = GameService(MemoryStore(), FixedClock())
    seed = f"seed-{rnd.getrandbits(64):016x}"
    svc.execute(GM_ACTOR, CreateGame("Map walk", ("red", "blue", "green", "gold"), seed=seed, game_id="m"))
    reports = reports_for(svc, "m")
    secrets = Secrets(seed)
    names = searchable(svc.state("m"))
    fp = FullGamePlayer(2, end_phase_weight=2)
    styles = _styles(svc, "m")
    looked = 0
    for _ in range(200):
        cmd = fp.command(svc.state("m"))
        try:
            svc.execute(GM_ACTOR if cmd.by == rc.GM else player(cmd.by), Submit("m", cmd))
        except ServiceError:
            continue
        head = reports.timeline.head
        catch_up(reports, svc, "m")
        new = [e for e in reports.timeline.envelopes if e.seq > head]
        for env in new:
            secrets.learn(env, reports)
        if not any(e.event.kind == "turn_ended" for e in new):
            continue
        state = svc.state("m")
        for viewer in ("red", "blue", "green", "gold", PUBLIC):
            shown = shown_to(reports, state, viewer)
            hidden = {c for c in secret_cards(state, viewer, shown) if c in names}
            ids, _ = secrets.forbidden(viewer)
            text = svg(forum_map(state.board, state.catalog, view(state, viewer), styles, caption="x").model)
            for card in hidden:
                assert names[card] not in text, (viewer, names[card])
            for secret in ids - shown:
                assert secret not in text, (viewer, secret)
            looked += 1
        if state.game_over:
            break
    assert looked >= 10


def test_a_stack_with_no_room_near_its_place_goes_to_the_panel_of_crowded_places() -> None:
    """Nine nobles in Kenilworth, in the crowded Midlands: the stack is too big to stand
    near it, so Kenilworth's label says "see 1" and the panel lists them, numbered; no
    label overlaps the panel."""
    ds = load_dataset()
    state = new_game(ds.board, ds.catalog, ("red", "blue", "green", "gold"), "crowd")
    movers = sorted(n for n, x in state.nobles.items() if x.place is not None and x.aboard is None)[:9]
    nobles = {
        nid: (dataclasses.replace(n, place="kenilworth", inside=True) if nid in movers else n)
        for nid, n in state.nobles.items()
    }
    state = dataclasses.replace(state, nobles=FrozenDict(nobles))
    fm = forum_map(state.board, state.catalog, view(state, PUBLIC), Styles({}, {}), caption="crowd")
    assert fm.crowded == ("place:kenilworth",)
    assert fm.contents["place:kenilworth"][0] == "Kenilworth"
    here = fm.contents["place:kenilworth"][1:]
    for n in movers:  # a counter each (Beaufort's says he is an heir too: "Beaufort (L4)")
        assert (
            sum(
                c.startswith(state.catalog.name_of(n)) or c.startswith("\u2654 " + state.catalog.name_of(n))
                for c in here
            )
            == 1
        ), n
    label = next(pl for pl in fm.labels if pl.key == "place:kenilworth")
    assert _gap(label.at, label.box) <= 12 or label.leader is not None
    texts = _texts(fm)
    assert "\u2192 see 1" in texts and "1  Kenilworth" in texts and "Crowded places" in texts
    panel = fm.panels[-1]
    assert len(fm.panels) == 3 and all(not pl.box.overlaps(panel) for pl in fm.labels)
    assert overlapping(fm.labels) == []
