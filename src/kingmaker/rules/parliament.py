"""Parliament (FULL_GAME 3.7, PARL.*; F19-F21, 3.13.9): summoning it, its seat and the
King's Peace, who presides, attendance, proposals one at a time, secret votes by house
and their public tally, basic mode, and closing it.

The steps, in the turn's Parliament phase (``register_phase``): ``summon_parliament``
(the sole King's faction, or after a Parliament event the Chancellor's), then every
faction's ``attend`` (presiding faction first, then turn order), the presiding faction's
``propose``, every voter's ``vote``, and the presiding faction's ``close_parliament``.
Attending and voting are out-of-turn steps: any faction, whenever Parliament sits.

What "must" means here (PARL.summon.must): after a ``parliament_must`` event, with no
sole King, the turn may not move past its Parliament phase (a later phase's step, the
GM's ``end_phase``) until the obliged faction has summoned Parliament, as long as it
controls a city or town where Parliament may sit. The GM's ``end_turn`` still ends the
turn (3.13.8), and says the summons owed was not made. The refusals of each step come in
the order its function's docstring gives, after ``ORDER.invalid`` and ``PHASE.order``.
"""

from __future__ import annotations

from dataclasses import replace

from . import commands as c
from . import events as ev
from . import ids
from .board import PlaceKind
from .context import invalid, require_place
from .crown_cards import limits_problem
from .decision import Decision, Refusal, Report, Result, VoteReport
from .kings import controller, crowned, in_england, sole_king
from .phases import PARLIAMENT, rank, register_leaving_check, register_phase
from .sieges import besieged, noble_besieged
from .state import GameState, Parliament, Proposal
from .units import name, names
from .victory import victory_motion_passed
from .votes import STANCES, Tally, blocs, chancellor_faction, tally

for _kind in (c.SummonParliament, c.Attend, c.Propose, c.Vote, c.CloseParliament):
    register_phase(_kind, PARLIAMENT)

MAY_SUMMON = "parliament_chancellor"  # EVENT.parliament flags (event_cards)
MUST_SUMMON = "parliament_must"
SOLE_KING, VICTORY = "sole_king", "victory"
MOTIONS = (SOLE_KING, VICTORY)
BASIC = "basic"


def _and(items: tuple[str, ...] | list[str]) -> str:
    """``red``, ``red and blue``, ``red, blue and green``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def basic(state: GameState) -> bool:
    """Option ``parliament: basic`` (PARL.basic): no votes."""
    return state.option("parliament", "voting") == BASIC


def summoned_this_turn(state: GameState) -> bool:
    s = state.summoned
    return s is not None and (s.round, s.turn_index) == (state.round, state.turn_index)


# -- who may summon (PARL.summon.*) and where (PARL.seat) --------------------------------


def seats(state: GameState, faction: str) -> tuple[str, ...]:
    """The places ``faction`` may name as the seat (PARL.seat): the cities and towns it
    controls, none under siege (docs/rulings.md)."""
    return tuple(
        sorted(
            p
            for p, f in state.control.items()
            if f == faction
            and state.board.places[p].kind in (PlaceKind.CITY, PlaceKind.TOWN)
            and not besieged(state, p)
        )
    )


def obliged(state: GameState) -> str | None:
    """The faction that must summon Parliament now (PARL.summon.must): after a
    ``parliament_must`` event this turn, with no sole King and no Parliament summoned
    this turn, the Chancellor's faction (none in play: the faction whose turn it is), if
    it has a seat to name; else None."""
    if not state.phased or MUST_SUMMON not in state.event_flags or summoned_this_turn(state):
        return None
    if state.parliament is not None or sole_king(state) is not None:
        return None
    f = chancellor_faction(state) or state.turn
    return f if seats(state, f) else None


def summons_rule(state: GameState, by: str) -> str:
    """The PARL.summon.* rule under which ``by`` may summon Parliament now; raises
    ``Refusal`` naming the rule that refuses: the sole King's faction, in its own turn,
    the King in England, once a round (F19); else, after this turn's Parliament event,
    the Chancellor's faction (PARL.summon.chancellor), or the faction that must
    (PARL.summon.must). One summons a turn."""
    king = sole_king(state)
    if king is not None:
        rule = ids.PARL_SUMMON_KING
        keeper = controller(state, king)
        if keeper != by:
            kept = f"{keeper} keeps him" if keeper else "he has no escort"
            raise Refusal(
                rule,
                f"{by} may not summon Parliament: only the faction of the sole King, {name(state, king)}, "
                f"may, and {kept} ({rule})",
            )
        if by != state.turn:
            raise Refusal(rule, f"{by} may summon Parliament only in its own Parliament phase ({rule})")
        if not in_england(state, king):
            raise Refusal(
                rule, f"{by} may not summon Parliament: {name(state, king)} is not in England ({rule})"
            )
        s = state.summoned
        if s is not None and s.round == state.round:
            raise Refusal(
                rule,
                f"{by} may not summon Parliament: one was summoned this round already, by {s.summoner} (F19) ({rule})",
            )
        return rule
    flags = state.event_flags
    if MUST_SUMMON in flags or MAY_SUMMON in flags:
        rule = ids.PARL_SUMMON_MUST if MUST_SUMMON in flags else ids.PARL_SUMMON_CHANCELLOR
        chancellor = chancellor_faction(state)
        who: str | None = (
            chancellor if chancellor is not None or rule == ids.PARL_SUMMON_CHANCELLOR else state.turn
        )
        if who is None:
            raise Refusal(
                rule,
                f"{by} may not summon Parliament: there is no sole King, and no Chancellor of England in play ({rule})",
            )
        if who != by:
            whose = "the Chancellor's faction" if chancellor is not None else "the faction whose turn it is"
            raise Refusal(
                rule, f"{by} may not summon Parliament: only {who}, {whose}, may this turn ({rule})"
            )
        if summoned_this_turn(state):
            raise Refusal(rule, f"{by} may not summon Parliament: it was summoned this turn already ({rule})")
        return rule
    rule = ids.PARL_SUMMON_KING
    raise Refusal(
        rule,
        f"{by} may not summon Parliament: there is no sole King, and no Parliament event this turn ({rule})",
    )


def presiding(state: GameState, summoner: str) -> str:
    """PARL.presides: the sole King's faction; else the Chancellor's; else the summoner."""
    king = sole_king(state)
    keeper = controller(state, king) if king is not None else None
    return keeper or chancellor_faction(state) or summoner


def decide_summon(state: GameState, cmd: c.SummonParliament) -> Decision:
    """``ORDER.invalid`` (no phases, no such place), ``PHASE.order`` (another faction's
    summons outside this turn's Parliament phase), PARL.summon.*, PARL.seat."""
    if not state.phased:
        raise invalid("this game plays without phases, and so without Parliament")
    seat = require_place(state, cmd.seat)
    if state.phase != PARLIAMENT:
        raise Refusal(
            ids.PHASE_ORDER,
            f"{cmd.by} may summon Parliament only in {state.turn}'s Parliament phase; it is its "
            f"{state.phase} phase ({ids.PHASE_ORDER})",
        )
    if state.parliament is not None:
        raise invalid(f"Parliament already sits at {name(state, state.parliament.seat)}")
    rule = summons_rule(state, cmd.by)
    if seat.kind not in (PlaceKind.CITY, PlaceKind.TOWN):
        raise Refusal(
            ids.PARL_SEAT,
            f"{cmd.by} may not summon Parliament to {seat.name}, a {seat.kind.label}: it sits in a city or "
            f"town ({ids.PARL_SEAT})",
            place=seat.id,
        )
    if state.control.get(seat.id) != cmd.by:
        raise Refusal(
            ids.PARL_SEAT,
            f"{cmd.by} may not summon Parliament to {seat.name}: it does not control it ({ids.PARL_SEAT})",
            place=seat.id,
        )
    if besieged(state, seat.id):
        raise Refusal(
            ids.PARL_SEAT,
            f"{cmd.by} may not summon Parliament to {seat.name}: it is under siege ({ids.PARL_SEAT})",
            place=seat.id,
        )
    presides = presiding(state, cmd.by)
    why = {
        ids.PARL_SUMMON_KING: f"as the faction of the sole King, {name(state, sole_king(state))}",
        ids.PARL_SUMMON_CHANCELLOR: "as the Chancellor's faction",
        ids.PARL_SUMMON_MUST: "as it must this turn",
    }[rule]
    text = (
        f"{cmd.by} summons Parliament to {seat.name} {why} ({rule}); {presides} presides ({ids.PARL_PRESIDES}); "
        f"the King's Peace holds at {seat.name} until {cmd.by}'s next turn begins ({ids.PARL_PEACE})"
    )
    return Decision(
        Result.ACCEPTED,
        rule,
        text,
        (ev.ParliamentSummoned(cmd.id, seat.id, cmd.by, presides, rule),),
        place=seat.id,
        report=Report(presides=presides),
    )


# -- attendance (PARL.attend) ------------------------------------------------------------


def sitting(state: GameState, rule: str, what: str) -> Parliament:
    """The Parliament sitting; ``what`` (said as "blue may not attend") is refused under
    ``rule`` when none sits."""
    p = state.parliament
    if p is None:
        raise Refusal(rule, f"{what}: no Parliament sits ({rule})")
    return p


def attend_problem(state: GameState, noble: str) -> str | None:
    """Why ``noble`` may not attend (PARL.attend): a captive, at sea, besieged; or None."""
    n = state.nobles[noble]
    if n.captive_of is not None:
        return f"he is a captive of {n.captive_of}"
    if n.aboard is not None and not state.ships[n.aboard].in_port:
        return "he is at sea"
    if noble_besieged(state, noble):
        return f"he is inside {name(state, n.place)}, under siege"
    return None


def may_declare(state: GameState, faction: str) -> bool:
    """Whether ``faction`` has a noble who may attend (one with none is not waited for)."""
    return any(n.faction == faction and attend_problem(state, n.id) is None for n in state.nobles.values())


def declaring_order(state: GameState, p: Parliament) -> tuple[str, ...]:
    """PARL.attend: the presiding faction first, then the others in turn order."""
    return (p.presides, *(f for f in state.turn_order if f != p.presides))


def undeclared(state: GameState, p: Parliament) -> tuple[str, ...]:
    """The factions still to declare attendance, in order (those with no noble who may
    attend are not waited for)."""
    return tuple(f for f in declaring_order(state, p) if f not in p.attending and may_declare(state, f))


def decide_attend(state: GameState, cmd: c.Attend) -> Decision:
    """``ORDER.invalid`` (unknown or repeated nobles), ``ORDER.foreign`` (another
    faction's noble), PARL.attend (no Parliament; declared already; not its turn to
    declare; a captive, at sea or besieged)."""
    rule = ids.PARL_ATTEND
    for i, n in enumerate(cmd.nobles):
        if n not in state.nobles:
            raise invalid(f"there is no noble {n!r} in play", unit=n)
        if n in cmd.nobles[:i]:
            raise invalid(f"{name(state, n)} is named twice", unit=n)
        if state.nobles[n].faction != cmd.by:
            raise Refusal(
                ids.ORDER_FOREIGN,
                f"{cmd.by} may not send {name(state, n)} to Parliament: he is {state.nobles[n].faction}'s "
                f"({ids.ORDER_FOREIGN})",
                unit=n,
            )
    p = sitting(state, rule, f"{cmd.by} may not attend")
    if cmd.by in p.attending:
        raise Refusal(rule, f"{cmd.by} has declared its attendance already ({rule})")
    before = declaring_order(state, p)
    waiting = [f for f in before[: before.index(cmd.by)] if f in undeclared(state, p)]
    if waiting:
        raise Refusal(
            rule,
            f"{cmd.by} may not declare its attendance yet: {_and(waiting)} first (the presiding "
            f"faction first, then turn order) ({rule})",
        )
    for n in cmd.nobles:
        problem = attend_problem(state, n)
        if problem is not None:
            raise Refusal(rule, f"{name(state, n)} may not attend Parliament: {problem} ({rule})", unit=n)
    seat = name(state, p.seat)
    text = (
        f"{cmd.by} attends Parliament at {seat} with {names(state, list(cmd.nobles))}"
        if cmd.nobles
        else f"{cmd.by} sends no noble to Parliament at {seat}"
    )
    after = replace(p, attending=p.attending.set(cmd.by, cmd.nobles))
    if not undeclared(state, after):
        text += f"; attendance is complete, and {p.presides} may propose"
    return Decision(Result.ACCEPTED, rule, f"{text} ({rule})", (ev.AttendanceDeclared(cmd.by, cmd.nobles),))


# -- proposals (PARL.business, PARL.basic, PARL.two_kings, VICTORY.parliament) -----------


def _what(state: GameState, pr: Proposal) -> str:
    if pr.motion == SOLE_KING:
        return f"the motion that {name(state, pr.heir)} be sole King"
    if pr.motion == VICTORY:
        return "the victory motion"
    return f"{name(state, pr.award)} for {name(state, pr.to)}"


def _check_award(state: GameState, p: Parliament, award: str, to: str) -> None:
    rule = ids.PARL_BUSINESS
    if award not in state.chancery:
        raise Refusal(rule, f"{name(state, award)} is not in the Chancery ({rule})")
    if to not in state.nobles or not p.attends(to) or state.nobles[to].captive_of is not None:
        raise Refusal(
            rule, f"{name(state, to)} does not attend Parliament: a card goes to a noble who does ({rule})"
        )


def _check_motion(state: GameState, by: str, motion: str, heir: str | None) -> None:
    if motion == SOLE_KING:
        rule = ids.PARL_TWO_KINGS
        kings = crowned(state)
        if len(kings) != 2:
            reign = "none reigns" if not kings else "only one reigns"
            raise Refusal(rule, f"a sole King motion needs two crowned Kings, and {reign} ({rule})")
        if heir not in kings:
            raise Refusal(rule, f"{name(state, heir)} is not one of the two crowned Kings ({rule})")
        if sole_king(state) == heir:
            raise Refusal(rule, f"{name(state, heir)} is already the sole King ({rule})")
        return
    rule = ids.VICTORY_PARLIAMENT
    king = sole_king(state)
    if king is None:
        raise Refusal(rule, f"the victory motion needs a sole King, and none reigns ({rule})")
    if controller(state, king) != by:
        raise Refusal(
            rule, f"only the sole King {name(state, king)}'s faction may move the victory motion ({rule})"
        )


def decide_propose(state: GameState, cmd: c.Propose) -> Decision:
    """``ORDER.invalid`` (the proposal's shape, its id), PARL.business (no Parliament;
    not the presiding faction; attendance not complete; a vote still open; not in the
    Chancery; not attending), PARL.basic (a motion without votes), PARL.two_kings /
    VICTORY.parliament (a motion's conditions), PARL.business (failed before: 3.13.9),
    DEAL.limits. Voting (default): pending until every faction with votes has voted; basic
    mode: the card goes at once."""
    rule = ids.PARL_BUSINESS
    award_shape = cmd.award is not None and cmd.to is not None and cmd.motion is None and cmd.heir is None
    motion_shape = cmd.motion in MOTIONS and cmd.award is None and cmd.to is None
    if not (award_shape or motion_shape) or (cmd.motion == SOLE_KING) != (cmd.heir is not None):
        raise invalid(
            "a proposal is a Chancery card for a noble, a sole_king motion naming a King, or the victory motion"
        )
    p = sitting(state, rule, f"{cmd.by} may not propose")
    if cmd.by != p.presides:
        raise Refusal(rule, f"{cmd.by} may not propose: {p.presides} presides, and only it proposes ({rule})")
    waiting = undeclared(state, p)
    if waiting:
        raise Refusal(rule, f"{cmd.by} may not propose yet: {_and(waiting)} must declare attendance ({rule})")
    if p.open is not None:
        raise Refusal(
            rule, f"{cmd.by} may not propose: the vote on {p.open.id} is still open, one at a time ({rule})"
        )
    if any(pr.id == cmd.id for pr in p.proposals):
        raise invalid(f"a proposal {cmd.id!r} was made in this Parliament already")
    new = Proposal(cmd.id, cmd.award or "", cmd.to or "", cmd.motion or "", cmd.heir or "")
    if cmd.award is not None and cmd.to is not None:
        _check_award(state, p, cmd.award, cmd.to)
    else:
        if basic(state):
            raise Refusal(ids.PARL_BASIC, f"a Parliament without votes hears no motions ({ids.PARL_BASIC})")
        _check_motion(state, cmd.by, cmd.motion or "", cmd.heir)
    if any(f.matter == new.matter for f in p.failed):
        raise Refusal(rule, f"{_what(state, new)} failed in this Parliament, and may not come again ({rule})")
    if cmd.award is not None and cmd.to is not None:
        problem = limits_problem(state, cmd.award, cmd.to)
        if problem is not None:
            raise Refusal(ids.DEAL_LIMITS, f"{problem} ({ids.DEAL_LIMITS})", unit=cmd.to)
    made = ev.ProposalMade(cmd.id, new.award, new.to, new.motion, new.heir)
    if basic(state):
        text = f"{cmd.by} awards {name(state, new.award)} to {name(state, new.to)} ({ids.PARL_BASIC})"
        events = (made, ev.ProposalDecided(cmd.id, 0, 0, 0, 0, True), *_carry_out(state, new))
        return Decision(Result.ACCEPTED, ids.PARL_BASIC, text, events, unit=new.to)
    voters = tuple(f for f, b in blocs(state, p).items() if b.any)
    made = replace(made, voters=voters)
    if not voters:
        return _decided(state, p, replace(new, voters=voters), (made,))
    text = (
        f"{cmd.by} proposes {_what(state, new)}: {_and(voters)} vote, each in secret until all "
        f"have voted ({rule})"
    )
    return Decision(Result.PENDING, rule, text, (made,), awaiting=voters, unit=new.to or None)


# -- votes (PARL.vote, F20, F21) ---------------------------------------------------------


def decide_vote(state: GameState, cmd: c.Vote) -> Decision:
    """``ORDER.invalid`` (a stance other than for, against, abstain), PARL.vote (no
    Parliament), PARL.basic (no votes), PARL.vote (no such open proposal; no votes to
    cast; voted already). The last vote decides the proposal, and the tally is public."""
    rule = ids.PARL_VOTE
    for house, stance in (("Lords", cmd.lords), ("Commons", cmd.commons)):
        if stance not in STANCES:
            raise invalid(f"a vote in the {house} is for, against or abstain, not {stance!r}")
    p = sitting(state, rule, f"{cmd.by} may not vote")
    if basic(state):
        raise Refusal(
            ids.PARL_BASIC, f"this Parliament has no votes: its presiding faction awards ({ids.PARL_BASIC})"
        )
    open_ = p.open
    if open_ is None or open_.id != cmd.proposal:
        known = any(pr.id == cmd.proposal for pr in p.proposals)
        why = "it has been decided" if known else "no such proposal was made"
        raise Refusal(rule, f"{cmd.by} may not vote on {cmd.proposal}: {why} ({rule})")
    if cmd.by not in open_.voters:
        raise Refusal(rule, f"{cmd.by} has no votes in this Parliament ({rule})")
    if cmd.by in open_.votes:
        raise Refusal(rule, f"{cmd.by} has voted on {cmd.proposal} already ({rule})")
    cast = ev.VoteCast(cmd.proposal, cmd.by, cmd.lords, cmd.commons)
    after = replace(open_, votes=open_.votes.set(cmd.by, (cmd.lords, cmd.commons)))
    if after.awaiting:
        text = (
            f"{cmd.by} votes on {cmd.proposal}, in secret until every voter has voted; waiting for "
            f"{_and(after.awaiting)} ({rule})"
        )
        return Decision(Result.PENDING, rule, text, (cast,), awaiting=after.awaiting)
    return _decided(state, p, after, (cast,))


def _count(t: Tally) -> str:
    return f"Lords {t.lords_for} for, {t.lords_against} against; Commons {t.commons_for} for, {t.commons_against} against"


def _decided(state: GameState, p: Parliament, pr: Proposal, first: tuple[ev.Event, ...]) -> Decision:
    """Every voter has voted: the tally, whether it passed, and what it carries out."""
    t = tally(state, p, pr.votes)
    victory = pr.motion == VICTORY
    passed = t.carries_victory if victory else t.passes
    rule = (
        ids.VICTORY_PARLIAMENT if victory else ids.PARL_TWO_KINGS if pr.motion == SOLE_KING else ids.PARL_VOTE
    )
    decided = ev.ProposalDecided(
        pr.id, t.lords_for, t.lords_against, t.commons_for, t.commons_against, passed
    )
    vote = VoteReport(
        lords={"for": t.lords_for, "against": t.lords_against},
        commons={"for": t.commons_for, "against": t.commons_against},
        passed=passed,
    )
    report = Report(vote=vote)
    count = _count(t)
    if victory:
        count += f", of {t.commons_present} present"
    if not pr.voters:
        head = "no faction in Parliament has a vote, so it fails"
    else:
        head = f"Parliament {'passed' if passed else 'rejected'} {_what(state, pr)}: {count}"
    events: list[ev.Event] = [*first, decided]
    if passed:
        more, outcome = _carry_out(state, pr), _outcome(state, pr)
        events += more
        if victory:
            report["winner"] = controller(state, sole_king(state) or "") or ""
        if pr.award and not more:
            outcome = f"{name(state, pr.to)} may no longer receive it, and it stays in the Chancery ({ids.PARL_UNAWARDED})"
        head += f": {outcome}"
    elif pr.award:
        head += f": {name(state, pr.award)} stays in the Chancery"
    return Decision(
        Result.ACCEPTED, rule, f"{head} ({rule})", tuple(events), unit=pr.to or None, report=report
    )


def _outcome(state: GameState, pr: Proposal) -> str:
    if pr.motion == SOLE_KING:
        return f"{name(state, pr.heir)} is sole King until he dies or is captured"
    if pr.motion == VICTORY:
        return f"{controller(state, sole_king(state) or '')} wins the game"
    return f"{name(state, pr.to)} is {name(state, pr.award)}"


def _carry_out(state: GameState, pr: Proposal) -> list[ev.Event]:
    """The events a passed proposal brings: the card to its noble (if he may still hold
    it), the King proclaimed, the game won."""
    if pr.motion == SOLE_KING:
        return [ev.SoleKingProclaimed(pr.heir, controller(state, pr.heir) or "")]
    if pr.motion == VICTORY:
        winner = controller(state, sole_king(state) or "") or ""
        return list(victory_motion_passed(state, winner).events)
    n = state.nobles.get(pr.to)
    if (
        pr.award not in state.chancery
        or n is None
        or n.captive_of is not None
        or limits_problem(state, pr.award, pr.to) is not None
    ):
        return []
    return [ev.AwardsMoved((pr.award,), "chancery", f"noble:{pr.to}")]


# -- closing (PARL.close, PARL.unawarded) and the turn's way past the phase ---------------


def decide_close(state: GameState, cmd: c.CloseParliament) -> Decision:
    """PARL.close: no Parliament; not the presiding faction (or the GM); a vote still
    open (the GM may close it all the same: the vote lapses)."""
    rule = ids.PARL_CLOSE
    p = sitting(state, rule, f"{'the GM' if cmd.by == c.GM else cmd.by} may not close Parliament")
    if cmd.by not in (p.presides, c.GM):
        raise Refusal(rule, f"{cmd.by} may not close Parliament: {p.presides} presides ({rule})")
    if p.open is not None and cmd.by != c.GM:
        raise Refusal(
            rule, f"{cmd.by} may not close Parliament while the vote on {p.open.id} is open ({rule})"
        )
    who = "the GM" if cmd.by == c.GM else cmd.by
    parts = [f"{who} closes Parliament at {name(state, p.seat)}"]
    if p.open is not None:
        parts.append(f"the open vote on {p.open.id} lapses")
    left = len(state.chancery)
    kept = f"{left} card{'s' if left != 1 else ''}" if left else "no card"
    parts.append(f"the Chancery keeps {kept} ({ids.PARL_UNAWARDED})")
    events: list[ev.Event] = [ev.ParliamentClosed("gm" if cmd.by == c.GM else "closed")]
    if state.phase == PARLIAMENT:
        events.append(ev.PhaseBegan("coronation"))
        parts.append(f"{state.turn}'s turn moves on to its coronation phase")
    return Decision(Result.ACCEPTED, rule, "; ".join(parts) + f" ({rule})", tuple(events))


def leaving_check(state: GameState, target: str) -> None:
    """Before the turn moves past its Parliament phase: a sitting Parliament is closed
    first (PARL.close), and a summons owed is made (PARL.summon.must). Once the turn is
    past its Parliament phase, nothing is owed any more: a summons is made only in that
    phase, and one that became owed later (a second King crowned in the coronation
    phase) could never be made (docs/rulings.md)."""
    if rank(target) <= rank(PARLIAMENT) or rank(state.phase) > rank(PARLIAMENT):
        return
    p = state.parliament
    if p is not None:
        rule = ids.PARL_CLOSE
        raise Refusal(
            rule,
            f"Parliament sits at {name(state, p.seat)}: {p.presides} closes it before the turn moves on ({rule})",
        )
    must = obliged(state)
    if must is not None:
        rule = ids.PARL_SUMMON_MUST
        raise Refusal(
            rule,
            f"{must} must summon Parliament before {state.turn}'s turn moves past its Parliament phase ({rule})",
        )


register_leaving_check(leaving_check)


def at_turn_end(state: GameState) -> tuple[list[ev.Event], list[str]]:
    """What the turn's end does to Parliament: a sitting one is dissolved (an open vote
    lapses); a summons owed and not made is said (PARL.summon.must)."""
    events: list[ev.Event] = []
    clauses: list[str] = []
    p = state.parliament
    if p is not None:
        events.append(ev.ParliamentClosed("turn_end"))
        clauses.append(
            f"Parliament at {name(state, p.seat)} is dissolved as the turn ends ({ids.PARL_CLOSE})"
        )
    must = obliged(state) if rank(state.phase) <= rank(PARLIAMENT) else None  # past it, none was owed
    if must is not None:
        clauses.append(f"{must} did not summon the Parliament it owed this turn ({ids.PARL_SUMMON_MUST})")
    return events, clauses
