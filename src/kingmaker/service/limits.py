"""The service's one check of what a command carries (``docs/limits.md``).

``GameService.execute`` runs ``check`` on every command before its handler: the CLI,
the web forms, the JSON API and text orders all arrive here, so each gets the same
answer. A command that breaks a limit is refused with ``BadRequest`` saying which field
and what is wrong (never echoing the input whole); nothing is logged or changed.
"""

from __future__ import annotations

import dataclasses

from kingmaker.rules import limits as lim

from .commands import (
    AskPermission,
    CreateGame,
    ExtendDeadline,
    FinishTurn,
    NoteUnreadLine,
    SeatPlayer,
    ServiceCommand,
    Submit,
    Tick,
    Undo,
)
from .contact import email_problem
from .errors import BadRequest

MAX_FACTIONS = 16  # factions in one game (data sets seat far fewer)
RESERVED_FACTIONS = ("gm", "clock", "public")


def check(command: ServiceCommand) -> None:
    """Raise ``BadRequest`` if ``command`` breaks a limit."""
    problem = problem_of(command)
    if problem is not None:
        raise BadRequest(problem)


def problem_of(command: ServiceCommand) -> str | None:
    """What is wrong with ``command``'s fields, or ``None``."""
    if isinstance(command, CreateGame):
        return _create_game(command)
    checks: list[str | None] = [lim.id_problem(command.game, "game id")]
    if isinstance(command, SeatPlayer):
        checks += [
            lim.id_problem(command.faction, "faction"),
            lim.text_problem(command.player, "player's name", lim.NAME_MAX, required=True),
            None if command.email is None else email_problem(command.email),
        ]
    elif isinstance(command, Submit):
        checks.append(lim.command_problem(command.command))
        if command.text is not None:
            checks.append(lim.text_problem(command.text, "order line", lim.LINE_MAX))
    elif isinstance(command, NoteUnreadLine):
        checks += [
            lim.id_problem(command.by, "author"),
            lim.text_problem(command.text, "order line", lim.LINE_MAX),
            lim.id_problem(command.problem, "problem"),
            lim.text_problem(command.message, "message", lim.EXPLANATION_MAX),
        ]
    elif isinstance(command, AskPermission):
        checks += [
            lim.id_problem(command.faction, "faction asking"),
            lim.id_problem(command.of, "faction asked (of)"),
            lim.id_problem(command.place, "place"),
            _ids(command.aspects, "aspect"),
            lim.text_problem(command.note, "note", lim.NOTE_MAX),
        ]
    elif isinstance(command, FinishTurn):
        checks.append(lim.id_problem(command.faction, "faction"))
    elif isinstance(command, Undo):
        checks += [_undo_target(command.to_seq), lim.text_problem(command.reason, "reason", lim.NOTE_MAX)]
    elif isinstance(command, ExtendDeadline):
        checks.append(lim.id_problem(command.target, "deadline's target"))
    elif not isinstance(command, Tick):
        return f"unknown command {type(command).__name__}"
    return next((c for c in checks if c is not None), None)


def _create_game(cmd: CreateGame) -> str | None:
    checks: list[str | None] = [lim.text_problem(cmd.name, "game's name", lim.NAME_MAX, required=True)]
    if cmd.game_id is not None:
        checks.append(lim.id_problem(cmd.game_id, "game id", lim.CHOSEN_ID_MAX))
    if cmd.seed is not None:
        checks.append(lim.text_problem(cmd.seed, "seed", lim.SEED_MAX, required=True))
    if cmd.data_folder is not None:
        checks.append(lim.text_problem(cmd.data_folder, "data folder", lim.PATH_MAX))
    if not isinstance(cmd.factions, tuple | list) or len(cmd.factions) > MAX_FACTIONS:
        checks.append(f"give at most {MAX_FACTIONS} factions")
    else:
        for f in cmd.factions:
            checks.append(lim.id_problem(f, "faction id", lim.FACTION_ID_MAX))
            if f in RESERVED_FACTIONS:
                checks.append(f"{f!r} is reserved: it cannot be a faction id")
    n = cmd.cards_per_faction
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 0 < n <= 100):
        checks.append("cards per faction is a whole number from 1 to 100")
    return next((c for c in checks if c is not None), None)


def _ids(values: object, what: str) -> str | None:
    if not isinstance(values, tuple | list):
        return f"the {what}s must be a list of ids"
    if len(values) > lim.LIST_MAX:
        return f"give at most {lim.LIST_MAX} {what}s"
    return next((p for v in values if (p := lim.id_problem(v, what)) is not None), None)


def _undo_target(to_seq: object) -> str | None:
    if isinstance(to_seq, bool) or not isinstance(to_seq, int):
        return f"undo to a log entry number, not {lim.shown(to_seq)}"
    return None


# -- imports: a whole game's record and log entries ---------------------------------------
# Texts of log entries, by field name, with their limits; every other text is an id.
_ENTRY_TEXTS: dict[str, int] = {
    "name": lim.NAME_MAX,
    "player": lim.NAME_MAX,
    "data_set": lim.NAME_MAX,
    "note": lim.NOTE_MAX,
    "reason": lim.NOTE_MAX,
    "summary": lim.NOTE_MAX,
    "outcome": lim.NOTE_MAX,
    "explanation": lim.EXPLANATION_MAX,
    "seed": lim.SEED_MAX,
    "commitment": lim.SEED_MAX,
    "due": lim.WORD_MAX,
    "rule": lim.WORD_MAX,
    "senior_rule": lim.WORD_MAX,
    "result": lim.WORD_MAX,
    "policy": lim.WORD_MAX,
    "target_kind": lim.WORD_MAX,
    "combat_kind": lim.WORD_MAX,
    "order_kind": lim.WORD_MAX,
    "purpose": lim.WORD_MAX,
    "recorded_at": lim.WORD_MAX,
    "command": lim.KEY_MAX,  # the envelope's command id (an idempotency key)
    "text": lim.LINE_MAX,  # a line of a post as the player wrote it (OrderSubmitted, LineUnread)
    "message": lim.EXPLANATION_MAX,  # why a line was not read
    "to": lim.KEY_MAX,  # where a card goes: hand:red, noble:percy, crown_discard, ...
    "source": lim.KEY_MAX,  # where a card comes from (the same words)
    "flag": lim.KEY_MAX,  # a turn's flag: summoned:<noble>:<place>:at:<castle>, writ:..., ...
    "ratio": lim.WORD_MAX,  # a battle's odds, 5:4
    "odds": lim.WORD_MAX,
    "options": lim.KEY_MAX,  # a game option as chosen, name=value (GameStarted)
}
# Id fields an entry leaves empty when they do not apply (a proposal with no heir, award
# or motion).
_MAYBE_EMPTY: frozenset[str] = frozenset({"heir", "award", "motion"})


def entry_problem(envelope: object) -> str | None:
    """What is wrong with a log entry's texts and ids (an imported game's), or ``None``.
    Ids may be in upper case here: older versions kept ``AS RG`` as written."""
    return _walk(envelope, "entry")


def record_problem(record: object) -> str | None:
    """What is wrong with an imported game's record: its id, name, factions, seed, the
    factions' names and every name of its board and cards."""

    def get(name: str) -> object:
        return getattr(record, name, None)

    checks = [
        lim.id_problem(get("id"), "game id"),
        lim.text_problem(get("name"), "game's name", lim.NAME_MAX, required=True),
        lim.text_problem(get("data_set"), "data set's name", lim.NAME_MAX),
        lim.text_problem(get("seed"), "seed", lim.SEED_MAX),
    ]
    factions = get("factions")
    if not isinstance(factions, tuple | list) or len(factions) > MAX_FACTIONS:
        checks.append(f"a game has 1 to {MAX_FACTIONS} factions")
    else:
        checks += [_legacy_id(f, "faction id") for f in factions]
    checks += [
        _data(get("settings"), "settings", lim.NAME_MAX),
        _data(get("board"), "board", lim.NAME_MAX),
        _data(get("catalog"), "card set", lim.NAME_MAX),
    ]
    return next((c for c in checks if c is not None), None)


def key_problem(key: object) -> str | None:
    """What is wrong with an idempotency key: one line of at most ``KEY_MAX`` characters."""
    return None if key is None else lim.text_problem(key, "idempotency key", lim.KEY_MAX, required=True)


def _legacy_id(value: object, what: str) -> str | None:
    if isinstance(value, str) and lim.is_id(value.lower()):
        return None
    return lim.id_problem(value, what)


def _walk(value: object, where: str, name: str = "") -> str | None:
    if value is None or isinstance(value, bool | int | float):
        return None
    if isinstance(value, str):
        if name in _ENTRY_TEXTS:
            return lim.text_problem(value, where, _ENTRY_TEXTS[name])
        if not value and name in _MAYBE_EMPTY:
            return None
        return _legacy_id(value, where)
    if isinstance(value, tuple | list):
        if len(value) > lim.LIST_MAX:
            return f"the {where} lists {len(value):,} items; at most {lim.LIST_MAX} are allowed"
        return next((p for v in value if (p := _walk(v, where, name)) is not None), None)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = getattr(value, "kind", "")
        for f in dataclasses.fields(value):
            inner = f"{f.name.rstrip('_')} of the {kind.replace('_', ' ')}" if kind else f.name
            p = _walk(getattr(value, f.name), inner, f.name)
            if p is not None:
                return p
        return None
    return f"the {where} holds {lim.shown(value)}"


def _data(value: object, where: str, limit: int) -> str | None:
    """Every text of a JSON-like value (keys too) on one line of at most ``limit``."""
    if isinstance(value, str):
        return lim.text_problem(value, where, limit)
    if isinstance(value, dict):
        for k, v in value.items():
            inner = f"{where}.{k}" if isinstance(k, str) and lim.is_id(k.lower()) else where
            p = lim.text_problem(k, f"key in {where}", limit) if isinstance(k, str) else None
            p = p or _data(v, inner, limit)
            if p is not None:
                return p
        return None
    if isinstance(value, list | tuple):
        return next((p for v in value if (p := _data(v, where, limit)) is not None), None)
    return None
