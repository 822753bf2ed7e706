"""``kingmaker verify-draws LOG``: check every random draw and deck shuffle of a game log."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.table import Table

from .output import safe

if TYPE_CHECKING:
    from kingmaker.rules.cards import Catalog
    from kingmaker.rules.draws import Created, DrawReport

STDIN = "-"


def _read_lines(log: Path) -> tuple[str, list[str]]:
    """The file's name as messages give it, and its lines (``-``: standard input).
    Raises ``ValueError`` with one line when it cannot be read."""
    if str(log) == STDIN:
        name = "<stdin>"
        try:
            return name, sys.stdin.read().splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise ValueError(f"{name}: cannot read: {e}") from None
    try:
        return str(log), log.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{log}: cannot read: {e}") from None


def _is_export(lines: list[str]) -> bool:
    from kingmaker.service.transfer import FORMAT

    first = next((line for line in lines if line.strip()), "")
    try:
        data = json.loads(first)
    except json.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def _dealt_from(catalog_data: dict[str, Any], data: Path | None) -> tuple[Catalog | None, str]:
    """The catalog the game was dealt from, in its data set's order (the export keeps
    the cards, not their order): the data set of ``data`` (None: the default one) when
    its cards are the game's; else None and why."""
    from kingmaker.data import DataError, load_dataset
    from kingmaker.rules.codec import catalog_to_data

    where = f"the data folder {data}" if data is not None else "the default data set"
    try:
        ds = load_dataset(data)
    except (DataError, OSError) as e:
        return None, f"{where} cannot be read ({str(e).splitlines()[0] if str(e) else type(e).__name__})"
    if json.loads(json.dumps(catalog_to_data(ds.catalog))) != catalog_data:
        return (
            None,
            f"the game's cards are not those of {where} ({ds.name}); give its data folder with --data",
        )
    return ds.catalog, ""


def _read_export(name: str, lines: list[str], data: Path | None) -> tuple[list[Any], Created]:
    """The events of an export made by ``kingmaker export`` and what it recorded at
    creation; ``ValueError`` with one line when the file is damaged or truncated."""
    from kingmaker.rules.draws import Created
    from kingmaker.service.transfer import ImportError_, initial_state, parse_export

    try:
        record, initial, envelopes, _, _ = parse_export(line + "\n" for line in lines)
        state = initial_state(record, initial)
    except ImportError_ as e:
        raise ValueError(f"{name}: {e}") from None
    settings = record.settings if isinstance(record.settings, dict) else {}
    full_game = settings.get("full_game")
    if not isinstance(full_game, bool):  # a record older than the setting: the full game starts
        full_game = state.phase == "event"  # in its event phase (``deal.new_game``)
    catalog, why = _dealt_from(record.catalog, data)
    return [env.event for env in envelopes], Created(state, full_game, catalog, why)


def _read_events(name: str, lines: list[str]) -> tuple[list[Any], list[str]]:
    """The events of a log of JSON lines (an event, or ``{"event": ...}``, per line)."""
    from kingmaker.rules.records import RecordError, from_data

    events: list[Any] = []
    problems: list[str] = []
    for no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(f"{name}:{no}:{e.colno}: not JSON: {e.msg}")
            continue
        if isinstance(data, dict) and isinstance(data.get("event"), dict):
            data = data["event"]
        if not isinstance(data, dict) or "kind" not in data:
            continue  # headers and other records carry no event
        try:
            events.append(from_data(data))
        except RecordError as e:
            problems.append(f"{name}:{no}: {e}")
    return events, problems


def _as_json(report: DrawReport) -> str:
    return json.dumps(
        {
            "ok": report.ok,
            "commitment": report.commitment,
            "commitment_ok": report.commitment_ok,
            "creation_draws": report.at_creation,
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


def _print(console: Console, report: DrawReport) -> None:
    table = Table(title=f"{len(report.draws)} draw(s), {report.at_creation} of them at creation")
    for col in ("#", "of", "recorded", "derived", "purpose", "ok"):
        table.add_column(col)
    for d in report.draws:
        table.add_row(
            str(d.index),
            str(d.n),
            "(order)" if d.recorded is None else str(d.recorded),
            str(d.derived),
            safe(d.purpose),
            "yes" if d.ok else "[red]NO[/red]",
        )
    console.print(table)
    if report.at_creation:
        console.print(
            "recorded (order): the log keeps the order a shuffle at creation gave; it is compared"
            " with the order the seed's values give"
        )
    for p in report.problems:
        console.print(f"[red]{safe(p)}[/red]", soft_wrap=True)
    console.print("all draws verified" if report.ok else "[red]verification failed[/red]")


def register(app: typer.Typer) -> None:
    @app.command("verify-draws")
    def verify_draws_cmd(
        log: Path = typer.Argument(
            ...,
            help="An export made by `kingmaker export`, or a game log of JSON lines (one event"
            " per line); - reads standard input.",
        ),
        seed: str | None = typer.Option(
            None, "--seed", help="The revealed seed, if the log does not carry it."
        ),
        data: Path | None = typer.Option(
            None,
            "--data",
            help="The data folder the game was dealt from, if not the default (England 1455):"
            " an export's deal is re-derived from it.",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    ) -> None:
        """Re-derive every random draw of a game from its revealed seed.

        Checks that the seed matches the SHA-256 commitment published at creation,
        then that every recorded draw is what the seed gives, and every deck shuffle:
        each value it used, and its order from those values. From an export it also
        deals the game again from the seed, as its creation did, and compares the
        shuffles made then (the Crown deck's, the event deck's first) and the hands and
        decks they gave with the state the export recorded at creation; these are
        counted among the draws (the Crown deck is built in the order of the game's
        data set: the default one, or --data). Exit 0 when all match, 1 when any does not, 2 when the
        file cannot be read (damaged, truncated) or there is no seed to check with (the
        GM has not revealed it and --seed was not given).

        Example: kingmaker export wars-1a2b3c | kingmaker verify-draws -
        """
        from kingmaker.rules import events as ev
        from kingmaker.rules.draws import verify_draws

        try:
            name, lines = _read_lines(log)
            created: Created | None = None
            if _is_export(lines):
                events, created = _read_export(name, lines, data)
            else:
                events, problems = _read_events(name, lines)
                if problems:
                    for p in problems:
                        typer.echo(p, err=True)
                    raise typer.Exit(2)
        except ValueError as e:
            typer.echo(str(e), err=True)
            raise typer.Exit(2) from None
        if not events:
            typer.echo(f"{name}: holds no game log (not an export, and no event on any line)", err=True)
            raise typer.Exit(2)
        if seed is None and not any(isinstance(e, ev.SeedRevealed) for e in events):
            typer.echo(
                f"{name}: no seed to check the draws with: the log does not reveal it"
                " (the GM runs `kingmaker reveal-seed GAME`) and --seed was not given",
                err=True,
            )
            raise typer.Exit(2)
        report = verify_draws(events, seed, created)
        if as_json:
            typer.echo(_as_json(report))
        else:
            _print(Console(), report)
        raise typer.Exit(0 if report.ok else 1)
