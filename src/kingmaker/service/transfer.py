"""Whole-game export to one JSON Lines file, and import into any store.

The file: a header line (the game's record, its data set, its initial state), one line
per log entry, each with a SHA-256 chain over the entries so far, and a closing line
with the entry count, the final chain value and the final state hash. Importing checks
every line, the chain, the count and a full replay against the closing hash before it
writes anything, then writes the game in one transaction: a truncated, edited or
foreign file is refused with what is wrong and where, and nothing is imported.

The export is the GM's: it holds the secret seed (the game cannot continue without it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import IO, Any

from kingmaker.log.envelope import Envelope, LogFormatError, envelope_from_data, envelope_to_data
from kingmaker.log.fold import Position, fold
from kingmaker.rules.codec import CodecError, board_from_data, catalog_from_data
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.limits import CHOSEN_ID_MAX, id_problem
from kingmaker.rules.state import GameState
from kingmaker.storage.base import GameExists, GameRecord, GameStore, Snapshot

from .limits import entry_problem, record_problem

FORMAT = "kingmaker-game"
FORMAT_VERSION = 1
_GENESIS = "0" * 64


class ImportError_(ValueError):
    """An export file that cannot be imported; the message says what and where."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _chain(prev: str, entry: dict[str, Any]) -> str:
    return hashlib.sha256((prev + _canonical(entry)).encode("utf-8")).hexdigest()


def export_lines(store: GameStore, game_id: str) -> Iterator[str]:
    """The lines of a game's export (without newlines)."""
    record = store.game(game_id)
    initial = store.latest_snapshot(game_id, at_or_before=0)
    yield _canonical(
        {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": asdict(record),
            "initial": {"seq": initial.seq, "state": initial.state, "state_hash": initial.state_hash},
        }
    )
    chain = _GENESIS
    envelopes: list[Envelope] = []
    for env in store.envelopes(game_id):
        data = envelope_to_data(env)
        chain = _chain(chain, data)
        envelopes.append(env)
        yield _canonical({"entry": data, "chain": chain})
    board, catalog = board_from_data(record.board), catalog_from_data(record.catalog)
    final = fold(Position.from_data(initial.state, board, catalog).state, envelopes)
    yield _canonical(
        {"end": True, "entries": len(envelopes), "chain": chain, "state_hash": state_hash(final)}
    )


def export_game(store: GameStore, game_id: str, out: IO[str]) -> int:
    """Write a game's export to ``out``; returns the number of log entries."""
    n = -2
    for line in export_lines(store, game_id):
        out.write(line + "\n")
        n += 1
    return n


@dataclass(frozen=True)
class ImportReport:
    game: str
    entries: int
    state_hash: str


def read_export(lines: Iterable[str]) -> tuple[GameRecord, Snapshot, list[Envelope], str]:
    """Check an export completely: the record, initial snapshot, entries and final hash.
    Raises ``ImportError_`` naming the line and what is wrong."""
    record, initial, envelopes, last_line, end = parse_export(lines)
    start = initial_state(record, initial)
    try:
        final = fold(start, envelopes)
    except Exception as e:  # an event the rules cannot apply: the log is not a real game
        raise ImportError_(last_line, f"the log does not replay ({type(e).__name__}: {e})") from None
    got = state_hash(final)
    if got != end.get("state_hash"):
        raise ImportError_(last_line, "replaying the log does not give the state the export recorded")
    return record, initial, envelopes, got


def parse_export(
    lines: Iterable[str],
) -> tuple[GameRecord, Snapshot, list[Envelope], int, dict[str, Any]]:
    """Every line of an export checked (header, entries and their checksum chain, the
    closing line), without replaying the log: the record, the initial snapshot, the
    entries, the number of lines and the closing line. Raises ``ImportError_``."""
    it = iter(enumerate(lines, start=1))
    header: dict[str, Any] | None = None
    record: GameRecord | None = None
    initial: Snapshot | None = None
    envelopes: list[Envelope] = []
    chain = _GENESIS
    end: dict[str, Any] | None = None
    last_line = 0
    for no, raw in it:
        last_line = no
        text = raw.rstrip("\n")
        if not text.strip():
            raise ImportError_(no, "an empty line (the export has none)")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ImportError_(no, f"not JSON (column {e.colno}: {e.msg})") from None
        if not isinstance(data, dict):
            raise ImportError_(no, "each line is a JSON object")
        if header is None:
            if data.get("format") != FORMAT:
                raise ImportError_(no, "this is not a kingmaker game export (no 'kingmaker-game' header)")
            if data.get("version") != FORMAT_VERSION:
                raise ImportError_(
                    no, f"export format version {data.get('version')!r} is not {FORMAT_VERSION}"
                )
            header = data
            record, initial = _header(no, data)
            problem = record_problem(record)
            if problem is not None:
                raise ImportError_(no, problem)
            continue
        if end is not None:
            raise ImportError_(no, "lines after the closing line")
        if data.get("end") is True:
            end = data
            continue
        entry = data.get("entry")
        if not isinstance(entry, dict) or set(data) != {"entry", "chain"}:
            raise ImportError_(no, "expected a log entry line ({'entry': ..., 'chain': ...})")
        chain = _chain(chain, entry)
        if data["chain"] != chain:
            raise ImportError_(
                no, "the entry does not match its checksum: the file was edited or damaged here"
            )
        try:
            env = envelope_from_data(entry)
        except LogFormatError as e:
            raise ImportError_(no, f"bad log entry: {e}") from None
        if env.seq != len(envelopes) + 1:
            raise ImportError_(no, f"entry seq {env.seq} where {len(envelopes) + 1} was expected")
        problem = entry_problem(env)
        if problem is not None:
            raise ImportError_(no, f"entry {env.seq}: {problem}")
        envelopes.append(env)
    if header is None or record is None or initial is None:
        raise ImportError_(0, "the file is empty")
    if end is None:
        raise ImportError_(last_line, "the file ends without its closing line: it is truncated")
    if end.get("entries") != len(envelopes) or end.get("chain") != chain:
        raise ImportError_(
            last_line, "the closing line does not match the entries: the file is truncated or edited"
        )
    return record, initial, envelopes, last_line, end


def initial_state(record: GameRecord, initial: Snapshot) -> GameState:
    """The rules state an export's header records at creation (``ImportError_`` on line 1
    when its data or state cannot be read)."""
    try:
        board, catalog = board_from_data(record.board), catalog_from_data(record.catalog)
        return Position.from_data(initial.state, board, catalog).state
    except CodecError as e:
        raise ImportError_(1, f"the game's data cannot be read: {e}") from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:  # malformed parts
        raise ImportError_(1, f"the initial state cannot be read ({type(e).__name__}: {e})") from None


def _header(no: int, data: dict[str, Any]) -> tuple[GameRecord, Snapshot]:
    try:
        g = dict(data["game"])
        g["factions"] = tuple(g["factions"])
        record = GameRecord(**g)
        ini = data["initial"]
        initial = Snapshot(int(ini["seq"]), dict(ini["state"]), str(ini["state_hash"]))
    except (KeyError, TypeError, ValueError) as e:
        raise ImportError_(no, f"the header is incomplete or malformed ({e})") from None
    if initial.seq != 0:
        raise ImportError_(no, "the initial state must be at seq 0")
    return record, initial


def import_game(store: GameStore, lines: Iterable[str], *, as_id: str | None = None) -> ImportReport:
    """Check the export, then write the game in one transaction (all or nothing)."""
    if as_id is not None and (problem := id_problem(as_id, "game id", CHOSEN_ID_MAX)) is not None:
        raise ImportError_(0, problem)
    record, initial, envelopes, final = read_export(lines)
    if as_id is not None:
        record = GameRecord(**{**asdict(record), "factions": tuple(record.factions), "id": as_id})
    try:
        store.import_game(record, initial, envelopes, None)
    except GameExists:
        raise ImportError_(0, f"a game {record.id!r} already exists; import it under another id") from None
    from .game_service import GameService

    GameService(store).save_snapshot(record.id)  # a cache only: loading is fast from here on
    return ImportReport(record.id, len(envelopes), final)
