"""Password recovery by e-mailed link: the owner of an address can always take its account back.

A link is random, single-use and stored only as a keyed hash; sending a newer link kills the older ones. Using it sets
the new password, ends every session of the account, and marks the address verified (only its owner could open the
link; a never-verified account someone registered loses what they typed, see `_squatted`). The request answers the
same, and does the same work, whether or not an account exists: an address without one gets a note instead of a link.

Links are of one kind whoever starts them; only their lifetime and wording differ (`LINK_TTLS`): 30 minutes when the
owner asked (they are waiting for it), 24 hours when staff started a reset, 72 hours for the invitation of an account
staff created (the new user may not read mail the same day).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field
from sqlalchemy import ColumnElement, insert, literal, update
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.errors import BadRequest, Invalid
from app.core.net import network
from app.core.security import (
    hash_password,
    new_token,
    password_problem,
    token_digest,
)
from app.models.base import utcnow
from app.models.system import AuditLog
from app.models.user import PasswordResetToken, User, VerificationCode
from app.services.accounts import sessions, users
from app.services.accounts.account_fields import NewPassword
from app.services.platform import audit, letters, mail, ratelimit
from app.services.platform.schema import Body, Email, Verbatim, parse, required

LINK_TTL = timedelta(minutes=30)  # a link the owner asked for
STAFF_RESET_TTL = timedelta(hours=24)
INVITE_TTL = timedelta(hours=72)
REQUEST_WINDOW = timedelta(hours=1)
REQUESTS_PER_ADDRESS = 10  # per client IP address
REQUESTS_PER_ACCOUNT = 5  # per e-mail address asked about, whether or not it has an account

STAFF_CREATED = ("user.create", "client.create")  # audit actions of accounts staff created

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
EXPIRED_LONG_LINK = (
    'This link has expired. Please request a new one with "Forgot password?" on the sign-in page, '
    "or ask us to send another."
)
DONE_FIRST = "Your password has been set. Please sign in with it."


class ResetRequest(Body):
    """The address to send a "Forgot password?" link to."""

    model_config = ConfigDict(json_schema_extra=required("email"))

    email: Annotated[str | None, Email(INVALID_EMAIL)] = Field(None, validate_default=True)


class PasswordReset(Body):
    """An e-mailed link's token and the new password. The link is judged first (a dead link is a 400 whatever the
    password), so the password's rules are the service's: at least 8 characters, at most 72 bytes."""

    model_config = ConfigDict(populate_by_name=True)

    token: Verbatim = Field("", description="The token from the e-mailed link.")
    new_password: NewPassword = ""


Reason = Literal["forgot", "staff_reset", "account_created"]
LINK_TTLS: dict[str, timedelta] = {"forgot": LINK_TTL, "staff_reset": STAFF_RESET_TTL, "account_created": INVITE_TTL}


def _lifetime(ttl: timedelta) -> str:
    hours = int(ttl.total_seconds() // 3600)
    return f"{hours} hours" if hours >= 2 else f"{int(ttl.total_seconds() // 60)} minutes"


def _digest(token: str) -> str:
    return token_digest(f"password-reset:{token}")


def _kill_links(s: Session, user_id: object) -> None:
    s.exec(
        update(PasswordResetToken)
        .where(col(PasswordResetToken.user_id) == user_id, col(PasswordResetToken.used_at).is_(None))
        .values(used_at=utcnow())
    )


def _letter(s: Session, user: User, link: str, reason: Reason) -> mail.Letter:
    name = user.first_name or user.username
    within = _lifetime(LINK_TTLS[reason])
    return letters.render(
        s, "password_link", reason=reason, name=name, username=user.username, link=link, within=within
    )


def _store_link(s: Session, account: ColumnElement[bool], reason: Reason) -> str:
    """Kill the earlier links of the account `account` selects and store a new one for it: the same two statements
    whether or not it selects any (then nothing changes), so a request for an unknown address does the same work."""
    ours = select(col(User.id)).where(account)
    s.exec(
        update(PasswordResetToken)
        .where(col(PasswordResetToken.user_id).in_(ours), col(PasswordResetToken.used_at).is_(None))
        .values(used_at=utcnow())
    )
    token = new_token()
    table = PasswordResetToken.__table__.c  # type: ignore[attr-defined]
    values = {"token": _digest(token), "expires_at": utcnow() + LINK_TTLS[reason], "created_at": utcnow()}
    columns = [literal(value, table[name].type).label(name) for name, value in values.items()]
    s.exec(insert(PasswordResetToken).from_select(["user_id", *values], select(col(User.id), *columns).where(account)))
    return token


def _url(token: str) -> str:
    return f"{settings.public_url}/reset-password?token={token}"


def send_link(s: Session, user: User, *, reason: Reason = "forgot") -> None:
    """Kill the user's earlier links, store a new one and e-mail it; commits. Staff's links (an invitation, a reset
    they started) are not the public's: only "forgot" counts against the outbox's public caps."""
    token = _store_link(s, col(User.id) == user.id, reason)
    mail.enqueue(s, to=user.email, letter=_letter(s, user, _url(token), reason), public=reason == "forgot")
    s.commit()


def request_reset(s: Session, *, data: ResetRequest | Mapping[str, Any], ip: str | None = None) -> str:
    """Mail the address a reset link, or, when it has no account, a note saying so; the answer and the work done
    (the same statements, one mail through the outbox's public caps, one commit) never tell which."""
    address = parse(ResetRequest, data).email or ""  # required: a blank one is refused by the model
    if ip:
        ratelimit.hit(
            s, key=f"reset:ip:{network(ip)}", limit=REQUESTS_PER_ADDRESS, window=REQUEST_WINDOW, message=TOO_MANY
        )
    ratelimit.hit(s, key=f"reset:email:{address}", limit=REQUESTS_PER_ACCOUNT, window=REQUEST_WINDOW, message=TOO_MANY)
    user = s.exec(select(User).where(User.email == address)).first()
    token = _store_link(s, col(User.email) == address, "forgot")
    if user is not None:
        letter = _letter(s, user, _url(token), "forgot")
    else:
        letter = letters.render(s, "password_reset_no_account", address=address)
    mail.enqueue(s, to=address, letter=letter, public=True)
    s.commit()
    return SENT


def _link(s: Session, token: str) -> PasswordResetToken:
    """The link's row if it can still be used; otherwise a 400 saying why and what to do."""
    row = s.exec(select(PasswordResetToken).where(PasswordResetToken.token == _digest(token or ""))).first()
    if row is None or not token:
        raise BadRequest(UNKNOWN_LINK)
    if row.used_at is not None:
        raise BadRequest(USED_LINK)
    if row.expires_at <= utcnow():
        # Links staff sent live longer than the 30 minutes the sign-in page's link promises.
        long_lived = row.expires_at - row.created_at > LINK_TTL + timedelta(minutes=1)
        raise BadRequest(EXPIRED_LONG_LINK if long_lived else EXPIRED_LINK)
    return row


def check_link(s: Session, *, token: str) -> bool:
    """Raise the reason a link cannot be used (the reset page says so before asking for a password); else whether
    it sets the account's first password (an invitation, or an account that only used Google)."""
    row = _link(s, token)
    user = s.get(User, row.user_id)
    return user is not None and user.password_hash is None


def _squatted(s: Session, user: User) -> bool:
    """Registered through the public form and never verified: its password and profile were typed by whoever knew
    the address, not necessarily its owner. An account staff created (an invitation) keeps what staff typed."""
    if user.is_verified:
        return False
    by_staff = select(AuditLog.id).where(
        col(AuditLog.entity_type) == User.__tablename__,
        col(AuditLog.entity_id) == str(user.id),
        col(AuditLog.action).in_(STAFF_CREATED),
    )
    return s.exec(by_staff).first() is None


def reset_password(s: Session, *, data: PasswordReset | Mapping[str, Any], ip: str | None = None) -> User:
    """Use a link: set the password, verify the address, end every session; the link dies."""
    form = parse(PasswordReset, data)
    new_password = form.new_password
    row = _link(s, form.token)
    if problem := password_problem(new_password):
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
    if _squatted(s, user):
        # Opening the link proves the address; whoever registered it never did, so their profile goes too.
        users.take_back(s, user, action="auth.password_reset_claimed_unverified", ip=ip)
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
