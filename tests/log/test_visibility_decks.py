"""Secrets of the decks in the log (FULL_GAME 3.9, §4): a shuffle's order is the GM's
until the seed is revealed; a Crown card drawn is its drawer's; event cards drawn are
public."""

from __future__ import annotations

from kingmaker.log.envelope import Envelope
from kingmaker.log.visibility import visible_log
from kingmaker.rules import events as ev
from kingmaker.rules.commands import GM


def _log(*events: ev.Event) -> list[Envelope]:
    return [
        Envelope(seq=i, round=1, turn="red", actor="gm", rule=None, event=e, recorded_at="", command="")
        for i, e in enumerate(events, start=1)
    ]


def _kinds(envs: list[Envelope]) -> list[str]:
    return [type(e.event).__name__ for e in envs]


def test_the_decks_secrets() -> None:
    log = _log(
        ev.DeckShuffled("event", ("b", "a"), (7,)),
        ev.CardDrawn("event", "b", "discard"),
        ev.CardDrawn("crown", "stanley", "hand:red"),
    )
    assert _kinds(visible_log(log, "blue")) == ["CardDrawn"]
    assert _kinds(visible_log(log, "red")) == ["CardDrawn", "CardDrawn"]
    assert _kinds(visible_log(log, None)) == ["CardDrawn"]
    assert len(visible_log(log, GM)) == 3


def test_a_shuffle_is_public_once_the_seed_is_revealed() -> None:
    log = _log(ev.DeckShuffled("event", ("b", "a"), (7,)), ev.SeedRevealed("s"))
    assert _kinds(visible_log(log, "blue")) == ["DeckShuffled", "SeedRevealed"]
