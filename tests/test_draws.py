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


# -- shuffles of the decks (EVENT.reshuffle, DEAL.empty: FULL_GAME section 4) --------------

DECK = """
board: {places: {f: {kind: country}}}
state:
  turn_order: [red, blue]
  phase: event
  cards:
    e1: {event: {kind: none}}
    e2: {event: {kind: none}}
    e3: {event: {kind: none}}
    e4: {event: {kind: none}}
  event_discard: [e3, e1, e4, e2]
"""


def _shuffling_game(seed: str) -> list[ev.Event]:
    """A game whose event draw finds the deck empty: the discard is shuffled."""
    raw = yaml.safe_load(DECK)
    state = build_state(raw["state"], build_board(raw["board"], 2), "deck", 2)
    state = state.evolve(rng=RandomSource(seed))
    events: list[ev.Event] = [ev.SeedCommitted(commitment(seed))]
    state, d = play(state, c.DrawEvent(c.GM))
    assert d.accepted and any(isinstance(e, ev.DeckShuffled) for e in d.events), d.explanation
    events.extend(d.events)
    events.append(ev.SeedRevealed(seed))
    return events


def test_a_shuffle_re_derives_from_the_seed() -> None:
    events = _shuffling_game("s3cret")
    shuffle = next(e for e in events if isinstance(e, ev.DeckShuffled))
    assert shuffle.values == tuple(raw_value("s3cret", k) for k in range(3))  # one value per swap
    report = verify_draws(events)
    assert report.ok and len(report.draws) == 3 and report.draws[0].n == 4


def test_a_doctored_shuffle_is_caught() -> None:
    events = _shuffling_game("s3cret")
    shuffle = next(e for e in events if isinstance(e, ev.DeckShuffled))
    i = events.index(shuffle)
    other = ev.DeckShuffled("event", shuffle.order, (shuffle.values[0] + 1, *shuffle.values[1:]))
    report = verify_draws([*events[:i], other, *events[i + 1 :]])
    assert not report.ok and not report.draws[0].ok  # the value is not the seed's
    swapped = ev.DeckShuffled(
        "event", (shuffle.order[1], shuffle.order[0], *shuffle.order[2:]), shuffle.values
    )
    report = verify_draws([*events[:i], swapped, *events[i + 1 :]])
    assert not report.ok and any("does not follow from its values" in p for p in report.problems)


def test_cli_catches_a_doctored_shuffle(tmp_path: Path) -> None:
    events = [
        ev.DeckShuffled(e.deck, tuple(reversed(e.order)), e.values) if isinstance(e, ev.DeckShuffled) else e
        for e in _shuffling_game("k")
    ]
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(json.dumps({"seq": i, "event": to_data(e)}) for i, e in enumerate(events)))
    result = CliRunner().invoke(_cli(), ["verify-draws", str(log), "--json"])
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert out["ok"] is False and any("shuffle 1 of the event deck" in p for p in out["problems"])
    assert [d["ok"] for d in out["draws"]] == [True, True, True]
