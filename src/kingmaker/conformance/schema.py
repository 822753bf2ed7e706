"""The fields FORMAT.md defines, for refusing anything else with the reason."""

from __future__ import annotations

from typing import Any

CASE_KEYS = {"id", "rules", "title", "board", "state", "steps"}
BOARD_KEYS = {"places", "roads", "adjacent", "seas"}
PLACE_KEYS = {"kind", "capacity", "port"}
SEA_KEYS = {"adjacent"}
STATE_KEYS = {
    "turn_order",
    "turn",
    "round",
    "control",
    "alliances",
    "cooling_off",
    "permissions",
    "nobles",
    "ships",
    "heirs",
    "armies",
    "orders_this_round",
}
ALLIANCE_KEYS = {"id", "members", "public"}
COOLING_KEYS = {"faction", "former_allies", "until_round"}
PERMISSION_KEYS = {"by", "to", "place", "aspects"}
NOBLE_KEYS = {"faction", "in", "at", "troops", "awards"}
AWARD_KEYS = {"id", "troops", "regional"}
SHIP_KEYS = {"faction", "in", "at", "capacity", "passengers", "forced"}
HEIR_KEYS = {"house", "crowned", "with"}
ARMY_KEYS = {"units", "fleet"}
ORDER_KEYS = {"unit", "kind", "turn_of", "by"}
STEP_COMMON = {"by", "do", "expect", "then", "id"}
STEP_PARAMS: dict[str, set[str]] = {
    "move_road": {"unit", "path", "enter"},
    "move": {"unit", "to", "enter"},
    "enter": {"unit"},
    "leave": {"unit"},
    "embark": {"ship", "nobles"},
    "disembark": {"ship", "nobles", "port", "enter"},
    "sail": {"ship", "to"},
    "siege": {"unit", "place"},
    "attack": {"unit", "target"},
    "defend": {"unit", "with"},
    "form_army": {"units", "fleet"},
    "confirm": set(),
    "reject": set(),
    "declare_alliance": {"with"},
    "answer_alliance": {"alliance", "confirm"},
    "deadline": {"alliance"},
    "leave_alliance": {"alliance"},
    "grant": {"to", "place", "aspects"},
    "revoke": {"to", "place", "aspects"},
    "storm": {"ship", "into"},
    "set_control": {"place", "faction"},
    "random": {"values"},
    "end_turn": set(),
}
EXPECT_KEYS = {"result", "rule", "awaiting", "siege", "senior", "senior_rule"}
THEN_KEYS = {"nobles", "ships", "control", "alliances", "visible", "armies"}
THEN_NOBLE_KEYS = {"at", "in", "aboard"}
THEN_SHIP_KEYS = {"at", "in"}
THEN_ALLIANCE_KEYS = {"members", "public"}
THEN_ARMY_KEYS = {"senior", "units"}


class CaseError(ValueError):
    """The case file is malformed: it counts as failed, with this reason."""


def check_keys(where: str, value: Any, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise CaseError(f"{where}: expected a mapping, got {type(value).__name__}")
    extra = set(value) - allowed
    if extra:
        raise CaseError(f"{where}: unknown field(s) {', '.join(sorted(map(str, extra)))}")
    return value


def as_list(where: str, value: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise CaseError(f"{where}: expected a list, got {type(value).__name__}")
    return value


def as_str(where: str, value: Any) -> str:
    if not isinstance(value, str):
        raise CaseError(f"{where}: expected a name, got {value!r}")
    return value


def as_int(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaseError(f"{where}: expected a whole number, got {value!r}")
    return value


def as_bool(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise CaseError(f"{where}: expected true or false, got {value!r}")
    return value
