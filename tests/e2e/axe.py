"""Accessibility and layout checks run in the page: axe-core's serious and critical violations, sideways scrolling."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]  # the checkout


def axe_source() -> str:
    """axe-core's browser bundle: AXE_CORE_JS, this checkout's .tools/ (tools/dev/ensure-axe.sh), or one on PATH."""
    candidates = [Path(p) for p in [os.environ.get("AXE_CORE_JS")] if p]
    candidates.append(ROOT / ".tools" / "node_modules" / "axe-core" / "axe.min.js")
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        if entry.rstrip("/").endswith("node_modules/.bin"):
            candidates.append(Path(entry).parent / "axe-core" / "axe.min.js")
    for candidate in candidates:
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    pytest.fail("axe-core is missing: run tools/dev/ensure-axe.sh (or set AXE_CORE_JS to axe.min.js)")


def page_problems(page: Page, name: str, axe: str) -> list[str]:
    """What is wrong with the page as it is now: sideways scrolling, and axe's serious or critical violations."""
    problems: list[str] = []
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 0:
        problems.append(f"{name}: scrolls sideways by {overflow}px")
    page.add_script_tag(content=axe)
    results = page.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
    for v in results["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:3]]
            problems.append(f"{name}: {v['id']} ({v['impact']}) {v['help']} at {targets}")
    return problems
