"""The GM's game commands: new, seat, status, view, pending, answer, grant, revoke,
end-turn, tick, undo, log, games, replay, reveal-seed.

The CLI acts as the GM (a GM at a terminal); ``--as FACTION`` where a command is given
on a faction's behalf, as forum GMs do with orders sent by private message.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import typer
from rich.table import Table

from kingmaker.rules import commands as rc
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.options import OPTIONS, OptionError, assignments
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import CreateGame, FinishTurn, SeatPlayer, Submit, Tick, Undo
from kingmaker.service.errors import BadRequest
from kingmaker.service.game_service import GameService
from kingmaker.service.open_business import OpenBusiness
from kingmaker.service.outcome import Outcome
from kingmaker.service.settings import GameSettings, policy_of

from .full_game_view import full_game_data, show_full_game
from .open_view import show_open, warn_open
from .output import EXIT_CODES_HELP, REFUSED, console, emit, fail, safe, service_errors
from .store_option import DbOption, opened

JsonOption = typer.Option(False, "--json", help="Print JSON for scripts.")


def _outcome(out: Outcome, as_json: bool) -> None:
    data = out.to_data()
    if out.token:
        data["token"] = out.token

    def human() -> None:
        console.print(_verdict_line(out))
        if out.token:
            console.print(f"secret token (give it to the player privately; it is shown once): {out.token}")

    emit(as_json, data, human)
    if out.result == "refused":
        raise typer.Exit(REFUSED)


def option_help() -> str:
    """The options for ``--help``: each one's name, allowed values and default."""
    return "; ".join(f"{o.name} ({o.allowed}; default {o.default})" for o in OPTIONS)


def _verdict_line(out: Outcome) -> str:
    colour = {"accepted": "green", "refused": "red", "pending": "yellow"}.get(out.result, "cyan")
    rule = f" [dim]({out.rule})[/dim]" if out.rule and out.rule not in out.explanation else ""
    return f"[{colour}]{out.result}[/{colour}] {safe(out.explanation)}{rule}"


def register(app: typer.Typer) -> None:
    @app.command("new")
    def new(
        name: str = typer.Argument(..., help="The game's name, e.g. 'Wars of the Roses I'."),
        factions: str = typer.Option(
            "red,blue,green,gold", "--factions", help="Faction ids, comma-separated."
        ),
        seed: str | None = typer.Option(
            None, "--seed", help="The secret random seed (default: a fresh one)."
        ),
        data: str | None = typer.Option(None, "--data", help="A data folder (default: England 1455)."),
        game_id: str | None = typer.Option(None, "--id", help="The game id (default: from the name)."),
        policy: str = typer.Option(
            "hold", "--policy", help="Missing orders at the deadline: hold or extend."
        ),
        turn_hours: float = typer.Option(24.0, "--turn-hours", help="Hours per turn (0: no deadline)."),
        request_hours: float = typer.Option(
            24.0, "--request-hours", help="Hours to answer a request (0: none)."
        ),
        hand: bool = typer.Option(
            False,
            "--hand-adjudication",
            help="The GM rules on combat and events by hand: no phases, no event deck "
            "(only the location and alliance rules are the engine's).",
        ),
        manual_events: bool = typer.Option(
            False,
            "--manual-events",
            help="The GM draws each turn's event card (default: drawn as the turn begins).",
        ),
        option: list[str] = typer.Option(
            [],
            "--option",
            help="A game option of the full game, NAME=VALUE (repeat for more): "
            + option_help()
            + ". Not chosen: the default.",
        ),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """Create a game and deal the starting cards from the seed.

        Prints the game id and the SHA-256 commitment to the seed (publish it), and the
        options chosen (every player may know them).

        Example: kingmaker new "Wars of the Roses" --factions red,blue,green,gold --policy extend
        --option heir_survival=on --option victory_hold_turns=4
        """
        with service_errors():  # checked before the store is opened: a refusal creates nothing
            try:
                options = assignments(option)
            except OptionError as e:
                raise BadRequest(str(e)) from None
            settings = GameSettings(
                policy_of(policy),
                turn_hours or None,
                request_hours or None,
                full_game=not hand,
                draw_events=not manual_events,
                options=options,
            )
        with opened(db) as store, service_errors():
            cmd = CreateGame(
                name,
                tuple(f.strip() for f in factions.split(",") if f.strip()),
                seed,
                data,
                settings,
                game_id,
            )
            svc = GameService(store)
            out = svc.execute(GM_ACTOR, cmd)
            rec = store.game(out.game)
            chosen = dict(svc.state(out.game).options)
            data_out = {
                "game": out.game,
                "factions": list(rec.factions),
                "commitment": rec.commitment,
                "options": chosen,
            }
            emit(
                as_json,
                data_out,
                lambda: console.print(
                    f"created [bold]{out.game}[/bold] for {', '.join(rec.factions)}\n"
                    f"seed commitment (SHA-256): {rec.commitment}"
                    + (
                        f"\noptions: {safe(', '.join(f'{k}={v}' for k, v in chosen.items()))}"
                        if chosen
                        else ""
                    )
                ),
            )

    @app.command("seat")
    def seat(
        game: str,
        faction: str,
        player: str,
        email: str | None = typer.Option(
            None, "--email", help="Tell the player by e-mail at this address (docs/notifications.md)."
        ),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """Seat a player for a faction; prints their secret token (shown once). A new seat
        replaces the faction's e-mail address too (--email, or `kingmaker email set`).

        Example: kingmaker seat wars-1a2b3c red "Alice" --email alice@example.org
        """
        with opened(db) as store, service_errors():
            _outcome(GameService(store).execute(GM_ACTOR, SeatPlayer(game, faction, player, email)), as_json)

    @app.command("games")
    def games(db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """List the games in the store.

        Example: kingmaker games --db sqlite:///forum.db
        """
        with opened(db) as store:
            rows = [
                {"id": g.id, "name": g.name, "created": g.created_at, "factions": list(g.factions)}
                for g in store.games()
            ]

            def show() -> None:
                t = Table("id", "name", "created", "factions")
                for r in rows:
                    t.add_row(
                        safe(r["id"]), safe(r["name"]), safe(r["created"]), safe(", ".join(r["factions"]))
                    )
                console.print(t)

            emit(as_json, rows, show)

    @app.command("status")
    def status(game: str, db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """The position as the GM sees it: turn, deadlines, nobles, ships, control; and
        what is still open: battles and sieges, what waits for each faction's answer
        (alliances, allied orders, armies, ransoms, storm ports, permissions),
        Parliament, captives, and where every heir is.

        Example: kingmaker status wars-1a2b3c
        """
        with opened(db) as store, service_errors():
            svc = GameService(store)
            _show_view(svc, game, GM_ACTOR, as_json, business=svc.open_business(game))

    @app.command("view")
    def view_cmd(game: str, faction: str, db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """What FACTION may see: its secret alliances, its requests, and the public position.

        Example: kingmaker view wars-1a2b3c blue --json
        """
        from kingmaker.service.identity import player

        with opened(db) as store, service_errors():
            svc = GameService(store)
            if faction not in svc.state(game).turn_order:
                fail(f"{faction!r} is not a faction of {game}", REFUSED)
            _show_view(svc, game, player(faction), as_json)

    @app.command("pending")
    def pending(
        game: str,
        for_faction: str | None = typer.Option(None, "--for", help="Only what this faction may see."),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """What waits for answers, for whom, and until when.

        Example: kingmaker pending wars-1a2b3c --for green
        """
        from kingmaker.service.identity import player

        with opened(db) as store, service_errors():
            svc = GameService(store)
            actor = player(for_faction) if for_faction else GM_ACTOR
            items = svc.pending(game, actor)
            deadlines = svc.deadlines(game) if not for_faction else []
            rows = [i.__dict__ for i in items]

            def show() -> None:
                t = Table("kind", "id", "by", "awaiting", "due (UTC)", "rule", "what")
                for i in items:
                    t.add_row(
                        i.kind, safe(i.id), i.by, ", ".join(i.awaiting), i.due or "-", i.rule, safe(i.summary)
                    )
                console.print(t)
                if deadlines:
                    d = Table("deadline for", "kind", "due (UTC)", "extended")
                    for x in deadlines:
                        d.add_row(safe(x.target), x.kind, x.due, "yes" if x.extended else "")
                    console.print(d)

            emit(as_json, {"pending": rows, "deadlines": [x.__dict__ for x in deadlines]}, show)

    @app.command("answer")
    def answer(
        game: str,
        faction: str = typer.Argument(..., help="The faction answering."),
        target: str = typer.Argument(..., help="A request id (allied order, army) or an alliance id."),
        reply: str = typer.Argument(..., help="confirm or reject (accept / decline for alliances)."),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """Enter a faction's answer to a request or an alliance declaration.

        Example: kingmaker answer wars-1a2b3c green q17 confirm
        """
        yes = reply.lower() in ("confirm", "accept", "yes")
        if reply.lower() not in ("confirm", "accept", "yes", "reject", "decline", "no"):
            fail("the reply is confirm or reject (accept or decline)", REFUSED)
        with opened(db) as store, service_errors():
            svc = GameService(store)
            state = svc.state(game)
            command: rc.Command
            if target in state.declarations:
                command = rc.AnswerAlliance(faction, target, yes)
            else:
                command = rc.Confirm(faction, target) if yes else rc.Reject(faction, target)
            _outcome(svc.execute(GM_ACTOR, Submit(game, command)), as_json)

    @app.command("grant")
    def grant(
        game: str,
        by: str,
        to: str,
        place: str,
        aspects: list[str] = typer.Argument(..., help="road, enter, ship_enter, embark, forced_leave"),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """Record a permission BY grants TO at PLACE (ruling R5).

        Example: kingmaker grant wars-1a2b3c blue red coventry road enter
        """
        with opened(db) as store, service_errors():
            cmd = rc.Grant(by, to, place, tuple(aspects))
            _outcome(GameService(store).execute(GM_ACTOR, Submit(game, cmd)), as_json)

    @app.command("revoke")
    def revoke(
        game: str,
        by: str,
        to: str,
        place: str,
        aspects: list[str] = typer.Argument(None, help="Aspects to revoke (none: all)."),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """Revoke a permission (all of it without aspects).

        Example: kingmaker revoke wars-1a2b3c blue red coventry
        """
        with opened(db) as store, service_errors():
            cmd = rc.Revoke(by, to, place, tuple(aspects or ()))
            _outcome(GameService(store).execute(GM_ACTOR, Submit(game, cmd)), as_json)

    @app.command("end-turn")
    def end_turn(
        game: str,
        force: bool = typer.Option(
            False, "--force", help="End the turn even though something is still open (see status)."
        ),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """End the current faction's turn (pending requests lapse, R15). While something
        the turn's end would settle or drop is still open (a battle not resolved, a
        siege that may still be drawn, requests that would lapse, a storm's ports, a
        Parliament sitting), it says what and ends nothing, unless --force.

        Example: kingmaker end-turn wars-1a2b3c
        """
        with opened(db) as store, service_errors():
            svc = GameService(store)
            out = svc.execute(GM_ACTOR, FinishTurn(game, svc.state(game).turn, force))
            if out.result == "refused" and not force:
                business = svc.open_business(game)
                if business.holding:
                    if as_json:
                        emit(True, out.to_data() | {"open": business.to_data()}, lambda: None)
                    else:
                        warn_open(business, game)
                    raise typer.Exit(REFUSED)
            _outcome(out, as_json)

    @app.command("tick")
    def tick(game: str, db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """Record every deadline that has passed (run from cron, or by hand).

        Example: kingmaker tick wars-1a2b3c
        """
        with opened(db) as store, service_errors():
            _outcome(GameService(store).execute(GM_ACTOR, Tick(game)), as_json)

    @app.command("undo")
    def undo(
        game: str,
        seq: int = typer.Argument(..., help="Restore the state as it stood after this log entry."),
        reason: str = typer.Option("", "--reason"),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """Restore an earlier state (the undo is itself logged; nothing is deleted).

        Example: kingmaker undo wars-1a2b3c 41 --reason "order entered for the wrong faction"
        """
        with opened(db) as store, service_errors():
            _outcome(GameService(store).execute(GM_ACTOR, Undo(game, seq, reason)), as_json)

    @app.command("reveal-seed")
    def reveal_seed(game: str, db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """Reveal the random seed (at the end of the game), so anyone can verify the draws.

        Example: kingmaker reveal-seed wars-1a2b3c && kingmaker export wars-1a2b3c | kingmaker verify-draws -
        """
        with opened(db) as store, service_errors():
            _outcome(GameService(store).execute(GM_ACTOR, Submit(game, rc.RevealSeed(rc.GM))), as_json)

    @app.command("log")
    def log(
        game: str,
        for_faction: str | None = typer.Option(None, "--for", help="Only what this faction may read."),
        last: int = typer.Option(0, "--last", help="Only the last N entries."),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """The game log with rule ids (the GM's, or what one faction may read).

        Example: kingmaker log wars-1a2b3c --for red --last 20
        """
        from dataclasses import replace

        from kingmaker.log.envelope import envelope_to_data
        from kingmaker.log.visibility import numbering
        from kingmaker.service.identity import player

        with opened(db) as store, service_errors():
            svc = GameService(store)
            entries = svc.log_for(game, player(for_faction)) if for_faction else svc.log(game)
            if for_faction:  # numbered as the faction numbers what it may read, no command ids
                number = numbering(entries, for_faction)
                entries = [replace(e, seq=number(e.seq), command=None) for e in entries]
            if last:
                entries = entries[-last:]
            rows = [envelope_to_data(e) for e in entries]

            def show() -> None:
                t = Table("seq", "round", "turn", "actor", "rule", "entry")
                for e in entries:
                    t.add_row(
                        str(e.seq),
                        str(e.round),
                        safe(e.turn),
                        safe(e.actor),
                        e.rule or "",
                        safe(_summary(e.event)),
                    )
                console.print(t)

            emit(as_json, rows, show)

    @app.command("replay")
    def replay_cmd(game: str, db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """Replay the whole log from the first entry and compare with the stored state.

        Example: kingmaker replay wars-1a2b3c
        """
        with opened(db) as store, service_errors():
            svc = GameService(store)
            current = state_hash(svc.state(game))
            entries = store.head(game)  # entries are numbered from 1, one after another
            busy = (
                console.status("replaying the log") if console.is_terminal and not as_json else nullcontext()
            )
            with busy:
                replayed = state_hash(svc.replayed_state(game))
            data = {
                "entries": entries,
                "replayed": replayed,
                "current": current,
                "same": replayed == current,
            }
            emit(
                as_json,
                data,
                lambda: console.print(
                    f"{entries} entries; replayed {replayed[:16]} current {current[:16]}: "
                    + ("[green]the same[/green]" if replayed == current else "[red]DIFFERENT[/red]")
                ),
            )
            if replayed != current:
                raise typer.Exit(REFUSED)

    _ = EXIT_CODES_HELP


def _summary(event: Any) -> str:
    fields = {k: v for k, v in getattr(event, "__dict__", {}).items()} if hasattr(event, "__dict__") else {}
    if not fields:
        import dataclasses

        fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
    parts = []
    for k, v in fields.items():
        if hasattr(v, "kind") and not isinstance(v, str):
            v = v.kind
        parts.append(f"{k}={v}")
    return f"{event.kind} " + " ".join(parts)


def _show_view(
    svc: GameService, game: str, actor: Any, as_json: bool, business: OpenBusiness | None = None
) -> None:
    from kingmaker.rules.codec import encode

    v = svc.view(game, actor)
    state = svc.state(game)

    def names(ident: str) -> str:
        return safe(state.catalog.name_of(ident))

    def place(ident: str) -> str:
        return safe(state.board.name_of(ident))

    deadlines = svc.deadlines(game)
    data = {"view": encode(v), "deadlines": [d.__dict__ for d in deadlines if d.kind == "turn"]}
    full = full_game_data(state, v, deadlines)  # phase, decks, sieges, captives, ransoms, storms
    if full:
        data["full_game"] = full
    if business is not None:  # the GM's: what is still open, and the heirs
        data["open"] = business.to_data()

    def show() -> None:
        turn_due = next((d.due for d in deadlines if d.kind == "turn"), None)
        console.print(
            f"[bold]{safe(game)}[/bold] round {v.round}, [bold]{safe(v.turn)}[/bold] to play"
            + (f" (deadline {turn_due} UTC)" if turn_due else "")
        )
        show_full_game(state, full)
        t = Table("noble", "faction", "where", "troops", "crown items")
        for n in sorted(v.nobles, key=lambda n: (n.faction or "", n.id)):
            if n.captive_of:
                where = f"captive of {safe(n.captive_of)}"
            elif n.aboard:
                where = f"aboard {names(n.aboard)}"
            else:
                where = ("inside " if n.inside else "at ") + place(n.place or "?")
            t.add_row(
                names(n.id),
                safe(n.faction or ""),
                where,
                str(n.troops),
                ", ".join(names(a) for a in n.awards),
            )
        console.print(t)
        if v.ships:
            s = Table("ship", "faction", "where", "capacity", "passengers")
            for sh in sorted(v.ships, key=lambda s: s.id):
                s.add_row(
                    names(sh.id),
                    safe(sh.faction or ""),
                    ("in " if sh.in_port else "at ") + place(sh.place) + (" (storm)" if sh.forced else ""),
                    str(sh.capacity),
                    ", ".join(names(p) for p in sh.passengers),
                )
            console.print(s)
        c = Table("faction", "controls")
        held: dict[str, list[str]] = {}
        for p, f in v.control:
            held.setdefault(f, []).append(place(p))
        for f in v.turn_order:
            c.add_row(safe(f), ", ".join(sorted(held.get(f, []))))
        console.print(c)
        if v.alliances:
            console.print(
                "alliances: "
                + "; ".join(
                    safe(f"{a.id} ({', '.join(a.members)}{', secret' if not a.public else ''})")
                    for a in v.alliances
                )
            )
        if business is not None:
            show_open(business, v.turn_order)

    emit(as_json, data, show)
