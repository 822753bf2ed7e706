"""What is still open in a game, for the GM: the one query behind ``kingmaker status``
(and ``--json``), the web GM console and the warning before a turn is ended by hand.

``open_business(state, deadlines, asks)`` lists, from the GM's whole state:

- battles declared and not resolved, and sieges (whether the rules would draw for each
  now: ``decide`` on the GM's own step, which changes nothing);
- what waits for a faction's answer, with its deadline: alliance declarations, allied
  orders, army consents, ransoms, storm port choices, permissions asked of it (from the
  log: a ``PermissionAsked`` not granted yet);
- Parliament: sitting (attendance, the open vote, the next business) or owed;
- captives executed when the turn ends unless ransomed or freed;
- every heir: where he is, crowned or not, in whose hands.

Each item says in one sentence what it is, naming its rule id, and whether ending the
turn now would settle or drop it (``holds_turn``): an unresolved battle, a siege that
may still be drawn this turn, a request that would lapse (R15), a storm's ports drawn at
random, a Parliament dissolved or owed. The service refuses to end a turn by hand while
such an item remains unless told to (``FinishTurn.anyway``, ``EndTurn.anyway``); the
clock's deadlines end turns regardless. Nothing here is a rule of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass

from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import PermissionAsked
from kingmaker.rules import commands as rc
from kingmaker.rules import events as ev
from kingmaker.rules import ids
from kingmaker.rules.captives import unransomed
from kingmaker.rules.decide import decide
from kingmaker.rules.parliament import obliged, undeclared
from kingmaker.rules.permissions import aspect_words
from kingmaker.rules.state import GameState, Heir
from kingmaker.rules.units import name, names

# kinds of open item
BATTLE, SIEGE, COMBAT = "battle", "siege", "combat"
DECLARATION, ALLIED_ORDER, ARMY, RANSOM, STORM, PERMISSION = (
    "declaration",
    "allied_order",
    "army",
    "ransom",
    "storm",
    "permission",
)
PARLIAMENT, CAPTIVE = "parliament", "captive"

_REQUEST_KINDS = {ids.ALLY_4: ALLIED_ORDER, ids.ALLY_6: ARMY, ids.RANSOM_OFFER: RANSOM}


@dataclass(frozen=True, slots=True)
class OpenItem:
    """One open thing: its ``kind``, what it is about (``ref``: a combat, a place, an
    alliance, a request, a storm), the factions it waits for (``awaiting``; ``gm``
    for the GM's own step), who opened it, its deadline, its sentence with its rule id,
    and whether ending the turn now would settle or drop it (``holds_turn``)."""

    kind: str
    ref: str
    text: str
    rule: str
    awaiting: tuple[str, ...] = ()
    by: str | None = None
    due: str | None = None
    holds_turn: bool = False


@dataclass(frozen=True, slots=True)
class HeirNow:
    """Where a royal heir is: with a noble (``with_noble``, his faction, and the faction
    holding him captive if he is one) or left at a place; crowned or not."""

    id: str
    name: str
    house: str
    order: int
    crowned: bool
    where: str  # "with Percy (red), inside York", "inside Calais"
    place: str | None
    with_noble: str | None = None
    faction: str | None = None  # the escorting noble's faction
    captive_of: str | None = None  # the faction holding the escorting noble


@dataclass(frozen=True, slots=True)
class OpenBusiness:
    """What is open in a game now (``open_business``)."""

    round: int
    turn: str
    phase: str
    items: tuple[OpenItem, ...]
    heirs: tuple[HeirNow, ...]

    @property
    def holding(self) -> tuple[OpenItem, ...]:
        """The items that ending the turn now would settle or drop."""
        return tuple(i for i in self.items if i.holds_turn)

    def awaiting(self, who: str) -> tuple[OpenItem, ...]:
        """The items waiting for ``who`` (a faction, or ``gm``)."""
        return tuple(i for i in self.items if who in i.awaiting)

    def by_faction(self, factions: Sequence[str]) -> dict[str, tuple[OpenItem, ...]]:
        """The items waiting for each faction, in turn order, then the GM's (only those
        with something waiting)."""
        out = {f: self.awaiting(f) for f in (*factions, rc.GM)}
        return {f: items for f, items in out.items() if items}

    def warning(self) -> str:
        """Why the turn should not end yet, in one sentence ("" when nothing holds it)."""
        held = self.holding
        if not held:
            return ""
        things = "; ".join(i.text for i in held)
        count = "1 thing is" if len(held) == 1 else f"{len(held)} things are"
        return f"{self.turn}'s turn has open business: {count} still open: {things}"

    def to_data(self) -> dict[str, object]:
        """JSON-ready: the items (each with ``holds_turn``) and the heirs."""
        return {
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase,
            "items": [asdict(i) | {"awaiting": list(i.awaiting)} for i in self.items],
            "holding": len(self.holding),
            "heirs": [asdict(h) for h in self.heirs],
        }


def open_business(
    state: GameState,
    due: Mapping[str, str] | None = None,
    asks: Iterable[PermissionAsked] = (),
) -> OpenBusiness:
    """Everything open in ``state`` (the GM's): ``due``, the open deadlines by target;
    ``asks``, the permissions asked and not granted yet (``open_asks``)."""
    due = due or {}
    items: list[OpenItem] = []
    if not state.game_over:
        items += _fighting(state)
        items += _answers(state, due)
        items += _permissions(state, asks)
        items += _parliament(state)
        items += _captives(state)
    return OpenBusiness(state.round, state.turn, state.phase, tuple(items), _heirs(state))


def open_asks(entries: Iterable[Envelope]) -> list[PermissionAsked]:
    """The permissions asked in ``entries`` (a log, in order) and not granted since
    (one ask per asking faction and place: the latest)."""
    asks: dict[tuple[str, str, str], PermissionAsked] = {}
    for env in entries:
        e = env.event
        if isinstance(e, PermissionAsked):
            asks[(e.by, e.of, e.place)] = e
        elif isinstance(e, ev.PermissionGranted):
            ask = asks.get((e.to, e.by, e.place))
            if ask is not None and set(ask.aspects) <= set(e.aspects):
                del asks[(e.to, e.by, e.place)]
    return list(asks.values())


# -- battles and sieges -------------------------------------------------------------------
def _may(state: GameState, command: rc.Command) -> tuple[bool, str]:
    """Whether the rules would take the GM's ``command`` now, and if not, why."""
    d = decide(state, command)
    return (False, d.explanation) if d.refused else (True, "")


def _fighting(state: GameState) -> list[OpenItem]:
    out = []
    for c in state.combats:
        where = name(state, c.place)
        if state.phased and c.kind == "attack":
            ready, why = _may(state, rc.Battle(rc.GM, c.id))
            text = f"the battle {c.id} at {where} ({c.by}: {names(state, list(c.attackers))}) is not resolved"
            text += f" ({ids.BATTLE_RATIO})" if ready else f"; not now: {why}"
            out.append(OpenItem(BATTLE, c.id, text, ids.BATTLE_RATIO, (rc.GM,), c.by, holds_turn=True))
        elif not state.phased:  # the GM rules on it by hand (RESOLVE)
            what = "siege of" if c.kind == "siege" else "attack at"
            text = f"the {what} {where} ({c.id}, by {c.by}) awaits the GM's ruling ({ids.GM_ACTION})"
            out.append(OpenItem(COMBAT, c.id, text, ids.GM_ACTION, (rc.GM,), c.by, holds_turn=True))
    for place in sorted(state.sieges):
        s = state.sieges[place]
        ready, why = _may(state, rc.SiegeAssault(rc.GM, place))
        if ready:
            text = f"the siege of {name(state, place)} by {s.by} may still be drawn this turn ({ids.SIEGE_RESOLVE})"
        else:
            text = f"the siege of {name(state, place)} by {s.by} goes on; no draw now: {why}"
        out.append(
            OpenItem(SIEGE, place, text, ids.SIEGE_RESOLVE, (rc.GM,) if ready else (), s.by, None, ready)
        )
    return out


# -- answers awaited ----------------------------------------------------------------------
def _answers(state: GameState, due: Mapping[str, str]) -> list[OpenItem]:
    out = []
    for d in sorted(state.declarations.values(), key=lambda d: d.id):
        if d.awaiting:
            text = (
                f"{_and(d.awaiting)} {'has' if len(d.awaiting) == 1 else 'have'} not answered {d.by}'s "
                f"declaration of alliance {d.id} ({ids.ALLY_2})"
            )
            out.append(OpenItem(DECLARATION, d.id, text, ids.ALLY_2, d.awaiting, d.by, due.get(d.id)))
    for r in sorted(state.requests.values(), key=lambda r: r.id):
        kind = _REQUEST_KINDS.get(r.rule, "request")
        what = {
            ALLIED_ORDER: f"{r.by}'s order {r.id} to {_units(state, r.command)}",
            ARMY: f"{r.by}'s army {r.id}",
            RANSOM: f"{r.by}'s ransom offer {r.id} for {name(state, getattr(r.command, 'captive', None))}",
        }.get(kind, f"{r.by}'s request {r.id}")
        text = (
            f"{_and(r.awaiting)} {'has' if len(r.awaiting) == 1 else 'have'} not answered {what} ({r.rule}); "
            f"it lapses when the turn ends (ruling R15)"
        )
        out.append(OpenItem(kind, r.id, text, r.rule, r.awaiting, r.by, due.get(r.id), True))
    for st in sorted(state.storms.values(), key=lambda s: s.id):
        for ship in st.waiting:
            f = state.ships[ship].faction if ship in state.ships else None
            text = (
                f"{f or 'nobody'} has not chosen the port the storm drives {name(state, ship)} into; "
                f"one is drawn at random when the turn ends ({ids.EVENT_STORM})"
            )
            out.append(
                OpenItem(STORM, st.id, text, ids.EVENT_STORM, (f,) if f else (), None, due.get(st.id), True)
            )
    return out


def _units(state: GameState, command: object) -> str:
    unit = getattr(command, "unit", None) or getattr(command, "ship", None)
    if isinstance(unit, str):
        return name(state, unit)
    return (
        names(state, list(getattr(command, "nobles", ()) or getattr(command, "units", ()) or ()))
        or "its units"
    )


def _permissions(state: GameState, asks: Iterable[PermissionAsked]) -> list[OpenItem]:
    out = []
    for a in asks:
        if state.control.get(a.place) != a.of:  # no longer its to grant
            continue
        text = (
            f"{a.of} has not answered {a.by}'s request for {aspect_words(a.aspects)} at "
            f"{name(state, a.place)} ({ids.LOC_PERMISSION})"
        )
        out.append(OpenItem(PERMISSION, f"{a.by}:{a.place}", text, ids.LOC_PERMISSION, (a.of,), a.by))
    return out


# -- Parliament and captives --------------------------------------------------------------
def _parliament(state: GameState) -> list[OpenItem]:
    p = state.parliament
    if p is None:
        must = obliged(state)
        if must is None:
            return []
        text = f"{must} must summon Parliament this turn ({ids.PARL_SUMMON_MUST})"
        return [OpenItem(PARLIAMENT, "summons", text, ids.PARL_SUMMON_MUST, (must,), holds_turn=True)]
    seat = name(state, p.seat)
    sits = f"Parliament sits at {seat} (summoned by {p.summoner}, {p.presides} presides)"
    dissolved = "; it is dissolved when the turn ends"
    waiting = undeclared(state, p)
    if waiting:
        text = f"{sits}: {_and(waiting)} must still declare who attends ({ids.PARL_ATTEND}){dissolved}"
        return [OpenItem(PARLIAMENT, p.id, text, ids.PARL_ATTEND, waiting, p.summoner, holds_turn=True)]
    vote = p.open
    if vote is not None:
        text = f"{sits}: {_and(vote.awaiting)} must still vote on {vote.id} ({ids.PARL_VOTE}){dissolved}"
        return [OpenItem(PARLIAMENT, p.id, text, ids.PARL_VOTE, vote.awaiting, p.summoner, holds_turn=True)]
    text = f"{sits}: {p.presides} proposes the next business or closes it ({ids.PARL_BUSINESS}){dissolved}"
    return [OpenItem(PARLIAMENT, p.id, text, ids.PARL_BUSINESS, (p.presides,), p.summoner, holds_turn=True)]


def _captives(state: GameState) -> list[OpenItem]:
    if not state.phased:  # a game without phases executes no one at a turn's end
        return []
    out = []
    for noble in unransomed(state):
        n = state.nobles.get(noble)
        if n is None or n.captive_of is None:
            continue
        text = (
            f"{name(state, noble)} ({n.faction}), captive of {n.captive_of}, is executed when the turn ends "
            f"unless ransomed or freed ({ids.EXEC_UNRANSOMED})"
        )
        out.append(OpenItem(CAPTIVE, noble, text, ids.EXEC_UNRANSOMED, (), n.captive_of))
    return out


# -- heirs --------------------------------------------------------------------------------
def _heirs(state: GameState) -> tuple[HeirNow, ...]:
    return tuple(_heir(state, h) for h in sorted(state.heirs.values(), key=lambda h: (h.house, h.order)))


def _heir(state: GameState, h: Heir) -> HeirNow:
    if h.with_noble is not None and h.with_noble in state.nobles:
        n = state.nobles[h.with_noble]
        if n.captive_of is not None:
            at = f"captive of {n.captive_of}"
        elif n.aboard is not None:
            ship = state.ships.get(n.aboard)
            at = f"aboard {name(state, n.aboard)}" + (f" at {name(state, ship.place)}" if ship else "")
        else:
            at = f"{'inside' if n.inside else 'in the open at'} {name(state, n.place)}"
        where = f"with {name(state, n.id)} ({n.faction or 'no faction'}), {at}"
        place = n.place if n.aboard is None else None
        return HeirNow(
            h.id, name(state, h.id), h.house, h.order, h.crowned, where, place, n.id, n.faction, n.captive_of
        )
    where = f"{'inside' if h.inside else 'in the open at'} {name(state, h.place)}" if h.place else "nowhere"
    return HeirNow(h.id, name(state, h.id), h.house, h.order, h.crowned, where, h.place)


def _and(items: Sequence[str]) -> str:
    parts = list(items)
    return ", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else "".join(parts)
