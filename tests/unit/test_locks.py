"""The lock files `make` installs from match the pins in requirements*.txt, and pin every package with hashes.

A pin changed in requirements.txt without `make lock` would otherwise be ignored silently: make installs the lock.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")


def _name(raw: str) -> str:
    return re.sub(r"[-_.]+", "-", raw).lower()


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        if m := PIN.match(line.strip()):
            found[_name(m.group(1))] = m.group(2)
    return found


def lock_entries(path: Path) -> dict[str, list[str]]:
    """Each locked requirement (with its continuation lines) by package name."""
    entries: dict[str, list[str]] = {}
    current: list[str] = []
    for line in path.read_text().splitlines():
        if m := PIN.match(line):
            current = entries.setdefault(_name(m.group(1)), [line])
        elif line.startswith("    ") and current:
            current.append(line)
    return entries


@pytest.mark.parametrize(
    ("requirements", "lock"),
    [("requirements.txt", "requirements.lock"), ("requirements-dev.txt", "requirements-dev.lock")],
)
def test_lock_matches_the_pins_and_hashes_everything(requirements: str, lock: str) -> None:
    wanted = pins(ROOT / requirements)
    if requirements == "requirements-dev.txt":
        wanted |= pins(ROOT / "requirements.txt")  # -r requirements.txt
    locked = pins(ROOT / lock)
    stale = {name: (version, locked.get(name)) for name, version in wanted.items() if locked.get(name) != version}
    assert stale == {}, f"run `make lock`: {requirements} and {lock} disagree (pin, locked): {stale}"
    unhashed = [
        name for name, lines in lock_entries(ROOT / lock).items() if not any("--hash=sha256:" in x for x in lines)
    ]
    assert unhashed == []


def test_dev_lock_keeps_the_runtime_versions() -> None:
    runtime, dev = pins(ROOT / "requirements.lock"), pins(ROOT / "requirements-dev.lock")
    assert {name: dev.get(name) for name in runtime} == runtime
