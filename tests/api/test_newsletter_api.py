"""The footer's newsletter box over HTTP: subscribe, then the e-mailed confirmation link."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.models.enums import SubscriberStatus
from app.models.inquiry import NewsletterSubscriber
from app.models.system import EmailOutbox
from app.services.crm import newsletter
from app.services.platform import company

ALMOST_DONE = {"message": "Almost done! Check your inbox to confirm your subscription."}


def confirm_path(session: Session, address: str) -> str:
    mail = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == address)).one()
    match = re.search(r"https?://[^/\s]+(/api/newsletter/confirm\?token=\S+)", mail.body_text)
    assert match is not None
    return match.group(1)


def test_subscribe_and_confirm(client: TestClient, session: Session) -> None:
    r = client.post("/api/newsletter/subscribe", json={"email": "reader@example.com"})
    assert r.status_code == 200 and r.json() == ALMOST_DONE
    page = client.get(confirm_path(session, "reader@example.com"))
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Subscription confirmed" in page.text
    # A page of the site (its name, its card and button), not a bare one (issue 26).
    assert f"<header><a href='/'>{company.cached().name}</a></header>" in page.text
    assert "class='card'" in page.text and "class='button' href='/'>Back to the website" in page.text
    sub = session.exec(select(NewsletterSubscriber)).one()
    assert sub.status == SubscriberStatus.confirmed and sub.source == "footer"


def test_already_subscribed_gets_the_same_answer(client: TestClient, session: Session) -> None:
    client.post("/api/newsletter/subscribe", json={"email": "reader@example.com"})
    client.get(confirm_path(session, "reader@example.com"))
    r = client.post("/api/newsletter/subscribe", json={"email": "Reader@Example.com"})
    assert r.status_code == 200 and r.json() == ALMOST_DONE
    assert len(session.exec(select(EmailOutbox)).all()) == 1


def test_invalid_address_answers_422(client: TestClient) -> None:
    r = client.post("/api/newsletter/subscribe", json={"email": "reader@"})
    assert r.status_code == 422
    assert r.json()["errors"] == {"email": "Please enter a valid email address"}


def test_bad_confirmation_link_shows_a_clear_failure(client: TestClient) -> None:
    page = client.get("/api/newsletter/confirm", params={"token": "<script>alert(1)</script>"})
    assert page.status_code == 400
    assert "We could not confirm your subscription" in page.text and "invalid" in page.text
    assert "<script>" not in page.text
    assert client.get("/api/newsletter/confirm").status_code == 400


def test_foreign_origin_cannot_subscribe(client: TestClient) -> None:
    r = client.post(
        "/api/newsletter/subscribe", json={"email": "reader@example.com"}, headers={"Origin": "https://evil.example"}
    )
    assert r.status_code == 403


def test_unsubscribe_link(client: TestClient, session: Session) -> None:
    client.post("/api/newsletter/subscribe", json={"email": "reader@example.com"})
    client.get(confirm_path(session, "reader@example.com"))
    sub = session.exec(select(NewsletterSubscriber)).one()
    path = newsletter.unsubscribe_url(sub).split("://", 1)[1].split("/", 1)[1]
    for bad in ("", "1.ü", f"{sub.id}.deadbeef", "x" * 300):
        r = client.get("/api/newsletter/unsubscribe", params={"token": bad})
        assert r.status_code == 400 and "could not unsubscribe" in r.text
    page = client.get(f"/{path}")
    assert page.status_code == 200 and "You are unsubscribed" in page.text
    session.refresh(sub)
    assert sub.status == SubscriberStatus.unsubscribed
