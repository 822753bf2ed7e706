"""Limits on what a command may carry (issue 11 §3.5, §3.6, §3.9): every free text is
one line of bounded length with no control or format characters, every id is a short
run of ``a-z 0-9 - _``; the service refuses anything else before the rules or the log
see it, says what is wrong and where without echoing the input whole, and leaves the
game untouched. On a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingmaker.rules import commands as rc
from kingmaker.rules.decide import decide
from kingmaker.rules.limits import ID_MAX, NAME_MAX, NOTE_MAX
from kingmaker.service import GM_ACTOR, BadRequest, FixedClock, player
from kingmaker.service.commands import (
    AskPermission,
    CreateGame,
    ExtendDeadline,
    FinishTurn,
    SeatPlayer,
    Submit,
    Undo,
)
from kingmaker.service.game_service import GameService
from kingmaker.storage import open_store

FACTIONS = ("red", "blue", "green", "gold")
GAME = "lim"

# what an attacker put in the forum post (issue 11 §3.5), and its relatives
HOSTILE_LINES = (
    "york\n\n## GM ANNOUNCEMENT: Red wins",
    "a\rb",
    "a\u2028b",
    "a\u2029b",
    "a\x85b",
    "a\x0bb",
    "a\x00b",
    "a\tb",
)
HOSTILE_FORMAT = (
    "Alice\u202egnp.exe",  # right-to-left override
    "Alice\u2066x\u2069",  # isolates
    "Al\u200bice",  # zero-width space (Cf)
    "Al\ufeffice",  # byte-order mark (Cf)
    "Al\ud800ice",  # a lone surrogate
)


@pytest.fixture
def svc(tmp_path: Path) -> GameService:
    service = GameService(open_store(f"sqlite:///{tmp_path / 'limits.db'}"), FixedClock())
    service.execute(GM_ACTOR, CreateGame("Limits", FACTIONS, seed="s", game_id=GAME))
    return service


def _refused(svc: GameService, actor: object, cmd: object, *words: str) -> str:
    """The command is refused with a one-line message naming ``words``; nothing changes."""
    before = svc.store.head(GAME)
    with pytest.raises(BadRequest) as e:
        svc.execute(actor, cmd)  # type: ignore[arg-type]
    message = str(e.value)
    assert "\n" not in message and "\r" not in message, message
    assert len(message) < 400, message
    for w in words:
        assert w in message, (w, message)
    assert svc.store.head(GAME) == before
    return message


def _own_noble(svc: GameService) -> str:
    state = svc.state(GAME)
    return sorted(n.id for n in state.nobles.values() if n.faction == state.turn and n.place)[0]


# -- §3.5: line breaks and control characters ----------------------------------------------
@pytest.mark.parametrize("bad", HOSTILE_LINES + HOSTILE_FORMAT)
def test_a_map_order_id_with_a_line_break_or_control_is_refused_before_the_log(
    svc: GameService, bad: str
) -> None:
    unit = _own_noble(svc)
    msg = _refused(svc, player("red"), Submit(GAME, rc.Move("red", unit, bad)), "to")
    assert "GM ANNOUNCEMENT" not in msg or "\\n" in msg  # echoed, if at all, escaped
    # with an idempotency key too (§3.5: no check is skipped because a key is given)
    with pytest.raises(BadRequest):
        svc.execute(player("red"), Submit(GAME, rc.Move("red", unit, bad)), idempotency_key="k1")
    assert not any("GM ANNOUNCEMENT" in repr(e.event) for e in svc.log(GAME))


@pytest.mark.parametrize("bad", HOSTILE_LINES + HOSTILE_FORMAT)
def test_a_permission_note_with_a_line_break_or_control_is_refused(svc: GameService, bad: str) -> None:
    state = svc.state(GAME)
    place = next(p for p, f in state.control.items() if f == "blue")
    cmd = AskPermission(GAME, "red", "blue", place, ("road",), note=f"please {bad}")
    _refused(svc, player("red"), cmd, "note")
    # the same note on one line is taken
    ok = AskPermission(GAME, "red", "blue", place, ("road",), note="please let us pass [b]now[/b]")
    assert svc.execute(player("red"), ok).result == "done"


@pytest.mark.parametrize("bad", HOSTILE_LINES + HOSTILE_FORMAT)
def test_names_reasons_and_summaries_with_control_characters_are_refused(svc: GameService, bad: str) -> None:
    _refused(svc, GM_ACTOR, SeatPlayer(GAME, "red", bad), "player")
    _refused(svc, GM_ACTOR, Undo(GAME, 1, reason=bad), "reason")
    _refused(svc, GM_ACTOR, CreateGame(bad, FACTIONS, seed="s", game_id="other"), "name")
    _refused(svc, GM_ACTOR, CreateGame("Other", FACTIONS, seed=bad, game_id="other"), "seed")
    cmd = Submit(GAME, rc.ResolveCombat(rc.GM, "c1", bad))
    _refused(svc, GM_ACTOR, cmd, "summary")


@pytest.mark.parametrize(
    "make",
    [
        lambda bad: Submit(GAME, rc.DeclareAlliance("red", bad, ("green",))),
        lambda bad: Submit(GAME, rc.DeclareAlliance("red", "rg", (bad,))),
        lambda bad: Submit(GAME, rc.Move(bad, "percy", "york")),
        lambda bad: Submit(GAME, rc.MoveRoad("red", "percy", ("york", bad))),
        lambda bad: Submit(GAME, rc.Confirm("red", bad)),
        lambda bad: ExtendDeadline(GAME, bad, 1),
        lambda bad: FinishTurn(GAME, bad),
        lambda bad: SeatPlayer(GAME, bad, "Alice"),
        lambda bad: AskPermission(GAME, "red", "blue", bad, ("road",)),
        lambda bad: AskPermission(GAME, "red", "blue", "york", (bad,)),
    ],
)
@pytest.mark.parametrize("bad", ["York", "york castle", "york\n", "a" * (ID_MAX + 1), "", "-x", "y\u202e"])
def test_every_id_field_takes_only_short_lower_case_ids(svc: GameService, make: object, bad: str) -> None:
    _refused(svc, GM_ACTOR, make(bad))  # type: ignore[operator]


def test_the_refusal_never_echoes_a_huge_or_multiline_input(svc: GameService) -> None:
    unit = _own_noble(svc)
    huge = "x" * 5_000_000
    msg = _refused(svc, player("red"), Submit(GAME, rc.Move("red", unit, huge)), "to", "characters")
    assert huge[:200] not in msg


# -- §3.6: sizes ---------------------------------------------------------------------------------
def test_a_5mb_note_is_refused_and_a_500_character_one_taken(svc: GameService) -> None:
    state = svc.state(GAME)
    place = next(p for p, f in state.control.items() if f == "blue")
    huge = AskPermission(GAME, "red", "blue", place, ("road",), note="n" * 5_000_000)
    _refused(svc, player("red"), huge, "note", str(NOTE_MAX))
    _refused(svc, player("red"), AskPermission(GAME, "red", "blue", place, ("road",), "n" * (NOTE_MAX + 1)))
    ok = AskPermission(GAME, "red", "blue", place, ("road",), note="n" * NOTE_MAX)
    assert svc.execute(player("red"), ok).result == "done"


def test_names_are_at_most_80_characters(svc: GameService) -> None:
    _refused(svc, GM_ACTOR, SeatPlayer(GAME, "red", "A" * (NAME_MAX + 1)), "player", str(NAME_MAX))
    _refused(svc, GM_ACTOR, SeatPlayer(GAME, "red", "   "), "player")
    assert svc.execute(GM_ACTOR, SeatPlayer(GAME, "red", "A" * NAME_MAX)).token
    _refused(svc, GM_ACTOR, CreateGame("G" * (NAME_MAX + 1), FACTIONS, game_id="g2"), "name")
    _refused(svc, GM_ACTOR, Undo(GAME, 1, reason="r" * (NOTE_MAX + 1)), "reason")


def test_faction_and_game_ids_chosen_at_creation_are_short(svc: GameService) -> None:
    _refused(svc, GM_ACTOR, CreateGame("X", ("red", "b" * 21), game_id="g3"), "faction")
    _refused(svc, GM_ACTOR, CreateGame("X", FACTIONS, game_id="g" * 41), "game id")
    _refused(svc, GM_ACTOR, CreateGame("X", FACTIONS, game_id="G3"), "game id")
    # a name of any length makes an id of at most 40 characters
    out = svc.execute(GM_ACTOR, CreateGame("Wars " * 16, FACTIONS, seed="s"))
    assert len(out.game) <= 40


def test_the_rules_refuse_a_malformed_command_too(svc: GameService) -> None:
    """Previews call ``decide`` directly: the same check answers there, in one line."""
    state = svc.state(GAME)
    d = decide(state, rc.Move("red", _own_noble(svc), "york\n\n## GM ANNOUNCEMENT"))
    assert d.refused and d.rule == "ORDER.invalid"
    assert "\n" not in d.explanation and "to" in d.explanation
    d = decide(state, rc.ResolveCombat(rc.GM, "c1", "s" * (NOTE_MAX + 1)))
    assert d.refused and "summary" in d.explanation


# -- §3.9: undo targets ---------------------------------------------------------------------------
def test_undo_to_a_negative_or_future_entry_is_refused(svc: GameService) -> None:
    head = svc.store.head(GAME)
    msg = _refused(svc, GM_ACTOR, Undo(GAME, -1), "-1")
    assert f"{head - 1}" in msg
    _refused(svc, GM_ACTOR, Undo(GAME, head), str(head))
    _refused(svc, GM_ACTOR, Undo(GAME, 10**6), "1000000")
    _refused(svc, GM_ACTOR, Undo(GAME, True))  # type: ignore[arg-type]
    assert svc.execute(GM_ACTOR, Undo(GAME, head - 1, "fine")).result == "done"
