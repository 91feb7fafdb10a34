"""Password recovery by e-mailed link: the owner of an address can always take its account back.

A link is random, single-use, valid 30 minutes and stored only as a keyed hash; sending a newer link kills the older
ones. Using it sets the new password, ends every session of the account, and marks the address verified (only its
owner could open the link). The request answers the same whether or not an account exists.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.errors import BadRequest, Invalid
from app.core.security import hash_password, new_token, password_problem, token_digest
from app.models.base import utcnow
from app.models.user import PasswordResetToken, User, VerificationCode
from app.services import audit, mail, ratelimit, sessions
from app.services.users import normalize_email

LINK_TTL = timedelta(minutes=30)
REQUEST_WINDOW = timedelta(hours=1)
REQUESTS_PER_ADDRESS = 10  # per client IP address
REQUESTS_PER_ACCOUNT = 5  # per e-mail address asked about, whether or not it has an account

SENT = "If an account exists for that e-mail, we've sent a link to reset your password."
INVALID_EMAIL = "Please enter a valid email address."
TOO_MANY = "Too many password reset requests. Please try again later."
UNKNOWN_LINK = "This password reset link is not valid. Please request a new one from the sign-in page."
USED_LINK = (
    "This password reset link has already been used or replaced by a newer one. "
    "Please use the latest link we sent, or request a new one."
)
DONE = "Your password has been reset. Please sign in with your new password."
EXPIRED_LINK = "This password reset link has expired (links last 30 minutes). Please request a new one."

Reason = Literal["forgot", "staff_reset", "account_created"]


def _digest(token: str) -> str:
    return token_digest(f"password-reset:{token}")


def _kill_links(s: Session, user_id: object) -> None:
    s.exec(
        update(PasswordResetToken)
        .where(col(PasswordResetToken.user_id) == user_id, col(PasswordResetToken.used_at).is_(None))
        .values(used_at=utcnow())
    )


def _letter(user: User, link: str, reason: Reason) -> tuple[str, str]:
    name = user.first_name or user.username
    company = settings.company_name
    if reason == "account_created":
        subject = f"Your {company} account: choose a password"
        opening = f"An account has been created for you at {company} (username: {user.username})."
        action = "To choose your password and sign in, open this link"
    elif reason == "staff_reset":
        subject = f"Reset your {company} password"
        opening = f"A member of the {company} team started a password reset for your account."
        action = "To choose a new password, open this link"
    else:
        subject = f"Reset your {company} password"
        opening = f"Someone (we hope you) asked to reset the password of your {company} account."
        action = "To choose a new password, open this link"
    text = (
        f"Hello {name},\n\n{opening}\n\n{action} within 30 minutes:\n{link}\n\n"
        "The link works once. If you did not ask for this, you can ignore this e-mail: your password stays as it "
        "is.\n"
    )
    return subject, text


def send_link(s: Session, user: User, *, reason: Reason = "forgot") -> None:
    """Kill the user's earlier links, store a new one and e-mail it; commits."""
    _kill_links(s, user.id)
    token = new_token()
    s.add(PasswordResetToken(user_id=user.id, token=_digest(token), expires_at=utcnow() + LINK_TTL))
    subject, text = _letter(user, f"{settings.public_url}/reset-password?token={token}", reason)
    mail.enqueue(s, to=user.email, subject=subject, text=text)
    s.commit()


def request_reset(s: Session, *, email: str, ip: str | None = None) -> str:
    """Send a reset link if the address has an account; the answer (and the work done) never tells which."""
    try:
        address = normalize_email(email or "")
    except ValueError:
        raise Invalid(INVALID_EMAIL, errors={"email": INVALID_EMAIL}) from None
    if ip:
        ratelimit.hit(s, key=f"reset:ip:{ip}", limit=REQUESTS_PER_ADDRESS, window=REQUEST_WINDOW, message=TOO_MANY)
    ratelimit.hit(s, key=f"reset:email:{address}", limit=REQUESTS_PER_ACCOUNT, window=REQUEST_WINDOW, message=TOO_MANY)
    user = s.exec(select(User).where(User.email == address)).first()
    if user is None:
        # The same statement and commit as a real request, so the answer takes the same time.
        _kill_links(s, None)
        s.commit()
        return SENT
    send_link(s, user)
    return SENT


def _link(s: Session, token: str) -> PasswordResetToken:
    """The link's row if it can still be used; otherwise a 400 saying why and what to do."""
    row = s.exec(select(PasswordResetToken).where(PasswordResetToken.token == _digest(token or ""))).first()
    if row is None or not token:
        raise BadRequest(UNKNOWN_LINK)
    if row.used_at is not None:
        raise BadRequest(USED_LINK)
    if row.expires_at <= utcnow():
        raise BadRequest(EXPIRED_LINK)
    return row


def check_link(s: Session, *, token: str) -> None:
    """Raise the reason a link cannot be used (the reset page says so before asking for a password)."""
    _link(s, token)


def reset_password(s: Session, *, token: str, new_password: str, ip: str | None = None) -> User:
    """Use a link: set the password, verify the address, end every session; the link dies."""
    row = _link(s, token)
    if problem := password_problem(new_password or ""):
        message = problem.replace("Password", "New password", 1)
        raise Invalid(message, errors={"newPassword": message})
    # Consume atomically: of two parallel uses of one link, exactly one changes the password.
    used = s.exec(
        update(PasswordResetToken)
        .where(col(PasswordResetToken.id) == row.id, col(PasswordResetToken.used_at).is_(None))
        .values(used_at=utcnow())
    )
    if used.rowcount != 1:
        s.rollback()
        raise BadRequest(USED_LINK)
    user = s.get(User, row.user_id)
    assert user is not None  # the row cascades with its user
    user.password_hash = hash_password(new_password)
    user.is_verified = True  # only the address's owner could open the link
    s.add(user)
    _kill_links(s, user.id)
    s.exec(update(VerificationCode).where(col(VerificationCode.user_id) == user.id).values(is_used=True))
    audit.record(s, actor=user, action="auth.password_reset", entity=user, ip=ip)
    s.commit()
    sessions.revoke_all(s, user.id)  # whoever held the old password, or a session, is signed out
    s.refresh(user)
    return user
