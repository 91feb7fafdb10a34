"""Password recovery: a single-use, 30-minute link by e-mail; the owner of an address can always take it back."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlalchemy import event, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.core.errors import BadRequest, Invalid, TooManyRequests, Unauthorized
from app.core.security import verify_password
from app.models.base import utcnow
from app.models.system import AuditLog, EmailOutbox
from app.models.user import PasswordResetToken, RefreshToken, User
from app.services.accounts import admin_users, auth, password_reset, sessions, sign_in
from tests import factories as f

NEW_PASSWORD = "Brand-new-pass-9"


def mailed_token(s: Session, email: str) -> str:
    msg = s.exec(
        select(EmailOutbox).where(EmailOutbox.to_address == email).order_by(col(EmailOutbox.id).desc())
    ).first()
    assert msg is not None
    match = re.search(r"/reset-password\?token=([A-Za-z0-9_\-]+)", msg.body_text)
    assert match, msg.body_text
    return match.group(1)


def outbox_count(s: Session, email: str) -> int:
    return len(s.exec(select(EmailOutbox).where(EmailOutbox.to_address == email)).all())


def test_a_request_mails_a_link_stored_only_as_a_hash(session: Session) -> None:
    user = f.user(session, "forgetful")
    assert (
        password_reset.request_reset(session, data={"email": "Forgetful@Example.com "}, ip="10.0.0.1")
        == password_reset.SENT
    )
    token = mailed_token(session, user.email)
    row = session.exec(select(PasswordResetToken).where(PasswordResetToken.user_id == user.id)).one()
    assert row.token != token and token not in row.token
    assert timedelta(minutes=29) < row.expires_at - utcnow() <= timedelta(minutes=30)


def test_an_unknown_address_gets_the_same_answer_and_a_note_without_a_link(session: Session) -> None:
    assert (
        password_reset.request_reset(session, data={"email": "nobody@example.com"}, ip="10.0.0.2")
        == password_reset.SENT
    )
    # The same work as for an account (one mail), so neither the answer nor its time tells whether one exists.
    (note,) = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == "nobody@example.com")).all()
    assert "has no account with us" in note.body_text and "token=" not in note.body_text
    assert session.exec(select(PasswordResetToken)).all() == []
    with pytest.raises(Invalid) as bad:
        password_reset.request_reset(session, data={"email": "not-an-address"}, ip="10.0.0.2")
    assert bad.value.errors == {"email": "Please enter a valid email address."}


def test_the_link_sets_the_password_verifies_and_ends_every_session(session: Session) -> None:
    user = f.user(session, "resetme", is_verified=False)
    sessions.start(session, user)
    password_reset.request_reset(session, data={"email": user.email})
    done = password_reset.reset_password(
        session, data={"token": mailed_token(session, user.email), "newPassword": NEW_PASSWORD}
    )
    assert done.is_verified and verify_password(NEW_PASSWORD, done.password_hash)
    assert not verify_password(f.PASSWORD, done.password_hash)
    live = session.exec(select(RefreshToken).where(RefreshToken.user_id == user.id, RefreshToken.is_revoked == False))  # noqa: E712
    assert live.all() == []
    actions = session.exec(select(AuditLog.action).where(AuditLog.entity_id == str(user.id))).all()
    assert "auth.password_reset" in actions
    sign_in.login(session, data={"identifier": "resetme", "password": NEW_PASSWORD})


def test_each_dead_link_says_why(session: Session) -> None:
    user = f.user(session, "deadlinks")
    with pytest.raises(BadRequest, match="not valid"):
        password_reset.reset_password(session, data={"token": "made-up", "newPassword": NEW_PASSWORD})
    with pytest.raises(BadRequest, match="not valid"):
        password_reset.reset_password(session, data={"token": "", "newPassword": NEW_PASSWORD})

    password_reset.request_reset(session, data={"email": user.email})
    first = mailed_token(session, user.email)
    password_reset.request_reset(session, data={"email": user.email})
    second = mailed_token(session, user.email)
    with pytest.raises(BadRequest, match="replaced by a newer one"):  # a newer link kills the older ones
        password_reset.reset_password(session, data={"token": first, "newPassword": NEW_PASSWORD})

    password_reset.reset_password(session, data={"token": second, "newPassword": NEW_PASSWORD})
    with pytest.raises(BadRequest, match="already been used"):
        password_reset.reset_password(session, data={"token": second, "newPassword": "Another-pass-77"})

    password_reset.request_reset(session, data={"email": user.email})
    third = mailed_token(session, user.email)
    session.exec(update(PasswordResetToken).values(expires_at=utcnow() - timedelta(seconds=1)))  # type: ignore[call-overload]
    with pytest.raises(BadRequest, match="expired"):
        password_reset.reset_password(session, data={"token": third, "newPassword": NEW_PASSWORD})


def test_a_weak_password_is_refused_and_the_link_still_works(session: Session) -> None:
    user = f.user(session, "weakling")
    password_reset.request_reset(session, data={"email": user.email})
    token = mailed_token(session, user.email)
    with pytest.raises(Invalid) as weak:
        password_reset.reset_password(session, data={"token": token, "newPassword": "short"})
    assert weak.value.errors == {"newPassword": "New password must be at least 8 characters"}
    password_reset.reset_password(session, data={"token": token, "newPassword": NEW_PASSWORD})


def test_requests_are_limited_per_address_asked_about(session: Session) -> None:
    user = f.user(session, "spammed")
    for _ in range(password_reset.REQUESTS_PER_ACCOUNT):
        password_reset.request_reset(session, data={"email": user.email})
    with pytest.raises(TooManyRequests):
        password_reset.request_reset(session, data={"email": user.email})
    assert outbox_count(session, user.email) == password_reset.REQUESTS_PER_ACCOUNT


def test_the_owner_takes_back_an_address_someone_registered_first(session: Session) -> None:
    """Defect: anyone could register the victim's address with a password of their own and keep it."""
    squatter = auth.register(
        session, data={"username": "squatter2", "email": "owner@example.com", "password": "Attacker-pass-1"}
    )
    password_reset.request_reset(session, data={"email": "owner@example.com"})
    owner = password_reset.reset_password(
        session, data={"token": mailed_token(session, "owner@example.com"), "newPassword": NEW_PASSWORD}
    )
    assert owner.id == squatter.id and owner.is_verified
    with pytest.raises(Unauthorized):
        sign_in.login(session, data={"identifier": "owner@example.com", "password": "Attacker-pass-1"})
    sign_in.login(session, data={"identifier": "owner@example.com", "password": NEW_PASSWORD})
    assert session.get(User, owner.id) is not None


def test_a_reset_that_claims_an_unverified_account_clears_what_the_squatter_typed(session: Session) -> None:
    """Defect: the owner took the account back but kept the squatter's name, company and phone."""
    squatter = auth.register(
        session,
        data={
            "username": "mallory_sq",
            "email": "claimed@example.com",
            "password": "Attacker-pass-1",
            "first_name": "Mallory",
            "last_name": "Squatter",
            "company": "Squatter Inc",
            "phone": "+1 772 555 0199",
        },
    )
    squatters_session = sessions.start(session, squatter)
    password_reset.request_reset(session, data={"email": "claimed@example.com"})
    owner = password_reset.reset_password(
        session,
        data={"token": mailed_token(session, "claimed@example.com"), "newPassword": NEW_PASSWORD},
        ip="203.0.113.9",
    )
    assert owner.id == squatter.id and owner.is_verified and not owner.profile_complete
    assert (owner.first_name, owner.last_name, owner.company, owner.phone) == (None, None, None, None)
    assert verify_password(NEW_PASSWORD, owner.password_hash)
    token = session.exec(select(RefreshToken).where(RefreshToken.user_id == owner.id)).one()
    assert token.is_revoked
    with pytest.raises(Unauthorized):
        sessions.rotate(session, squatters_session.refresh_token)
    claim = session.exec(select(AuditLog).where(AuditLog.action == "auth.password_reset_claimed_unverified")).one()
    assert claim.entity_id == str(owner.id) and claim.ip_address == "203.0.113.9"


def test_a_reset_keeps_the_profile_of_a_verified_or_staff_created_account(session: Session) -> None:
    verified = f.user(session, "kept_verified", first_name="Vera", company="Vera Co")
    admin = f.user(session, "creator", role="admin")
    invited = admin_users.create_client(
        session,
        actor=admin,
        data={"username": "invitee", "email": "invitee@example.com", "first_name": "Ivy", "company": "Ivy Co"},
    )
    for user in (verified, invited):
        password_reset.request_reset(session, data={"email": user.email})
        done = password_reset.reset_password(
            session, data={"token": mailed_token(session, user.email), "newPassword": NEW_PASSWORD}
        )
        assert done.is_verified and done.first_name in ("Vera", "Ivy") and done.company in ("Vera Co", "Ivy Co")
    assert session.exec(select(AuditLog).where(AuditLog.action == "auth.password_reset_claimed_unverified")).all() == []


def statements_of(engine: Engine, fn: Callable[[], object]) -> list[str]:
    seen: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        seen.append(re.sub(r"sa_savepoint_\d+", "sa_savepoint", statement))  # the test's savepoints are numbered

    event.listen(engine, "before_cursor_execute", record)
    try:
        fn()
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return seen


def test_a_known_and_an_unknown_address_cost_the_same_work(session: Session, engine: Engine) -> None:
    """Defect: a request for an address with an account did more work (a link, a mail) than one without: 15 ms
    against 12, telling which addresses have accounts from one request. Now both run the same statements (values
    aside) and queue one mail. Timings are measured by tools/reliability/measure_accounts.py, not here (too noisy for
    a test)."""
    f.user(session, "has_account")
    password_reset.request_reset(session, data={"email": "warm-up@example.com"}, ip="10.9.0.1")  # caches warmed

    def ask(address: str) -> Callable[[], object]:
        return lambda: password_reset.request_reset(session, data={"email": address}, ip="10.9.0.1")

    known = statements_of(engine, ask("has_account@example.com"))
    unknown = statements_of(engine, ask("no-account@example.com"))
    assert known == unknown
    assert sum(s.startswith("INSERT INTO email_outbox") for s in known) == 1
    assert outbox_count(session, "has_account@example.com") == outbox_count(session, "no-account@example.com") == 1
