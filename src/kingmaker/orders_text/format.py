"""The canonical text of a command: ``format_order(command, state)``.

Names are written as players read them (``Percy MOVES FROM York TO Leeds VIA
Tadcaster``), quoted when a plain name would not read back (``"Edward, Prince of Wales"
GOES WITH Percy``), and everything the parser would otherwise infer is written out
(the road path, the sea zones crossed, the ids of new armies, alliances and requests),
so that reading the text back in the same state gives the same command.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Final

from kingmaker.rules import commands as c
from kingmaker.rules import ids
from kingmaker.rules.choices import proposal_id, summons_id
from kingmaker.rules.parliament import SOLE_KING, VICTORY
from kingmaker.rules.queries import legal_destinations
from kingmaker.rules.routes import is_mixed
from kingmaker.rules.state import GameState
from kingmaker.rules.votes import ABSTAIN, AGAINST, FOR

from . import names as nm
from .paths import infer_land_move, infer_via
from .syntax import keywords, parser

_WORD: Final = re.compile(r"[\w(](?:[\w'’()\-]|\.(?=[\w(]))*")
_BULLET: Final = re.compile(r"\d+[.)]|\(\d+\)")
_CROSS_COUNTRY: Final = re.compile(r"(a?cross)[- ]+country\b", re.IGNORECASE)

ASPECT_WORDS: Final = {
    ids.ROAD: "PASSAGE THROUGH",
    ids.ENTER: "ENTRY TO",
    ids.SHIP_ENTER: "HARBOUR AT",
    ids.EMBARK: "EMBARKATION AT",
    ids.FORCED_LEAVE: "DEPARTURE FROM",
}


@functools.cache
def _name_breakers() -> frozenset[str]:
    """Keywords the parser may read right after a word of a name: a name containing
    one of them must be quoted."""
    table = parser().parser.parser.parser.parse_table  # the LALR table
    found: set[str] = set()
    for actions in table.states.values():
        for token, (action, target) in actions.items():
            if token == "WORD" and action.name == "Shift":
                found.update(table.states[target])
    words = {t.name: t.pattern.value.lower() for t in parser().terminals if t.pattern.type == "str"}
    return frozenset(words[t] for t in found if t in words)


def _plain(text: str) -> bool:
    """Whether ``text`` reads back as one name without quotes."""
    words = text.split()
    if not words or '"' in text or _CROSS_COUNTRY.search(text) or _BULLET.match(words[0]):
        return False
    if words[0].lower() in keywords():
        return False
    breakers = _name_breakers()
    return all(_WORD.fullmatch(w) and w.lower() not in breakers for w in words)


def quote(text: str) -> str:
    return f'"{text}"'


def _text(text: str) -> str:
    return text if _plain(text) else quote(text)


def _ident(ident: str) -> str:
    """An id as one token."""
    if _WORD.fullmatch(ident) and ident.lower() not in keywords():
        return ident
    return quote(ident)


def _and(parts: list[str]) -> str:
    """``A``, ``A AND B``, ``A, B AND C``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " AND " + parts[-1]


def _is_a(s: GameState, kind: str, ident: str) -> bool:
    """Whether ``ident`` is a thing of ``kind`` in ``s``."""
    if kind == nm.NOBLE:
        return ident in s.nobles or ident in s.catalog.nobles
    if kind == nm.SHIP:
        return ident in s.ships or ident in s.catalog.ships
    if kind in (nm.ARMY, nm.FLEET):
        return ident in s.armies and s.armies[ident].fleet == (kind == nm.FLEET)
    if kind == nm.HEIR:
        return ident in s.heirs or ident in s.catalog.heirs
    if kind == nm.CARD:
        cat = s.catalog
        return any(ident in t for t in (cat.awards, cat.nobles, cat.ships, cat.events))
    if kind in (nm.PLACE, nm.SEA):
        return ident in (s.board.places if kind == nm.PLACE else s.board.seas)
    if kind == nm.FACTION:
        return ident in s.turn_order
    if kind == nm.GAME_MASTER:
        return ident == c.GM
    if kind == nm.REQUEST:
        return ident in s.requests or ident in s.closed
    if kind == nm.DECLARATION:
        return ident in s.declarations
    if kind == nm.ALLIANCE:
        return ident in s.alliances
    return kind == nm.COMBAT and any(x.id == ident for x in s.combats)


class _Writer:
    def __init__(self, state: GameState, names: nm.Names):
        self.state = state
        self.names = names

    def name(self, kinds: frozenset[str], ident: str, kind: str | None = None) -> str:
        """The text that names ``ident`` in a position that accepts ``kinds``."""
        kinds_of = [kind] if kind is not None else self.kinds_of(ident, kinds)
        for k in kinds_of:
            for candidate in (self.names.display(k, ident), ident):
                if self.names.reads_back(candidate, kinds, k, ident):
                    return _text(candidate)
        return quote(ident)

    def kinds_of(self, ident: str, kinds: frozenset[str]) -> list[str]:
        ordered = sorted(kinds)
        return [k for k in ordered if _is_a(self.state, k, ident)] or ordered

    def one(self, kinds: frozenset[str], ident: str, kind: str | None = None) -> str:
        """``name`` in a position read as one thing from a list (``LineReader.one``),
        where a name with commas reads back without quotes: ``Richard, Duke of York``."""
        text = self.name(kinds, ident, kind)
        inner = text[1:-1] if text.startswith('"') else ""
        parts = inner.split(", ")
        if len(parts) > 1 and all(_plain(p) for p in parts):
            for k in [kind] if kind is not None else self.kinds_of(ident, kinds):
                if self.names.reads_back(inner, kinds, k, ident):
                    return inner
        return text

    def names_of(self, kinds: frozenset[str], idents: tuple[str, ...]) -> str:
        return _and([self.name(kinds, i) for i in idents])

    def faction(self, f: str) -> str:
        return self.name(nm.SPEAKER, f)


def _verb(plural: bool, one: str, many: str) -> str:
    return many if plural else one


def _as(request: str | None) -> str:
    return f" AS {_ident(request)}" if request is not None else ""


def format_order(
    command: c.Command,
    state: GameState,
    *,
    label: bool = False,
    faction_names: Mapping[str, str] | None = None,
) -> str:
    """The canonical text of ``command`` in ``state``.

    With ``label``, the line starts with who gives it (``Red: ...``, ``GM: ...``), as the
    GM writes orders for the factions.

    >>> from kingmaker.conformance.case import build_board, build_state
    >>> board = build_board({
    ...     "places": {"york": {"kind": "city"}, "tadcaster": {"kind": "castle"}, "leeds": {"kind": "town"}},
    ...     "roads": [["york", "tadcaster", "leeds"]],
    ... })
    >>> state = build_state({
    ...     "turn_order": ["red", "blue"],
    ...     "nobles": {"percy": {"faction": "red", "at": "york", "troops": 100}},
    ... }, board, "doc")
    >>> format_order(c.MoveRoad("red", "percy", ("york", "tadcaster", "leeds")), state)
    'Percy MOVES FROM York TO Leeds VIA Tadcaster'
    >>> format_order(c.MoveRoad("red", "percy", ("york", "tadcaster", "leeds")), state, label=True)
    'Red: Percy MOVES FROM York TO Leeds VIA Tadcaster'
    """
    w = _Writer(state, nm.names_for(state, faction_names))
    body = _body(command, state, w)
    if label:
        return f"{w.faction(command.by)}: {body}"
    return body


def _body(cmd: c.Command, state: GameState, w: _Writer) -> str:
    unit = functools.partial(w.name, nm.UNIT)
    place = functools.partial(w.name, nm.PLACES)
    if isinstance(cmd, c.MoveRoad | c.MoveRoute):
        return _move_road(cmd, state, w)
    if isinstance(cmd, c.Move):
        to = "INTO" if cmd.enter else "TO"
        return f"{unit(cmd.unit)} MOVES CROSS COUNTRY {to} {place(cmd.to)}{_as(cmd.id)}"
    if isinstance(cmd, c.Enter | c.Leave):
        here = _land_place(state, cmd.unit)
        verb = "ENTERS" if isinstance(cmd, c.Enter) else "LEAVES"
        where = f" {place(here)}" if here is not None else ""
        return f"{w.name(nm.LAND_UNIT, cmd.unit)} {verb}{where}{_as(cmd.id)}"
    if isinstance(cmd, c.Embark):
        who = w.names_of(nm.NOBLES, cmd.nobles)
        verb = _verb(len(cmd.nobles) > 1 or not cmd.nobles, "EMBARKS", "EMBARK")
        return f"{who} {verb} ON {w.name(nm.SHIPS, cmd.ship)}{_as(cmd.id)}".lstrip()
    if isinstance(cmd, c.Disembark):
        who = w.names_of(nm.NOBLES, cmd.nobles)
        verb = _verb(len(cmd.nobles) > 1 or not cmd.nobles, "LANDS", "LAND")
        inside = " INSIDE" if cmd.enter else ""
        return (
            f"{who} {verb} FROM {w.name(nm.SHIPS, cmd.ship)} AT {place(cmd.port)}{inside}{_as(cmd.id)}"
        ).lstrip()
    if isinstance(cmd, c.Sail):
        return _sail(cmd, state, w)
    if isinstance(cmd, c.Siege):
        return f"{w.name(nm.LAND_UNIT, cmd.unit)} BESIEGES {place(cmd.place)}{_as(cmd.id)}"
    if isinstance(cmd, c.Attack):
        target = w.name(nm.TARGET, cmd.target)
        return f"{w.name(nm.LAND_UNIT, cmd.unit)} ATTACKS {target}{_sally(cmd, state, w)}{_as(cmd.id)}"
    if isinstance(cmd, c.Defend):
        return f"{w.name(nm.NOBLES, cmd.unit)} DEFENDS WITH {w.name(nm.NOBLES, cmd.with_)}"
    if isinstance(cmd, c.FormArmy):
        return _form(cmd, state, w)
    if isinstance(cmd, c.Confirm):
        return f"{w.faction(cmd.by)} CONFIRMS {_ident(cmd.id)}"
    if isinstance(cmd, c.Reject):
        return f"{w.faction(cmd.by)} REJECTS {_ident(cmd.id)}"
    if isinstance(cmd, c.DeclareAlliance):
        invited = w.names_of(nm.FACTIONS, cmd.with_)
        return f"{w.faction(cmd.by)} ALLIES WITH {invited} AS {_ident(cmd.id)}"
    if isinstance(cmd, c.AnswerAlliance):
        verb = "ACCEPTS" if cmd.confirm else "DECLINES"
        return f"{w.faction(cmd.by)} {verb} ALLIANCE {_ident(cmd.alliance)}"
    if isinstance(cmd, c.LeaveAlliance):
        return f"{w.faction(cmd.by)} LEAVES ALLIANCE {_ident(cmd.alliance)}"
    if isinstance(cmd, c.Grant | c.Revoke):
        verb = "GRANTS" if isinstance(cmd, c.Grant) else "REVOKES"
        to = w.name(nm.FACTIONS, cmd.to)
        if not cmd.aspects and isinstance(cmd, c.Revoke):
            return f"{w.faction(cmd.by)} REVOKES ALL FROM {to} AT {place(cmd.place)}"
        bad = [a for a in cmd.aspects if a not in ASPECT_WORDS]
        if bad or not cmd.aspects:
            raise ValueError(f"no words for the permission {', '.join(bad) or '(none)'}")
        clauses = " AND ".join(f"{ASPECT_WORDS[a]} {place(cmd.place)}" for a in cmd.aspects)
        return f"{w.faction(cmd.by)} {verb} {to} {clauses}"
    if isinstance(cmd, c.Deadline):
        return f"DEADLINE {_ident(cmd.alliance)}"
    if isinstance(cmd, c.Storm):
        return f"STORM {w.name(nm.SHIPS, cmd.ship)} INTO {place(cmd.into)}"
    if isinstance(cmd, c.SetControl):
        if cmd.faction is None:
            return f"SET {place(cmd.place)} NEUTRAL"
        return f"SET {place(cmd.place)} TO {w.name(nm.FACTIONS, cmd.faction)}"
    if isinstance(cmd, c.InjectRandom):
        return "RANDOM " + ", ".join(str(v) for v in cmd.values) if cmd.values else "RANDOM"
    if isinstance(cmd, c.EndTurn):
        return "END TURN ANYWAY" if cmd.anyway else "END TURN"
    if isinstance(cmd, c.RevealSeed):
        return "REVEAL SEED"
    if isinstance(cmd, c.Kill):
        return f"KILL {w.name(nm.NOBLES, cmd.noble)}"
    if isinstance(cmd, c.Capture):
        return f"CAPTURE {w.name(nm.NOBLES, cmd.noble)} BY {w.name(nm.FACTIONS, cmd.faction)}"
    if isinstance(cmd, c.Release):
        inside = " INSIDE" if cmd.inside else ""
        return f"RELEASE {w.name(nm.NOBLES, cmd.noble)} AT {place(cmd.place)}{inside}"
    if isinstance(cmd, c.MoveHeir):
        heir = w.name(nm.HEIRS, cmd.heir)
        inside = " INSIDE" if cmd.inside else ""
        if cmd.with_noble is not None:
            return f"{heir} GOES WITH {w.name(nm.NOBLES, cmd.with_noble)}{inside}"
        if cmd.place is None:
            raise ValueError("an heir goes with a noble or is left at a place")
        return f"{heir} IS LEFT AT {place(cmd.place)}{inside}"
    if isinstance(cmd, c.ResolveCombat):
        summary = cmd.summary.replace("\n", " ").strip()
        # in a game with phases a bare RESOLVE is the engine's draw: the colon says "by hand"
        return f"RESOLVE {_ident(cmd.combat)}" + (f": {summary}" if summary else ":" if state.phased else "")
    if isinstance(cmd, c.Expire):
        return f"EXPIRE {_ident(cmd.request)}"
    return _full_game(cmd, state, w)


def _full_game(cmd: c.Command, state: GameState, w: _Writer) -> str:
    """The commands of the full game (FULL_GAME 3.2-3.6; then 3.7-3.9)."""
    place = functools.partial(w.name, nm.PLACES)
    if isinstance(cmd, c.Battle):
        fight = next((x for x in state.combats if x.id == cmd.attack), None)
        engine = state.phased and fight is not None and fight.kind == "attack"
        return f"RESOLVE {_ident(cmd.attack)}" + ("" if engine else " BY DRAW")
    if isinstance(cmd, c.SiegeAssault):
        return f"ASSAULT {place(cmd.place)}"
    if isinstance(cmd, c.DrawEvent):
        return f"DRAW EVENT{_as(cmd.id)}"
    if isinstance(cmd, c.EndPhase):
        return "END PHASE"
    if isinstance(cmd, c.CaptureHeir):
        return f"{w.name(nm.NOBLES, cmd.unit)} CAPTURES {w.name(nm.HEIRS, cmd.heir)}"
    if isinstance(cmd, c.ChoosePort):
        return f"{w.name(nm.UNIT, cmd.ship)} TO {place(cmd.port)}"
    if isinstance(cmd, c.PlayCard):
        return f"{w.faction(cmd.by)} PLAYS {w.name(nm.CARDS, cmd.card)} FOR {w.name(nm.UNIT, cmd.unit)}"
    if isinstance(cmd, c.ReleaseCaptive):
        return f"{w.faction(cmd.by)} RELEASES {w.name(nm.NOBLES, cmd.captive)}"
    if isinstance(cmd, c.Execute):
        if (cmd.captive is None) == (cmd.heir is None):
            raise ValueError("an execution names either a captive or an heir")
        if cmd.captive is not None:
            who = w.name(nm.CAPTIVES, cmd.captive, nm.NOBLE)
        else:
            assert cmd.heir is not None
            who = w.name(nm.CAPTIVES, cmd.heir, nm.HEIR)
        return f"{w.faction(cmd.by)} EXECUTES {who}"
    if isinstance(cmd, c.Ransom):
        return _ransom(cmd, w)
    return _crown_and_parliament(cmd, state, w)


_STANCE_WORDS: Final = {FOR: "FOR", AGAINST: "AGAINST"}


def _crown_and_parliament(cmd: c.Command, state: GameState, w: _Writer) -> str:
    """The commands of the Crown's cards, coronation and Parliament (FULL_GAME 3.7-3.9).
    An id the reader would make up itself (a summons', a proposal's) is left out."""
    place = functools.partial(w.name, nm.PLACES)
    if isinstance(cmd, c.DrawCrown):
        return "DRAW CROWN CARD"
    if isinstance(cmd, c.Assign):
        return f"{w.faction(cmd.by)} ASSIGNS {w.one(nm.CARDS, cmd.card)} TO {w.one(nm.NOBLES, cmd.to)}"
    if isinstance(cmd, c.EnterPlay):
        noble = w.one(nm.NOBLES, cmd.noble)
        return f"{w.faction(cmd.by)} BRINGS {noble} INTO PLAY AT {place(cmd.castle)}"
    if isinstance(cmd, c.Crown):
        return f"{w.faction(cmd.by)} CROWNS {w.one(nm.HEIRS, cmd.heir)}"
    if isinstance(cmd, c.SummonParliament):
        ident = "" if cmd.id == summons_id(state, cmd.by) else _as(cmd.id)
        return f"{w.faction(cmd.by)} SUMMONS PARLIAMENT AT {place(cmd.seat)}{ident}"
    if isinstance(cmd, c.Attend):
        who = w.names_of(nm.NOBLES, cmd.nobles) if cmd.nobles else "NO ONE"
        return f"{w.faction(cmd.by)} ATTENDS WITH {who}"
    if isinstance(cmd, c.Propose):
        return _propose(cmd, state, w)
    if isinstance(cmd, c.Vote):
        return _vote(cmd, w)
    if isinstance(cmd, c.CloseParliament):
        return "CLOSE PARLIAMENT" if cmd.by == c.GM else f"{w.faction(cmd.by)} CLOSES PARLIAMENT"
    raise ValueError(f"no text for a {type(cmd).__name__} command")


def _propose(cmd: c.Propose, state: GameState, w: _Writer) -> str:
    """``Red PROPOSES Marshal of England FOR Percy``, ``... Henry VI AS SOLE KING``,
    ``... VICTORY``, with ``AS <id>`` unless the id is the one the reader would give."""
    ident = "" if cmd.id == proposal_id(state) else _as(cmd.id)
    award = cmd.award is not None and cmd.to is not None and cmd.motion is None and cmd.heir is None
    if award:
        assert cmd.award is not None and cmd.to is not None
        what = f"{w.one(nm.CARDS, cmd.award)} FOR {w.one(nm.NOBLES, cmd.to)}"
    elif cmd.motion == VICTORY and cmd.award is None and cmd.to is None and cmd.heir is None:
        what = "VICTORY"
    elif cmd.motion == SOLE_KING and cmd.heir is not None and cmd.award is None and cmd.to is None:
        what = f"{w.one(nm.HEIRS, cmd.heir)} AS SOLE KING"
    else:
        raise ValueError("a proposal is a card for a noble, a King as sole King, or victory")
    return f"{w.faction(cmd.by)} PROPOSES {what}{ident}"


def _vote(cmd: c.Vote, w: _Writer) -> str:
    """``Red VOTES FOR m1``, ``Red ABSTAINS ON m1``, and per house when the stances differ:
    ``Red VOTES FOR IN THE LORDS AND AGAINST IN THE COMMONS ON m1``."""
    bad = [x for x in (cmd.lords, cmd.commons) if x not in (FOR, AGAINST, ABSTAIN)]
    if bad:
        raise ValueError(f"no words for the stance {bad[0]!r}")
    f, on = w.faction(cmd.by), _ident(cmd.proposal)
    if cmd.lords == cmd.commons:
        if cmd.lords == ABSTAIN:
            return f"{f} ABSTAINS ON {on}"
        return f"{f} VOTES {_STANCE_WORDS[cmd.lords]} {on}"
    lords = "ABSTAINS" if cmd.lords == ABSTAIN else f"VOTES {_STANCE_WORDS[cmd.lords]}"
    commons = "ABSTAINS" if cmd.commons == ABSTAIN else _STANCE_WORDS[cmd.commons]
    if cmd.lords == ABSTAIN:
        commons = f"VOTES {commons}"
    return f"{f} {lords} IN THE LORDS AND {commons} IN THE COMMONS ON {on}"


def _sally(cmd: c.Attack, state: GameState, w: _Writer) -> str:
    """`` WITH SALLY FROM York: Neville AND Stafford`` (SIEGE.sally), or nothing."""
    if not cmd.sally:
        return ""
    here = _land_place(state, cmd.unit)
    where = f" FROM {w.name(nm.PLACES, here)}" if here is not None else ""
    return f" WITH SALLY{where}: {w.names_of(nm.NOBLES, cmd.sally)}"


def _ransom(cmd: c.Ransom, w: _Writer) -> str:
    """``Red RANSOMS Stafford FOR Bristol``: what the offering faction gives; ``FREE``:
    nothing given; otherwise each party's share, ``: Blue GIVES Bristol; Red GIVES
    NOTHING``. The id is always written, and a promise last (RANSOM.future)."""

    def items(g: c.Consideration) -> str:
        parts = [w.name(nm.RANSOM_ITEMS, x, nm.CARD) for x in g.cards]
        parts += [w.name(nm.RANSOM_ITEMS, x, nm.HEIR) for x in g.heirs]
        return _and(parts) if parts else "NOTHING"

    give = cmd.give
    if not give:
        terms = " FREE"
    elif len(give) == 1 and give[0].from_ == cmd.by and (give[0].cards or give[0].heirs):
        terms = f" FOR {items(give[0])}"
    else:
        terms = ": " + "; ".join(f"{w.faction(g.from_)} GIVES {items(g)}" for g in give)
    note = " ".join(cmd.note.split())
    promise = f" PROMISE: {note}" if note else ""
    captive = w.name(nm.CAPTIVES, cmd.captive)
    return f"{w.faction(cmd.by)} RANSOMS {captive}{terms} AS {_ident(cmd.id)}{promise}"


def _land_place(state: GameState, unit: str) -> str | None:
    army = state.armies.get(unit)
    if army is not None:
        if army.fleet or not army.units:
            return None
        unit = army.units[0]
    n = state.nobles.get(unit)
    return n.place if n is not None and n.aboard is None else None


def _move_road(cmd: c.MoveRoad | c.MoveRoute, state: GameState, w: _Writer) -> str:
    """A road move or a route of roads and cross-country links (``MoveRoute``): the
    path written out (``VIA``), or left out where the reader would infer the same; a
    road move along a path with a cross-country link says ``BY ROAD`` (the reader takes
    such a path for a route)."""
    place = functools.partial(w.name, nm.PLACES)
    who = w.name(nm.UNIT, cmd.unit)
    path = cmd.path
    to = "INTO" if cmd.enter else "TO"  # INTO York: to York, and inside
    road = " BY ROAD" if isinstance(cmd, c.MoveRoad) and is_mixed(state.board, path) else ""
    if len(path) >= 3:
        via = ", ".join(place(p) for p in path[1:-1])
        return f"{who} MOVES FROM {place(path[0])} {to} {place(path[-1])} VIA {via}{road}{_as(cmd.id)}"
    if len(path) == 2 and path[0] != path[1]:
        cache = {cmd.unit: legal_destinations(state, cmd.unit)}
        guess = infer_land_move(
            state, cache.__getitem__, cmd.by, cmd.unit, path[0], path[1], cmd.enter, cmd.id, False
        )
        tail = "" if guess == cmd else " DIRECT"
        return f"{who} MOVES FROM {place(path[0])} {to} {place(path[1])}{tail}{road}{_as(cmd.id)}"
    along = ", ".join(place(p) for p in path)
    inside = " INSIDE" if cmd.enter else ""
    return f"{who} MOVES ALONG {along}{inside}{road}{_as(cmd.id)}"


def _sail(cmd: c.Sail, state: GameState, w: _Writer) -> str:
    ship = w.name(nm.UNIT, cmd.ship)
    to = w.name(nm.WATERS, cmd.to)
    if cmd.via:
        via = ", ".join(w.name(nm.WATERS, z) for z in cmd.via)
        return f"{ship} SAILS TO {to} VIA {via}{_as(cmd.id)}"
    cache = {cmd.ship: legal_destinations(state, cmd.ship)}
    guess = infer_via(state, cache.__getitem__, cmd.ship, cmd.to)
    tail = "" if guess == () else " DIRECT"
    return f"{ship} SAILS TO {to}{tail}{_as(cmd.id)}"


def _form(cmd: c.FormArmy, state: GameState, w: _Writer) -> str:
    kinds = nm.SHIPS if cmd.fleet else nm.NOBLES
    who = w.names_of(kinds, cmd.units)
    force = "FLEET" if cmd.fleet else "ARMY"
    where: set[str | None] = set()
    for u in cmd.units:
        if cmd.fleet:
            s = state.ships.get(u)
            where.add(s.place if s is not None else None)
        else:
            where.add(_land_place(state, u))
    place = ""
    if len(where) == 1 and None not in where:
        p = next(iter(where))
        assert p is not None
        place = f" IN {w.name(nm.WATERS if cmd.fleet else nm.PLACES, p)}"
    return f"{who} FORM {force} {_ident(cmd.id)}{place}".lstrip()
