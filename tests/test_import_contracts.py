"""The import contracts `make lint` checks (pyproject.toml, [tool.importlinter]) catch what they are for.

Each case copies the app into a temporary folder, adds one offending module there and runs `lint-imports` on the copy:
the real tree is never touched.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=tree, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture(scope="module")
def clean_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("contracts")
    shutil.copytree(ROOT / "app", tree / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree)
    return tree


@pytest.fixture
def tree(clean_copy: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "tree"
    shutil.copytree(clean_copy, copy)
    return copy


def test_the_code_keeps_every_contract(tree: Path) -> None:
    run = lint_imports(tree)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 kept, 0 broken" in run.stdout


@pytest.mark.parametrize(
    ("module", "source", "broken"),
    [
        # A service reaching up into the UI: the layers contract.
        ("app/services/layer_probe.py", "from app.ui import routes\n", "app.services.layer_probe -> app.ui.routes"),
        # A model importing a service: the layers contract, one level down.
        ("app/models/layer_probe.py", "from app.services import users\n", "app.models.layer_probe -> app.services"),
        # The UI and the API are siblings: neither imports the other.
        ("app/ui/layer_probe.py", "from app.api import deps\n", "app.ui.layer_probe -> app.api.deps"),
        # A web framework below the adapters: the forbidden contract.
        ("app/core/framework_probe.py", "import fastapi\n", "app.core.framework_probe -> fastapi"),
        ("app/services/framework_probe.py", "import reflex as rx\n", "app.services.framework_probe -> reflex"),
        ("app/models/framework_probe.py", "from starlette import status\n", "app.models.framework_probe -> starlette"),
        # Two domains side by side: billing may not reach into scheduling (the domains contract).
        (
            "app/services/billing/domain_probe.py",
            "from app.services.scheduling import booking\n",
            "app.services.billing.domain_probe -> app.services.scheduling.booking",
        ),
        # The platform sits under every domain: it imports none of them.
        (
            "app/services/platform/domain_probe.py",
            "from app.services.accounts import users\n",
            "app.services.platform.domain_probe -> app.services.accounts.users",
        ),
    ],
)
def test_a_violation_fails_lint(tree: Path, module: str, source: str, broken: str) -> None:
    (tree / module).write_text(source)
    run = lint_imports(tree)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 kept, 1 broken" in run.stdout
    assert broken in run.stdout
