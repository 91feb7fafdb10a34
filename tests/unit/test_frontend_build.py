"""The frontend is built again only when what the build reads changed (issue 27, point 1): the key follows the code,
the lock files and the settings baked into the bundle, and a build that did not finish never passes for current."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tools import frontend


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small tree shaped like the checkout: pages, an asset, the config and a lock file."""
    (tmp_path / "app" / "ui").mkdir(parents=True)
    (tmp_path / "app" / "ui" / "home.py").write_text("TITLE = 'Home'\n")
    (tmp_path / "app" / "ui" / "__pycache__").mkdir()
    (tmp_path / "app" / "ui" / "__pycache__" / "home.cpython-311.pyc").write_bytes(b"\x00compiled")
    (tmp_path / "assets" / "external").mkdir(parents=True)
    (tmp_path / "assets" / "site.css").write_text("body { color: black }\n")
    (tmp_path / "rxconfig.py").write_text("config = None\n")
    (tmp_path / "requirements.lock").write_text("reflex==0.10.1\n")
    monkeypatch.setattr(frontend, "ROOT", tmp_path)
    return tmp_path


ENV = {"PORT": "3000", "DATABASE_URL": "sqlite:///data/app.db"}


def test_the_key_follows_the_code_the_locks_and_the_settings(checkout: Path) -> None:
    key = frontend.inputs_hash(ENV)
    assert frontend.inputs_hash(dict(ENV)) == key  # the same inputs, the same key

    (checkout / "app" / "ui" / "__pycache__" / "home.cpython-311.pyc").write_bytes(b"\x00other")
    (checkout / "assets" / "external" / "link.js").write_text("made by the compile")
    assert frontend.inputs_hash(ENV) == key  # what Python and the compile leave behind is not an input

    changes = [
        lambda: (checkout / "app" / "ui" / "home.py").write_text("TITLE = 'Welcome'\n"),
        lambda: (checkout / "assets" / "site.css").write_text("body { color: navy }\n"),
        lambda: (checkout / "requirements.lock").write_text("reflex==0.10.2\n"),
        lambda: (checkout / ".env").write_text("GOOGLE_CLIENT_ID=abc\n"),
    ]
    seen = {key}
    for change in changes:
        change()
        now = frontend.inputs_hash(ENV)
        assert now not in seen
        seen.add(now)

    for name, value in [("PORT", "3107"), ("PUBLIC_URL", "https://www.example.com"), ("GOOGLE_CLIENT_ID", "x")]:
        assert frontend.inputs_hash({**ENV, name: value}) not in seen  # baked into the pages


def test_only_a_finished_build_of_these_inputs_is_current(checkout: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = frontend.build_env(ENV)
    assert env["REFLEX_API_URL"] == "http://localhost:3000"  # the pages call back on the port they are served from
    assert not frontend.is_current(env)  # nothing built

    def reflex_export(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[bytes]:
        assert cmd[:2] == ["reflex", "export"] and not frontend.stamp_path(env).exists()
        (frontend.built_root(env)).mkdir(parents=True, exist_ok=True)
        (frontend.built_root(env) / "index.html").write_text("<html></html>")
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(frontend.subprocess, "run", reflex_export)
    assert frontend.build(ENV) is True and frontend.is_current(env)
    assert frontend.build(ENV) is False  # nothing changed: no build
    (checkout / "app" / "ui" / "home.py").write_text("TITLE = 'Changed'\n")
    assert not frontend.is_current(env)

    def failing(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[bytes]:
        raise subprocess.CalledProcessError(1, cmd)

    monkeypatch.setattr(frontend.subprocess, "run", failing)
    with pytest.raises(subprocess.CalledProcessError):
        frontend.build(ENV)
    (checkout / "app" / "ui" / "home.py").write_text("TITLE = 'Home'\n")  # back to what the last build was made of
    assert not frontend.is_current(env)  # the failed build dropped the stamp: its leftovers are not taken for it
