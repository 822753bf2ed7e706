"""The ``--db`` option every game command takes, and opening the store it names."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import typer

from kingmaker.storage.base import GameStore, StoreError

DEFAULT_DB = "sqlite:///kingmaker.db"

DbOption = typer.Option(
    None,
    "--db",
    help="The game store: sqlite:///FILE (the default, kingmaker.db here) or postgresql://... "
    "Also read from KINGMAKER_DB.",
    envvar="KINGMAKER_DB",
)


@contextmanager
def opened(url: str | None) -> Iterator[GameStore]:
    """The store at ``url`` (exit code 2 with the reason when it cannot be opened)."""
    from kingmaker.storage import open_store

    try:
        store = open_store(url or os.environ.get("KINGMAKER_DB") or DEFAULT_DB)
    except StoreError as e:
        typer.echo(f"cannot open the game store: {e}", err=True)
        raise typer.Exit(2) from None
    try:
        yield store
    finally:
        store.close()
