"""The second step of a sign-in, and a signed-in person's own second factor (issue 28, ADR 0103).

/api/auth/second-factor[...]: the sign-in waiting in the `sign_in_step` cookie (set by /api/auth/login, the form
posts and Google) is completed with a code, or, for someone who must have a second factor and has none, after
setting one up. /api/protected/second-factor[...]: turning it on and off, recovery codes, trusted browsers.
/api/admin/users/{id}/second-factor/reset: staff with users:manage, for someone else.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from app.api.deps import ClientIP, CurrentUser, SessionDep
from app.api.routes.auth import SignedIn, finish_sign_in, set_session_cookies
from app.api.routes.forms import landing
from app.api.schemas import Done
from app.core.config import settings
from app.models.user import UserPublic
from app.services.accounts import passkeys, second_factor, sign_in
from app.services.platform.schema import Body, Verbatim

router = APIRouter(tags=["auth"])


class SecondStep(Body):
    """A code from the authenticator app, or a recovery code; `trust` skips the step in this browser for 30 days.
    After setting up an authenticator in this sign-in, no code is needed."""

    code: Verbatim = ""
    trust: bool = False


class Code(Body):
    """A code from the authenticator app (or, to turn the factor off, a recovery code)."""

    code: Verbatim = ""


class NewAuthenticator(BaseModel):
    secret: str
    uri: str
    qr: str  # a data: URI of the QR code (SVG)


class RecoveryCodes(BaseModel):
    message: str
    recoveryCodes: list[str]  # noqa: N815


class FactorStatus(BaseModel):
    on: bool
    required: bool
    recoveryCodesLeft: int  # noqa: N815
    trustedBrowsers: int  # noqa: N815


def _new(enrolment: second_factor.Enrolment) -> dict[str, str]:
    return {"secret": enrolment.secret, "uri": enrolment.uri, "qr": enrolment.qr_svg}


def _codes(codes: list[str]) -> dict[str, Any]:
    return {"message": "Two-step sign-in is on. Keep these recovery codes somewhere safe.", "recoveryCodes": codes}


@router.post("/auth/second-factor", response_model=SignedIn)
def complete(body: SecondStep, request: Request, response: Response, s: SessionDep, ip: ClientIP) -> dict[str, Any]:
    """Finish the waiting sign-in with a code; sets the session cookies."""
    label = second_factor.browser_label(request.headers.get("user-agent")) if body.trust else None
    token = request.cookies.get(sign_in.CHALLENGE_COOKIE)
    finished = sign_in.complete(s, token, body.code, trust_label=label, ip=ip)
    finish_sign_in(response, finished)
    return {"user": UserPublic.of(finished.user).model_dump(mode="json")}


@router.post("/auth/second-factor/enrol", response_model=NewAuthenticator)
def enrol_to_sign_in(request: Request, s: SessionDep) -> dict[str, str]:
    """For someone who must have a second factor: a new authenticator secret and its QR code."""
    return _new(sign_in.enrolment(s, request.cookies.get(sign_in.CHALLENGE_COOKIE)))


@router.post("/auth/second-factor/enrol/confirm", response_model=RecoveryCodes)
def confirm_to_sign_in(body: Code, request: Request, s: SessionDep, ip: ClientIP) -> dict[str, Any]:
    """The new authenticator's first code: it is on, and the sign-in may finish; the recovery codes, shown once."""
    return _codes(sign_in.confirm(s, request.cookies.get(sign_in.CHALLENGE_COOKIE), body.code, ip=ip))


@router.get("/protected/second-factor", response_model=FactorStatus)
def status(user: CurrentUser, s: SessionDep) -> dict[str, Any]:
    """Whether the signed-in person's second factor is on, whether they must have one, what is left."""
    st = second_factor.status(s, user)
    return {"on": st.on, "required": st.required, "recoveryCodesLeft": st.recovery_left,
            "trustedBrowsers": st.trusted_browsers}  # fmt: skip


@router.post("/protected/second-factor/enrol", response_model=NewAuthenticator)
def enrol(user: CurrentUser, s: SessionDep) -> dict[str, str]:
    """Start setting up an authenticator app: its secret and QR code."""
    return _new(second_factor.begin_enrolment(s, user))


@router.post("/protected/second-factor/enrol/confirm", response_model=RecoveryCodes)
def confirm(body: Code, user: CurrentUser, s: SessionDep, ip: ClientIP) -> dict[str, Any]:
    """Turn the second factor on with the app's first code; the recovery codes, shown once."""
    return _codes(second_factor.confirm_enrolment(s, user, body.code, ip=ip))


@router.post("/protected/second-factor/recovery-codes", response_model=RecoveryCodes)
def renew_codes(body: Code, user: CurrentUser, s: SessionDep, ip: ClientIP) -> dict[str, Any]:
    """Ten new recovery codes (a current code from the app needed); the old ones stop working."""
    codes = second_factor.renew_recovery_codes(s, user, body.code, ip=ip)
    return {"message": "New recovery codes made. The old ones no longer work.", "recoveryCodes": codes}


@router.post("/protected/second-factor/disable", response_model=Done)
def disable(body: Code, user: CurrentUser, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Turn the second factor off (not for those whose role requires it)."""
    second_factor.turn_off(s, user, body.code, ip=ip)
    return {"message": "Two-step sign-in is off."}


@router.post("/protected/second-factor/forget-browsers", response_model=Done)
def forget_browsers(user: CurrentUser, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Every browser trusted for 30 days asks for a code again."""
    second_factor.forget_browsers(s, user, ip=ip)
    return {"message": second_factor.BROWSERS_FORGOTTEN}


@router.post("/admin/users/{user_id}/second-factor/reset", response_model=Done)
def reset(user_id: str, user: CurrentUser, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Remove another person's second factor (users:manage; never one's own); they are told by mail."""
    target = second_factor.reset_for(s, actor=user, user_id=user_id, ip=ip)
    return {"message": f"The second factor of {target.username} was reset. They have been told by e-mail."}


# --- Passkeys (ADR 0104) --------------------------------------------------------------------------------------------


class NewPasskey(Body):
    """What `navigator.credentials.create()` returned (its JSON form), and a name for the list."""

    credential: dict[str, Any] = Field(default_factory=dict)
    name: Verbatim = ""


class PasskeyAnswer(Body):
    """What `navigator.credentials.get()` returned (its JSON form); `trust` as for a code."""

    credential: dict[str, Any] = Field(default_factory=dict)
    trust: bool = False


class PasskeyPublic(BaseModel):
    id: int
    name: str
    created_at: str
    last_used_at: str | None


class SignedInTo(SignedIn):
    next: str  # where the page goes now


def _ceremony(response: Response, token: str, options: str) -> Response:
    answer = Response(options, media_type="application/json")
    answer.set_cookie(
        passkeys.CEREMONY_COOKIE, token, path="/api", max_age=int(passkeys.CEREMONY_TTL.total_seconds()),
        httponly=True, samesite="strict", secure=settings.secure_cookies,
    )  # fmt: skip
    return answer


def _passkey(p: Any) -> dict[str, Any]:
    used = p.last_used_at.isoformat() if p.last_used_at else None
    return {"id": p.id, "name": p.name, "created_at": p.created_at.isoformat(), "last_used_at": used}


@router.post("/protected/passkeys/options")
def passkey_options(response: Response, user: CurrentUser, s: SessionDep) -> Response:
    """Options for `navigator.credentials.create()`: add a passkey to the signed-in account."""
    return _ceremony(response, *passkeys.registration_options(s, user))


@router.post("/protected/passkeys", response_model=PasskeyPublic)
def add_passkey(body: NewPasskey, request: Request, user: CurrentUser, s: SessionDep, ip: ClientIP) -> dict[str, Any]:
    """Keep the new passkey (checked against the ceremony's challenge and this site's origin)."""
    name = body.name or second_factor.browser_label(request.headers.get("user-agent"))
    token = request.cookies.get(passkeys.CEREMONY_COOKIE)
    return _passkey(passkeys.register(s, user, token, body.credential, name, ip=ip))


@router.get("/protected/passkeys", response_model=list[PasskeyPublic])
def list_passkeys(user: CurrentUser, s: SessionDep) -> list[dict[str, Any]]:
    """The signed-in account's passkeys."""
    return [_passkey(p) for p in passkeys.listed(s, user)]


@router.delete("/protected/passkeys/{passkey_id}", response_model=Done)
def remove_passkey(passkey_id: int, user: CurrentUser, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Remove one of the signed-in account's passkeys."""
    passkeys.remove(s, user, passkey_id, ip=ip)
    return {"message": "Passkey removed."}


@router.post("/auth/second-factor/passkey/options")
def second_step_passkey_options(request: Request, response: Response, s: SessionDep) -> Response:
    """Options for `navigator.credentials.get()`: the waiting sign-in's second step with one of its passkeys."""
    return _ceremony(response, *sign_in.passkey_options(s, request.cookies.get(sign_in.CHALLENGE_COOKIE)))


@router.post("/auth/second-factor/passkey", response_model=SignedInTo)
def second_step_passkey(
    body: PasskeyAnswer, request: Request, response: Response, s: SessionDep, ip: ClientIP
) -> dict[str, Any]:
    """Finish the waiting sign-in with a passkey; sets the session cookies and says where to go."""
    label = second_factor.browser_label(request.headers.get("user-agent")) if body.trust else None
    finished = sign_in.complete_with_passkey(
        s,
        request.cookies.get(sign_in.CHALLENGE_COOKIE),
        request.cookies.get(passkeys.CEREMONY_COOKIE),
        body.credential,
        trust_label=label,
        ip=ip,
    )
    finish_sign_in(response, finished)
    target = finished.landing or landing(finished.user.role, finished.user.profile_complete)
    return {"user": UserPublic.of(finished.user).model_dump(mode="json"), "next": target}


@router.post("/auth/passkey/options")
def sign_in_passkey_options(response: Response, s: SessionDep, ip: ClientIP) -> Response:
    """Options for `navigator.credentials.get()`: a sign-in without a password, with any passkey of this site."""
    return _ceremony(response, *sign_in.passkey_sign_in_options(s, ip=ip))


@router.post("/auth/passkey", response_model=SignedInTo)
def sign_in_with_passkey(
    body: PasskeyAnswer, request: Request, response: Response, s: SessionDep, ip: ClientIP
) -> dict[str, Any]:
    """Sign in with a passkey alone (the authenticator verified the person); sets the session cookies."""
    result = sign_in.with_passkey(s, request.cookies.get(passkeys.CEREMONY_COOKIE), body.credential, ip=ip)
    assert result.issued is not None
    set_session_cookies(response, result.issued)
    user = result.user
    target = landing(user.role, user.profile_complete)
    target += "" if target == "/complete-profile" else "?login=1"
    return {"user": UserPublic.of(user).model_dump(mode="json"), "next": target}
