"""Randomness players can verify (issue 4 §4): a seed commitment, recorded draws,
and ``kingmaker verify-draws``."""

from __future__ import annotations

import json
from pathlib import Path

import typer
import yaml
from typer.testing import CliRunner

from kingmaker.cli import draws_cmd
from kingmaker.conformance.case import build_board, build_state
from kingmaker.rules import commands as c
from kingmaker.rules import events as ev
from kingmaker.rules.chance import commitment, raw_value
from kingmaker.rules.decide import play
from kingmaker.rules.draws import verify_draws
from kingmaker.rules.records import to_data
from kingmaker.rules.state import RandomSource

TIED = """
board: {places: {f: {kind: country}}}
state:
  turn_order: [red, blue]
  nobles:
    a1: {faction: red, at: f, troops: 50}
    a2: {faction: red, at: f, troops: 50}
    a3: {faction: red, at: f, troops: 50}
    b1: {faction: red, at: f, troops: 50}
"""


def _game(seed: str) -> list[ev.Event]:
    raw = yaml.safe_load(TIED)
    state = build_state(raw["state"], build_board(raw["board"]), "tied")
    state = state.evolve(rng=RandomSource(seed))
    events: list[ev.Event] = [ev.SeedCommitted(commitment(seed))]
    for i, units in enumerate([("a1", "a2"), ("a3", "b1")]):
        state, d = play(state, c.FormArmy("red", f"army{i}", units))
        assert d.accepted and d.senior_rule == "ALLY.7.random"
        events.extend(d.events)
    events.append(ev.SeedRevealed(seed))
    return events


def test_every_draw_re_derives_from_the_seed() -> None:
    events = _game("s3cret")
    draws = [e for e in events if isinstance(e, ev.RandomDrawn)]
    assert [d.pick for d in draws] == [raw_value("s3cret", k) % 2 for k in range(2)]
    report = verify_draws(events)
    assert report.ok and report.commitment_ok and len(report.draws) == 2


def test_a_wrong_seed_or_a_doctored_draw_is_caught() -> None:
    events = _game("s3cret")
    assert not verify_draws(events, seed="guess").ok
    doctored = [
        ev.RandomDrawn(e.n, 1 - e.pick, e.purpose) if isinstance(e, ev.RandomDrawn) else e for e in events
    ]
    report = verify_draws(doctored)
    assert not report.ok and any(not d.ok for d in report.draws)


def _cli() -> typer.Typer:
    app = typer.Typer()
    draws_cmd.register(app)

    @app.callback()
    def _root() -> None:  # keep verify-draws a named sub-command
        pass

    return app


def test_cli_verifies_a_log_file(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(json.dumps({"seq": i, "event": to_data(e)}) for i, e in enumerate(_game("k"))))
    result = CliRunner().invoke(_cli(), ["verify-draws", str(log)])
    assert result.exit_code == 0, result.output
    assert "all draws verified" in result.output
    result = CliRunner().invoke(_cli(), ["verify-draws", str(log), "--seed", "other", "--json"])
    assert result.exit_code == 1
    assert json.loads(result.output)["commitment_ok"] is False


def test_cli_refuses_a_broken_log_without_a_traceback(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"kind": "seed_committed", "commitment": "x"}\n{not json\n{"kind": "nonsense"}\n')
    result = CliRunner().invoke(_cli(), ["verify-draws", str(log)])
    assert result.exit_code == 2
    assert "bad.jsonl:2:2: not JSON" in result.output
    assert "unknown record kind 'nonsense'" in result.output
    assert "Traceback" not in result.output
