"""Domains talk through each other's public names only (docs/architecture.md): an import that crosses from one
package of `app/services/` into another never names a private (`_x`) function, constant or module. Which domain may
import which is the layers contract in pyproject.toml (`make lint`); this is the other half of the boundary."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICES = Path(__file__).resolve().parents[2] / "app" / "services"


def _domain(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["app", "services"] else None


def crossings(root: Path) -> list[str]:
    """`file: module.name` for each private name one domain imports from another."""
    found = []
    for path in sorted(root.rglob("*.py")):
        own = path.relative_to(root).parts[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or not node.module or _domain(node.module) in (None, own):
                continue
            names = [a.name for a in node.names]
            private = [n for n in names if n.startswith("_")]
            private += [node.module] if any(p.startswith("_") for p in node.module.split(".")) else []
            found += [f"{path.relative_to(root)}: {node.module}.{n}" for n in private]
    return found


def test_no_domain_imports_another_domains_private_names() -> None:
    assert crossings(SERVICES) == []


def test_a_private_import_across_domains_is_found(tmp_path: Path) -> None:
    (tmp_path / "billing").mkdir()
    (tmp_path / "billing" / "probe.py").write_text("from app.services.scheduling.booking import _slots\n")
    (tmp_path / "scheduling").mkdir()
    (tmp_path / "scheduling" / "probe.py").write_text("from app.services.scheduling.booking import _slots\n")
    assert crossings(tmp_path) == ["billing/probe.py: app.services.scheduling.booking._slots"]
