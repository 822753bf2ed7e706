"""``kingmaker new --option NAME=VALUE`` (FULL_GAME §1's options, ``rules.options``) on a
real SQLite file: the options chosen are the game's (its state, its log's first entry,
``status``), a bad one is refused with the allowed values and creates nothing, and
``replay``, ``export`` and ``import`` keep them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from kingmaker.cli.app import command_app
from kingmaker.log.service_events import GameStarted
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.options import OPTIONS
from kingmaker.service.game_service import GameService
from kingmaker.storage import open_store


class Cli:
    def __init__(self, db: Path):
        self.url = f"sqlite:///{db}"
        self.runner = CliRunner()
        self.app = command_app()

    def run(self, *args: str, code: int = 0, db: str | None = None) -> str:
        r = self.runner.invoke(self.app, [*args, "--db", db or self.url])
        assert r.exit_code == code, f"{args} -> {r.exit_code}\n{r.output}"
        assert "Traceback" not in r.output, r.output
        return r.output

    def json(self, *args: str, db: str | None = None) -> Any:
        return json.loads(self.run(*args, "--json", db=db))

    def service(self, db: str | None = None) -> GameService:
        return GameService(open_store(db or self.url))


def _started(svc: GameService, game: str) -> GameStarted:
    return next(e.event for e in svc.store.envelopes(game) if isinstance(e.event, GameStarted))


def test_new_with_options_makes_them_the_games(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "o.db")
    out = cli.json(
        "new", "Opts", "--id", "o", "--seed", "s",
        "--option", "heir_survival=on", "--option", "victory_hold_turns=4", "--option", "reshuffle=each_draw",
    )  # fmt: skip
    chosen = {"heir_survival": "on", "reshuffle": "each_draw", "victory_hold_turns": "4"}
    assert out["options"] == chosen
    svc = cli.service()
    state = svc.state("o")
    assert dict(state.options) == chosen
    assert state.option_on("heir_survival") and not state.option_on("two_houses_limit")
    assert _started(svc, "o").chosen_options() == chosen  # in the log, for replay and audit
    full = cli.json("status", "o")["full_game"]
    assert full["options"] == {
        "parliament": "voting",
        "deaths_per_side": "all",
        "heir_survival": "on",
        "reshuffle": "each_draw",
        "two_houses_limit": "off",
        "victory_hold_turns": "4",
    }
    text = cli.run("status", "o")
    assert "options in force" in text and "heir_survival on" in text
    assert full == cli.json("view", "o", "blue")["full_game"] | {}  # public: a faction sees them too
    assert "the same" in cli.run("replay", "o")


def test_spellings_are_normalised_and_a_default_game_has_none(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "n.db")
    cli.run("new", "A", "--id", "a", "--option", "two_houses_limit=Yes", "--option", "parliament=BASIC")
    assert dict(cli.service().state("a").options) == {"parliament": "basic", "two_houses_limit": "on"}
    cli.run("new", "B", "--id", "b", "--seed", "s")
    svc = cli.service()
    assert dict(svc.state("b").options) == {}
    started = _started(svc, "b")
    assert started.options == ()
    from kingmaker.rules.records import to_data

    assert "options" not in to_data(started)  # as the entry was written before options existed
    assert "options" not in svc.store.game("b").settings
    full = cli.json("status", "b")["full_game"]
    assert full["options"] == {o.name: o.default for o in OPTIONS}


def test_a_bad_option_is_refused_and_nothing_is_created(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "bad.db")
    cases = [
        (["--option", "heir_survival=maybe"], ["heir_survival", "on, off"]),
        (["--option", "parliament=secret"], ["parliament", "voting, basic"]),
        (["--option", "victory_hold_turns=-1"], ["victory_hold_turns", "whole number"]),
        (["--option", "coronations=on"], ["coronations", "heir_survival", "victory_hold_turns"]),
        (["--option", "heir_survival"], ["NAME=VALUE"]),
        (["--option", "heir_survival=on", "--hand-adjudication"], ["full game only"]),
    ]
    for args, needles in cases:
        out = cli.run("new", "Bad", "--id", "bad", *args, code=1)
        for needle in needles:
            assert needle in " ".join(out.split()), (args, out)
    assert cli.json("games") == []


def test_export_and_import_keep_the_options(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "a.db")
    cli.run("new", "Kept", "--id", "k", "--seed", "k", "--option", "deaths_per_side=1", "--manual-events")
    cli.run("draw-event", "k")
    file = tmp_path / "k.jsonl"
    cli.run("export", "k", str(file))
    other = f"sqlite:///{tmp_path / 'b.db'}"
    cli.run("import", str(file), db=other)
    here, there = cli.service(), cli.service(other)
    assert dict(there.state("k").options) == {"deaths_per_side": "1"}
    assert state_hash(there.state("k")) == state_hash(here.state("k"))
    assert _started(there, "k").chosen_options() == {"deaths_per_side": "1"}
    assert "the same" in cli.run("replay", "k", db=other)
