"""The data set checker: each broken fixture gives exactly the expected problems, and
``kingmaker data check`` lists them and exits 1 without a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kingmaker.cli import data_cmd
from kingmaker.data import DataError, DataProblem, load_dataset, validate_folder

FIXTURES = Path(__file__).parent / "fixtures" / "data"
MINIMAL = FIXTURES / "minimal"

ALL_KINDS = "country, city, town, royal_castle, castle, unfortified_town, open_town"
ALL_REGIONS = "london, wales, trent, tees, conway, devon_cornwall, ireland, calais"
PLACE_FIELDS = "name, kind, capacity, garrison, cathedral, regions, seas, lon, lat, offmap, commons_votes"
EVENT_KINDS = "none, plague, storm, summons, embassy, mercenaries, parliament_chancellor, parliament_must, writ, free_move"
PLAGUE = "plague strikes cities and towns (EVENT.plague)"

# case -> the exact problems, in the order reported
CASES: dict[str, list[tuple[str, str, str]]] = {
    "syntax_error": [("places.toml", "line 4, column 12", "TOML syntax error: Invalid value")],
    "road_unknown_place": [("roads.toml", "roads.great_north_road.places[2]", "unknown place 'atlantis'")],
    "duplicate_id": [("ships.toml", "york", "duplicate id 'york': already a place in places.toml")],
    "mistyped_field": [("places.toml", "london.capacity", "expected an integer, got a string ('abc')")],
    "missing_field": [("nobles.toml", "percy.troops", "missing required field (an integer)")],
    "unknown_field": [("places.toml", "york.colour", f"unknown field; expected one of: {PLACE_FIELDS}")],
    "unknown_kind": [("places.toml", "york.kind", f"unknown kind 'fortress'; expected one of: {ALL_KINDS}")],
    "unknown_sea": [("places.toml", "york.seas[0]", "unknown sea zone 'atlantic'")],
    "unreachable": [("places.toml", "lundy", "cannot be reached by land or sea from London")],
    "noble_without_castle": [("nobles.toml", "percy.castles", "a noble needs at least one castle")],
    "castle_not_castle": [("nobles.toml", "percy.castles[0]", "'york' is a city, not a castle")],
    "heir_unknown_place": [("heirs.toml", "henry_vi.start", "unknown place 'westminster'")],
    "heir_without_start": [
        (
            "heirs.toml",
            "richard_duke_of_york.start",
            "missing: an heir needs `start` (a place) or `noble` (the noble card he is)",
        )
    ],
    "short_road": [("roads.toml", "roads.spur.places", "a road needs at least 2 places, got 1")],
    "unknown_region": [
        ("places.toml", "york.regions[1]", f"unknown region 'mercia'; expected one of: {ALL_REGIONS}")
    ],
    # the event deck (events.toml)
    "deck_unknown_noble": [
        ("events.toml", "ambush.battle.deaths[1]", "unknown noble 'warwick'"),
        ("events.toml", "the_tudor_comes_home.event.target", "unknown noble 'tudor'"),
    ],
    "deck_unknown_place": [
        ("events.toml", "plague_in_atlantis.event.places[1]", "unknown place 'atlantis'"),
        ("events.toml", "percy_to_camelot.event.place", "unknown place 'camelot'"),
        ("events.toml", "embassy_to_rome.event.place", "unknown place 'rome'"),
    ],
    "deck_plague_in_a_castle": [
        ("events.toml", "plague_at_alnwick.event.places[0]", f"'alnwick' is a castle: {PLAGUE}"),
        ("events.toml", "plague_at_alnwick.event.places[2]", f"'moor' is countryside: {PLAGUE}"),
    ],
    "deck_unknown_sea": [
        ("events.toml", "storm_in_the_atlantic.event.seas[1]", "unknown sea zone 'atlantic'")
    ],
    "deck_unknown_award": [
        ("events.toml", "the_admiral_to_york.event.holder", "unknown award 'admiral_of_england'"),
        ("events.toml", "pikemen_go_home.event.cards[1]", "unknown award 'swiss_pikemen'"),
        ("events.toml", "pikemen_go_home.event.cards[2]", "'earl_of_kent' is a title, not a mercenary card"),
        (
            "events.toml",
            "the_saxons_muster.event.holder",
            "'saxons' has 2 copies, so it has no one holder to summon",
        ),
    ],
    "deck_bad_battle": [
        (
            "events.toml",
            "long_odds.battle.odds",
            "unknown odds '5:3'; expected one of: majority, 5:4, 3:2, 2:1, 3:1, 4:1",
        ),
        (
            "events.toml",
            "rain.battle",
            'expected "bad_weather" or a table { odds = "2:1", deaths = [...] }, got a string (\'rain\')',
        ),
        ("events.toml", "bloody_field.battle.deaths[2]", "'percy' is listed twice"),
        (
            "events.toml",
            "weather_and_odds.battle.bad_weather",
            "unknown field; expected one of: odds, deaths",
        ),
    ],
    "deck_card_without_sections": [
        ("events.toml", "a_quiet_year", "a card needs an `event` section, a `battle` half or both")
    ],
    "deck_too_small": [
        ("setup.toml", "min_event_cards", "asks for at least 20 event cards; events.toml holds 12")
    ],
    "deck_no_decisive_card": [
        (
            "events.toml",
            "",
            "no card has a battle half with odds (only Bad Weather or none): no battle would ever be won "
            "and no siege would ever fall (EVENT.combat_draw)",
        )
    ],
    "deck_malformed_event": [
        ("events.toml", "flood.event.kind", f"unknown event kind 'flood'; expected one of: {EVENT_KINDS}"),
        ("events.toml", "no_kind.event.kind", f"missing required field; expected one of: {EVENT_KINDS}"),
        (
            "events.toml",
            "both_targets.event",
            "give `target` (a noble) or `holder` (an award whose holder goes), not both",
        ),
        (
            "events.toml",
            "no_target.event.target",
            "missing: a summons needs `target` (a noble) or `holder` (an award)",
        ),
        (
            "events.toml",
            "embassy_of_tudor.event.king",
            "unknown king 'tudor'; expected one of: sole, lancaster, york",
        ),
        (
            "events.toml",
            "writ_not_held.event.held",
            "a writ card is always held (EVENT.held): leave out `held` or say true",
        ),
        ("events.toml", "empty_plague.event.places", "name at least one place"),
        ("events.toml", "plague_twice.event.places[1]", "'york' is listed twice"),
        ("events.toml", "plague_with_a_town.event.town", "unknown field; expected one of: kind, places"),
        ("events.toml", "event_as_text.text", "unknown field; expected one of: name, event, battle"),
        (
            "events.toml",
            "event_as_text.event",
            'expected a table such as { kind = "plague", places = ["bristol"] }, got a string (\'plague\')',
        ),
    ],
    "deck_duplicate_id": [("events.toml", "york", "duplicate id 'york': already a place in places.toml")],
    # succession, cathedrals and the Crown deck (issue 14)
    "succession_incomplete": [
        (
            "heirs.toml",
            "margaret_of_anjou.crowned",
            "'henry_vi' is crowned already: a house has at most one King (CROWN.succession)",
        ),
        ("heirs.toml", "", "the succession of york has no heir of order 1, 2"),
    ],
    "no_cathedral": [
        ("places.toml", "moor.cathedral", "countryside has no inside to crown an heir in (F22)"),
        ("places.toml", "", "no place is a cathedral: no heir could ever be crowned (CROWN.cathedral)"),
    ],
    "heir_noble_removed": [
        (
            "heirs.toml",
            "neville_the_heir.noble",
            "the noble card 'neville' is removed from the Crown deck (setup.toml): he could never come "
            "into play as an heir",
        )
    ],
    "several": [
        ("places.toml", "coventry.garrison", "must be at least 0, got -5"),
        ("places.toml", "alnwick", "cannot be reached by land or sea from London"),
        ("roads.toml", "roads.great_north_road.places[3]", "unknown place 'alnwic'"),
        (
            "heirs.toml",
            "richard_duke_of_york.house",
            "unknown house 'tudor'; expected one of: lancaster, york",
        ),
    ],
}


def case_folder(case: str, into: Path) -> Path:
    """A complete data set: ``minimal/`` with the files of fixture ``case`` laid over it."""
    folder = into / case
    shutil.copytree(MINIMAL, folder)
    for f in (FIXTURES / case).glob("*.toml"):
        shutil.copy(f, folder / f.name)
    return folder


def cli_app() -> typer.Typer:
    app = typer.Typer()
    data_cmd.register(app)
    return app


def run_check(folder: Path | str) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(cli_app(), ["data", "check", str(folder)])
    return result.exit_code, result.output, result.exception


def test_every_fixture_is_listed() -> None:
    on_disk = {p.name for p in FIXTURES.iterdir() if p.is_dir()} - {"minimal"}
    assert on_disk == set(CASES)


def test_minimal_set_is_clean() -> None:
    assert validate_folder(MINIMAL) == []
    ds = load_dataset(MINIMAL)
    assert set(ds.board.places) >= {"london", "york", "calais"}
    assert ds.setup.see_seniority == ("archbishop_of_york",)


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_case_reports_exactly(case: str, tmp_path: Path) -> None:
    folder = case_folder(case, tmp_path)
    problems = validate_folder(folder)
    assert [(p.file, p.key_path, p.reason) for p in problems] == CASES[case]
    with pytest.raises(DataError) as err:
        load_dataset(folder)
    assert err.value.problems == tuple(problems)
    for p in problems:
        assert str(p) in str(err.value)


@pytest.mark.parametrize("case", sorted(CASES))
def test_cli_check_lists_problems_and_exits_1(case: str, tmp_path: Path) -> None:
    code, output, exc = run_check(case_folder(case, tmp_path))
    assert code == 1
    assert exc is None or isinstance(exc, SystemExit)
    assert "Traceback" not in output
    for file, key, reason in CASES[case]:
        assert str(DataProblem(file, key, reason)) in output


def test_cli_check_clean_set_exits_0() -> None:
    code, output, _ = run_check(MINIMAL)
    assert code == 0
    assert output.startswith("OK: Minimal: 8 places")
    assert len(output.strip().splitlines()) == 1


def test_cli_check_missing_folder(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    code, output, exc = run_check(missing)
    assert code == 1
    assert exc is None or isinstance(exc, SystemExit)
    assert f"{missing}: data set folder not found" in output
    assert "Traceback" not in output


def test_missing_file_is_reported(tmp_path: Path) -> None:
    folder = case_folder("short_road", tmp_path)  # any case; then remove a file
    (folder / "ships.toml").unlink()
    problems = validate_folder(folder)
    assert DataProblem("ships.toml", "", "file is missing") in problems
    code, output, _ = run_check(folder)
    assert code == 1
    assert "ships.toml: file is missing" in output


def test_every_file_broken_at_once_never_raises(tmp_path: Path) -> None:
    """Garbage in every file: a list of problems, one per file at least, no exception."""
    folder = tmp_path / "garbage"
    shutil.copytree(MINIMAL, folder)
    for f in folder.glob("*.toml"):
        f.write_text("[x]\nkind = [1, 2]\ntroops = {a = 'b'}\n", encoding="utf-8")
    problems = validate_folder(folder)
    assert {p.file for p in problems} == {f.name for f in folder.glob("*.toml")}


def test_wrong_shapes_are_problems_not_errors(tmp_path: Path) -> None:
    folder = tmp_path / "shapes"
    shutil.copytree(MINIMAL, folder)
    (folder / "roads.toml").write_text('adjacent = "york"\nroads = 3\n', encoding="utf-8")
    (folder / "awards.toml").write_text("spells = {}\n[titles]\nbad = 1\n", encoding="utf-8")
    (folder / "seas.toml").write_text('north_sea = 1\n[channel]\nadjacent = ["channel"]\n')
    found = {(p.file, p.key_path) for p in validate_folder(folder)}
    assert ("roads.toml", "adjacent") in found
    assert ("roads.toml", "roads") in found
    assert ("awards.toml", "spells") in found
    assert ("awards.toml", "titles.bad") in found
    assert ("seas.toml", "north_sea") in found
    assert ("seas.toml", "channel.adjacent[0]") in found


def test_data_error_lists_every_problem() -> None:
    err = DataError([DataProblem("a.toml", "x.y", "bad"), DataProblem("b.toml", "", "gone")])
    assert str(err).splitlines() == ["2 problems in the data set:", "  a.toml: x.y: bad", "  b.toml: gone"]
