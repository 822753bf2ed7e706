"""Which log entries a viewer may read: the log counterpart of ``rules.views``.

Public: movement, control, combats, turns, the GM's rulings, draws, event cards drawn,
seats, undo and turn deadlines; and, once a turn has ended, its open orders (``rules.views.open_order``:
movement and combat orders to the giver's own units), as forum GMs publish them. Secret, to the factions concerned (and the GM): alliance declarations,
answers and secret alliances (until public), requests and their answers, permissions,
defence pacts, orders given and submissions, and deadlines of secret things; a Crown
card drawn, to the faction that draws it; a storm's port chosen by a ship's faction, to
that faction (the ship's move, once the storm is settled, is public); a deck's shuffle, to the GM until the seed is
revealed (its values give the new order away; after the reveal anyone may re-derive them); a
vote in Parliament, to its voter until the proposal is decided (then the tally and every vote
are public: PARL.vote).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence

from kingmaker.rules import events as ev
from kingmaker.rules.commands import GM
from kingmaker.rules.views import PUBLIC

from .envelope import Envelope
from .service_events import DeadlinePassed, DeadlineSet, LineUnread, OrderSubmitted, PermissionAsked

_PUBLIC_KINDS = (
    ev.NobleMoved,
    ev.Embarked,
    ev.Landed,
    ev.ShipMoved,
    ev.ControlSet,
    ev.CombatDeclared,
    ev.AlliancesRevealed,
    ev.ArmySet,
    ev.ArmyDisbanded,
    ev.RandomDrawn,
    ev.RandomInjected,
    ev.TurnEnded,
    ev.SeedCommitted,
    ev.SeedRevealed,
    ev.NobleKilled,
    ev.NobleCaptured,
    ev.NobleReleased,
    ev.HeirMoved,
    ev.CombatResolved,
)


class _Tracker:
    """Who each secret concerns, learnt while reading the log in order."""

    def __init__(self) -> None:
        self.declarations: dict[str, set[str]] = {}  # alliance id -> declarer + invited
        self.members: dict[str, set[str]] = {}  # alliance id -> members
        self.public: set[str] = set()
        self.requests: dict[str, set[str]] = {}  # request id -> orderer + awaited
        self.ended: set[tuple[int, str]] = set()  # (round, faction) turns that have ended
        self.revealed = False  # the seed is revealed: a shuffle's values tell nothing more
        self.sitting = 0  # Parliaments summoned so far (a proposal's id is its sitting's own)
        self.decided: set[tuple[int, str]] = set()  # (sitting, proposal) decided in the log

    def audience(self, env: Envelope) -> set[str] | None:
        """The factions that may read ``env``; None when everyone may."""
        e = env.event
        if isinstance(e, _PUBLIC_KINDS):
            if isinstance(e, ev.AlliancesRevealed):
                self.public.update(e.alliances)
            return None
        if isinstance(e, ev.AllianceDeclared):
            who = {e.by, *e.invited}
            self.declarations[e.alliance] = who
            return who
        if isinstance(e, (ev.AllianceAnswered, ev.DeclarationEnded)):
            return set(self.declarations.get(e.alliance, set()))
        if isinstance(e, ev.AllianceFormed):
            self.members[e.alliance] = set(e.members)
            if e.public:
                self.public.add(e.alliance)
                return None
            return set(e.members)
        if isinstance(e, ev.AllianceLeft):
            who = set(self.members.get(e.alliance, {e.faction}))
            self.members[e.alliance] = who - {e.faction}
            return None if e.alliance in self.public else who
        if isinstance(e, ev.RequestOpened):
            who = {e.by, *e.awaiting}
            self.requests[e.request] = who
            return who
        if isinstance(e, (ev.RequestConfirmed, ev.RequestClosed)):
            return set(self.requests.get(e.request, set()))
        if isinstance(e, ev.ParliamentSummoned):
            self.sitting += 1
            return None
        if isinstance(e, ev.VoteCast):  # secret until every voter has voted (PARL.vote)
            return None if (self.sitting, e.proposal) in self.decided else {e.faction}
        if isinstance(e, ev.DeckShuffled):
            return None if self.revealed else set()  # the new order is the GM's (FULL_GAME §4)
        if isinstance(e, ev.CardDrawn):
            kind, _, holder = e.to.partition(":")
            return (
                {holder} if e.deck == "crown" and kind == "hand" else None
            )  # hands are private (DEAL.chancery)
        if isinstance(e, ev.PortChosen) and env.actor not in (GM, "clock"):
            return {env.actor}  # a storm's port chosen by the ship's faction: its own (views: storms)
        if isinstance(e, (ev.PermissionGranted, ev.PermissionRevoked)):
            return {e.by, e.to}
        if isinstance(e, ev.DefenceDeclared | ev.OrderGiven):
            return {env.actor} | ({e.by} if isinstance(e, ev.OrderGiven) else set())
        if isinstance(e, OrderSubmitted):
            if e.open and (env.round, env.turn) in self.ended:
                return None  # published with its turn's orders once the turn ended
            return {e.by}
        if isinstance(e, PermissionAsked):
            return {e.by, e.of}
        if isinstance(e, LineUnread):
            return {e.by}
        if isinstance(e, (DeadlineSet, DeadlinePassed)):
            if e.target_kind == "turn":
                return None
            secret = self.declarations.get(e.target) or self.requests.get(e.target)
            return set(secret) if secret is not None else set()
        return None  # service entries: game started, seats, orders missed, undo


def visible_log(envelopes: Iterable[Envelope], viewer: str | None) -> list[Envelope]:
    """The entries ``viewer`` (a faction, ``GM``, or None / ``PUBLIC``) may read, in order."""
    who = PUBLIC if viewer is None else viewer
    tracker = _Tracker()
    entries = list(envelopes)
    tracker.ended = {(env.round, env.turn) for env in entries if isinstance(env.event, ev.TurnEnded)}
    tracker.revealed = any(isinstance(env.event, ev.SeedRevealed) for env in entries)
    tracker.decided = decided_proposals(entries)
    out = []
    for env in entries:
        audience = tracker.audience(env)
        if who == GM or audience is None or who in audience:
            out.append(env)
    return out


def decided_proposals(entries: Iterable[Envelope]) -> set[tuple[int, str]]:
    """The proposals the log decides, as (sitting, proposal id): the sittings numbered
    1, 2, ... in the order summoned. A vote on one of them is public; on any other
    (still open, or lapsed when its Parliament ended) it stays its voter's."""
    sitting = 0
    out: set[tuple[int, str]] = set()
    for env in entries:
        if isinstance(env.event, ev.ParliamentSummoned):
            sitting += 1
        elif isinstance(env.event, ev.ProposalDecided):
            out.add((sitting, env.event.proposal))
    return out


def numbering(visible: Sequence[Envelope], viewer: str | None) -> Callable[[int], int]:
    """How ``viewer`` numbers the entries it may read (``visible``, in order): the GM by
    the log's own sequence numbers; everyone else 1, 2, 3, ... over those entries only,
    so that no gap tells of an entry they may not read. A point between entries (an
    undo's target) takes the number of the last entry they may read at or before it.

    >>> from kingmaker.log.envelope import Envelope
    >>> number = numbering([Envelope(seq=s, round=1, turn="red", actor="gm", rule=None, event=None,
    ...     recorded_at="", command="") for s in (2, 5, 9)], "red")
    >>> [number(2), number(5), number(7), number(9)]
    [1, 2, 2, 3]
    """
    if viewer == GM:
        return _same
    seqs = [e.seq for e in visible]
    return lambda seq: bisect.bisect_right(seqs, seq)


def _same(seq: int) -> int:
    return seq
