"""``kingmaker orders``: a post of text orders, checked and submitted line by line."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from kingmaker.orders_text.parse import post_size_problem
from kingmaker.rules.limits import ORDERS_MAX_CHARS
from kingmaker.service import GM_ACTOR
from kingmaker.service.game_service import GameService

from .output import REFUSED, console, emit, fail, safe, service_errors
from .store_option import DbOption, opened


def _read_post(file: Path | None) -> str:
    """The post, read no further than one character past the longest post allowed."""
    limit = ORDERS_MAX_CHARS + 1
    if file is None:
        return sys.stdin.read(limit)
    try:
        with file.open(encoding="utf-8") as f:
            return f.read(limit)
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {file}: {e}", REFUSED)


def run_post(svc: GameService, game: str, text: str, author: str, *, submit: bool) -> list[dict[str, Any]]:
    """The post judged and (``submit``) sent by the service's one use case
    (``service.posts``), as rows: line, text, result, rule, explanation, request and how
    the engine read the line. The CLI is the GM's: it posts for ``author``."""
    verdicts = svc.post(GM_ACTOR, game, text, author, send=submit)
    return [dataclasses.asdict(v) for v in verdicts]


def register(app: typer.Typer) -> None:
    @app.command("orders")
    def orders(
        game: str = typer.Argument(..., help="The game's id."),
        file: Path | None = typer.Argument(None, help="A file of orders (default: standard input)."),
        author: str = typer.Option(..., "--as", help="Whose post it is: a faction id, or gm."),
        check: bool = typer.Option(False, "--check", help="Only check: submit nothing."),
        db: str | None = DbOption,
        as_json: bool = typer.Option(False, "--json", help="Print JSON for scripts."),
    ) -> None:
        """Read a post of orders as players write them and submit each one, with a verdict
        per order: accepted, pending (awaiting whom), refused (with the rule), or a problem
        of the text (with line, column and what was expected, or "did you mean ...?").

        Exit 0 when every order was accepted or is pending, 1 when any was refused or
        could not be read.

        Example: printf 'Percy MOVES FROM Alnwick TO Newcastle\\nRed ALLIES WITH Green' | kingmaker orders wars-1a2b3c --as red
        """
        text = _read_post(file)
        if not text.strip():
            fail("no orders given", REFUSED)
        too_big = post_size_problem(text)
        if too_big is not None:
            fail(f"line {too_big.line}: {too_big.message}; nothing was sent", REFUSED)
        with opened(db) as store, service_errors():
            svc = GameService(store)
            rows = run_post(svc, game, text, author, submit=not check)

            def show() -> None:
                t = Table("line", "order", "result", "rule", "why", title=f"{author}'s orders")
                colours = {"accepted": "green", "pending": "yellow"}
                for r in rows:
                    c = colours.get(r["result"], "red")
                    t.add_row(
                        str(r["line"]),
                        safe(r["text"]),
                        f"[{c}]{safe(r['result'])}[/{c}]",
                        safe(r["rule"] or ""),
                        safe(r["explanation"]),
                    )
                console.print(t)

            emit(as_json, rows, show)
            if any(r["result"] not in ("accepted", "pending") for r in rows):
                raise typer.Exit(REFUSED)
