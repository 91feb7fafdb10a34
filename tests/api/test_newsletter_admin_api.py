"""The staff newsletter routes (issue 12, point 9): GET /api/admin/newsletter/subscribers (paged, searched, filtered,
sorted), its CSV export, and POST .../{id}/unsubscribe; who may call them, and what a bad call gets."""

from __future__ import annotations

import csv
import io
import uuid

from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.models.enums import EmployeeType, Role, SubscriberStatus
from app.models.inquiry import NewsletterSubscriber
from app.models.system import AuditLog
from app.models.user import User
from app.services.accounts import sessions
from tests import factories as f

LIST = "/api/admin/newsletter/subscribers"
EXPORT = "/api/admin/newsletter/subscribers/export"
PAGING = {"data", "total", "page", "page_size", "pages"}
FIELDS = {"id", "email", "status", "source", "confirmed_at", "created_at"}


def _unsubscribe(subscriber_id: object) -> str:
    return f"/api/admin/newsletter/subscribers/{subscriber_id}/unsubscribe"


def _as(client: TestClient, session: Session, user: User) -> User:
    client.cookies.set("access_token", sessions.start(session, user).access_token)
    return user


def _staff(session: Session, etype: EmployeeType | None = None) -> User:
    return f.user(session, role=Role.employee if etype else Role.admin, employee_type=etype)


def _tag() -> str:
    return uuid.uuid4().hex[:8]


def _seed(session: Session, tag: str) -> dict[str, NewsletterSubscriber]:
    rows = {
        name: NewsletterSubscriber(email=f"{name}.{tag}@example.com", status=status, source="footer")
        for name, status in (
            ("ann", SubscriberStatus.confirmed),
            ("bob", SubscriberStatus.pending),
            ("cy", SubscriberStatus.unsubscribed),
        )
    }
    session.add_all(rows.values())
    session.commit()
    return rows


def test_the_list_pages_searches_filters_and_sorts(client: TestClient, session: Session) -> None:
    tag = _tag()
    _seed(session, tag)
    _as(client, session, _staff(session, EmployeeType.developer))  # content:read only
    body = client.get(LIST, params={"search": tag, "sort": "email", "page_size": 2}).json()
    assert set(body) == PAGING and (body["total"], body["page"], body["page_size"], body["pages"]) == (3, 1, 2, 2)
    assert set(body["data"][0]) == FIELDS
    assert [s["email"] for s in body["data"]] == [f"ann.{tag}@example.com", f"bob.{tag}@example.com"]
    second = client.get(LIST, params={"search": tag, "sort": "email", "page_size": 2, "page": 2}).json()
    assert [s["email"] for s in second["data"]] == [f"cy.{tag}@example.com"]
    pending = client.get(LIST, params={"search": tag, "status": "pending"}).json()
    assert [(s["email"], s["status"]) for s in pending["data"]] == [(f"bob.{tag}@example.com", "pending")]
    assert client.get(LIST, params={"search": f"BOB.{tag}"}).json()["total"] == 1


def test_a_bad_status_is_a_422_naming_the_field(client: TestClient, session: Session) -> None:
    _as(client, session, _staff(session))
    for url in (LIST, EXPORT):
        r = client.get(url, params={"status": "bogus"})
        assert r.status_code == 422 and r.json() == {
            "message": "Unknown status",
            "errors": {"status": "Unknown status"},
        }


def test_reading_needs_content_read(client: TestClient, session: Session) -> None:
    assert client.get(LIST).status_code == 401
    assert client.get(EXPORT).status_code == 401
    for user in (_staff(session, EmployeeType.hr), f.user(session)):
        _as(client, session, user)
        for url in (LIST, EXPORT):
            r = client.get(url)
            assert r.status_code == 403, r.text
            assert "permission" in r.json()["message"] or "Staff privileges" in r.json()["message"]


def test_a_writer_unsubscribes_once_and_it_is_audited(client: TestClient, session: Session) -> None:
    sub = _seed(session, _tag())["ann"]
    writer = _as(client, session, _staff(session, EmployeeType.marketing_lead))
    r = client.post(_unsubscribe(sub.id))
    assert r.status_code == 200, r.text
    assert r.json()["message"] == "Subscriber unsubscribed"
    assert r.json()["data"]["status"] == "unsubscribed" and r.json()["data"]["email"] == sub.email
    session.refresh(sub)
    assert sub.status == SubscriberStatus.unsubscribed
    entries = session.exec(
        select(AuditLog).where(AuditLog.action == "newsletter.unsubscribe", AuditLog.entity_id == str(sub.id))
    ).all()
    assert [(e.actor_id, e.details) for e in entries] == [(writer.id, {"previous_status": "confirmed"})]
    again = client.post(_unsubscribe(sub.id))
    assert again.status_code == 200 and again.json()["data"]["status"] == "unsubscribed"


def test_unsubscribing_needs_content_write(client: TestClient, session: Session) -> None:
    sub = _seed(session, _tag())["bob"]
    assert client.post(_unsubscribe(sub.id)).status_code == 401
    for user in (_staff(session, EmployeeType.developer), _staff(session, EmployeeType.hr), f.user(session)):
        _as(client, session, user)
        assert client.post(_unsubscribe(sub.id)).status_code == 403
    session.refresh(sub)
    assert sub.status == SubscriberStatus.pending


def test_an_unknown_or_impossible_id(client: TestClient, session: Session) -> None:
    _as(client, session, _staff(session))
    r = client.post(_unsubscribe(987_654_321))
    assert r.status_code == 404 and r.json()["message"] == "Subscriber not found"
    for bad in (0, -3, 2**31, "abc"):
        assert client.post(_unsubscribe(bad)).status_code == 422


def test_a_foreign_origin_cannot_unsubscribe(client: TestClient, session: Session) -> None:
    sub = _seed(session, _tag())["ann"]
    _as(client, session, _staff(session))
    r = client.post(_unsubscribe(sub.id), headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    session.refresh(sub)
    assert sub.status == SubscriberStatus.confirmed


def _rows(body: str) -> list[list[str]]:
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:])))


def test_the_export_is_a_csv_of_the_filtered_list(client: TestClient, session: Session) -> None:
    tag = _tag()
    _seed(session, tag)
    session.add(NewsletterSubscriber(email=f"+1-cmd.{tag}@example.com", status=SubscriberStatus.confirmed))
    session.commit()
    _as(client, session, _staff(session, EmployeeType.developer))  # reading is enough to export
    r = client.get(EXPORT, params={"search": tag, "sort": "email"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/csv; charset=utf-8"
    assert r.headers["content-disposition"].startswith('attachment; filename="newsletter-subscribers-')
    assert r.headers["cache-control"] == "no-store"
    table = _rows(r.text)
    assert table[0] == ["id", "created_at", "email", "status", "source", "confirmed_at"]
    # The list's order (where the "+" sorts depends on the database's collation, so it is left out here).
    emails = [row[2] for row in table[1:]]
    assert [e for e in emails if not e.startswith("'")] == [f"{n}.{tag}@example.com" for n in ("ann", "bob", "cy")]
    assert f"'+1-cmd.{tag}@example.com" in emails  # inert in a spreadsheet
    confirmed = _rows(client.get(EXPORT, params={"search": tag, "status": "confirmed"}).text)
    assert {(row[2], row[3]) for row in confirmed[1:]} == {
        (f"'+1-cmd.{tag}@example.com", "confirmed"),
        (f"ann.{tag}@example.com", "confirmed"),
    }
