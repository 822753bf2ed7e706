"""The conformance runner implements FORMAT.md: malformed cases fail with the reason
(issue 3 §1)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kingmaker.cli import conformance_cmd
from kingmaker.conformance.runner import run_case, run_paths

from .conftest import CASES

GOOD = """
id: T-001
rules: [LOC.neutral.road]
title: t
board:
  places: {a: {kind: country}, b: {kind: castle}, c: {kind: country}}
  roads: [[a, b, c]]
state:
  turn_order: [red, blue]
  nobles: {percy: {faction: red, at: a, troops: 10}}
steps:
- by: red
  do: move_road
  unit: percy
  path: [a, b, c]
  expect: {result: refused, rule: LOC.neutral.road}
  then:
    nobles: {percy: {at: a}}
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_a_good_case_passes(tmp_path: Path) -> None:
    assert run_case(_write(tmp_path, "good.yaml", GOOD)).passed


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (("title: t", "title: t\ncolour: red"), "unknown field(s) colour"),
        (("do: move_road", "do: teleport"), "unknown action 'teleport'"),
        (("kind: castle}", "kind: keep}"), "unknown kind 'keep'"),
        (("expect: {result: refused, rule: LOC.neutral.road}", "expect: {result: refused}"), "must name its `rule`"),
        (("troops: 10}", "troops: ten}"), "expected a whole number"),
        (("[LOC.neutral.road]", "[LOC.nowhere.road]"), "unknown rule id"),
        (("percy: {at: a}", "percy: {at: a, hat: b}"), "unknown field(s) hat"),
        (("roads: [[a, b, c]]", "roads: [[a, b, x]]"), "unknown place 'x'"),
    ],
)
def test_malformed_cases_fail_with_the_reason(tmp_path: Path, change: tuple[str, str], reason: str) -> None:
    text = GOOD.replace(*change)
    assert text != GOOD
    r = run_case(_write(tmp_path, "bad.yaml", text))
    assert not r.passed and reason in r.got, r.line()


def test_a_wrong_expectation_reports_step_expected_and_got(tmp_path: Path) -> None:
    r = run_case(_write(tmp_path, "wrong.yaml", GOOD.replace("rule: LOC.neutral.road}", "rule: LOC.friendly.road}")))
    assert not r.passed and r.step == 1
    assert r.expected == "refused LOC.friendly.road"
    assert r.got.startswith("refused LOC.neutral.road")
    assert "step 1" in r.line() and "T-001" in r.line()


def test_yaml_that_does_not_parse_fails(tmp_path: Path) -> None:
    r = run_case(_write(tmp_path, "broken.yaml", "id: [unclosed\n"))
    assert not r.passed and r.expected == "valid YAML"


def test_duplicate_ids_fail(tmp_path: Path) -> None:
    _write(tmp_path, "a.yaml", GOOD)
    _write(tmp_path, "b.yaml", GOOD)
    results = list(run_paths([tmp_path]))
    assert [r.passed for r in results] == [True, False]


def _cli() -> typer.Typer:
    app = typer.Typer()
    conformance_cmd.register(app)

    @app.callback()
    def _root() -> None:
        pass

    return app


def test_cli_prints_failures_then_the_count_and_exits_nonzero(tmp_path: Path) -> None:
    _write(tmp_path, "good.yaml", GOOD)
    _write(tmp_path, "bad.yaml", GOOD.replace("T-001", "T-002").replace("refused, rule", "accepted, rule"))
    result = CliRunner().invoke(_cli(), ["conformance", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[-1] == "1 passed, 1 failed"
    assert lines[0].startswith("FAIL T-002")


def test_the_public_vectors_all_pass() -> None:
    results = list(run_paths([CASES]))
    assert len(results) >= 61
    assert [r.line() for r in results if not r.passed] == []
