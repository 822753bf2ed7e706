"""The round digest (issue 15 §8): one post per round, every turn's orders as given and
resolution and one position at the end, for the thread, the GM or a faction; golden
files in every format for the classic scenario and the full one, and the digest says
exactly what the turn reports say to the same reader, no more."""

from __future__ import annotations

import re

import pytest

from kingmaker.render.reports import FORMATS, Format, Reports, private_report, render, turn_report
from kingmaker.render.reports.digest import round_digest, round_of_last_turn, rounds, turns_of_round
from kingmaker.render.reports.document import Block, Document, Heading, plain
from kingmaker.render.reports.formats import EXTENSIONS
from kingmaker.render.reports.turn import orders_as_given, resolution
from kingmaker.rules.views import PUBLIC

from .golden import check_golden
from .scenario import FACTIONS, Played, upto
from .test_golden import SEPARATOR


def _digests(reports: Reports, viewer: str, fmt: Format) -> str:
    return SEPARATOR.join(render(round_digest(reports, r, viewer), fmt) for r in rounds(reports))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("viewer", [PUBLIC, "gm", "blue"])
def test_digest_golden(reports: Reports, viewer: str, fmt: Format) -> None:
    check_golden(f"digest-{viewer}.{EXTENSIONS[fmt]}", _digests(reports, viewer, fmt))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("viewer", [PUBLIC, "gold"])
def test_full_game_digest_golden(reports_full: Reports, viewer: str, fmt: Format) -> None:
    check_golden(f"full/digest-{viewer}.{EXTENSIONS[fmt]}", _digests(reports_full, viewer, fmt))


def _lines(blocks: list[Block]) -> list[str]:
    """The lines of a section (its phase headings left out: the digest sets them a
    level lower)."""
    text = render(Document(tuple(b for b in blocks if not isinstance(b, Heading))), "plain")
    return [line for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("viewer", [PUBLIC, "gm", *FACTIONS])
def test_every_turn_of_the_round_once_and_one_position(reports: Reports, viewer: str) -> None:
    for rnd in rounds(reports):
        doc = round_digest(reports, rnd, viewer)
        text = render(doc, "plain")
        turns = turns_of_round(reports, rnd)
        assert turns and all(t[0] == rnd for t in turns)
        # each turn's orders and resolution, as the turn report tells them, in order
        at = 0
        for turn in turns:
            said = _lines(orders_as_given(reports, turn, viewer)) + _lines(resolution(reports, turn, viewer))
            for line in said:
                found = text.find(line, at)
                assert found >= 0, f"round {rnd}, {turn}: {line!r} missing or out of order"
                at = found
        titles = [plain(b.content) for b in doc.blocks if isinstance(b, Heading)]
        assert sum(t.startswith("Position") for t in titles) == 1, titles
        assert sum("'s turn" in t for t in titles) == len(turns)
        who = {PUBLIC: "", "gm": " (GM's copy)"}.get(viewer, f" (for {reports.names.faction_name(viewer)})")
        assert titles[0] == f"Round {rnd} digest{who}"
    ended = [r for r in rounds(reports) if any(r2 > r for r2 in rounds(reports))]
    assert ended, "the scenario plays more than one round"
    assert "Position at the end of round 1" in render(round_digest(reports, 1, viewer), "plain")


def test_shorter_than_the_turn_reports(reports: Reports) -> None:
    """The point of the digest: one position, not one per turn."""
    rnd = rounds(reports)[0]
    digest = render(round_digest(reports, rnd, PUBLIC), "bbcode")
    turns = "".join(render(turn_report(reports, t, PUBLIC), "bbcode") for t in turns_of_round(reports, rnd))
    assert len(digest.splitlines()) < 0.75 * len(turns.splitlines())


def test_a_round_in_play_says_so(reports: Reports, played: Played) -> None:
    then = upto(reports, played.moments["allied order"])
    rnd = then.timeline.now.round
    text = render(round_digest(then, rnd, PUBLIC), "plain")
    assert "The round goes on: Red to play." in text
    assert "Position now (round 2, Red to play)" in text
    assert "Red's turn (in play)" in text


def test_default_round_and_unknown_round(reports: Reports) -> None:
    assert round_of_last_turn(reports) == rounds(reports)[-1]
    with pytest.raises(KeyError):
        round_digest(reports, 99, PUBLIC)


@pytest.mark.parametrize("faction", FACTIONS)
def test_a_faction_reads_in_the_digest_what_its_reports_tell_it(reports: Reports, faction: str) -> None:
    """Secret alliance ids show in a faction's digest only when its turn reports or
    private reports of that round show them (and never in the public one)."""
    secret = re.compile(r"secret-bg\b")  # Blue and Green's (not secret-bgo, Gold is asked to join)
    for rnd in rounds(reports):
        turns = turns_of_round(reports, rnd)
        told = any(
            secret.search(render(turn_report(reports, t, faction), "plain"))
            or secret.search(render(private_report(reports, t, faction), "plain"))
            for t in turns
        )
        digest = render(round_digest(reports, rnd, faction), "plain")
        if not told:
            assert not secret.search(digest), (faction, rnd)
        assert not secret.search(render(round_digest(reports, rnd, PUBLIC), "plain"))
    assert bool(secret.search(_digests(reports, faction, "plain"))) == (faction in ("blue", "green"))
