"""Every page is registered once: building the app prints no "Page ... is being redefined" warning.

Reflex warns when a route is added twice with the same component (`@rx.page` plus `app.add_page`, a page module
registering twice, or the `@rx.page` pages re-added by a second compile of the same App, which is what prod did:
the `reflex run` process compiles, then forks the workers that compile again). The app is built in a fresh
interpreter so the import itself is checked, as the server does it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BUILD = """
import json
from reflex.utils import prerequisites

app = prerequisites.get_and_validate_app().app
# Each compile starts by adding the @rx.page pages; prod compiles the same App twice in one process tree.
app._apply_decorated_pages()
app._apply_decorated_pages()
print("ROUTES " + json.dumps(sorted(app._unevaluated_pages)))
"""


def test_every_page_is_registered_exactly_once() -> None:
    env = {**os.environ, "REFLEX_TELEMETRY_ENABLED": "false", "REFLEX_CHECK_LATEST_VERSION": "0"}
    run = subprocess.run(
        [sys.executable, "-c", BUILD], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "being redefined" not in output, output
    (line,) = [ln for ln in run.stdout.splitlines() if ln.startswith("ROUTES ")]
    routes = json.loads(line.removeprefix("ROUTES "))
    assert {"index", "404", "about", "client-portal", "admin/login", "admin/dashboard", "admin/settings"} <= set(routes)
    assert len(routes) == len(set(routes))
