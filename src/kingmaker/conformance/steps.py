"""Turn a case's step into an engine command."""

from __future__ import annotations

from typing import Any

from kingmaker.rules import commands as c

from . import steps_full
from .schema import STEP_COMMON, STEP_PARAMS, CaseError, as_bool, as_int, as_list, as_str, check_keys
from .schema_full import LATER_STEPS, STEP_PARAMS_2


def _names(where: str, v: Any) -> tuple[str, ...]:
    return tuple(as_str(where, x) for x in as_list(where, v))


def to_command(where: str, step: Any, fmt: int = 1) -> c.Command:
    """The command of a step; format 2 (FULL_GAME §5) adds its steps (``steps_full``)."""
    if not isinstance(step, dict):
        raise CaseError(f"{where}: a step is a mapping")
    do = step.get("do")
    params = STEP_PARAMS | STEP_PARAMS_2 if fmt == 2 else STEP_PARAMS
    if fmt == 2 and do in LATER_STEPS:
        raise steps_full.later(where, str(do))
    if do not in params:
        raise CaseError(f"{where}.do: unknown action {do!r}")
    check_keys(where, step, STEP_COMMON | params[do])
    by = as_str(f"{where}.by", step.get("by"))
    sid = step.get("id")
    sid = as_str(f"{where}.id", sid) if sid is not None else None

    def need(key: str) -> Any:
        if key not in step:
            raise CaseError(f"{where}: `{do}` needs `{key}`")
        return step[key]

    def name(key: str) -> str:
        return as_str(f"{where}.{key}", need(key))

    if fmt == 2:
        full = steps_full.to_command(where, step, str(do), by, sid, name)
        if full is not None:
            return full
    enter = as_bool(f"{where}.enter", step.get("enter", False))
    if do == "move_road":
        return c.MoveRoad(by, name("unit"), _names(f"{where}.path", need("path")), enter, sid)
    if do == "move":
        return c.Move(by, name("unit"), name("to"), enter, sid)
    if do == "enter":
        return c.Enter(by, name("unit"), sid)
    if do == "leave":
        return c.Leave(by, name("unit"), sid)
    if do == "embark":
        return c.Embark(by, name("ship"), _names(f"{where}.nobles", need("nobles")), sid)
    if do == "disembark":
        return c.Disembark(
            by, name("ship"), _names(f"{where}.nobles", need("nobles")), name("port"), enter, sid
        )
    if do == "sail":
        return c.Sail(by, name("ship"), name("to"), (), sid)
    if do == "siege":
        return c.Siege(by, name("unit"), name("place"), sid)
    if do == "attack":
        return c.Attack(by, name("unit"), name("target"), sid)
    if do == "defend":
        return c.Defend(by, name("unit"), name("with"))
    if do == "form_army":
        if sid is None:
            raise CaseError(f"{where}: `form_army` needs `id`")
        return c.FormArmy(
            by,
            sid,
            _names(f"{where}.units", need("units")),
            as_bool(f"{where}.fleet", step.get("fleet", False)),
        )
    if do in ("confirm", "reject"):
        if sid is None:
            raise CaseError(f"{where}: `{do}` needs `id`")
        return c.Confirm(by, sid) if do == "confirm" else c.Reject(by, sid)
    if do == "declare_alliance":
        if sid is None:
            raise CaseError(f"{where}: `declare_alliance` needs `id`")
        return c.DeclareAlliance(by, sid, _names(f"{where}.with", need("with")))
    if do == "answer_alliance":
        return c.AnswerAlliance(by, name("alliance"), as_bool(f"{where}.confirm", need("confirm")))
    if do == "deadline":
        return c.Deadline(by, name("alliance"))
    if do == "leave_alliance":
        return c.LeaveAlliance(by, name("alliance"))
    if do == "grant":
        return c.Grant(by, name("to"), name("place"), _names(f"{where}.aspects", need("aspects")))
    if do == "revoke":
        return c.Revoke(by, name("to"), name("place"), _names(f"{where}.aspects", step.get("aspects")))
    if do == "storm":
        return c.Storm(by, name("ship"), name("into"))
    if do == "set_control":
        f = need("faction")
        return c.SetControl(by, name("place"), as_str(f"{where}.faction", f) if f is not None else None)
    if do == "random":
        return c.InjectRandom(
            by, tuple(as_int(f"{where}.values", v) for v in as_list(f"{where}.values", need("values")))
        )
    return c.EndTurn(by)
