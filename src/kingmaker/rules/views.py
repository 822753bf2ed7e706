"""What each viewer may see (ALLY.2, ruling R7): one module decides it, and every
report, page, API answer and export goes through it.

A viewer is a faction id, ``GM`` (sees everything) or ``PUBLIC`` (an observer). The
board, the nobles' positions, ships, heirs, armies and control are public in the
forum game; secret alliances, pending declarations and requests, permissions,
defence pacts, other factions' orders and the random seed are not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, NamedTuple

from .chance import commitment
from .commands import COMBAT_COMMANDS, GM, MOVEMENT_COMMANDS, Command, FormArmy
from .frozen import FrozenDict
from .kings import crowned, sole_king
from .state import (
    Alliance,
    Army,
    Captivity,
    Combat,
    CoolingOff,
    Declaration,
    Defence,
    GameState,
    Heir,
    Noble,
    OrderRecord,
    Parliament,
    Permission,
    Request,
    Ship,
    Siege,
    StormRequest,
    Summoned,
)
from .units import owner

PUBLIC: Final = "public"
#: Another faction's vote on an open proposal, as a faction sees it: cast, stance unseen.
SECRET_VOTE: Final = ("", "")


@dataclass(frozen=True)
class View:
    """The part of a state one viewer may see."""

    viewer: str
    round: int
    turn: str
    turn_order: tuple[str, ...]
    control: tuple[tuple[str, str], ...]
    nobles: tuple[Noble, ...]
    ships: tuple[Ship, ...]
    heirs: tuple[Heir, ...]
    armies: tuple[Army, ...]
    alliances: tuple[Alliance, ...]
    declarations: tuple[Declaration, ...]
    requests: tuple[Request, ...]
    permissions: tuple[Permission, ...]
    cooling_off: tuple[CoolingOff, ...]
    defences: tuple[Defence, ...]
    orders: tuple[OrderRecord, ...]
    combats: tuple[Combat, ...]
    chancery: tuple[str, ...]
    seed_commitment: str
    seed: str | None
    # -- the full game (docs/full-game.md §5): deck orders, others' hands and the
    # Chancery's contents are the GM's; their sizes are public
    phase: str = ""
    event_deck_size: int = 0
    crown_deck_size: int = 0
    chancery_size: int = 0
    event_discard: tuple[str, ...] = ()
    crown_discard: tuple[str, ...] = ()
    hands: tuple[tuple[str, tuple[str, ...]], ...] = ()  # the viewer's own (the GM's: all)
    hand_sizes: tuple[tuple[str, int], ...] = ()
    dead: tuple[str, ...] = ()
    sieges: tuple[Siege, ...] = ()
    captivity: tuple[tuple[str, Captivity], ...] = ()
    storms: tuple[StormRequest, ...] = ()  # the choices of the viewer's own ships only
    event_flags: tuple[str, ...] = ()
    # -- Parliament (PARL.*): the sitting, every vote of an open proposal but the viewer's
    # own taken out (PARL.vote); the last summons (its King's Peace: PARL.peace)
    parliament: Parliament | None = None
    summoned: Summoned | None = None
    # -- the end of the game (VICTORY.*): public
    winner: str = ""
    game_over: str = ""  # the rule that ended it ("" while it goes on)
    # -- Kings (3.1, PARL.two_kings): public
    sole_king: str = ""  # the sole King ("" with none or two reigning and none proclaimed)
    proclaimed: str = ""  # the King a passed sole_king motion made sole King, while it lasts

    def visible_alliances(self) -> list[tuple[str, ...]]:
        """The member lists of every alliance this viewer can see."""
        return [a.members for a in self.alliances]


def open_order(state: GameState, command: Command) -> bool:
    """Whether an order is published with its turn's "orders as given" once the turn
    has ended: a movement or combat order (or an army formed) that names only units of
    the faction giving it. Orders to an ally's units would reveal the alliance, and
    declarations, answers and grants are diplomacy: those stay with the factions
    concerned."""
    if not isinstance(command, (*MOVEMENT_COMMANDS, *COMBAT_COMMANDS, FormArmy)):
        return False
    named: list[str] = []
    for attr in ("unit", "ship", "target"):
        value = getattr(command, attr, None)
        if isinstance(value, str) and attr != "target":
            named.append(value)
    named += list(getattr(command, "nobles", ()) or ()) + list(getattr(command, "units", ()) or ())
    for uid in named:
        army = state.armies.get(uid)
        members = army.units if army is not None else (uid,)
        for m in members:
            n = state.nobles.get(m)
            s = state.ships.get(m)
            owner = n.faction if n is not None else s.faction if s is not None else None
            if owner != command.by:
                return False
    return bool(named)


def can_see_alliance(state: GameState, alliance: Alliance, viewer: str) -> bool:
    return viewer == GM or alliance.public or viewer in alliance.members


def can_see_defence(state: GameState, defence: Defence, viewer: str) -> bool:
    """A noble's choice to defend with another (R12) is known to the two nobles'
    factions (and the GM) only."""
    return viewer == GM or viewer in (owner(state, defence.unit), owner(state, defence.with_))


def view(state: GameState, viewer: str | None) -> View:
    """What ``viewer`` (a faction, ``GM``, or None / ``PUBLIC`` for an observer) may see.

    A faction sees its own alliances and the public ones; an observer, the public ones:

    >>> from kingmaker.conformance.case import build_board, build_state
    >>> state = build_state({
    ...     "turn_order": ["red", "blue", "green"],
    ...     "alliances": [
    ...         {"id": "rg", "members": ["red", "green"], "public": False},
    ...         {"id": "bg", "members": ["blue", "green"], "public": True},
    ...     ],
    ... }, build_board({"places": {"york": {"kind": "city"}}}), "doc")
    >>> [a.id for a in view(state, "red").alliances], [a.id for a in view(state, None).alliances]
    (['rg', 'bg'], ['bg'])
    """
    who = PUBLIC if viewer is None else viewer
    gm = who == GM
    secrets = _secrets_for(state, who)
    return View(
        viewer=who,
        round=state.round,
        turn=state.turn,
        turn_order=state.turn_order,
        control=tuple(sorted(state.control.items())),
        nobles=tuple(state.nobles.values()),
        ships=tuple(state.ships.values()),
        heirs=tuple(state.heirs.values()),
        armies=tuple(state.armies.values()),
        alliances=secrets.alliances,
        declarations=secrets.declarations,
        requests=secrets.requests,
        permissions=secrets.permissions,
        cooling_off=secrets.cooling_off,
        defences=secrets.defences,
        orders=secrets.orders,
        combats=state.combats,
        phase=state.phase,
        event_deck_size=len(state.event_deck),
        crown_deck_size=len(state.crown_deck),
        chancery_size=len(state.chancery),
        event_discard=state.event_discard,
        crown_discard=state.crown_discard,
        hands=tuple(sorted((f, h) for f, h in state.hands.items() if gm or f == who)),
        hand_sizes=tuple(sorted((f, len(h)) for f, h in state.hands.items())),
        dead=state.dead,
        sieges=tuple(state.sieges[p] for p in sorted(state.sieges)),
        captivity=tuple(sorted(state.captivity.items())),
        storms=secrets.storms,
        event_flags=state.event_flags,
        chancery=secrets.chancery,
        parliament=secrets.parliament,
        summoned=state.summoned,
        winner=state.winner,
        game_over=state.game_over,
        sole_king=sole_king(state) or "",
        proclaimed=_proclaimed(state),
        seed_commitment=commitment(state.rng.seed),
        seed=state.rng.seed if (gm or state.seed_revealed) else None,
    )


class _Secrets(NamedTuple):
    """The parts of a state that hold secrets, as one viewer may see them: what ``view``
    shows of them, and what ``as_seen_by`` leaves in."""

    alliances: tuple[Alliance, ...]
    declarations: tuple[Declaration, ...]
    requests: tuple[Request, ...]
    permissions: tuple[Permission, ...]
    cooling_off: tuple[CoolingOff, ...]
    defences: tuple[Defence, ...]
    orders: tuple[OrderRecord, ...]
    storms: tuple[StormRequest, ...]
    chancery: tuple[str, ...]
    parliament: Parliament | None


def _secrets_for(state: GameState, who: str) -> _Secrets:
    """What ``who`` (a faction, ``GM`` or ``PUBLIC``) may see of the secret parts of
    ``state``: the one place that decides it."""
    gm = who == GM
    return _Secrets(
        alliances=tuple(a for a in state.alliances.values() if can_see_alliance(state, a, who)),
        declarations=tuple(d for d in state.declarations.values() if gm or who == d.by or who in d.invited),
        requests=tuple(r for r in state.requests.values() if gm or who == r.by or who in r.awaiting),
        permissions=tuple(p for p in state.permissions if gm or who in (p.by, p.to)),
        cooling_off=tuple(
            c for c in state.cooling_off if gm or c.public or who == c.faction or who in c.former_allies
        ),
        defences=tuple(d for d in state.defences if can_see_defence(state, d, who)),
        orders=tuple(o for o in state.orders if gm or who in (o.by, owner(state, o.unit))),
        storms=tuple(_storm_for(state, st, who) for _, st in sorted(state.storms.items())),
        chancery=state.chancery if gm or presides(state, who) else (),
        parliament=_parliament_for(state.parliament, who),
    )


def _proclaimed(state: GameState) -> str:
    """The sole King, when he is sole King by a passed motion (two Kings reign)."""
    p = state.proclaimed
    return p.king if p is not None and len(crowned(state)) == 2 and sole_king(state) == p.king else ""


def _storm_for(state: GameState, storm: StormRequest, viewer: str) -> StormRequest:
    """A storm as ``viewer`` sees it: which ships it drives and where they may go are
    public (the card is); the ports chosen so far only for the viewer's own ships."""
    if viewer == GM:
        return storm
    mine = {s: p for s, p in storm.chosen.items() if owner(state, s) == viewer}
    return replace(storm, chosen=FrozenDict(mine))


def presides(state: GameState, viewer: str) -> bool:
    """Whether ``viewer`` presides over the Parliament sitting: while it sits it is told
    the Chancery's contents, whose cards it proposes (docs/rulings.md, DEAL.chancery)."""
    return state.parliament is not None and state.parliament.presides == viewer


def _parliament_for(p: Parliament | None, viewer: str) -> Parliament | None:
    """A sitting as ``viewer`` sees it: attendance, proposals, who has voted and the
    tallies of decided proposals are public; an open proposal's votes are secret but the
    viewer's own (PARL.vote): another faction's vote reads ``("", "")``, cast but unseen.
    Decided proposals keep their votes: the tally is public."""
    if p is None or viewer == GM or p.open is None:
        return p
    open_ = p.open
    seen = FrozenDict({f: (v if f == viewer else SECRET_VOTE) for f, v in open_.votes.items()})
    return replace(p, proposals=(*p.proposals[:-1], replace(open_, votes=seen)))


def as_seen_by(state: GameState, viewer: str) -> GameState:
    """``state`` with every secret ``viewer`` may not know taken out: the alliances,
    declarations, requests, permissions, cooling-offs, defence pacts and orders of
    others that ``view`` hides (the GM's state is ``state`` itself).

    What a faction is told must not change when only such secrets change: a preview,
    destination or explanation built on ``state`` reads the same as one built on this
    state whenever the verdict is the same (the secrecy tests compare the two). Reading
    a faction's text orders against it also keeps "did you mean" from hinting at them.
    """
    if viewer == GM:
        return state
    hit: GameState | None = state.seen_by.get(viewer)
    if hit is None:
        hit = state.seen_by[viewer] = _without_secrets(state, viewer)
    return hit


def _without_secrets(state: GameState, viewer: str) -> GameState:
    v = _secrets_for(state, viewer)
    return state.evolve(
        alliances=FrozenDict({a.id: a for a in v.alliances}),
        declarations=FrozenDict({d.id: d for d in v.declarations}),
        requests=FrozenDict({r.id: r for r in v.requests}),
        closed=FrozenDict(),
        permissions=v.permissions,
        cooling_off=v.cooling_off,
        defences=v.defences,
        orders=v.orders,
        event_deck=(),
        crown_deck=(),
        hands=FrozenDict({f: h for f, h in state.hands.items() if f == viewer}),
        storms=FrozenDict({st.id: st for st in v.storms}),
        chancery=v.chancery,
        parliament=v.parliament,
    )
