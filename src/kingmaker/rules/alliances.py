"""Alliance lifecycle: declaring (ALLY.1, ALLY.2, R6), answering, the deadline (ALLY.3),
and leaving (ALLY.10, ALLY.11, ALLY.12)."""

from __future__ import annotations

from . import events as ev
from . import ids
from .apply import replay
from .armies import senior_events
from .commands import AnswerAlliance, Deadline, DeclareAlliance, LeaveAlliance
from .context import invalid
from .decision import Decision, Refusal, Result
from .state import Declaration, GameState
from .units import fleet_nobles, owner


def decide_declare(state: GameState, cmd: DeclareAlliance) -> Decision:
    """A faction declares an alliance with one or more others, at any time; each is
    asked to confirm."""
    if cmd.by not in state.turn_order:
        raise invalid(f"{cmd.by} is not a faction of this game")
    if cmd.id in state.alliances or cmd.id in state.declarations:
        raise invalid(f"an alliance {cmd.id!r} already exists")
    invited = tuple(sorted(set(cmd.with_)))
    if not invited:
        raise invalid("an alliance needs at least one other faction")
    for f in invited:
        if f == cmd.by:
            raise invalid(f"{cmd.by} cannot ally with itself")
        if f not in state.turn_order:
            raise invalid(f"there is no faction {f!r}")
    return Decision(
        Result.PENDING,
        ids.ALLY_2,
        f"{cmd.by} declares alliance {cmd.id} with {', '.join(invited)}; "
        + ("each is asked to confirm" if len(invited) > 1 else f"{invited[0]} is asked to confirm")
        + f" ({ids.ALLY_2})",
        (ev.AllianceDeclared(cmd.id, cmd.by, invited),),
        awaiting=invited,
        request=cmd.id,
    )


def _settle(state: GameState, d: Declaration, at_deadline: bool) -> Decision:
    members = tuple(sorted((d.by, *d.confirmed)))
    if len(members) >= 2:
        return Decision(
            Result.ACCEPTED,
            ids.ALLY_1,
            f"alliance {d.id} is formed by {', '.join(members)} ({ids.ALLY_1})",
            (ev.AllianceFormed(d.id, members), ev.DeclarationEnded(d.id, ids.ALLY_1)),
            request=d.id,
        )
    rule = ids.ALLY_3 if at_deadline else ids.ALLY_2
    why = "no invited faction confirmed by the deadline" if at_deadline else "every invited faction declined"
    return Decision(
        Result.REFUSED,
        rule,
        f"alliance {d.id} is not formed: {why} ({rule})",
        (ev.DeclarationEnded(d.id, rule),),
        request=d.id,
    )


def decide_answer(state: GameState, cmd: AnswerAlliance) -> Decision:
    d = state.declarations.get(cmd.alliance)
    if d is None:
        raise invalid(f"there is no alliance declaration {cmd.alliance!r} awaiting answers")
    if cmd.by not in d.awaiting:
        raise invalid(f"{cmd.by} is not awaited on alliance {cmd.alliance}")
    answer = ev.AllianceAnswered(d.id, cmd.by, cmd.confirm)
    if cmd.confirm:
        d2 = Declaration(d.id, d.by, d.invited, (*d.confirmed, cmd.by), d.declined)
    else:
        d2 = Declaration(d.id, d.by, d.invited, d.confirmed, (*d.declined, cmd.by))
    if d2.awaiting:
        return Decision(
            Result.PENDING,
            ids.ALLY_2,
            f"{cmd.by} {'confirms' if cmd.confirm else 'declines'} alliance {d.id}; "
            f"still awaiting {', '.join(d2.awaiting)} ({ids.ALLY_2})",
            (answer,),
            awaiting=d2.awaiting,
            request=d.id,
        )
    settled = _settle(state, d2, at_deadline=False)
    return Decision(
        settled.result, settled.rule, settled.explanation, (answer, *settled.events), request=d.id
    )


def decide_deadline(state: GameState, cmd: Deadline) -> Decision:
    """The deadline passed: a faction that has not answered has not confirmed (ALLY.3)."""
    d = state.declarations.get(cmd.alliance)
    if d is None:
        raise invalid(f"there is no alliance declaration {cmd.alliance!r} awaiting answers")
    return _settle(state, d, at_deadline=True)


def decide_leave(state: GameState, cmd: LeaveAlliance) -> Decision:
    """A faction leaves on its own turn; the others stay allied (ALLY.11); one round of
    cooling-off follows (ALLY.12)."""
    a = state.alliances.get(cmd.alliance)
    if a is None:
        raise invalid(f"there is no alliance {cmd.alliance!r}")
    if cmd.by not in a.members:
        raise invalid(f"{cmd.by} is not a member of alliance {cmd.alliance}")
    if cmd.by != state.turn:
        raise Refusal(
            ids.ALLY_10,
            f"{cmd.by} may leave alliance {a.id} only on its own turn; it is {state.turn}'s turn ({ids.ALLY_10})",
        )
    rest = [m for m in a.members if m != cmd.by]
    events: list[ev.Event] = [ev.AllianceLeft(a.id, cmd.by, state.round + 1)]
    after = replay(state, events)
    rng = after.rng
    for army in state.armies.values():
        factions = {owner(state, u) for u in army.units}
        if army.fleet:
            factions |= {state.nobles[n].faction for n in fleet_nobles(state, army.units)}
        if cmd.by not in factions or len(factions) < 2:
            continue
        if all(after.friends(x, y) for x in factions for y in factions):
            continue
        keep = tuple(u for u in army.units if owner(state, u) != cmd.by)
        if len(keep) < 2:
            events.append(ev.ArmyDisbanded(army.id))
        else:
            more, rng, _, _ = senior_events(after, army.id, keep, army.fleet, rng)
            events.extend(more)
    rule = ids.ALLY_11 if len(rest) >= 2 else ids.ALLY_10
    stay = f"; {', '.join(rest)} stay allied" if len(rest) >= 2 else f"; alliance {a.id} ends"
    return Decision(
        Result.ACCEPTED,
        rule,
        f"{cmd.by} leaves alliance {a.id}{stay}; former allies may not attack each other for one round "
        f"({rule}, {ids.ALLY_12})",
        tuple(events),
    )
