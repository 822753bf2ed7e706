"""The receipt of a post of orders: what the GM sends back to the player who posted it.

Every line of the post that was an order, was meant as one, or was chatter, with its
verdict (accepted, pending, refused, not read, not allowed, ignored), the rule that
decided (once: the explanation's own trailing "(rule)" is not repeated), why, how the
engine read the order when it filled something in, and "did you mean" for a name it did
not know. Built from the verdicts of the one use case of a post (``service.posts``), so
the CLI (``kingmaker orders ... --receipt bbcode``) and the web pages give the same
receipt; rendered in BBCode, Markdown or plain text by ``render.reports.render``.

The verdicts are the author's own (names read and refusals explained within what the
author may see), so the receipt tells the player nothing they may not know.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kingmaker.service.posts import IGNORED, NOT_ALLOWED, LineVerdict

from .document import Block, Document, Inline, Item, bold, bullets, heading, inlines, italic, item, para
from .naming import Names

if TYPE_CHECKING:
    from kingmaker.service.game_service import GameService

# what the player reads for each result, and how the summary counts it
_NOT_READ = {"syntax": "syntax", "unknown_name": "unknown name", "ambiguous_name": "ambiguous name"}
_ORDER = ("accepted", "pending", "refused", "not read", NOT_ALLOWED, IGNORED)


def _verdict_word(result: str) -> str:
    return "not read" if result in _NOT_READ else result


def _without_rule(explanation: str, rule: str | None) -> str:
    """The explanation without its trailing ``(rule)`` (the receipt names the rule once)."""
    text = explanation.strip()
    if rule:
        text = re.sub(rf"\s*\({re.escape(rule)}\)\s*$", "", text)
    return text


def _same(written: str, reading: str) -> bool:
    return " ".join(written.split()).casefold().rstrip(".") == " ".join(reading.split()).casefold().rstrip(
        "."
    )


def line_item(v: LineVerdict, names: Names) -> Item:
    """One line of the receipt: ``Line 3: “Percy MOVES TO Leeds” — refused
    [LOC.neutral.road]: Percy may not pass through Pontefract: ...``."""
    word = _verdict_word(v.result)
    parts: list[Inline | str] = [f"Line {v.line}: \u201c{v.text}\u201d \u2014 ", bold(word)]
    if v.result in _NOT_READ:
        parts.append(f" ({_NOT_READ[v.result]}, column {v.column})")
    if v.rule:
        parts.append(f" [{v.rule}]")
    if v.result == "pending" and v.awaiting:
        parts.append(", awaiting ")
        parts.extend(names.factions_list(v.awaiting))
    why = _without_rule(v.explanation, v.rule)
    if why:
        parts.append(f": {why}")
    if v.suggestions and v.result == "unknown_name" and "did you mean" not in why:
        parts.append(f"; did you mean {' or '.join(v.suggestions)}?")
    if v.request and v.result == "pending" and v.request not in why:
        parts.append(f" (request {v.request})")
    if v.reading and v.result != IGNORED and not _same(v.text, v.reading):
        parts += [". Read as: ", italic(v.reading)]
    return item(*parts)


def summary(verdicts: Sequence[LineVerdict]) -> str:
    """``3 accepted, 1 pending, 1 not read, 2 ignored.``"""
    counts = Counter(_verdict_word(v.result) for v in verdicts)
    parts = [f"{counts[k]} {k}" for k in _ORDER if counts[k]]
    parts += [f"{n} {k}" for k, n in sorted(counts.items()) if k not in _ORDER]
    return (", ".join(parts) or "no orders") + "."


def receipt(
    verdicts: Sequence[LineVerdict],
    names: Names,
    *,
    author: str,
    round: int,
    turn: str,
    sent: bool = True,
) -> Document:
    """The receipt of ``author``'s post (a faction id, or the GM's) in ``round``, in
    ``turn``'s turn: a heading, the summary, one item per line, and what to do next."""
    title = inlines(
        "Orders received from " if sent else "Orders checked (not sent) for ",
        names.faction(author),
        f", round {round} (",
        names.possessive(turn),
        " turn)",
    )
    blocks: list[Block] = [heading(1, *title), para(summary(verdicts))]
    if verdicts:
        blocks.append(bullets(line_item(v, names) for v in verdicts))
    fix = [v for v in verdicts if not v.ok]
    if fix:
        blocks.append(
            para(
                italic(
                    "Lines not read, refused or not allowed gave no order: send them again, put right, "
                    "before the turn ends."
                )
            )
        )
    if any(v.result == "pending" for v in verdicts):
        blocks.append(para(italic("A pending order is carried out once the factions named confirm it.")))
    return Document(tuple(blocks))


def receipt_for(
    service: GameService,
    game: str,
    author: str,
    verdicts: Sequence[LineVerdict],
    *,
    sent: bool = True,
    at: tuple[int, str] | None = None,
) -> Document:
    """The receipt of a post the service answered (``GameService.post``), with the
    game's faction names and colours; ``at``: the round and turn the post was read in
    (by default, the game's now)."""
    state = service.state(game)
    names = Names.of(state.board, state.catalog, service.settings(game).factions)
    rnd, turn = at if at is not None else (state.round, state.turn)
    return receipt(verdicts, names, author=author, round=rnd, turn=turn, sent=sent)
