"""The dev-mode Vite proxy: it lands in Reflex's real vite.config.js, only in dev, and covers every backend path."""

from __future__ import annotations

import re

import pytest
from reflex.utils import frontend_skeleton
from reflex_base.config import get_config

from app.api import create_api
from app.ui.dev_proxy import BACKEND_PATHS, DevBackendProxyPlugin, add_proxy, path_pattern, proxy_target

TARGET = "http://127.0.0.1:8107"


def vite_config() -> str:
    """The vite.config.js Reflex writes for this app, before any plugin modifies it."""
    return frontend_skeleton._compile_vite_config(get_config())


def test_proxy_rules_land_in_the_dev_server_block() -> None:
    patched = add_proxy(vite_config(), target=TARGET)
    server = patched[patched.index("  server: {") :]
    assert '"^/api(?:[/?]|$)": { target: "http://127.0.0.1:8107" }' in server
    assert r'"^/robots\\.txt(?:[/?]|$)": { target: "http://127.0.0.1:8107" }' in server
    assert add_proxy(patched, target=TARGET) == patched  # applied once per compile, never twice


def test_a_changed_template_fails_loudly() -> None:
    with pytest.raises(RuntimeError, match="dev proxy"):
        add_proxy("export default {};", target=TARGET)


@pytest.mark.parametrize(
    ("path", "matches"),
    [
        ("/api", True),
        ("/api/health", True),
        ("/api?x=1", True),
        ("/api/protected/invoices/3/download", True),
        ("/apply", False),
        ("/apiary", False),
        ("/robots.txt", True),
        ("/robots.txt?v=2", True),
        ("/robotsXtxt", False),
        ("/about", False),
    ],
)
def test_patterns_match_the_backend_paths_only(path: str, matches: bool) -> None:
    # Vite turns a key starting with ^ into a RegExp; these patterns mean the same in JavaScript and Python.
    assert any(re.match(path_pattern(p), path) for p in BACKEND_PATHS) is matches


def test_every_backend_route_outside_api_is_proxied() -> None:
    """A new root-level route in the API (like /robots.txt) must be added to BACKEND_PATHS, or dev mode misses it."""
    paths = {getattr(route, "path", "") for route in create_api().routes}
    uncovered = {p for p in paths if p and not any(re.match(path_pattern(b), p) for b in BACKEND_PATHS)}
    assert uncovered == set()


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("0.0.0.0", "http://127.0.0.1:8000"),
        ("127.0.0.1", "http://127.0.0.1:8000"),
        ("localhost", "http://127.0.0.1:8000"),
        ("::", "http://127.0.0.1:8000"),
        ("10.1.2.3", "http://10.1.2.3:8000"),
        ("::1", "http://[::1]:8000"),
    ],
)
def test_proxy_target(host: str, expected: str) -> None:
    assert proxy_target(host, 8000) == expected


@pytest.mark.parametrize(("mode", "proxied"), [("dev", True), ("prod", False), ("preview", False)])
def test_only_the_dev_server_gets_the_proxy(monkeypatch: pytest.MonkeyPatch, mode: str, proxied: bool) -> None:
    monkeypatch.setenv("REFLEX_ENV_MODE", mode)
    tasks: list[tuple[str, object]] = []
    DevBackendProxyPlugin().pre_compile(add_modify_task=lambda path, fn: tasks.append((path, fn)))
    assert [path for path, _ in tasks] == (["vite.config.js"] if proxied else [])
