"""Commands: what a faction (or the GM) asks for. ``decide`` answers each one.

``by`` is a faction id, or ``GM`` for the game master. ``id`` on an order names the
request it becomes if it must wait for other factions' answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .frozen import ADDED_LATER
from .records import Record

GM: Final = "gm"


class Command(Record):
    """Base of every command."""

    by: str


@dataclass(frozen=True, slots=True)
class MoveRoad(Command):
    kind = "move_road"
    by: str
    unit: str
    path: tuple[str, ...]
    enter: bool = False
    id: str | None = None


@dataclass(frozen=True, slots=True)
class MoveRoute(Command):
    """A route of roads and cross-country links in one order (R11): ``path`` from where
    the unit stands, each place joined to the next by a road or a cross-country link;
    decided as its steps (``rules.routes``)."""

    kind = "move_route"
    by: str
    unit: str
    path: tuple[str, ...]
    enter: bool = False
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Move(Command):
    """A cross-country move of one link."""

    kind = "move"
    by: str
    unit: str
    to: str
    enter: bool = False
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Enter(Command):
    kind = "enter"
    by: str
    unit: str
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Leave(Command):
    kind = "leave"
    by: str
    unit: str
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Embark(Command):
    kind = "embark"
    by: str
    ship: str
    nobles: tuple[str, ...]
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Disembark(Command):
    kind = "disembark"
    by: str
    ship: str
    nobles: tuple[str, ...]
    port: str
    enter: bool = False
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Sail(Command):
    """Sail to ``to`` (a sea zone or a port), through the sea zones ``via`` first."""

    kind = "sail"
    by: str
    ship: str
    to: str
    via: tuple[str, ...] = ()
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Siege(Command):
    kind = "siege"
    by: str
    unit: str
    place: str
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Attack(Command):
    """``sally``: nobles inside a besieged place at the battle who join the attack on
    its besiegers (SIEGE.sally, FULL_GAME 3.13.6); left out of the record when empty."""

    kind = "attack"
    by: str
    unit: str
    target: str
    id: str | None = None
    sally: tuple[str, ...] = field(default=(), metadata=ADDED_LATER)


@dataclass(frozen=True, slots=True)
class Defend(Command):
    kind = "defend"
    by: str
    unit: str
    with_: str


@dataclass(frozen=True, slots=True)
class FormArmy(Command):
    kind = "form_army"
    by: str
    id: str
    units: tuple[str, ...]
    fleet: bool = False


@dataclass(frozen=True, slots=True)
class Confirm(Command):
    kind = "confirm"
    by: str
    id: str


@dataclass(frozen=True, slots=True)
class Reject(Command):
    kind = "reject"
    by: str
    id: str


@dataclass(frozen=True, slots=True)
class DeclareAlliance(Command):
    kind = "declare_alliance"
    by: str
    id: str
    with_: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AnswerAlliance(Command):
    kind = "answer_alliance"
    by: str
    alliance: str
    confirm: bool


@dataclass(frozen=True, slots=True)
class Deadline(Command):
    """The GM records that an alliance's confirmation deadline has passed."""

    kind = "deadline"
    by: str
    alliance: str


@dataclass(frozen=True, slots=True)
class LeaveAlliance(Command):
    kind = "leave_alliance"
    by: str
    alliance: str


@dataclass(frozen=True, slots=True)
class Grant(Command):
    kind = "grant"
    by: str
    to: str
    place: str
    aspects: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Revoke(Command):
    kind = "revoke"
    by: str
    to: str
    place: str
    aspects: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Storm(Command):
    kind = "storm"
    by: str
    ship: str
    into: str


@dataclass(frozen=True, slots=True)
class SetControl(Command):
    kind = "set_control"
    by: str
    place: str
    faction: str | None


@dataclass(frozen=True, slots=True)
class InjectRandom(Command):
    kind = "random"
    by: str
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    """The GM ends the turn. ``anyway``: although something is still open (a battle or
    a siege's draw not made, requests that would lapse...): the service refuses to end
    a turn with open business unless told so; the rules ignore it. Left out of the
    record when False."""

    kind = "end_turn"
    by: str
    anyway: bool = field(default=False, metadata=ADDED_LATER)


@dataclass(frozen=True, slots=True)
class RevealSeed(Command):
    kind = "reveal_seed"
    by: str


@dataclass(frozen=True, slots=True)
class Kill(Command):
    """The GM's ruling: a noble dies."""

    kind = "kill"
    by: str
    noble: str


@dataclass(frozen=True, slots=True)
class Capture(Command):
    """The GM's ruling: a noble is captured by ``faction``."""

    kind = "capture"
    by: str
    noble: str
    faction: str


@dataclass(frozen=True, slots=True)
class Release(Command):
    """The GM frees a captive noble (ransom paid) at ``place``."""

    kind = "release"
    by: str
    noble: str
    place: str
    inside: bool = False


@dataclass(frozen=True, slots=True)
class MoveHeir(Command):
    """The GM's ruling: an heir goes with ``with_noble``, or is left at ``place``."""

    kind = "move_heir"
    by: str
    heir: str
    with_noble: str | None = None
    place: str | None = None
    inside: bool = False


@dataclass(frozen=True, slots=True)
class ResolveCombat(Command):
    """The GM records that a declared siege or battle is settled (with its outcome)."""

    kind = "resolve_combat"
    by: str
    combat: str
    summary: str = ""


@dataclass(frozen=True, slots=True)
class Expire(Command):
    """A pending request's deadline passed: it lapses (R15)."""

    kind = "expire"
    by: str
    request: str


# -- the full game (issues 13-14; docs/full-game.md) -------------------------------------


@dataclass(frozen=True, slots=True)
class DrawEvent(Command):
    """The GM draws the turn's event card (EVENT.draw); ``id`` names the request a storm
    opens for port choices."""

    kind = "draw_event"
    by: str
    id: str | None = None


@dataclass(frozen=True, slots=True)
class ChoosePort(Command):
    """A ship's faction chooses the port a storm drives it into (EVENT.storm)."""

    kind = "choose_port"
    by: str
    ship: str
    port: str


@dataclass(frozen=True, slots=True)
class Battle(Command):
    """The GM resolves an accepted attack with one card (BATTLE.*)."""

    kind = "battle"
    by: str
    attack: str


@dataclass(frozen=True, slots=True)
class SiegeAssault(Command):
    """The GM draws for a siege in progress (SIEGE.resolve)."""

    kind = "siege_assault"
    by: str
    place: str


@dataclass(frozen=True, slots=True)
class CaptureHeir(Command):
    """A noble takes an unescorted heir at his place into his keeping (CAPTURE.heir)."""

    kind = "capture_heir"
    by: str
    unit: str
    heir: str


@dataclass(frozen=True, slots=True)
class Consideration(Record):
    """What one party gives in a ransom: cards from its hand, heirs it controls."""

    kind = "consideration"
    from_: str
    cards: tuple[str, ...] = ()
    heirs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ransom(Command):
    """Captor and captive's faction agree a ransom (RANSOM.offer): pending until the
    other party confirms; ``give`` may run both ways, or be empty (RANSOM.future: a
    promise may be noted in ``note``, not enforced)."""

    kind = "ransom"
    by: str
    id: str
    captive: str
    give: tuple[Consideration, ...] = ()
    note: str = ""


@dataclass(frozen=True, slots=True)
class ReleaseCaptive(Command):
    """The captor frees a captive for nothing (RANSOM.release)."""

    kind = "release_captive"
    by: str
    captive: str


@dataclass(frozen=True, slots=True)
class Execute(Command):
    """The captor executes a captive (EXEC.captive), or a faction an heir it controls
    (EXEC.heir): one of ``captive`` and ``heir``."""

    kind = "execute"
    by: str
    captive: str | None = None
    heir: str | None = None


@dataclass(frozen=True, slots=True)
class EndPhase(Command):
    """The GM moves the turn on to its next phase (PHASE.*)."""

    kind = "end_phase"
    by: str


@dataclass(frozen=True, slots=True)
class PlayCard(Command):
    """A faction plays a held event card from its hand (EVENT.held): a Free Move for
    ``unit``; a Writ naming ``unit`` in place of the noble a summons moved this turn."""

    kind = "play_card"
    by: str
    card: str
    unit: str


# -- Crown cards and coronation (issue 14; rules/crown_cards.py, rules/coronation.py) ------


@dataclass(frozen=True, slots=True)
class DrawCrown(Command):
    """The GM makes the turn's Crown draw: the top Crown card to the hand of the faction
    whose turn it is (DEAL.draw, DEAL.empty)."""

    kind = "draw_crown"
    by: str


@dataclass(frozen=True, slots=True)
class Assign(Command):
    """A faction assigns ``card`` from its hand to its noble ``to`` (DEAL.assign,
    DEAL.limits)."""

    kind = "assign"
    by: str
    card: str
    to: str


@dataclass(frozen=True, slots=True)
class EnterPlay(Command):
    """A faction brings the noble card ``noble`` from its hand into play at ``castle``,
    one of his castles (DEAL.noble)."""

    kind = "enter_play"
    by: str
    noble: str
    castle: str


@dataclass(frozen=True, slots=True)
class Crown(Command):
    """A faction crowns ``heir``, whom it controls (CROWN.*)."""

    kind = "crown"
    by: str
    heir: str


# -- Parliament (issue 14; rules/parliament.py) --------------------------------------------


@dataclass(frozen=True, slots=True)
class SummonParliament(Command):
    """A faction summons Parliament ``id`` to ``seat``, a city or town it controls
    (PARL.summon.*, PARL.seat)."""

    kind = "summon_parliament"
    by: str
    id: str
    seat: str


@dataclass(frozen=True, slots=True)
class Attend(Command):
    """A faction declares which of its nobles attend the sitting Parliament (none: an
    empty list) (PARL.attend)."""

    kind = "attend"
    by: str
    nobles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Propose(Command):
    """The presiding faction proposes ``id``: the Chancery card ``award`` for the
    attending noble ``to``, or the ``motion`` ``sole_king`` (with ``heir``) or ``victory``
    (PARL.business)."""

    kind = "propose"
    by: str
    id: str
    award: str | None = None
    to: str | None = None
    motion: str | None = None
    heir: str | None = None


@dataclass(frozen=True, slots=True)
class Vote(Command):
    """A faction votes its bloc on ``proposal`` in each house: ``for``, ``against`` or
    ``abstain`` (PARL.vote)."""

    kind = "vote"
    by: str
    proposal: str
    lords: str
    commons: str


@dataclass(frozen=True, slots=True)
class CloseParliament(Command):
    """The presiding faction (or the GM) closes the sitting Parliament (PARL.close)."""

    kind = "close_parliament"
    by: str


MOVEMENT_COMMANDS: Final = (MoveRoad, MoveRoute, Move, Enter, Leave, Embark, Disembark, Sail)
COMBAT_COMMANDS: Final = (Siege, Attack)
GM_COMMANDS: Final = (
    Deadline,
    Storm,
    SetControl,
    InjectRandom,
    EndTurn,
    RevealSeed,
    Kill,
    Capture,
    Release,
    MoveHeir,
    ResolveCombat,
    Expire,
    DrawEvent,
    Battle,
    SiegeAssault,
    EndPhase,
    DrawCrown,
)
