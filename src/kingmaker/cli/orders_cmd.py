"""``kingmaker orders``: a post of text orders, checked and submitted line by line; its
receipt for the player (``--receipt``); the order syntax (``--syntax [VERB]``)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from kingmaker.orders_text.parse import post_size_problem
from kingmaker.orders_text.verbs import VERBS, syntax_text
from kingmaker.render.reports import FORMATS, render
from kingmaker.render.reports.receipt import receipt_for
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


def _syntax(verb: str | None) -> None:
    """Print the order syntax (docs/orders.md), or the sections of one verb."""
    text = syntax_text(verb)
    if not text:
        known = ", ".join(v.title for v in VERBS)
        fail(f"no verb {verb!r} in the orders; the verbs are: {known}", REFUSED)
    sys.stdout.write(text)


def register(app: typer.Typer) -> None:
    @app.command("orders")
    def orders(
        game: str | None = typer.Argument(None, help="The game's id (with --syntax: a verb)."),
        file: Path | None = typer.Argument(None, help="A file of orders (default: standard input)."),
        author: str | None = typer.Option(None, "--as", help="Whose post it is: a faction id, or gm."),
        check: bool = typer.Option(False, "--check", help="Only check: submit nothing."),
        receipt: str | None = typer.Option(
            None,
            "--receipt",
            help="Print the post's receipt for the player instead of the table: bbcode, markdown or plain.",
        ),
        syntax: bool = typer.Option(
            False, "--syntax", help="Print the order syntax (docs/orders.md); with a VERB, that verb's."
        ),
        db: str | None = DbOption,
        as_json: bool = typer.Option(False, "--json", help="Print JSON for scripts."),
    ) -> None:
        """Read a post of orders as players write them and submit each one, with a verdict
        per line: accepted, pending (awaiting whom), refused (with the rule), a problem of
        the text (with line, column, what was expected and the closest verb's example, or
        "did you mean ...?"), or ignored (greetings, signatures, headings).

        Exit 0 when every order was accepted or is pending (chatter ignored), 1 when any
        was refused or could not be read. --receipt bbcode prints the receipt to send back
        to the player. The syntax of every order: kingmaker orders --syntax [VERB]
        (docs/orders.md).

        Example: printf 'Percy MOVES FROM Alnwick TO Newcastle\\nRed ALLIES WITH Green' | kingmaker orders wars-1a2b3c --as red
        """
        if syntax:
            _syntax(game)
            return
        if game is None:
            fail("give the game's id (or --syntax for the order syntax)", REFUSED)
        if author is None:
            fail("say whose post it is: --as <faction> (or --as gm)", REFUSED)
        if receipt is not None and receipt not in FORMATS:
            fail(f"--receipt is one of {', '.join(FORMATS)}, not {receipt!r}", REFUSED)
        text = _read_post(file)
        if not text.strip():
            fail("no orders given", REFUSED)
        too_big = post_size_problem(text)
        if too_big is not None:
            fail(f"line {too_big.line}: {too_big.message}; nothing was sent", REFUSED)
        with opened(db) as store, service_errors():
            svc = GameService(store)
            svc.require_game(game)
            before = svc.state(game)
            verdicts = svc.post(GM_ACTOR, game, text, author, send=not check)
            rows = [dataclasses.asdict(v) for v in verdicts]
            if receipt is not None:
                doc = receipt_for(svc, game, author, verdicts, sent=not check, at=(before.round, before.turn))
                sys.stdout.write(render(doc, receipt))
                if not all(v.ok for v in verdicts):
                    raise typer.Exit(REFUSED)
                return

            def show() -> None:
                t = Table("line", "order", "result", "rule", "why", title=f"{author}'s orders")
                colours = {"accepted": "green", "pending": "yellow", "ignored": "dim"}
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
            if not all(v.ok for v in verdicts):
                raise typer.Exit(REFUSED)
