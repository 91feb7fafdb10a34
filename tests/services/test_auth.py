"""Registration, e-mailed codes, verification rules and sign-in throttling."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlmodel import Session, col, select

from app.core.errors import Conflict, Forbidden, Invalid, NotFound, TooManyRequests, Unauthorized
from app.models.base import utcnow
from app.models.system import EmailOutbox
from app.models.user import RefreshToken, User, VerificationCode
from app.services.accounts import auth, sessions, sign_in
from tests import factories as f

PASSWORD = "Correct-horse-1"


def register(s: Session, name: str = "newclient", **kw: str) -> User:
    return auth.register(s, data={"username": name, "email": f"{name}@example.com", "password": PASSWORD, **kw})


def mailed_code(s: Session, user: User) -> str:
    msg = s.exec(
        select(EmailOutbox).where(EmailOutbox.to_address == user.email).order_by(col(EmailOutbox.id).desc())
    ).first()
    assert msg is not None
    match = re.search(r"code is (\d{6})", msg.body_text)
    assert match
    return match.group(1)


def test_register_creates_unverified_client_and_mails_a_code(session: Session) -> None:
    user = register(session, first_name="Ann")
    assert user.role == "client" and not user.is_verified
    code = mailed_code(session, user)
    row = session.exec(select(VerificationCode).where(VerificationCode.user_id == user.id)).one()
    assert row.code != code  # stored as a keyed hash only
    assert timedelta(minutes=14) < row.expires_at - utcnow() <= timedelta(minutes=15)


def test_register_names_a_taken_username_but_never_a_taken_email(session: Session) -> None:
    register(session, "dupe")
    with pytest.raises(Conflict, match="username already taken"):
        auth.register(session, data={"username": "Dupe", "email": "x@example.com", "password": PASSWORD})
    with pytest.raises(Conflict, match="username already taken"):  # both taken: only the username is named
        auth.register(session, data={"username": "Dupe", "email": "DUPE@example.com", "password": PASSWORD})


def test_registering_a_taken_address_looks_new_and_tells_the_owner(session: Session) -> None:
    """Defect: registration answered "email already registered", telling anyone which addresses have accounts."""
    owner = register(session, "owner")
    fresh = register(session, "newcomer")
    again = auth.register(session, data={"username": "prober", "email": "OWNER@example.com", "password": PASSWORD})
    assert again.id != owner.id and not again.is_verified and again.role == fresh.role
    assert auth.is_stand_in(again) and not auth.is_stand_in(fresh)
    # The owner is told, with no code; the stand-in has a code like any new account, mailed to nobody.
    (note,) = session.exec(
        select(EmailOutbox).where(EmailOutbox.to_address == owner.email, col(EmailOutbox.subject).contains("tried"))
    ).all()
    assert "already has an account" in note.body_text and not re.search(r"\d{6}", note.body_text)
    assert session.exec(select(EmailOutbox).where(EmailOutbox.to_address == again.email)).all() == []
    assert session.get(User, owner.id).username == "owner"  # type: ignore[union-attr]
    # Every later step answers as for the new account: a wrong code, a resend, the username, a sign-in.
    for user in (fresh, again):
        with pytest.raises(Invalid, match="4 attempts left"):
            auth.verify(session, data={"userId": user.id, "code": "000000"})
        auth.resend_code(session, data={"userId": user.id})
        with pytest.raises(Forbidden, match="verify your email"):
            sign_in.login(session, data={"identifier": user.username, "password": PASSWORD})
    with pytest.raises(Conflict, match="username already taken"):
        auth.register(session, data={"username": "prober", "email": "y@example.com", "password": PASSWORD})


def test_stand_ins_are_deleted_once_past_any_use(session: Session) -> None:
    """A stand-in's code reaches nobody, so it is never verified: the background job deletes it after a day, unless
    staff gave it a record; a real unverified account and a fresh stand-in stay."""
    owner = register(session, "holder")
    unverified = register(session, "slow_verifier")
    old, recent, kept = (
        auth.register(session, data={"username": f"probe_{n}", "email": owner.email, "password": PASSWORD})
        for n in range(3)
    )
    for user in (old, kept, unverified):
        user.created_at = utcnow() - timedelta(days=2)
        session.add(user)
    session.commit()
    f.project(session, kept, "Given by staff")
    assert auth.prune_stand_ins(session) == 1
    session.expire_all()
    assert session.get(User, old.id) is None
    assert all(session.get(User, u.id) is not None for u in (owner, unverified, recent, kept))


def test_verify_with_the_right_code(session: Session) -> None:
    user = register(session)
    auth.verify(session, data={"userId": user.id, "code": mailed_code(session, user)})
    assert session.get(User, user.id).is_verified  # type: ignore[union-attr]
    with pytest.raises(Conflict, match="already verified"):
        auth.verify(session, data={"userId": user.id, "code": "123456"})


def test_wrong_codes_count_down_and_the_fifth_kills_the_code(session: Session) -> None:
    user = register(session)
    code = mailed_code(session, user)
    wrong = "000000" if code != "000000" else "111111"
    for left in (4, 3, 2, 1):
        with pytest.raises(Invalid, match=f"Invalid verification code. {left} attempt"):
            auth.verify(session, data={"userId": user.id, "code": wrong})
    with pytest.raises(Invalid, match="No attempts left"):
        auth.verify(session, data={"userId": user.id, "code": wrong})
    with pytest.raises(Invalid, match="no longer accepted"):
        auth.verify(session, data={"userId": user.id, "code": code})  # even the right code is dead now


def test_expired_code_says_expired(session: Session) -> None:
    user = register(session)
    code = mailed_code(session, user)
    row = session.exec(select(VerificationCode).where(VerificationCode.user_id == user.id)).one()
    row.expires_at = utcnow() - timedelta(seconds=1)
    session.add(row)
    session.commit()
    with pytest.raises(Invalid, match="expired"):
        auth.verify(session, data={"userId": user.id, "code": code})


def test_resend_kills_the_old_code_and_is_rate_limited(session: Session) -> None:
    user = register(session)
    old = mailed_code(session, user)
    auth.resend_code(session, data={"userId": user.id})
    new = mailed_code(session, user)
    if old != new:
        with pytest.raises(Invalid, match="already been used or replaced"):
            auth.verify(session, data={"userId": user.id, "code": old})
    with pytest.raises(TooManyRequests, match="wait a minute"):
        auth.resend_code(session, data={"userId": user.id})
    auth.verify(session, data={"userId": user.id, "code": new})


def test_verify_and_resend_for_unknown_users(session: Session) -> None:
    with pytest.raises(Invalid, match="Invalid verification code"):
        auth.verify(session, data={"userId": "00000000-0000-0000-0000-000000000000", "code": "123456"})
    with pytest.raises(NotFound):
        auth.resend_code(session, data={"userId": "not-a-uuid"})


def test_login_by_username_or_email_any_case(session: Session) -> None:
    user = register(session, "Carla")
    auth.verify(session, data={"userId": user.id, "code": mailed_code(session, user)})
    for identifier in ("carla", "CARLA@example.com"):
        done = sign_in.login(session, data={"identifier": identifier, "password": PASSWORD}, ip="10.0.0.1")
        logged_in, issued = done.user, done.issued
        assert logged_in.id == user.id
        assert sessions.authenticate(session, issued.access_token)[0].id == user.id


def test_login_unverified_answers_with_user_id(session: Session) -> None:
    user = register(session)
    with pytest.raises(Forbidden) as err:
        sign_in.login(session, data={"identifier": "newclient", "password": PASSWORD})
    assert err.value.extra == {"userId": str(user.id), "requiresVerification": True}
    with pytest.raises(Unauthorized):  # the unverified state is not revealed without the password
        sign_in.login(session, data={"identifier": "newclient", "password": "wrong-password"})


def test_login_one_message_for_unknown_user_and_wrong_password(session: Session) -> None:
    register(session)
    with pytest.raises(Unauthorized) as unknown:
        sign_in.login(session, data={"identifier": "nobody", "password": PASSWORD})
    with pytest.raises(Unauthorized) as wrong:
        sign_in.login(session, data={"identifier": "newclient", "password": "not-the-password"})
    assert unknown.value.message == wrong.value.message == "Invalid credentials"
    with pytest.raises(Invalid, match="Please enter both"):
        sign_in.login(session, data={"identifier": " ", "password": ""})


def test_repeated_failures_are_throttled_per_account_and_address(session: Session) -> None:
    user = register(session)
    auth.verify(session, data={"userId": user.id, "code": mailed_code(session, user)})
    for _ in range(auth.LOGIN_FAILURES_PER_ACCOUNT_AND_IP):
        with pytest.raises(Unauthorized):
            sign_in.login(session, data={"identifier": "newclient", "password": "bad-password"}, ip="203.0.113.9")
    with pytest.raises(TooManyRequests):  # even the right password waits out the window from that address
        sign_in.login(session, data={"identifier": "newclient", "password": PASSWORD}, ip="203.0.113.9")
    # The real user elsewhere is not locked out.
    sign_in.login(session, data={"identifier": "newclient", "password": PASSWORD}, ip="198.51.100.7")


def test_username_and_email_of_one_account_share_the_failure_counts(session: Session) -> None:
    user = register(session)
    auth.verify(session, data={"userId": user.id, "code": mailed_code(session, user)})
    for identifier in ("newclient", "NewClient@example.com", "newclient", "newclient@example.com", "NEWCLIENT"):
        with pytest.raises(Unauthorized):
            sign_in.login(session, data={"identifier": identifier, "password": "bad-password"}, ip="203.0.113.9")
    for identifier in ("newclient", "newclient@example.com"):
        with pytest.raises(TooManyRequests):
            sign_in.login(session, data={"identifier": identifier, "password": PASSWORD}, ip="203.0.113.9")


def test_the_per_account_limit_spans_addresses_and_both_names(session: Session) -> None:
    user = register(session)
    auth.verify(session, data={"userId": user.id, "code": mailed_code(session, user)})
    for n in range(auth.LOGIN_FAILURES_PER_ACCOUNT - 1):
        with pytest.raises(Unauthorized):
            identifier = "newclient" if n % 2 else "newclient@example.com"
            sign_in.login(session, data={"identifier": identifier, "password": "bad-password"}, ip=f"198.51.100.{n}")
    # A successful sign-in is not a failure: it gives back the attempt it took.
    sign_in.login(session, data={"identifier": "newclient", "password": PASSWORD}, ip="192.0.2.50")
    with pytest.raises(Unauthorized):
        sign_in.login(
            session, data={"identifier": "newclient@example.com", "password": "bad-password"}, ip="192.0.2.51"
        )
    with pytest.raises(TooManyRequests):
        sign_in.login(session, data={"identifier": "newclient", "password": PASSWORD}, ip="192.0.2.52")


def test_unknown_and_overlong_identifiers_are_throttled_like_accounts(session: Session) -> None:
    for identifier in ("nobody", "x" * 400, "a" * 64 + "@" + "b" * 185 + ".com"):
        for _ in range(auth.LOGIN_FAILURES_PER_ACCOUNT_AND_IP):
            with pytest.raises(Unauthorized):
                sign_in.login(session, data={"identifier": identifier, "password": "bad-password"}, ip="203.0.113.10")
        with pytest.raises(TooManyRequests):
            sign_in.login(
                session, data={"identifier": identifier.upper(), "password": "bad-password"}, ip="203.0.113.10"
            )


def test_refresh_rotates_and_reuse_revokes_the_family(session: Session) -> None:
    user = register(session)
    auth.verify(session, data={"userId": user.id, "code": mailed_code(session, user)})
    first = sign_in.login(session, data={"identifier": "newclient", "password": PASSWORD}).issued
    _, second = sessions.rotate(session, first.refresh_token)
    assert second.family_id == first.family_id and second.refresh_token != first.refresh_token
    with pytest.raises(Unauthorized):
        sessions.rotate(session, first.refresh_token)  # reuse of a rotated token
    with pytest.raises(Unauthorized):
        sessions.rotate(session, second.refresh_token)  # ...revoked the whole family
    with pytest.raises(Unauthorized):
        sessions.authenticate(session, second.access_token)


def test_idle_sessions_expire_on_the_server(session: Session) -> None:
    user = register(session)
    auth.verify(session, data={"userId": user.id, "code": mailed_code(session, user)})
    issued = sign_in.login(session, data={"identifier": "newclient", "password": PASSWORD}).issued
    row = session.exec(select(RefreshToken).where(RefreshToken.family_id == issued.family_id)).one()
    row.last_used_at = utcnow() - timedelta(hours=5)  # clients idle out after 4 hours
    session.add(row)
    session.commit()
    with pytest.raises(Unauthorized, match="Session expired"):
        sessions.authenticate(session, issued.access_token)


def test_logout_revokes_server_side(session: Session) -> None:
    user = register(session)
    auth.verify(session, data={"userId": user.id, "code": mailed_code(session, user)})
    issued = sign_in.login(session, data={"identifier": "newclient", "password": PASSWORD}).issued
    sessions.end(session, access_token=issued.access_token, refresh_token=None)
    with pytest.raises(Unauthorized):
        sessions.authenticate(session, issued.access_token, allow_expired_jwt=True)
    with pytest.raises(Unauthorized):
        sessions.rotate(session, issued.refresh_token)
