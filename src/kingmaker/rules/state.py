"""The game state: immutable, changed only by ``apply(state, event)``.

Derived facts (who is allied with whom, who stands where) are computed from the
stored fields by small named functions and cached on the state object; they are never
stored twice and never serialised.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from operator import itemgetter
from typing import Any

from .board import Board
from .cards import Catalog
from .frozen import ADDED_LATER, FrozenDict

#: The spellings an on/off option of FULL_GAME §1 takes as on (``GameState.option_on``).
ON_WORDS = ("on", "true", "yes", "1")

MOVEMENT = "movement"
COMBAT = "combat"

#: The phases of a faction's turn, in order (FULL_GAME §2, PHASE.*). A state whose
#: ``phase`` is "" plays without them (format-1 vectors and older games, F26).
PHASES = ("event", "movement", "combat", "parliament", "coronation", "crown")


@dataclass(frozen=True, slots=True)
class Noble:
    """A noble in play. ``place`` with ``inside`` True: inside the location there;
    ``inside`` False: in the open at that place; ``aboard``: a ship's passenger."""

    id: str
    faction: str | None
    troops: int
    awards: tuple[str, ...] = ()
    place: str | None = None
    inside: bool = False
    aboard: str | None = None
    captive_of: str | None = None  # held by this faction after a battle or siege


@dataclass(frozen=True, slots=True)
class Ship:
    """A ship: in a port (``in_port``) or at a sea zone; ``forced`` when a storm drove it in."""

    id: str
    faction: str | None
    capacity: int
    place: str
    in_port: bool = False
    forced: bool = False
    passengers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Heir:
    """A royal heir, escorted by a noble (``with_noble``) or left at a place."""

    id: str
    house: str
    order: int
    crowned: bool = False
    with_noble: str | None = None
    place: str | None = None
    inside: bool = True


@dataclass(frozen=True, slots=True)
class Army:
    """An army (nobles) or fleet (ships) and its senior officer (ALLY.6, ALLY.7)."""

    id: str
    units: tuple[str, ...]
    fleet: bool = False
    senior: str | None = None
    senior_rule: str | None = None
    explanation: str = ""


@dataclass(frozen=True, slots=True)
class Alliance:
    id: str
    members: tuple[str, ...]
    public: bool = False
    formed_seq: int = 0


@dataclass(frozen=True, slots=True)
class Declaration:
    """An alliance declared and awaiting confirmations (ALLY.2, ruling R6)."""

    id: str
    by: str
    invited: tuple[str, ...]
    confirmed: tuple[str, ...] = ()
    declined: tuple[str, ...] = ()

    @property
    def awaiting(self) -> tuple[str, ...]:
        return tuple(f for f in self.invited if f not in self.confirmed and f not in self.declined)


@dataclass(frozen=True, slots=True)
class Request:
    """An allied order (ALLY.4) or army formation (ALLY.6) awaiting confirmations."""

    id: str
    rule: str  # ALLY.4 or ALLY.6
    by: str
    command: Any  # the command to decide again when the last answer arrives
    awaiting: tuple[str, ...]
    turn_of: str
    round: int


@dataclass(frozen=True, slots=True)
class Permission:
    """Ruling R5: ``by`` (controlling ``place``) lets ``to`` use these aspects of it."""

    by: str
    to: str
    place: str
    aspects: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CoolingOff:
    """ALLY.12: ``faction`` left; it and ``former_allies`` may not fight until
    ``faction``'s turn in ``until_round`` begins."""

    faction: str
    former_allies: tuple[str, ...]
    until_round: int
    seq: int = 0
    public: bool = False  # the alliance it came from was public


@dataclass(frozen=True, slots=True)
class OrderRecord:
    """An order given this round (ALLY.4, ALLY.5): to ``unit``, in ``turn_of``'s turn, by ``by``."""

    unit: str
    kind: str  # MOVEMENT | COMBAT
    turn_of: str
    by: str


@dataclass(frozen=True, slots=True)
class Defence:
    """ALLY.12 exception: ``unit`` fights on ``with_``'s side until the round ends."""

    unit: str
    with_: str


@dataclass(frozen=True, slots=True)
class Combat:
    """A siege or attack declared this round, for the GM to resolve."""

    kind: str  # "siege" | "attack"
    id: str
    by: str
    attackers: tuple[str, ...]
    place: str
    target: str | None = None
    defenders: tuple[str, ...] = ()
    round: int = 1


@dataclass(frozen=True, slots=True)
class Siege:
    """A siege in progress (SIEGE.*): ``by`` is the besieging commander's faction,
    ``besiegers`` the nobles in the open laying it; begun in ``round``, in ``turn``'s
    turn; ``last_draw_round``: the round of its last draw (a continuing siege's draw is
    its besiegers' combat order for the round, F10)."""

    place: str
    by: str
    besiegers: tuple[str, ...]
    round: int = 1
    turn: str = ""
    last_draw_round: int = 0


@dataclass(frozen=True, slots=True)
class Captivity:
    """Where and in which turn a captive (a noble with ``captive_of``) was taken
    (CAPTURE.noble): freed, he stands in the open there (RANSOM.place)."""

    place: str
    round: int
    turn: str


@dataclass(frozen=True, slots=True)
class Proposal:
    """A proposal before Parliament (PARL.business): the award of the Chancery card
    ``award`` to the noble ``to``, or a ``motion`` (``sole_king`` naming ``heir``, or
    ``victory``). ``voters``: the factions with votes when it was made, in turn order;
    ``votes``: each one's (Lords, Commons) stance so far, ``for``, ``against`` or
    ``abstain``, secret until every voter has voted (PARL.vote); ``outcome``: "" while
    the vote is open, then ``passed`` or ``failed``, with ``tally`` (Lords for, Lords
    against, Commons for, Commons against)."""

    id: str
    award: str = ""
    to: str = ""
    motion: str = ""
    heir: str = ""
    voters: tuple[str, ...] = ()
    votes: FrozenDict[str, tuple[str, str]] = field(default_factory=FrozenDict)
    outcome: str = ""
    tally: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def awaiting(self) -> tuple[str, ...]:
        """The voters who have not voted yet (none once it is decided)."""
        return () if self.outcome else tuple(f for f in self.voters if f not in self.votes)

    @property
    def matter(self) -> tuple[str, str, str]:
        """What it proposes, whatever its id: a failed matter may not come again in the
        same Parliament (FULL_GAME 3.13.9)."""
        return (self.motion, self.award or self.heir, self.to)


@dataclass(frozen=True, slots=True)
class Parliament:
    """A Parliament sitting (PARL.*): summoned by ``summoner`` under ``rule`` (a
    PARL.summon.* id) to ``seat``, presided over by ``presides``; ``attending``: the
    nobles each faction declared (PARL.attend; a faction that declared none has an empty
    entry); ``proposals`` in the order made, the last one open while its vote runs."""

    id: str
    seat: str
    summoner: str
    presides: str
    rule: str
    attending: FrozenDict[str, tuple[str, ...]] = field(default_factory=FrozenDict)
    proposals: tuple[Proposal, ...] = ()

    @property
    def open(self) -> Proposal | None:
        """The proposal being voted on, if any (one at a time: PARL.business)."""
        last = self.proposals[-1] if self.proposals else None
        return last if last is not None and not last.outcome else None

    @property
    def failed(self) -> tuple[Proposal, ...]:
        return tuple(p for p in self.proposals if p.outcome == "failed")

    def attends(self, noble: str) -> bool:
        return any(noble in nobles for nobles in self.attending.values())


@dataclass(frozen=True, slots=True)
class Summoned:
    """The last Parliament summoned: its ``seat`` and ``summoner``, and the turn it was
    summoned in (``round``, ``turn_index``). Its King's Peace holds at the seat until the
    summoner's next turn begins, at (``until_round``, ``until_index``) (PARL.peace, F19);
    the record stays after that, for the once-a-round limit (PARL.summon.king)."""

    seat: str
    summoner: str
    round: int
    turn_index: int
    until_round: int
    until_index: int


@dataclass(frozen=True, slots=True)
class StormRequest:
    """A storm waiting for ports (EVENT.storm): each ship in ``ships`` is forced into one
    of ``ports[ship]`` (sorted), chosen by its faction (``chosen``) or, at the deadline,
    at random."""

    id: str
    ships: tuple[str, ...]
    ports: FrozenDict[str, tuple[str, ...]]
    chosen: FrozenDict[str, str] = field(default_factory=FrozenDict)

    @property
    def waiting(self) -> tuple[str, ...]:
        """The ships still without a port."""
        return tuple(s for s in self.ships if s not in self.chosen)


@dataclass(frozen=True, slots=True)
class Proclamation:
    """A King made sole King by a passed ``sole_king`` motion while two Kings reign
    (PARL.two_kings): ``king``, kept by ``faction`` when it passed. It lasts until he
    dies or is captured (F21): ``kings.with_proclamation_end`` ends it."""

    king: str
    faction: str


@dataclass(frozen=True, slots=True)
class KingHeld:
    """VICTORY.hold (option ``victory_hold_turns``): ``faction`` has kept ``king``, the
    sole King (not Henry VI), at the end of ``turns`` turns in a row."""

    king: str
    faction: str
    turns: int


@dataclass(frozen=True, slots=True)
class RandomSource:
    """The game's recorded random source: a seed plus a counter (and, for test
    vectors, values injected by the GM to be used first)."""

    seed: str
    counter: int = 0
    injected: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameState:
    board: Board
    catalog: Catalog
    turn_order: tuple[str, ...]
    turn_index: int = 0
    round: int = 1
    control: FrozenDict[str, str] = field(default_factory=FrozenDict)
    nobles: FrozenDict[str, Noble] = field(default_factory=FrozenDict)
    ships: FrozenDict[str, Ship] = field(default_factory=FrozenDict)
    heirs: FrozenDict[str, Heir] = field(default_factory=FrozenDict)
    armies: FrozenDict[str, Army] = field(default_factory=FrozenDict)
    alliances: FrozenDict[str, Alliance] = field(default_factory=FrozenDict)
    declarations: FrozenDict[str, Declaration] = field(default_factory=FrozenDict)
    requests: FrozenDict[str, Request] = field(default_factory=FrozenDict)
    closed: FrozenDict[str, str] = field(default_factory=FrozenDict)  # ended request id -> rule
    permissions: tuple[Permission, ...] = ()
    cooling_off: tuple[CoolingOff, ...] = ()
    orders: tuple[OrderRecord, ...] = ()
    defences: tuple[Defence, ...] = ()
    combats: tuple[Combat, ...] = ()
    chancery: tuple[str, ...] = ()  # crown items held by no one
    rng: RandomSource = field(default_factory=lambda: RandomSource(seed=""))
    seed_revealed: bool = False
    seq: int = 0  # events applied so far
    # -- the full game (issues 13-14; docs/full-game.md). Empty: left out of records
    # and hashes, so games stored before keep theirs.
    phase: str = field(default="", metadata=ADDED_LATER)  # "" or one of PHASES
    options: FrozenDict[str, str] = field(default_factory=FrozenDict, metadata=ADDED_LATER)
    event_deck: tuple[str, ...] = field(default=(), metadata=ADDED_LATER)  # top first
    event_discard: tuple[str, ...] = field(default=(), metadata=ADDED_LATER)
    crown_deck: tuple[str, ...] = field(default=(), metadata=ADDED_LATER)  # top first
    crown_discard: tuple[str, ...] = field(default=(), metadata=ADDED_LATER)
    hands: FrozenDict[str, tuple[str, ...]] = field(default_factory=FrozenDict, metadata=ADDED_LATER)
    dead: tuple[str, ...] = field(default=(), metadata=ADDED_LATER)  # nobles who died, in order
    sieges: FrozenDict[str, Siege] = field(default_factory=FrozenDict, metadata=ADDED_LATER)
    captivity: FrozenDict[str, Captivity] = field(default_factory=FrozenDict, metadata=ADDED_LATER)
    storms: FrozenDict[str, StormRequest] = field(default_factory=FrozenDict, metadata=ADDED_LATER)
    conquests: FrozenDict[str, str] = field(default_factory=FrozenDict, metadata=ADDED_LATER)
    event_flags: tuple[str, ...] = field(default=(), metadata=ADDED_LATER)  # this turn's
    # -- the end of the game (issue 14): Crown cards, coronation and victory
    winner: str = field(default="", metadata=ADDED_LATER)  # the faction that won (VICTORY.*)
    game_over: str = field(default="", metadata=ADDED_LATER)  # the rule that ended the game
    proclaimed: Proclamation | None = field(default=None, metadata=ADDED_LATER)  # PARL.two_kings
    king_held: KingHeld | None = field(default=None, metadata=ADDED_LATER)  # VICTORY.hold
    # EXEC.two_houses (option ``two_houses_limit``): per faction, its own turns in a row
    # that ended with it controlling heirs of both houses
    two_houses: FrozenDict[str, int] = field(default_factory=FrozenDict, metadata=ADDED_LATER)

    # -- Parliament (issue 14; rules/parliament.py): the sitting, and the last summons
    parliament: Parliament | None = field(default=None, metadata=ADDED_LATER)  # while it sits
    summoned: Summoned | None = field(default=None, metadata=ADDED_LATER)  # PARL.peace, F19

    # -- turn ------------------------------------------------------------------
    @property
    def phased(self) -> bool:
        """Whether this game plays with the phase machine (FULL_GAME §2; not F26's format 1)."""
        return bool(self.phase)

    def option(self, name: str, default: str = "") -> str:
        """A game option of FULL_GAME §1 (``deaths_per_side``, ``reshuffle``, ...)."""
        return self.options.get(name, default)

    def option_on(self, name: str) -> bool:
        """Whether an on/off option of FULL_GAME §1 (``heir_survival``, ``two_houses_limit``)
        is on: ``true``, ``on``, ``yes`` or ``1``; absent or anything else is off."""
        return self.option(name).strip().lower() in ON_WORDS

    @property
    def turn(self) -> str:
        """The faction whose turn it is."""
        return self.turn_order[self.turn_index]

    def next_turn_index(self) -> tuple[int, int]:
        """The round and the turn index of the turn after this one (``TURN.end``): the
        next faction in turn order, or the first faction of the next round."""
        nxt = self.turn_index + 1
        return (self.round, nxt) if nxt < len(self.turn_order) else (self.round + 1, 0)

    def next_turn(self) -> tuple[int, str]:
        """The round and the faction of the turn after this one (``TURN.end``)."""
        rnd, i = self.next_turn_index()
        return rnd, self.turn_order[i]

    def evolve(self, **changes: Any) -> GameState:
        """A copy with ``changes`` (for ``apply``, and ``views.as_seen_by``'s secrets taken
        out): ``dataclasses.replace`` without its cost (``apply`` makes one per event), the
        derived indexes left behind."""
        if not _STATE_FIELDS.issuperset(changes):
            unknown = changes.keys() - _STATE_FIELDS
            raise TypeError(f"GameState has no field {', '.join(sorted(unknown))}")
        attrs = self.__dict__.copy()  # the fields, and the derived indexes cached so far
        if len(attrs) != _FIELD_COUNT:
            for derived in _DERIVED:
                attrs.pop(derived, None)
            if len(attrs) != _FIELD_COUNT:  # something else kept on it: the fields alone
                attrs = dict(zip(_FIELD_ORDER, _read_fields(self.__dict__), strict=True))
        attrs.update(changes)
        new = object.__new__(GameState)
        object.__setattr__(new, "__dict__", attrs)
        return new

    # -- derived indexes (cached, never serialised) ------------------------------
    @cached_property
    def allies(self) -> FrozenDict[str, frozenset[str]]:
        """For each faction, the factions it is allied with (not itself)."""
        out: dict[str, set[str]] = {f: set() for f in self.turn_order}
        for a in self.alliances.values():
            for m in a.members:
                out.setdefault(m, set()).update(x for x in a.members if x != m)
        return FrozenDict({k: frozenset(v) for k, v in out.items()})

    @cached_property
    def inside_by_place(self) -> FrozenDict[str, tuple[str, ...]]:
        """Nobles inside each location, by place id."""
        out: dict[str, list[str]] = {}
        for n in self.nobles.values():
            if n.inside and n.place is not None:
                out.setdefault(n.place, []).append(n.id)
        return FrozenDict({k: tuple(sorted(v)) for k, v in out.items()})

    @cached_property
    def army_of(self) -> FrozenDict[str, str]:
        """The army or fleet each unit belongs to."""
        return FrozenDict({u: a.id for a in self.armies.values() for u in a.units})

    @cached_property
    def permitted(self) -> frozenset[tuple[str, str, str]]:
        """Each (place, faction, aspect) a permission lets the faction use, granted by the
        place's current controller (ruling R5)."""
        control = self.control
        return frozenset(
            (p.place, p.to, a) for p in self.permissions if control.get(p.place) == p.by for a in p.aspects
        )

    @cached_property
    def judgments(self) -> dict[tuple[str, str | None, str, bool], Any]:
        """Memo of place judgments (``status.judge``) for this immutable state."""
        return {}

    @cached_property
    def place_verdicts(self) -> dict[Any, Any]:
        """Memo of ``queries.legal_destinations`` for this immutable state: for each set of
        factions moving together, what they may pass and do at each place and their
        routes from each start, shared by every unit of theirs."""
        return {}

    @cached_property
    def seen_by(self) -> dict[str, Any]:
        """Memo of this state as each viewer may know it (``views.as_seen_by``), so the
        text-order reader's name index, kept per state, is built once per viewer."""
        return {}

    @cached_property
    def troops_inside(self) -> dict[str, int]:
        """Memo of the troops inside each location (``potential.held_inside``)."""
        return {}

    def friends(self, a: str | None, b: str | None) -> bool:
        """The same faction, or allied factions."""
        if a is None or b is None:
            return False
        return a == b or b in self.allies.get(a, frozenset())

    def allied(self, a: str, b: str) -> bool:
        return a != b and b in self.allies.get(a, frozenset())


#: The fields of a state (``evolve`` copies these, not the cached derived indexes).
_STATE_FIELDS: frozenset[str] = frozenset(f.name for f in fields(GameState))
_FIELD_ORDER: tuple[str, ...] = tuple(_STATE_FIELDS)
_FIELD_COUNT = len(_FIELD_ORDER)
_read_fields = itemgetter(*_FIELD_ORDER)
#: The derived indexes (``cached_property``): kept in a state's ``__dict__`` once read,
#: never copied by ``evolve``.
_DERIVED: tuple[str, ...] = tuple(n for n, v in vars(GameState).items() if isinstance(v, cached_property))
