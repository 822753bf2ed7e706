"""Limits on ids and free texts (``docs/limits.md``): what a command may carry.

An id is 1 to ``ID_MAX`` characters of ``a-z 0-9 - _`` starting with a letter or a
digit. A free text (a name, a note, a reason, a ruling's summary) is one line: no line
break, no control character (Unicode Cc), no invisible format character (Cf, among them
the right-to-left override and the other bidirectional controls), no line or paragraph
separator (Zl, Zp) and no lone surrogate (Cs), and at most a given number of characters.

Each check answers ``None`` (fine) or one sentence saying what is wrong and where; it
never echoes the input whole (``shown`` keeps a short, escaped prefix). The service
refuses such a command before the rules or the log see it; ``decide`` refuses it too
(``ORDER.invalid``), so a preview answers the same.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Final, cast

ID_MAX: Final = 64  # any id a command names (a player's chosen id gets a faction prefix)
CHOSEN_ID_MAX: Final = 40  # an id someone chooses: a game id, an id in orders (AS rg), a data id
FACTION_ID_MAX: Final = 20  # a faction id (so "red-" + a chosen id fits in ID_MAX)
NAME_MAX: Final = 80  # a game's, a player's, a faction's, a place's or a card's name
NOTE_MAX: Final = 500  # a note, a reason, a ruling's summary
LINE_MAX: Final = 500  # one line of a post of orders, as the log keeps it
SEED_MAX: Final = 128  # the GM's random seed
EXPLANATION_MAX: Final = 2_000  # a ruling's explanation, as the engine wrote it (imports)
WORD_MAX: Final = 64  # a rule id, a time, a result word (imports)
KEY_MAX: Final = 200  # an idempotency key
PATH_MAX: Final = 1024  # a data folder on the server
LIST_MAX: Final = 100  # the ids in one command (a path, the nobles aboard, the invited)
RANDOM_MAX: Final = 2**31 - 1  # an injected random value
ORDERS_MAX_CHARS: Final = 20_000  # a post of text orders
ORDERS_MAX_LINES: Final = 200

ID_PATTERN: Final = r"^[a-z0-9][a-z0-9_-]*$"
_ID: Final = re.compile(r"[a-z0-9][a-z0-9_-]*")  # ID_PATTERN, matched whole
ID_RULE: Final = "letters a-z, digits, '-' and '_', starting with a letter or a digit"

_LINE_BREAKS: Final = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
_BIDI: Final = frozenset(
    "\u061c\u200e\u200f" + "".join(map(chr, range(0x202A, 0x202F))) + "\u2066\u2067\u2068\u2069"
)
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_SHOWN: Final = 30


def shown(value: object, limit: int = _SHOWN) -> str:
    """``value`` as a short quoted one-line echo: escaped (``repr``), and cut to
    ``limit`` characters with an ellipsis when longer."""
    if not isinstance(value, str):
        return f"a {type(value).__name__}"
    return repr(value[:limit]) + ("…" if len(value) > limit else "")


def bad_character(text: str) -> tuple[int, str] | None:
    """The first character a one-line text may not hold: its 1-based position and what
    it is in words; ``None`` if there is none."""
    if text.isprintable():  # the fast path: no Cc, Cf, Cs, Zl, Zp (nor Co, Cn, odd spaces)
        return None
    for i, ch in enumerate(text, start=1):
        cat = unicodedata.category(ch)
        if cat not in _REFUSED_CATEGORIES:
            continue
        code = f"U+{ord(ch):04X}"
        if ch in _LINE_BREAKS:
            return i, f"a line break ({code})"
        if ch == "\t":
            return i, "a tab (U+0009)"
        if ch in _BIDI:
            return i, f"a bidirectional control ({code})"
        if cat == "Cc":
            return i, f"a control character ({code})"
        if cat == "Cs":
            return i, f"a lone surrogate ({code})"
        return i, f"an invisible format character ({code})"
    return None


def text_problem(value: object, what: str, limit: int, *, required: bool = False) -> str | None:
    """What is wrong with ``value`` as a one-line free text of at most ``limit``
    characters (``required``: not blank); ``None`` if nothing."""
    if not isinstance(value, str):
        return f"the {what} must be text, not {shown(value)}"
    if len(value) > limit:
        return f"the {what} is {len(value):,} characters long; at most {limit:,} are allowed"
    if required and not value.strip():
        return f"the {what} is empty"
    bad = bad_character(value)
    if bad is not None:
        at, desc = bad
        return f"the {what} must be one line of plain text: character {at} is {desc}"
    return None


def id_problem(value: object, what: str, limit: int = ID_MAX) -> str | None:
    """What is wrong with ``value`` as an id of at most ``limit`` characters."""
    if not isinstance(value, str):
        return f"the {what} must be an id, not {shown(value)}"
    if not value:
        return f"the {what} is empty: give an id"
    if len(value) > limit:
        return f"the {what} {shown(value)} is {len(value):,} characters long; an id has at most {limit}"
    if not _ID.fullmatch(value):
        return f"the {what} {shown(value)} is not an id: an id is {ID_RULE}"
    return None


def is_id(value: object, limit: int = ID_MAX) -> bool:
    return isinstance(value, str) and 0 < len(value) <= limit and _ID.fullmatch(value) is not None


# Free-text fields of the rules commands (every other text field holds ids).
_FREE_TEXT: Final = {"summary": NOTE_MAX, "note": NOTE_MAX}


def command_problem(command: object) -> str | None:
    """What is wrong with a rules command's fields (ids, texts, lists, numbers);
    ``None`` if each holds what it may. Judges shapes only: whether a unit or a place
    exists is for the rules."""
    names = _FIELD_NAMES.get(type(command))  # only a dataclass's type is kept there
    if names is None:
        if not dataclasses.is_dataclass(command) or isinstance(command, type):
            return "not a command"
        names = _FIELD_NAMES[type(command)] = tuple(f.name for f in dataclasses.fields(command))
    for name in names:
        value = getattr(command, name)
        if _fine(name, value):
            continue
        kind = getattr(command, "kind", type(command).__name__)
        where = f"{name.rstrip('_')} field of the {kind.replace('_', ' ')}"
        problem = _field_problem(name, value, where)
        if problem is not None:
            return problem
    return None


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
#: Strings ``_fine`` found to be ids (places, nobles, factions come back in command after
#: command): a set's look-up instead of the pattern's; emptied when it grows past
#: ``_IDS_KEPT`` (request ids are new each time).
_IDS: set[str] = set()
_IDS_KEPT: Final = 65_536


def _fine(name: str, value: object) -> bool:
    """A quick look: True only where ``_field_problem`` finds nothing (the common case,
    judged without building its messages); False: look closer."""
    if value is None or value is True or value is False:
        return True
    t = type(value)
    if t is str:
        if name in _FREE_TEXT:
            return False
        text = cast(str, value)
        if text in _IDS:
            return True
        if 0 < len(text) <= ID_MAX and _ID.fullmatch(text) is not None:
            if len(_IDS) >= _IDS_KEPT:
                _IDS.clear()
            _IDS.add(text)
            return True
        return False
    if t is int:
        return abs(cast(int, value)) <= RANDOM_MAX
    if t is tuple:
        items = cast(tuple[object, ...], value)
        if len(items) > LIST_MAX:
            return False
        for v in items:  # noqa: SIM110 (a loop: all() would build a generator for each list)
            if not _fine(name, v):
                return False
        return True
    return False


def _field_problem(name: str, value: object, where: str) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return (
            None
            if abs(value) <= RANDOM_MAX
            else f"the {where} holds a number too large ({value.bit_length()} bits)"
        )
    if isinstance(value, str):
        if name in _FREE_TEXT:
            return text_problem(value, where, _FREE_TEXT[name])
        return id_problem(value, where)
    if isinstance(value, tuple):
        if len(value) > LIST_MAX:
            return f"the {where} lists {len(value):,} items; at most {LIST_MAX} are allowed"
        for i, v in enumerate(value, start=1):
            p = _field_problem(name, v, f"{where} (item {i})")
            if p is not None:
                return p
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # a record inside (a ransom's terms)
        for f in dataclasses.fields(value):
            p = _field_problem(f.name, getattr(value, f.name), f"{f.name.rstrip('_')} field of the {where}")
            if p is not None:
                return p
        return None
    return f"the {where} holds {shown(value)}"
