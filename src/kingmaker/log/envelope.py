"""Envelopes: one logged event with its sequence number, round, turn, actor, the rule
that decided it and the wall-clock time (the time lives in the envelope only; the
rules never see it).

Schema versions: every stored envelope carries ``v``. Reading an older envelope runs
the upgrade step of each version in turn, so old logs keep loading after the format
changes. Version history:

- 1: ``{v, seq, round, turn, actor, rule, event, at}``.
- 2: ``at`` renamed ``recorded_at``; ``command`` added (the id of the command that
  produced the event, so the audit log ties every event to the order that caused it;
  unknown, so None, for version-1 logs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kingmaker.rules.records import Record, RecordError, from_data, to_data

SCHEMA_VERSION = 2


class LogFormatError(ValueError):
    """A stored envelope that cannot be read."""


@dataclass(frozen=True, slots=True)
class Envelope:
    seq: int
    round: int
    turn: str
    actor: str  # a faction id, "gm", or "clock" for what the service records on its own
    rule: str | None
    event: Record
    recorded_at: str  # ISO 8601, UTC
    command: str | None = None


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k != "at"}
    out["recorded_at"] = data.get("at", "")
    out["command"] = None
    out["v"] = 2
    return out


UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}

_FIELDS = {"v", "seq", "round", "turn", "actor", "rule", "event", "recorded_at", "command"}


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Bring a stored envelope up to the current schema version."""
    v = data.get("v")
    if not isinstance(v, int) or v < 1:
        raise LogFormatError(f"envelope has no valid schema version (v={v!r})")
    if v > SCHEMA_VERSION:
        raise LogFormatError(f"envelope schema version {v} is newer than this program ({SCHEMA_VERSION})")
    while v < SCHEMA_VERSION:
        data = UPGRADES[v](data)
        v = data["v"]
    return data


def envelope_to_data(env: Envelope) -> dict[str, Any]:
    return {
        "v": SCHEMA_VERSION,
        "seq": env.seq,
        "round": env.round,
        "turn": env.turn,
        "actor": env.actor,
        "rule": env.rule,
        "event": to_data(env.event),
        "recorded_at": env.recorded_at,
        "command": env.command,
    }


def envelope_from_data(data: Any) -> Envelope:
    """Read a stored envelope of any known version; ``LogFormatError`` says what is wrong."""
    if not isinstance(data, dict):
        raise LogFormatError("an envelope is a JSON object")
    data = upgrade(data)
    extra = set(data) - _FIELDS
    if extra:
        raise LogFormatError(f"unknown envelope field(s): {', '.join(sorted(extra))}")
    try:
        seq, rnd = data["seq"], data["round"]
        if not isinstance(seq, int) or not isinstance(rnd, int) or seq < 1:
            raise LogFormatError(f"bad seq/round: {seq!r}/{rnd!r}")
        event = from_data(data["event"])
        if not isinstance(event, Record):
            raise LogFormatError("the event is not a record")
        return Envelope(
            seq=seq,
            round=rnd,
            turn=str(data["turn"]),
            actor=str(data["actor"]),
            rule=data.get("rule"),
            event=event,
            recorded_at=str(data.get("recorded_at", "")),
            command=data.get("command"),
        )
    except KeyError as e:
        raise LogFormatError(f"envelope is missing {e.args[0]!r}") from None
    except (RecordError, TypeError) as e:
        raise LogFormatError(f"bad event: {e}") from None
