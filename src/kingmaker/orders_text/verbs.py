"""Every verb of the order grammar (``grammar.lark``), players' and the GM's, with its
forms and examples: the one source of ``docs/orders.md`` and ``kingmaker orders
--syntax [VERB]``, and of the example a syntax error shows (``closest_verb``).

Each verb names the grammar's statements it covers (``Verb.statements``, the ``->``
names of ``statement``); ``tests/orders_text/test_syntax_doc.py`` checks that every
statement of the grammar has a verb, that every example parses to one of its verb's
statements and reads as an order in a game, and that ``docs/orders.md`` is the text
``syntax_text()`` writes, so the documentation cannot drift from the grammar.

>>> verb_named("move").title
'MOVES'
>>> closest_verb("Percy marches to York").title
'MOVES'
"""

from __future__ import annotations

import difflib
import functools
import re
from typing import Final

from .verb_table import GM, PLAYERS, PLAYERS_VERBS, Verb
from .verb_table_gm import GM_VERBS

__all__ = ["GM", "PLAYERS", "VERBS", "Verb", "closest_verb", "syntax_text", "verb_named", "verbs_named"]

VERBS: Final[tuple[Verb, ...]] = PLAYERS_VERBS + GM_VERBS


@functools.cache
def _by_statement() -> dict[str, Verb]:
    return {s: v for v in VERBS for s in v.statements}


def verb_of_statement(statement: str) -> Verb | None:
    """The verb of one of the grammar's statements (``move``, ``accept_alliance``)."""
    return _by_statement().get(statement)


def verb_named(word: str) -> Verb | None:
    """The verb ``word`` names: its title (``ACCEPTS ALLIANCE``), a statement of it
    (``move``), or one of its words (``MOVE``); None for none."""
    w = " ".join(word.replace("_", " ").split()).lower()
    if not w:
        return None
    for v in VERBS:
        if w == v.title.lower() or w.replace(" ", "_") in v.statements:
            return v
    for v in VERBS:
        if w in v.words:
            return v
    return None


def verbs_named(word: str) -> tuple[Verb, ...]:
    """Every verb ``word`` looks up: its title, a statement of it, or one of its words
    (``LEAVES``: LEAVES and LEAVES ALLIANCE)."""
    w = " ".join(word.replace("_", " ").split()).lower()
    if not w:
        return ()
    return tuple(
        v
        for v in VERBS
        if w == v.title.lower()
        or w.replace(" ", "_") in v.statements
        or w in v.words
        or w in v.title.lower().split()
    )


# -- the closest verb to a line that does not read ------------------------------------------

# words players write for a verb the grammar spells otherwise
_SYNONYMS: Final = {
    "march": "MOVES", "marches": "MOVES", "ride": "MOVES", "rides": "MOVES", "travel": "MOVES",
    "travels": "MOVES", "walk": "MOVES", "walks": "MOVES", "heads": "MOVES", "head": "MOVES",
    "proceeds": "MOVES", "proceed": "MOVES", "retreats": "MOVES", "retreat": "MOVES",
    "boards": "EMBARKS", "board": "EMBARKS", "ships": "SAILS", "docks": "SAILS",
    "lays": "BESIEGES", "invests": "BESIEGES", "assaults": "ATTACKS", "charges": "ATTACKS",
    "joins": "FORM ARMY", "join": "FORM ARMY", "permits": "GRANTS", "allows": "GRANTS",
    "answer": "CONFIRMS", "answers": "CONFIRMS",
}  # fmt: skip
_WORD: Final = re.compile(r"[A-Za-z][A-Za-z'’-]*")


@functools.cache
def grammar_verbs() -> frozenset[str]:
    """Every spelling of the grammar's verbs (``moves``, ``move``, ``disembark``...),
    read from ``grammar.lark``'s verb rules (``_moves: "moves"i | "move"i``)."""
    from .syntax import grammar_text  # the grammar module imports this one

    text = grammar_text()
    section = text.split("// -- verbs", 1)[1].split("// -- statements", 1)[0]
    return frozenset(w.lower() for w in re.findall(r'"([A-Za-z]+)"i', section))


@functools.cache
def grammar_starts() -> frozenset[str]:
    """The keywords a statement starts with when it has no subject (the GM's ``STORM``,
    ``SET``, ``END``, ...), read from ``grammar.lark``'s statements."""
    from .syntax import grammar_text

    text = grammar_text()
    section = text.split("// -- statements", 1)[1].split("\nforce:", 1)[0]
    out: set[str] = set()
    for line in section.splitlines():
        body = re.sub(r"^\s*(?:statement:|\|)\s*", "", line)
        group = re.match(r"\(([^)]*)\)", body)
        if group:
            out.update(w.lower() for w in re.findall(r'"([A-Za-z]+)"i', group.group(1)))
            continue
        first = re.match(r'"([A-Za-z]+)"i', body)
        if first:
            out.add(first.group(1).lower())
        elif body.startswith("_"):  # a verb rule: `_releases name AT ...` (the GM's RELEASE)
            rule = re.match(r"(_\w+)", body)
            if rule:
                alts = re.search(rf"^{rule.group(1)}:(.*)$", text, re.M)
                if alts:
                    out.update(w.lower() for w in re.findall(r'"([A-Za-z]+)"i', alts.group(1)))
    return frozenset(out)


@functools.cache
def _spellings() -> dict[str, Verb]:
    """Each word of the verbs -> its verb (the first verb that lists it)."""
    out: dict[str, Verb] = {}
    for v in VERBS:
        for w in v.words:
            out.setdefault(w, v)
    return out


def _verb_words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def closest_verb(text: str, expected: tuple[str, ...] = ()) -> Verb:
    """The verb a line that does not read was most likely meant to use: a verb of the
    grammar in it (the first), else the GM's keyword it starts with, else a word players
    use for one (``marches``), else a word close to a verb (a misspelling: ``moevs``),
    else another word of a verb (``alliance``), else the verb the parser could take
    where it stopped, else MOVES, the commonest order."""
    words = _verb_words(text)
    spellings = _spellings()
    verbs = grammar_verbs()
    for i, w in enumerate(words):
        if w in verbs:
            return _in_context(w, words[i + 1 : i + 2], words)
    if words and words[0] in grammar_starts():
        return _in_context(words[0], words[1:2], words)
    for w in words:
        title = _SYNONYMS.get(w)
        if title is not None:
            return _titled(title)
    for w in words:
        close = near_verb(w)
        if close is not None:
            return _in_context(close, (), words)
    for w in words:
        v = spellings.get(w)
        if v is not None:
            return v
    for e in expected:
        v = verb_named(e)
        if v is not None:
            return v
    return VERBS[0]


def _in_context(w: str, after: list[str] | tuple[str, ...], words: list[str]) -> Verb:
    """The verb of the keyword ``w`` given the word after it and the line's words."""
    nxt = after[0] if after else ""
    if w in ("go", "goes"):
        return _titled("GOES WITH" if nxt == "with" else "MOVES")  # "Percy goes to York"
    if w in ("end", "draw"):  # END TURN / PHASE, DRAW EVENT / CROWN CARD: by the next word
        pairs = {v.title.lower().split()[1]: v for v in VERBS if v.title.lower().startswith(f"{w} ")}
        close = difflib.get_close_matches(nxt, list(pairs), n=1, cutoff=0.5) if nxt else []
        return pairs[close[0]] if close else _titled("END TURN" if w == "end" else "DRAW EVENT")
    if w in ("accept", "accepts", "decline", "declines", "confirm", "confirms", "reject", "rejects"):
        if "ransom" in words:
            return _titled("ACCEPTS RANSOM")
        if "alliance" in words and w not in ("reject", "rejects"):
            return _titled("ACCEPTS ALLIANCE")
    if w in ("leave", "leaves") and "alliance" in words:
        return _titled("LEAVES ALLIANCE")
    if w in ("close", "closes") and "parliament" not in words:
        return _titled("CLOSES PARLIAMENT")
    v = _spellings().get(w)
    return v if v is not None else VERBS[0]


def _titled(title: str) -> Verb:
    v = verb_named(title)
    assert v is not None, title
    return v


def is_verb_word(word: str, *, fuzzy: bool = False) -> bool:
    """Whether ``word`` spells a verb of the grammar (or, with ``fuzzy``, nearly does)."""
    w = word.lower()
    if w in grammar_verbs():
        return True
    return fuzzy and near_verb(w) is not None


@functools.lru_cache(maxsize=8192)
def near_verb(word: str) -> str | None:
    """The verb of the grammar ``word`` (four letters or more) nearly spells (difflib's
    ratio at least 0.8: ``moevs``, ``alies``), or None."""
    w = word.lower()
    if len(w) < 4 or len(w) > 20:
        return None
    close = difflib.get_close_matches(w, _sorted_verbs(), n=1, cutoff=0.8)
    return close[0] if close else None


@functools.cache
def _sorted_verbs() -> list[str]:
    return sorted(grammar_verbs())


# -- the documentation ------------------------------------------------------------------------

INTRO: Final = """# Orders as players write them

This page is the order syntax of the forum game: every verb a player or the GM may
write, with its forms and examples. It is written by `kingmaker orders --syntax` from
the table the reader uses (`src/kingmaker/orders_text/verb_table.py`, `verb_table_gm.py`), and
`tests/orders_text/test_syntax_doc.py` checks it against the grammar
(`src/kingmaker/orders_text/grammar.lark`): every verb of the grammar is here, and every
example below reads as an order. `kingmaker orders --syntax MOVES` prints one verb.

## How a post is read

- **One order a line.** A line may start with a number or a bullet (`1.`, `2)`, `(3)`,
  `-`, `*`, `•`) and with a label saying whose order it is (`Red: Percy MOVES TO Ripon`).
  A label alone on its line (`Red:`) labels the lines below it. A player may label only
  their own faction; the GM labels any faction's lines (the GM's own: `GM:`).
- **In phase order.** In a game with phases a post is applied in the order of the
  turn's phases, whatever order its lines were written in: its moves (and new armies,
  heirs taken, nobles brought into play) before its attacks and sieges, the orders of a
  phase in the order written. Answers, declarations and lines that give no order keep
  their place, and no order is moved across an `END PHASE` or `END TURN`. The verdicts
  are listed in line order. A game without phases (`--hand-adjudication`) takes a post
  as written.
- **Keywords** (the words in capitals below) are read in any case, singular or plural
  (`MOVE` / `moves`), and only where the grammar expects them, so a name may hold a
  word such as "on" or "to". A full stop at the end of a line is ignored.
- **Names** are read as players write them, in any case, without "the": an id
  (`percy`), a name (`Percy`), a title a noble holds (`the Earl of Warwick`), the
  first three letters or more when only one thing starts so (`Tadc`), or whole words
  of a name (`Wight`). Quote a name when it holds a keyword or a comma (`"Edward,
  Prince of Wales"`); any name may be quoted (`"Grace Dieu"`). A name that fits
  several things is settled by the game where it can be (the place the unit is at,
  the port its ship is in, a place it can reach); otherwise the reply lists the
  candidates.
- **Ids** (requests `q6`, alliances `rg`, combats `c7`, proposals `m2`) are written
  exactly. `AS <id>` names what an order creates (an alliance, an army, a request).
- **Chatter is ignored, not an error**: greetings (`Hi GM, orders for Red round 1:`),
  thanks and signatures (`thanks! -- Alice`), headings with a round number (`Green,
  rnd 2`, `Gold round two:`), blank lines and comments (`# ...`, `// ...`). Only a line
  that looks like an order (it has a verb, or names a unit, an heir or an id) and does
  not read as one is an error.

## What comes back

Every order line gets a verdict: **accepted**; **pending** (waiting for the factions
named to confirm); **refused**, with the rule id that decided and one sentence saying
why; or a problem of the text: **syntax** (what was expected, the closest verb and its
example), **unknown_name** ("did you mean ...?"), **ambiguous_name** (the candidates).
Chatter is listed as **ignored**. The reply shows how each order was read when the
reader filled something in (`read as: Percy MOVES FROM York TO Helmsley VIA Malton`).

## The GM's desk

```
kingmaker orders GAME post.txt --as red                    # read, judge and send a player's post
kingmaker orders GAME post.txt --as red --check            # judge only
kingmaker orders GAME post.txt --as red --receipt bbcode   # the receipt to send back (or markdown, plain)
kingmaker orders GAME --as gm <<< 'END TURN'               # the GM's own orders
kingmaker orders --syntax [VERB]                           # this page, or one verb
kingmaker pending GAME                                     # what waits for whom
kingmaker answer GAME green q17 confirm                    # a faction's answer sent by PM
kingmaker end-turn GAME
kingmaker report GAME --format bbcode                      # the turn's report for the thread
kingmaker report GAME --kind private --for red             # a faction's private report
```

A post exits 0 when every order was accepted, is pending or was ignored, and 1 when any
was refused or did not read.
"""


def _section(v: Verb) -> str:
    lines = [f"### {v.title}", "", v.summary, "", "```"]
    lines += list(v.forms)
    lines += ["```", "", "Examples:", "", "```"]
    lines += list(v.examples)
    lines += ["```"]
    if v.notes:
        lines.append("")
        lines += [f"- {n}" for n in v.notes]
    return "\n".join(lines) + "\n"


def syntax_text(word: str | None = None) -> str:
    """The order syntax as Markdown: the whole page (``docs/orders.md``), or the
    sections of the verbs ``word`` looks up (empty when it looks up none)."""
    if word is not None:
        found = verbs_named(word)
        return "\n".join(_section(v) for v in found)
    players = [v for v in VERBS if v.who == PLAYERS]
    gm = [v for v in VERBS if v.who == GM]
    index = ", ".join(f"[{v.title}](#{v.anchor})" for v in players)
    gm_index = ", ".join(f"[{v.title}](#{v.anchor})" for v in gm)
    parts = [
        INTRO,
        "## Players' orders\n",
        f"{index}.\n",
        "A `<unit>` is a noble, an army, a ship or a fleet; `<nobles>` is one or more names "
        "joined by commas, AND or &. Square brackets mark what may be left out; the "
        "faction of a declaration (`[<faction>]`) is the author's when left out.\n",
        *(_section(v) for v in players),
        "## The GM's orders\n",
        f"{gm_index}.\n",
        "The GM writes a faction's order with its label (`Red: Percy MOVES TO Ripon`); the "
        "orders below are the GM's own.\n",
        *(_section(v) for v in gm),
    ]
    return "\n".join(parts)
