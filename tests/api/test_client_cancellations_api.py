"""A client's cancellation over HTTP tells the staff owner (issue 12, point 7); a refused one tells nobody."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.core.config import settings
from app.models.enums import EmployeeType, Role
from app.models.system import EmailOutbox
from app.services.accounts import sessions
from tests import factories as f

STAFF_BOX = "office@coastline.example"


@pytest.fixture(autouse=True)
def staff_box(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "staff_notify_email", STAFF_BOX)
    monkeypatch.setattr(settings, "calendly_token", None)


def _subjects(s: Session, to: str) -> list[str]:
    return list(s.exec(select(EmailOutbox.subject).where(EmailOutbox.to_address == to)))


def test_cancelling_over_http_mails_the_owner(client: TestClient, session: Session) -> None:
    owner = f.user(session, "api_client_owner")
    organizer = f.user(session, "api_organizer", role=Role.employee, employee_type=EmployeeType.sales_lead)
    project = f.project(session, owner, "Dune Bikes shop")
    meeting = f.meeting(session, owner, title="Design review", organizer_id=organizer.id)
    client.cookies.set("access_token", sessions.start(session, owner).access_token)

    r = client.put(f"/api/protected/projects/{project.id}", json={"status": "cancelled"})
    assert r.status_code == 200, r.text
    assert _subjects(session, STAFF_BOX) == ["Client cancelled project: Dune Bikes shop"]
    r = client.post(f"/api/protected/meetings/{meeting.id}/cancel", json={"reason": "Holiday"})
    assert r.status_code == 200, r.text
    assert _subjects(session, organizer.email) == ["Client cancelled meeting: Design review"]

    again = client.post(f"/api/protected/meetings/{meeting.id}/cancel", json={})
    assert again.status_code == 422
    assert len(_subjects(session, organizer.email)) == 1  # a refused cancellation sends nothing

    stranger = f.user(session, "api_stranger")
    client.cookies.set("access_token", sessions.start(session, stranger).access_token)
    other = f.project(session, owner, "Not yours")
    assert client.put(f"/api/protected/projects/{other.id}", json={"status": "cancelled"}).status_code == 404
    assert len(_subjects(session, STAFF_BOX)) == 1
