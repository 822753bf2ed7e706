"""Issue 14: self-play of whole games (``kingmaker selfplay``): random legal players with
aims (``simulation_aims``) play games from the deal to a victory or the round limit;
every invariant holds after every step (``selfplay.check_invariants``), every game
replays to the same hash, and every game ends by a rule of the game."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from kingmaker.cli.app import command_app
from kingmaker.data import load_dataset
from kingmaker.rules import events as ev
from kingmaker.rules.apply import apply
from kingmaker.rules.apply_full import without_once
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.state import GameState
from kingmaker.selfplay import InvariantBroken, cards_of, check_invariants, selfplay


def test_two_hundred_seeded_games_hold_every_invariant_and_end_by_the_rules() -> None:
    """``kingmaker selfplay --games 200 --seed 1``: every game ends by a rule of the game
    (VICTORY.*) within the round limit; ``play_game`` checked every invariant after every
    step and replayed every game to its hash (``InvariantBroken`` otherwise)."""
    summary = selfplay(200, seed=1, ds=load_dataset())
    assert len(summary.runs) == 200
    endings = summary.endings
    assert set(endings) <= {"VICTORY.last_heir", "VICTORY.beaufort", "VICTORY.parliament", "VICTORY.none"}, (
        endings
    )
    assert summary.by_rule == 200, [
        (r.seed, r.ended, r.rounds) for r in summary.runs if r.ended == "round limit"
    ]
    assert endings["VICTORY.parliament"] > 0 and endings["VICTORY.last_heir"] + endings["VICTORY.none"] > 0
    assert max(r.rounds for r in summary.runs) < 100  # well within the limit of 200
    assert all(r.winner for r in summary.runs if r.ended in ("VICTORY.parliament", "VICTORY.last_heir"))
    assert len({r.hash for r in summary.runs}) == 200  # two hundred different games


def test_the_cli_prints_the_figures() -> None:
    out = CliRunner().invoke(command_app(), ["selfplay", "--games", "3", "--seed", "7", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["games"] == 3 and sum(data["endings"].values()) == 3
    assert data["turns_per_second"] > 0 and data["rounds"]["max"] >= data["rounds"]["min"]
    human = CliRunner().invoke(command_app(), ["selfplay", "--games", "2", "--seed", "7"])
    assert "games finished" in human.output and "turns per second" in human.output


def test_a_card_with_copies_moves_one_copy_at_a_time(mini_world: GameState) -> None:
    """The bug self-play found: a noble holding two copies of a mercenary card who gave
    one up lost both (AwardsMoved took every copy of the id), and a card vanished."""
    assert without_once(("saxons", "saxons", "bristol"), ("saxons",)) == ("saxons", "bristol")
    noble = sorted(mini_world.nobles)[0]
    s = mini_world.evolve(
        nobles=mini_world.nobles.set(noble, replace(mini_world.nobles[noble], awards=("saxons", "saxons")))
    )
    before = cards_of(s)
    after = apply(s, ev.AwardsMoved(("saxons",), f"noble:{noble}", "hand:red"))
    assert after.nobles[noble].awards == ("saxons",) and after.hands == FrozenDict({"red": ("saxons",)})
    assert cards_of(after) == before


def test_a_broken_invariant_is_caught(mini_world: GameState) -> None:
    cards = cards_of(mini_world)
    check_invariants(mini_world, cards)
    with pytest.raises(InvariantBroken, match="not conserved"):
        check_invariants(mini_world, cards + Counter({"a-card-that-went-missing": 1}))
