"""The grammar of forum orders (``grammar.lark``), its LALR parser, and a syntax error
told in plain words: what was found, what the line could take there, a keyword the
author may have misspelt, and the closest verb with its example (``verbs``)."""

from __future__ import annotations

import difflib
import functools
import threading
from collections.abc import Sequence
from importlib import resources
from typing import Final

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from . import names as nm
from .errors import SyntaxProblem
from .verbs import Verb, closest_verb, verb_of_statement

GRAMMAR_FILE: Final = "grammar.lark"


@functools.cache
def grammar_text() -> str:
    """The grammar, as shipped with the package."""
    return resources.files(__package__).joinpath(GRAMMAR_FILE).read_text(encoding="utf-8")


_PARSER: list[Lark] = []

_PARSER_LOCK = threading.Lock()


def parser() -> Lark:
    """The LALR parser of one line (built once, even when many threads ask at once)."""
    if not _PARSER:
        with _PARSER_LOCK:
            if not _PARSER:
                _PARSER.append(
                    Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False)
                )
    return _PARSER[0]


_PLAIN: Final = {
    "WORD": "a name",
    "STRING": "a quoted name",
    "INT": "a number",
    "TEXT": "the text of the ruling",
    "$END": "the end of the line",
    "CROSS_COUNTRY": "CROSS COUNTRY",
}

_HIDDEN: Final = frozenset({"BULLET", "WS_INLINE", "COMMENT", "FULL_STOP"})
# Second spellings of keywords: not listed in "expected ..." (the first spelling is).
_SECONDARY: Final = frozenset(
    {
        "MOVE", "SAIL", "ENTER", "LEAVE", "EMBARK", "LAND", "DISEMBARKS", "DISEMBARK", "FORMS",
        "BESIEGE", "BATTLE", "ATTACK", "DEFEND", "GO", "ALLY", "DECLARE", "ACCEPT", "CONFIRM",
        "DECLINE", "REJECT", "GRANT", "REVOKE", "STORMS", "DIRECTLY", "HARBOR", "ENTRANCE",
        "ABOARD", "A", "AN", "AMPERSAND", "EXECUTE", "GIVE", "FREES",
        "SUMMON", "ATTEND", "PROPOSE", "VOTE", "ABSTAIN", "CLOSE", "ASSIGN", "BRING",
    }
)  # fmt: skip
# Second spellings that are also keywords of their own somewhere (CAPTURE and RELEASE
# start the GM's rulings, RANSOM names a ransom in CONFIRMS RANSOM OF, FREE is a
# ransom's terms, CROWN is in the GM's DRAW CROWN CARD, PLAY in BRINGS ... INTO PLAY):
# left out only where their first spelling is listed too.
_SECOND_TO: Final = {
    "CAPTURE": "CAPTURES", "RANSOM": "RANSOMS", "RELEASE": "RELEASES", "FREE": "RELEASES", "CROWN": "CROWNS",
    "PLAY": "PLAYS",
}  # fmt: skip
# Shown first when many things are expected.
_FIRST: Final = (
    "MOVES", "SAILS", "ENTERS", "LEAVES", "EMBARKS", "LANDS", "FORM", "BESIEGES", "BATTLES",
    "ATTACKS", "DEFENDS", "CAPTURES", "ALLIES", "CONFIRMS", "REJECTS", "GRANTS", "REVOKES",
    "RANSOMS", "RELEASES", "EXECUTES", "PLAYS", "ASSIGNS", "BRINGS", "CROWNS", "SUMMONS", "ATTENDS",
    "PROPOSES", "VOTES", "ABSTAINS", "CLOSES",
)  # fmt: skip
_MAX_SHOWN: Final = 12


@functools.cache
def _terminal_words() -> dict[str, str]:
    out: dict[str, str] = {}
    for t in parser().terminals:
        if t.name in _HIDDEN:
            continue
        if isinstance(t.pattern, PatternStr):
            v = t.pattern.value
            out[t.name] = v.upper() if v.isalpha() else f"“{v}”"
        else:
            out[t.name] = _PLAIN.get(t.name, t.name.replace("_", " "))
    out["$END"] = _PLAIN["$END"]
    return out


@functools.cache
def keywords() -> frozenset[str]:
    """Every keyword of the grammar, in lower case."""
    return frozenset(
        t.pattern.value.lower()
        for t in parser().terminals
        if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha()
    )


def _expected_words(expected: Sequence[str]) -> tuple[str, ...]:
    words = _terminal_words()
    keys = [e for e in expected if e not in _HIDDEN and e not in _SECONDARY and e in words]
    keys = [k for k in keys if _SECOND_TO.get(k) not in keys]
    if "WORD" in keys and "STRING" in keys:
        keys.remove("STRING")  # "a name" says it
    rank = {k: i for i, k in enumerate(_FIRST)}

    def order(k: str) -> tuple[int, int, str]:
        w = words[k]
        group = 0 if k in ("WORD", "STRING", "INT", "TEXT") else 2 if k == "$END" else 1
        return (group, rank.get(k, len(rank)), w)

    return tuple(dict.fromkeys(words[k] for k in sorted(keys, key=order)))


def _expected_phrase(words: tuple[str, ...]) -> str:
    """What the line could take, in words: every choice when there are a few; when
    there are many (the start of a line, the verb after a subject), what they are
    (the closest verb's example then shows one)."""
    if not words:
        return _PLAIN["$END"]
    if len(words) > _MAX_SHOWN and "MOVES" in words:
        return "a verb"
    if len(words) > _MAX_SHOWN and _PLAIN["WORD"] in words:
        return "an order: a unit's or a faction's name and a verb, or one of the GM's orders"
    return nm.join_or(list(words))


def with_example(message: str, verb: Verb) -> str:
    """``message`` with the closest verb and its example: ``...; for example, MOVES:
    “Percy MOVES FROM York TO Tadcaster”``."""
    return f"{message}; for example, {verb.title}: “{verb.example}”"


def statement_problem(
    lineno: int, column: int, text: str, message: str, statement: str | None
) -> SyntaxProblem:
    """A problem of a line that parsed (its shape is wrong for the order), with the
    example of its own verb."""
    verb = verb_of_statement(statement) if statement else None
    if verb is None:
        verb = closest_verb(text)
    return SyntaxProblem(
        lineno, column, text, with_example(message, verb), verb=verb.title, example=verb.example
    )


_ACCEPTS_MEMO: dict[tuple[int, ...], tuple[str, ...]] = {}


def _acceptable(err: UnexpectedInput) -> tuple[str, ...] | None:
    """The terminals the parser could take where it stopped: each candidate of the parse
    table's state is tried through the reductions it would cause (a merged LALR state
    lists more lookaheads than the line's own context allows)."""
    return _acceptable_in(getattr(err, "state", None))


def _acceptable_in(state: object) -> tuple[str, ...] | None:
    stack = getattr(state, "state_stack", None)
    conf = getattr(state, "parse_conf", None)
    if not isinstance(stack, list) or conf is None or not stack:
        return None
    key = tuple(stack)
    memo = _ACCEPTS_MEMO.get(key)
    if memo is not None:
        return memo
    states, end_state = conf.states, conf.end_state
    out: list[str] = []
    for term in states[stack[-1]]:
        if not term.isupper():
            continue
        s = list(stack)
        for _ in range(1000):
            entry = states[s[-1]].get(term)
            if entry is None:
                break
            action, arg = entry
            if action.name == "Shift":
                out.append(term)
                break
            size = len(arg.expansion)
            if size:
                del s[-size:]
            s.append(states[s[-1]][arg.origin.name][1])
            if term == "$END" and s[-1] == end_state:
                out.append(term)
                break
    if len(_ACCEPTS_MEMO) > 4096:
        _ACCEPTS_MEMO.clear()
    _ACCEPTS_MEMO[key] = tuple(out)
    return tuple(out)


def syntax_problem(lineno: int, text: str, err: UnexpectedInput) -> SyntaxProblem:
    accepted = _acceptable(err)
    if isinstance(err, UnexpectedToken):
        expected = _expected_words(sorted(accepted if accepted is not None else err.expected))
        tok = err.token
        if tok.type == "$END":
            column = len(text.rstrip()) + 1
            found = ""
            what = "the order stops too soon"
        else:
            column = tok.column if isinstance(tok.column, int) and tok.column > 0 else 1
            found = str(tok.value)
            if tok.type == "TEXT":  # the rest of the line, as the lexer saw it: show its first word
                found = found.split()[0] if found.split() else found
            what = f"“{found}” is not expected here"
        pos = tok.start_pos if isinstance(tok.start_pos, int) and tok.type != "$END" else len(text)
    elif isinstance(err, UnexpectedCharacters):
        expected = _expected_words(sorted(accepted if accepted is not None else err.allowed))
        column = err.column if isinstance(err.column, int) and err.column > 0 else 1
        at = err.pos_in_stream if isinstance(err.pos_in_stream, int) else len(text)
        found = text[at] if 0 <= at < len(text) else ""
        what = f"unexpected character “{found}”"
        pos = at
    else:  # pragma: no cover - the LALR parser raises only the two kinds above
        expected, column, found, what, pos = (), 1, "", "the line does not read as an order", 0
    message = f"{what}: expected {_expected_phrase(expected)}"
    hint = _misspelt_keyword(text[:pos], expected)
    if hint:
        message += f" ({hint})"
    verb = closest_verb(text, expected)
    return SyntaxProblem(
        lineno, column, text, with_example(message, verb), expected, found, verb.title, verb.example
    )


def _misspelt_keyword(before: str, expected: tuple[str, ...], last: int = 4) -> str:
    """A hint for the word among the ``last`` words of ``before`` close to a keyword the
    line could take: ``is “moevs” meant to be MOVES?``."""
    wanted = [w.lower() for w in expected if w.isalpha() and w.isupper()]
    if not wanted:
        return ""
    kws = keywords()
    for word in reversed(before.split()[-last:]):
        w = word.strip(".,:;!?").lower()
        if not w or w in kws:
            continue
        close = difflib.get_close_matches(w, wanted, n=1, cutoff=0.75)
        if close:
            return f"is “{word}” meant to be {close[0].upper()}?"
    return ""


def misspelt_verb(lineno: int, text: str, pos: int) -> SyntaxProblem | None:
    """The syntax problem of a line that parses only because its verb is misspelt into
    the subject (``Percy moevs TO York`` reads as a ship answering a storm): the words
    before ``pos`` (where the keyword that follows the subject starts) end with a word
    close to a keyword the line could take there in its place. None when they do not."""
    before = text[:pos]
    try:
        interactive = parser().parse_interactive(before)
        interactive.exhaust_lexer()
    except UnexpectedInput:  # pragma: no cover - the words before parsed once already
        return None
    accepted = sorted(t for t in _acceptable_in(interactive.parser_state) or () if t != "$END")
    found = text[pos:].split()[0] if text[pos:].split() else ""
    accepted = [t for t in accepted if _terminal_words().get(t, "").lower() != found.lower()]
    expected = _expected_words(accepted)
    hint = _misspelt_keyword(before, expected, last=1)  # the verb's place: the word after the subject
    if not hint:
        return None
    message = f"“{found}” is not expected here: expected {_expected_phrase(expected)} ({hint})"
    verb = closest_verb(text, expected)
    return SyntaxProblem(
        lineno, pos + 1, text, with_example(message, verb), expected, found, verb.title, verb.example
    )
