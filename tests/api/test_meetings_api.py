"""GET /api/admin/meetings: the spec's `{"data": [...]}` with the paging fields beside it; searched and sorted."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.enums import EmployeeType, Role
from app.models.user import User
from app.services import sessions
from tests import factories as f


def as_user(client: TestClient, session: Session, user: User) -> None:
    client.cookies.set("access_token", sessions.start(session, user).access_token)


def test_the_list_route_pages_searches_and_sorts(client: TestClient, session: Session) -> None:
    support = f.user(session, "support_pages", role=Role.employee, employee_type=EmployeeType.customer_support)
    guest = f.user(session, "paged_guest", first_name="Paige", last_name="Turner")
    for hour in range(1, 6):
        f.meeting(session, guest, in_hours=hour, title=f"Sync {hour}")
    as_user(client, session, support)
    mine = {"client_id": str(guest.id)}

    first = client.get("/api/admin/meetings", params={**mine, "page_size": 2})
    assert first.status_code == 200
    body = first.json()
    assert {k: body[k] for k in ("total", "page", "page_size", "pages")} == {
        "total": 5,
        "page": 1,
        "page_size": 2,
        "pages": 3,
    }
    assert [m["title"] for m in body["data"]] == ["Sync 1", "Sync 2"]
    assert body["data"][0]["client_name"] == "Paige Turner"

    third = client.get("/api/admin/meetings", params={**mine, "page_size": 2, "page": 3}).json()
    assert [m["title"] for m in third["data"]] == ["Sync 5"]
    past_the_end = client.get("/api/admin/meetings", params={**mine, "page_size": 2, "page": 9}).json()
    assert past_the_end["data"] == [] and past_the_end["total"] == 5

    latest = client.get("/api/admin/meetings", params={**mine, "sort": "latest", "page_size": 1}).json()
    assert [m["title"] for m in latest["data"]] == ["Sync 5"]
    found = client.get("/api/admin/meetings", params={"search": "paige turner", "when": "all"}).json()
    assert found["total"] == 5

    assert client.get("/api/admin/meetings", params={"status": "postponed"}).status_code == 422


def test_the_list_route_needs_meetings_read(client: TestClient, session: Session) -> None:
    as_user(client, session, f.user(session, "cfo_mtg", role=Role.employee, employee_type=EmployeeType.cfo))
    assert client.get("/api/admin/meetings").status_code == 403
