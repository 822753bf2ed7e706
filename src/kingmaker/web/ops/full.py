"""The full game's part of the position (issue 13), as the caller may see it: built from
``view(state, viewer)`` only (the caller's own hand, the ransoms it is party to, the
ports chosen for its own ships), with this turn's event card from the log it may read."""

from __future__ import annotations

from dataclasses import dataclass

from kingmaker.log.envelope import Envelope
from kingmaker.render.reports import Reports, reports_for
from kingmaker.render.reports.document import plain
from kingmaker.render.reports.messages_full import ransom_terms
from kingmaker.rules import events as ev
from kingmaker.rules import ids
from kingmaker.rules.board import Board
from kingmaker.rules.captives import unransomed
from kingmaker.rules.cards import Catalog
from kingmaker.rules.commands import Ransom
from kingmaker.rules.views import View, view
from kingmaker.service import Actor

from .. import schemas_full as sf
from .site import Site


def card_out(catalog: Catalog, card: str) -> sf.CardOut:
    """A card's id, name and kind (public: the card set is)."""
    if card in catalog.events:
        e = catalog.events[card].event
        return sf.CardOut(
            id=card, name=catalog.name_of(card), kind="event", event_kind=e.kind.value if e else "none"
        )
    kind = "noble" if card in catalog.nobles else "ship" if card in catalog.ships else "award"
    return sf.CardOut(id=card, name=catalog.name_of(card), kind=kind)


def this_turns_event(entries: list[Envelope]) -> str | None:
    """The event card drawn for the turn, from its entries (a battle's or a siege's
    card is drawn from the same deck, under their own rules)."""
    for env in reversed(entries):
        e = env.event
        if isinstance(e, ev.CardDrawn) and e.deck == "event" and (env.rule or "").startswith("EVENT."):
            return e.card
    return None


def full_game(site: Site, actor: Actor, game: str, faction: str | None = None) -> sf.FullGameOut:
    who = site.viewer(actor, game, faction)
    state = site.svc.state(game)
    v = view(state, who)
    ctx = reports_for(site.svc, game)
    event = this_turns_event(ctx.visible_in((v.round, v.turn), who))
    cat = state.catalog
    return sf.FullGameOut(
        viewer=v.viewer,
        phased=bool(v.phase),
        phase=v.phase,
        round=v.round,
        turn=v.turn,
        event=card_out(cat, event) if event else None,
        decks=sf.DecksOut(
            event=v.event_deck_size,
            event_discard=len(v.event_discard),
            crown=v.crown_deck_size,
            crown_discard=len(v.crown_discard),
            chancery=v.chancery_size,
        ),
        hands=_hands(v, cat),
        captives=captives_out(v, state.board, cat, set(unransomed(state))),
        ransoms=ransoms_out(site, game, v, ctx),
        storms=storms_out(site, game, v, cat),
        sieges=[
            sf.SiegeOut(
                place=x.place,
                place_name=state.board.name_of(x.place),
                by=x.by,
                besiegers=list(x.besiegers),
                round=x.round,
                turn=x.turn,
                last_draw_round=x.last_draw_round,
            )
            for x in v.sieges
        ],
        dead=list(v.dead),
        draw_events=site.svc.settings(game).draw_events,
        game_over=v.game_over,
        winner=v.winner,
    )


def _hands(v: View, cat: Catalog) -> list[sf.HandOut]:
    seen = dict(v.hands)
    sizes = dict(v.hand_sizes)
    order = [f for f in v.turn_order if f in sizes] + sorted(f for f in sizes if f not in v.turn_order)
    return [
        sf.HandOut(
            faction=f,
            size=sizes[f],
            cards=[card_out(cat, c) for c in seen[f]] if f in seen else None,
        )
        for f in order
    ]


def captives_out(v: View, board: Board, cat: Catalog, dying: set[str]) -> list[sf.CaptiveOut]:
    """Every captive (public): who holds him, where and when he was taken."""
    taken = dict(v.captivity)
    out = []
    for n in v.nobles:
        if n.captive_of is None:
            continue
        c = taken.get(n.id)
        out.append(
            sf.CaptiveOut(
                noble=n.id,
                name=cat.name_of(n.id),
                faction=n.faction,
                captor=n.captive_of,
                place=c.place if c else None,
                place_name=board.name_of(c.place) if c else None,
                round=c.round if c else None,
                turn=c.turn if c else None,
                executed_at_turn_end=n.id in dying,
            )
        )
    return out


def _due(site: Site, game: str, known: set[str]) -> dict[str, str]:
    return {d.target: d.due for d in site.svc.deadlines(game) if d.target in known}


def ransoms_out(site: Site, game: str, v: View, ctx: Reports) -> list[sf.RansomOut]:
    """The ransom offers ``v``'s viewer is party to (the view holds no others')."""
    names = ctx.names
    offers = [r for r in v.requests if r.rule == ids.RANSOM_OFFER and isinstance(r.command, Ransom)]
    due = _due(site, game, {r.id for r in offers})
    nobles = {n.id: n for n in v.nobles}
    state = site.svc.state(game)
    describe = ctx.describe
    out = []
    for r in offers:
        cmd = r.command
        assert isinstance(cmd, Ransom)
        n = nobles.get(cmd.captive)
        captor, home = (n.captive_of, n.faction) if n is not None else (None, None)
        out.append(
            sf.RansomOut(
                id=r.id,
                by=r.by,
                captive=cmd.captive,
                captive_name=names.unit(cmd.captive),
                awaiting=list(r.awaiting),
                terms=plain(ransom_terms(names, cmd, captor, home)),
                text=describe(cmd, state),
                due=due.get(r.id),
                for_you=v.viewer in r.awaiting,
            )
        )
    return out


def storms_out(site: Site, game: str, v: View, cat: Catalog) -> list[sf.StormOut]:
    """The storms waiting for ports: their ships and ports are public, the ports chosen
    only for the viewer's own ships (``view``)."""
    owner = {s.id: s.faction for s in v.ships}
    due = _due(site, game, {st.id for st in v.storms})
    board = site.svc.state(game).board
    out = []
    for st in v.storms:
        ships = [
            sf.StormShipOut(
                ship=ship,
                name=cat.name_of(ship),
                faction=owner.get(ship),
                ports=[sf.CardOut(id=p, name=board.name_of(p), kind="port") for p in st.ports.get(ship, ())],
                chosen=st.chosen.get(ship),
            )
            for ship in st.ships
        ]
        waiting = {owner.get(s) for s in st.waiting}
        out.append(sf.StormOut(id=st.id, ships=ships, due=due.get(st.id), for_you=v.viewer in waiting))
    return out


@dataclass(frozen=True)
class RansomChoice:
    """What a ransom form offers for one captive the caller is party to: what the caller
    holds (its hand, its free nobles' cards, the heirs they escort) and what the other
    side holds that the caller may see (its free nobles' cards and heirs; its hand is
    its own secret). The rules judge the offer."""

    captive: str
    name: str
    mine: bool  # the caller holds him (else he is the caller's, held by ``other``)
    other: str | None
    give: list[sf.CardOut]
    give_heirs: list[sf.CardOut]
    take: list[sf.CardOut]
    take_heirs: list[sf.CardOut]


def ransom_choices(site: Site, actor: Actor, game: str) -> list[RansomChoice]:
    """The ransom forms of the caller's page: one per captive it holds or has lost."""
    me = site.viewer(actor, game, None)
    state = site.svc.state(game)
    v = view(state, me)
    cat = state.catalog
    hand = dict(v.hands).get(me, ())

    def held(faction: str | None) -> tuple[list[sf.CardOut], list[sf.CardOut]]:
        free = [n for n in v.nobles if n.faction == faction and n.captive_of is None]
        cards = [card_out(cat, a) for n in free for a in n.awards]
        escorts = {n.id for n in free}
        heirs = [card_out(cat, h.id) for h in v.heirs if h.with_noble in escorts]
        return cards, heirs

    out = []
    for n in v.nobles:
        if n.captive_of is None or me not in (n.captive_of, n.faction) or n.captive_of == n.faction:
            continue
        other = n.faction if n.captive_of == me else n.captive_of
        mine, mine_heirs = held(me)
        theirs, their_heirs = held(other)
        out.append(
            RansomChoice(
                n.id,
                cat.name_of(n.id),
                n.captive_of == me,
                other,
                [card_out(cat, c) for c in hand] + mine,
                mine_heirs,
                theirs,
                their_heirs,
            )
        )
    return out
