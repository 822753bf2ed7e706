"""What reading one line of a post needs whatever its order: the post's shared parts
(``Post``: the state, its names, the author, the ids taken), a reader of one line
(``LineReader``: names resolved within what the author may see, who speaks, where units
stand) and the two ways a line fails (``Fail``: a problem with the text; ``Refuse``: an
order that reads well but cannot be a command in this state)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from lark import Token, Tree

from kingmaker.rules import commands as c
from kingmaker.rules.limits import CHOSEN_ID_MAX, id_problem
from kingmaker.rules.queries import Destinations, legal_destinations
from kingmaker.rules.routes import land_route, link
from kingmaker.rules.state import GameState
from kingmaker.rules.units import name as rules_name

from . import names as nm
from .errors import AmbiguousName, Problem, UnknownName
from .syntax import statement_problem


class Fail(Exception):
    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


class Refuse(Exception):
    def __init__(self, explanation: str, unit: str | None = None, place: str | None = None):
        super().__init__(explanation)
        self.explanation = explanation
        self.unit = unit
        self.place = place


Node = Tree[Token] | Token


def column_of(node: Node) -> int:
    if isinstance(node, Token):
        return node.column if isinstance(node.column, int) else 1
    return getattr(node.meta, "column", 1)


def span_of(node: Node) -> tuple[int, int]:
    if isinstance(node, Token):
        return (node.start_pos or 0, node.end_pos or 0)
    return (getattr(node.meta, "start_pos", 0), getattr(node.meta, "end_pos", 0))


def subtrees(tree: Tree[Token], data: str) -> list[Tree[Token]]:
    return [ch for ch in tree.children if isinstance(ch, Tree) and ch.data == data]


def first_of(tree: Tree[Token], data: str) -> Tree[Token] | None:
    for ch in tree.children:
        if isinstance(ch, Tree) and ch.data == data:
            return ch
    return None


@dataclass
class Post:
    """What the lines of one post share: the state, its names, the author, and the ids
    the post has already taken."""

    state: GameState
    names: nm.Names
    author: str
    taken: set[str] = field(default_factory=set)
    section: str | None = None  # the faction a label alone on its line (``Red:``) gave the lines below

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


class LineReader:
    """One line being read: its label decides who speaks, then its statement is built."""

    def __init__(self, post: Post, lineno: int, text: str):
        self.post = post
        self.state = post.state
        self.names = post.names
        self.lineno = lineno
        self.text = text
        self.by = post.section or post.author
        self.labelled = post.section is not None
        self.statement: str | None = None  # the statement being read (its verb's example in problems)

    # -- problems -------------------------------------------------------------------------
    def syntax(self, node: Node | None, message: str) -> Fail:
        """A problem of the line's shape, with its verb's example (``syntax.statement_problem``)."""
        col = column_of(node) if node is not None else 1
        return Fail(statement_problem(self.lineno, col, self.text, message, self.statement))

    # -- names ------------------------------------------------------------------------------
    def raw(self, node: Node) -> str:
        """The text of a name or id as written (a quoted one without its quotes)."""
        if isinstance(node, Tree) and len(node.children) == 1 and isinstance(node.children[0], Token):
            tok = node.children[0]
            a, b = span_of(tok)
            if tok.type == "STRING":
                return self.text[a + 1 : b - 1]  # as written (spaces inside quotes are kept)
            if node.data == "ident":
                return self.text[a:b]
        a, b = span_of(node)
        return self.text[a:b]

    def resolve(
        self,
        node: Node,
        kinds: frozenset[str],
        text: str | None = None,
        settle: Callable[[nm.Entity], bool] | None = None,
    ) -> nm.Entity:
        """The one thing the name at ``node`` names. A name that fits several things is
        settled by the state where it can be (``settle``: the place the unit is at, the
        port its ship is in or borders, a place the unit can reach by land): when exactly
        one candidate fits, it is that one; otherwise the name is ambiguous."""
        written = self.raw(node) if text is None else text
        try:
            return self.names.resolve(written, kinds)
        except nm.UnknownNameError as e:
            raise Fail(
                UnknownName(self.lineno, column_of(node), self.text, e.message, written, e.suggestions)
            ) from None
        except nm.AmbiguousNameError as e:
            fits = [x for x in e.candidates if settle(x)] if settle is not None else []
            if len(fits) == 1:
                return fits[0]
            raise Fail(
                AmbiguousName(
                    self.lineno,
                    column_of(node),
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
        joints = [self.text[span_of(a)[1] : span_of(b)[0]] for a, b in itertools.pairwise(parts)]
        if all(j.strip() == "," for j in joints):
            whole = self.text[span_of(parts[0])[0] : span_of(parts[-1])[1]]
            try:
                return self.names.resolve(whole, kinds)
            except nm.UnknownNameError as e:
                # "Richard, Duke of Yrok": a misspelt name with a comma, not a list
                if e.suggestions and not self._names_one(parts[0], kinds):
                    raise Fail(
                        UnknownName(
                            self.lineno, column_of(parts[0]), self.text, e.message, whole, e.suggestions
                        )
                    ) from None
            except nm.NameProblem:
                pass
        raise self.syntax(parts[1], f"this order is for one {what}; give each {what} its own line")

    def _names_one(self, node: Tree[Token], kinds: frozenset[str]) -> bool:
        try:
            self.names.resolve(self.raw(node), kinds)
        except nm.NameProblem:
            return False
        return True

    def many(
        self,
        names: Tree[Token] | None,
        kinds: frozenset[str],
        settle: Callable[[nm.Entity], bool] | None = None,
    ) -> tuple[str, ...]:
        return tuple(self.resolve(p, kinds, settle=settle).id for p in self.items(names))

    def path(self, names: Tree[Token] | None, first: str | None) -> tuple[str, ...]:
        """The places of a path (``VIA``, ``ALONG``), each name that fits several places
        settled by the place before it (``first`` for the first one): the one joined to
        it by a road or a cross-country link, or the unit's place itself."""
        out: list[str] = []
        prev = first
        for p in self.items(names):
            e = self.resolve(p, nm.PLACES, settle=self.next_to(prev))
            out.append(e.id)
            prev = e.id
        return tuple(out)

    def next_to(self, place: str | None) -> Callable[[nm.Entity], bool] | None:
        """Settles a name by ``place`` itself or a place joined to it by a link."""
        if place is None:
            return None
        board = self.state.board
        return lambda e: e.id == place or link(board, place, e.id) is not None

    @staticmethod
    def at(place: str | None) -> Callable[[nm.Entity], bool] | None:
        """Settles a name by ``place`` (where a unit is, the port a ship is in)."""
        if place is None:
            return None
        return lambda e: e.id == place

    def by_land(self, start: str | None) -> Callable[[nm.Entity], bool] | None:
        """Settles a destination by the places reachable by land from ``start``."""
        if start is None or start not in self.state.board.places:
            return None
        board = self.state.board
        return lambda e: e.kind == nm.PLACE and land_route(board, start, e.id) is not None

    def by_sea(self, ship: str) -> Callable[[nm.Entity], bool] | None:
        """Settles a port by where ``ship`` is: the port it is in, or one bordering its
        sea zone."""
        at, in_port = self.ship_place(ship)
        if at is None:
            return None
        board = self.state.board
        if in_port:
            return lambda e: e.id == at
        return lambda e: e.id in board.places and at in board.places[e.id].seas

    def one_of(self, found: list[str], node: Tree[Token], none: str, several: str) -> str:
        """The one id of ``found`` (a request, a declaration, an alliance that the words
        at ``node`` point to): refused with ``none`` when there is none, ambiguous with
        ``several`` when there are more."""
        if not found:
            raise Refuse(none)
        if len(found) > 1:
            raise Fail(
                AmbiguousName(
                    self.lineno,
                    column_of(node),
                    self.text,
                    f"{several}: {nm.join_or(found)}; give its id",
                    self.raw(node),
                    tuple(found),
                    tuple(found),
                )
            )
        return found[0]

    def new_ident(self, node: Node) -> str:
        """An id the author chooses (``AS RG``, ``FORM ARMY North``): read in lower case,
        and a short id (``kingmaker.rules.limits``) or a problem at its column."""
        ident = self.raw(node).lower()
        problem = id_problem(ident, "id", CHOSEN_ID_MAX)
        if problem is not None:
            raise self.syntax(node, problem)
        self.post.taken.add(ident)
        return ident

    def request_id(self, tree: Tree[Token]) -> str | None:
        as_id = first_of(tree, "as_id")
        if as_id is None:
            return None
        return self.new_ident(as_id.children[0])

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

    def faction_and_object(self, st: Tree[Token]) -> tuple[str, Tree[Token]]:
        """Who speaks (the subject, when given) and the names the verb takes."""
        lists = subtrees(st, "names")
        return self.speaker(st, lists[0] if len(lists) == 2 else None), lists[-1]

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

    def only(self, part: Tree[Token]) -> Tree[Token]:
        inner = part.children[0]
        assert isinstance(inner, Tree)
        return inner

    def request_id_of(self, parts: dict[str, Tree[Token]]) -> str | None:
        as_id = parts.get("as_id")
        return self.new_ident(as_id.children[0]) if as_id is not None else None
