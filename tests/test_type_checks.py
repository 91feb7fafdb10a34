"""The type checks `make lint` runs catch what they are for: mypy over the layers below the UI allows no error, and
the UI's check (tools/dev/typecheck_ui.py) fails on an error its baseline does not hold and on a stale baseline.

Each case runs on a copy of the app in a temporary folder; the real tree is never touched.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tools" / "dev" / "typecheck_ui.py"
BASELINE = ROOT / "tools" / "dev" / "mypy_ui_baseline.txt"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("types")
    shutil.copytree(ROOT / "app", copy / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy)
    return copy


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)


def test_a_type_error_below_the_ui_fails_mypy(tree: Path) -> None:
    probe = tree / "app" / "services" / "type_probe.py"
    probe.write_text("def count() -> int:\n    return 'three'\n")
    try:
        run = _run([sys.executable, "-m", "mypy"], tree)
    finally:
        probe.unlink()
    assert run.returncode == 1, run.stdout + run.stderr
    assert (
        'app/services/type_probe.py:2: error: Incompatible return value type (got "str", expected "int")' in run.stdout
    )


def test_the_ui_check_holds_today_and_fails_on_a_new_error_and_on_a_stale_baseline(tree: Path, tmp_path: Path) -> None:
    check = [sys.executable, str(SCRIPT), "--root", str(tree), "--baseline", str(BASELINE)]
    run = _run(check, tree)
    assert run.returncode == 0, run.stdout + run.stderr  # the committed baseline is exact

    probe = tree / "app" / "ui" / "type_probe.py"
    probe.write_text("def label() -> str:\n    return 3\n")
    try:
        run = _run(check, tree)
    finally:
        probe.unlink()
    assert run.returncode == 1
    assert "app/ui/type_probe.py: new type error (x1): [return-value] Incompatible return value type" in run.stdout

    stale = tmp_path / "baseline.txt"
    stale.write_text(BASELINE.read_text() + "1\tapp/ui/gone.py\t[misc] fixed since\n")
    run = _run([*check[:-1], str(stale)], tree)
    assert run.returncode == 1
    assert "1 baseline error(s) are gone" in run.stdout
