"""A battle or a siege's draw as the reports tell it: a short paragraph ("Blue's 120
against Gold's 80 is 3:2; the card (Parley with the Irish Lords, 3:2) is decisive: Blue
wins; Mowbray is captured") and a table (the sides and their strengths, the ratio, the
card, the outcome, the dead, the captured, the spoils).

Everything here is read from the log: the battle's record (``BattleFought``) and the
entries its draw wrote, or the siege's (``SiegeDrawn``); a siege's strengths before its
draw are counted by the rules (``rules.sieges``) on the state before it. Nothing is
decided here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kingmaker.log.envelope import Envelope
from kingmaker.rules import events as ev
from kingmaker.rules.fighting import ratio_words, strength
from kingmaker.rules.sieges import besiegers, defenders, held
from kingmaker.rules.state import GameState

from .document import Block, Inline, Parts, bold, inlines, para, table
from .naming import Names

Sentence = tuple[Inline, ...]


def _faction(n: Names, faction: str | None) -> Inline:
    return n.faction(faction or None)


def _verb(people: Sequence[str], one: str, many: str) -> str:
    return one if len(people) == 1 else many


def _card(n: Names, card: str, odds: str | None) -> str:
    return f"{n.card(card)}, {odds}" if odds else n.card(card)


def battle_sentence(n: Names, e: ev.BattleFought) -> Sentence:
    """``Battle at Framlingham: Blue's 120 against Gold's 80 is 3:2; the card (…, 3:2) is
    decisive: Blue wins; Mowbray is captured.``"""
    (a_by, sa), (d_by, sd) = e.strengths
    A, D = _faction(n, a_by), _faction(n, d_by)
    card = _card(n, e.card, e.odds)
    opening: Sentence = inlines(A, f"'s {sa} against ", D, f"'s {sd} is {ratio_words(e.ratio)}")
    if e.outcome == "bad_weather":
        verdict = inlines(f"the card ({card}) is Bad Weather: no one dies or is taken, and both sides stay")
    elif e.outcome == "desperate":
        opening = inlines(A, f"'s {sa} against ", D, f"'s {sd}: ", D, " is more than four times as strong")
        verdict = inlines(f"the attack is desperate and the card ({card}) gives it to ", D, ": ", D, " wins")
    elif e.outcome == "decisive":
        verdict = inlines(f"the card ({card}) is decisive: ", _faction(n, e.winner), " wins")
    else:
        verdict = inlines(
            f"the card ({card}) is not decisive: no one wins, and both sides stay where they are"
        )
    parts: list[Parts] = [bold(f"Battle at {n.place(e.place)}:"), " ", opening, "; ", verdict]
    if e.killed:
        parts.append(f"; {n.units(e.killed)} {_verb(e.killed, 'dies', 'die')}")
    if e.captured:
        parts.append(f"; {n.units(e.captured)} {_verb(e.captured, 'is', 'are')} captured")
    return inlines(*parts, ".")


def siege_sentence(n: Names, e: ev.SiegeDrawn, before: GameState) -> Sentence:
    """``Siege of Goodrich: the card (A Bloody Stalemate, majority) takes it: Goodrich
    falls to Red; Talbot is captured.`` (``before``: the state before the entry, while
    the siege is still there.)"""
    siege = before.sieges.get(e.place)
    by = siege.by if siege is not None else None
    place = n.place(e.place)
    card = n.card(e.card)
    head = bold(f"Siege of {place}:")
    dead = f"; {n.units(e.killed)} {_verb(e.killed, 'dies', 'die')}" if e.killed else ""
    if e.outcome == "continues":
        return inlines(head, f" the card ({card}) is Bad Weather: the siege goes on.")
    odds = _odds(before, e.card)
    if e.outcome == "lifted":
        return inlines(
            head,
            f" the card ({_card(n, e.card, odds)}) is drawn{dead}; the besiegers no longer match the garrison "
            "and the nobles inside, and the siege is lifted.",
        )
    taken = f"; {n.units(e.captured)} {_verb(e.captured, 'is', 'are')} captured" if e.captured else ""
    return inlines(
        head,
        f" the card ({_card(n, e.card, odds)}) takes it{dead}: {place} falls to ",
        _faction(n, by),
        f"{taken}.",
    )


def _odds(state: GameState, card: str) -> str | None:
    found = state.catalog.events.get(card)
    half = found.battle if found is not None else None
    return half.odds.value if half is not None and half.odds is not None else None


# -- the blocks of a battle or a siege's draw ----------------------------------------------


@dataclass(frozen=True)
class Told:
    """What a battle or siege's blocks say, and the entries of its group they cover."""

    blocks: list[Block]
    covered: frozenset[int]  # the seqs of the entries the blocks tell


def _spoils(n: Names, entries: Sequence[Envelope]) -> tuple[list[Parts], set[int]]:
    parts: list[Parts] = []
    seqs: set[int] = set()
    for env in entries:
        e = env.event
        if isinstance(e, ev.AwardsMoved) and e.source.startswith("noble:") and e.to.startswith("hand:"):
            if parts:
                parts.append("; ")
            who = e.to.partition(":")[2]
            parts += [
                ", ".join(n.card(c) for c in e.cards),
                f" (from {n.unit(e.source.partition(':')[2])}) to ",
                n.faction(who),
            ]
            seqs.add(env.seq)
    return parts, seqs


def _covered(entries: Sequence[Envelope], dead: Sequence[str], taken: Sequence[str], place: str) -> set[int]:
    out = set()
    for env in entries:
        e = env.event
        if (
            isinstance(e, ev.CardDrawn | ev.OrderGiven | ev.PhaseBegan | ev.BattleFought | ev.SiegeDrawn)
            or (isinstance(e, ev.NobleDied) and e.noble in dead and e.cause in ("battle", "siege"))
            or (isinstance(e, ev.NobleTaken) and e.noble in taken)
            or (isinstance(e, ev.ControlSet) and e.place == place)
        ):
            out.add(env.seq)
    return out


def battle_blocks(n: Names, entries: Sequence[Envelope], fought: Envelope) -> Told:
    """The paragraph and the table of the battle ``fought`` (a ``BattleFought`` entry),
    from the entries its draw wrote."""
    e = fought.event
    assert isinstance(e, ev.BattleFought)
    (a_by, sa), (d_by, sd) = e.strengths
    spoils, spoiled = _spoils(n, entries)
    outcome = {
        "bad_weather": inlines("Bad Weather: no one dies or is taken"),
        "desperate": inlines("a desperate attack: ", _faction(n, e.winner), " wins"),
        "decisive": inlines("decisive: ", _faction(n, e.winner), " wins"),
    }.get(e.outcome, inlines("not decisive: no one wins"))
    rule = f" [{fought.rule}]" if fought.rule else ""
    blocks: list[Block] = [
        para(battle_sentence(n, e), rule),
        table(
            ["Battle", n.place(e.place)],
            [
                ["Attacking", inlines(_faction(n, a_by), f": {n.units(e.attackers)} ({sa})")],
                ["Defending", inlines(_faction(n, d_by), f": {n.units(e.defenders)} ({sd})")],
                ["Ratio", ratio_words(e.ratio)],
                ["Card", f"{n.card(e.card)} ({e.odds or 'Bad Weather'})"],
                ["Outcome", outcome],
                ["Dead", n.units(e.killed) if e.killed else "none"],
                ["Captured", n.units(e.captured) if e.captured else "none"],
                ["Spoils", inlines(*spoils) if spoils else "none"],
            ],
        ),
    ]
    return Told(blocks, frozenset(_covered(entries, e.killed, e.captured, "") | spoiled))


def siege_blocks(
    n: Names, entries: Sequence[Envelope], drawn: Envelope, start: GameState, before: GameState
) -> Told:
    """The paragraph and the table of a siege's draw (``drawn``, a ``SiegeDrawn``
    entry): ``start`` is the state before the draw, ``before`` the state just before
    ``drawn`` (the siege still in it)."""
    e = drawn.event
    assert isinstance(e, ev.SiegeDrawn)
    siege = start.sieges.get(e.place) or before.sieges.get(e.place)
    place = start.board.places[e.place]
    rows: list[list[Parts]] = []
    if siege is not None:
        laying = besiegers(start, siege)
        inside = defenders(start, place.id)
        total, _ = held(start, place, inside)
        within = f"; {n.units(inside)} ({strength(start, inside, place)})" if inside else ""
        rows += [
            [
                "Besieging",
                inlines(_faction(n, siege.by), f": {n.units(laying)} ({strength(start, laying, place)})"),
            ],
            ["Besieged", f"garrison {place.garrison}{within}; together {total}"],
        ]
    odds = _odds(start, e.card)
    spoils, spoiled = _spoils(n, entries)
    by = siege.by if siege is not None else None
    outcome: tuple[Inline, ...] = {
        "continues": inlines("Bad Weather: the siege goes on"),
        "lifted": inlines("the siege is lifted"),
    }.get(e.outcome, inlines(f"{place.name} falls to ", _faction(n, by)))
    rows += [
        ["Card", f"{n.card(e.card)} ({odds or 'Bad Weather'})"],
        ["Outcome", outcome],
        ["Dead", n.units(e.killed) if e.killed else "none"],
        ["Captured", n.units(e.captured) if e.captured else "none"],
        ["Spoils", inlines(*spoils) if spoils else "none"],
    ]
    rule = f" [{drawn.rule}]" if drawn.rule else ""
    blocks: list[Block] = [para(siege_sentence(n, e, before), rule), table(["Siege", place.name], rows)]
    return Told(blocks, frozenset(_covered(entries, e.killed, e.captured, e.place) | spoiled))
