"""``kingmaker demo``: the web app with a demo game, or (``--no-serve``) a new game's
starting position printed."""

from __future__ import annotations

import secrets
import socket
import sys
from pathlib import Path
from typing import Annotated

import typer

from kingmaker.data import DataError, load_dataset
from kingmaker.render.position import position_summary
from kingmaker.rules.chance import commitment
from kingmaker.rules.deal import new_game

from .serve_cmd import NO_PASSWORD_OPTION, gm_password_file_option, gm_password_from, refused_password_option

DEFAULT_SEED = "england-1455"
DEMO_DB = "sqlite:///demo.db"


def demo(
    factions: Annotated[int, typer.Option("--factions", "-f", help="How many factions play.")] = 4,
    seed: Annotated[str, typer.Option("--seed", "-s", help="The game's random seed.")] = DEFAULT_SEED,
    serve: Annotated[
        bool, typer.Option("--serve/--no-serve", help="Serve the web app (default) or only print the deal.")
    ] = True,
    db: Annotated[
        str, typer.Option("--db", help="Where the demo game is kept (a new game is added on each run).")
    ] = DEMO_DB,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="Port to listen on (the next free one if it is taken).")
    ] = 8000,
    gm_password_file: Path | None = gm_password_file_option(),
    gm_password: str | None = refused_password_option(),
) -> None:
    """Start the web app with a new demo game of England 1455 and print the links:
    the map for each faction's player (a private link with its secret token) and the
    GM console with its password. Ctrl-C stops the server; the game stays in the
    database file (demo.db here), and each run adds a new game to it.

    The GM's password is a fresh one, printed here (to your own terminal), unless
    KINGMAKER_GM_PASSWORD or --gm-password-file gives one.

    With --no-serve: only deal the game and print the seed, its SHA-256 commitment
    and the starting position (the same seed always gives the same game).

    Example:  kingmaker demo --factions 5 --port 8080
    """
    if not serve:
        _print_deal(factions, seed)
        return
    if gm_password is not None:
        typer.echo(NO_PASSWORD_OPTION, err=True)
        raise typer.Exit(2)
    password = gm_password_from(gm_password_file, required=False) or secrets.token_urlsafe(9)
    _serve_demo(factions, seed, db, host, port, password)


def _print_deal(factions: int, seed: str) -> None:
    try:
        ds = load_dataset()
        ids = ds.setup.faction_ids(factions)
        state = new_game(
            ds.board,
            ds.catalog,
            ids,
            seed,
            cards_per_faction=ds.setup.cards_per_faction,
            removed=ds.setup.removed,
            crowned=ds.setup.crowned,
        )
    except DataError as e:
        typer.echo(str(e))
        raise typer.Exit(1) from None
    except ValueError as e:
        typer.echo(f"Cannot start the game: {e}")
        raise typer.Exit(2) from None
    typer.echo(f"Seed: {seed}")
    typer.echo(f"Commitment (SHA-256 of the seed): {commitment(seed)}")
    typer.echo("")
    typer.echo(position_summary(state), nl=False)


def free_port(host: str, start: int, tries: int = 50) -> int:
    """``start`` if nothing listens there, else the next free port after it."""
    for port in range(start, start + tries):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind((host, port))
            except OSError:
                continue
            return port
    raise typer.BadParameter(f"no free port from {start} to {start + tries - 1}", param_hint="--port")


def _serve_demo(factions: int, seed: str, db: str, host: str, port: int, gm_password: str) -> None:
    from kingmaker.service import GM_ACTOR
    from kingmaker.service.commands import CreateGame, SeatPlayer
    from kingmaker.service.errors import ServiceError
    from kingmaker.service.game_service import GameService
    from kingmaker.storage import open_store
    from kingmaker.storage.base import StoreError

    try:
        ids = load_dataset().setup.faction_ids(factions)
    except (DataError, ValueError) as e:
        typer.echo(f"Cannot start the game: {e}", err=True)
        raise typer.Exit(2) from None
    port = free_port(host, port)
    try:
        store = open_store(db)
    except StoreError as e:
        typer.echo(f"cannot open the game store: {e}", err=True)
        raise typer.Exit(2) from None
    try:
        svc = GameService(store)
        taken = {g.id for g in store.games()}
        number = 1 + sum(1 for g in taken if g.startswith("demo-"))
        while f"demo-{number}" in taken:
            number += 1
        game = f"demo-{number}"
        svc.execute(GM_ACTOR, CreateGame(f"Demo {number}", ids, seed, game_id=game))
        links = {}
        for faction in ids:
            out = svc.execute(GM_ACTOR, SeatPlayer(game, faction, f"{faction.capitalize()} player"))
            links[faction] = out.token
    except ServiceError as e:
        typer.echo(f"Cannot start the demo game: {e}", err=True)
        raise typer.Exit(2) from None
    finally:
        store.close()

    base = f"http://{host}:{port}"
    typer.echo(f"kingmaker web app: {base}/   (demo game {game!r} in {db})")
    typer.echo("")
    typer.echo(f"  GM console   {base}/gm   password: {gm_password}")
    for faction, token in links.items():
        typer.echo(f"  {faction:<12} {base}/play/{game}/{token}")
    typer.echo("")
    typer.echo("Each player link is private: it carries that faction's secret token. Ctrl-C stops the server.")
    sys.stdout.flush()

    from kingmaker.web import serve as serve_web
    from kingmaker.web.settings import WebSettings

    settings = WebSettings(base_url=base)
    serve_web(db, host=host, port=port, gm_password=gm_password, log_level="warning", settings=settings)


def register(app: typer.Typer) -> None:
    """Mount the ``demo`` command on ``app``."""
    app.command("demo")(demo)
