"""The GM's steps of the full game at a terminal (issue 13): ``battles`` (the open
battles and sieges, their sides and strengths as the rules count them), ``resolve``
(the engine's draw for a battle or a siege, with its outcome and table),
``draw-event`` and ``end-phase``.

Nothing here is a rule: the strengths, the odds category and the garrison a siege
must match come from ``rules.fighting`` and ``rules.sieges``, whether a step may be
taken now from ``decide`` (which changes nothing), and every step goes through the
service like any other command.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table

from kingmaker.orders_text import names as nm
from kingmaker.rules import commands as rc
from kingmaker.rules.decide import decide
from kingmaker.rules.decision import Report
from kingmaker.rules.fighting import category, present, ratio_words, strength
from kingmaker.rules.sieges import besiegers, defenders, held
from kingmaker.rules.state import Combat, GameState, Siege
from kingmaker.rules.units import name, names
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import Submit
from kingmaker.service.game_service import GameService
from kingmaker.service.outcome import Outcome

from .output import EXIT_CODES_HELP, NOT_FOUND, REFUSED, console, emit, fail, safe, service_errors
from .store_option import DbOption, opened

JsonOption = typer.Option(False, "--json", help="Print JSON for scripts.")


# -- what is open ----------------------------------------------------------------------------


def _factions(state: GameState, nobles: tuple[str, ...]) -> list[str]:
    return sorted({f for n in nobles if (f := state.nobles[n].faction) is not None})


def _may(state: GameState, command: rc.Command) -> dict[str, Any]:
    """Whether the rules would take ``command`` now (``decide`` alone: nothing is drawn
    or written), and if not, why; never the outcome itself."""
    d = decide(state, command)
    if d.refused:
        return {"ready": False, "rule": d.rule, "why": d.explanation}
    return {"ready": True, "rule": None, "why": ""}


def _attack_row(state: GameState, fight: Combat) -> dict[str, Any]:
    place = state.board.places[fight.place]
    atk = tuple(a for a in fight.attackers if present(state, a, place.id))
    dfn = tuple(d for d in fight.defenders if present(state, d, place.id))
    sa, sd = strength(state, atk, place), strength(state, dfn, place)
    row: dict[str, Any] = {
        "id": fight.id,
        "kind": fight.kind,
        "place": place.id,
        "by": fight.by,
        "round": fight.round,
        "attackers": list(atk),
        "defenders": list(dfn),
        "attacking_factions": _factions(state, atk),
        "defending_factions": _factions(state, dfn),
        "strengths": {"attackers": sa, "defenders": sd},
        "ratio": category(sa, sd) if atk and dfn else None,
    }
    if state.phased:
        row |= _may(state, rc.Battle(rc.GM, fight.id))
    else:  # a game without phases: the GM rules on it by hand
        row |= {"ready": True, "rule": None, "why": f"by hand: RESOLVE {fight.id}: <what happened>"}
    return row


def _siege_row(state: GameState, siege: Siege) -> dict[str, Any]:
    place = state.board.places[siege.place]
    laying = besiegers(state, siege)
    inside = defenders(state, place.id)
    need, words = held(state, place, inside)
    return {
        "place": place.id,
        "by": siege.by,
        "besiegers": list(laying),
        "inside": list(inside),
        "strength": strength(state, laying, place),
        "garrison": place.garrison,
        "held": need,
        "held_words": words,
        "since": {"round": siege.round, "turn": siege.turn},
        "last_draw_round": siege.last_draw_round,
    } | _may(state, rc.SiegeAssault(rc.GM, place.id))


def open_fighting(state: GameState) -> dict[str, Any]:
    """The open battles (declared attacks, and a game without phases' declared sieges)
    and the sieges in progress, as the rules count them."""
    return {
        "phased": state.phased,
        "phase": state.phase,
        "round": state.round,
        "turn": state.turn,
        "battles": [_attack_row(state, x) for x in state.combats],
        "sieges": [_siege_row(state, s) for s in state.sieges.values()],
    }


def _show_fighting(state: GameState, data: dict[str, Any]) -> None:
    def side(nobles: list[str], total: int) -> str:
        return f"{safe(names(state, nobles) or 'no one')} ({total})"

    def ready(row: dict[str, Any]) -> str:
        return "[green]ready[/green]" if row["ready"] else f"[yellow]not now[/yellow]: {safe(row['why'])}"

    if not data["battles"] and not data["sieges"]:
        console.print("no open battles or sieges")
        return
    if data["battles"]:
        t = Table(title="battles")
        longest = max(len(b["id"]) for b in data["battles"])
        t.add_column("id", no_wrap=True, min_width=longest)  # the GM types it: never cut
        for heading in ("kind", "at", "attacking", "defending", "ratio", "draw"):
            t.add_column(heading)
        for b in data["battles"]:
            t.add_row(
                safe(b["id"]),
                b["kind"],
                safe(name(state, b["place"])),
                f"{safe(', '.join(b['attacking_factions']))}: {side(b['attackers'], b['strengths']['attackers'])}",
                f"{safe(', '.join(b['defending_factions']))}: {side(b['defenders'], b['strengths']['defenders'])}",
                ratio_words(b["ratio"]) if b["ratio"] else "-",
                ready(b),
            )
        console.print(t)
    if data["sieges"]:
        t = Table("siege of", "by", "besiegers", "against", "since", "draw", title="sieges")
        for s in data["sieges"]:
            t.add_row(
                safe(name(state, s["place"])),
                safe(s["by"]),
                side(s["besiegers"], s["strength"]),
                safe(s["held_words"]),
                f"round {s['since']['round']}, {safe(s['since']['turn'])}'s turn",
                ready(s),
            )
        console.print(t)


# -- resolving --------------------------------------------------------------------------------


def _command_for(state: GameState, ident: str) -> rc.Command:
    """The engine's draw for ``ident``: an attack's id (BATTLE), a siege's combat id or
    its place, by id or by name (SIEGE). Exits 3 when nothing open is called that."""
    fight = next((x for x in state.combats if x.id == ident), None)
    if fight is not None:
        return rc.Battle(rc.GM, fight.id) if fight.kind == "attack" else rc.SiegeAssault(rc.GM, fight.place)
    place = ident if ident in state.sieges else None
    if place is None:
        try:
            place = nm.names_for(state).resolve(ident, nm.PLACES).id
        except nm.NameProblem:  # an unknown or ambiguous name: nothing open by it
            place = None
    if place is None or place not in state.sieges:
        open_ids = [x.id for x in state.combats] + sorted(state.sieges)
        listed = f"; open now: {', '.join(open_ids)}" if open_ids else "; nothing is open"
        fail(f"there is no open battle or siege {ident!r}{listed} (kingmaker battles lists them)", NOT_FOUND)
    return rc.SiegeAssault(rc.GM, place)


def _report_data(state: GameState, report: Report) -> dict[str, Any]:
    """What a decision reports (FULL_GAME §5's fields), with the cards' names."""

    def named(part: Any) -> dict[str, Any]:
        figures: dict[str, Any] = dict(part)
        card = figures.get("card")
        figures["card_name"] = state.catalog.name_of(card) if card else None
        return figures

    out: dict[str, Any] = {}
    if "battle" in report:
        out["battle"] = named(report["battle"])
    if "siege" in report:
        out["siege"] = named(report["siege"])
    if "event" in report:
        out["event"] = named(report["event"])
    if "killed" in report:
        out["killed"] = list(report["killed"])
    if "executed" in report:
        out["executed"] = list(report["executed"])
    return out


def _figures_table(state: GameState, figures: dict[str, Any], title: str) -> Table:
    t = Table("", title, show_header=False)
    for faction, total in figures.get("strengths", {}).items():
        t.add_row(f"{safe(faction or 'no faction')}'s strength", str(total))
    if "ratio" in figures:
        t.add_row("ratio", ratio_words(figures["ratio"]))
    card = f"{safe(figures.get('card_name') or '')}"
    odds = figures.get("odds")
    t.add_row("card", card + (f" ({odds})" if odds else " (Bad Weather)" if "odds" in figures else ""))
    t.add_row("outcome", safe(str(figures.get("outcome", "")).replace("_", " ")))
    if "winner" in figures:
        t.add_row("winner", safe(figures["winner"] or "none"))
    t.add_row("killed", safe(names(state, list(figures.get("killed", ()))) or "none"))
    t.add_row("captured", safe(names(state, list(figures.get("captured", ()))) or "none"))
    return t


def _step(svc: GameService, game: str, command: rc.Command, as_json: bool) -> Outcome:
    """Submit the GM's ``command``; print its answer (with the figures a battle, a
    siege or an event reports); exit 1 when it is refused."""
    before = svc.state(game)
    out = svc.execute(GM_ACTOR, Submit(game, command))
    report = _report_data(before, out.decision.report) if out.decision is not None else {}
    after = svc.state(game)
    data = out.to_data() | report | {"phase": after.phase, "round": after.round, "turn": after.turn}

    def human() -> None:
        colour = {"accepted": "green", "refused": "red", "pending": "yellow"}.get(out.result, "cyan")
        console.print(f"[{colour}]{out.result}[/{colour}] {safe(out.explanation)}")
        for key, title in (("battle", "battle"), ("siege", "siege")):
            if key in report:
                console.print(_figures_table(before, report[key], title))
        if "event" in report:
            e = report["event"]
            console.print(f"event card: {safe(e['card_name'])} ({safe(e['kind'].replace('_', ' '))})")
        if after.phased and out.result != "refused":
            console.print(f"now: round {after.round}, {safe(after.turn)}'s turn, {after.phase} phase")

    emit(as_json, data, human)
    if out.result == "refused":
        raise typer.Exit(REFUSED)
    return out


def register(app: typer.Typer) -> None:
    @app.command("battles", epilog=EXIT_CODES_HELP)
    def battles(game: str, db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """The open battles and sieges: ids, sides, strengths and odds as the rules count
        them, and whether each may be drawn for now.

        Example: kingmaker battles wars-1a2b3c --json
        """
        with opened(db) as store, service_errors():
            state = GameService(store).state(game)
            data = open_fighting(state)
            emit(as_json, data, lambda: _show_fighting(state, data))

    @app.command("resolve", epilog=EXIT_CODES_HELP)
    def resolve(
        game: str,
        ident: str = typer.Argument(
            ..., metavar="ID", help="An attack's id, or a siege's place (id or name)."
        ),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """Draw the card for an open battle or siege (the engine's BATTLE.* or SIEGE.*):
        prints the outcome sentence with its rule id, and the table (strengths, ratio,
        card, outcome, the dead, the captured). In a game without phases the GM rules by
        hand instead: kingmaker orders GAME --as gm <<< 'RESOLVE c7: what happened'.

        Example: kingmaker resolve wars-1a2b3c c-3f9a2c01de
        """
        with opened(db) as store, service_errors():
            svc = GameService(store)
            state = svc.state(game)
            if not state.phased:
                fail(
                    f"{game} plays without phases: the GM rules on combat by hand "
                    f"(kingmaker orders {game} --as gm, with RESOLVE <id>: <what happened>)",
                    REFUSED,
                )
            _step(svc, game, _command_for(state, ident), as_json)

    @app.command("draw-event", epilog=EXIT_CODES_HELP)
    def draw_event(game: str, db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """Draw this turn's event card (EVENT.draw) and carry out its event; a storm
        waits for the ships' factions to choose ports (or for its deadline). Needed only
        in a game created with --manual-events.

        Example: kingmaker draw-event wars-1a2b3c
        """
        with opened(db) as store, service_errors():
            _step(GameService(store), game, rc.DrawEvent(rc.GM), as_json)

    @app.command("end-phase", epilog=EXIT_CODES_HELP)
    def end_phase(game: str, db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """Move the current turn on to its next phase (PHASE.*); the Crown phase's end
        ends the turn.

        Example: kingmaker end-phase wars-1a2b3c
        """
        with opened(db) as store, service_errors():
            _step(GameService(store), game, rc.EndPhase(rc.GM), as_json)
