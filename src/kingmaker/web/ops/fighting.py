"""The GM's steps of the full game (issue 13): the open battles and sieges with the sides
and strengths the rules count (``rules.fighting``, ``rules.sieges``) and whether the
rules would draw for each now (``decide``, which changes nothing); resolving one (the
engine's draw, on the server, through the service like any other command) with its
card, sentence and table as the reports tell it; drawing the event; ending a phase.

Nothing here is a rule: every figure is the rules', every step goes through the service."""

from __future__ import annotations

from kingmaker.render.reports import Reports, render, reports_for
from kingmaker.render.reports.document import Document, Paragraph, Table, plain
from kingmaker.render.reports.phased import told_fight
from kingmaker.rules import commands as rc
from kingmaker.rules import events as ev
from kingmaker.rules.decide import decide
from kingmaker.rules.fighting import category, present, strength
from kingmaker.rules.sieges import besiegers, defenders, held
from kingmaker.rules.state import Combat, GameState, Siege
from kingmaker.service import Actor, BadRequest
from kingmaker.service.commands import Submit

from .. import schemas as s
from .. import schemas_full as sf
from .full import card_out
from .site import Site, gm_only, key_for, outcome_out


def _side(state: GameState, nobles: tuple[str, ...], total: int) -> sf.SideOut:
    factions = sorted({f for n in nobles if (f := state.nobles[n].faction) is not None})
    return sf.SideOut(
        factions=factions,
        nobles=list(nobles),
        names=[state.catalog.name_of(n) for n in nobles],
        strength=total,
    )


def _may(state: GameState, command: rc.Command) -> tuple[bool, str | None, str]:
    """Whether the rules would take ``command`` now, and if not, why (never its outcome)."""
    d = decide(state, command)
    return (False, d.rule, d.explanation) if d.refused else (True, None, "")


def _battle(state: GameState, fight: Combat) -> sf.OpenBattleOut:
    place = state.board.places[fight.place]
    atk = tuple(a for a in fight.attackers if present(state, a, place.id))
    dfn = tuple(d for d in fight.defenders if present(state, d, place.id))
    sa, sd = strength(state, atk, place), strength(state, dfn, place)
    ready, rule, why = _may(state, rc.Battle(rc.GM, fight.id))
    return sf.OpenBattleOut(
        id=fight.id,
        place=place.id,
        place_name=place.name,
        by=fight.by,
        attacking=_side(state, atk, sa),
        defending=_side(state, dfn, sd),
        ratio=category(sa, sd) if atk and dfn else None,
        ready=ready,
        rule=rule,
        why=why,
    )


def _siege(state: GameState, siege: Siege) -> sf.OpenSiegeOut:
    place = state.board.places[siege.place]
    laying = besiegers(state, siege)
    inside = defenders(state, place.id)
    need, words = held(state, place, inside)
    ready, rule, why = _may(state, rc.SiegeAssault(rc.GM, place.id))
    return sf.OpenSiegeOut(
        place=place.id,
        place_name=place.name,
        by=siege.by,
        besieging=_side(state, laying, strength(state, laying, place)),
        inside=_side(state, inside, strength(state, inside, place)),
        garrison=place.garrison,
        held=need,
        held_words=words,
        round=siege.round,
        turn=siege.turn,
        last_draw_round=siege.last_draw_round,
        ready=ready,
        rule=rule,
        why=why,
    )


def fighting(site: Site, actor: Actor, game: str) -> sf.FightingOut:
    """The open battles (accepted attacks) and sieges in progress (the GM's)."""
    gm_only(actor)
    state = site.svc.state(game)
    return sf.FightingOut(
        phase=state.phase,
        round=state.round,
        turn=state.turn,
        battles=[_battle(state, c) for c in state.combats if c.kind == "attack"] if state.phased else [],
        sieges=[_siege(state, x) for x in state.sieges.values()],
    )


def resolve(site: Site, actor: Actor, game: str, body: sf.ResolveIn, key: str | None) -> sf.ResolvedOut:
    """The engine's draw for a battle (``attack``) or a siege (``place``), and what it did."""
    gm_only(actor)
    if (body.attack is None) == (body.place is None):
        raise BadRequest("name either an attack (a battle) or a besieged place (a siege)")
    command: rc.Command = (
        rc.Battle(rc.GM, body.attack) if body.attack is not None else rc.SiegeAssault(rc.GM, body.place or "")
    )
    out = site.svc.execute(actor, Submit(game, command), key_for(actor, key))
    kind = "battle" if body.attack is not None else "siege"
    resolved = sf.ResolvedOut(outcome=outcome_out(out, actor), kind=kind)
    if out.first_seq is None or out.last_seq is None:
        return resolved
    ctx = reports_for(site.svc, game)
    doc = fight_document(ctx, out.last_seq)
    if doc is None:
        return resolved
    card = _card(ctx, out.first_seq, out.last_seq)
    first = doc.blocks[0]
    table = next((b for b in doc.blocks if isinstance(b, Table)), None)
    return resolved.model_copy(
        update={
            "card": card_out(ctx.timeline.initial.catalog, card) if card else None,
            "sentence": plain(first.content) if isinstance(first, Paragraph) else "",
            "table": [[plain(c) for c in row] for row in (table.header, *table.rows)] if table else [],
            "report": render(doc, "markdown"),
        }
    )


def _card(ctx: Reports, first: int, last: int) -> str | None:
    for env in ctx.timeline.envelopes:
        if first <= env.seq <= last and isinstance(env.event, ev.CardDrawn) and env.event.deck == "event":
            return env.event.card
    return None


def fight_document(ctx: Reports, seq: int) -> Document | None:
    """The paragraph and table of the battle or siege draw whose entries include ``seq``
    (the GM's: every entry is read)."""
    envs = ctx.timeline.envelopes
    at = next((e for e in envs if e.seq == seq), None)
    if at is None or at.command is None:
        return None
    group = [e for e in envs if e.command == at.command]
    told = told_fight(ctx, group)
    return Document(tuple(told.blocks)) if told is not None else None


def draw_event(site: Site, actor: Actor, game: str, key: str | None) -> s.OutcomeOut:
    gm_only(actor)
    return site.run(actor, Submit(game, rc.DrawEvent(rc.GM)), key_for(actor, key))


def end_phase(site: Site, actor: Actor, game: str, key: str | None) -> s.OutcomeOut:
    gm_only(actor)
    return site.run(actor, Submit(game, rc.EndPhase(rc.GM)), key_for(actor, key))
