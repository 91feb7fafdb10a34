"""Services hand the adapters typed objects, never `dict[str, Any]` (issue 24, ADR 0065): a public service function
that a REST route or a Reflex handler calls does not return a dict (or a list of them), so the UI reads attributes
the type checker knows instead of `.get("...")` keys it does not."""

from __future__ import annotations

import ast
import re
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
UNTYPED = re.compile(r"\bdict\[str, Any\]|\bdict\[str, object\]|^dict$")


def untyped_results(services: Path) -> dict[str, str]:
    """`domain.module.function` -> its return annotation, for public functions returning a loose dict."""
    found = {}
    for path in sorted(services.rglob("*.py")):
        module = ".".join(path.relative_to(services).with_suffix("").parts)
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and node.returns is not None:
                annotation = ast.unparse(node.returns)
                if UNTYPED.search(annotation):
                    found[f"{module}.{node.name}"] = annotation
    return found


def called_by_adapters(names: dict[str, str]) -> list[str]:
    """The names (module.function) an adapter module mentions as `module.function` or imports by name."""
    adapters = "\n".join(p.read_text() for folder in ("api", "ui") for p in (APP / folder).rglob("*.py"))
    called = []
    for dotted in names:
        module, function = dotted.rsplit(".", 1)
        short = module.rsplit(".", 1)[-1]
        if re.search(rf"\b{short}\.{function}\b|import[^\n]*\b{function}\b", adapters):
            called.append(f"{dotted} -> {names[dotted]}")
    return called


def test_no_service_an_adapter_calls_returns_a_loose_dict() -> None:
    assert called_by_adapters(untyped_results(APP / "services")) == []


def test_a_loose_dict_result_is_found(tmp_path: Path) -> None:
    (tmp_path / "billing").mkdir()
    (tmp_path / "billing" / "probe.py").write_text(
        "from typing import Any\n\ndef totals(s) -> dict[str, Any]:\n    return {}\n\n"
        "def _inner() -> dict[str, Any]:\n    return {}\n\ndef rows() -> list[int]:\n    return []\n"
    )
    assert untyped_results(tmp_path) == {"billing.probe.totals": "dict[str, Any]"}
