"""What the pages and the API do, once: thin functions over ``GameService``, each taking
the ``Site`` (the service and per-game caches) and the acting ``Actor``, and answering
with the API's models. One module per concern: ``games``, ``positions``, ``orders``,
``inbox``, ``reports`` (and the log), ``gm`` (the GM's acts); for the full game,
``full`` (phase, decks, hands, captives, ransoms, storms, sieges as the caller sees
them), ``fighting`` (the GM's open battles and sieges, resolving them, the event and
the phases) and ``captives`` (ransom offers, storm ports, freeing and executing); for
the game's end, ``crown`` (the hand's choices, coronations, what each faction still has
to do, and those steps) and ``parliament`` (the sitting as the caller sees it, its
choices and steps);
``site`` holds the shared parts and who may see what.

Secrecy: positions come from ``view(state, viewer)``, log entries from
``GameService.log_for``, waiting items from ``GameService.pending``, reports from the
report builders for that viewer. Text orders go through the service's one use case
(``GameService.post``), which reads each line against what its author may see and has
the rules judge it on the real state.
"""

from . import captives, crown, fighting, full, games, gm, inbox, orders, parliament, positions, reports
from .site import Site

__all__ = [
    "Site",
    "captives",
    "crown",
    "fighting",
    "full",
    "games",
    "gm",
    "inbox",
    "orders",
    "parliament",
    "positions",
    "reports",
]
