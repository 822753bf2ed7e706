"""Shared output for the game commands: Rich tables for people, ``--json`` for scripts,
and exit codes that mean something."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from kingmaker.service.errors import BadRequest, Conflict, NotFound, PermissionDenied, ServiceError

# Exit codes
OK = 0
REFUSED = 1  # an order or request was refused, or the input has problems
UNAVAILABLE = 2  # the store cannot be opened, or the command line is wrong
NOT_FOUND = 3
FORBIDDEN = 4
CONFLICT = 5

EXIT_CODES_HELP = (
    "Exit codes: 0 done; 1 refused or bad input; 2 store unavailable; 3 not found; 4 not allowed; 5 conflict."
)

console = Console()
errors = Console(stderr=True)


def safe(text: object) -> str:
    """``text`` for a Rich string or table cell: printed as written, never read as
    markup (a name or an order may hold ``[bold]`` or ``[/red]``, which Rich would apply,
    or refuse with an error)."""
    return escape(str(text))


def fail(message: str, code: int) -> NoReturn:
    errors.print(f"[red]{safe(message)}[/red]", highlight=False)
    raise typer.Exit(code)


@contextmanager
def service_errors() -> Iterator[None]:
    """Turn the service's refusals into a message and an exit code (no traceback)."""
    try:
        yield
    except NotFound as e:
        fail(str(e), NOT_FOUND)
    except PermissionDenied as e:
        fail(str(e), FORBIDDEN)
    except Conflict as e:
        fail(str(e), CONFLICT)
    except (BadRequest, ServiceError) as e:
        fail(str(e), REFUSED)


def emit(as_json: bool, data: Any, human: Callable[[], None]) -> None:
    if as_json:
        typer.echo(json.dumps(data, indent=2, sort_keys=True, default=str))
    else:
        human()
