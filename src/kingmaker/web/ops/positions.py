"""Positions: what a viewer may see of the game now (``view(state, viewer)``), as the
API's model, as the map, and as the map to post (after a turn, or now)."""

from __future__ import annotations

import dataclasses
from typing import Any

from kingmaker.render.map import MapModel, build_map
from kingmaker.render.map.forum import forum_png as png_of
from kingmaker.render.map.posting import posted_map
from kingmaker.rules.records import to_data
from kingmaker.rules.views import View, view
from kingmaker.service import Actor, NotFound

from .. import schemas as s
from .orders import units
from .site import Site


def position(site: Site, actor: Actor, game: str, faction: str | None = None) -> View:
    """The position as ``faction`` (default: the actor's own view) sees it."""
    return view(site.svc.state(game), site.viewer(actor, game, faction))


def view_out(site: Site, actor: Actor, game: str, faction: str | None = None) -> s.ViewOut:
    state = site.svc.state(game)  # read once: the view and the names of one state
    v = view(state, site.viewer(actor, game, faction))
    cat = state.catalog
    return s.ViewOut(
        viewer=v.viewer,
        round=v.round,
        turn=v.turn,
        turn_order=list(v.turn_order),
        control=dict(v.control),
        nobles=[s.NobleOut(**_plain(n), name=cat.name_of(n.id)) for n in v.nobles],
        ships=[s.ShipOut(**_plain(x), name=cat.name_of(x.id)) for x in v.ships],
        heirs=[s.HeirOut(**_plain(h), name=cat.name_of(h.id)) for h in v.heirs],
        armies=[
            s.ArmyOut(id=a.id, units=list(a.units), fleet=a.fleet, senior=a.senior, senior_rule=a.senior_rule)
            for a in v.armies
        ],
        alliances=[s.AllianceOut(id=a.id, members=list(a.members), public=a.public) for a in v.alliances],
        declarations=[s.DeclarationOut(**_plain(d)) for d in v.declarations],
        requests=[
            s.RequestOut(
                id=r.id,
                rule=r.rule,
                by=r.by,
                command=to_data(r.command),
                awaiting=list(r.awaiting),
                turn_of=r.turn_of,
                round=r.round,
            )
            for r in v.requests
        ],
        permissions=[s.PermissionOut(**_plain(p)) for p in v.permissions],
        combats=[s.CombatOut(**_plain(c)) for c in v.combats],
        seed_commitment=v.seed_commitment,
        seed=v.seed,
    )


def map_model(
    site: Site, actor: Actor, game: str, faction: str | None = None, *, selectable: bool = True
) -> MapModel:
    """The map as ``faction`` (default: the actor's own view) sees it."""
    state = site.svc.state(game)
    v = position(site, actor, game, faction)
    pick = [u.id for u in units(site, actor, game)] if selectable and not actor.is_gm else []
    styles = site.styles(game)
    title = f"{site.svc.require_game(game).name}: round {v.round}, {styles.name(v.turn)} to play"
    return build_map(
        state.board,
        state.catalog,
        v,
        styles,
        site.geometry(game, state.board),
        title=title,
        selectable=pick,
    )


def forum_png(
    site: Site,
    actor: Actor,
    game: str,
    faction: str | None = None,
    rnd: int | None = None,
    turn: str | None = None,
    *,
    now: bool = True,
) -> bytes:
    """The map to post (``render.map.forum``: 1600 pixels wide, every place named, the
    counters, sieges, caption and legend) as ``faction`` (default: the actor's own
    view) may see it: after the turn ``rnd``/``turn`` when given, else now (``now``) or
    after the last turn that has ended."""
    who = site.viewer(actor, game, faction)
    inputs = site.svc.report_inputs(game)
    wanted = None
    if rnd is not None or turn is not None:
        state = inputs.timeline.now
        wanted = (rnd if rnd is not None else state.round, turn or state.turn)
        if wanted not in inputs.timeline.turns():
            raise NotFound(f"there is no turn of {wanted[1]} in round {wanted[0]} yet")
        now = False
    return png_of(posted_map(inputs, who, wanted, now=now))


def _plain(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out
