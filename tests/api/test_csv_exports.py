"""CSV exports of the inquiries, clients, invoices, applications and newsletter subscribers lists (issue 12, points
10 and 9): the list's own filters, the list's own permission, cells a spreadsheet would run made inert, and streamed:
100,000 rows go out without the export ever holding them in memory."""

from __future__ import annotations

import csv
import io
import tracemalloc

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlmodel import Session

from app.models.enums import InvoiceStatus, Role
from app.models.inquiry import ContactInquiry
from app.services.accounts import sessions
from app.services.crm import admin_inquiries
from tests import factories as f


def _as(client: TestClient, session: Session, role: Role = Role.admin, **kw: object) -> None:
    user = f.user(session, role=role, **kw)
    client.cookies.set("access_token", sessions.start(session, user).access_token)


def _rows(body: str) -> list[list[str]]:
    assert body.startswith("\ufeff")  # spreadsheet programs read the file as UTF-8
    return list(csv.reader(io.StringIO(body[1:])))


EXPORTS = [
    "/api/admin/inquiries/export",
    "/api/admin/users/export?role=client",
    "/api/admin/invoices/export",
    "/api/admin/applications/export",
    "/api/admin/newsletter/subscribers/export",
]


@pytest.mark.parametrize("url", EXPORTS)
def test_each_export_is_a_csv_attachment_of_the_whole_list(client: TestClient, session: Session, url: str) -> None:
    rows = f.one_of_each(session, "Export")
    customer = f.user(session, "export_client", first_name="Erin")
    f.invoice(session, customer, status=InvoiceStatus.pending)
    _as(client, session)
    r = client.get(url)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/csv; charset=utf-8"
    assert r.headers["content-disposition"].startswith("attachment; filename=")
    assert r.headers["cache-control"] == "no-store"
    table = _rows(r.text)
    assert len(table) >= 2 and len({len(row) for row in table}) == 1  # a header and rows of its width
    shown = (rows["inquiry"].email, rows["subscriber"].email, "export_client", "INV-", "Pat")
    assert any(text in r.text for text in shown)


@pytest.mark.parametrize("url", EXPORTS)
def test_exports_need_the_lists_permission(client: TestClient, session: Session, url: str) -> None:
    assert client.get(url).status_code == 401
    _as(client, session, Role.client)
    assert client.get(url).status_code == 403
    # Staff without the list's permission: every employee reads inquiries unless it was taken away.
    _as(client, session, Role.employee, revoked_permissions=["inquiries:read"])
    assert client.get(url).status_code == 403


def test_an_export_keeps_the_lists_filters(client: TestClient, session: Session) -> None:
    session.add_all(
        [
            ContactInquiry(name="Ann Filter", email="ann@example.com", message="Website", status="resolved"),
            ContactInquiry(name="Bob Filter", email="bob@example.com", message="App"),
            ContactInquiry(name="Cy Spam", email="cy@example.com", message="Buy", is_spam=True),
        ]
    )
    session.commit()
    _as(client, session)
    emails = lambda url: {row[3] for row in _rows(client.get(url).text)[1:]}  # noqa: E731
    assert emails("/api/admin/inquiries/export?search=filter") == {"ann@example.com", "bob@example.com"}
    assert emails("/api/admin/inquiries/export?search=filter&status=resolved") == {"ann@example.com"}
    assert emails("/api/admin/inquiries/export?spam=true") == {"cy@example.com"}
    r = client.get("/api/admin/inquiries/export?status=bogus")
    assert r.status_code == 422 and r.json()["errors"] == {"status": "Unknown status"}


def test_cells_a_spreadsheet_would_run_are_made_inert(client: TestClient, session: Session) -> None:
    session.add(ContactInquiry(name='=HYPERLINK("http://evil")', email="f@example.com", message="+1 cmd|' /C calc'"))
    session.commit()
    _as(client, session)
    row = next(r for r in _rows(client.get("/api/admin/inquiries/export").text) if r[3] == "f@example.com")
    assert row[2] == '\'=HYPERLINK("http://evil")' and row[13] == "'+1 cmd|' /C calc'"


def test_a_hundred_thousand_rows_stream_out_in_bounded_memory(session: Session) -> None:
    session.execute(
        text(
            "INSERT INTO contact_inquiries (name, email, message, status, priority, newsletter, is_spam, created_at, "
            "updated_at) SELECT 'Visitor ' || n, 'v' || n || '@example.com', repeat('Project details ', 20), 'new', "
            "'medium', false, false, now(), now() FROM generate_series(1, 100000) AS n"
        )
    )
    admin = f.user(session, "export_admin", role=Role.admin)
    tracemalloc.start()
    try:
        lines = sum(piece.count("\n") for piece in admin_inquiries.export_inquiries(session, actor=admin))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert lines == 100_001
    assert peak < 30 * 1024 * 1024, f"peak {peak / 1024 / 1024:.1f} MB"


def test_the_lists_export_links_carry_their_filters() -> None:
    from app.ui.admin.paged import export_url

    assert export_url("/api/admin/inquiries/export", {"search": "", "status": "", "spam": "", "sort": ""}) == (
        "/api/admin/inquiries/export"
    )
    url = export_url("/api/admin/users/export", {"role": "client", "verified": False, "search": "a&b", "sort": ""})
    assert url == "/api/admin/users/export?role=client&verified=false&search=a%26b"
