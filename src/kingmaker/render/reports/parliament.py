"""The end of the game in the reports (issue 14): Parliament's sitting (its summons, the
attendance, each proposal, the votes and the tally by house, what passed, its close),
coronations, Kings proclaimed, nobles and ships coming into play from a hand, the count
of a King kept, and the game's end with its winner; and the position's part of it
(Parliament sitting, the Kings, the winner).

A sentence says what its entry holds (the figures it repeats were counted by the rules);
which entries a viewer reads is decided before, by ``visible_log``: a vote is its
voter's until the proposal is decided, then public with the tally. Once decided, the
votes are told together, in the decision's table (``told_sitting``), and their own
entries are left out of the list (``folded_votes``). The blocs in the table are counted
by the rules (``rules.votes``) on the state as the viewer may see it (``as_seen_by``);
every vote they show is public by then."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kingmaker.log.envelope import Envelope
from kingmaker.rules import events as ev
from kingmaker.rules import ids
from kingmaker.rules.coronation import clergy
from kingmaker.rules.kings import crowned, sole_king
from kingmaker.rules.records import Record
from kingmaker.rules.state import GameState, Parliament, Proposal
from kingmaker.rules.views import SECRET_VOTE, as_seen_by, view
from kingmaker.rules.votes import Bloc, blocs

from .context import Reports
from .document import (
    Block,
    Code,
    Inline,
    Parts,
    bold,
    inlines,
    joined,
    para,
    table,
)
from .fighting import Told
from .naming import Names

Sentence = tuple[Inline, ...]

END_EVENTS = (
    ev.NobleEntered,
    ev.ShipEntered,
    ev.HeirCrowned,
    ev.SoleKingProclaimed,
    ev.ProclamationEnded,
    ev.KingHeldCounted,
    ev.HousesHeldCounted,
    ev.GameEnded,
    ev.ParliamentSummoned,
    ev.AttendanceDeclared,
    ev.ProposalMade,
    ev.VoteCast,
    ev.ProposalDecided,
    ev.ParliamentClosed,
)

SOLE_KING, VICTORY = "sole_king", "victory"

# how each rule of summons reads (PARL.summon.*)
_SUMMONS = {
    ids.PARL_SUMMON_KING: "as the faction of the sole King",
    ids.PARL_SUMMON_CHANCELLOR: "as the Chancellor's faction, after this turn's Parliament event",
    ids.PARL_SUMMON_MUST: "as this turn's Parliament event obliged it",
}
_CELL = {"for": "for", "against": "against", "abstain": "abstains"}


def is_end(env: Envelope) -> bool:
    """Whether ``end_sentence`` tells ``env``."""
    return isinstance(env.event, END_EVENTS)


def _and(words: Sequence[str]) -> str:
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _factions(n: Names, factions: Sequence[str]) -> Sentence:
    """``Red, Blue and Green`` in their colours."""
    fs = list(factions)
    if len(fs) <= 1:
        return n.factions_list(fs)
    return inlines(joined([n.faction(f) for f in fs[:-1]]), " and ", n.faction(fs[-1]))


# -- sentences --------------------------------------------------------------------------------


def end_sentence(env: Envelope, n: Names, before: GameState) -> Sentence | None:
    """The sentence of an end-of-game entry (``END_EVENTS``); ``before``: the state
    before it. Its rule id is the entry's, which the report adds."""
    e = env.event
    return _crown(e, n, before) or _parliament(e, n, before)


def _crown(e: Record, n: Names, before: GameState) -> Sentence | None:
    match e:
        case ev.NobleEntered(noble=noble, faction=faction, place=place, inside=inside):
            where = f"inside {n.place(place)}" if inside else f"in the open at {n.place(place)}"
            return inlines(f"{n.unit(noble)} enters play for ", n.faction(faction), f" {where}.")
        case ev.ShipEntered(ship=ship, faction=faction, port=port):
            return inlines(
                f"{n.unit(ship)} comes into play for ", n.faction(faction), f", in port at {n.place(port)}."
            )
        case ev.HeirCrowned(heir=heir):
            return coronation_sentence(n, before, heir)
        case ev.SoleKingProclaimed(king=king, faction=faction):
            return inlines(
                f"{n.unit(king)}, kept by ",
                n.faction(faction),
                ", is sole King until he dies or is captured.",
            )
        case ev.ProclamationEnded(king=king, reason=reason):
            why = "dies" if reason == "died" else "is captured"
            return inlines(f"{n.unit(king)} {why}: he is no longer sole King.")
        case ev.KingHeldCounted(king=king, faction=faction, turns=turns):
            if not turns:
                return inlines("No faction keeps a sole King now: the count of turns starts again.")
            return inlines(
                n.faction(faction),
                f" has kept {n.unit(king)}, the sole King, at the end of {turns} turn{'s' if turns != 1 else ''} in a row.",
            )
        case ev.HousesHeldCounted(faction=faction, turns=turns):
            if not turns:
                return inlines(
                    "The count of ", n.possessive(faction), " turns with heirs of both houses starts again."
                )
            return inlines(
                n.faction(faction),
                f" has ended {turns} of its turns in a row controlling heirs of both houses.",
            )
        case ev.GameEnded(rule=rule, winner=winner):
            return game_over_sentence(n, rule, winner or "")
    return None


def coronation_sentence(n: Names, before: GameState, heir: str) -> Sentence:
    """``Richard, Duke of York is crowned King at York by the Archbishop of Canterbury,
    escorted by Mowbray of Green; he is the sole King.`` (``before``: the state before
    the coronation; the clergy are the crowning faction's nobles' sees there, F22.)"""
    h = before.heirs.get(heir)
    escort = before.nobles.get(h.with_noble) if h is not None and h.with_noble else None
    if escort is None or escort.place is None:
        return inlines(f"{n.unit(heir)} is crowned King.")
    faction = escort.faction
    arch, bishops = clergy(before, faction or "", escort.place)
    by = arch[:1] if arch else bishops[:2]
    clergy_words = f" by {_and([f'the {n.card(s)}' for s in by])}" if by else ""
    others = [k for k in crowned(before) if k != heir]
    reign: Sentence = (
        inlines(f"; England has two Kings, {n.unit(others[0])} and {n.unit(heir)}, and no sole King")
        if len(others) == 1
        else inlines("; he is the sole King")
    )
    return inlines(
        bold(f"{n.unit(heir)} is crowned King"),
        f" at {n.place(escort.place)}{clergy_words}, escorted by {n.unit(escort.id)} of ",
        n.faction(faction),
        reign,
        ".",
    )


_VICTORIES = {
    ids.VICTORY_LAST_HEIR: "the last living heir of both houses, crowned and in England, is in its keeping",
    ids.VICTORY_BEAUFORT: "only an uncrowned Beaufort and a crowned King of York in England live, and it keeps the King",
    ids.VICTORY_HOLD: "it has kept the sole King for the turns the game asks",
    ids.VICTORY_PARLIAMENT: "Parliament passed its victory motion",
}


def game_over_sentence(n: Names, rule: str, winner: str) -> Sentence:
    """``The game is over. Red wins the game: Parliament passed its victory motion.``"""
    if not winner:
        return inlines(bold("The game is over."), " No heir of either house lives, and no faction wins.")
    why = _VICTORIES.get(rule, "")
    return inlines(
        bold("The game is over. ", n.faction(winner), " wins the game"), f": {why}." if why else "."
    )


def _parliament(e: Record, n: Names, before: GameState) -> Sentence | None:
    p = before.parliament
    match e:
        case ev.ParliamentSummoned(seat=seat, summoner=summoner, presides=presides, rule=rule):
            why = _SUMMONS.get(rule, "")
            king = before.heirs.get(sole_king(before) or "") if rule == ids.PARL_SUMMON_KING else None
            if king is not None:
                why += f", {n.unit(king.id)}"
            return inlines(
                n.faction(summoner),
                f" summons Parliament to {n.place(seat)}",
                f" {why}" if why else "",
                "; ",
                n.faction(presides),
                " presides. The King's Peace holds at ",
                n.place(seat),
                " until ",
                n.possessive(summoner),
                f" next turn begins ({ids.PARL_PEACE}).",
            )
        case ev.AttendanceDeclared(faction=faction, nobles=nobles):
            if not nobles:
                return inlines(n.faction(faction), " sends no noble to Parliament.")
            votes = ""
            if p is not None:
                b = _blocs(replace(before, parliament=replace(p, attending=p.attending.set(faction, nobles))))
                mine = b.get(faction)
                if mine is not None:
                    votes = f"; {_votes(mine)}"
            return inlines(
                n.faction(faction), f" attends Parliament with {_and([n.unit(x) for x in nobles])}{votes}."
            )
        case ev.ProposalMade(proposal=pid, voters=voters):
            pr = Proposal(pid, e.award, e.to, e.motion, e.heir)
            who = p.presides if p is not None else None
            vote: Sentence = (
                inlines("; ", _factions(n, voters), " vote, each in secret until all have voted")
                if voters
                else ()
            )
            return inlines(
                n.faction(who), " proposes ", proposal_words(n, pr), " (", Code(pid), ")", vote, "."
            )
        case ev.VoteCast(proposal=pid, faction=faction, lords=lords, commons=commons):
            open_ = p.open if p is not None else None
            what = f" ({proposal_words(n, open_)})" if open_ is not None and open_.id == pid else ""
            return inlines(
                n.possessive(faction),
                " vote on ",
                Code(pid),
                f"{what}: {own_vote(lords, commons)} (secret until every voter has voted).",
            )
        case ev.ProposalDecided():
            pr = p.proposals[-1] if p is not None and p.proposals else Proposal(e.proposal)
            return decision_sentence(n, e, pr, _present(before, p))
        case ev.ParliamentClosed(reason=reason):
            return closed_sentence(n, before, reason)
    return None


def closed_sentence(n: Names, before: GameState, reason: str) -> Sentence:
    """``Red closes Parliament at Ipswich; the Chancery keeps 5 cards.``"""
    p = before.parliament
    where = f" at {n.place(p.seat)}" if p is not None else ""
    left = len(before.chancery)
    kept = (
        f"; the Chancery keeps {left} card{'s' if left != 1 else ''}" if left else "; the Chancery is empty"
    )
    lapses = f"; the open vote on {p.open.id} lapses" if p is not None and p.open is not None else ""
    if reason == "closed" and p is not None:
        head: Sentence = inlines(n.faction(p.presides), f" closes Parliament{where}")
    elif reason == "gm":
        head = inlines(f"The GM closes Parliament{where}")
    else:
        head = inlines(f"Parliament{where} is dissolved as the turn ends")
    return inlines(head, lapses, kept, f" ({ids.PARL_UNAWARDED}).")


def proposal_words(n: Names, pr: Proposal) -> str:
    """``Marshal of England for Pole``; ``the motion that Henry VI be sole King``; ``the
    victory motion``."""
    if pr.motion == SOLE_KING:
        return f"the motion that {n.unit(pr.heir)} be sole King"
    if pr.motion == VICTORY:
        return "the victory motion"
    return f"{n.card(pr.award)} for {n.unit(pr.to)}"


def own_vote(lords: str, commons: str) -> str:
    """``for``, in both houses; ``for in the Lords, abstain in the Commons``."""
    if lords == commons:
        return f"{lords}, in both houses"
    return f"{lords} in the Lords, {commons} in the Commons"


def _votes(b: Bloc) -> str:
    return f"its votes: Lords {b.lords}, Commons {b.commons}"


def _blocs(state: GameState) -> dict[str, Bloc]:
    p = state.parliament
    return blocs(state, p) if p is not None else {}


def _present(state: GameState, p: Parliament | None) -> int:
    """The Commons votes present (F21): every faction's bloc in the sitting."""
    return sum(b.commons for b in blocs(state, p).values()) if p is not None else 0


def _count(e: ev.ProposalDecided) -> str:
    return (
        f"Lords {e.lords_for} for, {e.lords_against} against; "
        f"Commons {e.commons_for} for, {e.commons_against} against"
    )


def decision_sentence(n: Names, e: ev.ProposalDecided, pr: Proposal, present: int) -> Sentence:
    """``Parliament passed Marshal of England for Pole (m1): Lords 31 for, 1 against;
    Commons 39 for, 9 against.`` (abstentions are not counted: F20; the victory motion's
    Commons for must be above half of those present: F21)."""
    what = proposal_words(n, pr)
    if not pr.voters and not (e.lords_for or e.lords_against or e.commons_for or e.commons_against):
        if e.passed:  # basic mode: awarded without votes
            return inlines(
                bold(f"Parliament awarded {n.card(pr.award)} to {n.unit(pr.to)}"),
                " (",
                Code(e.proposal),
                "), without votes.",
            )
        return inlines(
            bold(f"Parliament rejected {what}"), " (", Code(e.proposal), "): no faction in it has a vote."
        )
    verdict = "passed" if e.passed else "rejected"
    count = _count(e)
    if pr.motion == VICTORY:
        count += f", of {present} present"
    return inlines(bold(f"Parliament {verdict} {what}"), " (", Code(e.proposal), f"): {count}.")


# -- the votes folded into the decision -------------------------------------------------------


def folded_votes(entries: Sequence[Envelope]) -> list[Envelope]:
    """``entries`` without the votes on proposals decided among them (the decision's
    table tells them); the votes on a proposal still open, or one that lapsed, stay."""
    decided: set[tuple[int, str]] = set()
    sitting = 0
    for env in entries:
        if isinstance(env.event, ev.ParliamentSummoned):
            sitting += 1
        elif isinstance(env.event, ev.ProposalDecided):
            decided.add((sitting, env.event.proposal))
    if not decided:
        return list(entries)
    out = []
    sitting = 0
    for env in entries:
        e = env.event
        if isinstance(e, ev.ParliamentSummoned):
            sitting += 1
        if isinstance(e, ev.VoteCast) and (sitting, e.proposal) in decided:
            continue
        out.append(env)
    return out


def told_sitting(ctx: Reports, group: Sequence[Envelope], viewer: str) -> Told | None:
    """The paragraph and the table of a proposal decided among ``group`` (the entries
    one command wrote): the tally by house, each faction's vote in each house, and what a
    passed proposal carries out; or None."""
    decided = next((env for env in group if isinstance(env.event, ev.ProposalDecided)), None)
    if decided is None:
        return None
    e = decided.event
    assert isinstance(e, ev.ProposalDecided)
    tl, n = ctx.timeline, ctx.names
    before = tl.state_before(decided.seq)
    p = before.parliament
    if p is None or not p.proposals:
        return None
    pr = p.proposals[-1]
    seen = view(tl.state_after(decided.seq), viewer).parliament  # decided: its votes are public
    votes = dict(next((x.votes for x in seen.proposals if x.id == pr.id), {})) if seen is not None else {}
    bloc = _blocs(as_seen_by(before, viewer))
    present = sum(b.commons for b in bloc.values())
    covered = {decided.seq}
    outcome: list[Parts] = []
    for env in group:
        x = env.event
        if isinstance(x, ev.VoteCast):
            covered.add(env.seq)
        elif isinstance(x, ev.AwardsMoved) and x.source == "chancery" and x.cards == (pr.award,):
            covered.add(env.seq)
            outcome.append(f" {n.card(pr.award)} goes to {n.unit(pr.to)}.")
        elif isinstance(x, ev.SoleKingProclaimed):
            covered.add(env.seq)
            outcome += [
                f" {n.unit(x.king)}, kept by ",
                n.faction(x.faction),
                ", is sole King until he dies or is captured.",
            ]
    if e.passed and pr.award and not outcome and pr.voters:
        outcome.append(
            f" {n.unit(pr.to)} may no longer hold it, and it stays in the Chancery ({ids.PARL_UNAWARDED})."
        )
    elif not e.passed and pr.award:
        outcome.append(f" {n.card(pr.award)} stays in the Chancery ({ids.PARL_UNAWARDED}).")
    elif not e.passed and pr.motion == VICTORY and e.lords_for > e.lords_against:
        outcome.append(f" The victory motion needs Commons for above half of those present ({present}).")
    if any("abstain" in stances for stances in votes.values()):
        outcome.append(" Abstentions are not counted (F20).")
    rule = f" [{decided.rule}]" if decided.rule else ""
    blocks: list[Block] = [para(decision_sentence(n, e, pr, present), *outcome, rule)]
    if pr.voters:
        blocks.append(_tally_table(n, e, pr, votes, bloc, present))
    return Told(blocks, frozenset(covered))


def _cell(stance: str, votes: int) -> str:
    if not stance:
        return "?"
    return f"{_CELL.get(stance, stance)} ({votes})"


def _tally_table(
    n: Names,
    e: ev.ProposalDecided,
    pr: Proposal,
    votes: dict[str, tuple[str, str]],
    bloc: dict[str, Bloc],
    present: int,
) -> Block:
    rows: list[list[Parts]] = []
    for f in pr.voters:
        lords, commons = votes.get(f, SECRET_VOTE)
        b = bloc.get(f, Bloc())
        rows.append([n.faction(f), _cell(lords, b.lords), _cell(commons, b.commons)])
    commons_count = f"{e.commons_for} for, {e.commons_against} against"
    if pr.motion == VICTORY:
        commons_count += f", of {present} present"
    rows.append(["Counted", f"{e.lords_for} for, {e.lords_against} against", commons_count])
    return table([f"Proposal {pr.id}", "Lords", "Commons"], rows)
