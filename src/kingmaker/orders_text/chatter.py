"""Forum chatter in a post of orders: greetings (``Hi GM, orders for Red round 1:``),
thanks and signatures (``thanks! -- Alice``), headings with a round number (``Green, rnd
2``, ``Gold round two:``). Such a line is recognised and listed as *ignored*, never an
error; only a line that looks like an order and is not one is an error.

A line looks like an order (``looks_like_order``) when it holds a verb of the grammar
(or a word one letter or two from one: ``ALIES``), starts with one of the GM's keywords
(``END``, ``SET``, ...), is numbered (``1.``), or names a unit, a royal heir or an id the
author may know (a near miss of a unit's name counts). Every order the grammar reads
holds one of these, so a real order, misspelt or not, is never taken for chatter
(``tests/orders_text/test_chatter.py`` checks it on every canonical order text).

>>> chatter_reason("thanks! -- Alice")
'thanks or a signature'
"""

from __future__ import annotations

import difflib
import re
import weakref
from dataclasses import dataclass
from typing import ClassVar, Final

from kingmaker.rules.state import GameState

from . import names as nm
from .verbs import grammar_starts, is_verb_word

_WORD: Final = re.compile(r"[^\W\d_](?:[\w'’\-]*\w)?|\d+")
_NUMBERED: Final = re.compile(r"^\s*(?:\d+[.)]|\(\d+\))\s")
_LEAD: Final = re.compile(r"^\s*(?:\d+[.)]|\(\d+\)|[-*•])?\s*")
_SIGNATURE: Final = re.compile(r"^\s*(?:--|—|–|~)")
_NUMBER_WORDS: Final = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "first": 1, "second": 2, "third": 3,
    "fourth": 4, "fifth": 5, "sixth": 6,
}  # fmt: skip
_ROUND: Final = re.compile(
    r"\b(?:round|rnd|rd|turn|r)\s*[#:.]?\s*(\d+|" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE
)
_GREETINGS: Final = frozenset(
    {
        "hi",
        "hello",
        "hey",
        "dear",
        "greetings",
        "good",
        "howdy",
        "hail",
        "morning",
        "evening",
        "afternoon",
        "yo",
    }
)
_THANKS: Final = frozenset(
    {
        "thanks",
        "thank",
        "thx",
        "ty",
        "cheers",
        "regards",
        "best",
        "bye",
        "cya",
        "ta",
        "sincerely",
        "yours",
        "later",
    }
)
NEAR: Final = 0.85  # how close a word run must be to a unit's name to count as one (difflib)


@dataclass(frozen=True, slots=True)
class Ignored:
    """A line of a post that is chatter, not an order: kept for the post's verdicts
    and receipt as *ignored*, with why (``reason``). A heading naming one faction
    (``faction``) labels the lines below it when the author may write for it."""

    kind: ClassVar[str] = "ignored"
    line: int
    text: str
    reason: str
    faction: str | None = None
    round: int | None = None  # the round a heading names

    @property
    def message(self) -> str:
        """``a greeting: ignored``."""
        return f"{self.reason}: ignored"


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def looks_like_order(names: nm.Names, text: str) -> bool:
    """Whether ``text`` (a line that did not read as an order) looks like one: it holds
    a verb of the grammar or a near miss of one, starts with a GM's keyword, is
    numbered, or names (or nearly names) a unit or an heir, or an id ``names`` knows."""
    if _NUMBERED.match(text):
        return True
    words = _words(text)
    if any(is_verb_word(w, fuzzy=True) for w in words if not w.isdigit()):
        return True
    starts = grammar_starts()
    body = _LEAD.sub("", text, count=1)
    heads = [body, body.split(":", 1)[1] if ":" in body else ""]
    for h in heads:
        first = _words(h)[:1]
        if first and first[0].lower() in starts:
            return True
    return _names_something(names, words)


def _names_something(names: nm.Names, words: list[str]) -> bool:
    """Whether a run of up to five ``words`` is the name, id or title of a unit or heir,
    or (on a short line) nearly is (``Grace Deiu``), or one word is an id the author may
    know (``q6``, ``c7``)."""
    for w in words:
        try:
            names.resolve(w, nm.ID_KINDS)
            return True
        except nm.NameProblem:
            pass
    keys = unit_keys(names.state)
    runs = [
        nm.normalize(" ".join(words[i : i + size]))
        for size in range(1, min(5, len(words)) + 1)
        for i in range(len(words) - size + 1)
    ]
    if any(r in keys for r in runs):
        return True
    if len(words) > SHORT:
        return False
    by_letter = _by_letter(keys)
    return any(
        len(r) >= 5 and difflib.get_close_matches(r, by_letter.get(r[0], ()), n=1, cutoff=NEAR)
        for r in runs
        if r.count(" ") < 3
    )


_LETTERS: dict[frozenset[str], dict[str, list[str]]] = {}


def _by_letter(keys: frozenset[str]) -> dict[str, list[str]]:
    """``keys`` by their first letter (a near miss of a name keeps its first letter)."""
    got = _LETTERS.get(keys)
    if got is None:
        got = {}
        for k in sorted(keys):
            got.setdefault(k[0], []).append(k)
        if len(_LETTERS) > 16:
            _LETTERS.clear()
        _LETTERS[keys] = got
    return got


SHORT: Final = 12  # a line of at most this many words is searched for near misses of names
_KEYS: dict[int, tuple[weakref.ref[GameState], frozenset[str]]] = {}


def unit_keys(state: GameState) -> frozenset[str]:
    """The names, ids and titles of every noble, ship, army, fleet and royal heir of
    ``state`` and its card set, as names are compared (``names.normalize``); kept for
    the states most recently asked about."""
    hit = _KEYS.get(id(state))
    if hit is not None and hit[0]() is state:
        return hit[1]
    cat = state.catalog
    out: set[str] = set()
    for card in cat.nobles.values():
        out.update((card.id, card.name, card.title or ""))
    for n in state.nobles.values():
        out.add(n.id)
        out.update(cat.awards[a].name for a in n.awards if a in cat.awards)
    for ship in cat.ships.values():
        out.update((ship.id, ship.name))
    out.update(state.ships)
    out.update(state.armies)
    for heir in cat.heirs.values():
        out.update((heir.id, heir.name))
    out.update(state.heirs)
    keys = frozenset(k for k in (nm.normalize(x) for x in out) if len(k.replace(" ", "")) >= 3)
    if len(_KEYS) > 16:
        _KEYS.clear()
    _KEYS[id(state)] = (weakref.ref(state), keys)
    return keys


def chatter_reason(text: str) -> str:
    """What kind of chatter ``text`` is, in words (for a line that is no order)."""
    words = [w.lower() for w in _words(text)]
    if _SIGNATURE.match(text) or any(w in _THANKS for w in words):
        return "thanks or a signature"
    if words and words[0] in _GREETINGS:
        return "a greeting"
    if _ROUND.search(text):
        return "a heading"
    return "no verb and no unit's name, so not an order"


def heading_round(text: str) -> int | None:
    """The round a heading names (``rnd 2``, ``round two``), or None."""
    m = _ROUND.search(text)
    if m is None:
        return None
    n = m.group(1).lower()
    return int(n) if n.isdigit() else _NUMBER_WORDS.get(n)


def heading_faction(names: nm.Names, text: str) -> str | None:
    """The one faction a heading names (``Gold round two:``), or None."""
    words = _words(_ROUND.sub(" ", text))
    found: set[str] = set()
    for w in words:
        try:
            e = names.resolve(w, nm.FACTIONS)
        except nm.NameProblem:
            continue
        if nm.normalize(w) in {nm.normalize(e.name), nm.normalize(e.id)}:
            found.add(e.id)
    return found.pop() if len(found) == 1 else None


def chatter(names: nm.Names, lineno: int, text: str) -> Ignored | None:
    """``text`` as chatter (a line that did not read as an order), or None when it
    looks like an order: then its problem is the answer."""
    if looks_like_order(names, text):
        return None
    reason = chatter_reason(text)
    rnd = heading_round(text)
    faction = heading_faction(names, text) if rnd is not None else None
    if rnd is not None:
        if reason != "a heading":
            reason = f"{reason} with a round number"
        now = names.state.round
        if rnd != now:
            reason += f" (it names round {rnd}; this is round {now})"
    return Ignored(lineno, text, reason, faction, rnd)
