"""The caller's hand, heirs and duties (issue 14): each card with the targets the rules
allow for it now (``rules.choices.hand_choices``: assign, enter play, play a held
card), the coronations of its heirs (``rules.choices.coronations``), what each faction
still has to do (``rules.duties``), and the steps themselves, each one rules command
through the service. The rules judge every choice: the pages offer only what they allow."""

from __future__ import annotations

from kingmaker.rules import commands as rc
from kingmaker.rules.choices import Choice, coronations, hand_choices
from kingmaker.rules.commands import GM
from kingmaker.rules.duties import Duty, duties, duties_of
from kingmaker.rules.state import GameState
from kingmaker.rules.views import PUBLIC
from kingmaker.service import Actor, BadRequest, PermissionDenied
from kingmaker.service.commands import Submit

from .. import schemas as s
from .. import schemas_end as se
from .full import card_out
from .site import Site, key_for


def step_by(actor: Actor, by: str | None) -> str:
    """Whose step: the player's own faction's; the GM says whose."""
    if actor.is_gm:
        if not by:
            raise BadRequest("say whose step it is (by)")
        return by
    if actor.faction is None:
        raise PermissionDenied("only a player or the GM may do this")
    if by and by != actor.faction:
        raise PermissionDenied(f"you play {actor.faction}; you cannot act for {by}")
    return actor.faction


def faction_for(site: Site, actor: Actor, game: str, faction: str | None) -> str:
    """The faction whose choices are asked for: the player's own; the GM names one."""
    who = site.viewer(actor, game, faction)
    if who in (GM, PUBLIC):
        raise BadRequest("say which faction's choices (faction)")
    return who


def _target(command: rc.Command) -> str:
    for attr in ("to", "castle", "unit", "heir", "seat"):
        value = getattr(command, attr, None)
        if isinstance(value, str):
            return value
    return ""


def choice_out(state: GameState, ch: Choice) -> se.ChoiceOut:
    """A judged choice as the API says it (its target named)."""
    t = _target(ch.command)
    return se.ChoiceOut(
        target=t,
        target_name=_name(state, t) if t else "",
        allowed=ch.allowed,
        result=ch.result.value,
        rule=ch.rule,
        explanation=ch.explanation,
        advances_to=ch.advances_to or None,
        place=ch.place,
        place_name=state.board.name_of(ch.place) if ch.place else None,
    )


def _name(state: GameState, ident: str) -> str:
    if ident in state.board.places:
        return state.board.name_of(ident)
    if ident in state.armies:
        return f"{'Fleet' if state.armies[ident].fleet else 'Army'} {ident}"
    return state.catalog.name_of(ident)


_HAND_STEPS: dict[str, se.HandStep] = {"assign": "assign", "enter_play": "enter_play", "play": "play"}


def hand(state: GameState, faction: str) -> list[se.CardChoicesOut]:
    out = []
    for cc in hand_choices(state, faction):
        allowed = sorted((choice_out(state, ch) for ch in cc.allowed), key=lambda c: c.target_name)
        step = _HAND_STEPS.get(cc.step, "")
        out.append(
            se.CardChoicesOut(
                card=card_out(state.catalog, cc.card),
                step=step,
                targets=allowed,
                why_not=cc.why_not,
            )
        )
    return out


def duty_out(d: Duty) -> se.DutyOut:
    return se.DutyOut(who=d.who, kind=d.kind, text=d.text, rule=d.rule, must=d.must, ref=d.ref)


def duties_for(site: Site, actor: Actor, game: str, faction: str | None = None) -> se.DutiesOut:
    """What each faction still has to do in the phase: the GM sees every duty (or one
    faction's, naming it); a player, its own."""
    who = site.viewer(actor, game, faction)
    state = site.svc.state(game)
    found = duties(state) if who == GM else duties_of(state, who) if who != PUBLIC else ()
    return se.DutiesOut(
        phase=state.phase,
        round=state.round,
        turn=state.turn,
        game_over=state.game_over,
        winner=state.winner,
        duties=[duty_out(d) for d in found],
    )


def crown_choices(state: GameState, faction: str) -> list[se.ChoiceOut]:
    return [choice_out(state, ch) for ch in coronations(state, faction)]


# -- the steps ------------------------------------------------------------------------------
def _run(site: Site, actor: Actor, game: str, command: rc.Command, key: str | None) -> s.OutcomeOut:
    return site.run(actor, Submit(game, command), key_for(actor, key))


def assign(site: Site, actor: Actor, game: str, body: se.AssignIn, key: str | None) -> s.OutcomeOut:
    """DEAL.assign: a card of the hand to one of the faction's nobles."""
    return _run(site, actor, game, rc.Assign(step_by(actor, body.by), body.card, body.to), key)


def enter_play(site: Site, actor: Actor, game: str, body: se.EnterPlayIn, key: str | None) -> s.OutcomeOut:
    """DEAL.noble: a noble card of the hand enters play at one of his castles."""
    return _run(site, actor, game, rc.EnterPlay(step_by(actor, body.by), body.noble, body.castle), key)


def play_card(site: Site, actor: Actor, game: str, body: se.PlayCardIn, key: str | None) -> s.OutcomeOut:
    """EVENT.held: a held event card played for a unit."""
    return _run(site, actor, game, rc.PlayCard(step_by(actor, body.by), body.card, body.unit), key)


def crown(site: Site, actor: Actor, game: str, body: se.CrownIn, key: str | None) -> s.OutcomeOut:
    """CROWN.*: the faction crowns an heir it controls."""
    return _run(site, actor, game, rc.Crown(step_by(actor, body.by), body.heir), key)
