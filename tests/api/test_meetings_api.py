"""GET /api/admin/meetings: the spec's `{"data": [...]}` with the paging fields beside it; searched and sorted."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.enums import EmployeeType, Role
from app.models.user import User
from app.services.accounts import sessions
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


def test_meeting_writes_keep_their_wording(client: TestClient, session: Session) -> None:
    """The typed body words each refusal as the service always did; the first one is the message."""
    as_user(client, session, f.user(session, "words_admin", role=Role.admin))
    guest = f.user(session, "words_guest")
    valid = {"client_id": str(guest.id), "title": "Kick-off", "start_time": "2031-01-06T15:00:00+00:00"}

    r = client.post(
        "/api/admin/meetings",
        json={**valid, "title": "x" * 201, "meeting_url": "http://x", "start_time": "soon", "duration_minutes": "a"},
    )
    assert r.status_code == 422
    assert r.json() == {
        "message": "Title must not exceed 200 characters",
        "errors": {
            "title": "Title must not exceed 200 characters",
            "meeting_url": "The join link must start with https://",
            "start_time": "Start time must be a date and time",
            "duration_minutes": "Duration must be a whole number",
        },
    }
    r = client.post("/api/admin/meetings", json={"client_id": str(guest.id)})
    assert r.json()["errors"] == {"title": "Title is required", "start_time": "Start time is required"}
    for change, field, text in (
        ({"start_time": "2031-01-06T15:00:00"}, "start_time", "Start time needs a time zone"),
        ({"start_time": "0001-01-01T00:00:00+05:00"}, "start_time", "Start time cannot be before January 1, 1900"),
        ({"duration_minutes": 601}, "duration_minutes", "Duration must be between 5 and 600"),
        ({"project_id": 2**31}, "project_id", "Project not found"),
        ({"project_id": "seven"}, "project_id", "Project not found"),
        ({"project_id": 999_999}, "project_id", "Project not found"),
        ({"client_id": "nobody"}, "client_id", "Please choose a client"),
    ):
        r = client.post("/api/admin/meetings", json={**valid, **change})
        assert r.status_code == 422 and r.json() == {"message": text, "errors": {field: text}}, change
    made = client.post("/api/admin/meetings", json={**valid, "duration_minutes": "45", "title": ""})
    assert made.status_code == 422  # blank is "not sent": a new meeting still needs its title
    made = client.post("/api/admin/meetings", json={**valid, "duration_minutes": "45"})
    assert made.status_code == 201 and made.json()["data"]["duration_minutes"] == 45
    moved = client.put(f"/api/admin/meetings/{made.json()['data']['id']}", json={"title": None, "description": ""})
    assert moved.status_code == 200 and moved.json()["data"]["title"] == "Kick-off"  # null and blank: unchanged
