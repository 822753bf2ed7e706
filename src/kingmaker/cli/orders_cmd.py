"""``kingmaker orders``: a post of text orders, checked and submitted line by line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from kingmaker.orders_text.parse import post_size_problem
from kingmaker.rules.limits import ORDERS_MAX_CHARS
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import Submit
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


def faction_names(svc: GameService, game: str) -> dict[str, str]:
    """The names players use for the factions (``Red``), from the game's settings."""
    return svc.settings(game).faction_names()


def run_post(svc: GameService, game: str, text: str, author: str, *, submit: bool) -> list[dict[str, Any]]:
    """Each line of a post, read against the state as it stands when its turn comes
    (so a later order sees the effect of an earlier one), then submitted unless ``submit``
    is false. One row per order line: line, text, result, rule, explanation."""
    from kingmaker.orders_text import parse_post
    from kingmaker.rules.decide import decide
    from kingmaker.rules.views import as_seen_by

    names = faction_names(svc, game)
    rows: list[dict[str, Any]] = []
    for no, line in enumerate(text.splitlines(), start=1):
        state = svc.state(game)
        # names are read within what the author may know (no "did you mean" at secrets);
        # the rules judge on the real state, and explain to the author only what it may see
        seen = as_seen_by(state, author)
        post = parse_post(seen, line, author, faction_names=names)
        for p in post.problems:
            rows.append(_row(no, p.column, line, p.kind, None, p.message))
        for order in post.orders:
            if order.command is None or not submit:
                d = order.refusal if order.command is None else decide(state, order.command)
                assert d is not None
                rows.append(_row(no, order.column, line, d.result.value, d.rule, d.explanation))
                continue
            out = svc.execute(GM_ACTOR, Submit(game, order.command))
            rows.append(_row(no, order.column, line, out.result, out.rule, out.explanation, out.request))
    return rows


def _row(
    line: int, column: int, text: str, result: str, rule: str | None, why: str, request: str | None = None
) -> dict[str, Any]:
    return {
        "line": line,
        "column": column,
        "text": text.strip(),
        "result": result,
        "rule": rule,
        "explanation": why,
        "request": request,
    }


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
