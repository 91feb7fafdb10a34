"""The booking interface: types, slots, POST /api/booking (201/409/422/429), manage, reschedule and cancel (200/404)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.models.enums import Role
from app.models.meeting import MeetingType
from app.models.system import EmailOutbox
from app.services.scheduling import booking
from tests import factories as f

EVERY_DAY = {str(d): [["09:00", "17:00"]] for d in range(7)}


def bookable(s: Session) -> MeetingType:
    host = f.user(s, "apihost", role=Role.employee)
    t = MeetingType(slug="api-call", name="API Call", duration_minutes=30, availability=EVERY_DAY, organizer_id=host.id)
    s.add(t)
    s.add(MeetingType(slug="hidden", name="Hidden", is_active=False))
    s.commit()
    return t


def test_types_and_slots(client: TestClient, session: Session) -> None:
    bookable(session)
    types = client.get("/api/booking/types").json()["data"]
    assert {"slug": "api-call", "name": "API Call", "durationMinutes": 30, "description": None} in types
    assert "hidden" not in [t["slug"] for t in types]
    answer = client.get("/api/booking/slots", params={"type": "api-call", "days": 3})
    assert answer.status_code == 200
    slots = answer.json()["data"]
    assert slots and all(s["start"].endswith("Z") and s["end"].endswith("Z") for s in slots)
    assert client.get("/api/booking/slots", params={"type": "api-call", "days": 32}).status_code == 422
    bad = client.get("/api/booking/slots", params={"type": "nope"})
    assert bad.status_code == 422 and bad.json()["errors"] == {"type": "Unknown meeting type"}


def test_book_manage_reschedule_cancel(client: TestClient, session: Session) -> None:
    bookable(session)
    first, second = [s["start"] for s in client.get("/api/booking/slots?type=api-call&days=14").json()["data"][:2]]
    body = {"type": "api-call", "start": first, "name": "Ann", "email": "ann@example.com", "company": "Acme"}
    created = client.post("/api/booking", json=body)
    assert created.status_code == 201, created.text
    data = created.json()["data"]
    assert set(data) == {"id", "start", "end", "status", "holdExpiresAt", "joinUrl", "manageUrl"}
    assert data["start"] == first and data["status"] == "unconfirmed" and data["holdExpiresAt"]
    again = client.post("/api/booking", json={**body, "email": "bob@example.com"})  # a hold holds the slot
    assert again.status_code == 409 and again.json()["message"] == booking.TAKEN

    held = data["manageUrl"].split("token=")[1]
    shown = client.get(f"/api/booking/manage/{held}").json()["data"]
    assert shown["status"] == "unconfirmed" and shown["canChange"] is False
    early = client.post(f"/api/booking/manage/{held}/reschedule", json={"start": second})
    assert early.status_code == 409 and early.json()["message"] == booking.CONFIRM_FIRST
    confirm = confirm_link(session, "ann@example.com")
    assert client.get(f"/api/booking/confirm/{confirm}").json()["data"]["start"] == first
    confirmed = client.post(f"/api/booking/confirm/{confirm}")
    assert confirmed.status_code == 200 and confirmed.json()["data"]["status"] == "scheduled"
    assert client.post(f"/api/booking/confirm/{confirm}").status_code == 404  # used
    assert client.get(f"/api/booking/manage/{held}").status_code == 404  # whoever typed the address lost the link
    token = confirmed.json()["data"]["manageUrl"].split("token=")[1]
    shown = client.get(f"/api/booking/manage/{token}").json()["data"]
    assert shown["start"] == first and shown["company"] == "Acme" and shown["canChange"] is True
    moved = client.post(f"/api/booking/manage/{token}/reschedule", json={"start": second})
    assert moved.status_code == 200 and moved.json()["data"]["start"] == second
    old = client.get(f"/api/booking/manage/{token}").json()["data"]  # the first mail's link: the booking as it is now
    assert old["start"] == second and old["canChange"] is True
    token = moved.json()["data"]["manageUrl"].split("token=")[1]
    taken = client.post("/api/booking", json={**body, "start": second, "email": "cy@example.com"})
    assert taken.status_code == 409
    assert client.post(f"/api/booking/manage/{token}/cancel").status_code == 200
    assert client.post(f"/api/booking/manage/{token}/cancel").status_code == 409
    assert client.post(f"/api/booking/manage/{token}/reschedule", json={"start": first}).status_code == 409
    gone = client.get(f"/api/booking/manage/{token}").json()["data"]
    assert gone["status"] == "cancelled" and gone["cancelledBy"] == "booker" and gone["cancelledAt"].endswith("Z")
    assert client.post("/api/booking", json={**body, "start": second, "email": "cy@example.com"}).status_code == 201


def test_an_anonymous_booking_with_a_clients_address_is_not_in_their_portal(
    client: TestClient, session: Session
) -> None:
    """Issue 23, point 3: a stranger's booking in a client's name must not show up in that client's portal."""
    bookable(session)
    f.user(session, "portalvictim", email="victim@example.com")
    start = client.get("/api/booking/slots?type=api-call&days=14").json()["data"][0]["start"]
    phish = {"type": "api-call", "start": start, "name": "Coastline Billing Team", "email": "victim@example.com"}
    phish["notes"] = "Your account is suspended, pay at https://evil.example"
    assert client.post("/api/booking", json=phish).status_code == 201
    r = client.post("/api/auth/login", json={"identifier": "portalvictim", "password": f.PASSWORD})
    assert r.status_code == 200, r.text
    listed = client.get("/api/protected/meetings").json()
    assert listed["upcoming"] == [] and listed["data"] == []


def confirm_link(session: Session, email: str) -> str:
    rows = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == email)).all()
    [text] = [r.body_text for r in rows if "/book-meeting/confirm?token=" in r.body_text]
    return text.split("/book-meeting/confirm?token=", 1)[1].split()[0]


def test_bad_input_is_422_with_errors(client: TestClient, session: Session) -> None:
    bookable(session)
    answer = client.post("/api/booking", json={"type": "api-call", "start": "soon", "name": "", "email": "x"})
    assert answer.status_code == 422
    assert set(answer.json()["errors"]) == {"start", "name", "email"}
    assert client.post("/api/booking", json={"start": "x"}).status_code == 422  # type missing
    assert client.get("/api/booking/manage/unknown").status_code == 404


def test_booking_is_rate_limited_per_address(client: TestClient, session: Session) -> None:
    bookable(session)
    bad = {"type": "api-call", "start": "x", "name": "A", "email": "a@example.com"}
    codes = [client.post("/api/booking", json=bad).status_code for _ in range(booking.BOOKINGS_PER_ADDRESS + 1)]
    assert codes[-1] == 429 and set(codes[:-1]) == {422}


def test_booking_422s_name_the_payloads_fields(client: TestClient, session: Session) -> None:
    """The form's own words, keyed by the payload's names (camelCase kept); a shape error is pydantic's."""
    bookable(session)
    body = {"type": "api-call", "start": "2027-03-11T15:00:00", "name": "", "email": "x", "timeZone": "z" * 65}
    assert client.post("/api/booking", json=body).json() == {
        "message": "Please check the highlighted fields.",
        "errors": {
            "start": "The time needs a time zone (e.g. 2026-12-01T15:00:00Z).",
            "timeZone": "Time zone must not exceed 64 characters",
            "name": "Name is required",
            "email": "Please enter a valid email address.",
        },
    }
    r = client.post(
        "/api/booking", json={"type": "nope", "start": "2027-03-11T15:00:00Z", "name": "A", "email": "a@b.co"}
    )
    assert r.status_code == 422
    assert r.json() == {"message": "Please check the highlighted fields.", "errors": {"type": "Unknown meeting type"}}
    r = client.post("/api/booking", json={"type": "api-call", "start": 5, "name": "A", "email": "a@b.co"})
    assert r.json() == {"message": "Please check the highlighted fields.", "errors": {"start": "Must be text"}}
    token = "unknown"
    assert client.post(f"/api/booking/manage/{token}/reschedule", json={"start": "x"}).json() == {
        "message": "Please check the highlighted fields.",
        "errors": {"start": "Please choose a time."},
    }
    r = client.get("/api/booking/slots", params={"type": "api-call", "from": "9999-01-01"})
    assert r.json() == {
        "message": "From cannot be after December 31, 2200",
        "errors": {"from": "From cannot be after December 31, 2200"},
    }
