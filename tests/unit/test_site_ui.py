"""The public pages' pure logic: relative dates, application checks and outcomes, meeting cards, sitemap and robots."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from app.api.routes.seo import robots_txt
from app.core.config import settings
from app.services.scheduling.meeting_types import EventType
from app.ui.format import long_date
from app.ui.seo import canonical, is_private, page_meta
from app.ui.site.apply import server_outcome, validate
from app.ui.site.book_meeting import FALLBACK_DESCRIPTION, TypeCard, _card
from app.ui.site.content import relative_date

TODAY = dt.date(2026, 11, 22)


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        ("2026-11-22", "today"),
        ("2026-11-21", "yesterday"),
        ("2026-11-17", "5 days ago"),
        ("2026-11-15", "1 week ago"),
        ("2026-10-30", "3 weeks ago"),
        ("2026-10-15", "1 month ago"),
        ("2026-08-22", "3 months ago"),
        ("2025-11-22", "1 year ago"),
        ("2023-01-01", "3 years ago"),
        ("2026-12-01", "recently"),
        (None, ""),
    ],
)
def test_relative_date(day: str | None, expected: str) -> None:
    assert relative_date(day, TODAY) == expected


def test_long_date_is_us_long_form() -> None:
    assert long_date("2025-10-16") == "October 16, 2025"


FILLED = {
    "firstName": "Jane",
    "lastName": "Tester",
    "phone": "772 555 0123",
    "email": "jane@example.com",
    "resumeName": "cv.pdf",
    "resumeSize": "1200",
}


def test_validate_accepts_a_complete_application() -> None:
    assert validate(FILLED) == ({}, "", "")


@pytest.mark.parametrize("missing", ["firstName", "lastName", "phone", "email", "resumeName"])
def test_validate_requires_each_field(missing: str) -> None:
    errors, title, text = validate({**FILLED, missing: "   "})
    assert (title, text) == ("Missing Required Fields", "Please fill in all required fields and upload your resume.")
    assert set(errors) == {missing.removesuffix("Name") if missing == "resumeName" else missing}


def test_validate_checks_email_then_file_types_then_sizes() -> None:
    assert validate({**FILLED, "email": "jane@example"})[1:] == ("Invalid Email", "Please enter a valid email address.")
    errors, title, text = validate({**FILLED, "coverLetterName": "letter.txt"})
    assert (errors, title, text) == (
        {"coverLetter": "Please upload only PDF, DOC, or DOCX files."},
        "Invalid File Type",
        "Please upload only PDF, DOC, or DOCX files.",
    )
    assert validate({**FILLED, "resumeName": "README"})[1] == "Invalid File Type"
    assert validate({**FILLED, "resumeName": "CV.DOCX"}) == ({}, "", "")
    errors, title, _ = validate({**FILLED, "resumeSize": "2001"}, max_bytes=2000)
    assert title == "File Too Large" and set(errors) == {"resume"}


def test_server_outcome_maps_messages_to_the_spec_titles() -> None:
    body = '{"message": "Please upload only PDF, DOC, or DOCX files.", "errors": {"resume": "x", "other": "y"}}'
    assert server_outcome(422, body) == (
        "Invalid File Type",
        "Please upload only PDF, DOC, or DOCX files.",
        {"resume": "x"},
    )
    assert server_outcome(413, '{"message": "File too large: the maximum is 10 MB per file."}')[:2] == (
        "Submission Error",
        "File too large: the maximum is 10 MB per file.",
    )
    fallback = ("Submission Error", "There was an error submitting your application. Please try again.", {})
    assert server_outcome(0, "") == fallback
    assert server_outcome(500, '{"message": "Internal server error"}') == fallback
    assert server_outcome(502, "<html>Bad gateway</html>") == fallback
    # The file store or the database down: the visitor learns that nothing was sent and to try again later.
    unstored = "We couldn't store your file just now, so nothing was sent. Please try again in a few minutes."
    assert server_outcome(503, json.dumps({"message": unstored})) == ("Submission Error", unstored, {})
    assert server_outcome(503, "<html>Service Unavailable</html>") == fallback  # a proxy's page says nothing useful


def test_meeting_card_prefers_the_scheduling_link_and_falls_back() -> None:
    base = {
        "name": "Call",
        "duration": 30,
        "active": True,
        "profile": {"name": "Host"},
        "uri": "https://x/event_types/abc",
    }

    def card(**links: str | None) -> TypeCard:
        return _card(EventType.model_validate({**base, "description_plain": " ", **links}))

    assert card(scheduling_url="https://s", booking_url="https://b") == TypeCard(
        id="abc", name="Call", duration=30, host="Host", description=FALLBACK_DESCRIPTION, url="https://s"
    )
    assert card(scheduling_url=None, booking_url="https://b").url == "https://b"
    assert card(scheduling_url=None, booking_url=None).url == ""


@pytest.mark.parametrize(
    ("route", "private"),
    [
        ("index", False),
        ("about", False),
        ("book-meeting", False),
        ("client-portal", True),
        ("admin/users", True),
        ("/admin/login", True),
        ("register", True),
        ("settings", True),
        ("profile", True),
        ("complete-profile", True),
        ("administrators", False),
    ],
)
def test_sitemap_leaves_out_private_routes(route: str, private: bool) -> None:
    assert is_private(route) is private


def test_page_meta_has_absolute_canonical_and_open_graph() -> None:
    meta = page_meta("/about", "About", "About us")
    assert canonical("/about") == f"{settings.public_url}/about/" and canonical("/") == f"{settings.public_url}/"
    tags = {m.get("property") or m.get("name"): m["content"] for m in meta["meta"] if isinstance(m, dict)}
    assert tags["og:url"] == f"{settings.public_url}/about/"
    assert tags["og:title"] == "About" and tags["og:description"] == "About us"
    assert meta["image"] == f"{settings.public_url}/og-image.png"


def test_robots_txt() -> None:
    lines = robots_txt().splitlines()
    assert lines[:2] == ["User-agent: *", "Allow: /"]
    assert {"Disallow: /admin/", "Disallow: /api/", "Disallow: /client-portal"} <= set(lines)
    assert lines[-1] == f"Sitemap: {settings.public_url}/sitemap.xml"


def test_sitemap_plugin_lists_public_pages_only() -> None:
    from types import SimpleNamespace

    from app.ui.seo import PublicSitemapPlugin

    routes = ["index", "about", "book-meeting", "client-portal", "admin/login", "admin/users", "register", "404"]
    tasks: list = []
    PublicSitemapPlugin().pre_compile(
        unevaluated_pages=[SimpleNamespace(route=r, context={}) for r in routes],
        add_save_task=lambda fn, *args: tasks.append((fn, args)),
    )
    [(task, args)] = tasks
    _path, xml = task(*args)
    locs = set(re.findall(r"<loc>([^<]+)</loc>", xml))
    base = settings.public_url
    assert locs == {f"{base}/", f"{base}/about/", f"{base}/book-meeting/"}
