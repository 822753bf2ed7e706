"""Parliament as the caller sees it (issue 14), and its steps: the sitting from
``view(state, viewer)`` (an open proposal's votes are secret but the caller's own; the
tally of each decided proposal is public; the Chancery's cards are the presiding
faction's), each faction's bloc (``rules.votes``: from what is public), and what the
caller may do (``rules.choices.parliament_choices``, judged by ``decide``): summon,
declare its attendance, propose, vote, close. Each step is one rules command through
the service."""

from __future__ import annotations

from kingmaker.orders_text.parliament_orders import matter
from kingmaker.rules import commands as rc
from kingmaker.rules.choices import Choice, parliament_choices, proposal_id, summons_id
from kingmaker.rules.commands import GM
from kingmaker.rules.duties import duties_of
from kingmaker.rules.parliament import undeclared
from kingmaker.rules.state import GameState, Proposal
from kingmaker.rules.views import View, view
from kingmaker.rules.votes import blocs
from kingmaker.service import Actor, BadRequest
from kingmaker.service.commands import Submit

from .. import schemas as s
from .. import schemas_end as se
from .crown import choice_out, crown_choices, duty_out, faction_for, hand, step_by
from .full import card_out
from .site import Site, key_for


def parliament(site: Site, actor: Actor, game: str, faction: str | None = None) -> se.ParliamentOut:
    """The sitting (or the last summons' King's Peace) as the caller may see it."""
    who = site.viewer(actor, game, faction)
    state = site.svc.state(game)
    return parliament_out(state, view(state, who))


def parliament_out(state: GameState, v: View) -> se.ParliamentOut:
    name = state.catalog.name_of
    board = state.board
    peace = None
    sm = v.summoned
    if sm is not None:
        order = state.turn_order
        peace = se.PeaceOut(
            seat=sm.seat,
            seat_name=board.name_of(sm.seat),
            summoner=sm.summoner,
            round=sm.round,
            until_round=sm.until_round,
            until_turn=order[sm.until_index] if 0 <= sm.until_index < len(order) else "",
        )
    p = v.parliament
    if p is None:
        return se.ParliamentOut(sitting=False, chancery_size=v.chancery_size, peace=peace)
    real = state.parliament
    attendance = [
        se.AttendanceOut(
            faction=f,
            declared=f in p.attending,
            nobles=list(p.attending.get(f, ())),
            names=[name(n) for n in p.attending.get(f, ())],
        )
        for f in (p.presides, *(x for x in state.turn_order if x != p.presides))
    ]
    counted = blocs(state, real) if real is not None else {}
    shows_chancery = v.viewer == GM or v.viewer == p.presides
    return se.ParliamentOut(
        sitting=True,
        id=p.id,
        seat=p.seat,
        seat_name=board.name_of(p.seat),
        summoner=p.summoner,
        presides=p.presides,
        rule=p.rule,
        attendance=attendance,
        to_declare=list(undeclared(state, real)) if real is not None else [],
        blocs=[se.BlocOut(faction=f, lords=b.lords, commons=b.commons) for f, b in counted.items()],
        proposals=[_proposal(state, pr, v.viewer) for pr in p.proposals],
        open=p.open.id if p.open is not None else None,
        chancery_size=v.chancery_size,
        chancery=[card_out(state.catalog, c) for c in v.chancery] if shows_chancery else None,
        peace=peace,
    )


def _proposal(state: GameState, pr: Proposal, viewer: str) -> se.ProposalOut:
    """A proposal as ``viewer`` sees it (``pr`` is already the view's: another's vote on
    an open proposal reads ("", ""))."""
    votes = [
        se.VoteOut(faction=f, lords=lords, commons=commons)
        for f, (lords, commons) in pr.votes.items()
        if pr.outcome or viewer in (f, GM)
    ]
    lf, la, cf, ca = pr.tally
    return se.ProposalOut(
        id=pr.id,
        matter=matter(state, pr),
        award=pr.award or None,
        to=pr.to or None,
        motion=pr.motion or None,
        heir=pr.heir or None,
        voters=list(pr.voters),
        voted=[f for f in pr.voters if f in pr.votes],
        awaiting=list(pr.awaiting),
        votes=votes,
        outcome=pr.outcome,
        tally=se.TallyOut(lords_for=lf, lords_against=la, commons_for=cf, commons_against=ca)
        if pr.outcome
        else None,
    )


def parliament_choices_out(state: GameState, faction: str) -> se.ParliamentChoicesOut:
    pc = parliament_choices(state, faction)
    proposals = [ch for ch in pc.proposals if ch.allowed]
    refused = next((ch for ch in pc.proposals if not ch.allowed), None)
    return se.ParliamentChoicesOut(
        summon=[choice_out(state, ch) for ch in pc.summon if ch.allowed],
        attend=pc.attend is not None and pc.attend.allowed,
        attend_why=pc.attend.explanation if pc.attend is not None and not pc.attend.allowed else "",
        attendees=[
            se.AttendeeOut(noble=n, name=state.catalog.name_of(n), may=not why, why=why)
            for n, why in pc.attendees
        ],
        proposals=[_proposal_choice(state, ch) for ch in proposals],
        propose_why=refused.explanation if refused is not None and not proposals else "",
        vote=pc.vote is not None and pc.vote.allowed,
        close=pc.close is not None and pc.close.allowed,
    )


def _proposal_choice(state: GameState, ch: Choice) -> se.ChoiceOut:
    """A proposal the presiding faction may make: its target is what it proposes."""
    assert isinstance(ch.command, rc.Propose)
    cmd = ch.command
    out = choice_out(state, ch)
    if cmd.motion == "victory":
        return out.model_copy(update={"target": "victory", "target_name": "the victory motion"})
    if cmd.motion == "sole_king":
        king = state.catalog.name_of(cmd.heir or "")
        return out.model_copy(
            update={"target": f"sole_king:{cmd.heir}", "target_name": f"{king} as sole King"}
        )
    award, to = cmd.award or "", cmd.to or ""
    what = f"{state.catalog.name_of(award)} for {state.catalog.name_of(to)}"
    return out.model_copy(update={"target": f"{award}:{to}", "target_name": what})


def choices(site: Site, actor: Actor, game: str, faction: str | None = None) -> se.ChoicesOut:
    """What the caller (the GM: the faction it names) may do now, judged by the rules."""
    who = faction_for(site, actor, game, faction)
    state = site.svc.state(game)
    return se.ChoicesOut(
        faction=who,
        hand=hand(state, who),
        coronations=crown_choices(state, who),
        parliament=parliament_choices_out(state, who),
        duties=[duty_out(d) for d in duties_of(state, who)],
    )


# -- the steps --------------------------------------------------------------------------------
def _run(site: Site, actor: Actor, game: str, command: rc.Command, key: str | None) -> s.OutcomeOut:
    return site.run(actor, Submit(game, command), key_for(actor, key))


def _own_id(by: str, chosen: str | None, default: str) -> str:
    """A chosen id kept under the player's faction (as every id a player chooses)."""
    if not chosen:
        return default
    return chosen if by == GM or chosen.startswith(f"{by}-") else f"{by}-{chosen}"


def summon(site: Site, actor: Actor, game: str, body: se.SummonIn, key: str | None) -> s.OutcomeOut:
    by = step_by(actor, body.by)
    ident = _own_id(by, body.id, summons_id(site.svc.state(game), by))
    return _run(site, actor, game, rc.SummonParliament(by, ident, body.seat), key)


def attend(site: Site, actor: Actor, game: str, body: se.AttendIn, key: str | None) -> s.OutcomeOut:
    return _run(site, actor, game, rc.Attend(step_by(actor, body.by), tuple(body.nobles)), key)


def propose(site: Site, actor: Actor, game: str, body: se.ProposeIn, key: str | None) -> s.OutcomeOut:
    by = step_by(actor, body.by)
    ident = _own_id(by, body.id, proposal_id(site.svc.state(game)))
    cmd = rc.Propose(by, ident, award=body.award, to=body.to, motion=body.motion, heir=body.heir)
    return _run(site, actor, game, cmd, key)


def vote(site: Site, actor: Actor, game: str, body: se.VoteIn, key: str | None) -> s.OutcomeOut:
    """One stance for both houses (``stance``), or one for each (``lords``, ``commons``)."""
    by = step_by(actor, body.by)
    lords = body.lords or body.stance
    commons = body.commons or body.stance
    if lords is None or commons is None:
        raise BadRequest("say how you vote: stance (both houses), or lords and commons")
    return _run(site, actor, game, rc.Vote(by, body.proposal, lords, commons), key)


def close(site: Site, actor: Actor, game: str, body: se.CloseIn, key: str | None) -> s.OutcomeOut:
    by = GM if actor.is_gm and not body.by else step_by(actor, body.by)
    return _run(site, actor, game, rc.CloseParliament(by), key)
