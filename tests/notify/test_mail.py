"""Players told by e-mail (issue 15, item 11), against a real local SMTP server
(aiosmtpd): each message goes once, to the faction it is for, holding only what that
faction may see; a failure is tried again later; two senders never send a row twice."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from kingmaker.notify import Sender, run_once
from kingmaker.notify.admin import retry, set_email, set_remind_hours
from kingmaker.notify.smtp import SmtpSettings
from kingmaker.render.reports import private_report, render, reports_for
from kingmaker.rules import commands as rc
from kingmaker.service import GM_ACTOR, BadRequest, NotFound, PermissionDenied, player
from kingmaker.service.commands import FinishTurn, SeatPlayer, Submit
from kingmaker.service.game_service import GameService
from kingmaker.storage import open_store
from kingmaker.storage.outbox import NewMessage, OutboxStore

from .conftest import EMAILS, Game, Mailbox, free_port


def _send(g: Game, smtp: SmtpSettings) -> tuple[int, list[int]]:
    added, done = run_once(g.svc, g.box, smtp)
    return added, done.sent


def _statuses(g: Game) -> dict[str, int]:
    return g.box.counts(g.id)


def test_each_message_goes_once_to_its_faction_holding_only_what_it_may_see(
    game: Game, smtp: tuple[Mailbox, SmtpSettings], caplog: pytest.LogCaptureFixture
) -> None:
    mailbox, settings = smtp
    caplog.set_level(logging.DEBUG, logger="kingmaker")
    svc, g = game.svc, game.id
    assert _send(game, settings) == (0, [])  # seating tells nobody anything
    svc.execute(player("red"), Submit(g, rc.DeclareAlliance("red", "secret-rg", ("green",))))
    _send(game, settings)
    assert [(m["To"], m["Subject"]) for m in mailbox.messages] == [
        ("cy@example.org", "[Wars] Alliance secret-rg: your answer")
    ]
    asked = mailbox.messages[0].get_content()
    assert "Green ACCEPTS ALLIANCE secret-rg" in asked and "before 2026-12-01 12:00 UTC" in asked
    svc.execute(GM_ACTOR, FinishTurn(g, "red"))
    _send(game, settings)
    reports = [m for m in mailbox.messages if "private report" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in reports) == sorted(EMAILS.values())  # gold has no address
    ctx = reports_for(svc, g)
    for m in reports:
        faction = next(f for f, a in EMAILS.items() if a == m["To"])
        assert m.get_content().rstrip() == render(private_report(ctx, (1, "red"), faction), "plain").rstrip()
        assert m["Subject"] == "[Wars] Round 1, Red's turn: your private report"
        assert m["Auto-Submitted"] == "auto-generated" and m["From"] == "gm@example.org"
    # the secret alliance reaches its members only
    for m in mailbox.messages:
        assert ("secret-rg" in m.get_content()) == (m["To"] in (EMAILS["red"], EMAILS["green"])), m["To"]
    # at most once: running again (and again) sends nothing more
    before = len(mailbox.messages)
    assert _send(game, settings) == (0, []) and _send(game, settings) == (0, [])
    assert len(mailbox.messages) == before == 4
    assert len({m["Message-ID"] for m in mailbox.messages}) == 4
    assert _statuses(game) == {"sent": 4}
    # addresses never reach the process's log, the game's log, or an export
    logged = caplog.text + repr(svc.log(g))
    assert not any(a in logged for a in EMAILS.values())
    from io import StringIO

    from kingmaker.service.transfer import export_game

    out = StringIO()
    export_game(svc.store, g, out)
    assert not any(a in out.getvalue() for a in EMAILS.values())


def test_an_allied_order_and_a_permission_request_are_mailed_to_the_faction_asked(
    game: Game, smtp: tuple[Mailbox, SmtpSettings]
) -> None:
    from kingmaker.service.commands import AskPermission

    mailbox, settings = smtp
    svc, g = game.svc, game.id
    state = svc.state(g)
    place = next(p for p, f in sorted(state.control.items()) if f == "blue")
    svc.execute(player("red"), AskPermission(g, "red", "blue", place, ("road",), "we come in peace"))
    _send(game, settings)
    (m,) = mailbox.messages
    assert m["To"] == EMAILS["blue"] and "we come in peace" in m.get_content()
    assert "GRANTS" in m.get_content()


def test_an_address_counts_from_when_it_is_set_and_a_new_player_does_not_inherit_it(
    game: Game, smtp: tuple[Mailbox, SmtpSettings]
) -> None:
    mailbox, settings = smtp
    svc, g = game.svc, game.id
    svc.execute(player("red"), Submit(g, rc.DeclareAlliance("red", "rg", ("gold",))))
    assert set_email(svc, GM_ACTOR, g, "gold", "Dee@Example.ORG") == "Dee@example.org"
    _send(game, settings)
    assert mailbox.messages == []  # the declaration came before the address
    svc.execute(GM_ACTOR, SeatPlayer(g, "blue", "Someone else"))  # blue's new player: no address
    assert {s.faction: s.email for s in svc.store.seats(g)}["blue"] is None
    svc.execute(GM_ACTOR, FinishTurn(g, "red"))
    _send(game, settings)
    assert sorted(str(m["To"]) for m in mailbox.messages) == sorted(
        [EMAILS["red"], EMAILS["green"], "Dee@example.org"]
    )


def test_bad_addresses_are_refused_with_a_clear_reason(game: Game) -> None:
    svc, g = game.svc, game.id
    with pytest.raises(BadRequest, match=r"one bare address \(name@example.org\): character 6 is ' '"):
        set_email(svc, GM_ACTOR, g, "red", "Alice <alice@example.org>")
    with pytest.raises(BadRequest, match="line break"):
        svc.execute(GM_ACTOR, SeatPlayer(g, "red", "Ann", "a@b.org\r\nBcc: x@y.org"))
    with pytest.raises(BadRequest, match=r"not a domain name like example\.org"):
        set_email(svc, GM_ACTOR, g, "red", "ann@localhost")
    with pytest.raises(BadRequest, match="not a faction"):
        set_email(svc, GM_ACTOR, g, "purple", "p@example.org")
    with pytest.raises(PermissionDenied):
        set_email(svc, player("red"), g, "red", "me@example.org")
    with pytest.raises(BadRequest, match="0 \\(none\\) to 336"):
        set_remind_hours(svc, game.box, GM_ACTOR, g, -1)
    assert {s.faction: s.email for s in svc.store.seats(g)}["red"] == EMAILS["red"]  # unchanged


def test_a_failure_is_tried_again_later_and_a_refusal_fails_at_once(
    game: Game, smtp: tuple[Mailbox, SmtpSettings]
) -> None:
    mailbox, settings = smtp
    svc, g = game.svc, game.id
    mailbox.fail = ["451 4.3.0 try again later"]
    svc.execute(player("red"), Submit(g, rc.DeclareAlliance("red", "rg", ("green",))))
    _send(game, settings)
    (row,) = game.box.rows(g)
    assert (row.status, row.attempts) == ("queued", 1) and "451" in (row.last_error or "")
    assert _send(game, settings) == (0, [])  # not due yet (a minute's backoff)
    game.clock.advance(minutes=2)
    _send(game, settings)
    (row,) = game.box.rows(g)
    assert (row.status, row.attempts, row.last_error) == ("sent", 2, None)
    assert [m["To"] for m in mailbox.messages] == [EMAILS["green"]]
    # a 5xx answer: failed at once, never sent again unless the GM retries it
    mailbox.fail = ["554 5.7.1 rejected"]
    svc.execute(player("red"), Submit(g, rc.DeclareAlliance("red", "rb", ("blue",))))
    _send(game, settings)
    failed = game.box.rows(g)[0]
    assert failed.status == "failed" and "554" in (failed.last_error or "")
    game.clock.advance(hours=10)
    _send(game, settings)
    assert len(mailbox.messages) == 1
    retry(svc, game.box, GM_ACTOR, g, failed.id)
    with pytest.raises(NotFound):
        retry(svc, game.box, GM_ACTOR, g, failed.id)  # queued now: nothing to retry
    _send(game, settings)
    assert [m["To"] for m in mailbox.messages] == [EMAILS["green"], EMAILS["blue"]]


def test_no_server_listening_is_tried_again(game: Game) -> None:
    svc, g = game.svc, game.id
    nowhere = SmtpSettings("127.0.0.1", free_port(), timeout=2)
    svc.execute(player("red"), Submit(g, rc.DeclareAlliance("red", "rg", ("green", "blue"))))
    _send(game, nowhere)
    rows = game.box.rows(g)
    assert len(rows) == 2 and {r.status for r in rows} == {"queued"}  # the second not even tried
    assert {r.last_error for r in rows} == {rows[0].last_error}
    assert "cannot reach the SMTP server" in (rows[0].last_error or "")
    assert not any(a in (rows[0].last_error or "") for a in EMAILS.values())


def test_two_senders_at_once_send_each_row_once(game: Game, smtp: tuple[Mailbox, SmtpSettings]) -> None:
    mailbox, settings = smtp
    g = game.id
    messages = [
        NewMessage("email", "red", "report", str(i), i, f"{g}/test/{i}", f"message {i}", f"body {i}")
        for i in range(12)
    ]
    now = game.clock.now().timestamp()
    assert game.box.enqueue(g, messages, now) == 12
    assert game.box.enqueue(g, messages, now) == 0  # queued once
    errors: list[BaseException] = []

    def sender(own_store: bool) -> None:
        try:
            # the second opens the database again: its own engine and connections, as
            # another process would
            store = open_store(game.url) if own_store else game.svc.store
            s = Sender(GameService(store), OutboxStore.of(store), settings)
            while s.send_due(now, limit=3):
                pass
            if own_store:
                store.close()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=sender, args=(own,)) for own in (False, True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    subjects = sorted(str(m["Subject"]) for m in mailbox.messages)
    assert subjects == sorted(f"message {i}" for i in range(12))
    assert game.box.counts(g) == {"sent": 12}


def test_a_sender_that_stopped_mid_send_leaves_its_rows_uncertain_never_resent(game: Game) -> None:
    g = game.id
    now = game.clock.now().timestamp()
    game.box.enqueue(g, [NewMessage("email", "red", "report", "x", 1, f"{g}/t/x", "s", "b")], now)
    (claimed,) = game.box.claim(now, 300)
    assert claimed.status == "sending" and game.box.claim(now, 300) == []
    assert game.box.claim(now + 301, 300) == []  # the lease ran out: uncertain, not claimed again
    (row,) = game.box.rows(g)
    assert row.status == "uncertain" and "may or may not have gone" in (row.last_error or "")
    retry(game.svc, game.box, GM_ACTOR, g, row.id)
    assert [r.id for r in game.box.claim(now + 302, 300)] == [row.id]


def test_reminders_go_before_a_deadline_once(game: Game, smtp: tuple[Mailbox, SmtpSettings]) -> None:
    mailbox, settings = smtp
    svc, g = game.svc, game.id
    set_remind_hours(svc, game.box, GM_ACTOR, g, 6)
    svc.execute(player("blue"), Submit(g, rc.DeclareAlliance("blue", "bg", ("green",))))
    _send(game, settings)
    assert [m["Subject"] for m in mailbox.messages] == ["[Wars] Alliance bg: your answer"]
    game.clock.advance(hours=17)  # 7 hours left: not yet
    _send(game, settings)
    assert len(mailbox.messages) == 1
    game.clock.advance(hours=2)  # 5 hours left: red's turn and green's answer
    _send(game, settings)
    _send(game, settings)
    got = sorted((str(m["To"]), str(m["Subject"])) for m in mailbox.messages[1:])
    assert got == [
        (EMAILS["red"], "[Wars] Reminder: your orders are due by 2026-12-01 12:00 UTC"),
        (EMAILS["green"], "[Wars] Reminder: Alliance bg: your answer"),
    ]
    body = next(m for m in mailbox.messages[1:] if m["To"] == EMAILS["green"]).get_content()
    assert "Reminder: this awaits your answer, due by 2026-12-01 12:00 UTC." in body
    assert "Green ACCEPTS ALLIANCE bg" in body


def test_in_the_full_game_no_mail_tells_another_faction_s_hand(
    tmp_path: Path, smtp: tuple[Mailbox, SmtpSettings]
) -> None:
    from kingmaker.service import FixedClock
    from kingmaker.service.commands import CreateGame
    from kingmaker.service.game_service import GameService
    from kingmaker.storage import open_store
    from kingmaker.storage.outbox import OutboxStore
    from tests.reports.test_leaks_full import searchable, secret_cards, shown_to

    mailbox, settings = smtp
    factions = ("red", "blue", "green", "gold")
    with open_store(f"sqlite:///{tmp_path / 'full.db'}") as store:
        svc = GameService(store, FixedClock())
        g = svc.execute(GM_ACTOR, CreateGame("Full", factions, seed="s", game_id="full")).game
        for f in factions:
            svc.execute(GM_ACTOR, SeatPlayer(g, f, f.title(), f"{f}@example.org"))
        for f in ("red", "blue"):
            svc.execute(GM_ACTOR, FinishTurn(g, f))  # each draws a Crown card into its hand
        run_once(svc, OutboxStore.of(store), settings)
        state = svc.state(g)
        assert state.hands["red"] and state.hands["blue"]
        ctx = reports_for(svc, g)
        names = searchable(state)
        checked = 0
        for f in factions:
            mails = mailbox.to(f"{f}@example.org")
            assert len(mails) == 2  # the private reports of red's and blue's turns
            secret = secret_cards(state, f, shown_to(ctx, state, f))
            for m in mails:
                text = m.get_content()
                for card in secret:
                    if card in names:
                        checked += 1
                        assert names[card] not in text, (f, card)
                        assert card not in text, (f, card)
        assert checked >= 6  # red's card looked for in 3 factions' mail, blue's in 3


def test_a_storm_s_ports_and_a_ransom_offer_reach_the_faction_asked(
    tmp_path: Path, smtp: tuple[Mailbox, SmtpSettings]
) -> None:
    """The full game's scenario (tests/reports/scenario_full.py) on SQLite: the storm that
    waits for Blue's port (a reminder before its deadline), then Gold's ransom offer to
    Blue for Mowbray."""
    from kingmaker.render.reports.naming import when
    from kingmaker.service import FixedClock
    from kingmaker.storage import open_store
    from kingmaker.storage.outbox import OutboxStore
    from tests.reports.scenario_full import GAME, play

    mailbox, settings = smtp
    with open_store(f"sqlite:///{tmp_path / 'towton.db'}") as store:
        clock = FixedClock()
        svc = GameService(store, clock)
        play(svc, until="storm")
        for f in ("red", "blue", "green", "gold"):
            svc.execute(GM_ACTOR, SeatPlayer(GAME, f, f.title(), f"{f}@example.org"))
        box = OutboxStore.of(store)
        storm = next(iter(svc.state(GAME).storms))
        due = next(d.due for d in svc.deadlines(GAME) if d.target == storm)
        clock.advance(hours=23)  # the storm's deadline is an hour away: a reminder
        run_once(svc, box, settings)
        assert sorted((str(m["To"]), str(m["Subject"])) for m in mailbox.messages) == [
            ("blue@example.org", "[Towton] Reminder: Storm: choose your ports"),
            ("blue@example.org", "[Towton] Reminder: your orders are due by " + when(due)),
        ]
        stormy = next(m for m in mailbox.messages if "Storm" in str(m["Subject"])).get_content()
        assert f"due by {when(due)}" in stormy and "Grace Dieu" in stormy
        blue, gold = player("blue"), player("gold")
        svc.execute(blue, Submit(GAME, rc.ChoosePort("blue", "grace_dieu", "rye")))
        svc.execute(blue, Submit(GAME, rc.Attack("blue", "pole", "mowbray", "a-framlingham")))
        svc.execute(GM_ACTOR, Submit(GAME, rc.Battle(rc.GM, "a-framlingham")))
        offer = rc.Ransom(
            "gold", "ransom-writ", "mowbray", (rc.Consideration("gold", ("writ_under_the_privy_seal",)),)
        )
        assert svc.execute(gold, Submit(GAME, offer)).result == "pending"
        run_once(svc, box, settings)
        asked = [m for m in mailbox.messages if "ransom-writ" in m.get_content()]
        assert [m["To"] for m in asked] == ["blue@example.org"]
        assert "Blue CONFIRMS ransom-writ" in asked[0].get_content()


def test_a_vote_in_parliament_is_asked_of_the_voters_still_to_vote(
    tmp_path: Path, smtp: tuple[Mailbox, SmtpSettings]
) -> None:
    """Parliament at Ipswich (tests/reports/scenario_parliament.py) on SQLite, stopped
    while m1 is voted on: Red and Blue have voted, Green and Gold have not. Each of
    the two is asked for its vote, with the lines to reply; no one learns a vote cast."""
    from tests.reports.scenario_parliament import GAME, play

    mailbox, settings = smtp
    with open_store(f"sqlite:///{tmp_path / 'ipswich.db'}") as store:

        def seat(svc: GameService) -> None:
            for f in ("red", "blue", "green", "gold"):
                svc.execute(GM_ACTOR, SeatPlayer(GAME, f, f.title(), f"{f}@example.org"))

        played = play("voting", store=store, setup=seat)
        svc = played.service
        box = OutboxStore.of(store)
        assert svc.state(GAME).parliament is not None
        run_once(svc, box, settings)
        asked = sorted(
            (str(m["To"]), str(m["Subject"]), m.get_content())
            for m in mailbox.messages
            if "Parliament" in str(m["Subject"])
        )
        assert [(to, subject) for to, subject, _ in asked] == [
            ("gold@example.org", "[Wars] Parliament: your vote on Marshal of England for Pole"),
            ("green@example.org", "[Wars] Parliament: your vote on Marshal of England for Pole"),
        ]
        for to, _, text in asked:
            who = to.split("@")[0].title()
            assert f"{who} VOTES FOR m1" in text and f"{who} VOTES AGAINST m1" in text, text
            assert "PARL.vote" in text and "Ipswich" in text
            # Red voted for, Blue against: neither vote is told
            assert text.startswith("Parliament at Ipswich: Red proposes Marshal of England for Pole (proposal `m1`, PARL.vote)"), text
            assert "Red VOTES" not in text and "Blue VOTES" not in text
        # once: asking again sends nothing more; a vote cast is not asked again
        before = len(mailbox.messages)
        run_once(svc, box, settings)
        assert len(mailbox.messages) == before
        svc.post(GM_ACTOR, GAME, "Green VOTES AGAINST m1\n", "green", send=True)
        run_once(svc, box, settings)
        assert len(mailbox.messages) == before
