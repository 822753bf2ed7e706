"""The steps of the game's end a faction may take now, each judged by ``decide``: the
cards of its hand with the nobles who may hold each (``hand_choices``: DEAL.assign,
DEAL.limits, SIEGE.sealed), where each noble card may enter play (DEAL.noble) and whom
each held event card may be played for (EVENT.held); the coronations of its heirs
(``coronations``: CROWN.*); and Parliament (``parliament_choices``: the seats it may
summon to, its attendance, the proposals the presiding faction may make, its vote on
the open proposal, closing). For the web pages, the API and bots.

Like ``candidates``, everything here is built on ``decide`` itself: a choice's verdict
*is* the verdict ``decide`` gives, so an interface that offers only the allowed choices
can never offer what the rules would refuse, nor hide what they would accept. Nothing
here is a rule of its own.

>>> from kingmaker.rules.choices import hand_choices, coronations, parliament_choices
"""

from __future__ import annotations

from dataclasses import dataclass

from . import commands as c
from . import events as ev
from .board import PlaceKind
from .cards import FreeMove, Writ
from .crown_cards import castles_of
from .decide import decide
from .decision import Result
from .kings import controller, crowned
from .parliament import SOLE_KING, VICTORY, attend_problem, undeclared
from .state import GameState
from .votes import FOR

ASSIGN, ENTER_PLAY, PLAY = "assign", "enter_play", "play"


@dataclass(frozen=True, slots=True)
class Choice:
    """One step a faction could take now, with ``decide``'s verdict on it.

    ``advances_to``: the phase an allowed step first moves the turn on to (the phase
    machine's implicit advance: a coronation in the movement phase passes the combat
    and Parliament phases), "" when it stays in the phase it is in; ``place``: the place
    the decision names (where a coronation would be, a summons' seat)."""

    command: c.Command
    result: Result
    rule: str | None
    explanation: str
    advances_to: str = ""
    place: str | None = None

    @property
    def allowed(self) -> bool:
        """Accepted now, or accepted and waiting for others (a proposal's voters)."""
        return self.result is not Result.REFUSED


def judge(state: GameState, command: c.Command) -> Choice:
    """``command`` with ``decide``'s verdict on it in ``state``."""
    d = decide(state, command)
    first = d.events[0] if d.events else None
    advance = first.phase if isinstance(first, ev.PhaseBegan) and not isinstance(command, c.EndPhase) else ""
    return Choice(command, d.result, d.rule, d.explanation, advance, d.place)


# -- the hand (DEAL.assign, DEAL.noble, EVENT.held) ---------------------------------------


@dataclass(frozen=True, slots=True)
class CardChoices:
    """A card of a faction's hand and what may be done with it now: ``step`` is
    ``assign`` (an award or a ship card, to one of its nobles), ``enter_play`` (a noble
    card, at one of his castles), ``play`` (a held event card, for one of its units) or
    "" (a card nothing is done with by hand); ``choices`` every target judged."""

    card: str
    kind: str  # award, ship, noble, event
    step: str
    choices: tuple[Choice, ...]

    @property
    def allowed(self) -> tuple[Choice, ...]:
        return tuple(ch for ch in self.choices if ch.allowed)

    @property
    def why_not(self) -> str:
        """When no target is allowed: the first refusal, one sentence with its rule."""
        if self.allowed:
            return ""
        return self.choices[0].explanation if self.choices else ""


def hand_choices(state: GameState, faction: str) -> tuple[CardChoices, ...]:
    """Every card of ``faction``'s hand, in the hand's order (a card held twice comes
    once), with each target judged: an award or a ship card assigned to each of its
    nobles in play, a noble card brought into play at each of his castles, a held event
    card (Free Move, Writ) played for each of its units."""
    out: list[CardChoices] = []
    seen: set[str] = set()
    cat = state.catalog
    mine = sorted(n.id for n in state.nobles.values() if n.faction == faction)
    for card in state.hands.get(faction, ()):
        if card in seen:
            continue
        seen.add(card)
        if card in cat.nobles:
            castles = [p for p in castles_of(state, card) if p in state.board.places]
            judged = tuple(judge(state, c.EnterPlay(faction, card, p)) for p in castles)
            out.append(CardChoices(card, "noble", ENTER_PLAY, judged))
        elif card in cat.events:
            event = cat.events[card].event
            if isinstance(event, (FreeMove, Writ)):
                units = _own_units(state, faction, ships=isinstance(event, FreeMove))
                judged = tuple(judge(state, c.PlayCard(faction, card, u)) for u in units)
                out.append(CardChoices(card, "event", PLAY, judged))
            else:
                out.append(CardChoices(card, "event", "", ()))
        else:
            kind = "ship" if card in cat.ships else "award"
            judged = tuple(judge(state, c.Assign(faction, card, n)) for n in mine)
            out.append(CardChoices(card, kind, ASSIGN, judged))
    return tuple(out)


def _own_units(state: GameState, faction: str, ships: bool) -> list[str]:
    """``faction``'s nobles (and, with ``ships``, its ships and the armies and fleets
    its nobles are in), sorted by id."""
    units = {n.id for n in state.nobles.values() if n.faction == faction}
    if ships:
        units |= {s.id for s in state.ships.values() if s.faction == faction}
        units |= {state.army_of[n] for n in list(units) if n in state.army_of}
    return sorted(units)


# -- coronation (CROWN.*) ---------------------------------------------------------------


def coronations(state: GameState, faction: str) -> tuple[Choice, ...]:
    """The coronation of each living heir ``faction`` controls (his escort is its
    noble), judged: allowed where and when the rules crown him (the place is the
    decision's); refused with the first failing rule of 3.8."""
    heirs = sorted(
        (h for h in state.heirs.values() if not h.crowned and controller(state, h.id) == faction),
        key=lambda h: (h.house, h.order, h.id),
    )
    return tuple(judge(state, c.Crown(faction, h.id)) for h in heirs)


# -- Parliament (PARL.*) -----------------------------------------------------------------


def summons_id(state: GameState, by: str) -> str:
    """The id of a summons that names none: ``parliament-<round>-<faction>`` (one summons
    a turn)."""
    return f"parliament-{state.round}-{by}"


def proposal_id(state: GameState, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """The id of a proposal that names none: ``m<n>``, the first number its sitting (and
    ``taken``) has not used."""
    used = {p.id for p in state.parliament.proposals} if state.parliament is not None else set()
    n = len(used) + 1
    while f"m{n}" in used or f"m{n}" in taken:
        n += 1
    return f"m{n}"


@dataclass(frozen=True, slots=True)
class ParliamentChoices:
    """What ``faction`` may do about Parliament now.

    - ``summon``: a summons to each city or town it controls, judged (none sits);
    - ``attend``: its declaration of attendance (with no noble), judged: allowed when it
      is its turn to declare (None: no Parliament sits, or it has declared);
    - ``attendees``: each of its nobles, and why he may not attend ("" when he may);
    - ``proposals``: for the presiding faction once attendance is complete and no vote
      is open: each Chancery card for each attending noble, each sole King motion, the
      victory motion, judged;
    - ``vote``: its vote on the open proposal, judged (None: no proposal is open, or it
      is no voter of it);
    - ``close``: closing Parliament, judged (None: no Parliament sits)."""

    summon: tuple[Choice, ...] = ()
    attend: Choice | None = None
    attendees: tuple[tuple[str, str], ...] = ()
    proposals: tuple[Choice, ...] = ()
    vote: Choice | None = None
    close: Choice | None = None


def parliament_choices(state: GameState, faction: str) -> ParliamentChoices:
    """See ``ParliamentChoices``."""
    p = state.parliament
    if not state.phased or faction not in state.turn_order:
        return ParliamentChoices()
    if p is None:
        seats = sorted(
            pid
            for pid, f in state.control.items()
            if f == faction and state.board.places[pid].kind in (PlaceKind.CITY, PlaceKind.TOWN)
        )
        ident = summons_id(state, faction)
        return ParliamentChoices(
            summon=tuple(judge(state, c.SummonParliament(faction, ident, s)) for s in seats)
        )
    attend = None if faction in p.attending else judge(state, c.Attend(faction, ()))
    attendees = tuple(
        (n.id, attend_problem(state, n.id) or "")
        for n in sorted(state.nobles.values(), key=lambda n: n.id)
        if n.faction == faction
    )
    proposals: tuple[Choice, ...] = ()
    if faction == p.presides and p.open is None:
        commands = _proposals(state, faction)
        if undeclared(state, p):  # attendance is not complete: one refusal says so for all
            commands = commands[-1:]
        proposals = tuple(judge(state, cmd) for cmd in commands)
    vote = None
    open_ = p.open
    if open_ is not None and faction in open_.voters:
        vote = judge(state, c.Vote(faction, open_.id, FOR, FOR))
    return ParliamentChoices(
        attend=attend,
        attendees=attendees,
        proposals=proposals,
        vote=vote,
        close=judge(state, c.CloseParliament(faction)),
    )


def _proposals(state: GameState, faction: str) -> list[c.Command]:
    """Every proposal the presiding faction could make: each Chancery card for each
    attending noble, a sole King motion for each crowned King, the victory motion."""
    p = state.parliament
    assert p is not None
    ident = proposal_id(state)
    attending = sorted({n for nobles in p.attending.values() for n in nobles if n in state.nobles})
    out: list[c.Command] = [
        c.Propose(faction, ident, award=card, to=n) for card in sorted(set(state.chancery)) for n in attending
    ]
    out += [c.Propose(faction, ident, motion=SOLE_KING, heir=k) for k in crowned(state)]
    out.append(c.Propose(faction, ident, motion=VICTORY))
    return out
