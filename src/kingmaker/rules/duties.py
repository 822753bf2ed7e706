"""What each faction, and the GM, still has to do in the turn's phase: ``duties(state)``.
For the GM's console ("who are we waiting for"), each player's page, the API and bots.

A ``Duty`` says who, what (``kind``), one sentence naming its rule id, and whether the
game waits for it (``must``) or the faction only may (a summons or a coronation it could
make, a captive it could ransom). Whatever can be judged is judged by ``decide``
(through ``choices``): a coronation is listed where the rules would crown, a summons where
they would seat Parliament, a siege's draw when they would draw it. Nothing here is a
rule of its own.

``duties`` reads the whole state (the GM's): a faction's page shows only its own
(``duties_of``), which never names what it may not see (the requests awaiting it are
its own to answer).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import commands as c
from . import ids
from .captives import unransomed
from .choices import coronations, judge, parliament_choices
from .decks import CROWN_DRAWN
from .parliament import obliged, undeclared
from .phases import COMBAT, CORONATION, CROWN, EVENT, MOVEMENT, PARLIAMENT
from .state import GameState, Parliament
from .units import name

# kinds of duty
CHOOSE_PORT, ANSWER, DRAW_EVENT, ORDERS, RESOLVE, SIEGE_DRAW, END_PHASE = (
    "choose_port",
    "answer",
    "draw_event",
    "orders",
    "resolve",
    "siege_draw",
    "end_phase",
)
SUMMON, ATTEND, PROPOSE, VOTE, CLOSE, CROWN_HEIR, DRAW_CROWN, END_TURN, CAPTIVE = (
    "summon",
    "attend",
    "propose",
    "vote",
    "close",
    "crown",
    "draw_crown",
    "end_turn",
    "captive",
)


@dataclass(frozen=True, slots=True)
class Duty:
    """``who`` (a faction, or ``GM``) has to do ``kind`` (``must``: the game waits for
    it; else it only may), said in ``text`` with its ``rule``; ``ref`` names what it is
    about: a request, a storm, a proposal, an heir, an attack, a besieged place."""

    who: str
    kind: str
    text: str
    rule: str
    must: bool = True
    ref: str = ""


def duties_of(state: GameState, who: str) -> tuple[Duty, ...]:
    """``who``'s own duties (a faction's, or the GM's)."""
    return tuple(d for d in duties(state) if d.who == who)


def duties(state: GameState) -> tuple[Duty, ...]:
    """Everything the game waits for now, and what factions may do in this phase: the
    answers awaited (storm ports, alliance declarations, allied orders, armies, ransoms),
    then the phase's steps (the GM's draws, the faction to play's orders, Parliament's
    attendance, proposals and votes, coronations, the Crown draw), then the captives
    executed when the turn ends unless ransomed or freed. None once the game is over."""
    if state.game_over:
        return ()
    out = _answers(state)
    if state.phased:
        out += _phase(state)
    out += _captives(state)
    return tuple(out)


def _answers(state: GameState) -> list[Duty]:
    out: list[Duty] = []
    for st in sorted(state.storms.values(), key=lambda s: s.id):
        for ship in st.waiting:
            f = state.ships[ship].faction
            if f is not None:
                text = f"{f} chooses the port the storm drives {name(state, ship)} into ({ids.EVENT_STORM})"
                out.append(Duty(f, CHOOSE_PORT, text, ids.EVENT_STORM, ref=st.id))
    for d in sorted(state.declarations.values(), key=lambda d: d.id):
        for f in d.awaiting:
            text = f"{f} answers {d.by}'s declaration of alliance {d.id} ({ids.ALLY_2})"
            out.append(Duty(f, ANSWER, text, ids.ALLY_2, ref=d.id))
    for r in sorted(state.requests.values(), key=lambda r: r.id):
        for f in r.awaiting:
            what = {
                ids.ALLY_4: f"{r.by}'s order {r.id} to its unit",
                ids.ALLY_6: f"{r.by}'s army {r.id}",
                ids.RANSOM_OFFER: f"{r.by}'s ransom offer {r.id}",
            }.get(r.rule, f"{r.by}'s request {r.id}")
            out.append(Duty(f, ANSWER, f"{f} confirms or rejects {what} ({r.rule})", r.rule, ref=r.id))
    return out


def _phase(state: GameState) -> list[Duty]:
    turn, phase = state.turn, state.phase
    if phase == EVENT:
        if state.storms:
            return []
        return [
            Duty(c.GM, DRAW_EVENT, f"the GM draws {turn}'s event card ({ids.EVENT_DRAW})", ids.EVENT_DRAW)
        ]
    if phase == MOVEMENT:
        text = f"{turn} gives its movement orders (or none) ({ids.PHASE_MOVEMENT})"
        return [
            Duty(turn, ORDERS, text, ids.PHASE_MOVEMENT),
            _end_phase(state, f"once {turn} has moved"),
        ]
    if phase == COMBAT:
        return _combat(state)
    if phase == PARLIAMENT:
        return _parliament(state)
    if phase == CORONATION:
        out = []
        for ch in coronations(state, turn):
            if ch.allowed and isinstance(ch.command, c.Crown):
                heir, rule = ch.command.heir, ch.rule or ids.CROWN_SUCCESSION
                text = f"{turn} may crown {name(state, heir)} at {name(state, ch.place)} ({rule})"
                out.append(Duty(turn, CROWN_HEIR, text, rule, False, heir))
        return [*out, _end_phase(state, f"once {turn} has crowned" if out else "")]
    if phase == CROWN:
        out = []
        if CROWN_DRAWN not in state.event_flags:
            text = f"the GM makes {turn}'s Crown draw, or ends the turn, which makes it ({ids.DEAL_DRAW})"
            out.append(Duty(c.GM, DRAW_CROWN, text, ids.DEAL_DRAW))
        text = f"the GM ends {turn}'s turn ({ids.TURN_END})"
        return [*out, Duty(c.GM, END_TURN, text, ids.TURN_END)]
    return []


def _end_phase(state: GameState, when: str) -> Duty:
    text = f"the GM ends {state.turn}'s {state.phase} phase{' ' + when if when else ''} ({ids.PHASE_ORDER})"
    return Duty(c.GM, END_PHASE, text, ids.PHASE_ORDER, False)


def _combat(state: GameState) -> list[Duty]:
    turn = state.turn
    out = [
        Duty(turn, ORDERS, f"{turn} gives its combat orders (or none) ({ids.PHASE_COMBAT})", ids.PHASE_COMBAT)
    ]
    for combat in state.combats:
        if combat.kind == "attack":
            text = (
                f"the GM resolves the battle {combat.id} at {name(state, combat.place)} ({ids.BATTLE_RATIO})"
            )
            out.append(Duty(c.GM, RESOLVE, text, ids.BATTLE_RATIO, ref=combat.id))
    for place in sorted(state.sieges):
        ch = judge(state, c.SiegeAssault(c.GM, place))
        if ch.allowed:
            text = f"the GM draws for the siege of {name(state, place)} ({ids.SIEGE_RESOLVE})"
            out.append(Duty(c.GM, SIEGE_DRAW, text, ids.SIEGE_RESOLVE, ref=place))
    return [*out, _end_phase(state, f"once {turn} has fought")]


def _parliament(state: GameState) -> list[Duty]:
    turn = state.turn
    p = state.parliament
    if p is not None:
        return _sitting(state, p)
    must = obliged(state)
    if must is not None:
        text = f"{must} must summon Parliament this turn ({ids.PARL_SUMMON_MUST})"
        return [Duty(must, SUMMON, text, ids.PARL_SUMMON_MUST)]
    seats = [ch for ch in parliament_choices(state, turn).summon if ch.allowed]
    out = []
    if seats:
        rule = seats[0].rule or ids.PARL_SUMMON_KING
        where = ", ".join(name(state, getattr(ch.command, "seat", "")) for ch in seats)
        out.append(Duty(turn, SUMMON, f"{turn} may summon Parliament, to {where} ({rule})", rule, False))
    return [*out, _end_phase(state, "")]


def _sitting(state: GameState, p: Parliament) -> list[Duty]:
    waiting = undeclared(state, p)
    if waiting:
        first, rest = waiting[0], waiting[1:]
        out = [
            Duty(
                first,
                ATTEND,
                f"{first} declares which of its nobles attend Parliament ({ids.PARL_ATTEND})",
                ids.PARL_ATTEND,
            )
        ]
        for f in rest:
            text = f"{f} declares its attendance after {first} ({ids.PARL_ATTEND})"
            out.append(Duty(f, ATTEND, text, ids.PARL_ATTEND))
        return out
    open_ = p.open
    if open_ is not None:
        return [
            Duty(
                f,
                VOTE,
                f"{f} votes on {open_.id}, in each house ({ids.PARL_VOTE})",
                ids.PARL_VOTE,
                ref=open_.id,
            )
            for f in open_.awaiting
        ]
    text = f"{p.presides} proposes the next business, or closes Parliament ({ids.PARL_BUSINESS}, {ids.PARL_CLOSE})"
    return [Duty(p.presides, PROPOSE, text, ids.PARL_BUSINESS)]


def _captives(state: GameState) -> list[Duty]:
    out = []
    for noble in unransomed(state):
        n = state.nobles[noble]
        if n.captive_of is None:
            continue
        rule = ids.EXEC_UNRANSOMED
        text = (
            f"{name(state, noble)}, {n.faction}'s, held by {n.captive_of}, is executed when this turn ends "
            f"unless ransomed or freed ({rule})"
        )
        for f in dict.fromkeys(x for x in (n.captive_of, n.faction) if x is not None):
            out.append(Duty(f, CAPTIVE, text, rule, False, noble))
    return out
