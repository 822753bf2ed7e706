"""``kingmaker map``: the map to post with a turn's report (a PNG 1600 pixels wide, or
the SVG): the position after a turn, as the thread, the GM or a faction may see it,
with every place named, the counters, the sieges, a caption and the legend."""

from __future__ import annotations

from pathlib import Path

import typer

from kingmaker.service.game_service import GameService

from .output import NOT_FOUND, REFUSED, fail, service_errors
from .store_option import DbOption, opened


def register(app: typer.Typer) -> None:
    @app.command("map")
    def map_cmd(
        game: str = typer.Argument(..., help="The game's id."),
        viewer: str = typer.Option("public", "--for", help="public (the thread), gm, or a faction id."),
        rnd: int | None = typer.Option(
            None, "--round", help="The round (default: the last turn that has ended)."
        ),
        turn: str | None = typer.Option(None, "--turn", help="Whose turn in that round: the map after it."),
        now: bool = typer.Option(False, "--now", help="The position now, not after the last turn ended."),
        out: Path | None = typer.Option(
            None, "--out", "-o", help="Where to write it (default: GAME-round-N-FACTION.png here)."
        ),
        fmt: str = typer.Option("png", "--format", help="png (1600 pixels wide, for the forum) or svg."),
        db: str | None = DbOption,
    ) -> None:
        """Write the map to post with a turn's report: every place named, each noble,
        army, ship and heir a labelled counter in its faction's colour, sieges, the
        caption ("round 4, after Red's turn") and the legend; only what the reader
        (--for) may see.

        Example: kingmaker map wars-1a2b3c --round 4 --turn red -o round4-red.png
        """
        from kingmaker.render.map.forum import forum_png
        from kingmaker.render.map.posting import last_turn_over, posted_map
        from kingmaker.render.map.svg import svg
        from kingmaker.rules.commands import GM

        if fmt not in ("png", "svg"):
            fail("--format is png or svg", REFUSED)
        if now and (rnd is not None or turn is not None):
            fail("--now shows the position now: leave out --round and --turn", REFUSED)
        with opened(db) as store, service_errors():
            svc = GameService(store)
            state = svc.state(game)
            who = GM if viewer == "gm" else viewer
            if who not in (GM, "public", *state.turn_order):
                fail(f"--for is public, gm or one of {', '.join(state.turn_order)}", REFUSED)
            inputs = svc.report_inputs(game)
            wanted = None
            if rnd is not None or turn is not None:
                wanted = (rnd if rnd is not None else state.round, turn or state.turn)
                if wanted not in inputs.timeline.turns():
                    fail(f"no turn {wanted[1]} in round {wanted[0]} yet", NOT_FOUND)
            elif not now:
                wanted = last_turn_over(inputs)
            fm = posted_map(inputs, who, wanted, now=now or wanted is None)
            data = forum_png(fm) if fmt == "png" else svg(fm.model).encode("utf-8")
            if out is None:
                when = f"round-{wanted[0]}-{wanted[1]}" if wanted is not None else f"round-{state.round}-now"
                out = Path(f"{game}-{when}{'' if who == 'public' else '-' + who}.{fmt}")
            out.write_bytes(data)
            typer.echo(f"{out}: {fm.model.title} ({'1600 pixels wide' if fmt == 'png' else 'SVG'})")
