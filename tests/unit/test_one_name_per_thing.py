"""One name per thing: every page path is spelled once (app/ui/routes.py) and every name there is used; a class name
means one class; a top-level helper of the app is used by the app; the config cites files that exist."""

from __future__ import annotations

import ast
import re
from collections import Counter
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
ROUTES = APP / "ui" / "routes.py"
SOURCES = {path: path.read_text() for path in sorted(APP.rglob("*.py"))}
# Loaded by the tooling rather than imported by the app: the Reflex config and the migrations.
OUTSIDE = (ROOT / "rxconfig.py").read_text() + "".join(p.read_text() for p in (ROOT / "alembic").rglob("*.py"))
# Kept though the app does not call them: hooks the tests call, and the link the unsubscribe endpoint verifies.
HOOKS = {
    "app/services/scheduling/meeting_types.py": {"clear_cache"},
    "app/services/crm/newsletter.py": {"unsubscribe_url"},
}


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(SOURCES[path])


def _routes() -> dict[str, str]:
    """Path -> constant name, for the paths a literal could spell by mistake ("/" and "404" also mean other things)."""
    found = {}
    for node in _tree(ROUTES).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            found[node.value.value] = node.targets[0].id  # type: ignore[attr-defined]
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef))]
    return {
        id(body[0].value)
        for body in (getattr(n, "body", []) for n in nodes)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    }


def test_page_paths_are_spelled_once() -> None:
    paths = {p: name for p, name in _routes().items() if p not in ("/", "404")}
    spelled = []
    for path in SOURCES:
        if path == ROUTES or not path.is_relative_to(APP / "ui"):
            continue  # app/api cannot import app/ui (the layers): its few page paths stay literal
        tree = _tree(path)
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                page = node.value.split("?", 1)[0]
                if page in paths:
                    spelled.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r} (routes.{paths[page]})")
    assert spelled == []


def test_every_route_name_is_used() -> None:
    used = "".join(text for path, text in SOURCES.items() if path != ROUTES)
    unused = [name for name in _routes().values() if not re.search(rf"\broutes\.{name}\b", used)]
    assert unused == []


def test_a_class_name_means_one_class() -> None:
    seen: dict[str, list[str]] = {}
    for path in SOURCES:
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ClassDef):
                seen.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    # The same record as the service's list DTO and as the staff panel's display row of it: one thing, two layers.
    layered = {"ProjectRow", "MeetingRow", "InvoiceRow"}
    # Reflex states of the staff panel and of the portal; Reflex names a state by its module, so they never meet.
    states = {"MeetingsState", "SettingsState"}
    twice = {name: where for name, where in seen.items() if len(where) > 1 and name not in layered | states}
    assert twice == {}


def test_every_top_level_helper_is_used() -> None:
    """A module's top-level function, class or constant is used by the app, the Reflex config or the migrations
    (pages and routes are used by their decorators, or by `rx.page(...)(...)`)."""
    words = Counter(re.findall(r"\w+", "".join(SOURCES.values()) + OUTSIDE))
    unused = []
    for path in SOURCES:
        rel = str(path.relative_to(ROOT))
        for node in _tree(path).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                if node.decorator_list and not isinstance(node, ast.ClassDef):
                    continue
                names = [node.name]
            elif isinstance(node, ast.Assign):
                if isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Call):
                    continue  # a page registered by calling the decorator
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = [node.target.id]
            else:
                continue
            for name in names:
                if name.startswith("__") or name in HOOKS.get(rel, set()):
                    continue
                if words[name] < 2:
                    unused.append(f"{rel}: {name}")
    assert unused == []


def test_the_config_cites_files_that_exist() -> None:
    cited = set()
    for name in ("pyproject.toml", "Makefile", "rxconfig.py", "alembic.ini"):
        for line in (ROOT / name).read_text().splitlines():
            comment = line.partition("#")[2]
            cited |= set(re.findall(r"\b(?:docs|tools|app|tests|deploy)/[\w./-]+\.\w+", comment))
    assert sorted(c for c in cited if not (ROOT / c).exists()) == []
