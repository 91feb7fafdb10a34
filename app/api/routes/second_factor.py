"""The second step of a sign-in, and a signed-in person's own second factor (issue 28, ADR 0103).

/api/auth/second-factor[...]: the sign-in waiting in the `sign_in_step` cookie (set by /api/auth/login, the form
posts and Google) is completed with a code, or, for someone who must have a second factor and has none, after
setting one up. /api/protected/second-factor[...]: turning it on and off, recovery codes, trusted browsers.
/api/admin/users/{id}/second-factor/reset: staff with users:manage, for someone else.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from app.api.deps import ClientIP, CurrentUser, SessionDep
from app.api.routes.auth import SignedIn, finish_sign_in
from app.api.schemas import Done
from app.models.user import UserPublic
from app.services.accounts import second_factor, sign_in
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
    return {"message": "Every browser will ask for a code at the next sign-in."}


@router.post("/admin/users/{user_id}/second-factor/reset", response_model=Done)
def reset(user_id: str, user: CurrentUser, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Remove another person's second factor (users:manage; never one's own); they are told by mail."""
    target = second_factor.reset_for(s, actor=user, user_id=user_id, ip=ip)
    return {"message": f"The second factor of {target.username} was reset. They have been told by e-mail."}
