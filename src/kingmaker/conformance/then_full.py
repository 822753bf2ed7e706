"""Format 2's `then` keys (FULL_GAME §5): the dead, heirs, captives, sieges, the decks,
discards, Chancery and hands, the phase and the sole King. Only the keys listed are
checked; lists compare in any order."""

from __future__ import annotations

from collections import Counter
from typing import Any

from kingmaker.rules.kings import sole_king
from kingmaker.rules.state import GameState

from . import parliament_case
from .schema import CaseError, as_list, check_keys
from .schema_full import LATER_THEN, THEN_CAPTIVE_KEYS, THEN_HEIR_KEYS, THEN_SIEGE_KEYS


class Mismatch(Exception):
    """The state after a step is not what the case says (the runner reports it)."""

    def __init__(self, expected: str, got: str):
        super().__init__(expected)
        self.expected = expected
        self.got = got


def _ids(where: str, raw: Any) -> list[str]:
    return [str(x) for x in as_list(where, raw)]


def _same_list(expected: list[str], got: tuple[str, ...] | list[str]) -> bool:
    return Counter(expected) == Counter(got)


def _check_list(what: str, expected: list[str], got: tuple[str, ...] | list[str]) -> None:
    if not _same_list(expected, got):
        raise Mismatch(f"{what} {sorted(expected)}", f"{what} {sorted(got)}")


def check(where: str, then: dict[str, Any], state: GameState) -> None:
    """Check every format-2 key of ``then`` against ``state``."""
    for key in sorted(LATER_THEN & set(then)):
        raise CaseError(f"{where}.then.{key}: not supported yet (Parliament and victory are issue 14)")
    if "dead" in then:
        _check_list("dead", _ids(f"{where}.then.dead", then["dead"]), state.dead)
    for key in ("chancery", "event_deck", "event_discard", "crown_deck", "crown_discard"):
        if key in then:
            _check_list(key, _ids(f"{where}.then.{key}", then[key]), getattr(state, key))
    if "hands" in then:
        hands = check_keys(f"{where}.then.hands", then["hands"], set(then["hands"] or {}))
        for f, cards in hands.items():
            _check_list(f"{f}'s hand", _ids(f"{where}.then.hands.{f}", cards), state.hands.get(str(f), ()))
    if "phase" in then and state.phase != then["phase"]:
        raise Mismatch(f"phase {then['phase']}", f"phase {state.phase or '(none)'}")
    if "sole_king" in then:
        king = sole_king(state)
        if king != then["sole_king"]:
            raise Mismatch(f"sole King {then['sole_king']}", f"sole King {king}")
    if "winner" in then and (state.winner or None) != then["winner"]:
        raise Mismatch(f"winner {then['winner']}", f"winner {state.winner or None} ({state.game_over or 'game on'})")
    if "parliament" in then:
        wrong = parliament_case.check_then(where, then["parliament"], state)
        if wrong is not None:
            raise Mismatch(*wrong)
    if "heirs" in then:
        _heirs(where, then["heirs"], state)
    if "captives" in then:
        _captives(where, then["captives"], state)
    if "sieges" in then:
        _sieges(where, then["sieges"], state)


def _heirs(where: str, raw: Any, state: GameState) -> None:
    for hid, exp in check_keys(f"{where}.then.heirs", raw, set(raw or {})).items():
        exp = check_keys(f"{where}.then.heirs.{hid}", exp, THEN_HEIR_KEYS)
        h = state.heirs.get(str(hid))
        if exp.get("dead"):
            if h is not None:
                raise Mismatch(f"heir {hid} dead", f"heir {hid} alive")
            continue
        if h is None:
            raise Mismatch(f"heir {hid} alive {exp}", f"heir {hid} dead or not in play")
        got: dict[str, str] = {}
        if h.with_noble is not None:
            got["with"] = h.with_noble
        elif h.place is not None:
            got["in" if h.inside else "at"] = h.place
        want = {k: str(v) for k, v in exp.items() if k in ("with", "at", "in")}
        shown = {**got, "crowned": h.crowned}
        if (want and want != got) or ("crowned" in exp and bool(exp["crowned"]) != h.crowned):
            raise Mismatch(f"heir {hid} {exp}", f"heir {hid} {shown}")


def _captives(where: str, raw: Any, state: GameState) -> None:
    exp_all = check_keys(f"{where}.then.captives", raw or {}, set(raw or {}))
    got_all = {n.id: n for n in state.nobles.values() if n.captive_of is not None}
    if set(map(str, exp_all)) != set(got_all):
        raise Mismatch(f"captives {sorted(map(str, exp_all))}", f"captives {sorted(got_all)}")
    for nid, exp in exp_all.items():
        exp = check_keys(f"{where}.then.captives.{nid}", exp or {}, THEN_CAPTIVE_KEYS)
        n = got_all[str(nid)]
        held = state.captivity.get(n.id)
        got = {"by": n.captive_of, "place": held.place if held else None}
        if any(got[k] != v for k, v in exp.items()):
            raise Mismatch(f"captive {nid} {exp}", f"captive {nid} {got}")


def _sieges(where: str, raw: Any, state: GameState) -> None:
    expected = []
    for i, s in enumerate(as_list(f"{where}.then.sieges", raw)):
        s = check_keys(f"{where}.then.sieges[{i}]", s, THEN_SIEGE_KEYS)
        by = sorted(_ids(f"{where}.then.sieges[{i}].by", s.get("by"))) if "by" in s else None
        expected.append((str(s.get("place")), by))
    got = sorted((s.place, sorted(s.besiegers)) for s in state.sieges.values())
    if len(expected) != len(got) or not all(
        any(p == gp and (by is None or by == gb) for gp, gb in got) for p, by in expected
    ):
        raise Mismatch(f"sieges {expected}", f"sieges {got}")
