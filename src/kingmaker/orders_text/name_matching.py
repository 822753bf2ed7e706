"""Matching names as players write them: the normal form names are compared in, and near
misses for a name that does not resolve (difflib's ratio over the names sharing the most
letter pairs).

>>> normalize("The St. George's  Channel")
'st georges channel'
>>> did_you_mean(["Leeds", "Lewes"])
'did you mean Leeds or Lewes?'
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable, Mapping
from typing import Final

SUGGEST_CUTOFF: Final = 0.6  # how close a near miss must be (difflib's ratio)
SUGGEST_SPREAD: Final = 0.08  # near misses this much less close than the best are left out
SUGGEST_POOL: Final = 40  # names compared closely (those sharing the most letter pairs)

_QUOTES = re.compile(r"['’`]")
_NON_WORD = re.compile(r"[^\w]+")


def normalize(text: str) -> str:
    """The form names are compared in: lower case, no apostrophes, other punctuation and
    underscores as spaces, single spaces, no leading "the"."""
    # names are short and asked for again and again; a long text is not worth keeping
    return _normalize_cached(text) if len(text) <= 80 else _normalize(text)


@functools.lru_cache(maxsize=8192)
def _normalize_cached(text: str) -> str:
    return _normalize(text)


def _normalize(text: str) -> str:
    s = _QUOTES.sub("", text.lower()).replace("_", " ")
    s = " ".join(_NON_WORD.sub(" ", s).split())
    if s.startswith("the "):
        s = s[4:]
    return s


def letter_pairs(text: str) -> set[str]:
    padded = f" {text} "
    return {padded[i : i + 2] for i in range(len(padded) - 1)}


def close_matches(
    text: str, keys: Iterable[str], index: Mapping[str, list[str]] | None = None
) -> list[tuple[float, str]]:
    """The keys close to ``text`` (difflib's ratio at least ``SUGGEST_CUTOFF``), closest
    first, with their scores. With ``index`` (bigram -> keys), only the keys sharing the
    most letter pairs with ``text`` are compared."""
    if index is not None:
        shared: dict[str, int] = {}
        for bg in letter_pairs(text):
            for k in index.get(bg, ()):
                shared[k] = shared.get(k, 0) + 1
        keys = sorted(shared, key=lambda k: (-shared[k], k))[:SUGGEST_POOL]
    m = difflib.SequenceMatcher()
    m.set_seq2(text)
    out: list[tuple[float, str]] = []
    for k in keys:
        m.set_seq1(k)
        if (
            m.real_quick_ratio() >= SUGGEST_CUTOFF
            and m.quick_ratio() >= SUGGEST_CUTOFF
            and m.ratio() >= SUGGEST_CUTOFF
        ):
            out.append((m.ratio(), k))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def did_you_mean(suggestions: Iterable[str]) -> str:
    """``did you mean Tadcaster?``, ``did you mean Leeds or Lewes?``"""
    s = list(suggestions)
    if len(s) > 1:
        return f"did you mean {', '.join(s[:-1])} or {s[-1]}?"
    return f"did you mean {s[0]}?" if s else ""
