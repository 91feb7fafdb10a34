"""What a person must never see on a page of the product (issue 26): a page wider than the window (sideways scroll),
the site's 404 page, or raw codes in its visible text - permission keys (`users:read`), dotted audit actions
(`auth.login`), snake_case and enum values (`in_progress`, `MeetingStatus.scheduled`), ISO timestamps
(`2026-11-28T14:00`), and what a program prints for a missing value (`None`, `null`, `undefined`, `NaN`,
`[object Object]`).

One module for `make screenshots` (tools/dev/screenshots.py) and the browser crawler (tests/e2e/test_crawler.py), so
the pictures a person looks at and the test CI runs judge a page the same way.

    raw_codes("Role: users:read")        # -> ["permission key 'users:read' in 'Role: users:read'"]
    page_problems(page, allowed={"staff_hr"})   # sideways scroll, the 404 page, raw codes of a Playwright page

Data that people type may look like a code and is not one: usernames such as `staff_hr` are shown as they are. The
caller passes those words as `allowed`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the detector itself needs no browser (its unit test runs without one)
    from playwright.sync_api import Page

NOT_FOUND_TEXT = "Page Not Found"  # the heading of the site's 404 page
# A word that is part of an address, a path, a file name or an e-mail address is not shown as a code: it is the
# address (https://example.com/a_b, invoice_2026.pdf, first_last@example.com).
_BEFORE = r"(?<![\w.@/\\:#-])"
_AFTER = r"(?![\w@/\\-]|\.\w|:\w)"
# The last part of a dotted word that makes it a host name or a file name rather than an audit action...
_HOST_ENDINGS = {"com", "org", "net", "edu", "gov", "info", "biz", "app", "dev", "ai", "us", "uk", "io", "co"}
_FILE_ENDINGS = {"pdf", "csv", "json", "ics", "txt", "md", "png", "jpg", "jpeg", "gif", "svg", "webp", "html", "xml"}
# ...or a product's name (Next.js, Node.js).
_NAME_ENDINGS = frozenset(_HOST_ENDINGS | _FILE_ENDINGS | {"zip", "doc", "docx", "xls", "xlsx", "odt", "rtf", "js"})
_URL_SCHEMES = frozenset({"http", "https", "mailto", "tel", "ftp", "data", "blob"})

_PERMISSION = re.compile(_BEFORE + r"([a-z][a-z_]*):([a-z][a-z_]*)" + _AFTER)
_DOTTED = re.compile(_BEFORE + r"([a-z][a-z0-9_]+)\.([a-z][a-z0-9_]+)" + _AFTER)
# MeetingStatus.scheduled, MeetingStatus.SCHEDULED, Role.admin (a one-word name only before a lower-case member: a
# capitalised word after a full stop without a space is a typo, not a code).
_ENUM_REPR = re.compile(r"(?<![\w.@/])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)*)\.([A-Za-z_]\w*)" + _AFTER)
_SNAKE = re.compile(_BEFORE + r"([a-z][a-z0-9]*(?:_[a-z0-9]+)+)" + _AFTER)
_SCREAMING_SNAKE = re.compile(_BEFORE + r"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)" + _AFTER)
_ISO_TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}")
_MISSING = re.compile(r"\b(None|null|undefined|NaN)\b|\[object Object\]")

# The page's measurements and visible text in one evaluation (the page may re-render between two). innerText is
# what is rendered: nothing inside display:none, and line breaks where the layout puts them.
_MEASURE_JS = """() => [document.documentElement.scrollWidth, window.innerWidth, document.body.innerText]"""


def _context(text: str, match: re.Match[str]) -> str:
    start, end = max(match.start() - 25, 0), min(match.end() + 25, len(text))
    return " ".join(text[start:end].split())


def raw_codes(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """Each raw code in `text` as "<kind> '<code>' in '<the words around it>'"; words in `allowed` are data."""
    permitted = set(allowed)
    found: list[str] = []

    def add(kind: str, match: re.Match[str]) -> None:
        code = match.group(0)
        if code not in permitted:
            found.append(f"{kind} {code!r} in {_context(text, match)!r}")

    for m in _PERMISSION.finditer(text):
        if m.group(1) not in _URL_SCHEMES:
            add("permission key", m)
    for m in _DOTTED.finditer(text):
        if m.group(2) not in _NAME_ENDINGS:
            add("dotted code", m)
    for m in _ENUM_REPR.finditer(text):
        one_word = not re.search(r"[a-z0-9][A-Z]", m.group(1))
        if m.group(2).lower() not in _NAME_ENDINGS and not (one_word and not m.group(2)[0].islower()):
            add("enum value", m)
    for pattern in (_SNAKE, _SCREAMING_SNAKE):
        for m in pattern.finditer(text):
            add("snake_case code", m)
    for m in _ISO_TIMESTAMP.finditer(text):
        add("ISO timestamp", m)
    for m in _MISSING.finditer(text):
        add("missing value", m)
    return found


def page_problems(page: Page, allowed: Iterable[str] = ()) -> list[str]:
    """What is wrong with the page as it is shown now: sideways scroll, the 404 page, raw codes in its text."""
    scroll_width, window_width, text = page.evaluate(_MEASURE_JS)
    problems = []
    if scroll_width > window_width:
        problems.append(f"scrolls sideways: the document is {scroll_width} px wide in a {window_width} px window")
    if NOT_FOUND_TEXT in text:
        problems.append("shows the 404 page")
    problems += raw_codes(text, allowed)
    return problems
