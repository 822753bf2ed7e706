"""The forum reports say what happened in a player's words (issue 15 §7 and §9): a turn
ended by hand is not "the deadline has passed"; a rule id is printed once; one full stop
after the GM's text; no internal words (aspect ids, command kinds, "TO York IN York",
"each" of one); the game's bookkeeping in a section of its own; a refused landing says
a permission would allow it; an army disbanded by a member's move says so; the messages
keep the asks already answered."""

from __future__ import annotations

from dataclasses import replace

from kingmaker.log.envelope import Envelope
from kingmaker.log.fold import Fold
from kingmaker.log.service_events import DeadlinePassed, OrderSubmitted, Undone
from kingmaker.render.reports import Reports, messages_for, render, reports_for, turn_report
from kingmaker.render.reports.document import plain
from kingmaker.render.reports.happenings import sentence
from kingmaker.render.reports.wording import full_stop, without_rule
from kingmaker.rules import commands as rc
from kingmaker.rules import events as ev
from kingmaker.rules.decide import decide
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.views import PUBLIC
from kingmaker.service import GM_ACTOR, FixedClock, player
from kingmaker.service.commands import CreateGame, FinishTurn, Submit, Tick
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.storage.memory import MemoryStore

from .scenario import GAME, play

FACTIONS = ("red", "blue", "green", "gold")


def _game(full: bool = False, seed: str = "s") -> tuple[GameService, FixedClock]:
    clock = FixedClock()
    svc = GameService(MemoryStore(), clock)
    settings = GameSettings(full_game=full)
    svc.execute(GM_ACTOR, CreateGame("Desk", FACTIONS, seed=seed, game_id="d", settings=settings))
    return svc, clock


def _public(svc: GameService, turn: tuple[int, str]) -> str:
    return render(turn_report(reports_for(svc, "d"), turn, PUBLIC), "plain")


# -- §7: who ended the turn ---------------------------------------------------------------
def test_a_turn_ended_by_hand_says_who_ended_it_and_a_deadline_says_it_passed() -> None:
    svc, clock = _game()
    svc.execute(GM_ACTOR, FinishTurn("d", "red"))  # the GM, before the deadline
    svc.execute(player("blue"), FinishTurn("d", "blue"))  # the faction itself
    clock.advance(hours=25)
    svc.execute(GM_ACTOR, Tick("d"))  # Green's deadline passes
    red, blue, green = (_public(svc, (1, f)) for f in ("red", "blue", "green"))
    assert "The GM ends Red's turn before its deadline." in red
    assert "Blue ends its turn before its deadline." in blue
    assert "The deadline for Green's turn has passed: the turn ends." in green
    everything = red + blue + green
    assert "Red's turn has passed" not in everything and "Blue's turn has passed" not in everything
    # each is told in the turn it ended, before the turn's end
    assert red.index("The GM ends Red's turn") < red.index("Red's turn of round 1 ends.")


def test_an_old_log_with_the_deadline_after_the_turn_end_reads_the_same_and_replays_the_same() -> None:
    svc, _ = _game()
    svc.execute(GM_ACTOR, FinishTurn("d", "red"))
    new = svc.log("d")
    i = next(k for k, e in enumerate(new) if isinstance(e.event, DeadlinePassed))
    assert isinstance(new[i + 1].event, ev.TurnEnded)
    # as the service wrote it before: the turn's end first, the deadline in the next turn
    old = [
        *new[:i],
        replace(new[i + 1], seq=new[i].seq),
        replace(new[i], seq=new[i + 1].seq, turn="blue"),
        *new[i + 2 :],
    ]
    ctx = reports_for(svc, "d")
    then = Reports(Fold.of(ctx.timeline.initial, old).timeline(), ctx.names, ctx.describe)
    blue = render(turn_report(then, (1, "blue"), PUBLIC), "plain")
    assert "The GM ends Red's turn before its deadline." in blue and "has passed" not in blue
    assert state_hash(then.timeline.now) == state_hash(svc.state("d")) == state_hash(svc.replayed_state("d"))


# -- §9: wording --------------------------------------------------------------------------
def test_the_rule_id_is_printed_once(reports: Reports) -> None:
    text = "\n".join(render(turn_report(reports, t, "gm"), "plain") for t in reports.timeline.turns())
    lines = [ln for ln in text.splitlines() if " — accepted [" in ln or " — refused [" in ln]
    assert lines
    for ln in lines:
        rule = ln.split(" [", 1)[1].split("]", 1)[0]
        assert not ln.endswith(f"({rule})"), ln
    assert "Berkeley moves into Bristol (LOC.friendly.enter)" not in text
    assert without_rule("x (ALLY.7.iv)", "ALLY.6") == "x (ALLY.7.iv)"


def test_one_full_stop_after_the_gms_text(reports: Reports) -> None:
    state = reports.timeline.now

    def said(event: object) -> str:
        env = Envelope(1, 1, "red", "gm", None, event, "")  # type: ignore[arg-type]
        return plain(sentence(env, reports.names, reports.describe, state) or ())

    assert (
        said(ev.CombatResolved("c1", "The garrison holds.")) == "Combat c1 is resolved: The garrison holds."
    )
    assert said(ev.CombatResolved("c1", "the garrison holds")) == "Combat c1 is resolved: the garrison holds."
    assert said(ev.CombatResolved("c1")) == "Combat c1 is resolved."
    assert said(Undone(3, "Entered by mistake!")).endswith("after entry 3: Entered by mistake!")
    assert said(Undone(3, "Entered by mistake.")).endswith("after entry 3: Entered by mistake.")
    assert full_stop("Why?") == "Why?" and full_stop("so") == "so."


def test_internal_words_are_gone(reports: Reports) -> None:
    text = "\n".join(render(turn_report(reports, t, "gm"), "plain") for t in reports.timeline.turns())
    assert "gold grants blue embarkation and harbour at Chepstow" in text
    assert "permission for" not in text and "ship_enter," not in text and "embark," not in text
    assert "red declares alliance red-gold with gold; gold is asked to confirm" in text
    assert "with gold, green; each is asked to confirm" in text
    assert "Berkeley MOVES CROSS COUNTRY INTO Bristol" in text
    assert "TO Bristol IN Bristol" not in text and "TO Ipswich IN Ipswich" not in text
    assert "Bourchier MOVES FROM Colchester INTO Ipswich" in text


def test_a_step_out_of_its_phase_is_named_as_players_name_it() -> None:
    svc, _ = _game(full=True, seed="cli-106")
    rows = svc.post(player("red"), "d", "Pole MOVES TO Framlingham\nPole ATTACKS Mowbray", "red", send=True)
    assert [v.result for v in rows] == ["accepted", "accepted"], rows
    d = decide(svc.state("d"), rc.Sail("red", "holy_ghost", "western_channel"))
    assert d.rule == "PHASE.order", d
    assert d.explanation.startswith("red's order to sail Holy Ghost belongs to the movement phase")
    assert "'s sail" not in d.explanation


def test_the_games_bookkeeping_does_not_open_the_first_resolution(reports: Reports) -> None:
    text = render(turn_report(reports, (1, "red"), PUBLIC), "plain")
    begins, orders, resolution = (text.index(h) for h in ("The game begins", "Orders as given", "Resolution"))
    assert begins < orders < resolution
    assert "The seed's commitment" in text[begins:orders] and "The seed's commitment" not in text[resolution:]
    first = text[resolution:].split("\n- ", 1)[1]
    assert not first.startswith(("The game", "The seed")), first


def test_a_refused_landing_says_a_permission_would_allow_it(reports: Reports) -> None:
    tl = reports.timeline
    env = next(
        e
        for e in tl.envelopes
        if isinstance(e.event, OrderSubmitted) and isinstance(e.event.command, rc.Disembark)
    )
    before = tl.state_before(env.seq)
    assert isinstance(env.event, OrderSubmitted) and isinstance(env.event.command, rc.Disembark)
    cmd = env.event.command
    d = decide(before, replace(cmd, enter=True))
    assert d.refused and d.rule == "LOC.unfriendly.disembark"
    assert "no permission to enter (LOC.permission)" in d.explanation
    assert "must lay siege to get in" in d.explanation


def test_an_army_disbanded_by_a_members_move_says_so() -> None:
    svc = play().service  # a game of its own: the session's scenario is shared
    for _ in range(3):
        svc.execute(GM_ACTOR, FinishTurn(GAME, svc.state(GAME).turn, force=True))
    assert svc.state(GAME).turn == "red" and "army-east" in svc.state(GAME).armies
    out = svc.execute(player("red"), Submit(GAME, rc.MoveRoad("red", "bourchier", ("ipswich", "colchester"))))
    assert out.result == "accepted"
    assert "Bourchier leaves army army-east, which is disbanded (an army needs two units, ruling R17)" in (
        out.explanation
    )
    ctx = reports_for(svc, GAME)
    text = render(turn_report(ctx, ctx.timeline.turns()[-1], "gm"), "plain")
    assert "Army `army-east` is disbanded: fewer than two of its units are left in it (ruling R17)." in text


def test_messages_keep_the_asks_already_answered(reports: Reports) -> None:
    green = messages_for(reports, "green")
    assert [m.subject for m in green] == ["Alliance secret-bgo: your answer (answered)"]
    body = render(green[0].body, "plain")
    assert "Blue declares an alliance with you" in body and "You accepted it (round 3, Blue's turn)." in body
    gold = [m.subject for m in messages_for(reports, "gold", (2, "red"))]
    assert gold == ["Alliance secret-bgo: your answer", "Order q12: your confirmation (answered)"]
    assert messages_for(reports, "green", answered=False) == []
