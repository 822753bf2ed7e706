"""Events of the end of the game (issue 14): Crown cards, coronation, victory and
Parliament. ``events`` re-exports them, so every module names them ``ev.X`` as the rest;
their ``apply`` rules are in ``apply_crown`` and ``apply_parliament``."""

from __future__ import annotations

from dataclasses import dataclass

from .events import Event

# -- Crown cards, coronation and victory (issue 14; apply in apply_crown.py) ---------------


@dataclass(frozen=True, slots=True)
class NobleEntered(Event):
    """A noble card from ``faction``'s hand enters play at ``place``, inside or in the
    open (DEAL.noble); an heir who is that noble himself (Beaufort) comes into play with
    him."""

    kind = "noble_entered"
    noble: str
    faction: str
    place: str
    inside: bool


@dataclass(frozen=True, slots=True)
class ShipEntered(Event):
    """A ship card from ``faction``'s hand puts the ship in play, in port at ``port``
    (its home port: DEAL.assign)."""

    kind = "ship_entered"
    ship: str
    faction: str
    port: str


@dataclass(frozen=True, slots=True)
class HeirCrowned(Event):
    """``heir`` is crowned King (CROWN.*)."""

    kind = "heir_crowned"
    heir: str


@dataclass(frozen=True, slots=True)
class SoleKingProclaimed(Event):
    """A passed ``sole_king`` motion makes ``king``, kept by ``faction``, the sole King
    while two Kings reign (PARL.two_kings)."""

    kind = "sole_king_proclaimed"
    king: str
    faction: str


@dataclass(frozen=True, slots=True)
class ProclamationEnded(Event):
    """The King a motion made sole King died or was captured (PARL.two_kings, F21)."""

    kind = "proclamation_ended"
    king: str
    reason: str  # died | captured


@dataclass(frozen=True, slots=True)
class KingHeldCounted(Event):
    """VICTORY.hold: at a turn's end ``faction`` has kept ``king``, the sole King, for
    ``turns`` turns in a row (0: no one holds such a King now)."""

    kind = "king_held_counted"
    king: str
    faction: str
    turns: int


@dataclass(frozen=True, slots=True)
class HousesHeldCounted(Event):
    """EXEC.two_houses (option ``two_houses_limit``): at the end of its own turn
    ``faction`` has controlled heirs of both houses for ``turns`` of its turns in a row
    (0: the count starts again)."""

    kind = "houses_held_counted"
    faction: str
    turns: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over (VICTORY.*): ``winner`` won by ``rule`` (None: no winner,
    VICTORY.none). Every command after it is refused (VICTORY.timing)."""

    kind = "game_ended"
    rule: str
    winner: str | None = None


# -- Parliament (issue 14; rules/parliament.py, apply in apply_parliament.py) --------------


@dataclass(frozen=True, slots=True)
class ParliamentSummoned(Event):
    """``summoner`` summons Parliament ``parliament`` to ``seat`` under ``rule`` (a
    PARL.summon.* id); ``presides`` presides (PARL.presides). The King's Peace begins at
    the seat (PARL.peace)."""

    kind = "parliament_summoned"
    parliament: str
    seat: str
    summoner: str
    presides: str
    rule: str


@dataclass(frozen=True, slots=True)
class AttendanceDeclared(Event):
    """``faction`` declares the nobles it sends to the sitting Parliament (PARL.attend)."""

    kind = "attendance_declared"
    faction: str
    nobles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ProposalMade(Event):
    """The presiding faction puts a proposal to Parliament (PARL.business): a Chancery
    card ``award`` for the noble ``to``, or a ``motion`` (``sole_king`` with ``heir``, or
    ``victory``); ``voters`` are the factions with votes, who must each vote."""

    kind = "proposal_made"
    proposal: str
    award: str = ""
    to: str = ""
    motion: str = ""
    heir: str = ""
    voters: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class VoteCast(Event):
    """``faction`` votes its bloc on ``proposal``: ``lords`` and ``commons`` are each
    ``for``, ``against`` or ``abstain`` (PARL.vote). Secret until the proposal is decided."""

    kind = "vote_cast"
    proposal: str
    faction: str
    lords: str
    commons: str


@dataclass(frozen=True, slots=True)
class ProposalDecided(Event):
    """Every voter has voted: the tally by house, public, and whether it ``passed``
    (PARL.vote, F20; VICTORY.parliament, F21). What it carries out follows as its own
    events (the card moved, a King proclaimed, the game ended)."""

    kind = "proposal_decided"
    proposal: str
    lords_for: int
    lords_against: int
    commons_for: int
    commons_against: int
    passed: bool


@dataclass(frozen=True, slots=True)
class ParliamentClosed(Event):
    """The sitting ends (PARL.close): closed by the presiding faction (``closed``), by
    the GM (``gm``: an open vote lapses), or with the turn (``turn_end``)."""

    kind = "parliament_closed"
    reason: str
