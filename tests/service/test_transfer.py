"""Export a whole game to JSON Lines and import it into a store; bad files are refused
with what is wrong and where, and nothing is imported (issue 5 §2)."""

from __future__ import annotations

import io
import json

import pytest

from kingmaker.rules.hashing import state_hash
from kingmaker.service import GM_ACTOR, FixedClock
from kingmaker.service.commands import CreateGame, Submit, Undo
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.service.transfer import ImportError_, export_game, import_game
from kingmaker.simulation import RandomPlayer
from kingmaker.storage.base import UnknownGame
from kingmaker.storage.memory import MemoryStore


def _played(steps: int = 300) -> GameService:
    svc = GameService(MemoryStore(), FixedClock())
    game = svc.execute(
        GM_ACTOR,
        CreateGame(
            "Export",
            ("red", "blue", "green"),
            seed="x",
            game_id="ex",
            settings=GameSettings(snapshot_every=40, full_game=False),
        ),
    ).game
    rp = RandomPlayer(3)
    for _ in range(steps):
        svc.execute(GM_ACTOR, Submit(game, rp.command(svc.state(game))))
    svc.execute(GM_ACTOR, Undo(game, steps // 2, "a test undo"))
    for _ in range(20):
        svc.execute(GM_ACTOR, Submit(game, rp.command(svc.state(game))))
    return svc


def _export(svc: GameService) -> list[str]:
    out = io.StringIO()
    export_game(svc.store, "ex", out)
    return out.getvalue().splitlines(keepends=True)


def test_export_then_import_gives_the_same_game() -> None:
    svc = _played()
    lines = _export(svc)
    target = MemoryStore()
    report = import_game(target, lines)
    assert report.game == "ex" and report.entries == len(lines) - 2
    again = GameService(target)
    assert state_hash(again.state("ex")) == state_hash(svc.state("ex")) == report.state_hash
    assert list(target.envelopes("ex")) == list(svc.store.envelopes("ex"))
    # and under another id into the same store
    import_game(target, lines, as_id="copy")
    assert state_hash(GameService(target).state("copy")) == report.state_hash


def _refused(lines: list[str], needle: str) -> None:
    target = MemoryStore()
    with pytest.raises(ImportError_) as info:
        import_game(target, lines)
    assert needle in str(info.value), str(info.value)
    assert target.games() == []
    with pytest.raises(UnknownGame):
        target.game("ex")


def test_a_truncated_file_is_refused() -> None:
    lines = _export(_played(60))
    _refused(lines[:-1], "truncated")
    _refused(lines[: len(lines) // 2], "truncated")


def test_an_edited_entry_is_refused_at_its_line() -> None:
    lines = _export(_played(60))
    data = json.loads(lines[10])
    data["entry"]["actor"] = "someone-else"
    lines[10] = json.dumps(data) + "\n"
    _refused(lines, "line 11: the entry does not match its checksum")


def test_a_foreign_or_broken_file_is_refused() -> None:
    _refused(['{"hello": "world"}\n'], "line 1: this is not a kingmaker game export")
    _refused([], "the file is empty")
    lines = _export(_played(30))
    lines[5] = lines[5][:40] + "\n"
    _refused(lines, "line 6: not JSON")
    lines = _export(_played(30))
    _refused([*lines[:-1], lines[3], lines[-1]], "line")


def test_an_existing_game_is_not_overwritten() -> None:
    svc = _played(30)
    with pytest.raises(ImportError_) as info:
        import_game(svc.store, _export(svc))
    assert "already exists" in str(info.value)


@pytest.mark.parametrize("seed", [0, 3])
def test_a_full_game_with_the_players_words_exports_and_imports(seed: int) -> None:
    """A whole game (cards drawn to hands and nobles, battles' odds, Parliament's empty
    fields, turn flags) and orders sent as text (the player's words, a line not read)
    export and import to the same state: every field an entry holds passes the import's
    checks (a full game failed with "the to of the card drawn 'hand:red' is not an id")."""
    from kingmaker.service.identity import player
    from kingmaker.simulation_full import FullGamePlayer

    svc = GameService(MemoryStore(), FixedClock())
    svc.execute(
        GM_ACTOR, CreateGame("Export", ("red", "blue", "green", "gold"), seed=f"f{seed}", game_id="ex")
    )
    post = "Hi GM, orders for Red:\nRed ALLIES WITH Blue\nPercy MARCHES TO Yrok\n"
    svc.post(player("red"), "ex", post, "red", send=True)
    fp = FullGamePlayer(seed)
    for _ in range(1200):
        cmd = fp.command(svc.state("ex"))
        try:
            svc.execute(GM_ACTOR if cmd.by == "gm" else player(cmd.by), Submit("ex", cmd))
        except Exception:  # a command the service refuses outright writes nothing
            continue
    kinds = {env.event.kind for env in svc.store.envelopes("ex")}
    assert {"card_drawn", "line_unread", "order_submitted"} <= kinds, kinds
    lines = _export(svc)
    target = MemoryStore()
    report = import_game(target, lines)
    assert state_hash(GameService(target).state("ex")) == state_hash(svc.state("ex")) == report.state_hash
