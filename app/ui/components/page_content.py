"""Lays a re-rendered public page's current content over the compiled initial state (app/ui/fresh_pages.py).

Its module code runs before the state store is made from the initial state: in the browser, route modules are
evaluated before hydration starts; in Node, before the server build renders anything. So the first render, in
Node and in the browser alike, shows the content the page's JSON block (`ELEMENT_ID`) carries, which is what the
served HTML shows, and hydration finds nothing to change.
"""

from app.ui.components.behaviour import Behaviour

ELEMENT_ID = "page-content"


class PageContent(Behaviour):
    """Renders nothing; puts the code that reads the page's content block into the page's module."""

    script = f"""
(() => {{
  const fresh = typeof document === "undefined"
    ? globalThis.__PAGE_CONTENT__
    : JSON.parse(document.getElementById("{ELEMENT_ID}")?.textContent || "null");
  for (const [name, vars] of Object.entries(fresh || {{}})) {{
    if (name in initialState) initialState[name] = {{ ...initialState[name], ...vars }};
  }}
}})();
"""

    def add_imports(self) -> dict[str, list[str]]:
        return {"$/utils/context": ["initialState"]}


page_content = PageContent.create
