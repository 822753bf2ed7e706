"""Heirs taken into keeping, captives, ransom and execution (FULL_GAME 3.5, 3.6):
CAPTURE.heir (with CAPTURE.escorted and CAPTURE.fortified), CAPTURE.noble (captives
until the end of the turn they were taken in: ``unransomed`` lists them for the end of
the turn), RANSOM.* (a two-party pending step, confirmed or rejected like an allied
order) and EXEC.captive and EXEC.heir (with the exception of F14).

A capture, a ransom, a release or an execution is no order (F17): ALLY.5 never counts
them. Answers to a ransom are the ``confirm`` and ``reject`` of ``requests``.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import events as ev
from . import ids
from .commands import CaptureHeir, Execute, Ransom, ReleaseCaptive
from .context import invalid
from .decision import Decision, Refusal, Report, Result
from .fighting import Chain
from .potential import potential
from .remains import death, lost_control
from .sieges import besieged
from .state import GameState, Heir
from .status import non_allied_inside, status
from .units import name, names

# -- heirs --------------------------------------------------------------------------------


def heir_position(state: GameState, heir: Heir) -> tuple[str | None, bool]:
    """Where an heir is: his escort's place (and side of the walls), or his own."""
    if heir.with_noble is not None:
        n = state.nobles.get(heir.with_noble)
        if n is None or n.aboard is not None:
            return None, False
        return n.place, n.inside
    return heir.place, heir.inside


def heir_engaged(state: GameState, heir: str) -> str | None:
    """F14: the accepted attack or siege not yet resolved that involves ``heir`` (his
    escort fights on either side of an attack; he is inside a besieged place), in words;
    None when there is none."""
    h = state.heirs[heir]
    escort = h.with_noble
    for c in state.combats:
        if escort is not None and (escort in c.attackers or escort in c.defenders):
            return f"the {c.kind} {c.id} at {name(state, c.place)}"
    place, inside = heir_position(state, h)
    if inside and besieged(state, place):
        return f"the siege of {name(state, place)}"
    for c in state.combats:
        if c.kind == "siege" and inside and c.place == place:
            return f"the siege {c.id} of {name(state, place)}"
    return None


def decide_capture_heir(state: GameState, cmd: CaptureHeir) -> Decision:
    """CAPTURE.heir: a noble takes an unescorted heir at his place into his keeping, if
    the heir is in the open, inside a location friendly to the noble's faction, or inside
    an open or unfortified town no non-allied noble occupies; an heir escorted by another
    faction is taken only in battle (CAPTURE.escorted), one inside a neutral or
    unfriendly fortified place only by its fall (CAPTURE.fortified). An heir escorted by
    another noble of the same faction is handed over."""
    n = state.nobles.get(cmd.unit)
    if n is None:
        raise invalid(f"there is no noble {cmd.unit!r} in play", unit=cmd.unit)
    h = state.heirs.get(cmd.heir)
    if h is None:
        raise invalid(f"there is no living heir {cmd.heir!r}", unit=cmd.unit)
    if n.place is None or n.aboard is not None:
        raise invalid(f"{name(state, n.id)} is not on land", unit=n.id)
    if h.with_noble == n.id:
        raise invalid(f"{name(state, n.id)} already escorts {name(state, h.id)}", unit=n.id)
    where, inside = heir_position(state, h)
    if where != n.place:
        raise invalid(f"{name(state, h.id)} is not at {name(state, n.place)}", unit=n.id, place=n.place)
    if cmd.by != state.turn:
        raise Refusal(
            ids.TURN_ORDER,
            f"{cmd.by} may take an heir only in its own turn, and it is {state.turn}'s turn ({ids.TURN_ORDER})",
            unit=n.id,
        )
    if n.faction != cmd.by:
        raise Refusal(
            ids.ORDER_FOREIGN,
            f"{cmd.by} may not have {name(state, n.id)} take an heir: he is not its noble ({ids.ORDER_FOREIGN})",
            unit=n.id,
        )
    place = state.board.places[n.place]
    if inside != n.inside and besieged(state, place.id):
        raise Refusal(
            ids.SIEGE_SEALED,
            f"{name(state, n.id)} may not take {name(state, h.id)}: {place.name} is under siege, and nothing "
            f"crosses its walls ({ids.SIEGE_SEALED})",
            unit=n.id,
            place=place.id,
        )
    what = f"{name(state, n.id)} takes {name(state, h.id)} into his keeping at {place.name}"
    if h.with_noble is not None:
        escort = state.nobles[h.with_noble]
        if escort.faction != cmd.by:
            raise Refusal(
                ids.CAPTURE_ESCORTED,
                f"{name(state, n.id)} may not take {name(state, h.id)}: he is escorted by "
                f"{name(state, escort.id)}, and an escorted heir is taken only in battle ({ids.CAPTURE_ESCORTED})",
                unit=n.id,
                place=place.id,
            )
        what = (
            f"{name(state, h.id)} passes from {name(state, escort.id)} to {name(state, n.id)} at {place.name}"
        )
    elif inside:
        st = status(state, place, cmd.by)
        if st in (ids.UNFORTIFIED, ids.OPEN):
            if non_allied_inside(state, place.id, cmd.by):
                raise Refusal(
                    ids.CAPTURE_HEIR,
                    f"{name(state, n.id)} may not take {name(state, h.id)}: the {place.kind.label} "
                    f"{place.name} is occupied by a faction not allied with {cmd.by} ({ids.CAPTURE_HEIR})",
                    unit=n.id,
                    place=place.id,
                )
        elif st != ids.FRIENDLY:
            raise Refusal(
                ids.CAPTURE_FORTIFIED,
                f"{name(state, n.id)} may not take {name(state, h.id)}: he is inside the {st} "
                f"{place.kind.label} {place.name}, which must fall to a siege first ({ids.CAPTURE_FORTIFIED})",
                unit=n.id,
                place=place.id,
            )
    return Decision(
        Result.ACCEPTED,
        ids.CAPTURE_HEIR,
        f"{what} ({ids.CAPTURE_HEIR})",
        (ev.HeirMoved(h.id, n.id),),
        unit=n.id,
        place=place.id,
    )


# -- captives -------------------------------------------------------------------------------


def unransomed(state: GameState) -> list[str]:
    """The captives to be executed when this turn ends (EXEC.unransomed): every captive
    (CAPTURE.noble: a captive lives only until the end of the turn he was taken in), in
    the order they were taken."""
    held = [n for n in state.captivity if n in state.nobles and state.nobles[n].captive_of is not None]
    rest = sorted(
        n.id for n in state.nobles.values() if n.captive_of is not None and n.id not in state.captivity
    )
    return held + rest


def _captive(state: GameState, noble: str) -> str:
    """The captor of ``noble``; ORDER.invalid when he is no captive."""
    n = state.nobles.get(noble)
    if n is None:
        raise invalid(f"there is no noble {noble!r} in play", unit=noble)
    if n.captive_of is None:
        raise invalid(f"{name(state, noble)} is not a captive", unit=noble)
    return n.captive_of


def _ransoms_lapse(state: GameState, captive: str, keep: str | None = None) -> list[ev.Event]:
    """Pending ransoms of ``captive`` lapse (he is freed, ransomed or executed)."""
    return [
        ev.RequestClosed(r.id, "lapsed", ids.RANSOM_OFFER)
        for r in state.requests.values()
        if r.rule == ids.RANSOM_OFFER and r.id != keep and getattr(r.command, "captive", None) == captive
    ]


def _freed(state: GameState, captive: str) -> ev.NobleReleased:
    """RANSOM.place: a freed captive stands in the open where he was taken."""
    where = state.captivity.get(captive)
    if where is None:
        raise invalid(
            f"where {name(state, captive)} was taken is not known; the GM must place him", unit=captive
        )
    return ev.NobleReleased(captive, where.place, False)


def decide_release_captive(state: GameState, cmd: ReleaseCaptive) -> Decision:
    """RANSOM.release: the captor frees a captive for nothing."""
    captor = _captive(state, cmd.captive)
    if captor != cmd.by:
        raise Refusal(
            ids.RANSOM_RELEASE,
            f"{cmd.by} may not free {name(state, cmd.captive)}: he is {captor}'s captive ({ids.RANSOM_RELEASE})",
            unit=cmd.captive,
        )
    freed = _freed(state, cmd.captive)
    return Decision(
        Result.ACCEPTED,
        ids.RANSOM_RELEASE,
        f"{cmd.by} frees {name(state, cmd.captive)} for nothing; he stands in the open at "
        f"{name(state, freed.place)} ({ids.RANSOM_RELEASE})",
        (*_ransoms_lapse(state, cmd.captive), freed),
        unit=cmd.captive,
        place=freed.place,
    )


def decide_execute(state: GameState, cmd: Execute) -> Decision:
    """EXEC.captive (the captor executes a captive) or EXEC.heir (a faction executes an
    heir it controls, except while an attack or siege involving him waits: F14)."""
    if (cmd.captive is None) == (cmd.heir is None):
        raise invalid("an execution names either a captive or an heir")
    if cmd.captive is not None:
        captor = _captive(state, cmd.captive)
        if captor != cmd.by:
            raise Refusal(
                ids.EXEC_CAPTIVE,
                f"{cmd.by} may not execute {name(state, cmd.captive)}: he is {captor}'s captive ({ids.EXEC_CAPTIVE})",
                unit=cmd.captive,
            )
        events = _ransoms_lapse(state, cmd.captive) + death(state, cmd.captive, "execution")
        return Decision(
            Result.ACCEPTED,
            ids.EXEC_CAPTIVE,
            f"{cmd.by} executes its captive {name(state, cmd.captive)} ({ids.EXEC_CAPTIVE})",
            tuple(events),
            unit=cmd.captive,
            report=Report(executed=(cmd.captive,)),
        )
    assert cmd.heir is not None
    h = state.heirs.get(cmd.heir)
    if h is None:
        raise invalid(f"there is no living heir {cmd.heir!r}")
    card = state.catalog.heirs.get(h.id)
    if card is not None and card.noble is not None:
        raise invalid(f"{name(state, h.id)} is a noble: he dies only as a noble does")
    escort = state.nobles.get(h.with_noble) if h.with_noble is not None else None
    if escort is None or escort.faction != cmd.by or escort.captive_of is not None:
        raise Refusal(
            ids.EXEC_HEIR,
            f"{cmd.by} may not execute {name(state, h.id)}: it does not control him ({ids.EXEC_HEIR})",
        )
    engaged = heir_engaged(state, h.id)
    if engaged is not None:
        raise Refusal(
            ids.EXEC_HEIR,
            f"{cmd.by} may not execute {name(state, h.id)} until {engaged} is resolved ({ids.EXEC_HEIR})",
        )
    return Decision(
        Result.ACCEPTED,
        ids.EXEC_HEIR,
        f"{cmd.by} executes {name(state, h.id)} ({ids.EXEC_HEIR})",
        (ev.HeirDied(h.id, "execution"),),
    )


# -- ransom ---------------------------------------------------------------------------------


def _sources(state: GameState, party: str, cards: Iterable[str]) -> dict[str, list[str]]:
    """Where each card a party gives is: its hand, or a free noble of its own."""
    hand = set(state.hands.get(party, ()))
    out: dict[str, list[str]] = {}
    for card in cards:
        if card in hand:
            out.setdefault(f"hand:{party}", []).append(card)
            continue
        holder = next(
            (
                n.id
                for n in state.nobles.values()
                if n.faction == party and n.captive_of is None and card in n.awards
            ),
            None,
        )
        if holder is None:
            raise invalid(f"{party} holds no {name(state, card)} to give (in its hand or with a free noble)")
        out.setdefault(f"noble:{holder}", []).append(card)
    return out


def _keeper(state: GameState, faction: str) -> str | None:
    """The noble of ``faction`` with the largest troop potential (R9; ties: by id) on the
    board, who keeps the heirs a ransom gives it."""
    free = [n for n in state.nobles.values() if n.faction == faction and n.captive_of is None]
    on_board = [n.id for n in free if n.place is not None or n.aboard is not None]
    if not on_board:
        return None
    return min(on_board, key=lambda n: (-potential(state, n), n))


def _what(state: GameState, cmd: Ransom, captor: str, home: str) -> str:
    given = []
    for g in cmd.give:
        to = home if g.from_ == captor else captor
        items = [name(state, c) for c in g.cards] + [name(state, h) for h in g.heirs]
        if items:
            given.append(f"{g.from_} gives {', '.join(items)} to {to}")
    return "; ".join(given) if given else "nothing is given"


def decide_ransom(state: GameState, cmd: Ransom, confirmed: bool = False) -> Decision:
    """RANSOM.offer: captor or captive's faction proposes; the other confirms (then the
    consideration passes and the captive is freed in the open where he was taken, with
    his titles and offices: RANSOM.terms, RANSOM.place) or rejects. Heirs are never
    ransomed back, but may be given (RANSOM.royal); promises are noted, not enforced
    (RANSOM.future)."""
    if cmd.captive in state.heirs or (cmd.captive in state.catalog.heirs and cmd.captive not in state.nobles):
        raise Refusal(
            ids.RANSOM_ROYAL,
            f"{name(state, cmd.captive)} is an heir, and heirs are never ransomed back ({ids.RANSOM_ROYAL})",
        )
    captor = _captive(state, cmd.captive)
    home = state.nobles[cmd.captive].faction or ""
    if cmd.by not in (captor, home):
        raise Refusal(
            ids.RANSOM_OFFER,
            f"{cmd.by} may not offer a ransom for {name(state, cmd.captive)}: only {captor}, his captor, and "
            f"{home}, his faction, may agree one ({ids.RANSOM_OFFER})",
            unit=cmd.captive,
        )
    other = home if cmd.by == captor else captor
    seen: set[str] = set()
    for g in cmd.give:
        if g.from_ not in (captor, home):
            raise invalid(f"only {captor} and {home} give anything in this ransom")
        for item in (*g.cards, *g.heirs):
            if item in seen:
                raise invalid(f"{name(state, item)} is named twice in the ransom")
            seen.add(item)
        _sources(state, g.from_, g.cards)
        for heir in g.heirs:
            h = state.heirs.get(heir)
            escort = state.nobles.get(h.with_noble) if h is not None and h.with_noble else None
            if escort is None or escort.faction != g.from_ or escort.captive_of is not None:
                raise invalid(f"{g.from_} does not control {name(state, heir)} to give him")
    what = _what(state, cmd, captor, home)
    note = f"; the promise {cmd.note!r} is noted, not enforced" if cmd.note else ""  # RANSOM.future
    if not confirmed:
        if cmd.id in state.requests or cmd.id in state.closed:
            raise invalid(f"a request {cmd.id!r} already exists")
        return Decision(
            Result.PENDING,
            ids.RANSOM_OFFER,
            f"{cmd.by} offers a ransom for {name(state, cmd.captive)} ({what}){note}; it waits for {other} to "
            f"confirm it ({ids.RANSOM_OFFER})",
            (ev.RequestOpened(cmd.id, ids.RANSOM_OFFER, cmd.by, cmd, (other,)),),
            awaiting=(other,),
            unit=cmd.captive,
            request=cmd.id,
        )
    chain = Chain(state)
    kept: list[str] = []
    freed = _freed(state, cmd.captive)
    chain.add([*_ransoms_lapse(state, cmd.captive, keep=cmd.id), freed])
    for g in cmd.give:
        to = home if g.from_ == captor else captor
        for source, cards in _sources(chain.state, g.from_, g.cards).items():
            chain.add([ev.AwardsMoved(tuple(cards), source, f"hand:{to}")])
            if source.startswith("noble:"):
                chain.add(lost_control(chain.state, source.partition(":")[2], cards))
        if g.heirs:
            keeper = _keeper(chain.state, to)
            if keeper is None:
                raise invalid(f"{to} has no noble on the board to keep {names(state, list(g.heirs))}")
            chain.add(ev.HeirMoved(h, keeper) for h in g.heirs)
            verb = "goes" if len(g.heirs) == 1 else "go"
            kept.append(f"{names(state, list(g.heirs))} {verb} to {name(state, keeper)}")
    return Decision(
        Result.ACCEPTED,
        ids.RANSOM_OFFER,
        f"{name(state, cmd.captive)} is ransomed: {what}; he is freed in the open at {name(state, freed.place)} "
        f"with his titles and offices{''.join('; ' + k for k in kept)}{note} ({ids.RANSOM_OFFER})",
        tuple(chain.events),
        unit=cmd.captive,
        place=freed.place,
        request=cmd.id,
    )
