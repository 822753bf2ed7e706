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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from lark import Token, Tree
from lark.exceptions import LarkError, UnexpectedInput

from kingmaker.rules import commands as c
from kingmaker.rules import ids
from kingmaker.rules.decision import Decision, Result
from kingmaker.rules.limits import ORDERS_MAX_CHARS, ORDERS_MAX_LINES
from kingmaker.rules.state import GameState

from . import names as nm
from .captives import CaptiveOrders
from .chatter import Ignored, chatter
from .combat_orders import CombatOrders
from .diplomacy import DiplomacyOrders
from .errors import OrderTextError, Problem, SyntaxProblem, UnknownName
from .event_orders import EventOrders
from .moves import MoveOrders
from .parliament_orders import ParliamentOrders
from .reading import Fail, Post, Refuse, column_of, first_of
from .rulings import GmRulings
from .syntax import parser, syntax_problem

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
    refused_kind: type[c.Command] | None = None  # the kind of step a refused order would give

    @property
    def by(self) -> str | None:
        return self.command.by if self.command is not None else None

    @property
    def kind(self) -> type[c.Command] | None:
        """The kind of step the order gives, or would give: its command's class; for an
        order refused while reading, the class its statement gives when it reads (a
        movement or combat order; None for the others)."""
        return type(self.command) if self.command is not None else self.refused_kind


@dataclass(frozen=True, slots=True)
class ParsedPost:
    """Every order of a post with its line, every line that gave no order
    (``problems``), and the chatter (``ignored``: greetings, signatures, headings).
    ``section``: the faction the last label alone on its line gave the lines after
    the post (a post read a line at a time passes it on)."""

    orders: tuple[ParsedOrder, ...]
    problems: tuple[Problem, ...]
    ignored: tuple[Ignored, ...] = ()
    section: str | None = None

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
    section: str | None = None,
    first_line: int = 1,
) -> ParsedPost:
    """Read every line of ``text`` posted by ``author`` (a faction id or ``GM``).

    ``faction_names`` gives the names players use for the factions (``{"red": "Red"}``;
    by default the id, capitalised). ``section`` and ``first_line``: for a post read a
    line at a time, the faction the lines above labelled and this line's number."""
    too_big = post_size_problem(text)
    if too_big is not None:
        return ParsedPost((), (too_big,))
    who = _author(state, author)
    post = Post(state, nm.names_for(state, faction_names, who), who, section=section)
    orders: list[ParsedOrder] = []
    problems: list[Problem] = []
    ignored: list[Ignored] = []
    for i, line in enumerate(text.splitlines(), start=first_line):
        got = read_line(post, i, line)
        if isinstance(got, Problem):
            problems.append(got)
        elif isinstance(got, Ignored):
            ignored.append(got)
        elif got is not None:
            orders.append(got)
    return ParsedPost(tuple(orders), tuple(problems), tuple(ignored), post.section)


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
    post = Post(state, nm.names_for(state, faction_names, who), who)
    got = read_line(post, 1, line.rstrip("\r\n"))
    if isinstance(got, Problem):
        raise OrderTextError(got)
    if isinstance(got, Ignored):
        raise OrderTextError(
            SyntaxProblem(1, 1, line, f"the line gives no order: {got.reason}", ("an order",), "")
        )
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


# Other spaces (no-break, em, ...) read as plain spaces; each stays one character, so
# columns do not move.
_OTHER_SPACES: Final = (
    "\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
_SPACES: Final = str.maketrans(_OTHER_SPACES, " " * len(_OTHER_SPACES))


#: The kind of step a statement refused while reading would give (``ParsedOrder.kind``):
#: the statements a later step of the same post can make readable (a unit moved first).
_STATEMENT_KINDS: Final[dict[str, type[c.Command]]] = {
    "move": c.MoveRoad,
    "sail": c.Sail,
    "enter": c.Enter,
    "leave": c.Leave,
    "embark": c.Embark,
    "land": c.Disembark,
    "form": c.FormArmy,
    "capture_heir": c.CaptureHeir,
    "enter_play": c.EnterPlay,
    "noble_enters_play": c.EnterPlay,
    "siege": c.Siege,
    "attack": c.Attack,
    "battle": c.Attack,
}


class _Line(
    MoveOrders, CombatOrders, CaptiveOrders, EventOrders, DiplomacyOrders, GmRulings, ParliamentOrders
):
    """One line being read: its label decides who speaks, then its statement is built
    (each statement by the ``_st_<statement>`` method of the reader of its kind)."""


def read_line(post: Post, lineno: int, text: str) -> ParsedOrder | Problem | Ignored | None:
    """One line of ``post``: an order, a problem, chatter (``Ignored``: a line that
    does not read as an order and does not look like one, ``chatter``), or nothing (a
    blank line, a comment, or a label alone on its line, which speaks for the lines
    below)."""
    got, unread = _read_line(post, lineno, text)
    # chatter is a line the grammar does not read, or whose words name nothing; a
    # problem of an order's shape (a label for another faction, a verb misspelt after a
    # unit's name, ...) is always the author's to put right
    if not (unread or isinstance(got, UnknownName)):
        return got
    ignored = chatter(post.names, lineno, text)
    if ignored is None:
        return got
    if ignored.faction is not None and post.author in (c.GM, ignored.faction):
        post.section = ignored.faction  # "Gold round two:" labels Gold's lines below
    return ignored


def _read_line(post: Post, lineno: int, text: str) -> tuple[ParsedOrder | Problem | None, bool]:
    """The line's answer, and whether the grammar did not read it at all."""
    if not text.strip():
        return None, False
    try:
        tree = parser().parse(text.translate(_SPACES))
    except UnexpectedInput as e:
        return syntax_problem(lineno, text, e), True
    except LarkError as e:  # pragma: no cover - defensive: any other parser complaint
        return SyntaxProblem(lineno, 1, text, f"the line does not read as an order ({e})"), True
    return _read_tree(post, lineno, text, tree), False


def _read_tree(post: Post, lineno: int, text: str, tree: Tree[Token]) -> ParsedOrder | Problem | None:
    line = tree.children[0]
    assert isinstance(line, Tree)
    statement = next(
        (ch for ch in line.children if isinstance(ch, Tree) and ch.data != "label"),
        None,
    )
    label = first_of(line, "label")
    reader = _Line(post, lineno, text)
    reader.statement = str(statement.data) if statement is not None else None
    if statement is None:
        if label is None:
            return None
        post.section = None
        try:
            reader.read_label(label)
        except Fail as f:
            return f.problem
        post.section = reader.by
        return None
    try:
        reader.read_label(label)
        command = reader.build(statement)
    except Fail as f:
        return f.problem
    except Refuse as r:
        refusal = Decision(
            Result.REFUSED,
            ids.ORDER_INVALID,
            f"{r.explanation} ({ids.ORDER_INVALID})",
            unit=r.unit,
            place=r.place,
        )
        kind = _STATEMENT_KINDS.get(reader.statement or "")
        return ParsedOrder(lineno, column_of(statement), text, None, refusal, kind)
    return ParsedOrder(lineno, column_of(statement), text, command)
