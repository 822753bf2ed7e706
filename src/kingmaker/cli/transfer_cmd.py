"""``kingmaker export`` and ``kingmaker import``: a whole game as one JSON Lines file."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import Progress

from .store_option import DbOption, opened


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export_cmd(
        game: str = typer.Argument(..., help="The game's id."),
        file: Path | None = typer.Argument(None, help="Where to write (default: standard output)."),
        db: str | None = DbOption,
    ) -> None:
        """Export a whole game (record, data set, log) to one JSON Lines file.

        The file holds the secret seed: it is the GM's. Exit 0 on success, 1 if the game
        does not exist, 2 if the store cannot be opened.

        Example: kingmaker export wars-1455-a1b2c3 backup.jsonl
        """
        from kingmaker.service.transfer import export_game
        from kingmaker.storage.base import UnknownGame

        with opened(db) as store:
            try:
                store.game(game)
            except UnknownGame as e:
                typer.echo(str(e), err=True)
                raise typer.Exit(1) from None
            if file is None:
                n = export_game(store, game, sys.stdout)
            else:
                with file.open("w", encoding="utf-8") as out:
                    n = export_game(store, game, out)
                typer.echo(f"exported {game}: {n} log entries to {file}", err=True)

    @app.command("import")
    def import_cmd(
        file: Path = typer.Argument(..., help="An export made by `kingmaker export`."),
        as_id: str | None = typer.Option(None, "--as", help="Import under this game id instead."),
        db: str | None = DbOption,
    ) -> None:
        """Import a game exported by `kingmaker export` into this store.

        Every line, the checksum chain, the entry count and a full replay are checked
        before anything is written; a truncated, edited or foreign file is refused with
        the line and the reason, and nothing is imported (exit 1).

        Example: kingmaker import backup.jsonl --db postgresql://localhost/kingmaker
        """
        from kingmaker.service.transfer import ImportError_, import_game

        err = Console(stderr=True)
        try:
            lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
        except (OSError, UnicodeDecodeError) as e:
            typer.echo(f"cannot read {file}: {e}", err=True)
            raise typer.Exit(1) from None
        with (
            opened(db) as store,
            Progress(console=err, transient=True, disable=not err.is_terminal) as progress,
        ):
            task = progress.add_task(f"importing {file.name}", total=len(lines))

            def counted() -> Iterator[str]:
                for line in lines:
                    progress.advance(task)
                    yield line

            try:
                report = import_game(store, counted(), as_id=as_id)
            except ImportError_ as e:
                typer.echo(f"{file}: {e}; nothing was imported", err=True)
                raise typer.Exit(1) from None
        typer.echo(f"imported {report.game}: {report.entries} log entries, state {report.state_hash[:16]}")
