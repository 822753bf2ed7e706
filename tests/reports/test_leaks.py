"""No report or private message tells a viewer a secret it may not know.

Long random games (``RandomPlayer``, every command submitted through ``GameService``
by the GM, deadlines passing now and then); after each turn every report and message
is rendered (the round's digest so far among them), in every format, for every faction
and for the public, and searched for the secrets that viewer may not know: the ids of
secret alliances and declarations it is not part of, of requests that do not concern
it, other factions' refused or pending orders (their ids and the log's command ids),
permissions between two other factions, and the seed. The walk must meet enough of
them, and the GM's copies must show them (so the search would find a leak)."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest

from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import OrderSubmitted
from kingmaker.render.reports import (
    FORMATS,
    Reports,
    Turn,
    catch_up,
    messages_for,
    permission_request,
    private_report,
    render,
    reports_for,
    turn_report,
)
from kingmaker.render.reports.digest import round_digest
from kingmaker.render.reports.document import plain
from kingmaker.render.reports.happenings import permission_words
from kingmaker.rules import commands as rc
from kingmaker.rules import events as ev
from kingmaker.rules.views import PUBLIC
from kingmaker.service import GM_ACTOR, FixedClock
from kingmaker.service.commands import CreateGame, Submit
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.simulation import RandomPlayer
from kingmaker.storage.memory import MemoryStore

FACTIONS = ("red", "blue", "green", "gold")
STEPS = 500


@dataclass
class Secrets:
    """Who may know what, learnt from the GM's log as it grows."""

    seed: str
    audience: dict[str, set[str]] = field(default_factory=dict)  # declaration / request id -> factions
    public: set[str] = field(default_factory=set)  # alliances made public
    hidden_orders: dict[str, set[str]] = field(
        default_factory=dict
    )  # id -> faction whose refused/pending order
    permissions: dict[str, tuple[str, str]] = field(default_factory=dict)  # plain phrase -> (by, to)

    def learn(self, env: Envelope, reports: Reports) -> None:
        e = env.event
        if isinstance(e, ev.AllianceDeclared):
            self.audience[e.alliance] = {e.by, *e.invited}
        elif isinstance(e, ev.AllianceFormed) and e.public:
            self.public.add(e.alliance)
        elif isinstance(e, ev.AlliancesRevealed):
            self.public.update(e.alliances)
        elif isinstance(e, ev.ArmySet):  # an army on the board is seen by all, its id too
            self.public.add(e.army)  # (the id of the pending order that formed it)
        elif isinstance(e, ev.RequestOpened):
            self.audience[e.request] = {e.by, *e.awaiting}
        elif isinstance(e, ev.PermissionGranted | ev.PermissionRevoked):
            phrase = plain(permission_words(reports.names, e.by, e.to, e.place, e.aspects))
            self.permissions[phrase] = (e.by, e.to)
        elif isinstance(e, OrderSubmitted) and e.result in ("refused", "pending") and e.by != rc.GM and not e.open:
            ids = [env.command] + [getattr(e.command, a, None) for a in ("id", "alliance", "request")]
            for i in ids:
                if isinstance(i, str) and len(i) >= 6:  # short ids ("q12") may occur by chance
                    self.hidden_orders.setdefault(i, set()).add(e.by)

    def forbidden(self, viewer: str) -> tuple[set[str], set[str]]:
        """(ids, phrases) ``viewer`` may not read."""
        known = {i for i, who in self.audience.items() if viewer in who} | self.public
        ids = {i for i, who in self.audience.items() if viewer not in who and i not in self.public}
        ids |= {i for i, owners in self.hidden_orders.items() if owners - {viewer} and i not in known}
        ids.add(self.seed)
        phrases = {p for p, pair in self.permissions.items() if viewer not in pair}
        return ids, phrases


def _others_orders(reports: Reports, viewer: str) -> re.Pattern[str]:
    """A resolution line for another faction's pending order (plain text): pending
    orders are allied orders, never published (refused open orders are published after
    their turn; refused secret ones are caught by their ids)."""
    names = "|".join(re.escape(reports.names.faction_name(f)) for f in FACTIONS if f != viewer)
    return re.compile(rf"^\s*- (?:{names}): .* — pending\b", re.M)


def _texts(reports: Reports, turn: Turn, viewer: str, rnd: random.Random) -> list[str]:
    docs = [turn_report(reports, turn, viewer), round_digest(reports, turn[0], viewer)]
    if viewer != PUBLIC:
        docs.append(private_report(reports, turn, viewer))
        docs += [m.body for m in messages_for(reports, viewer)]
        state = reports.timeline.now
        held = sorted(p for p, f in state.control.items() if f == viewer)
        if held:
            asking = rnd.choice([f for f in FACTIONS if f != viewer])
            ask = permission_request(
                asking, viewer, rnd.choice(held), ("road", "enter"), "let us pass", reports.names, state=state
            )
            docs.append(ask.body)
    out = []
    for d in docs:
        out += [render(d, fmt) for fmt in FORMATS]
    return out


def _command(rp: RandomPlayer, svc: GameService, game: str, rnd: random.Random) -> rc.Command:
    cmd = rp.command(svc.state(game))
    if isinstance(cmd, rc.DeclareAlliance):  # distinctive alliance ids
        cmd = dataclasses.replace(cmd, id=f"secret-{rnd.getrandbits(40):010x}")
    return cmd


@pytest.mark.parametrize("seed", [2, 3, 5])
def test_no_report_tells_a_secret(seed: int) -> None:
    rnd = random.Random(seed)
    clock = FixedClock()
    svc = GameService(MemoryStore(), clock)
    game_seed = f"seed-{rnd.getrandbits(64):016x}"
    settings = GameSettings(turn_hours=48, request_hours=6, full_game=False)
    svc.execute(
        GM_ACTOR, CreateGame("Leak walk", FACTIONS, seed=game_seed, game_id="leaks", settings=settings)
    )
    reports = reports_for(svc, "leaks")
    secrets = Secrets(game_seed)
    for env in reports.timeline.envelopes:
        secrets.learn(env, reports)
    rp = RandomPlayer(seed)
    checked: Counter[str] = Counter()
    shown_to_gm = 0
    for step in range(STEPS):
        if step % 15 == 14:
            clock.advance(hours=7)  # declarations and requests lapse; the next command ticks
        svc.execute(GM_ACTOR, Submit("leaks", _command(rp, svc, "leaks", rnd)))
        head = reports.timeline.head
        catch_up(reports, svc, "leaks")
        new = [e for e in reports.timeline.envelopes if e.seq > head]
        for env in new:
            secrets.learn(env, reports)
        ended = [(e.round, e.turn) for e in new if isinstance(e.event, ev.TurnEnded)]
        for turn in ended:
            gm_text = render(turn_report(reports, turn, rc.GM), "plain")
            for viewer in (*FACTIONS, PUBLIC):
                ids, phrases = secrets.forbidden(viewer)
                others = _others_orders(reports, viewer)
                for text in _texts(reports, turn, viewer, rnd):
                    for secret in ids:
                        assert secret not in text, f"{viewer} reads {secret!r} after {turn}:\n{text}"
                    for phrase in phrases:
                        assert phrase not in text, f"{viewer} reads {phrase!r} after {turn}:\n{text}"
                    leaked = others.search(text)
                    assert leaked is None, f"{viewer} reads {leaked.group(0)!r} after {turn}"
                checked["ids"] += len(ids) - 1
                checked["permissions"] += len(phrases)
                checked["others' orders"] += len(others.findall(gm_text))
                shown_to_gm += sum(1 for s in ids if s in gm_text and s != game_seed)
    assert checked["ids"] > 1000, checked
    assert checked["permissions"] > 100, checked
    assert checked["others' orders"] > 20, checked  # pending (allied) orders the GM's copy shows
    assert shown_to_gm > 50, shown_to_gm  # the GM's copies show what the others' must not
    kinds = Counter(
        "alliance" if i.startswith("secret-") else "order" if i.startswith("req") else "other"
        for i in secrets.hidden_orders | secrets.audience
    )
    assert kinds["alliance"] > 10 and kinds["order"] > 10, kinds
