"""The CLI keeps the limits and prints what users wrote as written (issue 11 §3.5,
§3.6, §3.9): a name with a line break or an over-long post is refused with a message
and exit code 1; text holding Rich markup (``[/bold]``) is printed literally, never read
as markup (which ended the command with an internal error, after the player was seated
and before the token was shown); undo to -1 is refused. On a real SQLite file."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from kingmaker.cli.app import _mount, app
from kingmaker.rules.limits import ORDERS_MAX_LINES

_mount()


class Cli:
    def __init__(self, db: Path):
        self.db = f"sqlite:///{db}"
        self.runner = CliRunner()

    def run(self, *args: str, stdin: str | None = None, code: int = 0) -> str:
        # --db right after the command's name, so "--" can end the options
        r = self.runner.invoke(app, [args[0], "--db", self.db, *args[1:]], input=stdin)
        assert r.exit_code == code, f"{args} -> {r.exit_code}\n{r.output}"
        assert "Traceback" not in r.output and "internal error" not in r.output, r.output
        return r.output


def _squeezed(text: str) -> str:
    """``text`` without spaces, line breaks and table borders (a table wraps long cells)."""
    return re.sub(r"[\s│┃]", "", text)


def test_names_with_line_breaks_are_refused(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "g.db")
    out = cli.run("new", "Wars\n\n## GM ANNOUNCEMENT", "--id", "w", code=1)
    assert "one line" in out and "line break" in out
    cli.run("new", "Wars", "--id", "w", "--seed", "s", "--hand-adjudication")
    out = cli.run("seat", "w", "red", "Ann\u202e", code=1)
    assert "bidirectional" in out
    out = cli.run("undo", "w", "--", "-1", code=1)
    assert "cannot undo to entry -1" in out


def test_markup_in_what_users_wrote_is_printed_literally(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "g.db")
    cli.run("new", "Wars [/red] of [bold]the[/bold] Roses", "--id", "w", "--seed", "s", "--hand-adjudication")
    out = cli.run("seat", "w", "red", "Ann [/bold] [link=http://evil.example]x[/link]")
    assert "secret token" in out and "Ann [/bold] [link=http://evil.example]x[/link]" in out
    games = _squeezed(cli.run("games"))  # a table wraps long cells: look for the pieces
    assert "[/red]" in games and "[bold]the[/bold]" in games
    log = _squeezed(cli.run("log", "w"))
    assert "Ann[/bold]" in log and "[/link]" in log
    out = cli.run("seat", "w", "[/red]", "Ann", code=1)
    assert "'[/red]'" in out
    out = cli.run("orders", "w", "--as", "red", "--check", stdin="Percy MOVES TO [/red]York\n", code=1)
    assert "[/red]York" in out


def test_a_post_over_the_limits_is_refused(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "g.db")
    cli.run("new", "Wars", "--id", "w", "--seed", "s", "--hand-adjudication")
    head = json.loads(cli.run("status", "w", "--json"))
    out = cli.run("orders", "w", "--as", "red", stdin="Red ALLIES WITH Green\n" * (ORDERS_MAX_LINES + 1), code=1)
    assert f"at most {ORDERS_MAX_LINES}" in out
    out = cli.run("orders", "w", "--as", "red", stdin="x" * 30_000, code=1)
    assert "20,000" in out
    assert json.loads(cli.run("status", "w", "--json")) == head  # nothing was sent
