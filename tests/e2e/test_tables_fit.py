"""Staff tables fit the screen (issue 26 point 5, ADR 0087): signed in as the admin, every staff section (and each tab
of the tabbed ones) at 1280 and 390 px is looked at as a person would look at it. The document never scrolls
sideways, every row action of the first rows lies inside the window and takes a click, and no console error is
logged. A screenshot of each view goes to the test's folder (SCREENSHOTS=dir keeps them somewhere to look at)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from sqlalchemy.engine import Engine

from tests.e2e.conftest import Server
from tests.e2e.test_admin import signed_in

SECTIONS = (
    "/admin/users",
    "/admin/clients",
    "/admin/inquiries",
    "/admin/content",
    "/admin/billing",
    "/admin/products",
    "/admin/meetings",
    "/admin/applications",
    "/admin/settings",
    "/admin/analytics",
)
WIDTHS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
FIRST_ROWS = 3
# The rows of the staff tables as they are drawn (a phone draws them as cards, still the table's rows).
ROWS = "table tbody tr"
ACTIONS = "button:visible, a[href]:visible"
# Why an element is not in view sideways without scrolling: past the window's edges, or past the edge of a box that
# clips it (a table's scrolling box, scrolled back to its start). Read before anything scrolls.
CLIPPED = """(e, width) => {
  const r = e.getBoundingClientRect();
  if (r.left < 0 || r.right > width) return `outside the window (${r.left}-${r.right} of ${width} px)`;
  for (let a = e.parentElement; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === "visible") continue;
    const b = a.getBoundingClientRect();
    if (a.scrollLeft !== 0 || r.left < b.left - 1 || r.right > b.right + 1)
      return `cut off by its ${a.tagName.toLowerCase()} (${r.left}-${r.right} in ${b.left}-${b.right} px)`;
  }
  return "";
}"""


def _fits(page: Page, where: str) -> list[str]:
    """What does not fit on the view: a document wider than the window, row actions outside it or not clickable."""
    problems = []
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if wide[0] > wide[1]:
        problems.append(f"{where}: the document is {wide[0]} px wide in a {wide[1]} px window")
    width = wide[1]
    for table in page.locator("table").all():
        rows = table.locator("tbody tr")
        for i in range(min(rows.count(), FIRST_ROWS)):
            row = rows.nth(i)
            if not row.locator("td").count() or row.locator("td[colspan]").count():
                continue  # the "nothing here" row
            actions: list[Locator] = row.locator(ACTIONS).all()
            for action in actions:
                label = (action.get_attribute("aria-label") or action.inner_text() or "?").strip()
                if clipped := action.evaluate(CLIPPED, width):
                    problems.append(f"{where}: row {i} action {label!r} is {clipped}")
                    continue
                if action.is_enabled():
                    try:  # actionable: visible, still, enabled and the element the click lands on (not covered)
                        action.click(trial=True, timeout=3_000)
                    except Exception as exc:  # the finding, with its reason
                        problems.append(f"{where}: row {i} action {label!r} does not take a click ({exc})")
    return problems


def _tabs(page: Page) -> list[str]:
    return [t.inner_text().strip() for t in page.get_by_role("tab").all()]


@pytest.mark.parametrize("width", list(WIDTHS))
def test_every_staff_table_fits_the_screen_with_its_row_actions(
    server: Server, browser: Browser, db_engine: Engine, width: str, tmp_path: Path
) -> None:
    shots = Path(os.environ.get("SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    rows_seen = 0
    with signed_in(browser, server, db_engine, "admin", WIDTHS[width]) as (page, errors):
        for path in SECTIONS:
            page.goto(server.url + path)
            page.wait_for_load_state("networkidle")
            for tab in ["", *_tabs(page)]:
                if tab:
                    page.get_by_role("tab", name=tab, exact=True).first.click()
                    page.wait_for_load_state("networkidle")
                where = f"{path}{f' [{tab}]' if tab else ''} at {width}"
                # The first rows arrive over the websocket after the page: wait until the tables stop loading.
                expect(page.get_by_text(re.compile(r"^Loading"))).to_have_count(0, timeout=15_000)
                rows_seen += page.locator(ROWS).count()
                problems += _fits(page, where)
                name = re.sub(r"\W+", "-", f"{path}-{tab}").strip("-")
                page.screenshot(path=str(shots / f"{name}-{width}.png"), full_page=True)
        assert rows_seen > 20  # the sections showed their demo rows
        assert problems == []
        assert errors == []
