"""Registration with e-mailed codes, verification, and sign-in with throttling.

Messages carry the words the UI keys on ("invalid", "expired", "already verified") and nothing that tells an
outsider whether an account exists.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping
from datetime import timedelta
from typing import Annotated, Any

from pydantic import BeforeValidator, ConfigDict, Field
from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.core import metrics
from app.core.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from app.core.net import network
from app.core.permissions import STAFF_ROLES, Role
from app.core.security import token_digest, verify_password
from app.models.base import utcnow
from app.models.billing import Invoice
from app.models.commerce import Order
from app.models.project import Project
from app.models.user import KnownSignInAddress, User, VerificationCode
from app.services.accounts.account_fields import AccountEmail, Company, FirstName, LastName, Password, Phone, Username
from app.services.accounts.users import (
    create_user,
    get_user_by_identifier,
)
from app.services.platform import audit, letters, mail, ratelimit
from app.services.platform.schema import Body, Verbatim, parse, problem, required

CODE_TTL = timedelta(minutes=15)
MAX_CODE_ATTEMPTS = 5
LOGIN_WINDOW = timedelta(minutes=15)
# Failures are counted per account *and address*, so an attacker elsewhere cannot lock a real user out; the looser
# per-account limit caps guessing spread over many addresses (20 per 15 minutes: at most 80 password checks an hour
# against one account, however many addresses attack it), and every lock lasts only the 15-minute window. That
# per-account limit would also lock the owner out, so it does not apply from an address the account has signed in
# from with its password in the last KNOWN_FOR: there only the per-address limits count.
LOGIN_FAILURES_PER_ACCOUNT_AND_IP = 5
LOGIN_FAILURES_PER_ACCOUNT = 20
LOGIN_FAILURES_PER_IP = 30
KNOWN_FOR = timedelta(days=90)

INVALID_CREDENTIALS = "Invalid credentials"
ALREADY_VERIFIED = "This account is already verified. Please sign in."
TOO_MANY_LOGINS = "Too many failed sign-in attempts. Please wait 15 minutes and try again."
TOO_MANY_CODES = "Too many codes requested. Please try again later."
INVALID_CODE = "Invalid verification code"
CODE_FORMAT = "Enter the 6-digit code from the e-mail"


def _code(value: Any) -> str:
    if value is not None and not isinstance(value, str):
        raise ValueError("Must be text")
    code = (value or "").strip()
    if len(code) != 6 or not code.isdigit():
        raise problem(CODE_FORMAT, summary=INVALID_CODE)
    return code


def _user_ref(value: Any) -> Any:
    # The account an e-mailed code belongs to, as the page keeps it (text) or a caller holds it (a UUID); an id that
    # names no account is the service's to word (verifying: "Invalid verification code"; resending: not found).
    if value is None or isinstance(value, str | uuid.UUID):
        return str(value or "")
    raise ValueError("Must be text")


# The account an e-mailed code was sent to (the spec's `userId`).
UserRef = Annotated[str, BeforeValidator(_user_ref), Field(alias="userId", description="The account's id (a UUID).")]


class RegisterCreate(Body):
    """A new client account. One refused field answers with its own words; several with "Please check the
    information and try again". A name or address already taken is the service's answer (409)."""

    model_config = ConfigDict(json_schema_extra=required("username", "email", "password"))

    username: Username = Field("", validate_default=True)
    email: AccountEmail = Field(None, validate_default=True)
    password: Password = Field("", validate_default=True)
    first_name: FirstName = None
    last_name: LastName = None
    company: Company = None
    phone: Phone = None


class CodeCheck(Body):
    """The e-mailed 6-digit code for an account."""

    model_config = ConfigDict(populate_by_name=True)

    user_id: UserRef = ""
    code: Annotated[
        str, BeforeValidator(_code), Field(description="The 6 digits from the e-mail (spaces around are ignored).")
    ] = Field("", validate_default=True)


class CodeResend(Body):
    """A new code for an account still unverified."""

    model_config = ConfigDict(populate_by_name=True)

    user_id: UserRef = ""


class SignIn(Body):
    """Username or e-mail, and the password, as typed; both are needed (the service says so)."""

    identifier: Verbatim = ""
    password: Verbatim = ""


def _code_digest(user_id: uuid.UUID, code: str) -> str:
    return token_digest(f"verify:{user_id}:{code}")


def _store_code(s: Session, user: User) -> str:
    s.exec(update(VerificationCode).where(col(VerificationCode.user_id) == user.id).values(is_used=True))
    code = f"{secrets.randbelow(10**6):06d}"
    s.add(VerificationCode(user_id=user.id, code=_code_digest(user.id, code), expires_at=utcnow() + CODE_TTL))
    return code


def issue_code(s: Session, user: User) -> str:
    """Kill the user's earlier codes, store a new one and e-mail it (in the caller's transaction); commits.

    A stand-in account (see `register`) gets its code stored and mailed to nobody: its address is no mailbox."""
    code = _store_code(s, user)
    if not is_stand_in(user):
        letter = letters.render(s, "verification_code", name=user.first_name or user.username, code=code)
        mail.enqueue(s, to=user.email, letter=letter, public=True)
    s.commit()
    return code


# RFC 2606 reserves .example: no such address is anyone's mailbox, and none can be typed into the form and verified.
STAND_IN_DOMAIN = "unclaimed.example"


def is_stand_in(user: User) -> bool:
    """A stand-in account: made by a registration of an address that already had an account."""
    return user.email.endswith(f"@{STAND_IN_DOMAIN}")


STAND_IN_KEPT = timedelta(days=1)  # long past its code's 15 minutes: nobody can verify it any more


def prune_stand_ins(s: Session, older_than: timedelta = STAND_IN_KEPT) -> int:
    """Delete the stand-in accounts past any use (their codes reach nobody, so none is ever verified), so they do not
    pile up among the clients staff see; one that staff gave a project, an invoice or an order is kept. Commits."""
    kept = [col(User.id).not_in(select(model.client_id)) for model in (Project, Invoice, Order)]
    done = s.exec(
        delete(User).where(
            col(User.email).endswith(f"@{STAND_IN_DOMAIN}"),
            col(User.is_verified).is_(False),
            col(User.created_at) < utcnow() - older_than,
            *kept,
        )
    )
    s.commit()
    return int(done.rowcount or 0)


def _tell_owner(s: Session, user: User, address: str) -> None:
    """The register step of a stand-in, in place of the code: the same statements, and a mail to the owner."""
    _store_code(s, user)
    mail.enqueue(s, to=address, letter=letters.render(s, "registration_attempt"), public=True)
    s.commit()


def register(s: Session, *, data: RegisterCreate | Mapping[str, Any], ip: str | None = None) -> User:
    """Create an unverified client and e-mail a 6-digit code.

    An address that already has an account gets the same answer, so registering tells nobody whether it has one: a
    stand-in account is made in its place (an unverified client with the name, password and profile as typed and an
    address that is no mailbox, whose code goes to nobody), the same work is done, and the address's owner is told
    by mail instead. The stand-in behaves as a new account would on every later step (verify, resend, sign-in with
    its username, the username taken). So callers answer with the address the visitor typed (the form's `email`),
    never the returned account's.
    """
    form = parse(RegisterCreate, data)
    if ip:
        ratelimit.hit(
            s,
            key=f"register:ip:{network(ip)}",
            limit=10,
            window=timedelta(hours=1),
            message="Too many registrations from this address. Please try again later.",
        )
    address = form.email or ""
    taken = s.exec(select(User.id).where(User.email == address)).first() is not None
    fields = form.model_dump(exclude={"email"})
    for _ in range(2):  # a second pass only when the address was registered between the check and the insert
        try:
            email = f"taken-{uuid.uuid4().hex}@{STAND_IN_DOMAIN}" if taken else address
            user = create_user(s, **fields, email=email, role=Role.client, is_verified=False)
            break
        except Conflict as exc:
            if "username" in exc.errors or taken:
                # A username is a chosen handle, not an address: a taken one may say so (the UI keys on these
                # words).
                raise Conflict(exc.errors.get("username", exc.message), errors=exc.errors) from exc
            taken = True
    if taken:
        _tell_owner(s, user, address)
    else:
        issue_code(s, user)
    return user


def is_verified(s: Session, user_id: str) -> bool:
    """Whether the account a registration's `?verify=` names is verified already (a reload after verifying shows
    that, not the code form again)."""
    user = _get_user(s, user_id)
    return bool(user and user.is_verified)


def verify(s: Session, *, data: CodeCheck | Mapping[str, Any]) -> User:
    """Check a code: five wrong guesses kill it; expired, used and already-verified each say so."""
    check = parse(CodeCheck, data)
    code = check.code
    user = _get_user(s, check.user_id)
    if user is None:
        raise Invalid(INVALID_CODE)
    if user.is_verified:
        raise Conflict(ALREADY_VERIFIED)
    latest = s.exec(
        select(VerificationCode).where(VerificationCode.user_id == user.id).order_by(col(VerificationCode.id).desc())
    ).first()
    if latest is None:
        raise Invalid("Invalid verification code. Please request a new one.")
    if latest.is_used:
        raise Invalid("This verification code has already been used. Please request a new one.")
    if latest.attempts >= MAX_CODE_ATTEMPTS:
        raise Invalid("Too many incorrect attempts: this code is no longer accepted. Please request a new one.")
    if latest.expires_at <= utcnow():
        raise Invalid("This verification code has expired. Please request a new one.")
    # Each comparison first takes an attempt in one conditional UPDATE (committed before comparing), so parallel
    # guesses cannot share the five: reading the counter and writing it back let forty guesses through.
    attempts = s.exec(
        update(VerificationCode)
        .where(
            col(VerificationCode.id) == latest.id,
            col(VerificationCode.attempts) < MAX_CODE_ATTEMPTS,
            col(VerificationCode.is_used).is_(False),
        )
        .values(attempts=col(VerificationCode.attempts) + 1)
        .returning(col(VerificationCode.attempts))
    ).scalar_one_or_none()
    s.commit()
    if attempts is None:  # a parallel request used the code or took its last attempt
        s.refresh(latest)
        if latest.is_used:
            raise Invalid("This verification code has already been used. Please request a new one.")
        raise Invalid("Too many incorrect attempts: this code is no longer accepted. Please request a new one.")
    digest = _code_digest(user.id, code)
    if not secrets.compare_digest(latest.code, digest):
        replaced = s.exec(
            select(VerificationCode.id).where(VerificationCode.user_id == user.id, VerificationCode.code == digest)
        ).first()
        if replaced is not None:
            raise Invalid("This verification code has already been used or replaced. Please use the latest code.")
        left = MAX_CODE_ATTEMPTS - attempts
        if left == 0:
            raise Invalid("Invalid verification code. No attempts left: please request a new one.")
        raise Invalid(f"Invalid verification code. {left} attempt{'s' if left != 1 else ''} left.")
    # Only one request may turn the code into a verified account, however many send it at once.
    used = s.exec(
        update(VerificationCode)
        .where(col(VerificationCode.id) == latest.id, col(VerificationCode.is_used).is_(False))
        .values(is_used=True)
    )
    if used.rowcount != 1:
        s.rollback()
        raise Invalid("This verification code has already been used. Please request a new one.")
    user.is_verified = True
    s.add(user)
    s.commit()
    return user


def resend_code(s: Session, *, data: CodeResend | Mapping[str, Any], ip: str | None = None) -> None:
    """Send a fresh code (the old one dies); at most one a minute and five an hour per account."""
    user = _get_user(s, parse(CodeResend, data).user_id)
    if user is None:
        raise NotFound("User not found")
    if user.is_verified:
        raise Conflict(ALREADY_VERIFIED)
    key = f"resend:user:{user.id}"
    limits = [
        ratelimit.Limit(key, 1, timedelta(minutes=1), "Please wait a minute before requesting another code."),
        ratelimit.Limit(key, 5, timedelta(hours=1), TOO_MANY_CODES),
    ]
    if ip:
        limits.append(ratelimit.Limit(f"resend:ip:{network(ip)}", 20, timedelta(hours=1), TOO_MANY_CODES))
    ratelimit.acquire(s, *limits)
    issue_code(s, user)


def failure_limits(s: Session, user: User | None, account: str, ip: str | None) -> list[ratelimit.Limit]:
    """The counts a failed sign-in step adds to (a wrong password, or a wrong second-factor code: one budget), the
    per-account-and-address one first (a success clears it)."""
    per_address = ratelimit.Limit(
        f"login:account-ip:{account}:{network(ip) or '-'}",
        LOGIN_FAILURES_PER_ACCOUNT_AND_IP,
        LOGIN_WINDOW,
        TOO_MANY_LOGINS,
    )
    limits = [per_address]
    if not (user and ip and _known_address(s, user, ip)):
        # From a known address only the per-account-and-address count applies: neither attackers elsewhere (the
        # account-wide count) nor others at the same address (one office, or a proxy whose hops are not configured:
        # the per-address count) lock the owner out.
        limits.append(
            ratelimit.Limit(f"login:account:{account}", LOGIN_FAILURES_PER_ACCOUNT, LOGIN_WINDOW, TOO_MANY_LOGINS)
        )
        if ip:
            limits.append(
                ratelimit.Limit(f"login:ip:{network(ip)}", LOGIN_FAILURES_PER_IP, LOGIN_WINDOW, TOO_MANY_LOGINS)
            )
    return limits


def check_password(s: Session, *, data: SignIn | Mapping[str, Any], ip: str | None = None) -> User:
    """The first step of a sign-in: the account whose password this is. Unknown users and wrong passwords get the
    same answer in the same time. A session opens only through `sign_in` (the second step, when one is due)."""
    form = parse(SignIn, data)
    identifier, password = form.identifier.strip(), form.password
    if not identifier or not password:
        raise Invalid("Please enter both username/email and password.")
    user = get_user_by_identifier(s, identifier)
    # Failures count against the account, so its username and e-mail share one count; an unknown name is counted
    # under itself. Keys are digested by ratelimit, so no identifier is too long for them.
    limits = failure_limits(s, user, f"user:{user.id}" if user else f"name:{identifier.lower()}", ip)
    # The attempt is counted (and committed) as a failure before the password is checked, so parallel guesses cannot
    # all pass a check that none of them has yet been counted in; a success gives its attempt back below.
    attempt = ratelimit.acquire(s, *limits)
    # verify_password runs bcrypt against a dummy hash when there is no user or no password.
    if not verify_password(password, user.password_hash if user else None) or user is None:
        metrics.login_failures.inc()  # a spike is a guessing attack (the alert rules, docs/deploy.md)
        if user is not None and user.role in STAFF_ROLES:
            audit.record(s, actor=user, action="auth.login_failed", entity=user, ip=ip)
            s.commit()
        raise Unauthorized(INVALID_CREDENTIALS)
    ratelimit.release(s, attempt)
    ratelimit.clear(s, limits[0].key)
    if not user.is_verified:
        raise Forbidden("Please verify your email before logging in.", userId=str(user.id), requiresVerification=True)
    s.commit()
    return user


def _address_digest(ip: str) -> str:
    return token_digest(f"sign-in-address:{network(ip)}")


def _known_address(s: Session, user: User, ip: str) -> bool:
    row = s.exec(
        select(KnownSignInAddress).where(
            KnownSignInAddress.user_id == user.id, KnownSignInAddress.address == _address_digest(ip)
        )
    ).first()
    return row is not None and row.last_seen_at > utcnow() - KNOWN_FOR


def remember_address(s: Session, user: User, ip: str) -> None:
    """Record (or refresh) a sign-in address of the account, in the caller's transaction; two sign-ins at once from
    the same address both succeed (the unique index keeps one row). Called when a password sign-in has passed both
    its steps: a password alone, without the second factor it needs, makes no address known."""
    digest = _address_digest(ip)
    try:
        with s.begin_nested():
            row = s.exec(
                select(KnownSignInAddress).where(
                    KnownSignInAddress.user_id == user.id, KnownSignInAddress.address == digest
                )
            ).first()
            if row is None:
                s.add(KnownSignInAddress(user_id=user.id, address=digest))
            else:
                row.last_seen_at = utcnow()
                s.add(row)
    except IntegrityError:
        pass  # the other sign-in recorded it


def _get_user(s: Session, user_id: uuid.UUID | str) -> User | None:
    try:
        uid = user_id if isinstance(user_id, uuid.UUID) else uuid.UUID(str(user_id))
    except ValueError:
        return None
    return s.get(User, uid)
