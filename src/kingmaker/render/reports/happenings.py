"""One sentence for each kind of log entry: what happened, in words.

A sentence says only what its entry holds; which entries a viewer reads is decided
by ``visible_log`` before any sentence is written."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import (
    TURN_ENDED,
    DeadlinePassed,
    DeadlineSet,
    GameStarted,
    LineUnread,
    OrdersMissed,
    OrderSubmitted,
    PlayerSeated,
    Undone,
)
from kingmaker.rules import events as ev
from kingmaker.rules.commands import GM, Command
from kingmaker.rules.records import Record
from kingmaker.rules.state import GameState

from .document import Code, Inline, inlines, italic, joined
from .full_events import full_sentence, is_full
from .naming import Names, aspects, when
from .order_text import Describe
from .parliament import end_sentence, is_end
from .wording import full_stop

Sentence = tuple[Inline, ...]


def order_text(command: object, describe: Describe, state: GameState) -> str:
    return describe(command, state) if isinstance(command, Command) else str(command)


def permission_words(names: Names, by: str, to: str, place: str, what: Sequence[str]) -> Sentence:
    """``Gold grants Blue harbour and embarkation at Chepstow``."""
    return inlines(
        names.faction(by), " grants ", names.faction(to), f" {aspects(what)} at {names.place(place)}"
    )


def sentence(
    env: Envelope,
    names: Names,
    describe: Describe,
    before: GameState,
    number: Callable[[int], int] = lambda seq: seq,
) -> Sentence | None:
    """What ``env`` says, or None for entries the reports leave out (the ALLY.4/5 order
    records, which only repeat an order already reported). ``before``: the state
    before the entry (for the text of an order it holds); ``number``: how the reader
    numbers log entries (``log.visibility.numbering``; the GM's numbers by default)."""
    e = env.event
    if isinstance(e, ev.OrderGiven):
        return None
    if isinstance(e, ev.TurnEnded):
        return inlines(names.possessive(env.turn), f" turn of round {env.round} ends.")
    if isinstance(e, ev.RequestOpened):
        return inlines(
            names.faction(e.by),
            " asks ",
            names.factions_list(e.awaiting),
            " to confirm: ",
            order_text(e.command, describe, before),
            " (request ",
            Code(e.request),
            f", {e.rule}).",
        )
    if isinstance(e, OrderSubmitted):
        return inlines(names.faction(e.by), ": ", order_text(e.command, describe, before))
    if isinstance(e, LineUnread):
        return inlines(names.faction(e.by), f" wrote \u201c{e.text}\u201d, which gave no order: {e.message}")
    if isinstance(e, DeadlinePassed) and e.by_hand:
        return _ended_by_hand(env, e, names)
    if isinstance(e, Undone):
        why = f": {e.reason}" if e.reason.strip() else ""
        return inlines(full_stop(f"The GM restores the game as it stood after entry {number(e.to_seq)}{why}"))
    if is_full(env):
        return full_sentence(env, names, before)
    if is_end(env):  # Parliament, coronations, the game's end (``parliament``)
        return end_sentence(env, names, before)
    out = _movement(e, names) or _fighting(e, names) or _diplomacy(e, names) or _service(e, names)
    return out or inlines(italic(_fallback(e)))


def _ended_by_hand(env: Envelope, e: DeadlinePassed, n: Names) -> Sentence:
    """A turn ended before its deadline: by the GM, or by its own faction (the entry's
    actor), never "the deadline has passed"."""
    if env.actor == e.target:
        return inlines(n.faction(e.target), " ends its turn before its deadline.")
    who = "The GM" if env.actor == GM else n.faction(env.actor)
    return inlines(who, " ends ", n.possessive(e.target), " turn before its deadline.")


def _fallback(e: Record) -> str:
    fields = ", ".join(f"{f.name}: {getattr(e, f.name)}" for f in dataclasses.fields(e))
    return f"{e.kind} ({fields})" if fields else e.kind


def _where(n: Names, place: str | None, inside: bool) -> str:
    return f"inside {n.place(place)}" if inside else f"in the open at {n.place(place)}"


def _s(count: int) -> str:
    return "s" if count == 1 else ""


def _movement(e: Record, n: Names) -> Sentence | None:
    match e:
        case ev.NobleMoved(noble=noble, place=place, inside=inside, path=path):
            if not path:
                return inlines(f"{n.unit(noble)} is now {_where(n, place, inside)}.")
            route = f" by {' → '.join(n.place(p) for p in path)}" if len(path) > 2 else ""
            where = f"inside {n.place(place)}" if inside else f"to {n.place(place)} (in the open)"
            return inlines(f"{n.unit(noble)} moves {where}{route}.")
        case ev.ShipMoved(ship=ship, place=place, in_port=in_port, forced=forced):
            if forced:
                return inlines(f"A storm drives {n.unit(ship)} into port at {n.place(place)}.")
            return inlines(f"{n.unit(ship)} sails {'into port at' if in_port else 'to'} {n.place(place)}.")
        case ev.Embarked(ship=ship, nobles=nobles):
            return inlines(f"{n.units(nobles)} embark{_s(len(nobles))} on {n.unit(ship)}.")
        case ev.Landed(ship=ship, nobles=nobles, place=place, inside=inside):
            return inlines(
                f"{n.units(nobles)} land{_s(len(nobles))} from {n.unit(ship)} {_where(n, place, inside)}."
            )
        case ev.ControlSet(place=place, faction=faction):
            who = n.faction(faction) if faction else "no faction"
            return inlines(f"{n.place(place)} is now controlled by ", who, ".")
        case ev.HeirMoved(heir=heir, with_noble=noble, place=place, inside=inside):
            if noble:
                return inlines(f"{n.unit(heir)} goes with {n.unit(noble)}.")
            return inlines(f"{n.unit(heir)} is left {_where(n, place, inside)}.")
        case ev.ArmySet(army=army, units=units, fleet=fleet, senior=senior, senior_rule=rule):
            officer = f"; senior officer {n.unit(senior)}" + (f" ({rule})" if rule else "") if senior else ""
            return inlines("Fleet " if fleet else "Army ", Code(army), f": {n.units(units)}{officer}.")
        case ev.ArmyDisbanded(army=army):
            return inlines(
                "Army ", Code(army), " is disbanded: fewer than two of its units are left in it (ruling R17)."
            )
    return None


def _fighting(e: Record, n: Names) -> Sentence | None:
    match e:
        case ev.CombatDeclared(by=by, attackers=attackers, place=place, target=target, defenders=defenders):
            what = f"an attack on {n.unit(target)}" if target else "a siege"
            against = f"; defenders {n.units(defenders)}" if defenders else ""
            return inlines(
                n.faction(by),
                f" declares {what} at {n.place(place)}: attackers {n.units(attackers)}{against}.",
            )
        case ev.CombatResolved(combat=combat, summary=summary):
            return inlines(
                "Combat ",
                Code(combat),
                full_stop(f" is resolved: {summary}" if summary.strip() else " is resolved"),
            )
        case ev.NobleKilled(noble=noble, heirs_dead=heirs):
            dead = f"; {n.units(heirs)} die{_s(len(heirs))} with him" if heirs else ""
            return inlines(f"{n.unit(noble)} is killed{dead}.")
        case ev.NobleCaptured(noble=noble, by=by):
            return inlines(f"{n.unit(noble)} is captured by ", n.faction(by), ".")
        case ev.NobleReleased(noble=noble, place=place, inside=inside):
            return inlines(f"{n.unit(noble)} is released {_where(n, place, inside)}.")
        case ev.DefenceDeclared(unit=unit, with_=with_):
            return inlines(f"{n.unit(unit)} will fight on {n.unit(with_)}'s side this round.")
        case ev.RandomDrawn(n=count, pick=pick, purpose=purpose):
            return inlines(f"Random draw{f' for {purpose}' if purpose else ''}: {pick + 1} of {count}.")
        case ev.RandomInjected(values=values):
            return inlines(f"The GM sets the next random values: {', '.join(map(str, values))}.")
    return None


def _diplomacy(e: Record, n: Names) -> Sentence | None:
    match e:
        case ev.AllianceDeclared(alliance=a, by=by, invited=invited):
            return inlines(
                n.faction(by), " declares alliance ", Code(a), " with ", n.factions_list(invited), "."
            )
        case ev.AllianceAnswered(alliance=a, faction=f, confirm=yes):
            return inlines(n.faction(f), f" {'accepts' if yes else 'declines'} alliance ", Code(a), ".")
        case ev.AllianceFormed(alliance=a, members=members, public=public):
            return inlines(
                "Alliance ",
                Code(a),
                " is formed: ",
                n.factions_list(members),
                f" ({'public' if public else 'secret'}).",
            )
        case ev.DeclarationEnded(alliance=a, rule=rule):
            return inlines("The declaration of ", Code(a), f" is settled ({rule}).")
        case ev.AllianceLeft(alliance=a, faction=f, until_round=until):
            return inlines(
                n.faction(f),
                " leaves alliance ",
                Code(a),
                f"; no fighting with its former allies until its turn in round {until} (ALLY.12).",
            )
        case ev.AlliancesRevealed(alliances=alliances):
            return inlines("Now public (ruling R7): alliance ", joined([Code(a) for a in alliances]), ".")
        case ev.RequestConfirmed(request=req, faction=f):
            return inlines(n.faction(f), " confirms request ", Code(req), ".")
        case ev.RequestClosed(request=req, outcome=outcome, rule=rule):
            return inlines("Request ", Code(req), f" ends: {outcome} ({rule}).")
        case ev.PermissionGranted(by=by, to=to, place=place, aspects=what):
            return inlines(permission_words(n, by, to, place, what), ".")
        case ev.PermissionRevoked(by=by, to=to, place=place, aspects=what):
            return inlines(
                n.faction(by), " withdraws from ", n.faction(to), f" {aspects(what)} at {n.place(place)}."
            )
    return None


def _service(e: Record, n: Names) -> Sentence | None:
    match e:
        case DeadlineSet(target_kind="turn", target=target, due=due, extended=again):
            return inlines(
                "Orders for ", n.possessive(target), f" turn are {'now ' if again else ''}due by {when(due)}."
            )
        case DeadlineSet(due=due, extended=again):
            return inlines("Answers to ", _target(e, n), f" are {'now ' if again else ''}due by {when(due)}.")
        case DeadlinePassed(target_kind="turn", outcome=outcome) if outcome == TURN_ENDED:
            return inlines("The deadline for ", _target(e, n), " has passed: the turn ends.")
        case DeadlinePassed(outcome=outcome):
            return inlines("The deadline for ", _target(e, n), f" has passed: {outcome}.")
        case OrdersMissed(faction=f, policy=policy):
            return inlines(n.faction(f), f" sent no orders in time (policy: {policy}).")
        case GameStarted(name=name, factions=factions, data_set=data_set, options=options):
            chosen = f" Options: {', '.join(o.replace('=', ' ') for o in options)}." if options else ""
            return inlines(f"The game {name} begins ({data_set}): ", n.factions_list(factions), "." + chosen)
        case PlayerSeated(faction=f, player=who):
            return inlines(f"{who} plays ", n.faction(f), ".")
        case ev.SeedCommitted(commitment=commitment):
            return inlines("The seed's commitment (SHA-256) is published: ", Code(commitment), ".")
        case ev.SeedRevealed(seed=seed):
            return inlines("The GM reveals the seed: ", Code(seed), ".")
    return None


def _target(e: Record, n: Names) -> Sentence:
    assert isinstance(e, DeadlineSet | DeadlinePassed)
    if e.target_kind == "turn":
        return inlines(n.possessive(e.target), " turn")
    what = "alliance declaration" if e.target_kind == "declaration" else "request"
    return inlines(f"the {what} ", Code(e.target))
