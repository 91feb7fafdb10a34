"""A build step that makes the prerendered pages light (issue 14): less CSS, and no script before the first paint.

Runs as a Reflex plugin's `post_build` hook, after Vite wrote `.web/build/client` and before Reflex compresses it, so
the trimmed files are the ones compressed and served. Dev mode (Vite's server) builds nothing and is unchanged.

0. Before the compile: Radix Themes is taken off `window.__reflex` (the dynamic-component registry the site does not
   use), which otherwise puts the whole Radix library into the chunk every page loads.
1. The global stylesheet: the Radix Themes layer is cut to what the compiled pages render (app/ui/lean_css.py), and
   renamed after its new content.
2. Every prerendered page: React Router writes ~40 `<link rel="modulepreload">` plus the module script that hydrates.
   Browsers fetch those at high priority while the page is still waiting for its stylesheet, and Lighthouse counts
   every high-priority script requested before the first paint as render-blocking. The page's text is already in the
   HTML, so the scripts wait: the module script is parked as inert text and a small inline script starts it (with
   the same preloads, so the modules still download in parallel) once the first frame has been painted. Hydration,
   the websocket and the on-load events follow as before, one frame later.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
from pathlib import Path
from typing import Any

from reflex_base.components.dynamic import format_library_name
from reflex_base.plugins.base import Plugin
from reflex_base.registry import RegistrationContext

from app.ui.lean_css import radix_usage, trim_radix

log = logging.getLogger(__name__)

PARKED_TYPE = "text/x-deferred-module"
_MODULEPRELOAD_RE = re.compile(r'<link rel="modulepreload" href="([^"]+)"/>')
_MODULE_SCRIPT_RE = re.compile(r'<script type="module" async="">(.*?)</script>', re.S)
_THEME_ROOT_RE = re.compile(r"<div data-is-root-theme=[^>]*>")
_DATA_COLOUR_RE = re.compile(r'data-(?:accent|gray)-color="([a-z]+)"')

# Starts the parked module after the first paint: a requestAnimationFrame callback runs just before a frame is
# painted, so the second one runs after the first frame is on screen (and rendering waits for the stylesheet).
# A tab opened in the background paints nothing and would wait forever, so the load event starts it as well.
# Until React has hydrated a form (its element carries React's `__reactProps$` key), a submit of a form without an
# `action` is dropped: Reflex's forms are handled by script, and submitted natively they would GET the current page
# with every field, passwords included, in the address. (The forms that post natively, sign-in and sign-out, have an
# action and are left alone.) Starting the scripts after the first paint widened that window, so it is closed here.
_BOOT = "".join(
    line.strip()
    for line in """
(function(){
  var started=false;
  function go(){
    if(started)return;started=true;
    var pre=%s;
    for(var i=0;i<pre.length;i++){
      var l=document.createElement("link");l.rel="modulepreload";l.href=pre[i];document.head.appendChild(l)}
    var parked=document.querySelectorAll('script[type="%s"]');
    for(var j=0;j<parked.length;j++){
      var s=document.createElement("script");s.type="module";s.textContent=parked[j].textContent;
      parked[j].replaceWith(s)}
  }
  requestAnimationFrame(function(){requestAnimationFrame(go)});
  if(document.visibilityState!=="visible")addEventListener("load",go);
  document.addEventListener("submit",function(e){
    var f=e.target;if(!f||f.hasAttribute("action"))return;
    var k=Object.keys(f);for(var i=0;i<k.length;i++)if(k[i].indexOf("__reactProps$")===0)return;
    e.preventDefault()},true)
})()
""".splitlines()
)


def defer_hydration(page: str) -> str:
    """The page with its module preloads and hydrating module script started after the first paint."""
    scripts = _MODULE_SCRIPT_RE.findall(page)
    if len(scripts) != 1:
        return page  # not a React Router page shell we know: leave it as it is
    preloads = _MODULEPRELOAD_RE.findall(page)
    page = _MODULEPRELOAD_RE.sub("", page)
    # The parked script's text is never parsed as HTML by the boot (textContent), so it stays byte for byte.
    parked = f'<script type="{PARKED_TYPE}">{scripts[0]}</script>'
    boot = "<script>" + _BOOT % (json.dumps(preloads, separators=(",", ":")), PARKED_TYPE) + "</script>"
    return _MODULE_SCRIPT_RE.sub(lambda _m: parked + boot, page, count=1)


# Rolldown gives every Lucide icon shared by two routes its own chunk: a public page loaded ~20 of them, each well
# under 1 KB compressed but each one more request with ~0.9 KB of response headers. Grouped by the set of routes that
# use them (entriesAware), with groups under 8 KB merged into their nearest neighbour, a page gets one or two icon
# chunks, and the staff panel's icons still stay out of the public pages'.
ICON_GROUP = (
    '{ name: "icons", test: /lucide-react[\\\\/]dist[\\\\/]esm[\\\\/]icons[\\\\/]/, entriesAware: true,'
    " entriesAwareMergeThreshold: 8192 },\n"
)
_GROUPS_ANCHOR = "groups: [\n"


def group_icons(vite_config: str) -> str:
    """vite.config.js with the icon chunk group first among Reflex's code-splitting groups."""
    if ICON_GROUP in vite_config:
        return vite_config
    if vite_config.count(_GROUPS_ANCHOR) != 1:
        raise RuntimeError("vite.config.js has no single `groups: [` (a Reflex upgrade?): see app/ui/page_weight.py")
    at = vite_config.index(_GROUPS_ANCHOR) + len(_GROUPS_ANCHOR)
    indent = " " * (len(vite_config[at:]) - len(vite_config[at:].lstrip(" ")))
    return vite_config[:at] + indent + ICON_GROUP + vite_config[at:]


def _read_all(paths: list[Path]) -> list[str]:
    return [p.read_text(encoding="utf-8", errors="replace") for p in paths]


@dataclasses.dataclass
class PageWeightPlugin(Plugin):
    """Trim the Radix layer of the global stylesheet and start the scripts after the first paint (prod builds)."""

    light_only: bool = True  # the theme's appearance is "light" (rxconfig): Radix's dark tokens are never used
    state_colours: frozenset[str] = frozenset()  # Radix colours components get from state (the portal's badges)
    # Libraries kept off `window.__reflex`, which exists for components built at run time (`rx.dynamic`,
    # `ComponentState`); the site has none. RadixThemesPlugin registers all of Radix Themes there, and that one
    # namespace import put every Radix component into the chunk every page loads. A library the app registers itself
    # (`rx.bundle_library`) stays.
    unbundled: tuple[str, ...] = ("@radix-ui/themes",)

    def pre_compile(self, **context: Any) -> None:
        context["add_modify_task"]("vite.config.js", group_icons)
        registry = RegistrationContext.ensure_context()
        drop = {format_library_name(lib) for lib in self.unbundled} - set(registry._explicit_bundled_libraries)
        registry.bundled_libraries[:] = [lib for lib in registry.bundled_libraries if lib not in drop]

    def post_build(self, **context: Any) -> None:
        static_dir: Path = context["static_dir"]
        web_dir = static_dir.parent.parent
        pages = sorted(static_dir.rglob("*.html"))
        page_texts = _read_all(pages)

        compiled = _read_all(
            [p for d in ("app", "components", "utils", "app_components") for p in _sources(web_dir / d)]
        )
        # The theme's colours as Radix resolved them (a gray of "auto" becomes the accent's natural gray).
        theme_colours = {
            c for text in page_texts for m in _THEME_ROOT_RE.findall(text) for c in _DATA_COLOUR_RE.findall(m)
        }
        usage = radix_usage(compiled, theme_colours, self.state_colours)
        scripts = "".join(_read_all(sorted((static_dir / "assets").glob("*.js")))) + "".join(page_texts)
        renamed: dict[str, str] = {}
        for sheet in sorted((static_dir / "assets").glob("*.css")):
            css = sheet.read_text(encoding="utf-8")
            trimmed = trim_radix(css, usage, scripts=scripts, light_only=self.light_only)
            if trimmed == css:
                continue
            # Assets are cached as immutable, and Vite's hash in the name is of the untrimmed file: a later build
            # whose trim differs (a page starts using another Radix component) could keep the name, and browsers
            # would keep the stale copy. The name carries the trimmed content's hash instead.
            target = sheet.with_name(_hashed_name(sheet.name, trimmed))
            target.write_text(trimmed, encoding="utf-8")
            sheet.unlink()
            renamed[sheet.name] = target.name
            log.info("%s: %d -> %d bytes, now %s", sheet.name, len(css), len(trimmed), target.name)
        rename_referrers(static_dir / "assets", renamed)
        for path, text in zip(pages, page_texts, strict=True):
            deferred = defer_hydration(_rename(text, renamed))
            if deferred != text:
                path.write_text(deferred, encoding="utf-8")


def _hashed_name(name: str, content: str) -> str:
    stem, dot, ext = name.rpartition(".")
    base = stem.rsplit("-", 1)[0] if "-" in stem else stem
    return f"{base}-{hashlib.sha256(content.encode()).hexdigest()[:10]}{dot}{ext}"


def rename_referrers(assets: Path, renamed: dict[str, str]) -> None:
    """Rewrite, and rename after their new content, the scripts that name a renamed file, transitively.

    A script whose text changes must change its name too (immutable caching). Scripts are handled after the ones
    they name, so each name is final when written; a cycle among them cannot be named that way and fails the build.
    """
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(assets.glob("*.js"))}
    dirty: set[str] = set()
    frontier = set(renamed)
    while frontier:
        frontier = {n for n, t in texts.items() if n not in dirty and any(f in t for f in frontier)}
        dirty |= frontier
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            raise RuntimeError(f"scripts that name each other in a cycle ({name}): cannot rename them by content")
        state[name] = 1
        for other in sorted(dirty):
            if other != name and other in texts[name]:
                visit(other)
        state[name] = 2
        order.append(name)

    for name in sorted(dirty):
        visit(name)
    for name in order:
        # A script may name itself (React Router's manifest holds its own URL): that name is hashed as a placeholder
        # and then filled in with the new name.
        text = _rename(texts[name], renamed).replace(name, "\0self\0")
        target = _hashed_name(name, text)
        text = text.replace("\0self\0", target)
        (assets / target).write_text(text, encoding="utf-8")
        (assets / name).unlink()
        renamed[name] = target


def _rename(text: str, renamed: dict[str, str]) -> str:
    for old, new in renamed.items():
        text = text.replace(old, new)
    return text


def _sources(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in (".js", ".jsx") and p.is_file())
