"""A faction's hand and the Chancery in its private report (DEAL.*): each card it holds
by name, what kind of card it is and how it is played (a noble enters play at one of
his castles, an award or a ship is assigned to one of its nobles who may hold it, a
held event card is played); the Chancery's size, and its contents to the presiding
faction while Parliament sits.

Everything here comes from ``view(state, faction)`` (its own hand; the Chancery's
contents only when the view holds them: DEAL.chancery) and from the rules judging the
faction's own steps on the state as it may see it (``as_seen_by``)."""

from __future__ import annotations

from collections import Counter

from kingmaker.rules import commands as c
from kingmaker.rules import ids
from kingmaker.rules.cards import AwardKind
from kingmaker.rules.decide import decide
from kingmaker.rules.state import GameState
from kingmaker.rules.views import View, as_seen_by

from .document import Block, Inline, Item, bullets, heading, inlines, italic, item, para
from .full_events import event_words
from .naming import Names

_KINDS = {
    AwardKind.TITLE: "a title",
    AwardKind.OFFICE: "an office",
    AwardKind.SEE: "a see",
    AwardKind.MERCENARY: "mercenaries",
    AwardKind.TOWN: "a town",
    AwardKind.OTHER: "an award",
}


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _n(count: int, what: str) -> str:
    return f"{count} {what}{'' if count == 1 else 's'}"


def _holders(state: GameState, faction: str, card: str) -> list[str]:
    """The faction's nobles who may be assigned ``card`` now (DEAL.assign, DEAL.limits,
    SIEGE.sealed), as the rules judge it on the state as the faction sees it."""
    seen = as_seen_by(state, faction)
    mine = sorted(x.id for x in seen.nobles.values() if x.faction == faction)
    return [x for x in mine if decide(seen, c.Assign(faction, card, x)).accepted]


def _card_item(n: Names, state: GameState, faction: str, card: str, copies: int) -> Item:
    cat = n.catalog
    name = n.card(card) + (f" x{copies}" if copies > 1 else "")
    if card in cat.nobles:
        castles = ", ".join(n.place(p) for p in cat.nobles[card].castles) or "none on this map"
        how = f"a noble: he enters play in your movement phase at one of his castles ({castles}) ({ids.DEAL_NOBLE})"
    elif card in cat.events:
        how = f"an event card: {event_words(n, cat.events[card])} ({ids.EVENT_HELD})"
    else:
        if card in cat.ships:
            ship = cat.ships[card]
            port = f", in port at {n.place(ship.home_port)}" if ship.home_port else ""
            kind = (
                f"a ship (capacity {ship.capacity}): assigned to one of your nobles, it comes into play{port}"
            )
        else:
            kind = (
                f"{_KINDS.get(cat.award(card).kind, 'an award')}: assigned to one of your nobles at any time"
            )
        who = ""
        if not state.game_over:
            holders = [n.unit(x) for x in _holders(state, faction, card)]
            who = f"; it may go to {_or(holders)}" if holders else "; none of your nobles may hold it now"
        how = f"{kind}{who} ({ids.DEAL_ASSIGN})"
    return item(name, f" — {how}.")


def hand_blocks(n: Names, state: GameState, v: View, faction: str) -> list[Block]:
    """The section "Your hand and the Chancery" of ``faction``'s private report:
    ``state`` the state the report is of, ``v`` the faction's view of it."""
    hand = dict(v.hands).get(faction, ())
    counts = Counter(hand)
    cards = [_card_item(n, state, faction, card, k) for card, k in counts.items()]
    out: list[Block] = [heading(2, "Your hand and the Chancery")]
    out.append(
        para(f"Your hand holds {_n(len(hand), 'card')}:") if hand else para(italic("Your hand is empty."))
    )
    if cards:
        out.append(bullets(cards))
    chancery: tuple[Inline, ...] = inlines(
        f"The Chancery holds {_n(v.chancery_size, 'card')}, face down ({ids.DEAL_CHANCERY})."
    )
    seen = Counter(v.chancery)
    if seen and v.parliament is not None and v.parliament.presides == faction:
        listed = ", ".join(n.card(x) + (f" x{k}" if k > 1 else "") for x, k in seen.items())
        chancery = inlines(
            f"The Chancery holds {_n(v.chancery_size, 'card')}; you preside over Parliament, and see them "
            f"({ids.DEAL_CHANCERY}): {listed}."
        )
    out.append(para(chancery))
    return out
