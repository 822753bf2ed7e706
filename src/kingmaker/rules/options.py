"""The game options of FULL_GAME §1 (the table's row "options"): the one place that knows
them, their allowed values, defaults and what each does. The rules read them from
``GameState.options`` (``option``/``option_on``); a game is created with the options its
GM chose (``deal.new_game(options=...)``), checked and written here in their normal form.

A game that chose none has empty options, and every option then has its default: the
game plays exactly as a game created before options could be chosen. A chosen option is
public: every player may know the rules of the game.

>>> chosen({"heir_survival": True, "victory_hold_turns": "04"})
{'heir_survival': 'on', 'victory_hold_turns': '4'}
>>> chosen({"parliament": "secret"})
Traceback (most recent call last):
...
kingmaker.rules.options.OptionError: option parliament: 'secret' is not allowed; allowed values: voting, basic
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .decks import EACH_DRAW
from .fighting import SURVIVAL_OPTION
from .parliament import BASIC
from .state import ON_WORDS
from .two_houses import OPTION as TWO_HOUSES_OPTION
from .victory import HOLD_OPTION

#: The spellings an on/off option takes as off (as on: ``state.ON_WORDS``).
OFF_WORDS = ("off", "false", "no", "0")
#: The most turns ``victory_hold_turns`` may ask for.
MAX_HOLD_TURNS = 99


class OptionError(ValueError):
    """An option that is not one of the game's, or a value it does not allow; the
    message names the option and the allowed values."""


@dataclass(frozen=True, slots=True)
class GameOption:
    """One option: its ``name``, its ``kind`` (``choice``: one of ``values``; ``switch``:
    on or off; ``count``: a whole number from 0 to ``MAX_HOLD_TURNS``), its ``default``
    (what the rules read while it is not chosen), the rule it changes and a one-line
    description."""

    name: str
    kind: str
    values: tuple[str, ...]
    default: str
    rule: str
    description: str

    @property
    def allowed(self) -> str:
        """The allowed values, for people (``voting, basic``)."""
        if self.kind == "count":
            return f"a whole number from 0 to {MAX_HOLD_TURNS} (0: off)"
        return ", ".join(self.values)

    def normal(self, value: object) -> str:
        """``value`` in its normal form (``True``/``"yes"`` -> ``"on"``, ``"04"`` ->
        ``"4"``); ``OptionError`` when the option does not allow it."""
        text = _text(value)
        if self.kind == "switch":
            if text in ON_WORDS:
                return "on"
            if text in OFF_WORDS:
                return "off"
        elif self.kind == "count":
            if text.isascii() and text.isdigit() and int(text) <= MAX_HOLD_TURNS:
                return str(int(text))
        elif text in self.values:
            return text
        raise OptionError(
            f"option {self.name}: {_shown(value)} is not allowed; allowed values: {self.allowed}"
        )


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value.strip().lower()
    return repr(value)


def _shown(value: object) -> str:
    text = value if isinstance(value, str) else _text(value)
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


#: The options, in the order of FULL_GAME §1.
OPTIONS: tuple[GameOption, ...] = (
    GameOption(
        "parliament",
        "choice",
        ("voting", BASIC),
        "voting",
        "PARL.basic",
        "voting: Parliament votes in Lords and Commons; basic: no votes, the presiding "
        "faction awards the Chancery cards",
    ),
    GameOption(
        "deaths_per_side",
        "choice",
        ("all", "1"),
        "all",
        "BATTLE.deaths",
        "all: every noble the card names dies; 1: only the strongest named noble of each side (KM2)",
    ),
    GameOption(
        SURVIVAL_OPTION,
        "switch",
        ("on", "off"),
        "off",
        "FULL_GAME §4",
        "on: each heir in a battle or siege draw (not Bad Weather) dies on 1 in 36",
    ),
    GameOption(
        "reshuffle",
        "choice",
        ("when_empty", EACH_DRAW),
        "when_empty",
        "EVENT.reshuffle",
        "when_empty: the event discard is reshuffled when the deck runs out; each_draw: every "
        "card not held is reshuffled after each draw",
    ),
    GameOption(
        TWO_HOUSES_OPTION,
        "switch",
        ("on", "off"),
        "off",
        "EXEC.two_houses",
        "on: a faction may not control heirs of both houses for more than two of its turns in a row",
    ),
    GameOption(
        HOLD_OPTION,
        "count",
        (),
        "0",
        "VICTORY.hold",
        "N: a faction that keeps the sole King (not Henry VI) N turns in a row wins; 0: off",
    ),
)

_BY_NAME = {o.name: o for o in OPTIONS}


def names() -> str:
    """The options' names, for people."""
    return ", ".join(_BY_NAME)


def spec(name: str) -> GameOption:
    """The option ``name``; ``OptionError`` naming the options when there is none."""
    found = _BY_NAME.get(name.strip().lower())
    if found is None:
        raise OptionError(f"there is no option {_shown(name)}; the options are: {names()}")
    return found


def chosen(raw: Mapping[str, object]) -> dict[str, str]:
    """The options a GM chose, checked and in normal form, in the order of ``OPTIONS``;
    ``OptionError`` for an unknown name or a value its option does not allow."""
    picked: dict[str, str] = {}
    for name, value in raw.items():
        option = spec(str(name))
        picked[option.name] = option.normal(value)
    return {o.name: picked[o.name] for o in OPTIONS if o.name in picked}


def assignments(texts: Iterable[str]) -> dict[str, str]:
    """``NAME=VALUE`` texts (``kingmaker new --option``) as checked options; a name given
    twice keeps its last value.

    >>> assignments(["reshuffle=each_draw", "two_houses_limit = yes"])
    {'reshuffle': 'each_draw', 'two_houses_limit': 'on'}
    """
    raw: dict[str, str] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise OptionError(
                f"an option is given as NAME=VALUE, not {_shown(text)}; the options are: {names()}"
            )
        raw[spec(name).name] = value
    return chosen(raw)


def in_force(options: Mapping[str, str]) -> dict[str, str]:
    """Every option's value in a game with ``options`` (``GameState.options``): the one
    chosen, in normal form where it has one, else the default."""
    out: dict[str, str] = {}
    for o in OPTIONS:
        value = options.get(o.name)
        if value is None:
            out[o.name] = o.default
            continue
        try:
            out[o.name] = o.normal(value)
        except OptionError:  # a value no GM could choose (a hand-written state): as stored
            out[o.name] = value
    return out
