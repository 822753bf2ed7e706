"""``kingmaker verify-draws LOG``: check every random draw and deck shuffle of a game log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from .output import safe


def _read_events(path: Path) -> tuple[list[Any], list[str]]:
    from kingmaker.rules.records import RecordError, from_data

    events: list[Any] = []
    problems: list[str] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        return [], [f"{path}: cannot read: {e}"]
    for no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(f"{path}:{no}:{e.colno}: not JSON: {e.msg}")
            continue
        if isinstance(data, dict) and isinstance(data.get("event"), dict):
            data = data["event"]
        if not isinstance(data, dict) or "kind" not in data:
            continue  # headers and other records carry no event
        try:
            events.append(from_data(data))
        except RecordError as e:
            problems.append(f"{path}:{no}: {e}")
    return events, problems


def register(app: typer.Typer) -> None:
    @app.command("verify-draws")
    def verify_draws_cmd(
        log: Path = typer.Argument(..., help="A game log or export: JSON Lines, one event per line."),
        seed: str | None = typer.Option(
            None, "--seed", help="The revealed seed, if the log does not carry it."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    ) -> None:
        """Re-derive every random draw of a game from its revealed seed.

        Checks that the seed matches the SHA-256 commitment published at creation,
        then that every recorded draw is what the seed gives, and every deck shuffle:
        each value it used, and its order from those values. Exit 0 when all match,
        1 when any does not, 2 when the log cannot be read.

        Example: kingmaker verify-draws game.jsonl --seed 'my secret seed'
        """
        from kingmaker.rules.draws import verify_draws

        console = Console()
        events, problems = _read_events(log)
        if problems:
            for p in problems:
                typer.echo(p, err=True)
            raise typer.Exit(2)
        report = verify_draws(events, seed)
        if as_json:
            typer.echo(
                json.dumps(
                    {
                        "ok": report.ok,
                        "commitment": report.commitment,
                        "commitment_ok": report.commitment_ok,
                        "problems": list(report.problems),
                        "draws": [
                            {
                                "index": d.index,
                                "n": d.n,
                                "recorded": d.recorded,
                                "derived": d.derived,
                                "purpose": d.purpose,
                                "ok": d.ok,
                            }
                            for d in report.draws
                        ],
                    },
                    indent=2,
                )
            )
        else:
            table = Table(title=f"{len(report.draws)} draw(s)")
            for col in ("#", "of", "recorded", "derived", "purpose", "ok"):
                table.add_column(col)
            for d in report.draws:
                table.add_row(
                    str(d.index),
                    str(d.n),
                    str(d.recorded),
                    str(d.derived),
                    safe(d.purpose),
                    "yes" if d.ok else "[red]NO[/red]",
                )
            console.print(table)
            for p in report.problems:
                console.print(f"[red]{safe(p)}[/red]")
            console.print("all draws verified" if report.ok else "[red]verification failed[/red]")
        raise typer.Exit(0 if report.ok else 1)
