"""``kingmaker units`` and ``kingmaker destinations``: what the web's map gives a player,
at a terminal. The units a faction may order now (``rules.orderable_units``) and, for
one unit, every order it could give it with the rules' verdict
(``rules.candidate_orders``), each allowed order written as the text order to post.

Nothing is decided here, nor copied from the web: the answers are the web's and the
API's own (``web.ops.orders.units`` and ``destinations``, for the same actor: a player
for ``--as FACTION``, the GM without it), so what a faction is told is what the web
tells it, explanations included (the rules word them from what that faction may know:
no secret alliance or defence pact). The text of an order is written on the state as
the faction may see it (``rules.views.as_seen_by``), as ``service.posts`` reads it back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from kingmaker.orders_text import format_order
from kingmaker.rules.candidates import Candidate, candidate_orders
from kingmaker.rules.commands import GM
from kingmaker.rules.state import GameState
from kingmaker.rules.units import name
from kingmaker.rules.views import as_seen_by
from kingmaker.service import GM_ACTOR, Actor
from kingmaker.service.game_service import GameService
from kingmaker.service.identity import player

from .output import EXIT_CODES_HELP, REFUSED, console, emit, fail, safe, service_errors
from .store_option import DbOption, opened

if TYPE_CHECKING:
    from kingmaker.web.ops.site import Site

JsonOption = typer.Option(False, "--json", help="Print JSON for scripts.")
AsOption = typer.Option(
    None, "--as", help="The faction asking: what it may order, as it may know it (default: the GM)."
)


def _actor(svc: GameService, game: str, faction: str | None) -> Actor:
    """The GM without ``--as`` (or with ``--as gm``), else the faction's player; a
    faction the game does not have is refused."""
    if faction is None or faction == GM:
        return GM_ACTOR
    if faction not in svc.state(game).turn_order:
        fail(f"{faction!r} is not a faction of {game}", REFUSED)
    return player(faction)


def _site(svc: GameService) -> Site:
    """The web's ``Site`` over this service: the web's functions answer through it."""
    from kingmaker.web.ops.site import Site

    return Site(svc)


def order_rows(svc: GameService, game: str, actor: Actor, unit: str) -> list[dict[str, Any]]:
    """Every candidate order of ``unit`` for whoever ``actor`` orders for (as the web's
    ``destinations`` takes them), with its verdict and, when allowed, its text order."""
    from kingmaker.web.ops.site import orderer

    state = svc.state(game)
    by = orderer(actor, state)
    if by is None:
        return []
    seen = state if actor.is_gm else as_seen_by(state, by)
    names = svc.settings(game).faction_names()
    return [_order_row(state, seen, c, names) for c in candidate_orders(state, unit, by)]


def _order_row(state: GameState, seen: GameState, c: Candidate, names: dict[str, str]) -> dict[str, Any]:
    return {
        "action": c.action,
        "target": c.target,
        "target_name": name(state, c.target),
        "path": list(c.path),
        "result": c.result.value,
        "allowed": c.allowed,
        "rule": c.rule,
        "explanation": c.explanation,
        "order": format_order(c.command, seen, faction_names=names) if c.allowed else None,
    }


def register(app: typer.Typer) -> None:
    @app.command("units", epilog=EXIT_CODES_HELP)
    def units_cmd(
        game: str,
        faction: str | None = AsOption,
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """The units FACTION may order now, as the web's map offers them
        (GET /api/games/GAME/units): its own on its turn, an ally's where one of its own
        stands (ALLY.4: the order waits for the owner), the armies it commands. Without
        --as, the GM's: those of the faction to play.

        Then: kingmaker destinations GAME UNIT --as FACTION.

        Example: kingmaker units wars-1a2b3c --as red --json
        """
        from kingmaker.web.ops import orders as web_orders

        with opened(db) as store, service_errors():
            svc = GameService(store)
            actor = _actor(svc, game, faction)
            rows = [u.model_dump() for u in web_orders.units(_site(svc), actor, game)]
            who = faction if actor.faction else svc.state(game).turn

            def show() -> None:
                if not rows:
                    console.print(f"{safe(who or 'nobody')} may order no unit now.")
                    return
                t = Table(
                    "unit",
                    "name",
                    "kind",
                    "faction",
                    "at",
                    "inside",
                    "allied",
                    title=f"What {who} may order now",
                )
                for r in rows:
                    t.add_row(
                        safe(r["id"]),
                        safe(r["name"]),
                        safe(r["kind"]),
                        safe(r["faction"] or ""),
                        safe(r["place_name"]),
                        "yes" if r["inside"] else "",
                        "yes: waits for its owner" if r["allied"] else "",
                    )
                console.print(t)

            emit(as_json, rows, show)

    @app.command("destinations", epilog=EXIT_CODES_HELP)
    def destinations_cmd(
        game: str,
        unit: str,
        faction: str | None = AsOption,
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """Where UNIT may go now and what it may do, as the web's map shows it
        (GET /api/games/GAME/units/UNIT/destinations): every order FACTION could give it,
        each allowed, pending (an ally's consent, ALLY.4) or refused with the rule and
        why, and each allowed one as the text order to post (kingmaker orders GAME --as
        FACTION). Without --as, the GM's: for the faction to play.

        --json: the API's answer, with "orders" added (one per order: action, target,
        path, result, allowed, rule, explanation, order). A unit that does not exist:
        exit 3; one neither FACTION's nor an ally's: exit 4.

        Example: kingmaker destinations wars-1a2b3c percy --as red
        """
        from kingmaker.web.ops import orders as web_orders

        with opened(db) as store, service_errors():
            svc = GameService(store)
            actor = _actor(svc, game, faction)
            out = web_orders.destinations(_site(svc), actor, game, unit).model_dump()
            out["orders"] = order_rows(svc, game, actor, unit)

            def show() -> None:
                where = name(svc.state(game), out["place"]) if out["place"] else "nowhere"
                inside = " (inside)" if out["inside"] else ""
                console.print(f"[bold]{safe(out['name'])}[/bold] at {safe(where)}{inside}")
                if not out["orderable"]:
                    console.print(f"It can take no order now: {safe(out['reason'])}")
                t = Table("order", "to / target", "via", "result", "rule", "why", title="Its orders")
                colours = {"accepted": "green", "pending": "yellow"}
                for r in out["orders"]:
                    c = colours.get(r["result"], "red")
                    t.add_row(
                        safe(r["order"] or r["action"]),
                        safe(r["target_name"]),
                        safe(", ".join(r["path"][1:-1])),
                        f"[{c}]{safe(r['result'])}[/{c}]",
                        safe(r["rule"] or ""),
                        safe(r["explanation"]),
                    )
                console.print(t)

            emit(as_json, out, show)
