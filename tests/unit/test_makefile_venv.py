"""A checkout that moved makes its virtualenv afresh (issue 27, point 7): the old one's scripts and activate script
point at the old place. A virtualenv made here, or linked to another checkout's, is kept. Make reads the Makefile
only (`make -n`): nothing is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _checkout(tmp_path: Path, venv_made_for: str | None, link_to: Path | None = None) -> Path:
    here = tmp_path / "checkout"
    here.mkdir()
    shutil.copy(ROOT / "Makefile", here / "Makefile")
    venv = here / ".venv"
    if link_to is not None:
        venv.symlink_to(link_to)
    else:
        (venv / "bin").mkdir(parents=True)
        (venv / "bin" / "activate").write_text(f'# made by venv\nVIRTUAL_ENV="{venv_made_for or venv}"\nexport PATH\n')
    return here


def _parse(here: Path) -> str:
    done = subprocess.run(["make", "-n", "format"], cwd=here, capture_output=True, text=True, timeout=60)
    return done.stdout + done.stderr


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
def test_a_virtualenv_made_for_another_place_is_made_afresh(tmp_path: Path) -> None:
    here = _checkout(tmp_path, "/somewhere/else/.venv")
    out = _parse(here)
    assert "made for /somewhere/else/.venv" in out and "making it afresh" in out
    assert not (here / ".venv").exists()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
def test_a_virtualenv_made_here_or_linked_to_another_checkout_is_kept(tmp_path: Path) -> None:
    here = _checkout(tmp_path, None)
    assert "afresh" not in _parse(here) and (here / ".venv" / "bin" / "activate").exists()

    other = tmp_path / "other"
    (other / ".venv" / "bin").mkdir(parents=True)
    (other / ".venv" / "bin" / "activate").write_text(f'VIRTUAL_ENV="{other / ".venv"}"\n')
    linked = tmp_path / "linked"
    linked.mkdir()
    here2 = _checkout(linked, None, link_to=other / ".venv")
    assert "afresh" not in _parse(here2) and (here2 / ".venv").is_symlink()
