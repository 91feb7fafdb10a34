"""Mounts the browser-side behaviour of the site shell (header hide/show, mobile menu, active link, logo, back).

The JavaScript lives in ``site_shell.js`` next to this module and is compiled into the page bundle as module code, so
it needs no extra request and no eval (the CSP forbids eval; inline code is allowed). It runs in a React effect that
re-runs on every client-side navigation, so the active link always follows the current path.
"""

from pathlib import Path

import reflex as rx
from reflex_components_core.base.fragment import Fragment

_SCRIPT = (Path(__file__).with_name("site_shell.js")).read_text(encoding="utf-8")


class SiteShellBehaviour(Fragment):
    """Renders nothing; wires ``setupSiteShell`` to the page with ``useEffect``."""

    def add_imports(self) -> dict[str, list[str]]:
        return {"react": ["useEffect"], "react-router": ["useLocation"]}

    def add_custom_code(self) -> list[str]:
        return [_SCRIPT]

    def add_hooks(self) -> list[str | rx.Var]:
        return [
            "const { pathname: siteShellPathname } = useLocation();",
            "useEffect(() => setupSiteShell(siteShellPathname), [siteShellPathname]);",
        ]


site_shell_behaviour = SiteShellBehaviour.create
