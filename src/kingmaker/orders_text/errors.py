"""What can be wrong with a line of orders before the rules see it.

Three kinds, each with the line and column (1-based) and the line's text:

* :class:`SyntaxProblem`: the line does not parse (with what was expected, in plain
  words), or its shape is wrong for the order (two units where one is wanted, a player
  labelling another faction's line);
* :class:`AmbiguousName`: a name that could be several things (with the candidates);
* :class:`UnknownName`: a name that is nothing in this game (with near misses).

An order that reads well but that the rules refuse is not a problem of the text: see
:func:`kingmaker.service.posts.post`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Problem:
    """A line of a post that gives no order."""

    kind: ClassVar[str] = "problem"
    line: int  # 1-based line of the post
    column: int  # 1-based column in that line
    text: str  # the line as written
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"

    def pointer(self) -> str:
        """The line with a caret under the column, for a reply on the forum."""
        return f"{self.text}\n{' ' * max(self.column - 1, 0)}^"


@dataclass(frozen=True, slots=True)
class SyntaxProblem(Problem):
    """The line does not read as an order."""

    kind: ClassVar[str] = "syntax"
    expected: tuple[str, ...] = ()  # in plain words: "MOVES", "a name", "the end of the line"
    found: str = ""  # what was there instead ("" at the end of the line)
    verb: str = ""  # the closest verb (``verbs.Verb.title``), whose example the message shows
    example: str = ""


@dataclass(frozen=True, slots=True)
class AmbiguousName(Problem):
    """A name that fits several things."""

    kind: ClassVar[str] = "ambiguous_name"
    name: str = ""
    candidates: tuple[str, ...] = ()  # as players read them
    candidate_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class UnknownName(Problem):
    """A name that fits nothing wanted there."""

    kind: ClassVar[str] = "unknown_name"
    name: str = ""
    suggestions: tuple[str, ...] = ()  # near misses, as players read them


class OrderTextError(ValueError):
    """Raised by :func:`kingmaker.orders_text.parse_order` for a line with a problem."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem
