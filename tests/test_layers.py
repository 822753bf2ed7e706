"""The layers of docs/architecture.md hold: the rules core imports only the standard
library, and no module imports a layer below its own (issue 12).

The order of the layers is read from the table under "## Layers" in
docs/architecture.md, so the table and this test cannot drift apart. Every import is
checked, function-level ones included (``ast.walk`` over each module).
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
RULES = "kingmaker.rules"


def layers(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The rows of the table under "## Layers", in order: (layer, its packages)."""
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows: list[tuple[str, tuple[str, ...]]] = []
    for line in section.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] == "layer" or set(cells[0]) <= {"-", " "}:
            continue
        rows.append((cells[0], tuple(re.findall(r"`(kingmaker(?:\.\w+)*)`", cells[1]))))
    return rows


def layer_index(rows: list[tuple[str, tuple[str, ...]]]) -> dict[str, int]:
    """Each package of the table with its layer's place (0: the innermost)."""
    return {p: i for i, (_, packages) in enumerate(rows) for p in packages}


def layer_of(module: str, index: dict[str, int]) -> int | None:
    """The layer of ``module``: that of the longest package of the table it is in. The
    package ``kingmaker`` itself (its ``__init__``) re-exports the rules' API: it stands
    with the rules; any other module must be in a package of the table."""
    if module == "kingmaker":
        return 0
    parts = module.split(".")
    for n in range(len(parts), 1, -1):
        got = index.get(".".join(parts[:n]))
        if got is not None:
            return got
    return None


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the module imported (``from a import b``: ``a``)
    line: int


def module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, src: Path) -> list[Import]:
    """Every import in the module at ``path``, wherever it stands, relative ones resolved."""
    name = module_name(path, src)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[Import] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [Import(name, a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            out.append(Import(name, target, node.lineno))
    return out


def all_imports(src: Path) -> list[Import]:
    return [imp for path in sorted((src / "kingmaker").rglob("*.py")) for imp in imports_of(path, src)]


def rules_problems(imports: list[Import]) -> list[str]:
    """Imports of the rules core from outside the standard library."""
    wrong = []
    for imp in imports:
        if imp.module != RULES and not imp.module.startswith(RULES + "."):
            continue
        top = imp.target.split(".")[0]
        inside = imp.target == RULES or imp.target.startswith(RULES + ".")
        if not inside and (top == "kingmaker" or top not in sys.stdlib_module_names):
            wrong.append(f"{imp.module}:{imp.line} imports {imp.target}")
    return wrong


def layer_problems(imports: list[Import], rows: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    """Imports of a layer below the importing module's own (and modules of no layer)."""
    index = layer_index(rows)
    names = [layer for layer, _ in rows]
    wrong = []
    for imp in imports:
        mine = layer_of(imp.module, index)
        if mine is None:
            wrong.append(f"{imp.module} is in no layer of the table")
            continue
        if imp.target.split(".")[0] != "kingmaker":
            continue
        theirs = layer_of(imp.target, index)
        if theirs is None:
            wrong.append(f"{imp.module}:{imp.line} imports {imp.target}, which is in no layer of the table")
        elif theirs > mine:
            wrong.append(f"{imp.module}:{imp.line} ({names[mine]}) imports {imp.target} ({names[theirs]})")
    return sorted(set(wrong))


# -- the code as it is -------------------------------------------------------------------


def test_the_table_reads() -> None:
    rows = layers(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(rows) >= 5, rows
    assert rows[0][1] == (RULES,), "the rules are the innermost layer"
    assert rows[-1] == ("interfaces", ("kingmaker.cli", "kingmaker.web"))
    index = layer_index(rows)
    assert index["kingmaker.log"] < index["kingmaker.storage"] < index["kingmaker.service"]
    assert index["kingmaker.service"] < index["kingmaker.render"] < index["kingmaker.web"]


def test_the_rules_import_only_the_standard_library() -> None:
    wrong = rules_problems(all_imports(SRC))
    assert not wrong, "the rules core imports only the standard library:\n" + "\n".join(wrong)


def test_no_layer_imports_an_outer_one() -> None:
    wrong = layer_problems(all_imports(SRC), layers(ARCHITECTURE.read_text(encoding="utf-8")))
    assert not wrong, "see the table of docs/architecture.md:\n" + "\n".join(wrong)


# -- the checks themselves, on a made-up package ----------------------------------------

TABLE = """## Layers

| layer | package | holds |
| --- | --- | --- |
| rules (pure) | `kingmaker.rules` | ... |
| log | `kingmaker.log` | ... |
| interfaces | `kingmaker.cli`, `kingmaker.web` | ... |

## Next
"""


def _package(tmp_path: Path, files: dict[str, str]) -> list[Import]:
    for name, source in files.items():
        path = tmp_path / "kingmaker" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return all_imports(tmp_path)


def test_the_checks_see_every_kind_of_import(tmp_path: Path) -> None:
    imports = _package(
        tmp_path,
        {
            "__init__.py": "from .rules.state import GameState\n",
            "rules/__init__.py": "",
            "rules/state.py": "from __future__ import annotations\nimport json\nfrom . import ids\n",
            "rules/ids.py": "def f():\n    import yaml\n",  # a function-level import
            "rules/views.py": "from ..log import fold\n",  # a relative import outward
            "log/__init__.py": "",
            "log/fold.py": "from kingmaker.rules import state\nfrom kingmaker.cli.app import main\n",
            "cli/app.py": "from kingmaker.web import app\nimport kingmaker.log.fold\n",
            "web/app.py": "class A:\n    def m(self):\n        from ..cli import app\n",
            "extra.py": "from . import rules\n",
        },
    )
    assert rules_problems(imports) == [
        "kingmaker.rules.ids:2 imports yaml",
        "kingmaker.rules.views:1 imports kingmaker.log",
    ]
    assert layer_problems(imports, layers(TABLE)) == [
        "kingmaker.extra is in no layer of the table",
        "kingmaker.log.fold:2 (log) imports kingmaker.cli.app (interfaces)",
        "kingmaker.rules.views:1 (rules (pure)) imports kingmaker.log (log)",
    ]
