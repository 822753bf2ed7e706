"""The in-repository copies of the shared rule texts and vectors (``docs/rules/``,
``conformance/cases/``) are the shared folder's files, byte for byte, none added or
removed; compared whenever the shared folder is beside the checkout (``../shared``),
skipped when it is not (a user's clone). ``scripts/refresh-shared-copies`` makes them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import CASES, REPO, SHARED

# copy in the repository -> original in the shared folder
DOCS: dict[str, str] = {
    "docs/rules/RULE_IDS.md": "rules/RULE_IDS.md",
    "docs/rules/FULL_GAME.md": "rules/FULL_GAME.md",
    "docs/rules/FORMAT.md": "conformance/FORMAT.md",
    "docs/rules/ARCHITECTURE.md": "ARCHITECTURE.md",
    "docs/rules/kingmaker_facts.md": "reference/kingmaker_facts.md",
}
CASES_IN_SHARED = "conformance/cases"
REFRESH = REPO / "scripts" / "refresh-shared-copies"


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.is_file())


def _need_shared() -> Path:
    if not (SHARED / CASES_IN_SHARED).is_dir():
        pytest.skip(f"no shared rule texts beside this checkout ({SHARED}); nothing to compare the copies with")
    return SHARED


# -- always: the copies are all there --------------------------------------------------


def test_every_copy_is_in_the_repository() -> None:
    for copy in DOCS:
        assert (REPO / copy).is_file(), copy
    assert len(_files(CASES)) >= 61
    assert all(name.endswith(".yaml") for name in _files(CASES))


def test_docs_rules_holds_only_the_copies_and_its_readme() -> None:
    """A text added to docs/rules without a known original would never be checked."""
    expected = {Path(c).name for c in DOCS} | {"README.md"}
    assert set(_files(REPO / "docs" / "rules")) == expected


def test_the_refresh_script_makes_exactly_these_copies(tmp_path: Path) -> None:
    """The script, run in a scratch checkout against a scratch shared folder, writes every
    copy of DOCS from its original and mirrors the cases (a vector gone from the shared
    folder is removed, one added there is added)."""
    shared, repo = tmp_path / "shared", tmp_path / "repo"
    for copy, original in DOCS.items():
        (shared / original).parent.mkdir(parents=True, exist_ok=True)
        (shared / original).write_bytes(f"original of {copy}\n".encode())
    (shared / CASES_IN_SHARED).mkdir(parents=True)
    (shared / CASES_IN_SHARED / "NEW-001.yaml").write_bytes(b"id: NEW-001\n")
    (repo / "scripts").mkdir(parents=True)
    shutil.copy2(REFRESH, repo / "scripts" / REFRESH.name)
    (repo / "conformance" / "cases").mkdir(parents=True)
    (repo / "conformance" / "cases" / "OLD-001.yaml").write_bytes(b"id: OLD-001\n")

    done = subprocess.run(
        [str(repo / "scripts" / REFRESH.name), str(shared)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    for copy, original in DOCS.items():
        assert (repo / copy).read_bytes() == (shared / original).read_bytes(), copy
    assert _files(repo / "conformance" / "cases") == ["NEW-001.yaml"]


# -- with ../shared: the copies are the originals -----------------------------------------


def test_the_rule_texts_are_verbatim_copies() -> None:
    shared = _need_shared()
    differ = [c for c, o in DOCS.items() if (REPO / c).read_bytes() != (shared / o).read_bytes()]
    assert differ == [], f"copies that differ from ../shared (run scripts/refresh-shared-copies): {differ}"


def test_the_vectors_are_the_shared_ones_none_added_or_removed() -> None:
    shared = _need_shared() / CASES_IN_SHARED
    ours, theirs = set(_files(CASES)), set(_files(shared))
    assert sorted(theirs - ours) == [], "vectors in ../shared missing here (run scripts/refresh-shared-copies)"
    assert sorted(ours - theirs) == [], "vectors here that ../shared does not have (ours go to tests/vectors/)"
    differ = [n for n in sorted(ours) if (CASES / n).read_bytes() != (shared / n).read_bytes()]
    assert differ == [], f"vectors that differ from ../shared (run scripts/refresh-shared-copies): {differ}"
