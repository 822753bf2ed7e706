"""A game's settings, chosen by the GM at creation: the deadline policy, the game's
factions (their names and colours) and the game options (``rules.options``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from kingmaker.rules.board import default_name
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.options import OptionError, chosen

from .errors import BadRequest

Policy = Literal["hold", "extend"]
POLICIES: tuple[Policy, ...] = ("hold", "extend")

# The longest deadline a game may set: a year (a deadline must stay a date)
MAX_HOURS = 24 * 365

#: The colour of a faction that has none (and of any colour that is not ``#rgb``/``#rrggbb``)
GREY = "#777777"


@dataclass(frozen=True)
class FactionInfo:
    """A faction of a game: its id, the name players use (``Red``) and its colour.

    >>> FactionInfo.of("red", {"name": "Red", "colour": "#c0392b"})
    FactionInfo(id='red', name='Red', colour='#c0392b')
    >>> FactionInfo.of("white_rose", {"colour": "red; background: url(x)"})
    FactionInfo(id='white_rose', name='White Rose', colour='#777777')
    """

    id: str
    name: str
    colour: str = GREY

    @classmethod
    def of(cls, faction: str, data: object = None) -> FactionInfo:
        """From stored settings (``{"name": ..., "colour": ...}``, any part missing):
        the name defaults to the id made readable (``rules.board.default_name``, as the
        text orders read it), the colour to grey, and a colour that is not
        ``#rgb``/``#rrggbb`` is grey too (settings are data, never markup)."""
        raw: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
        name = str(raw.get("name") or "").strip() or default_name(faction)
        return cls(faction, name, _colour(str(raw.get("colour") or GREY)))

    def to_data(self) -> dict[str, str]:
        return {"name": self.name, "colour": self.colour}


def _colour(text: str) -> str:
    t = text.strip()
    if t.startswith("#") and len(t) in (4, 7) and all(c in "0123456789abcdefABCDEF" for c in t[1:]):
        return t
    return GREY


def policy_of(text: str) -> Policy:
    """``text`` as a deadline policy (``BadRequest`` for anything but hold or extend)."""
    for policy in POLICIES:
        if text == policy:
            return policy
    raise BadRequest(f"policy must be 'hold' or 'extend', not {text!r}")


@dataclass(frozen=True)
class GameSettings:
    """``policy`` for a turn whose faction sent no order by its deadline: ``hold`` (the
    turn ends, its units hold) or ``extend`` (the deadline is extended once by
    ``turn_hours``, then the turn ends). ``turn_hours`` / ``request_hours`` of None:
    no deadline. ``snapshot_every``: a snapshot every N log entries. ``factions``: the
    game's factions in order, with their names and colours (set at creation from the
    data set, whatever a ``CreateGame`` gives; ``faction`` answers for any id).
    ``full_game``: the game plays all of FULL_GAME (phases, events, battles and sieges
    adjudicated by the engine; False: only the location and alliance rules, the GM
    ruling on combat by hand). ``draw_events``: the service draws each turn's event
    card as the turn begins (False: the GM draws it). ``options``: the game options the
    GM chose (FULL_GAME §1, ``rules.options``; a full game's only), checked and in normal
    form; empty: every option has its default."""

    policy: Policy = "hold"
    turn_hours: float | None = 24.0
    request_hours: float | None = 24.0
    snapshot_every: int = 500  # see docs/benchmarks.md (stop 20): a snapshot of a big game costs ms
    factions: tuple[FactionInfo, ...] = ()
    full_game: bool = True
    draw_events: bool = True
    options: Mapping[str, str] = field(default_factory=FrozenDict)

    def __post_init__(self) -> None:
        policy_of(self.policy)
        if not isinstance(self.options, Mapping):
            raise BadRequest("options are given as {name: value}")
        try:
            object.__setattr__(self, "options", FrozenDict(chosen(self.options)))
        except OptionError as e:
            raise BadRequest(str(e)) from None
        for name in ("turn_hours", "request_hours"):
            v = getattr(self, name)
            if v is not None and not (isinstance(v, (int, float)) and 0 < v <= MAX_HOURS):
                raise BadRequest(f"{name} must be a positive number of hours, at most {MAX_HOURS} (or none)")
        if not isinstance(self.full_game, bool) or not isinstance(self.draw_events, bool):
            raise BadRequest("full_game and draw_events are true or false")
        if not isinstance(self.snapshot_every, int) or self.snapshot_every < 1:
            raise BadRequest("snapshot_every must be a whole number of 1 or more")
        if not all(isinstance(f, FactionInfo) for f in self.factions):
            raise BadRequest("factions are given as FactionInfo")
        ids = [f.id for f in self.factions]
        if len(set(ids)) != len(ids):
            raise BadRequest("each faction is given once")

    # -- factions ---------------------------------------------------------------------
    def faction(self, faction: str) -> FactionInfo:
        """The name and colour of ``faction`` (the defaults for one the game lacks)."""
        for f in self.factions:
            if f.id == faction:
                return f
        return FactionInfo.of(faction)

    def faction_names(self) -> dict[str, str]:
        """The names players use for the factions, by id (``{"red": "Red"}``)."""
        return {f.id: f.name for f in self.factions}

    def with_factions(self, factions: Iterable[FactionInfo]) -> GameSettings:
        return replace(self, factions=tuple(factions))

    # -- stored form ------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """As a game record stores them (the factions as ``{id: {"name", "colour"}}``)."""
        data: dict[str, Any] = {
            "policy": self.policy,
            "turn_hours": self.turn_hours,
            "request_hours": self.request_hours,
            "snapshot_every": self.snapshot_every,
            "full_game": self.full_game,
            "draw_events": self.draw_events,
        }
        if self.options:  # left out when none was chosen, as in games stored before options
            data["options"] = dict(self.options)
        if self.factions:
            data["factions"] = {f.id: f.to_data() for f in self.factions}
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any], factions: Iterable[str] = ()) -> GameSettings:
        """From a game record's settings, for the game's ``factions`` (ids, in order):
        each one's stored name and colour, or the defaults when the record has none (as
        in games stored before the names were). Unknown keys are ignored, and so are
        stored options that no longer check (the game's state holds those in force)."""
        keys = ("policy", "turn_hours", "request_hours", "snapshot_every", "full_game", "draw_events")
        known: dict[str, Any] = {k: data[k] for k in keys if k in data}
        options = data.get("options")
        if isinstance(options, Mapping):
            with suppress(OptionError):
                known["options"] = FrozenDict(chosen(options))
        stored = data.get("factions")
        info: Mapping[str, Any] = stored if isinstance(stored, Mapping) else {}
        ids = list(dict.fromkeys([*factions, *(str(k) for k in info)]))
        return cls(**known, factions=tuple(FactionInfo.of(f, info.get(f)) for f in ids))
