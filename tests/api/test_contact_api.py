"""POST /api/contact over HTTP: 201 on success, 422 with field errors, silent honeypot, 429, foreign origins refused."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.core.config import settings
from app.models.inquiry import ContactInquiry
from app.models.system import EmailOutbox

THANKS = {"message": "Thank you for your inquiry. We'll get back to you within 24 hours."}


def payload(**overrides: Any) -> dict[str, Any]:
    # The spec's payload, as the original form sent it.
    data = {
        "name": "Dana Whitfield",
        "email": "dana@example.com",
        "company": "",
        "phone": "",
        "service_type": "cloud-solutions",
        "budget": "1.2k-5k",
        "message": "Please quote a hosting plan.",
        "newsletter": False,
    }
    return {**data, **overrides}


@pytest.fixture(autouse=True)
def staff_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "staff_notify_email", "sales@coastline.example")


def test_valid_inquiry_answers_201_and_queues_mail(client: TestClient, session: Session) -> None:
    r = client.post("/api/contact", json=payload())
    assert r.status_code == 201, r.text
    assert r.json() == THANKS
    inquiry = session.exec(select(ContactInquiry)).one()
    assert (inquiry.service_type, inquiry.budget, inquiry.is_spam) == ("cloud-solutions", "1.2k-3k", False)
    assert {m.to_address for m in session.exec(select(EmailOutbox)).all()} == {
        "dana@example.com",
        "sales@coastline.example",
    }


def test_nulls_from_a_javascript_client_count_as_empty(client: TestClient) -> None:
    r = client.post("/api/contact", json=payload(company=None, phone=None, service_type=None, budget=None))
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "", "Name is required"),
        ("email", "dana-at-example", "Please enter a valid email address"),
        ("message", "", "Project details are required"),
        ("message", "x" * 5001, "Project details must not exceed 5000 characters"),
        ("company", "x" * 201, "Company must not exceed 200 characters"),
        ("phone", "x" * 31, "Phone must not exceed 30 characters"),
        ("service_type", "mining", "Please choose a service from the list"),
        ("budget", "1m", "Please choose a budget from the list"),
    ],
)
def test_invalid_fields_answer_422_with_errors(
    client: TestClient, session: Session, field: str, value: str, message: str
) -> None:
    r = client.post("/api/contact", json=payload(**{field: value}))
    assert r.status_code == 422
    assert r.json() == {"message": "Please check the highlighted fields.", "errors": {field: message}}
    assert session.exec(select(ContactInquiry)).first() is None


def test_wrong_types_answer_422_in_the_same_shape(client: TestClient) -> None:
    r = client.post("/api/contact", json=payload(name=["not", "a", "string"]))
    assert r.status_code == 422 and "name" in r.json()["errors"]


def test_honeypot_gets_the_same_answer_but_is_flagged(client: TestClient, session: Session) -> None:
    r = client.post("/api/contact", json=payload(website="https://cheap-pills.example"))
    assert r.status_code == 201 and r.json() == THANKS
    assert session.exec(select(ContactInquiry)).one().is_spam is True
    assert session.exec(select(EmailOutbox)).first() is None


def test_rate_limit_answers_429_with_a_clear_message(client: TestClient) -> None:
    for _ in range(5):
        assert client.post("/api/contact", json=payload()).status_code == 201
    r = client.post("/api/contact", json=payload())
    assert r.status_code == 429
    assert r.json()["message"] == "Too many messages from your address. Please try again later or e-mail us directly."


def test_foreign_origin_is_refused(client: TestClient, session: Session) -> None:
    r = client.post("/api/contact", json=payload(), headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    assert session.exec(select(ContactInquiry)).first() is None
    ok = client.post("/api/contact", json=payload(), headers={"Origin": settings.origin})
    assert ok.status_code == 201
