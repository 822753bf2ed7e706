"""``kingmaker report``: the reports a GM pastes into the forum thread (a turn's, or a
whole round's digest), and the private reports and messages for each faction."""

from __future__ import annotations

import typer

from kingmaker.service.game_service import GameService

from .output import NOT_FOUND, REFUSED, fail, service_errors
from .store_option import DbOption, opened

KINDS = ("turn", "round", "private", "messages")


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report(
        game: str = typer.Argument(..., help="The game's id."),
        kind: str = typer.Option(
            "turn",
            "--kind",
            help="turn (orders, resolution, position), round (the round's digest: every turn's "
            "orders and resolution, one position), private, or messages.",
        ),
        viewer: str = typer.Option("public", "--for", help="public (the thread), gm, or a faction id."),
        rnd: int | None = typer.Option(
            None,
            "--round",
            help="The round (default: the last turn that has ended). Without --turn: the round's digest.",
        ),
        turn: str | None = typer.Option(None, "--turn", help="Whose turn in that round."),
        fmt: str = typer.Option("bbcode", "--format", help="bbcode (forum), markdown, or plain."),
        db: str | None = DbOption,
    ) -> None:
        """Print a report ready to paste: the turn's orders as given, their resolution with
        rule ids and reasons, and the position (public, or as the GM or a faction sees it);
        a whole round in one post (--round N without --turn: every turn's orders and
        resolution, one position at the end); a faction's private report; or the private
        messages the GM sends a faction.

        Example: kingmaker report wars-1a2b3c --round 2 --turn red --format bbcode
        Example: kingmaker report wars-1a2b3c --round 2            (the round's digest)
        """
        from kingmaker.render.reports import (
            FORMATS,
            messages_for,
            private_report,
            render,
            reports_for,
            turn_report,
        )
        from kingmaker.rules.commands import GM

        if kind not in KINDS:
            fail(f"--kind is one of {', '.join(KINDS)}", REFUSED)
        if fmt not in FORMATS:
            fail(f"--format is one of {', '.join(FORMATS)}", REFUSED)
        with opened(db) as store, service_errors():
            svc = GameService(store)
            state = svc.state(game)
            who = GM if viewer == "gm" else viewer
            if who not in (GM, "public", *state.turn_order):
                fail(f"--for is public, gm or one of {', '.join(state.turn_order)}", REFUSED)
            if kind == "turn" and rnd is not None and turn is None:
                kind = "round"  # --round N alone: the round's digest
            if kind not in ("turn", "round") and who in (GM, "public"):
                fail(f"--kind {kind} is for one faction: give --for FACTION", REFUSED)
            ctx = reports_for(svc, game)
            turns = ctx.timeline.turns()
            if kind == "round":
                from kingmaker.render.reports.digest import round_digest, round_of_last_turn

                if turn is not None:
                    fail("--kind round takes --round, not --turn", REFUSED)
                wanted_round = rnd if rnd is not None else round_of_last_turn(ctx)
                if wanted_round is None or not any(r == wanted_round for r, _ in turns):
                    fail(f"no turn in round {wanted_round} yet", NOT_FOUND)
                typer.echo(render(round_digest(ctx, wanted_round, who), fmt))
                return
            if rnd is not None or turn is not None:
                wanted = (rnd if rnd is not None else state.round, turn or state.turn)
                if wanted not in turns:
                    fail(f"no turn {wanted[1]} in round {wanted[0]} yet", NOT_FOUND)
            else:
                over = [t for t in turns if ctx.timeline.is_over(t)]
                wanted = over[-1] if over else turns[-1]
            if kind == "turn":
                typer.echo(render(turn_report(ctx, wanted, who), fmt))
            elif kind == "private":
                typer.echo(render(private_report(ctx, wanted, who), fmt))
            else:
                asked_in = wanted if rnd is not None or turn is not None else None  # None: the turn now
                msgs = messages_for(ctx, who, asked_in)
                if not msgs:
                    typer.echo(f"no messages for {who}")
                for m in msgs:
                    typer.echo(f"To: {m.to}\nSubject: {m.subject}\n\n{render(m.body, fmt)}\n")
