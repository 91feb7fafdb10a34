"""A build step that starts the prerendered pages' scripts after the first paint (issue 14, ADR 0061).

Runs as a Reflex plugin's `post_build` hook, after Vite wrote `.web/build/client` and before Reflex compresses it, so
the edited pages are the ones compressed and served. Dev mode (Vite's server) builds nothing and is unchanged.

React Router writes ~40 `<link rel="modulepreload">` plus the module script that hydrates into every prerendered
page. Browsers fetch those at high priority while the page is still waiting for its stylesheet, and Lighthouse counts
every high-priority script requested before the first paint as render-blocking. The page's text is already in the
HTML, so the scripts wait: the module script is parked as inert text and a small inline script starts it (with the
same preloads, so the modules still download in parallel) once the first frame has been painted. Hydration, the
websocket and the on-load events follow as before, one frame later. Until then a form cannot be handled by script:
app/ui/form_guard.py keeps the browser from submitting it natively.

The Radix stylesheet is no longer edited here: app/ui/radix_styles.py loads only the parts of it the site uses.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

from reflex_base.plugins.base import Plugin

PARKED_TYPE = "text/x-deferred-module"
_MODULEPRELOAD_RE = re.compile(r'<link rel="modulepreload" href="([^"]+)"/>')
_MODULE_SCRIPT_RE = re.compile(r'<script type="module" async="">(.*?)</script>', re.S)

# Starts the parked module after the first paint: a requestAnimationFrame callback runs just before a frame is
# painted, so the second one runs after the first frame is on screen (and rendering waits for the stylesheet).
# A tab opened in the background paints nothing and would wait forever, so the load event starts it as well.
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


@dataclasses.dataclass
class PageWeightPlugin(Plugin):
    """Group the icon chunks and start the prerendered pages' scripts after the first paint (prod builds)."""

    def pre_compile(self, **context: Any) -> None:
        context["add_modify_task"]("vite.config.js", group_icons)

    def post_build(self, **context: Any) -> None:
        static_dir: Path = context["static_dir"]
        for path in sorted(static_dir.rglob("*.html")):
            text = path.read_text(encoding="utf-8", errors="replace")
            deferred = defer_hydration(text)
            if deferred != text:
                path.write_text(deferred, encoding="utf-8")
