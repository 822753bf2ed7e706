"""Parliament in a format-2 case (FULL_GAME §5): its steps (``summon_parliament``,
``attend``, ``propose``, ``vote``, ``close_parliament``), the state keys ``parliament``
(a sitting: ``seat``, ``presides``, ``attending``; and this project's ``summoner``,
``id``, ``declared``) and ``votes`` (the vote table replacing the default one), and the
`then` key ``parliament`` (null, or the sitting's ``seat``, ``presides``, ``summoner``,
``attending``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kingmaker.rules import commands as c
from kingmaker.rules import ids
from kingmaker.rules.cards import VoteTable
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.kings import sole_king
from kingmaker.rules.peace import peace_until
from kingmaker.rules.state import GameState, Parliament, Summoned
from kingmaker.rules.votes import from_cards

from .schema import CaseError, as_int, as_list, as_str, check_keys

#: The steps and their parameters (besides ``by``, ``id``, ``expect``, ``then``).
STEPS: dict[str, set[str]] = {
    "summon_parliament": {"seat"},
    "attend": {"nobles"},
    "propose": {"award", "to", "motion", "heir"},
    "vote": {"proposal", "lords", "commons"},
    "close_parliament": set(),
}
SITTING_KEYS = {"seat", "presides", "attending", "summoner", "id", "declared"}
THEN_KEYS = {"seat", "presides", "summoner", "attending"}
HOUSES = ("lords", "commons")


def _names(where: str, v: Any) -> tuple[str, ...]:
    return tuple(as_str(where, x) for x in as_list(where, v))


def to_command(
    where: str, step: dict[str, Any], do: str, by: str, sid: str | None, name: Callable[[str], str]
) -> c.Command | None:
    """The command of a Parliament step, or None for another step."""

    def opt(key: str) -> str | None:
        v = step.get(key)
        return as_str(f"{where}.{key}", v) if v is not None else None

    if do == "summon_parliament":
        if sid is None:
            raise CaseError(f"{where}: `summon_parliament` needs `id`")
        return c.SummonParliament(by, sid, name("seat"))
    if do == "attend":
        return c.Attend(by, _names(f"{where}.nobles", step.get("nobles")))
    if do == "propose":
        if sid is None:
            raise CaseError(f"{where}: `propose` needs `id`")
        return c.Propose(by, sid, opt("award"), opt("to"), opt("motion"), opt("heir"))
    if do == "vote":
        return c.Vote(by, name("proposal"), name("lords"), name("commons"))
    if do == "close_parliament":
        return c.CloseParliament(by)
    return None


def _inline_votes(st: dict[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """Votes a case writes on its own cards: an inline award's ``votes``, a
    ``state.catalog`` entry's ``votes``."""
    lords: dict[str, int] = {}
    commons: dict[str, int] = {}

    def take(cid: str, raw: Any) -> None:
        if isinstance(raw, dict):
            if "lords" in raw:
                lords[cid] = as_int(f"votes of {cid}", raw["lords"])
            if "commons" in raw:
                commons[cid] = as_int(f"votes of {cid}", raw["commons"])

    for spec in (st.get("nobles") or {}).values():
        for a in (spec or {}).get("awards") or []:
            if isinstance(a, dict) and "votes" in a:
                take(str(a.get("id")), a["votes"])
    for cid, spec in (st.get("catalog") or {}).items():
        if isinstance(spec, dict) and "votes" in spec:
            take(str(cid), spec["votes"])
    return lords, commons


def vote_table(st: dict[str, Any], default: VoteTable | None, fallback: Callable[[], VoteTable]) -> VoteTable:
    """The case's vote table: ``state.votes`` (holder -> votes per house), else the default
    data's; the votes the case writes on its own cards added either way."""
    raw = st.get("votes")
    if raw is not None:
        spec = check_keys("state.votes", raw, set(HOUSES))
        houses: list[dict[str, int]] = []
        for house in HOUSES:
            table = check_keys(f"state.votes.{house}", spec.get(house) or {}, set(spec.get(house) or {}))
            houses.append({str(k): as_int(f"state.votes.{house}.{k}", v) for k, v in table.items()})
        lords, commons = houses
    else:
        base = default if default is not None else fallback()
        lords, commons = dict(base.lords), dict(base.commons)
    more_lords, more_commons = _inline_votes(st)
    lords.update(more_lords)
    commons.update(more_commons)
    return VoteTable(FrozenDict(lords), FrozenDict(commons))


def default_table() -> VoteTable:
    """The default data's vote table (its printed votes, for a card set without one)."""
    from .cards_case import default_catalog

    cat = default_catalog()
    return cat.votes if cat.votes is not None else from_cards(cat)


def with_votes(st: dict[str, Any], state: GameState) -> GameState:
    """The case's vote table in its card set."""
    from dataclasses import replace

    table = vote_table(st, None, default_table)
    return state.evolve(catalog=replace(state.catalog, votes=table))


def sitting(st: dict[str, Any], state: GameState) -> GameState:
    """``state.parliament``: a Parliament sitting in this turn, summoned by ``summoner``
    (default: the presiding faction) to ``seat``; ``attending`` nobles, by their factions;
    every faction has declared unless ``declared`` lists those that have."""
    raw = st.get("parliament")
    if raw is None:
        return state
    where = "state.parliament"
    spec = check_keys(where, raw, SITTING_KEYS)
    seat = as_str(f"{where}.seat", spec.get("seat"))
    if seat not in state.board.places:
        raise CaseError(f"{where}.seat: unknown place {seat!r}")

    def faction(key: str, default: str | None = None) -> str:
        f = as_str(f"{where}.{key}", spec.get(key, default))
        if f not in state.turn_order:
            raise CaseError(f"{where}.{key}: unknown faction {f!r}")
        return f

    presides = faction("presides")
    summoner = faction("summoner", presides)
    attending: dict[str, list[str]] = {}
    for n in _names(f"{where}.attending", spec.get("attending")):
        noble = state.nobles.get(n)
        if noble is None or noble.faction is None:
            raise CaseError(f"{where}.attending: unknown noble {n!r}")
        attending.setdefault(noble.faction, []).append(n)
    declared = (
        _names(f"{where}.declared", spec["declared"]) if "declared" in spec else tuple(state.turn_order)
    )
    for f in declared:
        if f not in state.turn_order:
            raise CaseError(f"{where}.declared: unknown faction {f!r}")
    for f in attending:
        if f not in declared:
            raise CaseError(f"{where}.attending: {f} attends, so it has declared")
    rule = ids.PARL_SUMMON_KING if sole_king(state) is not None else ids.PARL_SUMMON_CHANCELLOR
    p = Parliament(
        as_str(f"{where}.id", spec.get("id", "p1")),
        seat,
        summoner,
        presides,
        rule,
        FrozenDict({f: tuple(attending.get(f, ())) for f in declared}),
    )
    until_round, until_index = peace_until(state, summoner)
    summoned = Summoned(seat, summoner, state.round, state.turn_index, until_round, until_index)
    return state.evolve(parliament=p, summoned=summoned)


def check_then(where: str, raw: Any, state: GameState) -> tuple[str, str] | None:
    """What `then.parliament` expects and what ``state`` holds, when they differ."""
    p = state.parliament
    if raw is None:
        return None if p is None else ("parliament null", f"Parliament sitting at {p.seat}")
    exp = check_keys(f"{where}.then.parliament", raw, THEN_KEYS)
    if p is None:
        return f"parliament {exp}", "no Parliament sitting"
    got: dict[str, Any] = {"seat": p.seat, "presides": p.presides, "summoner": p.summoner}
    for key in ("seat", "presides", "summoner"):
        if key in exp and str(exp[key]) != got[key]:
            return f"parliament {key} {exp[key]}", f"parliament {key} {got[key]}"
    if "attending" in exp:
        want = sorted(_names(f"{where}.then.parliament.attending", exp["attending"]))
        have = sorted(n for nobles in p.attending.values() for n in nobles)
        if want != have:
            return f"parliament attending {want}", f"parliament attending {have}"
    return None
