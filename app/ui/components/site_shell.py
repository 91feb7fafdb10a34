"""Mounts the browser-side behaviour of the site shell (header hide/show, mobile menu, active link, logo, back).

The JavaScript lives in ``site_shell.js`` next to this module (see ``behaviour.py``). It runs in a React effect that
re-runs on every client-side navigation, so the active link always follows the current path.
"""

from pathlib import Path

import reflex as rx

from app.ui.components.behaviour import Behaviour


class SiteShellBehaviour(Behaviour):
    """Renders nothing; wires ``setupSiteShell`` to the page with ``useEffect``."""

    script = (Path(__file__).with_name("site_shell.js")).read_text(encoding="utf-8")

    def add_imports(self) -> dict[str, list[str]]:
        return {"react-router": ["useLocation"]}

    def add_hooks(self) -> list[str | rx.Var]:
        return [
            "const { pathname: siteShellPathname } = useLocation();",
            "useEffect(() => setupSiteShell(siteShellPathname), [siteShellPathname]);",
        ]


site_shell_behaviour = SiteShellBehaviour.create
