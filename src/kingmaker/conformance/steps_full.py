"""Format 2's steps (FULL_GAME §5) turned into engine commands. Steps of issue 14
(Parliament, coronation, Crown cards) are read but refused as not supported yet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kingmaker.rules import commands as c

from . import parliament_case
from .schema import CaseError, as_bool, as_list, as_str, check_keys
from .schema_full import LATER_STEPS

CONSIDERATION_KEYS = {"from", "cards", "heirs"}


def later(where: str, do: str) -> CaseError:
    return CaseError(
        f"{where}.do: `{do}` is not supported yet (Parliament, coronation and Crown cards are issue 14)"
    )


def _names(where: str, v: Any) -> tuple[str, ...]:
    return tuple(as_str(where, x) for x in as_list(where, v))


def _give(where: str, raw: Any) -> tuple[c.Consideration, ...]:
    entries = raw if isinstance(raw, list) else [] if raw is None else [raw]
    out = []
    for i, e in enumerate(entries):
        w = f"{where}[{i}]" if isinstance(raw, list) else where
        e = check_keys(w, e, CONSIDERATION_KEYS)
        out.append(
            c.Consideration(
                as_str(f"{w}.from", e.get("from")),
                _names(f"{w}.cards", e.get("cards")),
                _names(f"{w}.heirs", e.get("heirs")),
            )
        )
    return tuple(out)


def to_command(
    where: str, step: dict[str, Any], do: str, by: str, sid: str | None, name: Callable[[str], str]
) -> c.Command | None:
    """The command of a format-2 step, or None for a step format 1 reads."""
    if do in LATER_STEPS:
        raise later(where, do)

    def opt(key: str) -> str | None:
        v = step.get(key)
        return as_str(f"{where}.{key}", v) if v is not None else None

    if do == "attack" and "sally" in step:
        return c.Attack(by, name("unit"), name("target"), sid, _names(f"{where}.sally", step["sally"]))
    if do == "deadline" and "request" in step:
        if "alliance" in step:
            raise CaseError(f"{where}: give `alliance` or `request`, not both")
        return c.Expire(by, name("request"))
    if do == "move_route":
        enter = as_bool(f"{where}.enter", step.get("enter", False))
        if "path" not in step:
            raise CaseError(f"{where}: `move_route` needs `path`")
        return c.MoveRoute(by, name("unit"), _names(f"{where}.path", step["path"]), enter, sid)
    if do == "draw_event":
        return c.DrawEvent(by, sid)
    if do == "battle":
        return c.Battle(by, name("attack"))
    if do == "siege_assault":
        return c.SiegeAssault(by, name("place"))
    if do == "capture":
        return c.CaptureHeir(by, name("unit"), name("heir"))
    if do == "ransom":
        if sid is None:
            raise CaseError(f"{where}: `ransom` needs `id`")
        note = step.get("note", "")
        return c.Ransom(
            by, sid, name("captive"), _give(f"{where}.give", step.get("give")), as_str(f"{where}.note", note)
        )
    if do == "release":
        return c.ReleaseCaptive(by, name("captive"))
    if do == "execute":
        if ("captive" in step) == ("heir" in step):
            raise CaseError(f"{where}: `execute` needs `captive` or `heir`")
        return c.Execute(by, opt("captive"), opt("heir"))
    if do == "choose_port":
        return c.ChoosePort(by, name("ship"), name("port"))
    if do == "end_phase":
        return c.EndPhase(by)
    if do == "play_card":
        return c.PlayCard(by, name("card"), name("unit"))
    if do == "crown":
        return c.Crown(by, name("heir"))
    if do == "assign":
        return c.Assign(by, name("card"), name("to"))
    if do == "draw_crown":
        return c.DrawCrown(by)
    if do == "enter_play":
        return c.EnterPlay(by, name("noble"), name("castle"))
    return parliament_case.to_command(where, step, do, by, sid, name)
