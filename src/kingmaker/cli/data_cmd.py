"""``kingmaker data``: check a data set folder, or show what it holds."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from kingmaker.data import DataSet, validate_folder
from kingmaker.data.deck_figures import DeckFigures, deck_figures
from kingmaker.data.loader import load_dataset
from kingmaker.data.problems import DataError
from kingmaker.rules.cards import Odds

from .output import safe

FolderArg = Annotated[
    Path | None,
    typer.Argument(
        help="A data set folder (the nine .toml files). Default: the packaged England 1455 set.",
        show_default=False,
    ),
]


def summary_line(ds: DataSet) -> str:
    """One line counting what a data set holds.

    The counts are places, roads, sea zones, nobles, awards (cards, copies counted once),
    ships, heirs and event cards.
    """
    b, c = ds.board, ds.catalog
    return (
        f"{ds.name}: {len(b.places)} places, {len(b.roads)} roads, {len(b.seas)} sea zones, "
        f"{len(c.nobles)} nobles, {len(c.awards)} awards, {len(c.ships)} ships, {len(c.heirs)} heirs, "
        f"{len(c.events)} event cards"
    )


def check(
    folder: FolderArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """Check a data set folder and list every problem as FILE: KEY.PATH: REASON.

    Exits 1 if there is any problem, 0 (with a one-line summary) if the set is clean.

    Example:  kingmaker data check my_variant/
    """
    problems = validate_folder(folder)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "ok": not problems,
                    "problems": [
                        {"file": p.file, "key_path": p.key_path, "reason": p.reason} for p in problems
                    ],
                },
                indent=2,
            )
        )
        raise typer.Exit(1 if problems else 0)
    if problems:
        for p in problems:
            typer.echo(str(p))
        n = len(problems)
        typer.echo(f"{n} problem{'s' if n != 1 else ''} found.")
        raise typer.Exit(1)
    ds = load_dataset(folder)
    typer.echo(f"OK: {summary_line(ds)}")


def _table(title: str, rows: list[tuple[str, int]]) -> Table:
    table = Table(title=title)
    table.add_column("kind")
    table.add_column("count", justify="right")
    for name, count in rows:
        table.add_row(name, str(count))
    table.add_row("[bold]total[/bold]", f"[bold]{sum(c for _, c in rows)}[/bold]")
    return table


def show(folder: FolderArg = None) -> None:
    """Show what a data set holds, as tables.

    Places by kind, roads, sea zones, nobles, awards by kind, ships, heirs and the event
    deck (cards by event and by odds, how often each noble is named in death lists).

    Example:  kingmaker data show            (the packaged England 1455 set)
    """
    try:
        ds = load_dataset(folder)
    except DataError as e:
        for p in e.problems:
            typer.echo(str(p))
        typer.echo("The data set has problems; run `kingmaker data check` for the list.")
        raise typer.Exit(1) from None
    console = Console()
    b, c = ds.board, ds.catalog
    console.print(f"[bold]{safe(summary_line(ds))}[/bold]")
    kinds = Counter(p.kind.label for p in b.places.values())
    console.print(_table("Places by kind", sorted(kinds.items())))
    offmap = sum(1 for p in b.places.values() if p.offmap)
    ports = sum(1 for p in b.places.values() if p.is_port)
    console.print(f"{ports} ports, {offmap} off-map places, {len(b.adjacent)} cross-country links")
    roads = Table(title="Roads")
    roads.add_column("road")
    roads.add_column("places", justify="right")
    roads.add_column("from - to")
    for r in b.roads:
        ends = f"{b.name_of(r.places[0])} - {b.name_of(r.places[-1])}"
        roads.add_row(safe(r.name), str(len(r.places)), safe(ends))
    console.print(roads)
    seas = Table(title="Sea zones")
    seas.add_column("sea")
    seas.add_column("ports", justify="right")
    seas.add_column("borders")
    for s in b.seas.values():
        neighbours = ", ".join(sorted(b.name_of(x) for x in b.sea_neighbours(s.id)))
        seas.add_row(safe(s.name), str(len(b.ports_of_sea.get(s.id, ()))), safe(neighbours))
    console.print(seas)
    nobles = Table(title="Nobles")
    for col in ("noble", "title", "troops", "castles"):
        nobles.add_column(col, justify="right" if col == "troops" else "left")
    for n in c.nobles.values():
        gone = " [dim](removed)[/dim]" if n.id in c.removed else ""
        castles = ", ".join(b.name_of(x) for x in n.castles)
        nobles.add_row(safe(n.name) + gone, safe(n.title or ""), str(n.troops), safe(castles))
    console.print(nobles)
    awards = Counter(a.kind.value for a in c.awards.values())
    console.print(_table("Awards by kind (cards)", sorted(awards.items())))
    ships = Table(title="Ships")
    for col in ("ship", "capacity", "home port"):
        ships.add_column(col)
    for sh in c.ships.values():
        ships.add_row(safe(sh.name), str(sh.capacity), safe(b.name_of(sh.home_port or "-")))
    console.print(ships)
    heirs = Table(title="Royal heirs")
    for col in ("heir", "house", "order", "starts at"):
        heirs.add_column(col)
    for h in sorted(c.heirs.values(), key=lambda h: (h.house, h.order)):
        crowned = " (crowned)" if h.id in ds.setup.crowned else ""
        heirs.add_row(safe(h.name) + crowned, safe(h.house), str(h.order), safe(b.name_of(h.start or "-")))
    console.print(heirs)
    if c.removed:
        console.print("Removed by the set-up: " + safe(", ".join(c.name_of(x) for x in c.removed)))
    _show_deck(console, ds)


def _pct(part: int, whole: int) -> str:
    return f"{DeckFigures.percent(part, whole)} %"


def _show_deck(console: Console, ds: DataSet) -> None:
    """The event deck: cards by event kind and by odds, the death lists and what the
    events name."""
    b, c = ds.board, ds.catalog
    f = deck_figures(c)
    console.print(
        f"[bold]Event deck[/bold]: {f.cards} cards (set-up asks at least {ds.setup.min_event_cards}): "
        f"{f.both_halves} with an event and a battle half, {f.event_only} with an event only, "
        f"{f.battle_only} with a battle half only"
    )
    events = Table(title="Event cards by event (event phase)")
    for col in ("event", "cards", "of the deck"):
        events.add_column(col, justify="left" if col == "event" else "right")
    for kind, n in f.by_event.items():
        events.add_row(kind.value, str(n), _pct(n, f.cards))
    console.print(events)
    odds = Table(title=f"Battle halves by odds ({f.battle_cards} cards; battle and siege draws)")
    for col in ("odds", "cards", "a battle at these odds is decisive on", "share"):
        odds.add_column(col, justify="left" if col == "odds" else "right")
    odds.add_row("Bad Weather", str(f.bad_weather), "-", "-")
    for o in Odds:
        won = f.decisive_at(o)
        odds.add_row(o.value, str(f.by_odds[o]), f"{won} of {f.battle_cards}", _pct(won, f.battle_cards))
    console.print(odds)
    console.print(
        f"A siege falls on {f.siege_falls} of {f.battle_cards} battle cards "
        f"({_pct(f.siege_falls, f.battle_cards)}); Bad Weather on the other {f.bad_weather}."
    )
    by_times: dict[int, list[str]] = {}
    for nid, n in f.named.items():
        by_times.setdefault(n, []).append(c.name_of(nid))
    named = Table(title="Nobles named in death lists")
    named.add_column("times", justify="right")
    named.add_column("nobles")
    for n in sorted(by_times):
        named.add_row(str(n), safe(", ".join(sorted(by_times[n]))))
    console.print(named)

    def listed(counts: dict[str, int], name_of: Callable[[str], str]) -> str:
        return ", ".join(f"{name_of(k)} x{n}" if n > 1 else name_of(k) for k, n in counts.items())

    def summoned(ident: str) -> str:
        return f"the {c.name_of(ident)}" if ident in c.awards else c.name_of(ident)

    kings = {"sole": "the sole King", "lancaster": "the Lancastrian King", "york": "the Yorkist King"}
    embassies = {f"{kings.get(k, k)} to {b.name_of(p)}": n for (k, p), n in f.embassies.items()}
    for title, text in (
        ("Plague strikes", listed(f.plague_places, b.name_of)),
        ("Storms in", listed(f.storm_seas, b.name_of)),
        ("Summoned", listed(f.summonses, summoned)),
        ("Embassies", listed(embassies, str)),
        ("Mercenaries sent home", listed(f.mercenaries, c.name_of)),
    ):
        if text:
            console.print(f"{title}: " + safe(text))


def register(app: typer.Typer) -> None:
    """Mount the ``data`` commands on ``app``."""
    data_app = typer.Typer(help="Check or show a data set (map, cards, set-up).", no_args_is_help=True)
    data_app.command("check")(check)
    data_app.command("show")(show)
    app.add_typer(data_app, name="data")
