"""Orders as players write them on the forum ("Forum play"): a Lark grammar of the
forum game's order style, names as players write them, the canonical text of every
command (what each line of a post comes to is the service's one use case,
:func:`kingmaker.service.posts.post`).

>>> from kingmaker.orders_text import parse_post, format_order
"""

from .chatter import Ignored
from .errors import AmbiguousName, OrderTextError, Problem, SyntaxProblem, UnknownName
from .format import format_order
from .names import Entity, Names, names_for, normalize
from .parse import ParsedOrder, ParsedPost, parse_order, parse_post
from .syntax import grammar_text

__all__ = [
    "AmbiguousName",
    "Entity",
    "Ignored",
    "Names",
    "OrderTextError",
    "ParsedOrder",
    "ParsedPost",
    "Problem",
    "SyntaxProblem",
    "UnknownName",
    "format_order",
    "grammar_text",
    "names_for",
    "normalize",
    "parse_order",
    "parse_post",
]
