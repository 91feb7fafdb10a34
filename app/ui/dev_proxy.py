"""Plain `reflex run` (dev mode): the Vite dev server forwards the paths the backend owns to the backend.

In dev Reflex splits the site over two ports: Vite serves the pages (frontend port, 3000) and the backend serves the
websocket and our API (backend port, 8000). The pages reach the API by relative URLs: `/api/...` links and downloads
(invoices, CVs), the native sign-in and sign-out form posts, and `/robots.txt`. Without a proxy those hit Vite, which
answers with the app's HTML. This plugin adds a `server.proxy` rule for each of them to the generated vite.config.js,
through the `add_modify_task` hook Reflex's own EmbedPlugin uses. The browser keeps talking to the page's origin, so
cookies the backend sets on a proxied answer are the page's, and relative redirects stay on it. The websocket goes to
the backend port directly (Reflex's `api_url`); cookies are per host, not per port, so its handshake carries them.

Prod and preview serve pages, websocket and API on one port and never start Vite's dev server: the config is left as
Reflex generates it there.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from typing import Any

from reflex_base import constants
from reflex_base.config import get_config
from reflex_base.environment import environment
from reflex_base.plugins import Plugin

# Everything outside Reflex's own endpoints that the backend answers and the pages link to (see app.api.create_api;
# tests/unit/test_dev_proxy.py keeps the two in step).
BACKEND_PATHS: tuple[str, ...] = ("/api", "/robots.txt")

_SERVER_ANCHOR = "  server: {\n"
_MARKER = "// Backend paths proxied by app/ui/dev_proxy.py"
# Host names recognised in a configured URL; nothing binds to them here (bandit B104 is a false positive).
_WILDCARD_HOSTS = {"", "0.0.0.0", "::", "localhost"}  # nosec B104


def proxy_target(backend_host: str, backend_port: int) -> str:
    """The backend's address as Vite should dial it: loopback when the backend listens on every interface.

    Not "localhost": Node may resolve it to ::1 while the backend listens on IPv4 only.
    """
    host = "127.0.0.1" if backend_host in _WILDCARD_HOSTS else backend_host
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{backend_port}"


def path_pattern(path: str) -> str:
    """A Vite proxy key matching `path` and what lies under it (`/api`, `/api/x`, `/api?x`), not `/apiary`."""
    return "^" + re.escape(path) + "(?:[/?]|$)"


def add_proxy(vite_config: str, *, target: str, paths: tuple[str, ...] = BACKEND_PATHS) -> str:
    """vite.config.js with a `server.proxy` rule sending each of `paths` to `target`."""
    if _MARKER in vite_config:
        return vite_config
    if _SERVER_ANCHOR not in vite_config:
        msg = f"cannot add the dev proxy to {constants.ReactRouter.VITE_CONFIG_FILE}: no {_SERVER_ANCHOR.strip()!r}"
        raise RuntimeError(msg + " (did Reflex's Vite config template change?)")
    rules = "".join(f"      {json.dumps(path_pattern(p))}: {{ target: {json.dumps(target)} }},\n" for p in paths)
    block = f"    {_MARKER}\n    proxy: {{\n{rules}    }},\n"
    return vite_config.replace(_SERVER_ANCHOR, _SERVER_ANCHOR + block, 1)


@dataclasses.dataclass(kw_only=True, frozen=True)
class DevBackendProxyPlugin(Plugin):
    """Adds the backend proxy to the Vite dev server's config (dev mode only)."""

    paths: tuple[str, ...] = BACKEND_PATHS

    def pre_compile(self, **context: Any) -> None:
        if environment.REFLEX_ENV_MODE.get() != constants.Env.DEV:
            return
        config = get_config()
        target = proxy_target(config.backend_host, config.backend_port or constants.DefaultPorts.BACKEND_PORT)
        context["add_modify_task"](
            constants.ReactRouter.VITE_CONFIG_FILE, functools.partial(add_proxy, target=target, paths=self.paths)
        )
