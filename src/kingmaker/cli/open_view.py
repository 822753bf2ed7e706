"""What ``status`` shows of the game's open business (``GameService.open_business``):
battles and sieges, what waits for each faction's answer, Parliament, captives, and
where every heir is; and the warning ``end-turn`` gives before it ends a turn with
something still open. Nothing is worked out here: the service's query says it all."""

from __future__ import annotations

from rich.table import Table

from kingmaker.rules.commands import GM
from kingmaker.service.open_business import OpenBusiness

from .output import console, errors, safe


def show_open(business: OpenBusiness, factions: tuple[str, ...]) -> None:
    """The open business for people: one table of what is open (by whom it waits for),
    one of the heirs."""
    t = Table("waiting for", "what", "due (UTC)", "holds the turn", title="open business")
    shown: set[int] = set()
    for who, items in business.by_faction(factions).items():
        for i in items:
            shown.add(id(i))
            t.add_row(
                "the GM" if who == GM else safe(who),
                safe(i.text),
                i.due or "-",
                "yes" if i.holds_turn else "",
            )
    for i in business.items:  # what waits for no one (a siege going on, a captive's fate)
        if id(i) not in shown:
            t.add_row("-", safe(i.text), i.due or "-", "yes" if i.holds_turn else "")
    if t.row_count:
        console.print(t)
    else:
        console.print("open business: none")
    h = Table("heir", "house", "crowned", "where", title="royal heirs")
    for x in business.heirs:
        h.add_row(safe(x.name), f"{safe(x.house)} {x.order}", "yes" if x.crowned else "", safe(x.where))
    console.print(h)


def warn_open(business: OpenBusiness, game: str) -> None:
    """Why ``end-turn`` did not end the turn, and how to end it all the same."""
    errors.print(f"[yellow]{safe(business.turn)}'s turn was not ended: something is still open[/yellow]")
    for i in business.holding:
        errors.print(f"  - {safe(i.text)}", highlight=False)
    errors.print(f"Settle these first, or end the turn anyway: kingmaker end-turn {safe(game)} --force")
