"""The full game's private messages: a ransom offered to the faction that must answer it
(RANSOM.offer), a storm's ports to choose (EVENT.storm), and a vote awaited on the open
proposal of a sitting Parliament (PARL.vote).

As every message, each looks up what it asks about in ``view(state, to)``: a ransom's
terms reach only the two parties (the request is theirs), a storm's choices only the
ships' factions; asking about anything else raises ``LookupError``."""

from __future__ import annotations

from kingmaker.rules import commands as c
from kingmaker.rules import ids
from kingmaker.rules.captives import unransomed
from kingmaker.rules.state import GameState, Parliament, Proposal, StormRequest
from kingmaker.rules.views import View, view
from kingmaker.rules.votes import ABSTAIN, AGAINST, FOR

from .document import Code, Document, Inline, inlines, joined, para
from .messages import Message, _replies, _request
from .naming import Names, when
from .order_text import Describe, default_describe
from .parliament import proposal_words

Sentence = tuple[Inline, ...]


def ransom_terms(names: Names, command: c.Ransom, captor: str | None, home: str | None) -> Sentence:
    """``Gold gives Blue Duke of Exeter`` (each party's part; "nothing is given")."""
    parts = []
    for g in command.give:
        to = home if g.from_ == captor else captor
        things = [names.card(x) for x in g.cards] + [names.unit(h) for h in g.heirs]
        if things:
            parts.append(
                inlines(names.faction(g.from_), " gives ", names.faction(to), " ", ", ".join(things))
            )
    terms = joined(parts, "; ") if parts else inlines("nothing is given")
    promise = (
        f"; the promise \u201c{command.note}\u201d is noted, not enforced ({ids.RANSOM_FUTURE})"
        if command.note
        else ""
    )
    return inlines(terms, promise)


def ransom_sentence(
    state: GameState, request: str, to: str, names: Names, due: str | None, describe: Describe
) -> Sentence:
    """``Gold offers a ransom for Mowbray, held captive by Blue: Gold gives Blue Writ …
    (request `ransom-writ`, RANSOM.offer). Reply `Blue CONFIRMS ransom-writ` or …``"""
    v = view(state, to)
    r = _request(v, request, to, ids.RANSOM_OFFER)
    cmd = r.command
    assert isinstance(cmd, c.Ransom)
    noble = state.nobles.get(cmd.captive)
    captor, home = (noble.captive_of, noble.faction) if noble is not None else (None, None)
    yes, no = describe(c.Confirm(to, r.id), state), describe(c.Reject(to, r.id), state)
    lapse: Sentence = ()
    if cmd.captive in unransomed(state):
        lapse = inlines(
            f" Unless he is ransomed or freed first, {names.unit(cmd.captive)} is executed when this turn ends ({ids.EXEC_UNRANSOMED})."
        )
    offer = (
        inlines(names.faction(r.by), f" asks a ransom for {names.unit(cmd.captive)}, its captive: ")
        if r.by == captor
        else inlines(
            names.faction(r.by),
            f" offers a ransom for {names.unit(cmd.captive)}, held captive by ",
            names.faction(captor),
            ": ",
        )
    )
    return inlines(
        offer,
        ransom_terms(names, cmd, captor, home),
        " (request ",
        Code(r.id),
        f", {ids.RANSOM_OFFER}). ",
        _replies(yes, no, due),
        lapse,
    )


def _storm(v: View, storm: str, to: str) -> StormRequest:
    owner = {s.id: s.faction for s in v.ships}
    for st in v.storms:
        if st.id == storm and any(owner.get(s) == to for s in st.waiting):
            return st
    raise LookupError(f"no storm {storm!r} waits for {to}'s ports")


def storm_sentence(
    state: GameState, storm: str, to: str, names: Names, due: str | None, describe: Describe
) -> Sentence:
    """``A storm drives your Grace Dieu from English Channel to port: reply one of
    `Grace Dieu TO Newport`, … before …; unanswered, the port is drawn at random.``"""
    v = view(state, to)
    st = _storm(v, storm, to)
    owner = {s.id: s.faction for s in v.ships}
    where = {s.id: s.place for s in v.ships}
    parts: list[Sentence] = []
    for ship in st.waiting:
        if owner.get(ship) != to:
            continue
        replies = joined(
            [Code(describe(c.ChoosePort(to, ship, p), state)) for p in st.ports.get(ship, ())], " or "
        )
        parts.append(
            inlines(
                f"your {names.unit(ship)} is driven from {names.place(where.get(ship))} to port: reply ",
                replies,
            )
        )
    by = f" before {when(due)}" if due else ""
    return inlines(
        "A storm (request ",
        Code(st.id),
        f", {ids.EVENT_STORM}): ",
        joined(parts, "; "),
        f"{by}. Unanswered, the port is drawn at random at the deadline.",
    )


def ransom_request(
    state: GameState,
    request: str,
    to: str,
    names: Names,
    *,
    due: str | None = None,
    describe: Describe = default_describe,
) -> Message:
    """To the party that must answer a ransom offer: confirm or reject it (RANSOM.offer)."""
    body = ransom_sentence(state, request, to, names, due, describe)
    r = _request(view(state, to), request, to, ids.RANSOM_OFFER)
    captive = getattr(r.command, "captive", "")
    return Message(to, f"Ransom of {names.unit(captive)}: your answer", Document((para(body),)))


def storm_request(
    state: GameState,
    storm: str,
    to: str,
    names: Names,
    *,
    due: str | None = None,
    describe: Describe = default_describe,
) -> Message:
    """To each faction whose ships a storm drives to port: choose the ports (EVENT.storm)."""
    body = storm_sentence(state, storm, to, names, due, describe)
    return Message(to, "Storm: choose your ports", Document((para(body),)))


def storms_awaiting(state: GameState, to: str) -> list[str]:
    """The storms waiting for ``to``'s ports."""
    v = view(state, to)
    owner = {s.id: s.faction for s in v.ships}
    return [st.id for st in v.storms if any(owner.get(s) == to for s in st.waiting)]


def _awaiting_vote(state: GameState, to: str) -> tuple[Parliament, Proposal] | None:
    """The sitting Parliament and its open proposal, as ``to`` sees them, when ``to`` is
    one of its voters who has not voted yet (PARL.vote)."""
    p = view(state, to).parliament
    pr = p.open if p is not None else None
    return (p, pr) if p is not None and pr is not None and to in pr.awaiting else None


def votes_awaiting(state: GameState, to: str) -> list[str]:
    """The open proposal of the sitting Parliament, when ``to`` is one of its voters
    who has not voted yet (PARL.vote)."""
    found = _awaiting_vote(state, to)
    return [found[1].id] if found is not None else []


def vote_request(
    state: GameState,
    proposal: str,
    to: str,
    names: Names,
    *,
    due: str | None = None,
    describe: Describe = default_describe,
) -> Message:
    """To each voter of the open proposal who has not voted: vote (PARL.vote). The
    votes cast so far stay secret until every voter has voted."""
    found = _awaiting_vote(state, to)
    if found is None or found[1].id != proposal:
        raise LookupError(proposal)
    p, pr = found
    by = f" before {when(due)}" if due else ""
    ways = joined(
        [Code(describe(c.Vote(to, pr.id, way, way), state)) for way in (FOR, AGAINST, ABSTAIN)], ", "
    )
    split = Code(describe(c.Vote(to, pr.id, FOR, AGAINST), state))
    body = inlines(
        f"Parliament at {names.place(p.seat)}: ",
        names.faction(p.presides),
        f" proposes {proposal_words(names, pr)} (proposal ",
        Code(pr.id),
        f", {ids.PARL_VOTE}). Your vote is awaited{by}: reply one of ",
        ways,
        "; or a different vote in each house, as ",
        split,
        ". The votes are secret until every voter has voted; then the tally by house is public.",
    )
    return Message(to, f"Parliament: your vote on {proposal_words(names, pr)}", Document((para(body),)))
