"""Public pages whose HTML shows the content of now, to every reader (issue 27 point 2, ADR 0098).

The build prerenders each public page with the state's initial values, and those hold the database's content as the
build read it (app.ui.site.content.SNAPSHOT). A crawler or a visitor without scripts gets that HTML as it is, and a
visitor with scripts sees it until the page's loader answers. So each server process keeps the served pages current:

- Every `INTERVAL_S` it reads the content the pages show (site content, jobs, the company's details) into the
  initial-state shape of the states that hold it (`payload`), and compares its hash with the one stamped in the
  pages folder. The build stamps what it baked in (`ContentStampPlugin`).
- When they differ it renders the public pages again (those the sitemap lists) with the server build React Router
  made beside the client build, in Node, with the content laid over the compiled initial state; each page carries
  the states that differ from the build's as a JSON block, which the site layout's module code lays over the
  initial state in the browser before the first render too. So the hydration renders what the HTML shows.
- The pages are written as the build writes them (hydration deferred, brotli and gzip copies), each file through a
  temporary one renamed into place, under a lock that the processes serving one folder share, and never into a folder
  holding another build's pages.

At start-up (before the server answers) the same check runs, so a build made against another database or none is
never served as it was baked. What the build bakes in outside the state (the company name in page titles and legal
texts) is not covered: a rename takes a build (`make build FORCE=1`, or the next release).

Where the app processes may not run Node (systemd's MemoryDenyWriteExecute), `python -m app.cli pages --watch` does
the same from a unit of its own (deploy/systemd/coastline-pages.service).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from reflex_base.plugins.base import Plugin
from reflex_base.utils import format as rx_format

from app.core.config import settings
from app.ui.components.page_content import ELEMENT_ID
from app.ui.page_weight import defer_hydration

if TYPE_CHECKING:
    from reflex.state import BaseState

    from app.ui.site.content import Snapshot

log = logging.getLogger(__name__)

INTERVAL_S = 15.0  # a saved change reaches the served HTML within this plus one render (a few seconds)
STAMP = ".content.sha256"  # in the pages folder: the hash of the content its pages show
AT_BUILD = ".content-at-build.json"  # in the pages folder: the content the build compiled into the initial state
LOCK = ".content.lock"
RENDER_TIMEOUT_S = 120


_HERE = Path(__file__).parent
_RENDER_JS = _HERE / "fresh_pages_render.mjs"
_COMPRESS_JS = _HERE / "fresh_pages_compress.mjs"
_LOC_RE = re.compile(r"<loc>\s*([^<]+?)\s*</loc>")
_MANIFEST_RE = re.compile(r'"/assets/manifest-[\w-]+\.js"')


# --- what the pages show -------------------------------------------------------------------------------------------
# The page and state modules are imported when first needed, not with this module: rxconfig.py imports it for the
# build's plugin, and every Reflex command reads rxconfig.py.


def sources() -> dict[type[BaseState], Callable[[Snapshot], dict[str, Any]]]:
    """The states whose initial values come from the database, and the values each takes from a snapshot: the same
    as their class defaults take from the build's (tests/e2e/test_fresh_pages.py holds them to it)."""
    from app.ui.site.about import AboutState
    from app.ui.site.careers import CareersState
    from app.ui.site.sections.portfolio import PortfolioState
    from app.ui.site.sections.services import ServicesState
    from app.ui.site.sections.testimonials import TestimonialsState, testimonial_row
    from app.ui.state.company import CompanyState, public_vars

    return {
        CompanyState: lambda c: public_vars(c.company),
        ServicesState: lambda c: {"services": c.services, "loaded": bool(c.services)},
        PortfolioState: lambda c: {"projects": c.portfolio, "loaded": bool(c.portfolio)},
        TestimonialsState: lambda c: {"featured": [testimonial_row(t) for t in c.featured]},
        AboutState: lambda c: {"team": c.team, "loaded": bool(c.team)},
        CareersState: lambda c: {"jobs": c.jobs, "loaded": bool(c.jobs)},
    }


def payload(snapshot: Snapshot) -> dict[str, dict[str, Any]]:
    """The content states' initial values for `snapshot`, keyed as the compiled initial state is (computed vars too),
    in the JSON form the browser receives."""
    out: dict[str, dict[str, Any]] = {}
    for cls, values in sources().items():
        state = cls(_reflex_internal_init=True)
        for name, value in values(snapshot).items():
            setattr(state, name, value)
        out.update(state.dict(initial=True))
    return json.loads(rx_format.json_dumps(out))


def content_hash(content: dict[str, dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


# --- the build's part ----------------------------------------------------------------------------------------------


class ContentStampPlugin(Plugin):
    """After the build: stamps the pages folder with the content its pages were prerendered with."""

    def post_build(self, **context: Any) -> None:
        from app.ui.site.content import SNAPSHOT

        pages: Path = context["static_dir"]
        baked = payload(SNAPSHOT)
        (pages / AT_BUILD).write_text(json.dumps(baked, sort_keys=True))
        (pages / STAMP).write_text(content_hash(baked))


# --- rendering -----------------------------------------------------------------------------------------------------


def served_pages() -> Path:
    """The folder the pages are served from: `PAGES_DIR` (a cluster's current release, which nginx serves), else the
    build this process mounts."""
    if settings.pages_dir:
        return Path(settings.pages_dir)
    from reflex.utils.prerequisites import get_web_dir

    return (get_web_dir() / "build" / "client").resolve()


def _server_build(pages: Path) -> Path:
    """The server build beside the pages (a build's `client` and `server` folders), else this process's own (a
    cluster's release folder holds the client build only)."""
    beside = pages.resolve().parent / "server" / "index.js"
    if beside.is_file():
        return beside
    from reflex.utils.prerequisites import get_web_dir

    return (get_web_dir() / "build" / "server" / "index.js").resolve()


def public_paths(pages: Path) -> list[str]:
    """The pages to keep current: the sitemap's (every public page), as paths. The sitemap is the build's own file, so
    its `<loc>` lines are read as they are written (no XML parser over a file nobody else writes)."""
    sitemap = (pages / "sitemap.xml").read_text(encoding="utf-8")
    return [urlsplit(unescape(loc)).path or "/" for loc in _LOC_RE.findall(sitemap)]


def _page_files(pages: Path, path: str) -> list[Path]:
    """The files that serve `path` ("/about/"): its index.html, and the copy Reflex puts beside its folder."""
    rel = path.strip("/")
    if not rel:
        return [pages / "index.html"]
    return [f for f in (pages / rel / "index.html", pages / f"{rel}.html") if f.is_file()]


def _node() -> str:
    """The Node the build ran with (the one `make setup` installs into the checkout), else the PATH's."""
    checkout = _HERE.parents[1] / ".tools" / "node_modules" / ".bin" / "node"
    return str(checkout) if checkout.exists() else shutil.which("node") or "node"


def render(build: Path, paths: list[str], content: dict[str, dict[str, Any]]) -> dict[str, str]:
    """The pages' HTML from the server build `build`, with `content` laid over the initial state."""
    request = json.dumps({"build": str(build), "paths": paths, "content": content})
    done = subprocess.run(
        [_node(), "--input-type=module", "-e", _RENDER_JS.read_text(encoding="utf-8")],
        cwd=build.parents[2],  # the web folder: the server build's packages resolve from its node_modules
        input=request.encode(),
        capture_output=True,
        timeout=RENDER_TIMEOUT_S,
        env={**os.environ, "NODE_ENV": "production"},
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"rendering the pages failed: {done.stderr.decode(errors='replace')[-2000:]}")
    return json.loads(done.stdout)


def with_content(html: str, content: dict[str, dict[str, Any]]) -> str:
    """The page as served: its content block in the head (JSON, inert; `<` escaped so no text can close the script)
    and its hydration deferred as the build's pages are (app/ui/page_weight.py)."""
    if content:
        data = json.dumps(content, separators=(",", ":")).replace("<", "\\u003c")
        block = f'<script type="application/json" id="{ELEMENT_ID}">{data}</script>'
        html = html.replace("</head>", block + "</head>", 1)
    return defer_hydration(html)


def _write(file: Path, text: str) -> None:
    tmp = file.with_name(f"{file.name}.tmp-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(file)


@contextlib.contextmanager
def _locked(pages: Path, *, wait: bool) -> Iterator[bool]:
    """The pages folder's lock, shared by the processes serving it; yields whether it was taken."""
    with open(pages / LOCK, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class NotThisBuild(Exception):
    """The pages folder holds another build's pages (a release switched it): the processes serving it render them."""


def publish(pages: Path, content: dict[str, dict[str, Any]]) -> int:
    """Render the public pages in `pages` with `content`, write them as the build does and stamp the folder with it;
    returns how many pages. The caller holds the folder's lock."""
    baked = json.loads((pages / AT_BUILD).read_text())
    changed = {name: vars for name, vars in content.items() if baked.get(name) != vars}
    rendered = render(_server_build(pages), public_paths(pages), changed)
    files = {path: _page_files(pages, path) for path in rendered}
    for path, html in rendered.items():  # all checked before any is written
        manifest = _MANIFEST_RE.search(html)
        if not files[path] or manifest is None or manifest.group(0) not in files[path][0].read_text(encoding="utf-8"):
            raise NotThisBuild(f"{pages}{path} is not a page of this build")
    written: list[Path] = []
    for path, html in rendered.items():
        page = with_content(html, changed)
        for file in files[path]:
            _write(file, page)
            written.append(file)
    done = subprocess.run(
        [_node(), _COMPRESS_JS],
        input=json.dumps([str(f) for f in written]).encode(),
        capture_output=True,
        timeout=RENDER_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"compressing the pages failed: {done.stderr.decode(errors='replace')[-2000:]}")
    _write(pages / STAMP, content_hash(content))
    return len(rendered)


def refresh(pages: Path | None = None, *, wait: bool = False) -> bool:
    """Render the public pages in `pages` (those served) again if the content they show has changed; returns
    whether it did.

    `wait`: wait for another process's render (start-up), rather than leave it to that process (the periodic check).
    """
    from reflex.utils.exec import is_prod_mode

    if pages is None:
        if not is_prod_mode():
            return False  # dev mode and the tests' app: Vite serves the pages, a build lying there is not served
        pages = served_pages()
    if not (pages / STAMP).is_file() or not _server_build(pages).is_file():
        return False  # no build, or one from before this existed
    from app.core.db import session_scope
    from app.ui.site.content import read_snapshot

    with session_scope() as s:
        current = payload(read_snapshot(s))
    digest = content_hash(current)
    if (pages / STAMP).read_text().strip() == digest:
        return False
    with _locked(pages, wait=wait) as mine:
        if not mine or (pages / STAMP).read_text().strip() == digest:
            return False  # another process is rendering, or has just rendered this content
        try:
            count = publish(pages, current)
        except NotThisBuild as exc:
            log.warning("%s; left to the processes serving it", exc)
            return False
    log.info("Rendered %d public pages with the content of now", count)
    return True


def refresh_at_startup() -> None:
    """Before the server answers: the pages show the served database's content, not the build's."""
    try:
        refresh(wait=True)
    except Exception:  # the pages keep the build's content; the periodic check tries again
        log.exception("Rendering the public pages at start-up failed")


async def keep_current() -> None:
    """For the life of the server: re-render the public pages when their content changed."""
    while True:
        await asyncio.sleep(INTERVAL_S)
        try:
            await asyncio.to_thread(refresh)
        except Exception:
            log.exception("Rendering the public pages failed; they keep their content until the next check")
