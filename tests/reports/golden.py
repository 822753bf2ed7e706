"""Golden files: a test renders a report and compares it with the stored text;
``KINGMAKER_UPDATE_GOLDEN=1`` rewrites the stored text instead."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("KINGMAKER_UPDATE_GOLDEN") == "1"


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no golden file {path}; run with KINGMAKER_UPDATE_GOLDEN=1 to write it")
    want = path.read_text(encoding="utf-8")
    if text != want:
        diff = "".join(
            difflib.unified_diff(
                want.splitlines(keepends=True),
                text.splitlines(keepends=True),
                f"golden/{name}",
                "rendered",
                n=2,
            )
        )
        pytest.fail(
            f"{name} differs from its golden file (KINGMAKER_UPDATE_GOLDEN=1 rewrites it):\n{diff[:6000]}"
        )
