"""Reading a forum post of orders: each line parsed with the grammar (``grammar.lark``),
its names resolved against the game state (``names.py``), and turned into a rules
command (``kingmaker.rules.commands``).

``parse_post(state, text, author)`` never raises for bad input: every line gives an
order, a :class:`~kingmaker.orders_text.errors.Problem`, or nothing (blank lines and
comments). Who gives an order is the post's author (a faction id, or ``GM``), or the
faction a line is labelled with (``Red: ...``), which only the GM may use for another
faction. Orders to units are given ``by`` that faction; the rules refuse foreign units
themselves.

Some orders read well but cannot be turned into a command in this state (``Percy LANDS
AT Hull`` when Percy is aboard no ship; ``FORM ARMY IN York`` when he is not at York):
they come back as orders with a ``refusal`` (rule ``ORDER.invalid``) instead of a
command, the same kind of answer ``decide`` gives.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Final

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from kingmaker.rules import commands as c
from kingmaker.rules import ids
from kingmaker.rules.decision import Decision, Result
from kingmaker.rules.limits import CHOSEN_ID_MAX, ORDERS_MAX_CHARS, ORDERS_MAX_LINES, id_problem
from kingmaker.rules.queries import Destinations, legal_destinations, road_path, zone_routes
from kingmaker.rules.state import GameState
from kingmaker.rules.units import name as rules_name

from . import names as nm
from .errors import AmbiguousName, OrderTextError, Problem, SyntaxProblem, UnknownName

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


# -- results -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParsedOrder:
    """One order of a post: the command it gives, or, when the text reads well but names
    something the state cannot carry out as a command, the refusal (``ORDER.invalid``)."""

    line: int
    column: int
    text: str
    command: c.Command | None
    refusal: Decision | None = None

    @property
    def by(self) -> str | None:
        return self.command.by if self.command is not None else None


@dataclass(frozen=True, slots=True)
class ParsedPost:
    """Every order of a post with its line, and every line that gave no order."""

    orders: tuple[ParsedOrder, ...]
    problems: tuple[Problem, ...]

    @property
    def commands(self) -> tuple[c.Command, ...]:
        """The commands of the orders that became commands, in order."""
        return tuple(o.command for o in self.orders if o.command is not None)

    @property
    def ok(self) -> bool:
        """No problems and no order refused while reading."""
        return not self.problems and all(o.refusal is None for o in self.orders)


# -- the public functions ------------------------------------------------------------------


def parse_post(
    state: GameState,
    text: str,
    author: str,
    *,
    faction_names: Mapping[str, str] | None = None,
) -> ParsedPost:
    """Read every line of ``text`` posted by ``author`` (a faction id or ``GM``).

    ``faction_names`` gives the names players use for the factions (``{"red": "Red"}``;
    by default the id, capitalised)."""
    too_big = post_size_problem(text)
    if too_big is not None:
        return ParsedPost((), (too_big,))
    who = _author(state, author)
    post = _Post(state, nm.names_for(state, faction_names, who), who)
    orders: list[ParsedOrder] = []
    problems: list[Problem] = []
    for i, line in enumerate(text.splitlines(), start=1):
        got = post.line(i, line)
        if isinstance(got, Problem):
            problems.append(got)
        elif got is not None:
            orders.append(got)
    return ParsedPost(tuple(orders), tuple(problems))


def post_size_problem(text: str) -> Problem | None:
    """The problem of a post too long to read (more than ``ORDERS_MAX_CHARS``
    characters or ``ORDERS_MAX_LINES`` lines), or ``None``: such a post is refused whole."""
    if len(text) > ORDERS_MAX_CHARS:
        return SyntaxProblem(
            1,
            1,
            text.splitlines()[0][:80] if text.strip() else "",
            f"this post has {len(text):,} characters; a post may have at most {ORDERS_MAX_CHARS:,}: "
            "split it into several posts",
        )
    lines = text.splitlines()
    if len(lines) > ORDERS_MAX_LINES:
        return SyntaxProblem(
            ORDERS_MAX_LINES + 1,
            1,
            lines[ORDERS_MAX_LINES][:80],
            f"this post has {len(lines):,} lines; a post may have at most {ORDERS_MAX_LINES}: "
            "split it into several posts",
        )
    return None


def parse_order(
    state: GameState,
    line: str,
    author: str,
    *,
    faction_names: Mapping[str, str] | None = None,
) -> ParsedOrder:
    """Read one line; raise :class:`OrderTextError` if it has a problem or gives no order."""
    who = _author(state, author)
    post = _Post(state, nm.names_for(state, faction_names, who), who)
    got = post.line(1, line.rstrip("\r\n"))
    if isinstance(got, Problem):
        raise OrderTextError(got)
    if got is None:
        raise OrderTextError(SyntaxProblem(1, 1, line, "the line gives no order", ("an order",), ""))
    return got


def _author(state: GameState, author: str) -> str:
    a = author.strip()
    if a.lower() == c.GM:
        return c.GM
    for f in state.turn_order:
        if f.lower() == a.lower():
            return f
    return a


# -- syntax errors in plain words ------------------------------------------------------------

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
        "ABOARD", "A", "AN", "AMPERSAND",
    }
)  # fmt: skip
# Shown first when many things are expected.
_FIRST: Final = (
    "MOVES", "SAILS", "ENTERS", "LEAVES", "EMBARKS", "LANDS", "FORM", "BESIEGES", "BATTLES",
    "ATTACKS", "DEFENDS", "ALLIES", "CONFIRMS", "REJECTS", "GRANTS", "REVOKES",
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
    if "WORD" in keys and "STRING" in keys:
        keys.remove("STRING")  # "a name" says it
    rank = {k: i for i, k in enumerate(_FIRST)}

    def order(k: str) -> tuple[int, int, str]:
        w = words[k]
        group = 0 if k in ("WORD", "STRING", "INT", "TEXT") else 2 if k == "$END" else 1
        return (group, rank.get(k, len(rank)), w)

    return tuple(dict.fromkeys(words[k] for k in sorted(keys, key=order)))


def _expected_phrase(words: tuple[str, ...]) -> str:
    if not words:
        return _PLAIN["$END"]
    shown = list(words[:_MAX_SHOWN])
    if len(words) > _MAX_SHOWN:
        return ", ".join(shown) + ", …"
    return nm.join_or(shown)


_ACCEPTS_MEMO: dict[tuple[int, ...], tuple[str, ...]] = {}


def _acceptable(err: UnexpectedInput) -> tuple[str, ...] | None:
    """The terminals the parser could take where it stopped: each candidate of the parse
    table's state is tried through the reductions it would cause (a merged LALR state
    lists more lookaheads than the line's own context allows)."""
    state = getattr(err, "state", None)
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


def _syntax_problem(lineno: int, text: str, err: UnexpectedInput) -> SyntaxProblem:
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
    return SyntaxProblem(lineno, column, text, message, expected, found)


def _misspelt_keyword(before: str, expected: tuple[str, ...]) -> str:
    wanted = [w.lower() for w in expected if w.isalpha() and w.isupper()]
    if not wanted:
        return ""
    kws = keywords()
    for word in reversed(before.split()[-4:]):
        w = word.strip(".,:;!?").lower()
        if not w or w in kws:
            continue
        close = difflib.get_close_matches(w, wanted, n=1, cutoff=0.75)
        if close:
            return f"is “{word}” meant to be {close[0].upper()}?"
    return ""


# -- reading lines -----------------------------------------------------------------------------


class _Fail(Exception):
    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


class _Refuse(Exception):
    def __init__(self, explanation: str, unit: str | None = None, place: str | None = None):
        super().__init__(explanation)
        self.explanation = explanation
        self.unit = unit
        self.place = place


Node = Tree[Token] | Token


def _column(node: Node) -> int:
    if isinstance(node, Token):
        return node.column if isinstance(node.column, int) else 1
    return getattr(node.meta, "column", 1)


def _span(node: Node) -> tuple[int, int]:
    if isinstance(node, Token):
        return (node.start_pos or 0, node.end_pos or 0)
    return (getattr(node.meta, "start_pos", 0), getattr(node.meta, "end_pos", 0))


def _subtrees(tree: Tree[Token], data: str) -> list[Tree[Token]]:
    return [ch for ch in tree.children if isinstance(ch, Tree) and ch.data == data]


def _first(tree: Tree[Token], data: str) -> Tree[Token] | None:
    for ch in tree.children:
        if isinstance(ch, Tree) and ch.data == data:
            return ch
    return None


@dataclass
class _Post:
    """What the lines of one post share: the state, its names, the author, and the ids
    the post has already taken."""

    state: GameState
    names: nm.Names
    author: str
    taken: set[str] = field(default_factory=set)
    section: str | None = None  # the faction a label alone on its line (``Red:``) gave the lines below

    def line(self, lineno: int, text: str) -> ParsedOrder | Problem | None:
        if not text.strip():
            return None
        try:
            tree = parser().parse(text.translate(_SPACES))
        except UnexpectedInput as e:
            return _syntax_problem(lineno, text, e)
        except LarkError as e:  # pragma: no cover - defensive: any other parser complaint
            return SyntaxProblem(lineno, 1, text, f"the line does not read as an order ({e})")
        line = tree.children[0]
        assert isinstance(line, Tree)
        statement = next(
            (ch for ch in line.children if isinstance(ch, Tree) and ch.data != "label"),
            None,
        )
        label = _first(line, "label")
        reader = _Line(self, lineno, text)
        if statement is None:
            if label is None:
                return None
            self.section = None
            try:
                reader.read_label(label)
            except _Fail as f:
                return f.problem
            self.section = reader.by
            return None
        try:
            reader.read_label(label)
            command = reader.build(statement)
        except _Fail as f:
            return f.problem
        except _Refuse as r:
            refusal = Decision(
                Result.REFUSED,
                ids.ORDER_INVALID,
                f"{r.explanation} ({ids.ORDER_INVALID})",
                unit=r.unit,
                place=r.place,
            )
            return ParsedOrder(lineno, _column(statement), text, None, refusal)
        return ParsedOrder(lineno, _column(statement), text, command)

    def new_id(self, prefix: str, taken: Callable[[str], bool]) -> str:
        n = 1
        while taken(f"{prefix}-{n}") or f"{prefix}-{n}" in self.taken:
            n += 1
        ident = f"{prefix}-{n}"
        self.taken.add(ident)
        return ident

    def destinations_of(self, unit: str) -> Destinations:
        """``legal_destinations`` of ``unit`` (kept with the state's names: a state never
        changes)."""
        cache = self.names.destinations
        d = cache.get(unit)
        if d is None:
            d = cache[unit] = legal_destinations(self.state, unit)
        return d


# Other spaces (no-break, em, ...) read as plain spaces; each stays one character, so
# columns do not move.
_OTHER_SPACES: Final = (
    "\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
_SPACES: Final = str.maketrans(_OTHER_SPACES, " " * len(_OTHER_SPACES))
_NEUTRAL: Final = frozenset({"neutral", "nobody", "none", "no one", "no faction"})
_ASPECT_OF: Final = {
    "road": ids.ROAD,
    "enter": ids.ENTER,
    "ship_enter": ids.SHIP_ENTER,
    "embark": ids.EMBARK,
    "forced_leave": ids.FORCED_LEAVE,
}


class _Line:
    """One line being read: its label decides who speaks, then its statement is built."""

    def __init__(self, post: _Post, lineno: int, text: str):
        self.post = post
        self.state = post.state
        self.names = post.names
        self.lineno = lineno
        self.text = text
        self.by = post.section or post.author
        self.labelled = post.section is not None

    # -- problems -------------------------------------------------------------------------
    def syntax(self, node: Node | None, message: str) -> _Fail:
        col = _column(node) if node is not None else 1
        return _Fail(SyntaxProblem(self.lineno, col, self.text, message))

    # -- names ------------------------------------------------------------------------------
    def raw(self, node: Node) -> str:
        """The text of a name or id as written (a quoted one without its quotes)."""
        if isinstance(node, Tree) and len(node.children) == 1 and isinstance(node.children[0], Token):
            tok = node.children[0]
            a, b = _span(tok)
            if tok.type == "STRING":
                return self.text[a + 1 : b - 1]  # as written (spaces inside quotes are kept)
            if node.data == "ident":
                return self.text[a:b]
        a, b = _span(node)
        return self.text[a:b]

    def resolve(self, node: Node, kinds: frozenset[str], text: str | None = None) -> nm.Entity:
        written = self.raw(node) if text is None else text
        try:
            return self.names.resolve(written, kinds)
        except nm.UnknownNameError as e:
            raise _Fail(
                UnknownName(self.lineno, _column(node), self.text, e.message, written, e.suggestions)
            ) from None
        except nm.AmbiguousNameError as e:
            raise _Fail(
                AmbiguousName(
                    self.lineno,
                    _column(node),
                    self.text,
                    e.message,
                    written,
                    tuple(x.label() for x in e.candidates),
                    tuple(x.id for x in e.candidates),
                )
            ) from None

    def items(self, names: Tree[Token] | None) -> list[Tree[Token]]:
        if names is None:
            return []
        return [ch for ch in names.children if isinstance(ch, Tree)]

    def one(self, names: Tree[Token], kinds: frozenset[str], what: str) -> nm.Entity:
        """The single thing a subject names. A list joined only by commas is first read as
        one name with commas in it ("Edward, Prince of Wales")."""
        parts = self.items(names)
        if len(parts) == 1:
            return self.resolve(parts[0], kinds)
        joints = [self.text[_span(a)[1] : _span(b)[0]] for a, b in itertools.pairwise(parts)]
        if all(j.strip() == "," for j in joints):
            whole = self.text[_span(parts[0])[0] : _span(parts[-1])[1]]
            try:
                return self.names.resolve(whole, kinds)
            except nm.NameProblem:
                pass
        raise self.syntax(parts[1], f"this order is for one {what}; give each {what} its own line")

    def many(self, names: Tree[Token] | None, kinds: frozenset[str]) -> tuple[str, ...]:
        return tuple(self.resolve(p, kinds).id for p in self.items(names))

    def new_ident(self, node: Tree[Token]) -> str:
        """An id the author chooses (``AS RG``, ``FORM ARMY North``): read in lower case,
        and a short id (``kingmaker.rules.limits``) or a problem at its column."""
        ident = self.raw(node).lower()
        problem = id_problem(ident, "id", CHOSEN_ID_MAX)
        if problem is not None:
            raise self.syntax(node, problem)
        self.post.taken.add(ident)
        return ident

    def request_id(self, tree: Tree[Token]) -> str | None:
        as_id = _first(tree, "as_id")
        if as_id is None:
            return None
        return self.new_ident(as_id.children[0])  # type: ignore[arg-type]

    def show(self, ident: str | None) -> str:
        return rules_name(self.state, ident)

    # -- who speaks -----------------------------------------------------------------------
    def read_label(self, label: Tree[Token] | None) -> None:
        if label is None:
            return
        node = label.children[0]
        e = self.resolve(node, nm.SPEAKER)
        if self.post.author != c.GM and e.id != self.post.author:
            raise self.syntax(
                node,
                f"you post as {self.post.author}: only the GM may write a line for "
                f"{'the GM' if e.id == c.GM else e.id}",
            )
        self.by = e.id
        self.labelled = True

    def speaker(self, tree: Tree[Token], subject: Tree[Token] | None) -> str:
        """The faction a declaration is from: its subject, which must be the author (the
        GM, on a line with no label, may write for any faction)."""
        if subject is None:
            return self.by
        e = self.one(subject, nm.SPEAKER, "faction")
        if e.id != self.by:
            if self.by == c.GM and not self.labelled:
                return e.id
            node = self.items(subject)[0]
            if self.labelled:
                raise self.syntax(node, f"the line is labelled {self.by} but the order is {e.id}'s")
            raise self.syntax(node, f"you post as {self.by}: you may not declare for {e.id}")
        return e.id

    # -- building -------------------------------------------------------------------------
    def build(self, st: Tree[Token]) -> c.Command:
        handler: Callable[[Tree[Token]], c.Command] | None = getattr(self, f"_st_{st.data}", None)
        if handler is None:  # pragma: no cover - every statement of the grammar has a builder
            raise self.syntax(st, f"the order “{st.data}” is not known")
        return handler(st)

    def subject(self, st: Tree[Token]) -> Tree[Token] | None:
        first = st.children[0] if st.children else None
        return first if isinstance(first, Tree) and first.data == "names" else None

    def rest(self, st: Tree[Token]) -> list[Node]:
        s = self.subject(st)
        return [ch for ch in st.children if ch is not s]

    # .. where units are ..................................................................
    def land_place(self, unit: str) -> tuple[str | None, bool]:
        """Where a noble or army stands on land (None at sea or off the map) and
        whether inside."""
        state = self.state
        army = state.armies.get(unit)
        if army is not None:
            if army.fleet or not army.units:
                return None, False
            unit = army.units[0]
        n = state.nobles.get(unit)
        if n is None or n.aboard is not None:
            return None, False
        return n.place, n.inside

    def ship_place(self, unit: str) -> tuple[str | None, bool]:
        state = self.state
        army = state.armies.get(unit)
        if army is not None:
            if not army.fleet or not army.units:
                return None, False
            unit = army.units[0]
        s = state.ships.get(unit)
        return (s.place, s.in_port) if s is not None else (None, False)

    # .. moves .............................................................................
    def move_parts(self, st: Tree[Token]) -> dict[str, Tree[Token]]:
        parts: dict[str, Tree[Token]] = {}
        for ch in self.rest(st):
            if not isinstance(ch, Tree):
                continue
            key = ch.data
            if key in parts:
                word = {"from_": "FROM", "in_": "IN", "as_id": "AS", "by_road": "BY ROAD"}.get(
                    str(key), str(key).replace("_", " ").upper()
                )
                raise self.syntax(ch, f"{word} is given twice")
            parts[str(key)] = ch
        return parts

    def _st_move(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.UNIT, "unit")
        parts = self.move_parts(st)
        if unit.kind in (nm.SHIP, nm.FLEET):
            return self.voyage(unit.id, parts, st)
        return self.land_move(unit.id, parts, st)

    def _st_sail(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.UNIT, "ship")
        parts = self.move_parts(st)
        if unit.kind in (nm.SHIP, nm.FLEET):
            return self.voyage(unit.id, parts, st)
        noble = self.state.nobles.get(unit.id)
        if noble is not None and noble.aboard is not None:
            return self.voyage(noble.aboard, parts, st)
        raise _Refuse(f"{unit.name} is not a ship or fleet, and is aboard no ship", unit=unit.id)

    def _destination(self, parts: dict[str, Tree[Token]], kinds: frozenset[str], st: Tree[Token]) -> str:
        to, into = parts.get("to"), parts.get("into")
        if to is not None and into is not None:
            raise self.syntax(into, "give either TO or INTO, not both")
        target = to if to is not None else into
        if target is None:
            raise self.syntax(st, "a move needs a destination: TO <place>")
        return self.resolve(target.children[0], kinds).id

    def land_move(self, unit: str, parts: dict[str, Tree[Token]], st: Tree[Token]) -> c.Command:
        rid = self.request_id_of(parts)
        enter = any(k in parts for k in ("into", "inside", "in_"))
        if "direct" in parts and ("via" in parts or "along" in parts):
            raise self.syntax(parts["direct"], "DIRECT means no places in between: leave out VIA")
        if "along" in parts:
            for k in ("from_", "to", "into", "via"):
                if k in parts:
                    raise self.syntax(parts[k], "ALONG gives the whole path: leave out FROM, TO and VIA")
            path = self.many(self.only(parts["along"]), nm.PLACES)
            self.check_in(parts, path[-1] if path else None)
            return c.MoveRoad(self.by, unit, path, enter, rid)
        dest = self._destination(parts, nm.PLACES, st)
        self.check_in(parts, dest)
        here, _ = self.land_place(unit)
        start = self.resolve(parts["from_"].children[0], nm.PLACES).id if "from_" in parts else here
        if "cross_country" in parts:
            for k in ("via", "direct", "by_road"):
                if k in parts:
                    raise self.syntax(parts[k], "a cross-country move is one step: leave out VIA and BY ROAD")
            if start != here and here is not None:
                raise _Refuse(
                    f"{self.show(unit)} is at {self.show(here)}, not at {self.show(start)}", unit, here
                )
            return c.Move(self.by, unit, dest, enter, rid)
        if start is None:  # at sea, or not on the map: the rules say so
            return c.MoveRoad(self.by, unit, (dest,), enter, rid)
        if "via" in parts:
            via = self.many(self.only(parts["via"]), nm.PLACES)
            return c.MoveRoad(self.by, unit, (start, *via, dest), enter, rid)
        if "direct" in parts:
            return c.MoveRoad(self.by, unit, (start, dest), enter, rid)
        if start == here == dest and not enter:
            raise _Refuse(f"{self.show(unit)} is already at {self.show(here)}", unit, here)
        return infer_land_move(
            self.state, self.post.destinations_of, self.by, unit, start, dest, enter, rid, "by_road" in parts
        )

    def only(self, part: Tree[Token]) -> Tree[Token]:
        inner = part.children[0]
        assert isinstance(inner, Tree)
        return inner

    def request_id_of(self, parts: dict[str, Tree[Token]]) -> str | None:
        as_id = parts.get("as_id")
        return self.new_ident(as_id.children[0]) if as_id is not None else None  # type: ignore[arg-type]

    def check_in(self, parts: dict[str, Tree[Token]], dest: str | None) -> None:
        """``TO <location> IN <space>``: on this map a location and its space are one place."""
        node = parts.get("in_")
        if node is None:
            return
        space = self.resolve(node.children[0], nm.PLACES).id
        if dest is not None and space != dest:
            raise _Refuse(
                f"{self.show(dest)} is not in {self.show(space)}: TO <location> IN <space> names "
                f"one place twice (IN {self.show(dest)})",
                place=space,
            )

    def voyage(self, ship: str, parts: dict[str, Tree[Token]], st: Tree[Token]) -> c.Command:
        for k in ("along", "cross_country", "by_road", "inside"):
            if k in parts:
                word = {"cross_country": "CROSS COUNTRY", "by_road": "BY ROAD"}.get(k, k.upper())
                raise self.syntax(parts[k], f"{word} is for moves on land, not for ships")
        if "direct" in parts and "via" in parts:
            raise self.syntax(parts["direct"], "DIRECT means no sea zones in between: leave out VIA")
        rid = self.request_id_of(parts)
        dest = self._destination(parts, nm.WATERS, st)
        at, _ = self.ship_place(ship)
        if "from_" in parts:
            start = self.resolve(parts["from_"].children[0], nm.WATERS).id
            if at is not None and start != at:
                raise _Refuse(f"{self.show(ship)} is at {self.show(at)}, not at {self.show(start)}", ship, at)
        zone: str | None = None
        if "in_" in parts:
            node = parts["in_"]
            zone = self.resolve(node.children[0], nm.WATERS).id
            if zone == dest:
                zone = None
            elif zone not in self.state.board.seas or zone not in _seas_of(self.state, dest):
                raise _Refuse(f"{self.show(dest)} is not in {self.show(zone)}", ship, zone)
        if "via" in parts:
            via = self.many(self.only(parts["via"]), nm.WATERS)
            return c.Sail(self.by, ship, dest, via, rid)
        if "direct" in parts:
            return c.Sail(self.by, ship, dest, (), rid)
        return c.Sail(
            self.by, ship, dest, infer_via(self.state, self.post.destinations_of, ship, dest, zone), rid
        )

    def _st_enter(self, st: Tree[Token]) -> c.Command:
        return self.in_or_out(st, c.Enter)

    def _st_leave(self, st: Tree[Token]) -> c.Command:
        return self.in_or_out(st, c.Leave)

    def in_or_out(self, st: Tree[Token], make: type[c.Enter] | type[c.Leave]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.LAND_UNIT, "noble or army")
        rest = _subtrees(st, "name")
        if rest:
            place = self.resolve(rest[0], nm.PLACES).id
            here, _ = self.land_place(unit.id)
            if here is not None and here != place:
                verb = "go into" if make is c.Enter else "leave"
                raise _Refuse(
                    f"{unit.name} is at {self.show(here)}, not at {self.show(place)}: to {verb} "
                    f"{self.show(place)} move there first",
                    unit.id,
                    here,
                )
        return make(self.by, unit.id, self.request_id(st))

    # .. ships ...............................................................................
    def _st_embark(self, st: Tree[Token]) -> c.Command:
        nobles = self.many(self.subject(st), nm.NOBLES)
        rest = [ch for ch in self.rest(st) if isinstance(ch, Tree) and ch.data == "name"]
        ship = self.resolve(rest[0], nm.SHIPS).id
        return c.Embark(self.by, ship, nobles, self.request_id(st))

    def _st_land(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        nobles = self.many(subject, nm.NOBLES)
        parts = self.move_parts(st)
        at, into = parts.get("at"), parts.get("into")
        if at is not None and into is not None:
            raise self.syntax(into, "give either AT or INTO, not both")
        where = at if at is not None else into
        if where is None:
            raise self.syntax(st, "a landing needs a port: AT <port>")
        port = self.resolve(where.children[0], nm.PLACES).id
        enter = into is not None or "inside" in parts
        rid = self.request_id_of(parts)
        if "from_" in parts:
            ship = self.resolve(parts["from_"].children[0], nm.SHIPS).id
            return c.Disembark(self.by, ship, nobles, port, enter, rid)
        if not nobles:
            raise self.syntax(st, "name the nobles who land, or the ship: LAND FROM <ship> AT <port>")
        aboard: dict[str, list[str]] = {}
        for n in nobles:
            noble = self.state.nobles.get(n)
            if noble is None or noble.aboard is None:
                raise _Refuse(f"{self.show(n)} is aboard no ship", n)
            aboard.setdefault(noble.aboard, []).append(n)
        if len(aboard) > 1:
            who = "; ".join(
                f"{', '.join(map(self.show, v))} aboard {self.show(k)}" for k, v in aboard.items()
            )
            raise _Refuse(
                f"the nobles are aboard different ships ({who}): give each ship's landing its own order"
            )
        return c.Disembark(self.by, next(iter(aboard)), nobles, port, enter, rid)

    # .. armies ............................................................................
    def _st_form(self, st: Tree[Token]) -> c.Command:
        force = next(ch for ch in st.children if isinstance(ch, Tree) and ch.data in ("army", "fleet"))
        fleet = force.data == "fleet"
        units = self.many(self.subject(st), nm.SHIPS if fleet else nm.NOBLES)
        ident = _first(st, "ident")
        as_id = _first(st, "as_id")
        if ident is not None and as_id is not None:
            raise self.syntax(as_id, f"the {force.data}'s id is given twice")
        if ident is not None:
            army = self.new_ident(ident)
        elif as_id is not None:
            army = self.new_ident(as_id.children[0])  # type: ignore[arg-type]
        else:
            state = self.state
            army = self.post.new_id(
                str(force.data), lambda x: x in state.armies or x in state.nobles or x in state.ships
            )
        place_node = _first(st, "name")
        if place_node is not None:
            place = self.resolve(place_node, nm.WATERS if fleet else nm.PLACES).id
            for u in units:
                where = self.ship_place(u)[0] if fleet else self.land_place(u)[0]
                if where != place:
                    at = f"at {self.show(where)}" if where is not None else "not on land"
                    raise _Refuse(f"{self.show(u)} is {at}, not at {self.show(place)}", u, place)
        return c.FormArmy(self.by, army, units, fleet)

    # .. combat ...............................................................................
    def _st_siege(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.LAND_UNIT, "noble or army")
        place = self.resolve(_first(st, "name") or st, nm.PLACES).id
        return c.Siege(self.by, unit.id, place, self.request_id(st))

    def _st_attack(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.LAND_UNIT, "noble or army")
        target_node = _first(st, "name")
        assert target_node is not None
        return c.Attack(self.by, unit.id, self.target(unit.id, target_node, None), self.request_id(st))

    def _st_battle(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.LAND_UNIT, "noble or army")
        nodes = _subtrees(st, "name")
        place = self.resolve(nodes[1], nm.PLACES).id if len(nodes) > 1 else None
        return c.Attack(self.by, unit.id, self.target(unit.id, nodes[0], place), self.request_id(st))

    def target(self, unit: str, node: Tree[Token], place: str | None) -> str:
        """What an attack is aimed at: a noble or army, or a faction's one unit at the
        place (by default, where the attacker stands)."""
        e = self.resolve(node, nm.TARGET)
        if e.kind != nm.FACTION:
            return e.id
        here, inside = self.land_place(unit)
        where = place or here
        if where is None:
            raise _Refuse(f"{self.show(unit)} is not on land: name the noble or army to attack", unit)
        found = self.units_of_at(e.id, where)
        if len(found) > 1 and where == here:
            same = [u for u in found if self.land_place(u)[1] == inside]
            if len(same) == 1:
                found = same
        if not found:
            raise _Refuse(f"{e.name} has no noble or army at {self.show(where)}", unit, where)
        if len(found) > 1:
            labels = tuple(self.unit_label(u) for u in found)
            raise _Fail(
                AmbiguousName(
                    self.lineno,
                    _column(node),
                    self.text,
                    f"{e.name} has several units at {self.show(where)}: {nm.join_or(list(labels))}; "
                    "name the one to attack",
                    self.raw(node),
                    labels,
                    tuple(found),
                )
            )
        return found[0]

    def units_of_at(self, faction: str, place: str) -> list[str]:
        state = self.state
        out: list[str] = []
        for army in sorted(state.armies.values(), key=lambda a: a.id):
            if army.fleet or not army.units:
                continue
            members = [state.nobles[u] for u in army.units if u in state.nobles]
            if any(m.faction == faction for m in members) and self.land_place(army.id)[0] == place:
                out.append(army.id)
        for n in sorted(state.nobles.values(), key=lambda n: n.id):
            free = n.id not in state.army_of and n.captive_of is None and n.aboard is None
            if n.faction == faction and free and n.place == place:
                out.append(n.id)
        return out

    def unit_label(self, unit: str) -> str:
        army = self.state.armies.get(unit)
        if army is None:
            return self.show(unit)
        return f"{unit} ({', '.join(self.show(u) for u in army.units)})"

    def _st_defend(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        unit = self.one(subject, nm.NOBLES, "noble")
        other = self.resolve(_first(st, "name") or st, nm.NOBLES).id
        return c.Defend(self.by, unit.id, other)

    # .. heirs (the GM's rulings) ...........................................................
    def _st_heir_with(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        heir = self.one(subject, nm.HEIRS, "heir")
        noble = self.resolve(_first(st, "name") or st, nm.NOBLES).id
        return c.MoveHeir(self.by, heir.id, with_noble=noble, inside=_first(st, "inside") is not None)

    def _st_heir_left(self, st: Tree[Token]) -> c.Command:
        subject = self.subject(st)
        assert subject is not None
        heir = self.one(subject, nm.HEIRS, "heir")
        place = self.resolve(_first(st, "name") or st, nm.PLACES).id
        return c.MoveHeir(self.by, heir.id, place=place, inside=_first(st, "inside") is not None)

    # .. alliances ...........................................................................
    def _st_declare(self, st: Tree[Token]) -> c.Command:
        lists = _subtrees(st, "names")
        subject = lists[0] if len(lists) == 2 else None
        by = self.speaker(st, subject)
        invited = self.many(lists[-1], nm.FACTIONS)
        as_id = _first(st, "as_id")
        if as_id is not None:
            ident = self.new_ident(as_id.children[0])  # type: ignore[arg-type]
        else:
            state = self.state
            ident = self.post.new_id(
                "alliance",
                lambda x: (
                    x in state.alliances
                    or x in state.declarations
                    or x in state.closed
                    or x in state.requests
                ),
            )
        return c.DeclareAlliance(by, ident, invited)

    def declaration_by(self, node: Tree[Token], answering: str) -> str:
        """The one declaration by the faction ``node`` names that awaits ``answering``."""
        f = self.resolve(node.children[0], nm.FACTIONS)
        found = sorted(
            d.id for d in self.state.declarations.values() if d.by == f.id and answering in d.awaiting
        )
        return self.one_of(
            found,
            node,
            f"{f.name} has no alliance declaration awaiting {answering}'s answer",
            f"{f.name} has several alliance declarations awaiting {answering}",
        )

    def one_of(self, found: list[str], node: Tree[Token], none: str, several: str) -> str:
        if not found:
            raise _Refuse(none)
        if len(found) > 1:
            raise _Fail(
                AmbiguousName(
                    self.lineno,
                    _column(node),
                    self.text,
                    f"{several}: {nm.join_or(found)}; give its id",
                    self.raw(node),
                    tuple(found),
                    tuple(found),
                )
            )
        return found[0]

    def alliance_ref(self, st: Tree[Token], kinds: frozenset[str], by: str, leaving: bool) -> str:
        ref = next(
            ch for ch in self.rest(st) if isinstance(ch, Tree) and ch.data in ("with_faction", "ident")
        )
        if ref.data == "ident":
            return self.resolve(ref, kinds).id
        if not leaving:
            return self.declaration_by(ref, by)
        f = self.resolve(ref.children[0], nm.FACTIONS)
        found = sorted(a.id for a in self.state.alliances.values() if {by, f.id} <= set(a.members))
        return self.one_of(
            found, ref, f"{by} is in no alliance with {f.id}", f"{by} is in several alliances with {f.id}"
        )

    def _st_accept_alliance(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        ident = self.alliance_ref(st, nm.DECLARATIONS | nm.ALLIANCES, by, leaving=False)
        return c.AnswerAlliance(by, ident, True)

    def _st_decline_alliance(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        ident = self.alliance_ref(st, nm.DECLARATIONS | nm.ALLIANCES, by, leaving=False)
        return c.AnswerAlliance(by, ident, False)

    def _st_leave_alliance(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        ident = self.alliance_ref(st, nm.ALLIANCES | nm.DECLARATIONS, by, leaving=True)
        return c.LeaveAlliance(by, ident)

    def _st_confirm(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        e = self.resolve(_first(st, "ident") or st, nm.ANSWERABLE)
        if e.kind == nm.DECLARATION:
            return c.AnswerAlliance(by, e.id, True)
        return c.Confirm(by, e.id)

    def _st_reject(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        e = self.resolve(_first(st, "ident") or st, nm.ANSWERABLE)
        if e.kind == nm.DECLARATION:
            return c.AnswerAlliance(by, e.id, False)
        return c.Reject(by, e.id)

    # .. permissions ............................................................................
    def grant_parts(self, st: Tree[Token]) -> tuple[str, str, str, tuple[str, ...]]:
        by = self.speaker(st, self.subject(st))
        to = self.resolve(_first(st, "name") or st, nm.FACTIONS).id
        place: str | None = None
        aspects: list[str] = []
        for clause in _subtrees(st, "grant_clause"):
            node = _first(clause, "name")
            assert node is not None
            p = self.resolve(node, nm.PLACES).id
            if place is not None and p != place:
                raise self.syntax(node, "a permission is for one place: write a line for each place")
            place = p
            aspects += [
                _ASPECT_OF[str(a.data)] for a in clause.children if isinstance(a, Tree) and a.data != "name"
            ]
        assert place is not None
        return by, to, place, tuple(aspects)

    def _st_grant(self, st: Tree[Token]) -> c.Command:
        by, to, place, aspects = self.grant_parts(st)
        return c.Grant(by, to, place, aspects)

    def _st_revoke(self, st: Tree[Token]) -> c.Command:
        by, to, place, aspects = self.grant_parts(st)
        return c.Revoke(by, to, place, aspects)

    def _st_revoke_all(self, st: Tree[Token]) -> c.Command:
        by = self.speaker(st, self.subject(st))
        nodes = _subtrees(st, "name")
        to = self.resolve(nodes[0], nm.FACTIONS).id
        place = self.resolve(nodes[1], nm.PLACES).id
        return c.Revoke(by, to, place, ())

    # .. the GM ..................................................................................
    def _st_storm(self, st: Tree[Token]) -> c.Command:
        ship_node, port_node = _subtrees(st, "name")
        return c.Storm(self.by, self.resolve(ship_node, nm.SHIPS).id, self.resolve(port_node, nm.PLACES).id)

    def _st_set_control(self, st: Tree[Token]) -> c.Command:
        place_node, who = _subtrees(st, "name")
        place = self.resolve(place_node, nm.PLACES).id
        if nm.normalize(self.raw(who)) in _NEUTRAL:
            return c.SetControl(self.by, place, None)
        return c.SetControl(self.by, place, self.resolve(who, nm.FACTIONS).id)

    def _st_set_neutral(self, st: Tree[Token]) -> c.Command:
        return c.SetControl(self.by, self.resolve(_subtrees(st, "name")[0], nm.PLACES).id, None)

    def _st_kill(self, st: Tree[Token]) -> c.Command:
        return c.Kill(self.by, self.resolve(_subtrees(st, "name")[0], nm.NOBLES).id)

    def _st_capture(self, st: Tree[Token]) -> c.Command:
        noble, faction = _subtrees(st, "name")
        return c.Capture(self.by, self.resolve(noble, nm.NOBLES).id, self.resolve(faction, nm.FACTIONS).id)

    def _st_release(self, st: Tree[Token]) -> c.Command:
        noble, place = _subtrees(st, "name")
        return c.Release(
            self.by,
            self.resolve(noble, nm.NOBLES).id,
            self.resolve(place, nm.PLACES).id,
            _first(st, "inside") is not None,
        )

    def _st_resolve(self, st: Tree[Token]) -> c.Command:
        combat = self.resolve(_subtrees(st, "ident")[0], nm.COMBATS).id
        spans = [_span(t) for t in st.children if isinstance(t, Token) and t.type == "TEXT"]
        text = self.text[spans[0][0] : spans[0][1]] if spans else ""
        return c.ResolveCombat(self.by, combat, text.strip())

    def _st_expire(self, st: Tree[Token]) -> c.Command:
        return c.Expire(self.by, self.resolve(_subtrees(st, "ident")[0], nm.REQUESTS).id)

    def _st_deadline(self, st: Tree[Token]) -> c.Command:
        return c.Deadline(self.by, self.resolve(_subtrees(st, "ident")[0], nm.DECLARATIONS).id)

    def _st_end_turn(self, st: Tree[Token]) -> c.Command:
        return c.EndTurn(self.by)

    def _st_reveal_seed(self, st: Tree[Token]) -> c.Command:
        return c.RevealSeed(self.by)

    def _st_random(self, st: Tree[Token]) -> c.Command:
        values = tuple(int(t.value) for t in st.children if isinstance(t, Token) and t.type == "INT")
        return c.InjectRandom(self.by, values)


def _seas_of(state: GameState, place: str) -> tuple[str, ...]:
    """The sea zones a port borders (none for anything else)."""
    p = state.board.places.get(place)
    return p.seas if p is not None else ()


# -- paths -------------------------------------------------------------------------------------


def infer_land_move(
    state: GameState,
    destinations: Callable[[str], Destinations],
    by: str,
    unit: str,
    start: str,
    dest: str,
    enter: bool,
    request: str | None,
    by_road: bool,
) -> c.Command:
    """The command for ``unit MOVES [FROM start] TO dest`` with no path given.

    From where the unit stands: the path ``legal_destinations`` finds (a cross-country
    neighbour off the roads becomes a ``Move``); ``TO <here> IN <here>`` is entering.
    Otherwise (not reachable, or FROM another place) the shortest path on the bare road
    map, so that the rules refuse it naming the first place that blocks (or where the
    unit really is)."""
    here = _unit_land_place(state, unit)
    if start == here:
        if dest == here:
            return c.Enter(by, unit, request) if enter else c.MoveRoad(by, unit, (here,), enter, request)
        for d in destinations(unit).places:
            if d.place == dest:
                if d.by_road:
                    return c.MoveRoad(by, unit, d.path, enter, request)
                if not by_road:
                    return c.Move(by, unit, dest, enter, request)
    raw = road_path(state.board, start, dest)
    if raw is not None and len(raw) >= 2:
        return c.MoveRoad(by, unit, raw, enter, request)
    if start == here and not by_road and dest in state.board.cross_links.get(start, ()):
        return c.Move(by, unit, dest, enter, request)
    return c.MoveRoad(by, unit, (start, dest), enter, request)


def _unit_land_place(state: GameState, unit: str) -> str | None:
    army = state.armies.get(unit)
    if army is not None:
        if army.fleet or not army.units:
            return None
        unit = army.units[0]
    n = state.nobles.get(unit)
    if n is None or n.aboard is not None:
        return None
    return n.place


def infer_via(
    state: GameState,
    destinations: Callable[[str], Destinations],
    ship: str,
    dest: str,
    zone: str | None = None,
) -> tuple[str, ...]:
    """The sea zones a voyage crosses before ``dest``: the route ``legal_destinations``
    finds, or the same search on the bare sea map when the ship may not sail now. With
    ``zone`` (``TO <port> IN <zone>``) the route reaches the port from that zone."""
    if zone is None:
        for d in destinations(ship).waters:
            if d.place == dest:
                return d.path[1:-1]
    routes = _sea_routes(state, ship)
    if routes is None:
        return ()
    board = state.board
    if zone is not None:
        route = routes.get(zone)
        return route if route is not None else (zone,)
    if dest in board.seas:
        route = routes.get(dest)
        return route[:-1] if route else ()
    for sea in sorted(routes):
        if sea in _seas_of(state, dest):
            return routes[sea]
    return ()


def _sea_routes(state: GameState, ship: str) -> dict[str, tuple[str, ...]] | None:
    """For each sea zone, the zones crossed to reach it (it included), from the ship's
    port or zone (not included): ``rules.queries.zone_routes`` of the ship or the
    fleet's lead ship."""
    army = state.armies.get(ship)
    lead = state.ships.get(army.units[0] if army is not None and army.units else ship)
    if lead is None:
        return None
    return {sea: route[1:] for sea, route in zone_routes(state, lead).items()}
