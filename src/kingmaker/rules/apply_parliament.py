"""``apply`` for Parliament's events (PARL.*; docs/full-game.md): the sitting, its
attendance, proposals and votes, its end, and the last summons (the King's Peace).

Registered with ``apply`` on import (``apply`` imports this module last)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import events as ev
from .apply import on
from .frozen import FrozenDict
from .peace import peace_until
from .state import GameState, Parliament, Proposal, Summoned


def _sitting(state: GameState) -> Parliament:
    if state.parliament is None:
        raise ValueError("no Parliament sits")
    return state.parliament


def _with_last(p: Parliament, proposal: Proposal) -> Parliament:
    return replace(p, proposals=(*p.proposals[:-1], proposal))


@on(ev.ParliamentSummoned)
def _summoned(state: GameState, e: ev.ParliamentSummoned) -> dict[str, Any]:
    until_round, until_index = peace_until(state, e.summoner)
    return {
        "parliament": Parliament(e.parliament, e.seat, e.summoner, e.presides, e.rule),
        "summoned": Summoned(e.seat, e.summoner, state.round, state.turn_index, until_round, until_index),
    }


@on(ev.AttendanceDeclared)
def _attendance(state: GameState, e: ev.AttendanceDeclared) -> dict[str, Any]:
    p = _sitting(state)
    return {"parliament": replace(p, attending=p.attending.set(e.faction, e.nobles))}


@on(ev.ProposalMade)
def _proposal_made(state: GameState, e: ev.ProposalMade) -> dict[str, Any]:
    p = _sitting(state)
    new = Proposal(e.proposal, e.award, e.to, e.motion, e.heir, e.voters, FrozenDict())
    return {"parliament": replace(p, proposals=(*p.proposals, new))}


@on(ev.VoteCast)
def _vote_cast(state: GameState, e: ev.VoteCast) -> dict[str, Any]:
    p = _sitting(state)
    last = p.proposals[-1]
    return {"parliament": _with_last(p, replace(last, votes=last.votes.set(e.faction, (e.lords, e.commons))))}


@on(ev.ProposalDecided)
def _proposal_decided(state: GameState, e: ev.ProposalDecided) -> dict[str, Any]:
    p = _sitting(state)
    last = p.proposals[-1]
    outcome = "passed" if e.passed else "failed"
    tally = (e.lords_for, e.lords_against, e.commons_for, e.commons_against)
    return {"parliament": _with_last(p, replace(last, outcome=outcome, tally=tally))}


@on(ev.ParliamentClosed)
def _closed(state: GameState, e: ev.ParliamentClosed) -> dict[str, Any]:
    return {"parliament": None}
