"""``kingmaker verify-draws`` on what ``kingmaker export`` writes, on real SQLite files:
the file itself, the pipeline ``export | verify-draws -``, the deal at creation
re-derived from the revealed seed (FULL_GAME section 4), and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from kingmaker.cli.app import _mount, app
from kingmaker.data import load_dataset
from kingmaker.rules import commands as rc
from kingmaker.rules import events as ev
from kingmaker.rules.deal import crown_deck, deal_hands
from kingmaker.service import GM_ACTOR, FixedClock
from kingmaker.service.commands import CreateGame, Submit
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.simulation import RandomPlayer
from kingmaker.storage import open_store

_mount()

FACTIONS = ("red", "blue", "green")
SEED = "verify-me"


def _game(db: Path, *, reveal: bool = True) -> int:
    """A full game on SQLite, a few moves played, the seed revealed; the number of
    values its log's own draws and shuffles used."""
    store = open_store(f"sqlite:///{db}")
    svc = GameService(store, FixedClock())
    settings = GameSettings(turn_hours=None, request_hours=None)
    game = svc.execute(GM_ACTOR, CreateGame("V", FACTIONS, seed=SEED, game_id="v", settings=settings)).game
    rp = RandomPlayer(3)
    for _ in range(30):
        svc.execute(GM_ACTOR, Submit(game, rp.command(svc.state(game))))
    if reveal:
        svc.execute(GM_ACTOR, Submit(game, rc.RevealSeed(rc.GM)))
    used = 0
    for env in svc.log(game):
        if isinstance(env.event, ev.RandomDrawn):
            used += 1
        elif isinstance(env.event, ev.DeckShuffled):
            used += len(env.event.values)
    store.close()
    return used


def _export(tmp_path: Path, *, reveal: bool = True) -> tuple[Path, int]:
    db, file = tmp_path / "g.db", tmp_path / "g.jsonl"
    used = _game(db, reveal=reveal)
    r = CliRunner().invoke(app, ["export", "v", str(file), "--db", f"sqlite:///{db}"])
    assert r.exit_code == 0, r.output
    return file, used


def _creation_draws() -> int:
    """The values game creation takes from the seed, counted independently of the
    verifier: one per swap of each Crown deck shuffle (a re-deal shuffles again) and
    of the event deck's first shuffle."""
    ds = load_dataset()
    deal = deal_hands(ds.catalog, FACTIONS, SEED, ds.setup.cards_per_faction, ds.setup.removed)
    deck = crown_deck(ds.catalog, ds.setup.removed)
    return deal.shuffles * (len(deck) - 1) + len(ds.catalog.events) - 1


def _verify(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, ["verify-draws", *args], input=stdin)
    return r.exit_code, r.stdout, r.stderr


def _doctor(file: Path, change: Any) -> None:
    """Edit the state the export recorded at creation (its header line)."""
    lines = file.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    change(header["initial"]["state"]["rules"])
    file.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")


def test_an_export_verifies_with_the_deal_at_creation(tmp_path: Path) -> None:
    file, used = _export(tmp_path)
    code, out, err = _verify(str(file), "--json")
    assert code == 0, err
    report = json.loads(out)
    expected = _creation_draws()
    assert expected > 0
    assert report["ok"] is True and report["commitment_ok"] is True and report["problems"] == []
    assert report["creation_draws"] == expected
    assert len(report["draws"]) == expected + used
    creation = report["draws"][:expected]
    assert all(d["recorded"] is None and d["ok"] for d in creation)
    assert "Crown deck's shuffle 1" in creation[0]["purpose"]
    assert creation[-1]["purpose"].startswith("the event deck's shuffle at creation")
    assert [d["index"] for d in report["draws"]] == list(range(1, expected + used + 1))
    code, out, _ = _verify(str(file))
    assert code == 0
    assert f"{expected + used} draw(s), {expected} of them at creation" in out
    assert "all draws verified" in out


def test_export_piped_into_verify_draws_from_standard_input(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    _game(db)
    r = CliRunner().invoke(app, ["export", "v", "--db", f"sqlite:///{db}"])
    assert r.exit_code == 0, r.output
    code, out, err = _verify("-", "--json", stdin=r.stdout)
    assert code == 0, err
    assert json.loads(out)["creation_draws"] == _creation_draws()


def test_the_pipeline_of_reveal_seed_help_runs_in_a_shell(tmp_path: Path) -> None:
    """``kingmaker export GAME | kingmaker verify-draws -``, as two real processes."""
    db = tmp_path / "g.db"
    _game(db)
    run = [sys.executable, "-c", "from kingmaker.cli.app import main; main()"]
    export = subprocess.Popen([*run, "export", "v", "--db", f"sqlite:///{db}"], stdout=subprocess.PIPE)
    verify = subprocess.run(
        [*run, "verify-draws", "-"], stdin=export.stdout, capture_output=True, text=True, check=False
    )
    assert export.stdout is not None
    export.stdout.close()
    assert export.wait() == 0
    assert verify.returncode == 0, verify.stderr
    assert "all draws verified" in verify.stdout


def test_a_doctored_event_deck_at_creation_is_caught(tmp_path: Path) -> None:
    file, _ = _export(tmp_path)

    def swap(state: dict[str, Any]) -> None:
        deck = state["event_deck"]
        deck[0], deck[1] = deck[1], deck[0]

    _doctor(file, swap)
    code, out, _ = _verify(str(file), "--json")
    assert code == 1
    report = json.loads(out)
    assert report["ok"] is False and report["commitment_ok"] is True
    [problem] = report["problems"]
    assert "(the event deck's shuffle at creation) differ from the record" in problem
    assert "at position 1" in problem
    events = [d for d in report["draws"] if d["purpose"].startswith("the event deck's shuffle")]
    crowns = [d for d in report["draws"] if "Crown deck" in d["purpose"]]
    assert events and not any(d["ok"] for d in events)
    assert crowns and all(d["ok"] for d in crowns)
    code, out, _ = _verify(str(file))
    assert code == 1 and "verification failed" in out


def test_a_doctored_crown_deal_at_creation_is_caught(tmp_path: Path) -> None:
    file, _ = _export(tmp_path)

    def steal(state: dict[str, Any]) -> None:  # a blue noble dealt to red instead
        nobles = state["nobles"]
        rows = nobles.values() if isinstance(nobles, dict) else nobles
        blue = next(n for n in rows if n["faction"] == "blue")
        blue["faction"] = "red"

    _doctor(file, steal)
    code, out, _ = _verify(str(file), "--json")
    assert code == 1
    [problem] = json.loads(out)["problems"]
    assert "(the Crown deck's shuffle and deal at creation) differ from the record: red's hand" in problem
    assert problem.startswith("draws 1-")


def test_a_wrong_seed_fails_the_commitment_and_the_deal(tmp_path: Path) -> None:
    file, _ = _export(tmp_path)
    code, out, _ = _verify(str(file), "--seed", "a guess", "--json")
    assert code == 1
    report = json.loads(out)
    assert report["commitment_ok"] is False
    assert any("Crown deck's shuffle and deal at creation" in p for p in report["problems"])
    assert not any(d["ok"] for d in report["draws"][: report["creation_draws"]])


def test_bad_files_get_one_line_and_no_traceback(tmp_path: Path) -> None:
    file, _ = _export(tmp_path)
    lines = file.read_text(encoding="utf-8").splitlines()
    cases = {
        "truncated": ("\n".join(lines[:-2]) + "\n", "truncated"),
        "header": (lines[0][: len(lines[0]) // 2] + "\n" + "\n".join(lines[1:]) + "\n", "not JSON"),
        "empty": ("", "holds no game log"),
    }
    for name, (text, says) in cases.items():
        bad = tmp_path / f"{name}.jsonl"
        bad.write_text(text, encoding="utf-8")
        code, out, err = _verify(str(bad))
        assert code == 2, name
        assert says in err and len(err.strip().splitlines()) == 1, (name, err)
        assert "Traceback" not in out + err
    code, _, err = _verify(str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in err


def test_an_export_without_the_revealed_seed_is_refused_in_one_line(tmp_path: Path) -> None:
    file, _ = _export(tmp_path, reveal=False)
    code, out, err = _verify(str(file))
    assert code == 2
    assert "no seed to check the draws with" in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in out + err
    code, out, _ = _verify(str(file), "--seed", SEED, "--json")  # the GM's own check
    assert code == 0 and json.loads(out)["creation_draws"] == _creation_draws()
