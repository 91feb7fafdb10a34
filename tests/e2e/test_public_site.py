"""The public website in a real browser against the real server: forms, filters, the application upload, booking,
newsletter, 404, SEO tags, prerendering, console errors and axe-core accessibility checks at both widths."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from fpdf import FPDF
from playwright.sync_api import Page, expect
from sqlalchemy import text
from sqlalchemy.engine import Engine

from app.core.db import make_engine
from app.services.platform import ratelimit
from tests.e2e.axe import axe_source, page_problems
from tests.e2e.conftest import Server, wait_for_mail

pytestmark = pytest.mark.e2e

# (path as linked, a text the page must show); /apply is visited with a job id.
PUBLIC_PAGES: list[tuple[str, str]] = [
    ("/", "Digital transformation that"),
    ("/about", "Meet Our Team"),
    ("/services", "Technology services built around your business"),
    ("/portfolio", "Our work"),
    ("/contact", "Get In Touch"),
    ("/careers", "Open Positions"),
    ("/apply?jobId=JOB-001", "Senior Full-Stack Developer"),
    ("/book-meeting", "What to expect"),
    ("/privacy", "Privacy Policy"),
    ("/terms", "Terms of Service"),
]
PRIVATE_PATHS = ["/client-portal", "/admin", "/register", "/settings", "/profile", "/complete-profile"]
WIDTHS = [(1280, 800), (390, 844)]
# The global stylesheet on the wire (brotli): Tailwind's classes, Radix's tokens for six colours and the components
# the pages render (app/ui/radix_styles.py) are 24.0 KB; issue 24's target is 30 KB. The whole of Radix's styles.css
# would be ~57 KB, its prebuilt components.css and utilities.css ~44 KB.
CSS_BUDGET = 30_720
THANK_YOU = "Thank you for your inquiry. We'll get back to you within 24 hours."


# ---------------------------------------------------------------------------------------------------------- helpers


@pytest.fixture(scope="module")
def db(server: Server) -> Iterator[Engine]:
    engine = make_engine(server.database_url)
    yield engine
    engine.dispose()


def _open(page: Page, url: str) -> None:
    """Load a page and wait until the websocket hydrated it and every section loaded (no skeleton left)."""
    page.goto(url)
    page.wait_for_selector("[data-hydrated=true]", timeout=30_000)
    expect(page.locator("[data-skeleton]")).to_have_count(0, timeout=15_000)  # not wait_for_function: CSP, no eval


def _unique_email(tag: str) -> str:
    return f"{tag}-{uuid.uuid4().hex[:10]}@example.com"


def _toast(page: Page, title: str):
    return page.locator("[data-sonner-toast]").filter(has_text=title)


def _make_pdf(path: Path) -> Path:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=14)
    pdf.cell(text="Jane Tester - Resume")
    pdf.output(str(path))
    return path


class _Head(HTMLParser):
    """Collects <title>, <meta> and <link> of a page's <head>."""

    def __init__(self) -> None:
        super().__init__()
        self.in_head = self.in_title = False
        self.title = ""
        self.meta: dict[str, str] = {}
        self.links: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "head":
            self.in_head = True
        elif self.in_head and tag == "title":
            self.in_title = True
        elif self.in_head and tag == "meta":
            key = a.get("property") or a.get("name")
            if key:
                self.meta[key] = a.get("content", "")
        elif self.in_head and tag == "link" and a.get("rel"):
            self.links[a["rel"]] = a.get("href", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self.in_head = False
        elif tag == "title":
            self.in_title = False

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title += data


def _head(html: str) -> _Head:
    parser = _Head()
    parser.feed(html)
    return parser


# ----------------------------------------------------------------------------------------------------- contact form


def _fill_contact(page: Page, *, name: str, email: str, phone: str = "", message: str) -> None:
    form = page.locator("#contact-form")
    form.get_by_label("Full Name").fill(name)
    form.get_by_label("Email Address").fill(email)
    form.get_by_label("Phone").fill(phone)
    form.get_by_label("Project Details").fill(message)


def test_contact_form_stores_the_inquiry_shows_the_toast_and_mails_the_visitor(
    server: Server, page: Page, db: Engine
) -> None:
    email = _unique_email("contact")
    _open(page, server.url + "/contact")
    _fill_contact(page, name="Dana Visitor", email=email, phone="(772) 555-0100", message="We need a new website.")
    form = page.locator("#contact-form")
    form.get_by_label("Company", exact=True).fill("Visitor Bakery")
    form.get_by_label("Service").select_option("web-development")
    form.get_by_label("Budget").select_option(label="$1,200 - $3,000")
    page.get_by_role("button", name="Send Message").click()

    toast = _toast(page, "Message Sent Successfully!")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text(THANK_YOU)
    # Success clears the form.
    expect(page.get_by_label("Full Name")).to_have_value("")
    expect(page.get_by_label("Project Details")).to_have_value("")

    with db.connect() as conn:
        row = conn.execute(
            text(
                "SELECT name, company, phone, service_type, budget, message, newsletter, status, priority, is_spam "
                "FROM contact_inquiries WHERE email = :e"
            ),
            {"e": email},
        ).one()
    assert row.name == "Dana Visitor" and row.company == "Visitor Bakery" and row.phone == "(772) 555-0100"
    assert (row.service_type, row.budget, row.message) == ("web-development", "1.2k-3k", "We need a new website.")
    assert (row.newsletter, row.status, row.priority, row.is_spam) == (False, "new", "medium", False)

    body = wait_for_mail(server, email)
    assert "within 24 hours" in body and "We need a new website." in body
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_contact_form_shows_a_server_field_error_under_the_field_and_clears_it_on_resubmit(
    server: Server, page: Page, db: Engine
) -> None:
    email = _unique_email("field-error")
    _open(page, server.url + "/")
    _fill_contact(page, name="Pat Typo", email=email, phone="call me maybe", message="Hosting question.")
    page.get_by_role("button", name="Send Message").click()

    phone = page.locator("#contact-phone")
    error = page.locator("#contact-phone-error")
    expect(error).to_have_text("Please enter a valid phone number")
    expect(phone).to_have_attribute("aria-invalid", "true")
    expect(phone).to_have_attribute("aria-describedby", "contact-phone-error")
    expect(phone).to_have_class(re.compile(r"border-red-600"))
    # The error sits right under its field.
    field_box, error_box = phone.bounding_box(), error.bounding_box()
    assert field_box and error_box and 0 <= error_box["y"] - (field_box["y"] + field_box["height"]) < 20
    # Nothing was stored, and what the visitor typed is still there.
    expect(page.get_by_label("Full Name")).to_have_value("Pat Typo")
    with db.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM contact_inquiries WHERE email = :e"), {"e": email}).scalar() == 0

    # While the server works (the table is locked here, so the insert waits), the button says "Sending..." and is
    # disabled, and the previous errors are already gone: they are cleared when a submission starts.
    phone.fill("772-555-0199")
    conn = db.connect()
    lock = conn.begin()
    conn.execute(text("LOCK TABLE contact_inquiries IN EXCLUSIVE MODE"))
    try:
        page.get_by_role("button", name="Send Message").click()
        expect(page.locator("#contact-form button[type=submit]")).to_have_text("Sending...")
        expect(page.locator("#contact-form button[type=submit]")).to_be_disabled()
        expect(error).to_have_count(0)
    finally:
        lock.rollback()
        conn.close()
    expect(_toast(page, "Message Sent Successfully!")).to_be_visible()
    expect(page.get_by_role("button", name="Send Message")).to_be_enabled()
    expect(phone).to_have_attribute("aria-invalid", "false")


def test_contact_form_honeypot_looks_like_success_but_is_stored_as_spam(server: Server, page: Page, db: Engine) -> None:
    email = _unique_email("bot")
    _open(page, server.url + "/contact")
    honeypot = page.locator("input[name=website]")
    expect(honeypot).to_have_attribute("tabindex", "-1")
    expect(honeypot).to_have_attribute("autocomplete", "off")
    expect(page.locator("[aria-hidden=true]:has(input[name=website])")).to_have_count(1)
    _fill_contact(page, name="Spam Bot", email=email, message="Buy now")
    honeypot.fill("http://spam.example", force=True)
    page.get_by_role("button", name="Send Message").click()
    expect(_toast(page, "Message Sent Successfully!")).to_be_visible()
    with db.connect() as conn:
        assert conn.execute(text("SELECT is_spam FROM contact_inquiries WHERE email = :e"), {"e": email}).scalar()


def test_contact_form_shows_the_rate_limit_message(server: Server, page: Page, db: Engine) -> None:
    key = ratelimit.stored_key("contact:ip:127.0.0.1")  # the server runs with this process's secret key
    with db.begin() as conn:
        ids = [
            conn.execute(
                text("INSERT INTO rate_limit_events (key, created_at) VALUES (:k, now()) RETURNING id"), {"k": key}
            ).scalar()
            for _ in range(5)
        ]
    try:
        _open(page, server.url + "/contact")
        _fill_contact(page, name="Busy Visitor", email=_unique_email("busy"), message="Hello again")
        page.get_by_role("button", name="Send Message").click()
        message = "Too many messages from your address. Please try again later or e-mail us directly."
        expect(page.get_by_role("alert").filter(has_text=message)).to_be_visible()
        expect(_toast(page, message)).to_be_visible()
        expect(page.get_by_role("button", name="Send Message")).to_be_enabled()
    finally:
        with db.begin() as conn:
            conn.execute(text("DELETE FROM rate_limit_events WHERE id = ANY(:ids)"), {"ids": ids})


# -------------------------------------------------------------------------------------------------------- portfolio


def test_portfolio_filter_shows_projects_be_our_first_and_view_all_resets(server: Server, page: Page) -> None:
    _open(page, server.url + "/portfolio")
    cards = page.locator("[data-project-card]")
    expect(cards).to_have_count(5)
    expect(page.get_by_role("button", name="All", exact=True)).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("link", name=re.compile("^Visit Site"))).to_have_count(2)
    for link in page.get_by_role("link", name=re.compile("^Visit Site")).all():
        expect(link).to_have_attribute("target", "_blank")
    expect(page.get_by_text("Coming Soon")).to_have_count(3)

    page.get_by_role("button", name="Healthcare").click()
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text("St. Lucie Family Clinic Scheduling App")
    expect(page.get_by_role("button", name="Healthcare")).to_have_attribute("aria-pressed", "true")

    page.get_by_role("button", name="IoT").click()
    expect(cards).to_have_count(0)
    first = page.locator("[data-be-our-first]")
    expect(first).to_contain_text("Be Our First")
    expect(first.get_by_role("link")).to_have_attribute("href", "/contact")

    page.get_by_role("button", name="View All Projects").click()
    expect(cards).to_have_count(5)
    expect(page.get_by_role("button", name="All", exact=True)).to_have_attribute("aria-pressed", "true")
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_portfolio_filter_works_from_the_keyboard(server: Server, page: Page) -> None:
    _open(page, server.url + "/")
    target = page.get_by_role("button", name="FinTech")
    for _ in range(80):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail("the FinTech filter is not reachable with Tab")
    page.keyboard.press("Enter")
    expect(page.locator("[data-project-card]")).to_have_count(1)
    expect(page.locator("[data-project-card]").first).to_contain_text("Coastal Credit Union")


# ----------------------------------------------------------------------------------------------- home page content


def test_home_shows_services_testimonials_and_contact_links(server: Server, page: Page) -> None:
    _open(page, server.url + "/")
    services = page.locator("[data-service-card]")
    expect(services).to_have_count(6)
    popular = services.filter(has_text="Most Popular")
    expect(popular).to_have_count(1)
    expect(popular).to_contain_text("Web Development")
    expect(services.filter(has_text="BI Reports")).to_contain_text("Power BI")
    for name in ("Learn More", "Get Custom Quote"):
        links = page.locator("[data-service-card]").get_by_role("link", name=re.compile(f"^{name}"))
        expect(links).to_have_count(6)
        assert {link.get_attribute("href") for link in links.all()} == {"/contact"}

    reviews = page.locator("[data-review-card]")
    expect(reviews).to_have_count(3)
    for review in reviews.all():
        expect(review).to_contain_text("Client")
        expect(review).to_contain_text("Verified")
        expect(review.get_by_role("img", name=re.compile(r"Rated [1-5] out of 5"))).to_be_visible()
        expect(review.locator("time")).to_have_text(re.compile(r"^(\d+ (day|week|month|year)s? ago|today|yesterday)$"))
    featured = page.locator("[data-featured-testimonial]")
    expect(featured).to_have_count(3)
    expect(featured.first).to_contain_text("Practice Manager, Palm Coast Pediatrics")
    testimonials = page.locator("#testimonials")
    expect(testimonials).to_contain_text("5.0")
    expect(testimonials).to_contain_text("Port St. Lucie and Treasure Coast")
    expect(testimonials).to_contain_text("Port St. Lucie, FL 34952")
    expect(testimonials.locator("a[href='/contact']").first).to_be_visible()

    # The server picks 3 of the 10 at random on each visit (6 visits alike by chance: 1 in 120**5).
    def names() -> tuple[str, ...]:
        return tuple(sorted(r.locator("footer p").first.inner_text() for r in reviews.all()))

    seen = {names()}
    for _ in range(5):
        _open(page, server.url + "/")
        seen.add(names())
        if len(seen) > 1:
            break
    assert len(seen) > 1, "the same three testimonials on every visit"


def test_pages_are_prerendered_with_database_content(server: Server) -> None:
    home = httpx.get(server.url + "/").text
    for text_ in ("BI Reports", "Most Popular", "Treasure Coast Realty Listings", "Sarah Mitchell", "Full Name"):
        assert text_ in home
    # The three random testimonials are the server's choice per visit: the static page shows their skeletons.
    assert 'aria-label="Loading reviews"' in home or "Loading reviews" in home
    assert "Marcus Reed" in httpx.get(server.url + "/about/").text
    assert "Senior Full-Stack Developer" in httpx.get(server.url + "/careers/").text
    booking = httpx.get(server.url + "/book-meeting/").text
    assert booking.count("data-skeleton") == 3  # the loading state: three skeleton cards


def test_pages_ship_no_script_before_the_first_paint_and_radix_css_in_parts(server: Server, page: Page) -> None:
    """Issue 14: the build step of app/ui/page_weight.py is what `make run` serves; issue 24: Radix Themes' stylesheet
    comes in the parts the site uses (app/ui/radix_styles.py), and the form guard is in every page's <head>."""
    for path in ("/", "/services/", "/client-portal/"):
        html = httpx.get(server.url + path).text
        assert '<link rel="modulepreload"' not in html
        assert '<script type="module"' not in html
        assert 'type="text/x-deferred-module"' in html
        head = html[: html.index("</head>")]
        assert "addEventListener(`submit`" in head  # app/ui/form_guard.py, before any form
    # The inactivity script comes with sign-in and signed-in pages only; the marketing pages do without it.
    for path, wanted in (("/", False), ("/about/", False), ("/client-portal/", True), ("/admin/login/", True)):
        html = httpx.get(server.url + path).text
        assert ('src="/session-watch.js"' in html) is wanted, path
    home = httpx.get(server.url + "/").text
    sheets = re.findall(r'href="(/assets/__reflex_global_styles-[A-Za-z0-9_-]+\.css)"', home)
    assert len(set(sheets)) == 1
    wire = httpx.get(server.url + sheets[0], headers={"Accept-Encoding": "br"})
    assert wire.headers["content-encoding"] == "br"
    # httpx has no brotli decoder here, so .content is the bytes on the wire. The whole of Radix's styles.css made it
    # ~57 KB; the parts the site uses 24 KB (docs/performance.md, issue 24).
    assert int(wire.headers["content-length"]) < CSS_BUDGET
    css = httpx.get(server.url + sheets[0]).text  # gzip, decoded
    assert "rt-BaseDialogOverlay" in css and "rt-TabsContent" in css and "rt-Badge" in css
    assert "rt-Button" not in css and "rt-SelectTrigger" not in css  # components no page renders
    assert "--green-9:" in css and "--tomato-9:" not in css  # the portal badges' colours, no others
    # Inside Tailwind's components layer, so the pages' Tailwind classes still win over Radix's defaults.
    assert css.index("@layer components") < css.index("rt-BaseDialogOverlay") < css.index("@layer utilities")
    # The parked script still hydrates the page: client-side navigation works and no console errors.
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server.url + "/")
    page.get_by_role("navigation").get_by_role("link", name="About", exact=True).first.click()
    expect(page).to_have_url(re.compile(r"/about/?$"))
    expect(page.get_by_text("Meet Our Team")).to_be_visible()
    assert errors == []


# ----------------------------------------------------------------------------------------------------- other pages


def test_about_careers_and_legal_pages(server: Server, page: Page) -> None:
    _open(page, server.url + "/about")
    for value, label in (("45+", "Projects Completed"), ("12+", "Happy Clients"), ("1+", "Years Experience")):
        expect(page.locator("dl").filter(has_text=label).first).to_contain_text(value)
    expect(page.locator("dl").first).to_contain_text("5+")
    for value in ("Innovation First", "Client-Centric", "Quality Excellence", "Passionate Team"):
        expect(page.get_by_role("heading", name=value)).to_be_visible()
    members = page.locator("[data-team-member]")
    expect(members).to_have_count(4)
    expect(members.first).to_contain_text("MR")
    expect(members.first.get_by_role("list", name="Skills")).to_contain_text("IT Strategy")
    expect(page.get_by_text("founded in 2025")).to_be_visible()
    expect(page.get_by_role("link", name="Start Your Journey With Us")).to_have_attribute("href", "/contact")

    _open(page, server.url + "/careers")
    for perk in ("Health & Wellness", "Flexible Work", "Team Culture", "Competitive Pay"):
        expect(page.get_by_role("heading", name=perk)).to_be_visible()
    expect(page.locator("[data-job]")).to_have_count(4)
    apply = page.locator("[data-apply-link='JOB-001']")
    expect(apply).to_have_attribute("href", "/apply?jobId=JOB-001")
    expect(apply).to_have_attribute("target", "_blank")

    for path, sections in (("/privacy", 8), ("/terms", 9)):
        _open(page, server.url + path)
        expect(page.locator("[data-effective-date]")).to_have_text("Effective October 16, 2025")
        expect(page.locator("main section h2")).to_have_count(sections)
    expect(page.get_by_role("heading", name="Governing Law")).to_be_visible()
    expect(page.locator("main")).to_contain_text("laws of the State of Florida, USA")
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_unknown_apply_job_shows_the_generic_prompt(server: Server, page: Page) -> None:
    _open(page, server.url + "/apply?jobId=JOB-999")
    expect(page.get_by_role("heading", level=1)).to_have_text("Submit Your Application")
    breadcrumb = page.get_by_role("navigation", name="Breadcrumb")
    expect(breadcrumb.get_by_role("link", name="Home")).to_have_attribute("href", "/")
    expect(breadcrumb.get_by_role("link", name="Back to All Jobs")).to_have_attribute("href", "/careers")


# ---------------------------------------------------------------------------------------------------- application


def test_apply_for_job_001_with_a_pdf_through_the_confirmation(
    server: Server, page: Page, db: Engine, tmp_path: Path
) -> None:
    _open(page, server.url + "/careers")
    with page.expect_popup() as popup_info:
        page.locator("[data-apply-link='JOB-001']").click()
    apply = popup_info.value
    errors: list[str] = []
    apply.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    apply.on("pageerror", lambda e: errors.append(str(e)))
    apply.wait_for_selector("[data-hydrated=true]", timeout=30_000)
    assert re.search(r"/apply/?\?jobId=JOB-001$", apply.url), apply.url
    expect(apply.get_by_role("heading", level=1)).to_have_text("Senior Full-Stack Developer")
    details = apply.get_by_role("list", name="Position details")
    for fact in ("Engineering", "Remote / San Francisco", "Full-time"):
        expect(details).to_contain_text(fact)

    submit = apply.get_by_role("button", name="Submit Application")
    # Nothing filled in: the spec's missing-fields message.
    submit.click()
    expect(_toast(apply, "Missing Required Fields")).to_contain_text(
        "Please fill in all required fields and upload your resume."
    )
    expect(apply.locator("#apply-firstName")).to_have_attribute("aria-invalid", "true")

    email = _unique_email("applicant")
    apply.get_by_label("First Name").fill("Jane")
    apply.get_by_label("Last Name").fill("Tester")
    # A filled field drops its "This field is required" once left, not at the next submit (issue 26).
    expect(apply.locator("#apply-firstName")).to_have_attribute("aria-invalid", "false")
    expect(apply.locator("#apply-firstName-error")).to_have_count(0)
    expect(apply.locator("#apply-phone")).to_have_attribute("aria-invalid", "true")  # not filled yet
    apply.get_by_label("Phone").fill("(772) 555-0123")
    apply.locator("#apply-email").fill("jane-at-example.com")
    apply.get_by_label("LinkedIn Profile").fill("https://www.linkedin.com/in/jane-tester")
    resume_input = apply.locator("#apply-resume")
    resume_input.set_input_files(_make_pdf(tmp_path / "jane-resume.pdf"))
    submit.click()
    expect(_toast(apply, "Invalid Email")).to_contain_text("Please enter a valid email address.")

    apply.locator("#apply-email").fill(email)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a document")
    apply.locator("#apply-coverLetter").set_input_files(notes)
    submit.click()
    expect(_toast(apply, "Invalid File Type")).to_contain_text("Please upload only PDF, DOC, or DOCX files.")
    apply.locator("#apply-coverLetter").set_input_files([])

    # Valid: the confirmation dialog; Cancel keeps everything as it was.
    submit.click()
    dialog = apply.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Senior Full-Stack Developer")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(apply.get_by_label("First Name")).to_have_value("Jane")
    with db.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM job_applications WHERE email = :e"), {"e": email}).scalar() == 0

    submit.click()
    apply.get_by_role("alertdialog").get_by_role("button", name="Final Submit").click()
    expect(_toast(apply, "Application Submitted!")).to_be_visible()
    started = time.monotonic()
    apply.wait_for_url(re.compile(r"/careers/?$"), timeout=10_000)
    assert time.monotonic() - started > 1.0  # the spec's 2 s pause before returning to /careers
    expect(apply.get_by_role("heading", name="Open Positions")).to_be_visible()

    with db.connect() as conn:
        row = conn.execute(
            text(
                "SELECT a.first_name, a.last_name, a.phone, a.job_code, a.linkedin_url, a.resume_path, "
                "a.resume_filename, a.resume_content_type, a.cover_letter_path, j.code AS job "
                "FROM job_applications a LEFT JOIN job_openings j ON j.id = a.job_opening_id WHERE a.email = :e"
            ),
            {"e": email},
        ).one()
    assert (row.first_name, row.last_name, row.phone, row.job_code, row.job) == (
        "Jane",
        "Tester",
        "(772) 555-0123",
        "JOB-001",
        "JOB-001",
    )
    assert row.linkedin_url == "https://www.linkedin.com/in/jane-tester"
    assert re.fullmatch(r"applications/[0-9a-f]{32}\.pdf", row.resume_path)
    assert (row.resume_filename, row.resume_content_type, row.cover_letter_path) == (
        "jane-resume.pdf",
        "application/pdf",
        None,
    )
    # The CV is private: nothing under Reflex's public upload folder serves it.
    stored = row.resume_path.split("/", 1)[1]
    for path in (f"/_upload/{row.resume_path}", f"/_upload/{stored}", "/_upload/jane-resume.pdf"):
        r = httpx.get(server.url + path)
        assert r.status_code != 200 or b"%PDF" not in r.content, path
    assert "Thank you for applying" in wait_for_mail(server, email)
    assert errors == []


# ------------------------------------------------------------------------------------------------ booking, footer


def test_booking_view_lists_active_meeting_types_and_is_linked(server: Server, page: Page, db: Engine) -> None:
    _open(page, server.url + "/contact")
    page.locator("main").get_by_role("link", name="Book a Meeting").click()
    page.wait_for_url(re.compile(r"/book-meeting/?$"))
    # A locator, not wait_for_function: Playwright evaluates a string predicate with eval, which the CSP refuses.
    expect(page.locator("[data-skeleton]")).to_have_count(0, timeout=15_000)
    cards = page.locator("[data-meeting-type]")
    expect(cards).to_have_count(3)
    free = cards.filter(has_text="Free Consultation")
    expect(free).to_contain_text("30 minutes")
    expect(free).to_contain_text("Marcus Reed")
    expect(free).to_contain_text("1-on-1")
    # Without Calendly the type books in-app (tests/e2e/test_booking_journey.py walks the flow).
    expect(free.get_by_role("button", name=re.compile("^Book Meeting"))).to_be_enabled()
    expect(free.locator("p.line-clamp-3")).to_be_visible()
    expect(page.get_by_role("list").filter(has_text="calendar invite").locator("li")).to_have_count(4)
    expect(page.get_by_role("contentinfo").get_by_role("link", name="Book a Meeting")).to_have_attribute(
        "href", "/book-meeting"
    )

    # Old booking links to the contact form still name the meeting.
    page.goto(server.url + "/contact?meeting=free-consultation")
    page.wait_for_selector("[data-hydrated=true]")
    expect(page.get_by_text("Meeting request:")).to_contain_text("Free Consultation")
    expect(page.get_by_label("Project Details")).to_have_value(re.compile("Free Consultation"))

    # No active type: the empty state.
    with db.begin() as conn:
        active = [r.id for r in conn.execute(text("SELECT id FROM meeting_types WHERE is_active"))]
        conn.execute(text("UPDATE meeting_types SET is_active = false"))
    try:
        _open(page, server.url + "/book-meeting")
        expect(page.get_by_text("No meeting types available")).to_be_visible()
        expect(page.get_by_text("Please contact us directly to schedule a meeting.")).to_be_visible()
    finally:
        with db.begin() as conn:
            conn.execute(text("UPDATE meeting_types SET is_active = true WHERE id = ANY(:ids)"), {"ids": active})
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_footer_newsletter_box_subscribes_and_reports_errors(server: Server, page: Page, db: Engine) -> None:
    _open(page, server.url + "/about")
    box = page.get_by_role("contentinfo")
    box.get_by_label("Email address").fill("someone@invalid")
    box.get_by_role("button", name="Subscribe").click()
    expect(box.locator("#newsletter-message")).to_have_text("Please enter a valid email address")
    expect(box.get_by_label("Email address")).to_have_attribute("aria-invalid", "true")

    email = _unique_email("news")
    box.get_by_label("Email address").fill(email)
    box.get_by_role("button", name="Subscribe").click()
    expect(box.locator("#newsletter-success")).to_have_text(
        re.compile("Almost done! Check your inbox to confirm your subscription.")
    )
    with db.connect() as conn:
        row = conn.execute(
            text("SELECT status, source FROM newsletter_subscribers WHERE email = :e"), {"e": email}
        ).one()
    assert (row.status, row.source) == ("pending", "footer")
    assert "/api/newsletter/confirm?token=" in wait_for_mail(server, email)


def test_missing_page_shows_the_404(server: Server, page: Page) -> None:
    response = page.goto(server.url + "/there/is/nothing-here")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="Page Not Found")).to_be_visible()
    expect(page.get_by_role("link", name="Go Home")).to_be_visible()


# ----------------------------------------------------------------------------------------- quality of every page


def test_no_console_errors_on_any_public_page(server: Server, page: Page) -> None:
    for path, expected in PUBLIC_PAGES:
        page.console_errors.clear()  # type: ignore[attr-defined]
        _open(page, server.url + path)
        expect(page.locator("main")).to_contain_text(expected)
        page.wait_for_timeout(300)
        assert page.console_errors == [], path  # type: ignore[attr-defined]


@pytest.mark.parametrize("width,height", WIDTHS, ids=["1280px", "390px"])
def test_public_pages_pass_axe_and_do_not_scroll_sideways(server: Server, page: Page, width: int, height: int) -> None:
    axe = axe_source()
    page.set_viewport_size({"width": width, "height": height})
    failures: list[str] = []
    for path, _ in PUBLIC_PAGES:
        _open(page, server.url + path)
        failures += page_problems(page, path, axe)
    assert failures == []


def test_seo_tags_sitemap_and_robots(server: Server) -> None:
    for path, _ in PUBLIC_PAGES:
        base = path.split("?")[0]
        r = httpx.get(server.url + base, follow_redirects=True)
        assert r.status_code == 200, path
        head = _head(r.text)
        canonical = server.url + base.rstrip("/") + "/"
        assert head.title.strip(), path
        assert len(head.meta.get("description", "")) > 50, path
        assert head.links.get("canonical") == canonical, path
        assert head.meta.get("og:url") == canonical, path
        assert head.meta.get("og:title") == head.title, path
        assert head.meta.get("og:description") == head.meta["description"], path
        assert head.meta.get("og:image") == server.url + "/og-image.png", path
        assert head.meta.get("og:type") == "website" and head.meta.get("twitter:card") == "summary_large_image"
    assert httpx.get(server.url + "/og-image.png").headers["content-type"] == "image/png"

    sitemap = httpx.get(server.url + "/sitemap.xml").text
    locs = set(re.findall(r"<loc>([^<]+)</loc>", sitemap))
    for path, _ in PUBLIC_PAGES:
        base = path.split("?")[0]
        assert server.url + base.rstrip("/") + "/" in locs, path
    for private in PRIVATE_PATHS:
        assert not any(loc.startswith(server.url + private) for loc in locs), private

    robots = httpx.get(server.url + "/robots.txt")
    assert robots.status_code == 200 and robots.headers["content-type"].startswith("text/plain")
    lines = robots.text.splitlines()
    assert "User-agent: *" in lines and "Allow: /" in lines
    for rule in ("Disallow: /admin/", "Disallow: /api/", "Disallow: /client-portal"):
        assert rule in lines
    assert f"Sitemap: {server.url}/sitemap.xml" in lines
