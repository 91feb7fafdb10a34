"""Newsletter double opt-in: pending until the e-mailed link is opened, no enumeration, expiring links."""

from __future__ import annotations

import re
import time

import pytest
from sqlmodel import Session, col, select

from app.core.errors import Invalid, TooManyRequests
from app.models.enums import SubscriberStatus
from app.models.inquiry import NewsletterSubscriber
from app.models.system import EmailOutbox
from app.services.crm import newsletter


def mails_to(s: Session, address: str) -> list[EmailOutbox]:
    query = select(EmailOutbox).where(EmailOutbox.to_address == address).order_by(col(EmailOutbox.id))
    return list(s.exec(query).all())


def token_in(message: EmailOutbox) -> str:
    match = re.search(r"/api/newsletter/confirm\?token=(\S+)", message.body_text)
    assert match is not None
    return match.group(1)


def subscriber(s: Session, address: str) -> NewsletterSubscriber:
    return s.exec(select(NewsletterSubscriber).where(NewsletterSubscriber.email == address)).one()


def test_subscribe_then_confirm(session: Session) -> None:
    message = newsletter.subscribe(
        session, data={"email": "  Reader@Example.com ", "source": "footer"}, ip="203.0.113.9"
    )
    assert message == "Almost done! Check your inbox to confirm your subscription."
    sub = subscriber(session, "reader@example.com")
    assert sub.status == SubscriberStatus.pending and sub.confirmed_at is None and sub.source == "footer"
    [mail] = mails_to(session, "reader@example.com")
    token = token_in(mail)
    assert sub.confirm_token != token and token not in (sub.confirm_token or "")  # only a digest is stored
    confirmed = newsletter.confirm(session, token=token)
    assert confirmed.status == SubscriberStatus.confirmed and confirmed.confirmed_at is not None
    # Opening the link twice is still a success.
    assert newsletter.confirm(session, token=token).status == SubscriberStatus.confirmed


@pytest.mark.parametrize("address", ["", "nobody", "a@b", "x" * 300 + "@example.com"])
def test_invalid_addresses_are_refused(session: Session, address: str) -> None:
    with pytest.raises(Invalid) as exc:
        newsletter.subscribe(session, data={"email": address, "source": "footer"})
    assert exc.value.errors == {"email": "Please enter a valid email address"}


@pytest.mark.parametrize("token", ["", "garbage", "ffffffffff.not-a-real-token", "x" * 500])
def test_bad_tokens_are_refused(session: Session, token: str) -> None:
    newsletter.subscribe(session, data={"email": "reader@example.com", "source": "footer"})
    with pytest.raises(Invalid, match="invalid or has already been used"):
        newsletter.confirm(session, token=token)
    assert subscriber(session, "reader@example.com").status == SubscriberStatus.pending


def test_expired_links_are_refused(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    newsletter.subscribe(session, data={"email": "reader@example.com", "source": "footer"})
    token = token_in(mails_to(session, "reader@example.com")[0])
    real_time = time.time
    monkeypatch.setattr(newsletter.time, "time", lambda: real_time() + newsletter.CONFIRM_TTL.total_seconds() + 60)
    with pytest.raises(Invalid, match="expired"):
        newsletter.confirm(session, token=token)


def test_a_confirmed_address_gets_no_mail_and_the_same_answer(session: Session) -> None:
    newsletter.subscribe(session, data={"email": "reader@example.com", "source": "footer"})
    newsletter.confirm(session, token=token_in(mails_to(session, "reader@example.com")[0]))
    again = newsletter.subscribe(session, data={"email": "reader@example.com", "source": "footer"})
    assert again == newsletter.SUBSCRIBED
    assert len(mails_to(session, "reader@example.com")) == 1
    assert subscriber(session, "reader@example.com").status == SubscriberStatus.confirmed


def test_a_new_request_replaces_the_pending_link(session: Session) -> None:
    newsletter.subscribe(session, data={"email": "reader@example.com", "source": "footer"})
    newsletter.subscribe(session, data={"email": "reader@example.com", "source": "contact"})
    first, second = (token_in(m) for m in mails_to(session, "reader@example.com"))
    with pytest.raises(Invalid):
        newsletter.confirm(session, token=first)
    assert newsletter.confirm(session, token=second).status == SubscriberStatus.confirmed
    assert len(session.exec(select(NewsletterSubscriber)).all()) == 1


def test_confirmation_mails_per_address_are_capped(session: Session) -> None:
    for n in range(5):
        assert newsletter.subscribe(session, data={"email": "victim@example.com", "source": "footer"}, ip=f"10.0.0.{n}")
    assert len(mails_to(session, "victim@example.com")) == 3


def test_per_ip_limit(session: Session) -> None:
    for n in range(10):
        newsletter.subscribe(session, data={"email": f"r{n}@example.com", "source": "footer"}, ip="203.0.113.50")
    with pytest.raises(TooManyRequests):
        newsletter.subscribe(session, data={"email": "r99@example.com", "source": "footer"}, ip="203.0.113.50")


def test_unsubscribe_with_the_signed_link(session: Session) -> None:
    newsletter.subscribe(session, data={"email": "reader@example.com", "source": "footer"})
    newsletter.confirm(session, token=token_in(mails_to(session, "reader@example.com")[0]))
    sub = subscriber(session, "reader@example.com")
    token = newsletter.unsubscribe_url(sub).split("token=", 1)[1]
    with pytest.raises(Invalid):
        newsletter.unsubscribe(session, token=f"{sub.id}.{'0' * 32}")
    newsletter.unsubscribe(session, token=token)
    assert subscriber(session, "reader@example.com").status == SubscriberStatus.unsubscribed
    # Subscribing again starts a fresh double opt-in.
    newsletter.subscribe(session, data={"email": "reader@example.com", "source": "footer"})
    assert subscriber(session, "reader@example.com").status == SubscriberStatus.pending


def test_a_concurrent_insert_of_the_same_address_does_not_break_the_caller(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    session.add(NewsletterSubscriber(email="reader@example.com", status=SubscriberStatus.confirmed))
    session.commit()
    real_exec = session.exec
    calls = {"n": 0}

    class _Nothing:
        def first(self) -> None:
            return None

    def racing_exec(statement, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        # The first look-up misses the row, as if another request inserted it a moment later.
        return _Nothing() if calls["n"] == 1 else real_exec(statement, *args, **kwargs)

    monkeypatch.setattr(session, "exec", racing_exec)
    assert (
        newsletter.subscribe(session, data={"email": "reader@example.com", "source": "footer"}) == newsletter.SUBSCRIBED
    )
    monkeypatch.undo()
    assert subscriber(session, "reader@example.com").status == SubscriberStatus.confirmed
    assert mails_to(session, "reader@example.com") == []
