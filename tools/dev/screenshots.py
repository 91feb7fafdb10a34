"""Full-page screenshots of every public page at 1280 and 390 px into screenshots/ (git-ignored).

    python tools/dev/screenshots.py                 # starts the server (like `make run`) on a free port, then stops it
    python tools/dev/screenshots.py --url URL       # uses a server that is already running

Each shot waits for the page's content to load (no skeleton left) and reports console errors and horizontal
overflow, so a broken page is visible in the output as well as in the pictures.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
from tools import server  # noqa: E402

OUT = ROOT / "screenshots"
CHROMIUM = "/usr/bin/chromium"
WIDTHS = {"desktop": (1280, 800), "mobile": (390, 844)}
PAGES: list[tuple[str, str]] = [
    ("home", "/"),
    ("about", "/about"),
    ("services", "/services"),
    ("portfolio", "/portfolio"),
    ("contact", "/contact"),
    ("careers", "/careers"),
    ("apply-job-001", "/apply?jobId=JOB-001"),
    ("apply-general", "/apply"),
    ("book-meeting", "/book-meeting"),
    ("privacy", "/privacy"),
    ("terms", "/terms"),
    ("not-found", "/no-such-page"),
    ("forgot-password", "/forgot-password"),
    ("reset-password-bad-link", "/reset-password?token=expired-or-made-up"),
]


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _start_server() -> server.Server:
    env = dict(os.environ)
    server.app_cli(env, "migrate", "seed-demo")
    return server.start(env, OUT / "server.log")


def _settle(page: Page) -> None:
    page.wait_for_load_state("networkidle")
    try:
        page.wait_for_function("!document.querySelector('[data-skeleton]')", timeout=15_000)
    except Exception:
        _say("    (skeletons still showing)")
    page.wait_for_timeout(400)


def shoot(url: str) -> int:
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium is needed at {CHROMIUM} (sudo apt-get install chromium)")
    OUT.mkdir(exist_ok=True)
    problems = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"])
        for label, (width, height) in WIDTHS.items():
            context = browser.new_context(viewport={"width": width, "height": height})
            for name, path in PAGES:
                page = context.new_page()
                errors: list[str] = []
                page.on("console", lambda m, errors=errors: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                page.goto(url + path)
                _settle(page)
                overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
                target = OUT / f"{name}-{label}.png"
                page.screenshot(path=str(target), full_page=True)
                notes = []
                if overflow > 0:
                    notes.append(f"horizontal overflow {overflow}px")
                if errors and name != "not-found":
                    notes.append(f"console errors: {errors}")
                problems += bool(notes)
                _say(f"{target.relative_to(ROOT)}" + (f"  !! {'; '.join(notes)}" if notes else ""))
                page.close()
            context.close()
        browser.close()
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running server (default: start one)")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    app = None
    url = args.url.rstrip("/") if args.url else None
    if url is None:
        app = _start_server()
        url = app.url
    try:
        problems = shoot(url)
    finally:
        if app is not None:
            app.stop(timeout_s=30)
    _say(f"{len(PAGES) * len(WIDTHS)} screenshots in {OUT.relative_to(ROOT)}/, {problems} with problems")


if __name__ == "__main__":
    main()
