"""A faction's batch is applied in phase order (FULL_GAME §2, "the engine accepts the
batch and applies it in phase order"; docs/rulings.md, "A post is applied in phase
order"): in a game with phases, a post's movement orders are applied before its combat
orders, in the written order within a phase, whatever order the lines were written in;
each line keeps its verdict, and the verdicts come back in line order. A game without
phases (F26) takes a post as written. On SQLite, through ``service.posts``.

The game is dealt from the seed ``cli-106`` (tests/cli/test_full_game_cli.py): red's
Pole, inside Wingfield, reaches Framlingham in one move, where green's Mowbray stands in
the open; red's turn is in its movement phase once the event card is drawn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kingmaker.log.service_events import LineUnread, OrderSubmitted
from kingmaker.rules import commands as rc
from kingmaker.rules.phases import batch_order
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import CreateGame, Submit
from kingmaker.service.game_service import GameService
from kingmaker.service.identity import player
from kingmaker.service.outcome import Outcome
from kingmaker.service.settings import GameSettings
from kingmaker.storage import open_store

FACTIONS = ("red", "blue", "green", "gold")
ATTACK_FIRST = "Pole ATTACKS Mowbray\nPole MOVES TO Framlingham\n"


def _game(tmp_path: Path, *, full_game: bool = True) -> GameService:
    svc = GameService(open_store(f"sqlite:///{tmp_path / 'phases.db'}"))
    svc.execute(
        GM_ACTOR,
        CreateGame(
            "Phases", FACTIONS, seed="cli-106", game_id="g", settings=GameSettings(full_game=full_game)
        ),
    )
    return svc


def _orders(svc: GameService) -> list[tuple[str, str, str | None]]:
    """The orders of the log, in the order they were applied: (kind, result, words)."""
    return [
        (e.event.command.kind, e.event.result, e.event.text)
        for e in svc.log("g")
        if isinstance(e.event, OrderSubmitted) and e.event.command.by == "red"
    ]


def test_an_attack_written_before_the_move_is_accepted_in_full(tmp_path: Path) -> None:
    svc = _game(tmp_path)
    state = svc.state("g")
    assert state.phased and (state.turn, state.phase) == ("red", "movement")
    verdicts = svc.post(player("red"), "g", ATTACK_FIRST, "red", send=True)
    assert [(v.line, v.result, v.rule) for v in verdicts] == [(1, "accepted", None), (2, "accepted", None)]
    assert verdicts[0].text == "Pole ATTACKS Mowbray" and verdicts[0].reading == "Pole ATTACKS Mowbray"
    assert verdicts[1].text == "Pole MOVES TO Framlingham"
    assert verdicts[0].explanation == "Pole attacks Mowbray at Framlingham"
    # the log: the move, then the attack, each with the player's own words
    assert _orders(svc) == [
        ("move", "accepted", "Pole MOVES TO Framlingham"),
        ("attack", "accepted", "Pole ATTACKS Mowbray"),
    ]
    after = svc.state("g")
    assert after.phase == "combat" and after.nobles["pole"].place == "framlingham"
    assert [c.by for c in after.combats] == ["red"]


def test_lines_that_give_no_step_keep_their_place_and_verdicts_come_in_line_order(tmp_path: Path) -> None:
    svc = _game(tmp_path)
    post = "Hi GM\nRed:\nPole ATTACKS Mowbray\nPole FLIES\n\nPole MOVES TO Framlingham\nthanks -- Ann\n"
    verdicts = svc.post(GM_ACTOR, "g", post, "gm", send=True)
    assert [(v.line, v.result) for v in verdicts] == [
        (1, "ignored"),
        (3, "accepted"),
        (4, "syntax"),
        (6, "accepted"),
        (7, "ignored"),
    ]
    # the label alone on line 2 still speaks for the lines below it
    assert [(kind, result) for kind, result, _ in _orders(svc)] == [
        ("move", "accepted"),
        ("attack", "accepted"),
    ]
    # the move takes the first step's place (line 3), the unread line keeps its own (4),
    # and the attack the last step's place (line 6)
    kept = [
        e.event.text if isinstance(e.event, LineUnread) else e.event.command.kind
        for e in svc.log("g")
        if isinstance(e.event, LineUnread)
        or (isinstance(e.event, OrderSubmitted) and e.event.command.by == "red")
    ]
    assert kept == ["move", "Pole FLIES", "attack"]


def test_an_attack_on_a_faction_refused_while_reading_is_placed_by_its_verb(tmp_path: Path) -> None:
    # on the game as it stands, green has no unit where Pole is: the line reads as an
    # attack all the same, and is read again, after the move, when its turn comes
    svc = _game(tmp_path)
    verdicts = svc.post(
        player("red"), "g", "Pole ATTACKS Green\nPole MOVES TO Framlingham\n", "red", send=True
    )
    assert [(v.line, v.result) for v in verdicts] == [(1, "accepted"), (2, "accepted")]
    assert verdicts[0].reading == "Pole ATTACKS Mowbray"
    assert [kind for kind, _, _ in _orders(svc)] == ["move", "attack"]


def test_a_move_after_an_accepted_attack_in_the_same_post_is_no_longer_refused(tmp_path: Path) -> None:
    svc = _game(tmp_path)
    post = "Pole ATTACKS Mowbray\nPole MOVES TO Framlingham\nPole MOVES TO Wingfield\n"
    verdicts = svc.post(player("red"), "g", post, "red", send=True)
    # both moves come before the attack, in the order written: Pole goes to
    # Framlingham and back, and Mowbray is then not where Pole is
    assert [(v.line, v.result, v.rule) for v in verdicts] == [
        (1, "refused", "ORDER.invalid"),
        (2, "accepted", None),
        (3, "accepted", None),
    ]
    assert [kind for kind, _, _ in _orders(svc)] == ["move", "move", "attack"]
    assert "PHASE.order" not in {v.rule for v in verdicts}


def test_a_check_judges_the_lines_in_the_same_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc = _game(tmp_path)
    judged: list[str] = []
    real = svc.preview

    def preview(actor: object, command: Submit) -> Outcome:
        judged.append(command.command.kind)
        return real(player("red"), command)

    monkeypatch.setattr(svc, "preview", preview)
    verdicts = svc.post(player("red"), "g", ATTACK_FIRST, "red", send=False)
    assert judged == ["move", "attack"]
    assert [v.line for v in verdicts] == [1, 2]
    assert _orders(svc) == []  # nothing was sent


def test_a_game_without_phases_takes_the_post_as_written(tmp_path: Path) -> None:
    svc = _game(tmp_path, full_game=False)
    assert not svc.state("g").phased
    preview = svc.post(player("red"), "g", ATTACK_FIRST, "red", send=False)
    verdicts = svc.post(player("red"), "g", ATTACK_FIRST, "red", send=True)
    for got in (preview, verdicts):
        assert [(v.line, v.result, v.rule) for v in got] == [
            (1, "refused", "ORDER.invalid"),
            (2, "accepted", None),
        ]
    assert "Mowbray is not where Pole is" in verdicts[0].explanation
    assert _orders(svc) == [
        ("attack", "refused", "Pole ATTACKS Mowbray"),
        ("move", "accepted", "Pole MOVES TO Framlingham"),
    ]


def test_batch_order_sorts_the_phase_steps_between_the_turns_breaks(tmp_path: Path) -> None:
    phased = _game(tmp_path).state("g")
    kinds: list[type[rc.Command] | None] = [
        rc.Attack,  # 0 combat
        rc.DeclareAlliance,  # 1 no phase: keeps its place
        rc.MoveRoad,  # 2 movement
        None,  # 3 a line giving no step
        rc.Siege,  # 4 combat
        rc.FormArmy,  # 5 movement
        rc.EndTurn,  # 6 nothing moves across it
        rc.Attack,  # 7 combat
        rc.Enter,  # 8 movement
    ]
    assert batch_order(phased, kinds) == [2, 1, 5, 3, 0, 4, 6, 8, 7]
    assert batch_order(phased, []) == []
    with_draw: list[type[rc.Command] | None] = [rc.Attack, rc.DrawEvent, rc.EndPhase, rc.MoveRoad]
    assert batch_order(phased, with_draw) == [1, 0, 2, 3]


def test_batch_order_in_a_game_without_phases_is_the_written_order(tmp_path: Path) -> None:
    unphased = _game(tmp_path, full_game=False).state("g")
    kinds: list[type[rc.Command] | None] = [rc.Attack, rc.MoveRoad, None, rc.Siege, rc.Enter]
    assert batch_order(unphased, kinds) == [0, 1, 2, 3, 4]
