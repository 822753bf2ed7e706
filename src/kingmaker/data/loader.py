"""Loading a data set folder: read every file, check everything, build the model.

>>> ds = load_dataset()
>>> ds.board.places["london"].kind.value
'city'
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from kingmaker.rules.board import Board
from kingmaker.rules.cards import Catalog
from kingmaker.rules.frozen import FrozenDict

from . import schema as s
from .checks import run_checks
from .dataset import DataSet, Setup
from .deck import parse_events
from .parse import PARSERS, Parsed
from .problems import DataError, DataProblem
from .votes import check_votes, vote_table

DEFAULT_SET = "england1455"
_PARSERS = {**PARSERS, s.EVENTS: parse_events}
_AT = re.compile(r"^(?P<msg>.*?)\s*\(at line (?P<line>\d+), column (?P<col>\d+)\)$")


def default_folder() -> Traversable:
    """The packaged "England 1455" data set folder."""
    return resources.files("kingmaker.data").joinpath(DEFAULT_SET)


def _read(folder: Traversable, file: str, out: Parsed) -> dict[str, Any] | None:
    entry = folder.joinpath(file)
    if not entry.is_file():
        out.problems.append(DataProblem(file, "", "file is missing"))
        return None
    try:
        text = entry.read_bytes().decode("utf-8")
    except UnicodeDecodeError as e:
        out.problems.append(DataProblem(file, "", f"not UTF-8 text: {e.reason} at byte {e.start}"))
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _AT.match(str(e))
        if m is None:
            out.problems.append(DataProblem(file, "", f"TOML syntax error: {e}"))
        else:
            where = f"line {m['line']}, column {m['col']}"
            out.problems.append(DataProblem(file, where, f"TOML syntax error: {m['msg']}"))
        return None


def read_folder(folder: Path | Traversable) -> Parsed:
    """Every file of ``folder`` read and checked; problems are in ``Parsed.problems``."""
    out = Parsed()
    if not folder.is_dir():
        out.problems.append(DataProblem(str(folder), "", "data set folder not found"))
        return out
    for file in s.FILES:
        data = _read(folder, file, out)
        if data is not None:
            out.raw[file] = data
            _PARSERS[file](out, data)
    run_checks(out)
    check_votes(out)
    rank = {f: i for i, f in enumerate(s.FILES)}
    out.problems.sort(key=lambda p: rank.get(p.file, -1))  # by file; found order within one
    return out


def validate_folder(folder: Path | Traversable | None = None) -> list[DataProblem]:
    """Every problem of the data set in ``folder`` (the default set when None)."""
    return read_folder(default_folder() if folder is None else folder).problems


def load_dataset(folder: Path | Traversable | None = None) -> DataSet:
    """The data set in ``folder`` (None: the packaged England 1455 set).

    Raises :class:`DataError` listing every problem when the set does not check clean.
    """
    out = read_folder(default_folder() if folder is None else folder)
    if out.problems:
        raise DataError(out.problems)
    return build_dataset(out)


def build_dataset(out: Parsed) -> DataSet:
    """The model objects of a folder that checked clean."""
    assert out.setup is not None
    removed = tuple(out.setup.get("removed", ()))
    board = Board(
        name=out.setup["name"],
        places=FrozenDict(out.places),
        seas=FrozenDict(out.seas),
        roads=tuple(out.roads),
        adjacent=out.adjacent,
    )
    catalog = Catalog(
        nobles=FrozenDict(out.nobles),
        awards=FrozenDict(out.awards),
        ships=FrozenDict(out.ships),
        heirs=FrozenDict(out.heirs),
        removed=removed,
        events=FrozenDict(out.events),
        votes=vote_table(out),
    )
    setup = Setup(
        name=out.setup["name"],
        factions=tuple(out.factions),
        min_factions=out.setup["min_factions"],
        max_factions=out.setup["max_factions"],
        cards_per_faction=out.setup["cards_per_faction"],
        removed=removed,
        crowned=tuple(out.crowned),
        see_seniority=tuple(sorted(out.seniority, key=lambda a: out.seniority[a])),
        min_event_cards=out.setup.get("min_event_cards", 0),
    )
    return DataSet(board=board, catalog=catalog, setup=setup)
