"""The shape the code keeps (issue 12): no module of the package over 600 lines, and no
``# type: ignore`` without a reason written after it on the same line."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "kingmaker"
MAX_LINES = 600
_IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?(?P<rest>.*)$")


def _modules() -> list[Path]:
    found = sorted(SRC.rglob("*.py"))
    assert len(found) > 100, "the package's modules were not found"
    return found


def test_no_module_is_over_600_lines() -> None:
    long = {
        str(p.relative_to(SRC)): n for p in _modules() if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_every_type_ignore_says_why() -> None:
    bare = []
    for p in _modules():
        for i, line in enumerate(p.read_text().splitlines(), 1):
            m = _IGNORE.search(line)
            if m and not m.group("rest").strip().lstrip("#").strip():
                bare.append(f"{p.relative_to(SRC)}:{i}")
    assert not bare, f"type: ignore without a reason: {bare}"
