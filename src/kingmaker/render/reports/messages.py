"""The private messages the GM sends: each asks one faction for an answer.

Each looks up what it asks about in ``view(state, to)``: a message can only tell its
reader what that reader may see (asking about a declaration or request it is not part
of raises ``LookupError``). The replies to type are the order texts of the answering
commands, written by ``describe``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kingmaker.rules import commands as c
from kingmaker.rules import ids
from kingmaker.rules.state import Declaration, GameState, Request
from kingmaker.rules.views import View, view

from .document import Block, Code, Document, Inline, Quote, inlines, joined, para
from .naming import Names, aspects, when
from .order_text import Describe, default_describe

Sentence = tuple[Inline, ...]


@dataclass(frozen=True)
class Message:
    """A private message: its recipient (a faction id), subject line and body."""

    to: str
    subject: str
    body: Document


def _replies(yes: str, no: str | None, due: str | None) -> Sentence:
    by = f" before {when(due)}" if due else ""
    if no is None:
        return inlines("Reply ", Code(yes), f"{by}.")
    return inlines("Reply ", Code(yes), " or ", Code(no), f"{by}.")


def _declaration(v: View, alliance: str, to: str) -> Declaration:
    for d in v.declarations:
        if d.id == alliance and to in d.awaiting:
            return d
    raise LookupError(f"no declaration {alliance!r} awaits {to}'s answer")


def _request(v: View, request: str, to: str, rule: str) -> Request:
    for r in v.requests:
        if r.id == request and to in r.awaiting and r.rule == rule:
            return r
    raise LookupError(f"no {rule} request {request!r} awaits {to}'s answer")


def alliance_sentence(
    state: GameState, alliance: str, to: str, names: Names, due: str | None, describe: Describe
) -> Sentence:
    """``Red declares an alliance with you (and Blue). Reply `Green ACCEPTS ALLIANCE rg`
    or `Green DECLINES ALLIANCE rg` before 2026-12-01 12:00 UTC.``"""
    d = _declaration(view(state, to), alliance, to)
    others = [f for f in d.invited if f != to]
    also = inlines(" (and ", names.factions_list(others), ")") if others else ()
    accepted = [f for f in d.confirmed if f != to]
    already = inlines(" ", names.factions_list(accepted), " already accepted.") if accepted else ()
    yes = describe(c.AnswerAlliance(to, d.id, True), state)
    no = describe(c.AnswerAlliance(to, d.id, False), state)
    return inlines(
        names.faction(d.by),
        " declares an alliance with you",
        also,
        ": alliance ",
        Code(d.id),
        f" ({ids.ALLY_2}).",
        already,
        " ",
        _replies(yes, no, due),
    )


def _your_units(v: View, command: object, to: str) -> list[str]:
    """The units of ``to`` the command would move or use (an army's own units included)."""
    owner = {n.id: n.faction for n in v.nobles} | {s.id: s.faction for s in v.ships}
    armies = {a.id: a.units for a in v.armies}
    named: list[str] = []
    for attr in ("unit", "ship"):
        x = getattr(command, attr, None)
        if isinstance(x, str):
            named.append(x)
    for attr in ("nobles", "units"):
        named += [x for x in getattr(command, attr, ()) or () if isinstance(x, str)]
    out: list[str] = []
    for u in named:
        for x in armies.get(u, (u,)):
            if owner.get(x) == to and x not in out:
                out.append(x)
    return out


def allied_order_sentence(
    state: GameState, request: str, to: str, names: Names, due: str | None, describe: Describe
) -> Sentence:
    """``Red orders your Stanley: <order>. Reply `Green CONFIRMS q12` or `Green REJECTS q12` before …``"""
    v = view(state, to)
    r = _request(v, request, to, ids.ALLY_4)
    mine = _your_units(v, r.command, to)
    yours = f"your {names.units(mine)}" if mine else "your units"
    yes, no = describe(c.Confirm(to, r.id), state), describe(c.Reject(to, r.id), state)
    return inlines(
        names.faction(r.by),
        f" orders {yours}: ",
        describe(r.command, state),
        " (request ",
        Code(r.id),
        f", {ids.ALLY_4}). ",
        _replies(yes, no, due),
        " Unconfirmed, it lapses when ",
        names.possessive(r.turn_of),
        " turn ends.",
    )


def army_sentence(
    state: GameState, request: str, to: str, names: Names, due: str | None, describe: Describe
) -> Sentence:
    """``Red asks to form army a1 with your Stanley: … Reply `Green CONFIRMS a1` …``"""
    v = view(state, to)
    r = _request(v, request, to, ids.ALLY_6)
    owner = {n.id: n.faction for n in v.nobles} | {s.id: s.faction for s in v.ships}
    units = getattr(r.command, "units", ()) or ()
    kind = "fleet" if getattr(r.command, "fleet", False) else "army"
    members = joined([inlines(names.unit(u), " (", names.faction(owner.get(u)), ")") for u in units])
    mine = [u for u in units if owner.get(u) == to]
    yes, no = describe(c.Confirm(to, r.id), state), describe(c.Reject(to, r.id), state)
    return inlines(
        names.faction(r.by),
        f" asks to form {kind} ",
        Code(r.id),
        f" with your {names.units(mine)} ({ids.ALLY_6}): ",
        members,
        ". ",
        _replies(yes, no, due),
    )


def _message(to: str, subject: str, body: Sentence, extra: Sequence[Block] = ()) -> Message:
    return Message(to, subject, Document((para(body), *extra)))


def alliance_request(
    state: GameState,
    alliance: str,
    to: str,
    names: Names,
    *,
    due: str | None = None,
    describe: Describe = default_describe,
) -> Message:
    """To each invited faction: confirm or decline an alliance declaration (ALLY.2)."""
    body = alliance_sentence(state, alliance, to, names, due, describe)
    return _message(to, f"Alliance {alliance}: your answer", body)


def allied_order_request(
    state: GameState,
    request: str,
    to: str,
    names: Names,
    *,
    due: str | None = None,
    describe: Describe = default_describe,
) -> Message:
    """To the unit's faction: confirm or reject an ally's order to its unit (ALLY.4)."""
    body = allied_order_sentence(state, request, to, names, due, describe)
    return _message(to, f"Order {request}: your confirmation", body)


def army_consent_request(
    state: GameState,
    request: str,
    to: str,
    names: Names,
    *,
    due: str | None = None,
    describe: Describe = default_describe,
) -> Message:
    """To each faction whose units would join: consent to an army or fleet (ALLY.6)."""
    body = army_sentence(state, request, to, names, due, describe)
    return _message(to, f"Army {request}: your consent", body)


def permission_request(
    asking: str,
    controlling: str,
    place: str,
    wanted: Sequence[str],
    note: str,
    names: Names,
    *,
    state: GameState,
    due: str | None = None,
    describe: Describe = default_describe,
) -> Message:
    """To the faction controlling ``place``: ``asking`` asks leave to use it (ruling R5)."""
    grant = describe(c.Grant(controlling, asking, place, tuple(wanted)), state)
    by = f" before {when(due)}" if due else ""
    body = inlines(
        names.faction(asking),
        f" asks you for {aspects(wanted)} at {names.place(place)}",
        f" ({ids.LOC_PERMISSION}). To grant it, reply ",
        Code(grant),
        f"{by}; to refuse, do nothing.",
    )
    extra: list[Block] = (
        [para(names.possessive(asking), " note:"), Quote((para(note),))] if note.strip() else []
    )
    subject = f"Permission at {names.place(place)}: {names.faction_name(asking)} asks"
    return _message(controlling, subject, body, extra)
