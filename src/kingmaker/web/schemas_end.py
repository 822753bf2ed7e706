"""The JSON API's models for the end of the game (issue 14): the caller's hand with what
may be done with each card, the coronations of its heirs, Parliament as the caller sees
it (attendance, blocs, proposals, the tally of each decided one), what each faction still
has to do, and the steps themselves (assign, enter play, play a held card, crown, summon,
attend, propose, vote, close)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kingmaker.rules import limits as lim

from .schemas import ChosenId, Id, Input
from .schemas_full import CardOut

Stance = Literal["for", "against", "abstain"]


# -- what may be done ------------------------------------------------------------------------
class ChoiceOut(BaseModel):
    """One target of a step, with the rules' verdict on it now."""

    target: str = Field(description="what the step names: a noble, a castle, a unit, a seat, an heir")
    target_name: str
    allowed: bool
    result: str = Field(description="accepted, pending or refused: what the rules would answer now")
    rule: str | None = None
    explanation: str
    advances_to: str | None = Field(
        default=None, description="the phase the step would first move the turn on to (implicit advance)"
    )
    place: str | None = Field(default=None, description="the place the decision names")
    place_name: str | None = None


HandStep = Literal["assign", "enter_play", "play", ""]


class CardChoicesOut(BaseModel):
    """A card of the caller's hand and the targets the rules allow for it now."""

    card: CardOut
    step: HandStep = Field(
        description="assign (to a noble), enter_play (at a castle), play (a held event card, for a unit), "
        "or nothing to do with it by hand"
    )
    targets: list[ChoiceOut] = Field(description="the allowed targets only")
    why_not: str = Field(
        default="", description="when no target is allowed: why (the first refusal, with its rule)"
    )


class DutyOut(BaseModel):
    who: str = Field(description="a faction, or gm")
    kind: str = Field(
        description="choose_port, answer, draw_event, orders, resolve, siege_draw, end_phase, summon, "
        "attend, propose, vote, close, crown, draw_crown, end_turn, captive"
    )
    text: str
    rule: str
    must: bool = Field(description="the game waits for it (else the faction only may)")
    ref: str = Field(
        default="", description="what it concerns: a request, storm, proposal, heir, attack or place"
    )


class DutiesOut(BaseModel):
    """The phase, and what each faction (and the GM) still has to do in it: the GM sees
    every duty; a player, its own."""

    phase: str
    round: int
    turn: str
    game_over: str = Field(default="", description="the rule that ended the game, once it has ended")
    winner: str = ""
    duties: list[DutyOut]


# -- Parliament -------------------------------------------------------------------------------
class TallyOut(BaseModel):
    lords_for: int
    lords_against: int
    commons_for: int
    commons_against: int


class VoteOut(BaseModel):
    faction: str
    lords: str = Field(description="for, against or abstain; empty while the vote is open and secret")
    commons: str


class ProposalOut(BaseModel):
    id: str
    matter: str = Field(description="what it proposes, in words")
    award: str | None = None
    to: str | None = None
    motion: str | None = Field(default=None, description="sole_king or victory")
    heir: str | None = None
    voters: list[str]
    voted: list[str] = Field(description="who has voted so far (public)")
    awaiting: list[str]
    votes: list[VoteOut] = Field(
        description="each vote: the caller's own at once; every faction's once the proposal is decided"
    )
    outcome: str = Field(description="'' while the vote is open, then passed or failed")
    tally: TallyOut | None = Field(default=None, description="public once the proposal is decided")


class BlocOut(BaseModel):
    faction: str
    lords: int
    commons: int


class AttendanceOut(BaseModel):
    faction: str
    declared: bool
    nobles: list[str]
    names: list[str]


class PeaceOut(BaseModel):
    """The last summons: the King's Peace holds at its seat until the summoner's next turn."""

    seat: str
    seat_name: str
    summoner: str
    round: int
    until_round: int
    until_turn: str


class ParliamentOut(BaseModel):
    """Parliament as the caller sees it: votes of an open proposal are secret (the
    caller's own excepted), the Chancery's cards are the presiding faction's and the GM's."""

    sitting: bool
    id: str | None = None
    seat: str | None = None
    seat_name: str | None = None
    summoner: str | None = None
    presides: str | None = None
    rule: str | None = None
    attendance: list[AttendanceOut] = Field(default_factory=list)
    to_declare: list[str] = Field(default_factory=list, description="who still declares, in order")
    blocs: list[BlocOut] = Field(default_factory=list, description="each faction's votes in each house")
    proposals: list[ProposalOut] = Field(default_factory=list)
    open: str | None = Field(default=None, description="the proposal being voted on")
    chancery_size: int = 0
    chancery: list[CardOut] | None = Field(
        default=None, description="the Chancery's cards: only for the presiding faction (and the GM)"
    )
    peace: PeaceOut | None = None


class AttendeeOut(BaseModel):
    noble: str
    name: str
    may: bool
    why: str = ""


class ParliamentChoicesOut(BaseModel):
    summon: list[ChoiceOut] = Field(description="the seats the caller may summon Parliament to now")
    attend: bool = Field(description="whether the caller declares its attendance now")
    attend_why: str = ""
    attendees: list[AttendeeOut]
    proposals: list[ChoiceOut] = Field(description="the proposals the presiding caller may make now")
    propose_why: str = ""
    vote: bool = Field(description="whether the caller votes on the open proposal now")
    close: bool = Field(description="whether the caller may close Parliament now")


class ChoicesOut(BaseModel):
    """What the caller may do now with its hand, its heirs and Parliament, each judged by
    the rules, and what it still has to do."""

    faction: str
    hand: list[CardChoicesOut]
    coronations: list[ChoiceOut] = Field(description="its heirs' coronations, allowed or not (with the rule)")
    parliament: ParliamentChoicesOut
    duties: list[DutyOut]


# -- the steps --------------------------------------------------------------------------------
_BY = "whose step (default: your faction; the GM must say)"


class AssignIn(Input):
    card: Id
    to: Id = Field(description="the noble")
    by: Id | None = Field(default=None, description=_BY)


class EnterPlayIn(Input):
    noble: Id = Field(description="the noble card in the hand")
    castle: Id
    by: Id | None = Field(default=None, description=_BY)


class PlayCardIn(Input):
    card: Id = Field(description="the held event card")
    unit: Id
    by: Id | None = Field(default=None, description=_BY)


class CrownIn(Input):
    heir: Id
    by: Id | None = Field(default=None, description=_BY)


class SummonIn(Input):
    seat: Id
    id: ChosenId | None = Field(
        default=None, description="the summons' id (default: parliament-<round>-<faction>)"
    )
    by: Id | None = Field(default=None, description=_BY)


class AttendIn(Input):
    nobles: list[Id] = Field(
        default_factory=list, max_length=lim.LIST_MAX, description="none: no noble attends"
    )
    by: Id | None = Field(default=None, description=_BY)


class ProposeIn(Input):
    award: Id | None = Field(default=None, description="a Chancery card (with to)")
    to: Id | None = Field(default=None, description="the attending noble who would hold it")
    motion: Literal["sole_king", "victory"] | None = None
    heir: Id | None = Field(default=None, description="the King a sole_king motion names")
    id: ChosenId | None = Field(default=None, description="the proposal's id (default: m<n>)")
    by: Id | None = Field(default=None, description=_BY)


class VoteIn(Input):
    proposal: Id
    stance: Stance | None = Field(default=None, description="the same stance in both houses")
    lords: Stance | None = Field(default=None, description="or one for each house")
    commons: Stance | None = None
    by: Id | None = Field(default=None, description=_BY)


class CloseIn(Input):
    by: Id | None = Field(
        default=None, description="the presiding faction (default: yours); the GM may close it"
    )
