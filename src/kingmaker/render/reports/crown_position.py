"""The end of the game in the position and the private report (issue 14): the winner
once the game is over, the Kings reigning, Parliament while it sits (seat, summons, who
presides, attendance, proposals: an open one's votes as the viewer may see them), and
what Parliament waits for from a faction, with the replies to type.

From the ``View`` only (the position), and from the rules on the state as the faction
may see it (``as_seen_by``: what it still has to do)."""

from __future__ import annotations

from kingmaker.rules import commands as c
from kingmaker.rules import ids
from kingmaker.rules.parliament import attend_problem, obliged, undeclared
from kingmaker.rules.state import GameState, Parliament, Proposal
from kingmaker.rules.views import SECRET_VOTE, View

from .document import Block, Code, Item, Parts, bold, bullets, heading, inlines, item, joined, para
from .naming import Names
from .order_text import Describe
from .parliament import _SUMMONS, Sentence, _and, _factions, game_over_sentence, own_vote, proposal_words

# -- the position: Parliament sitting, the Kings, the end of the game ---------------------------


def game_over_blocks(v: View, n: Names) -> list[Block]:
    """The end of the game, at the top of the position: the winner and the rule."""
    if not v.game_over:
        return []
    return [para(game_over_sentence(n, v.game_over, v.winner), f" [{v.game_over}]")]


def crown_position(v: View, n: Names, level: int) -> list[Block]:
    """The Kings reigning, and Parliament while it sits (seat, summons, who presides,
    attendance, proposals: an open one's votes as ``v``'s viewer may see them)."""
    out: list[Block] = [heading(level, "Kings"), para(*_kings(v, n))]
    if v.parliament is not None:
        out += [heading(level, "Parliament"), *_sitting(v, n, v.parliament)]
    elif v.summoned is not None and not v.game_over and _peace_holds(v):
        s = v.summoned
        out.append(
            para(
                f"The King's Peace holds at {n.place(s.seat)} until ",
                n.possessive(s.summoner),
                f" next turn begins ({ids.PARL_PEACE}).",
            )
        )
    return out


def _peace_holds(v: View) -> bool:
    s = v.summoned
    if s is None or v.turn not in v.turn_order:
        return False
    return (v.round, v.turn_order.index(v.turn)) < (s.until_round, s.until_index)


def _keeper(v: View, heir: str) -> str | None:
    h = next((x for x in v.heirs if x.id == heir), None)
    if h is None or h.with_noble is None:
        return None
    noble = next((x for x in v.nobles if x.id == h.with_noble), None)
    return noble.faction if noble is not None and noble.captive_of is None else None


def _king(v: View, n: Names, heir: str) -> Sentence:
    h = next((x for x in v.heirs if x.id == heir), None)
    house = f" (house of {h.house.capitalize()})" if h is not None else ""
    keeper = _keeper(v, heir)
    kept = inlines(", kept by ", n.faction(keeper)) if keeper else inlines(", unescorted")
    return inlines(f"{n.unit(heir)}{house}", kept)


def _kings(v: View, n: Names) -> Sentence:
    kings = sorted(h.id for h in v.heirs if h.crowned)
    if not kings:
        return inlines("No King reigns.")
    if len(kings) == 1:
        return inlines("The sole King: ", _king(v, n, kings[0]), ".")
    both = joined([_king(v, n, k) for k in kings], "; ")
    if v.proclaimed:
        return inlines(
            "Two Kings reign: ",
            both,
            f". {n.unit(v.proclaimed)} is sole King by Parliament's motion until he dies or is captured ({ids.PARL_TWO_KINGS}).",
        )
    return inlines("Two Kings reign: ", both, f"; there is no sole King ({ids.PARL_TWO_KINGS}).")


def _sitting(v: View, n: Names, p: Parliament) -> list[Block]:
    how = _SUMMONS.get(p.rule, "")
    head = para(
        f"Parliament {'sat' if v.game_over else 'sits'} at {n.place(p.seat)}, summoned by ",
        n.faction(p.summoner),
        f" {how}" if how else "",
        f" ({p.rule}); ",
        n.faction(p.presides),
        f" presides ({ids.PARL_PRESIDES}).",
    )
    attending: list[Item] = []
    order = [p.presides, *(f for f in v.turn_order if f != p.presides)]
    for f in order:
        if f in p.attending:
            nobles = p.attending[f]
            who = _and([n.unit(x) for x in nobles]) if nobles else "no noble"
            attending.append(item(n.faction(f), f": {who}"))
        else:
            attending.append(item(n.faction(f), ": not declared yet"))
    proposals = [_proposal_item(v, n, pr) for pr in p.proposals]
    return [
        head,
        para(bold("Attending"), f" ({ids.PARL_ATTEND}):"),
        bullets(attending),
        para(bold("Proposals"), f" ({ids.PARL_BUSINESS}):"),
        bullets(proposals) if proposals else para("None yet."),
    ]


def _proposal_item(v: View, n: Names, pr: Proposal) -> Item:
    what = inlines(Code(pr.id), f": {proposal_words(n, pr)}")
    if pr.outcome:
        lf, la, cf, ca = pr.tally
        return item(what, f" — {pr.outcome}: Lords {lf} for, {la} against; Commons {cf} for, {ca} against.")
    voted = [f for f in pr.voters if f in pr.votes]
    parts: list[Parts] = [what, " — voting"]
    if voted:
        parts += ["; voted: ", _factions(n, voted)]
    if pr.awaiting:
        parts += ["; waiting for ", _factions(n, pr.awaiting)]
    parts.append(f" (votes are secret until all have voted: {ids.PARL_VOTE}).")
    children = []
    for f in voted:
        lords, commons = pr.votes[f]
        if (lords, commons) == SECRET_VOTE:
            continue
        whose = inlines("Your vote") if f == v.viewer else inlines(n.possessive(f), " vote")
        children.append(item(whose, f": {own_vote(lords, commons)}."))
    return item(*parts, children=children)


# -- what Parliament waits for from a faction (its private report) ------------------------------


def parliament_awaiting(v: View, state: GameState, faction: str, n: Names, describe: Describe) -> list[Item]:
    """What Parliament waits for from ``faction`` now, with the replies to type: its
    attendance (in the order of PARL.attend), its vote on the open proposal (PARL.vote),
    the presiding faction's next proposal or its close (PARL.business, PARL.close); or a
    summons it owes (PARL.summon.must). ``v``: its view; ``state``: as it may see it."""
    p = v.parliament
    if v.game_over:
        return []
    if p is None:
        owed = obliged(state) if state.phase == "parliament" else None
        if owed != faction:
            return []
        return [
            item(
                f"You must summon Parliament this turn, to a city or town you control ({ids.PARL_SUMMON_MUST})."
            )
        ]
    out: list[Item] = []
    if faction in undeclared(state, p):
        first = undeclared(state, p)[0]
        mine = [x.id for x in v.nobles if x.faction == faction and attend_problem(state, x.id) is None]
        reply = describe(c.Attend(faction, tuple(sorted(mine))), state)
        ahead = undeclared(state, p)[: undeclared(state, p).index(faction)]
        turn = "now" if first == faction else f"after {_and(list(ahead))}"
        out.append(
            item(
                f"Parliament waits for your attendance ({turn}; {ids.PARL_ATTEND}): name the nobles you send, e.g. ",
                Code(reply),
                ", or none.",
            )
        )
    open_ = p.open
    if open_ is not None and faction in open_.awaiting:
        codes = [
            Code(describe(c.Vote(faction, open_.id, x, x), state)) for x in ("for", "against", "abstain")
        ]
        out.append(
            item(
                "Parliament waits for your vote on ",
                Code(open_.id),
                f", {proposal_words(n, open_)} ({ids.PARL_VOTE}): reply ",
                codes[0],
                ", ",
                codes[1],
                " or ",
                codes[2],
                " (or a different stance in each house); it stays secret until every voter has voted.",
            )
        )
    if p.presides == faction and open_ is None and not undeclared(state, p):
        close = describe(c.CloseParliament(faction), state)
        out.append(
            item(
                f"You preside: propose a Chancery card for an attending noble, or a motion ({ids.PARL_BUSINESS}), "
                "or close Parliament: ",
                Code(close),
                f" ({ids.PARL_CLOSE}).",
            )
        )
    return out
