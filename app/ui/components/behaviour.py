"""The base of the components that render nothing but wire browser-side behaviour into a page.

A behaviour's ``script`` (JavaScript functions) is compiled into the page bundle as module code, so it needs no extra
request and no eval (the CSP forbids eval; inline code is allowed); its ``add_hooks`` call those functions from React
effects. Reflex merges each class's ``add_imports`` with this one's ``useEffect``.
"""

from typing import ClassVar

from reflex_components_core.base.fragment import Fragment


class Behaviour(Fragment):
    """Renders nothing; puts ``script`` into the page bundle and ``useEffect`` in scope for the subclass's hooks."""

    script: ClassVar[str]

    def add_imports(self) -> dict[str, list[str]]:
        return {"react": ["useEffect"]}

    def add_custom_code(self) -> list[str]:
        return [self.script]
