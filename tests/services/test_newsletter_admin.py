"""Staff's newsletter list (issue 12, point 9): one page at a time, searched in the e-mail, filtered by status, sorted;
content:read to see, content:write to unsubscribe; an unsubscribe is audited; the export is the list on screen.

Each test tags its addresses and searches by the tag, so rows other tests committed do not count.
"""

from __future__ import annotations

import csv
import io
import uuid
from datetime import timedelta

import pytest
from sqlmodel import Session, col, select

from app.core.errors import Forbidden, Invalid, NotFound
from app.models.base import utcnow
from app.models.enums import EmployeeType, Role, SubscriberStatus
from app.models.inquiry import NewsletterSubscriber
from app.models.system import AuditLog
from app.models.user import User
from app.services.crm import newsletter, newsletter_admin
from app.services.crm.newsletter_admin import SubscriberPublic
from app.services.platform.paging import Page
from tests import factories as f

P, C, U = SubscriberStatus.pending, SubscriberStatus.confirmed, SubscriberStatus.unsubscribed


def _tag() -> str:
    return uuid.uuid4().hex[:8]


def _subscribers(s: Session, tag: str, *specs: tuple[str, SubscriberStatus]) -> list[NewsletterSubscriber]:
    """One row per (name, status), the first the oldest, a day apart."""
    start = utcnow() - timedelta(days=len(specs))
    rows = [
        NewsletterSubscriber(
            email=f"{name}.{tag}@example.com",
            status=status,
            source="footer",
            confirm_token=None if status == C else uuid.uuid4().hex,
            confirmed_at=start if status == C else None,
            created_at=start + timedelta(days=i),
        )
        for i, (name, status) in enumerate(specs)
    ]
    s.add_all(rows)
    s.commit()
    return rows


def _staff(s: Session, etype: EmployeeType | None = None) -> User:
    return f.user(s, role=Role.employee if etype else Role.admin, employee_type=etype)


def _emails(page: Page[SubscriberPublic]) -> list[str]:
    return [row.email.split(".", 1)[0] for row in page.data]


def test_the_list_pages_newest_first_and_sorts(session: Session) -> None:
    tag = _tag()
    _subscribers(session, tag, *[(f"r{i:02d}", C) for i in range(7)])
    admin = _staff(session)
    first = newsletter_admin.list_subscribers(session, actor=admin, search=tag, page_size=3)
    assert (first.total, first.pages, first.page) == (7, 3, 1)
    assert _emails(first) == ["r06", "r05", "r04"]
    last = newsletter_admin.list_subscribers(session, actor=admin, search=tag, page=3, page_size=3)
    assert _emails(last) == ["r00"]
    oldest = newsletter_admin.list_subscribers(session, actor=admin, search=tag, sort="oldest", page_size=2)
    assert _emails(oldest) == ["r00", "r01"]
    past_the_end = newsletter_admin.list_subscribers(session, actor=admin, search=tag, page=9, page_size=3)
    assert past_the_end.data == [] and past_the_end.total == 7
    row = first.data[0]
    assert row.status == "confirmed" and row.source == "footer" and row.confirmed_at and row.created_at


def test_sort_by_email_and_an_unknown_sort_is_newest(session: Session) -> None:
    tag = _tag()
    _subscribers(session, tag, ("bea", C), ("cem", C), ("ada", C))
    admin = _staff(session)
    assert _emails(newsletter_admin.list_subscribers(session, actor=admin, search=tag, sort="email")) == [
        "ada",
        "bea",
        "cem",
    ]
    newest = newsletter_admin.list_subscribers(session, actor=admin, search=tag, sort="; drop table")
    assert _emails(newest) == ["ada", "cem", "bea"]


def test_search_looks_in_the_email_case_insensitively_and_literally(session: Session) -> None:
    tag = _tag()
    _subscribers(session, tag, ("alice", C), ("bob_x", P), ("bobby", U))
    admin = _staff(session)
    search = lambda term: _emails(newsletter_admin.list_subscribers(session, actor=admin, search=term))  # noqa: E731
    assert search(f"ALICE.{tag}") == ["alice"]
    assert search(f"bob_x.{tag}") == ["bob_x"]  # "_" is a character here, not LIKE's wildcard
    assert search(f"%.{tag}") == []
    assert search(f"@nowhere-{tag}") == []


@pytest.mark.parametrize(
    ("status", "expected"), [("pending", ["pam"]), ("confirmed", ["cas"]), ("", ["uma", "pam", "cas"])]
)
def test_the_status_filter(session: Session, status: str, expected: list[str]) -> None:
    tag = _tag()
    _subscribers(session, tag, ("cas", C), ("pam", P), ("uma", U))
    page = newsletter_admin.list_subscribers(session, actor=_staff(session), search=tag, status=status)
    assert _emails(page) == expected


def test_an_unknown_status_is_refused_with_its_field(session: Session) -> None:
    with pytest.raises(Invalid) as exc:
        newsletter_admin.list_subscribers(session, actor=_staff(session), status="bogus")
    assert exc.value.message == "Unknown status" and exc.value.errors == {"status": "Unknown status"}
    with pytest.raises(Invalid):
        newsletter_admin.export_subscribers(session, actor=_staff(session), status="bogus")


def test_reading_needs_content_read(session: Session) -> None:
    _subscribers(session, _tag(), ("x", C))
    hr = _staff(session, EmployeeType.hr)  # the one staff type without content:read
    revoked = f.user(session, role=Role.employee, employee_type=EmployeeType.cto, revoked_permissions=["content:read"])
    for actor in (hr, revoked, f.user(session)):
        with pytest.raises(Forbidden, match="You don't have permission to view newsletter subscribers"):
            newsletter_admin.list_subscribers(session, actor=actor)
        with pytest.raises(Forbidden):
            newsletter_admin.export_subscribers(session, actor=actor)
    developer = _staff(session, EmployeeType.developer)  # content:read only
    assert newsletter_admin.list_subscribers(session, actor=developer).total >= 1


def test_unsubscribing_needs_content_write_and_changes_nothing_without(session: Session) -> None:
    [sub] = _subscribers(session, _tag(), ("keep", C))
    for actor in (_staff(session, EmployeeType.developer), _staff(session, EmployeeType.hr), f.user(session)):
        with pytest.raises(Forbidden, match="You don't have permission to unsubscribe newsletter subscribers"):
            newsletter_admin.unsubscribe_subscriber(session, actor=actor, subscriber_id=sub.id or 0)
    session.refresh(sub)
    assert sub.status == C
    assert _audit(session, sub) == []


def _audit(s: Session, sub: NewsletterSubscriber) -> list[AuditLog]:
    query = (
        select(AuditLog)
        .where(AuditLog.action == "newsletter.unsubscribe", AuditLog.entity_id == str(sub.id))
        .order_by(col(AuditLog.id))
    )
    return list(s.exec(query).all())


@pytest.mark.parametrize("before", [C, P])
def test_unsubscribe_is_final_audited_and_kills_the_pending_link(session: Session, before: SubscriberStatus) -> None:
    [sub] = _subscribers(session, _tag(), ("leaving", before))
    writer = _staff(session, EmployeeType.marketing_lead)  # content:write
    dto = newsletter_admin.unsubscribe_subscriber(session, actor=writer, subscriber_id=sub.id or 0)
    assert dto.status == "unsubscribed" and dto.email == sub.email and dto.id == sub.id
    session.refresh(sub)
    assert sub.status == U and sub.confirm_token is None
    [entry] = _audit(session, sub)
    assert entry.actor_id == writer.id and entry.entity_type == "newsletter_subscribers"
    assert entry.details == {"previous_status": str(before)}
    # Again: nothing changes and nothing more is recorded (a double click, or a colleague was quicker).
    again = newsletter_admin.unsubscribe_subscriber(session, actor=writer, subscriber_id=sub.id or 0)
    assert again.status == "unsubscribed" and len(_audit(session, sub)) == 1


def test_a_pending_link_no_longer_confirms_after_staff_unsubscribe(session: Session) -> None:
    address = f"asked.{_tag()}@example.com"
    newsletter.subscribe(session, data={"email": address, "source": "footer"})
    sub = session.exec(select(NewsletterSubscriber).where(NewsletterSubscriber.email == address)).one()
    token_digest = sub.confirm_token
    newsletter_admin.unsubscribe_subscriber(session, actor=_staff(session), subscriber_id=sub.id or 0)
    assert token_digest and sub.confirm_token is None
    assert (
        session.exec(select(NewsletterSubscriber).where(NewsletterSubscriber.confirm_token == token_digest)).first()
        is None
    )


@pytest.mark.parametrize("missing", [0, -1, 2**31, 987_654_321])
def test_an_unknown_subscriber_is_not_found(session: Session, missing: int) -> None:
    with pytest.raises(NotFound, match="Subscriber not found"):
        newsletter_admin.unsubscribe_subscriber(session, actor=_staff(session), subscriber_id=missing)


def _csv(pieces: object) -> list[list[str]]:
    text = "".join(pieces)  # type: ignore[call-overload]
    assert text.startswith("\ufeff")  # spreadsheet programs read the file as UTF-8
    return list(csv.reader(io.StringIO(text[1:])))


def test_the_export_is_the_filtered_list_with_formulas_made_inert(session: Session) -> None:
    tag = _tag()
    rows = _subscribers(session, tag, ("cas", C), ("pam", P), ("uma", U))
    formula = NewsletterSubscriber(email=f"=cmd|' /C calc'!A0.{tag}@example.com", status=C, source="contact")
    session.add(formula)
    session.commit()
    admin = _staff(session)
    table = _csv(newsletter_admin.export_subscribers(session, actor=admin, search=tag))
    assert table[0] == ["id", "created_at", "email", "status", "source", "confirmed_at"]
    assert [r[2] for r in table[1:]] == [  # the list's order: newest first
        f"'=cmd|' /C calc'!A0.{tag}@example.com",  # a spreadsheet shows it as text, never runs it
        f"uma.{tag}@example.com",
        f"pam.{tag}@example.com",
        f"cas.{tag}@example.com",
    ]
    cas = next(r for r in table if r[2].startswith("cas."))
    assert cas[0] == str(rows[0].id) and cas[3] == "confirmed" and cas[4] == "footer" and cas[5]
    pam = next(r for r in table if r[2].startswith("pam."))
    assert pam[5] == ""  # never confirmed
    only_pending = _csv(newsletter_admin.export_subscribers(session, actor=admin, search=tag, status="pending"))
    assert [r[2] for r in only_pending[1:]] == [f"pam.{tag}@example.com"]
    nothing = _csv(newsletter_admin.export_subscribers(session, actor=admin, search=f"none-{tag}"))
    assert nothing == [table[0]]
