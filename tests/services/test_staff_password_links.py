"""Staff never choose a password for someone (issue 12, point 1): accounts they create get an e-mailed invitation to
set one, and "reset password" e-mails a reset link of the same kind as "Forgot password?" sends."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import update
from sqlmodel import Session, col, select

from app.core.errors import BadRequest, Forbidden, TooManyRequests, Unauthorized
from app.core.security import verify_password
from app.models.base import utcnow
from app.models.enums import EmployeeType, Role
from app.models.system import AuditLog, EmailOutbox
from app.models.user import PasswordResetToken, RefreshToken, User
from app.services.accounts import admin_users, password_reset, sessions, sign_in
from tests import factories as f

NEW_PASSWORD = "Chosen-by-me-42"


def _mails(s: Session, email: str) -> list[EmailOutbox]:
    return list(s.exec(select(EmailOutbox).where(EmailOutbox.to_address == email).order_by(col(EmailOutbox.id))))


def _token(msg: EmailOutbox) -> str:
    found = re.search(r"/reset-password\?token=([A-Za-z0-9_\-]+)", msg.body_text)
    assert found, msg.body_text
    return found.group(1)


def _link_row(s: Session, user: User) -> PasswordResetToken:
    live = col(PasswordResetToken.used_at).is_(None)
    return s.exec(select(PasswordResetToken).where(PasswordResetToken.user_id == user.id, live)).one()


def _actions(s: Session, user: User) -> list[str]:
    return list(s.exec(select(AuditLog.action).where(AuditLog.entity_id == str(user.id))))


def test_an_account_created_without_a_password_gets_a_72_hour_invitation(session: Session) -> None:
    admin = f.user(session, "inv_admin", role=Role.admin)
    created = admin_users.create_staff_or_client(
        session,
        actor=admin,
        data={"username": "newbie", "email": "newbie@example.com", "role": "employee", "employee_type": "developer"},
    )
    assert created.password_hash is None
    [mail] = _mails(session, "newbie@example.com")
    assert "set your password" in mail.subject and "username: newbie" in mail.body_text
    assert "within 72 hours" in mail.body_text
    row = _link_row(session, created)
    assert timedelta(hours=71, minutes=59) < row.expires_at - utcnow() <= timedelta(hours=72)
    token = _token(mail)
    assert password_reset.check_link(session, token=token) is True  # the page says "Set your password"
    with pytest.raises(Unauthorized):  # no password yet: nobody can sign in as the new account
        sign_in.login(session, data={"identifier": "newbie", "password": "Any-guess-123"})
    password_reset.reset_password(session, data={"token": token, "newPassword": NEW_PASSWORD})
    sign_in.login(session, data={"identifier": "newbie", "password": NEW_PASSWORD})
    assert "user.create" in _actions(session, created)


def test_a_client_created_by_sales_gets_the_invitation_too(session: Session) -> None:
    lead = f.user(session, "inv_lead", role=Role.employee, employee_type=EmployeeType.sales_lead)
    client = admin_users.create_client(session, actor=lead, data={"username": "acme", "email": "acme@example.com"})
    assert client.role == Role.client and client.password_hash is None
    [mail] = _mails(session, "acme@example.com")
    assert "within 72 hours" in mail.body_text


def test_an_api_client_may_still_choose_the_password_and_nothing_is_mailed(session: Session) -> None:
    admin = f.user(session, "api_admin", role=Role.admin)
    made = admin_users.create_client(
        session, actor=admin, data={"username": "chosen", "email": "chosen@example.com", "password_hash": NEW_PASSWORD}
    )
    assert verify_password(NEW_PASSWORD, made.password_hash or "")
    assert _mails(session, "chosen@example.com") == []
    assert session.exec(select(PasswordResetToken).where(PasswordResetToken.user_id == made.id)).all() == []


def test_a_refused_creation_mails_nobody(session: Session) -> None:
    lead = f.user(session, "inv_lead2", role=Role.employee, employee_type=EmployeeType.sales_lead)
    with pytest.raises(Forbidden):
        admin_users.create_staff_or_client(
            session,
            actor=lead,
            data={"username": "sneaky", "email": "sneaky@example.com", "role": "employee", "employee_type": "cto"},
        )
    assert _mails(session, "sneaky@example.com") == []


def test_staff_reset_mails_a_24_hour_link_and_changes_nothing_until_it_is_used(session: Session) -> None:
    support = f.user(session, "cs_agent", role=Role.employee, employee_type=EmployeeType.customer_support)
    client = f.user(session, "locked_out")
    sessions.start(session, client)
    returned = admin_users.send_reset_link(session, actor=support, user_id=client.id, ip="10.1.1.1")
    assert returned.id == client.id
    [mail] = _mails(session, client.email)
    assert "A member of the" in mail.body_text and "within 24 hours" in mail.body_text
    assert timedelta(hours=23, minutes=59) < _link_row(session, client).expires_at - utcnow() <= timedelta(hours=24)
    # The old password and sessions stay until the owner chooses a new one.
    sign_in.login(session, data={"identifier": "locked_out", "password": f.PASSWORD})
    live = select(RefreshToken).where(RefreshToken.user_id == client.id, RefreshToken.is_revoked == False)  # noqa: E712
    assert len(session.exec(live).all()) == 2
    assert password_reset.check_link(session, token=_token(mail)) is False  # "Choose a new password"
    password_reset.reset_password(session, data={"token": _token(mail), "newPassword": NEW_PASSWORD})
    assert session.exec(live).all() == []
    assert "user.reset_link_sent" in _actions(session, client)


def test_a_newer_staff_link_replaces_the_older_one(session: Session) -> None:
    admin = f.user(session, "relink_admin", role=Role.admin)
    client = f.user(session, "relinked")
    admin_users.send_reset_link(session, actor=admin, user_id=client.id)
    admin_users.send_reset_link(session, actor=admin, user_id=client.id)
    first, second = _mails(session, client.email)
    with pytest.raises(BadRequest, match="replaced by a newer one"):
        password_reset.reset_password(session, data={"token": _token(first), "newPassword": NEW_PASSWORD})
    password_reset.reset_password(session, data={"token": _token(second), "newPassword": NEW_PASSWORD})


def test_an_expired_staff_link_says_how_to_get_another(session: Session) -> None:
    admin = f.user(session, "exp_admin", role=Role.admin)
    client = f.user(session, "expired_one")
    admin_users.send_reset_link(session, actor=admin, user_id=client.id)
    session.exec(update(PasswordResetToken).values(expires_at=utcnow() - timedelta(seconds=1)))  # type: ignore[call-overload]
    # Backdate the creation too, as a real 24-hour link would be when it expires.
    session.exec(update(PasswordResetToken).values(created_at=utcnow() - timedelta(hours=24, seconds=1)))  # type: ignore[call-overload]
    with pytest.raises(BadRequest, match=r'expired\. Please request a new one with "Forgot password\?"'):
        password_reset.check_link(session, token=_token(_mails(session, client.email)[0]))


@pytest.mark.parametrize(
    ("actor_kind", "target_kind"),
    [
        ("customer_support", "employee"),  # clients:reset_password covers clients only
        ("developer", "client"),  # no reset permission at all
        ("hr_with_reset", "founder"),  # the founder holds permissions HR lacks: that would be a takeover
        ("hr_with_reset", "admin"),
    ],
)
def test_nobody_sends_a_link_for_an_account_they_may_not_reset(
    session: Session, actor_kind: str, target_kind: str
) -> None:
    actors = {
        "customer_support": {"role": Role.employee, "employee_type": EmployeeType.customer_support},
        "developer": {"role": Role.employee, "employee_type": EmployeeType.developer},
        "hr_with_reset": {
            "role": Role.employee,
            "employee_type": EmployeeType.hr,
            "extra_permissions": ["users:reset_password"],
        },
    }
    targets = {
        "employee": {"role": Role.employee, "employee_type": EmployeeType.developer},
        "client": {},
        "founder": {"role": Role.employee, "employee_type": EmployeeType.founder},
        "admin": {"role": Role.admin},
    }
    actor = f.user(session, f"a_{actor_kind}", **actors[actor_kind])  # type: ignore[arg-type]
    target = f.user(session, f"t_{target_kind}", **targets[target_kind])  # type: ignore[arg-type]
    with pytest.raises(Forbidden):
        admin_users.send_reset_link(session, actor=actor, user_id=target.id)
    assert _mails(session, target.email) == []
    assert session.exec(select(PasswordResetToken).where(PasswordResetToken.user_id == target.id)).all() == []


def test_staff_links_to_one_account_are_limited(session: Session) -> None:
    admin = f.user(session, "flood_admin", role=Role.admin)
    client = f.user(session, "flooded")
    for _ in range(admin_users.LINKS_PER_ACCOUNT):
        admin_users.send_reset_link(session, actor=admin, user_id=client.id)
    with pytest.raises(TooManyRequests):
        admin_users.send_reset_link(session, actor=admin, user_id=client.id)
    assert len(_mails(session, client.email)) == admin_users.LINKS_PER_ACCOUNT
