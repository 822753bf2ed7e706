"""``kingmaker selfplay``: random legal players play whole games on the default data."""

from __future__ import annotations

import typer
from rich.table import Table

from .output import REFUSED, console, emit, fail


def register(app: typer.Typer) -> None:
    @app.command("selfplay")
    def selfplay_cmd(
        games: int = typer.Option(10, "--games", min=1, max=10_000, help="How many games."),
        seed: int = typer.Option(1, "--seed", help="The seed of the first game (the others follow)."),
        factions: int = typer.Option(4, "--factions", min=2, max=6, help="Factions in each game."),
        rounds: int = typer.Option(200, "--rounds", min=1, max=10_000, help="The round limit of a game."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON for scripts."),
    ) -> None:
        """Play whole games with random legal players (every phase: events, moves,
        battles and sieges, captives, Crown cards, Parliament, coronations), who more and
        more play to end the war (crowning their heirs, moving the victory motion in
        Parliament, hunting the others' heirs), from the deal to a victory or the round
        limit, checking after every step that every card is
        somewhere and once, that no dead noble is on the board and that every heir is
        with a noble or at a place; each game's events are then replayed to the same hash.

        Prints the games finished, how each ended (the victory rule, or the round
        limit), the rounds per game and the turns per second. Exit 0 when every game
        held its invariants, 70 (with the broken invariant) otherwise.

        Example: kingmaker selfplay --games 200 --seed 1 --json
        """
        from kingmaker.selfplay import selfplay

        try:
            summary = selfplay(games, seed, factions, rounds=rounds)
        except ValueError as e:
            fail(str(e), REFUSED)
        data = summary.to_data()
        rounds_of = [r.rounds for r in summary.runs]

        def show() -> None:
            t = Table("ended by", "games", title=f"{games} games of {factions} factions (seed {seed})")
            for ended, n in sorted(summary.endings.items()):
                t.add_row(ended, str(n))
            console.print(t)
            console.print(
                f"{len(summary.runs)} games finished, {summary.by_rule} ended by a rule of the game; "
                f"rounds per game: mean {sum(rounds_of) / len(rounds_of):.1f}, "
                f"min {min(rounds_of)}, max {max(rounds_of)}; {data['turns']} turns, "
                f"{data['turns_per_second']} turns per second"
            )

        emit(as_json, data, show)
