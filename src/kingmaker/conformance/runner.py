"""Run conformance cases: each on a fresh engine, stopping at the first step that
does not answer as expected."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from kingmaker.rules.apply import replay
from kingmaker.rules.decide import decide
from kingmaker.rules.decision import Decision
from kingmaker.rules.ids import ALL_RULE_IDS
from kingmaker.rules.state import GameState
from kingmaker.rules.views import view

from . import case_full, expect_full, then_full
from .case import build_board, build_state
from .schema import (
    CASE_KEYS,
    EXPECT_KEYS,
    THEN_ALLIANCE_KEYS,
    THEN_ARMY_KEYS,
    THEN_KEYS,
    THEN_NOBLE_KEYS,
    THEN_SHIP_KEYS,
    CaseError,
    as_list,
    check_keys,
)
from .schema_full import EXPECT_KEYS_2, FORMATS, THEN_KEYS_2, THEN_NOBLE_KEYS_2, THEN_SHIP_KEYS_2
from .steps import to_command


@dataclass(frozen=True)
class CaseResult:
    """One case's outcome; ``step`` is 1-based, 0 for the case as a whole."""

    case_id: str
    path: str
    passed: bool
    step: int = 0
    expected: str = ""
    got: str = ""

    def line(self) -> str:
        where = f"step {self.step}" if self.step else "case"
        return f"FAIL {self.case_id} ({self.path}) {where}: expected {self.expected}; got {self.got}"


_Mismatch = then_full.Mismatch


def case_files(paths: Iterable[str | Path]) -> list[Path]:
    """Every ``*.yaml`` file under ``paths`` (files are taken as they are), sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(x for x in p.rglob("*.yaml") if x.is_file()))
        else:
            out.append(p)
    return out


def run_case(path: Path) -> CaseResult:
    try:
        text = path.read_text(encoding="utf-8")
        raw = yaml.safe_load(text)
    except (OSError, UnicodeDecodeError) as e:
        return CaseResult(path.stem, str(path), False, 0, "a readable case file", str(e))
    except yaml.YAMLError as e:
        return CaseResult(path.stem, str(path), False, 0, "valid YAML", str(e).replace("\n", " "))
    case_id = str(raw.get("id", path.stem)) if isinstance(raw, dict) else path.stem
    step_no = 0
    try:
        case = check_keys("case", raw, CASE_KEYS | {"format"})
        for key in ("id", "board", "state", "steps"):
            if key not in case:
                raise CaseError(f"case: missing `{key}`")
        fmt = case.get("format", 1)
        if fmt not in FORMATS or isinstance(fmt, bool):
            raise CaseError(f"format: expected 1 or 2, got {fmt!r}")
        for r in as_list("rules", case.get("rules")):
            if r not in ALL_RULE_IDS:
                raise CaseError(f"rules: unknown rule id {r!r}")
        board = build_board(case["board"], fmt)
        castles = case_full.castles(case["board"]) if fmt == 2 else {}
        state = build_state(case["state"], board, case_id, fmt, castles)
        for i, step in enumerate(as_list("steps", case["steps"]), start=1):
            step_no = i
            where = f"steps[{i - 1}]"
            command = to_command(where, step, fmt)
            decision = decide(state, command)
            _check_expect(where, step.get("expect"), decision, fmt)
            state = replay(state, decision.events)
            if step.get("then") is not None:
                _check_then(where, step["then"], state, fmt)
    except CaseError as e:
        return CaseResult(case_id, str(path), False, step_no, "a well-formed case", str(e))
    except _Mismatch as m:
        return CaseResult(case_id, str(path), False, step_no, m.expected, m.got)
    return CaseResult(case_id, str(path), True)


def _describe(d: Decision) -> str:
    parts = [d.result.value]
    if d.rule:
        parts.append(d.rule)
    if d.awaiting:
        parts.append(f"awaiting {sorted(d.awaiting)}")
    if d.siege:
        parts.append("siege")
    if d.senior:
        parts.append(f"senior {d.senior} ({d.senior_rule})")
    return " ".join(parts) + f" — {d.explanation}"


def _check_expect(where: str, raw: Any, d: Decision, fmt: int = 1) -> None:
    if raw is None:
        raise CaseError(f"{where}: missing `expect`")
    exp = check_keys(f"{where}.expect", raw, EXPECT_KEYS | (EXPECT_KEYS_2 if fmt == 2 else set()))
    result = exp.get("result")
    if result not in ("accepted", "refused", "pending"):
        raise CaseError(f"{where}.expect.result: expected accepted, refused or pending, got {result!r}")
    if result == "refused" and "rule" not in exp:
        raise CaseError(f"{where}.expect: a refused step must name its `rule`")
    want = [str(result)]
    ok = d.result.value == result
    if "rule" in exp:
        want.append(str(exp["rule"]))
        ok = ok and d.rule == exp["rule"]
    if "awaiting" in exp:
        aw = sorted(map(str, as_list(f"{where}.expect.awaiting", exp["awaiting"])))
        want.append(f"awaiting {aw}")
        ok = ok and sorted(d.awaiting) == aw
    if "siege" in exp and not isinstance(exp["siege"], dict):  # format 2's mapping is the siege's report
        want.append(f"siege={exp['siege']}")
        ok = ok and d.siege == bool(exp["siege"])
    if "senior" in exp:
        want.append(f"senior {exp['senior']}")
        ok = ok and d.senior == exp["senior"]
    if "senior_rule" in exp:
        want.append(f"({exp['senior_rule']})")
        ok = ok and d.senior_rule == exp["senior_rule"]
    if fmt == 2:
        more_want, more_got, more_ok = expect_full.check_report(where, exp, d)
        if not (ok and more_ok):
            raise _Mismatch(" ".join(want + more_want), "; ".join([_describe(d), *more_got]))
    if not ok:
        raise _Mismatch(" ".join(want), _describe(d))


def _noble_where(state: GameState, nid: str) -> dict[str, str]:
    n = state.nobles[nid]
    if n.aboard is not None:
        return {"aboard": n.aboard}
    if n.place is None:
        return {}
    return {"in" if n.inside else "at": n.place}


def _check_then(where: str, raw: Any, state: GameState, fmt: int = 1) -> None:
    two = fmt == 2
    then = check_keys(f"{where}.then", raw, THEN_KEYS | (THEN_KEYS_2 if two else set()))
    for nid, exp in (then.get("nobles") or {}).items():
        exp = check_keys(
            f"{where}.then.nobles.{nid}", exp, THEN_NOBLE_KEYS | (THEN_NOBLE_KEYS_2 if two else set())
        )
        if nid not in state.nobles:
            raise _Mismatch(f"noble {nid} exists", "no such noble")
        got = _noble_where(state, nid)
        n = state.nobles[nid]
        place = {k: str(v) for k, v in exp.items() if k in THEN_NOBLE_KEYS}
        if (place or not exp) and place != got:
            raise _Mismatch(f"{nid} {exp}", f"{nid} {got}")
        if "faction" in exp and exp["faction"] != n.faction:
            raise _Mismatch(f"{nid} faction {exp['faction']}", f"{nid} faction {n.faction}")
        if "awards" in exp and sorted(
            map(str, as_list(f"{where}.then.nobles.{nid}.awards", exp["awards"]))
        ) != sorted(n.awards):
            raise _Mismatch(f"{nid} awards {sorted(exp['awards'])}", f"{nid} awards {sorted(n.awards)}")
    for sid, exp in (then.get("ships") or {}).items():
        exp = check_keys(
            f"{where}.then.ships.{sid}", exp, THEN_SHIP_KEYS | (THEN_SHIP_KEYS_2 if two else set())
        )
        s = state.ships.get(sid)
        if s is None:
            raise _Mismatch(f"ship {sid} exists", "no such ship")
        got = {"in" if s.in_port else "at": s.place}
        place = {k: str(v) for k, v in exp.items() if k in THEN_SHIP_KEYS}
        if (place or not exp) and place != got:
            raise _Mismatch(f"{sid} {exp}", f"{sid} {got}")
        if "forced" in exp and bool(exp["forced"]) != s.forced:
            raise _Mismatch(f"{sid} forced {exp['forced']}", f"{sid} forced {s.forced}")
        if "passengers" in exp and sorted(map(str, exp["passengers"] or [])) != sorted(s.passengers):
            raise _Mismatch(
                f"{sid} passengers {exp['passengers']}", f"{sid} passengers {sorted(s.passengers)}"
            )
    if two:
        then_full.check(where, then, state)
    for pid, f in (then.get("control") or {}).items():
        got_f = state.control.get(pid)
        if got_f != f:
            raise _Mismatch(f"control {pid}: {f}", f"control {pid}: {got_f}")
    if "alliances" in then:
        exp_all = []
        for i, a in enumerate(as_list(f"{where}.then.alliances", then["alliances"])):
            a = check_keys(f"{where}.then.alliances[{i}]", a, THEN_ALLIANCE_KEYS)
            exp_all.append((tuple(sorted(a.get("members") or [])), a.get("public")))
        got_all = [(a.members, a.public) for a in state.alliances.values()]
        if not _match_alliances(exp_all, got_all):
            raise _Mismatch(f"alliances {exp_all}", f"alliances {got_all}")
    for f, lists in (then.get("visible") or {}).items():
        exp_v = sorted(tuple(sorted(m)) for m in as_list(f"{where}.then.visible.{f}", lists))
        got_v = sorted(view(state, str(f)).visible_alliances())
        if exp_v != got_v:
            raise _Mismatch(f"{f} sees {exp_v}", f"{f} sees {got_v}")
    for aid, exp in (then.get("armies") or {}).items():
        exp = check_keys(f"{where}.then.armies.{aid}", exp, THEN_ARMY_KEYS)
        army = state.armies.get(aid)
        if army is None:
            raise _Mismatch(f"army {aid} {exp}", f"no army {aid}")
        if "senior" in exp and army.senior != exp["senior"]:
            raise _Mismatch(
                f"army {aid} senior {exp['senior']}", f"senior {army.senior} ({army.explanation})"
            )
        if "units" in exp and sorted(army.units) != sorted(exp["units"]):
            raise _Mismatch(f"army {aid} units {sorted(exp['units'])}", f"units {sorted(army.units)}")


def _match_alliances(
    expected: list[tuple[tuple[str, ...], Any]], got: list[tuple[tuple[str, ...], bool]]
) -> bool:
    if len(expected) != len(got):
        return False
    left = list(got)
    for members, public in expected:
        for i, (m, p) in enumerate(left):
            if m == members and (public is None or p == public):
                del left[i]
                break
        else:
            return False
    return True


def run_paths(paths: Iterable[str | Path]) -> Iterator[CaseResult]:
    """Run every case under ``paths``; case ids must be unique across them."""
    seen: dict[str, str] = {}
    for path in case_files(paths):
        result = run_case(path)
        if result.passed and result.case_id in seen:
            result = CaseResult(
                result.case_id,
                str(path),
                False,
                0,
                "a unique case id",
                f"id also used by {seen[result.case_id]}",
            )
        seen.setdefault(result.case_id, str(path))
        yield result
