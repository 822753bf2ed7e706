"""``kingmaker demo``: deal a new game of the default data set and show the position."""

from __future__ import annotations

from typing import Annotated

import typer

from kingmaker.data import DataError, load_dataset
from kingmaker.render.position import position_summary
from kingmaker.rules.chance import commitment
from kingmaker.rules.deal import new_game

DEFAULT_SEED = "england-1455"


def demo(
    factions: Annotated[int, typer.Option("--factions", "-f", help="How many factions play.")] = 4,
    seed: Annotated[str, typer.Option("--seed", "-s", help="The game's random seed.")] = DEFAULT_SEED,
) -> None:
    """Deal a new game of England 1455 and show its starting position.

    Prints the seed, its SHA-256 commitment and the position summary. The same seed
    always gives the same game.

    Example:  kingmaker demo --factions 5 --seed "my game"
    """
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


def register(app: typer.Typer) -> None:
    """Mount the ``demo`` command on ``app``."""
    app.command("demo")(demo)
