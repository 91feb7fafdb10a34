"""/api/auth: registration, verification, sign-in, session refresh and logout."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.api.deps import ClientIP, CurrentUser, SessionDep
from app.api.schemas import Done
from app.core.config import settings
from app.core.cookies import ACCESS_COOKIE, REFRESH_COOKIE, REFRESH_COOKIE_PATH, SIGNED_IN_HINT
from app.core.errors import Unauthorized
from app.models.user import UserPublic
from app.services.accounts import auth, password_reset, second_factor, sessions, sign_in
from app.services.accounts.auth import CodeCheck, CodeResend, RegisterCreate, SignIn
from app.services.accounts.password_reset import PasswordReset, ResetRequest

router = APIRouter(prefix="/auth", tags=["auth"])


class Registered(BaseModel):
    userId: str  # noqa: N815 (the spec's answer names)
    email: str
    message: str


class SignedIn(BaseModel):
    user: UserPublic


class SignInAnswer(BaseModel):
    """Signed in (`user`), or a second step is due (`secondFactor`: "code", or "enrol" for someone who must set up an
    authenticator first; the sign-in continues at /api/auth/second-factor with the cookie this answer set)."""

    user: UserPublic | None = None
    secondFactor: str | None = None  # noqa: N815 (the spec's answer names)
    message: str | None = None


def set_session_cookies(response: Response, issued: sessions.IssuedSession) -> None:
    """HttpOnly, SameSite=Lax, Secure in prod: nothing that authenticates is readable by JavaScript."""
    max_age = settings.refresh_token_days * 24 * 3600
    common = {"httponly": True, "samesite": "lax", "secure": settings.secure_cookies, "max_age": max_age}
    response.set_cookie(ACCESS_COOKIE, issued.access_token, path="/", **common)  # type: ignore[arg-type]
    response.set_cookie(REFRESH_COOKIE, issued.refresh_token, path=REFRESH_COOKIE_PATH, **common)  # type: ignore[arg-type]
    # Not a credential: lets the prerendered portal page show its sign-in form at once to browsers without it.
    response.set_cookie(SIGNED_IN_HINT, "1", path="/", **(common | {"httponly": False}))  # type: ignore[arg-type]


def set_challenge_cookie(response: Response, token: str) -> None:
    """The sign-in waiting for its second step: HttpOnly, for ten minutes, on "/" so the second-step page's websocket
    handshake carries it."""
    response.set_cookie(
        sign_in.CHALLENGE_COOKIE, token, path="/", max_age=int(sign_in.CHALLENGE_TTL.total_seconds()),
        httponly=True, samesite="lax", secure=settings.secure_cookies,
    )  # fmt: skip


def clear_challenge_cookie(response: Response) -> None:
    response.delete_cookie(sign_in.CHALLENGE_COOKIE, path="/", secure=settings.secure_cookies, httponly=True)


def finish_sign_in(response: Response, finished: sign_in.Finished) -> None:
    """The cookies of a completed second step: the session, the trusted browser when ticked, no challenge."""
    set_session_cookies(response, finished.issued)
    clear_challenge_cookie(response)
    if finished.trust_token and finished.trust_expires:
        response.set_cookie(
            second_factor.trust_cookie(finished.user.id), finished.trust_token, path=REFRESH_COOKIE_PATH,
            max_age=int(second_factor.TRUST_FOR.total_seconds()), httponly=True, samesite="lax",
            secure=settings.secure_cookies,
        )  # fmt: skip


def answer_sign_in(response: Response, result: sign_in.SignInResult) -> dict[str, object]:
    """The JSON answer to a first step: the session's cookies, or the challenge's."""
    if result.issued is not None:
        set_session_cookies(response, result.issued)
        return {"user": UserPublic.of(result.user).model_dump(mode="json")}
    set_challenge_cookie(response, result.challenge or "")
    if result.enrol:
        return {"secondFactor": "enrol", "message": "Set up two-step sign-in to continue."}
    return {"secondFactor": "code", "message": "Enter the code from your authenticator app."}


def clear_session_cookies(response: Response) -> None:
    response.delete_cookie(ACCESS_COOKIE, path="/", secure=settings.secure_cookies, httponly=True, samesite="lax")
    response.delete_cookie(
        REFRESH_COOKIE, path=REFRESH_COOKIE_PATH, secure=settings.secure_cookies, httponly=True, samesite="lax"
    )
    response.delete_cookie(SIGNED_IN_HINT, path="/", secure=settings.secure_cookies, samesite="lax")


@router.post("/register", status_code=201, response_model=Registered)
def register(body: RegisterCreate, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Create an unverified client account and e-mail a 6-digit code. An address that already has an account gets
    the same answer (its owner is told by mail), so this tells nobody whether it has one."""
    user = auth.register(s, data=body, ip=ip)
    # The address as typed (normalised), never the account's: see auth.register.
    return {
        "userId": str(user.id),
        "email": body.email or "",
        "message": "Account created. Check your e-mail for the code.",
    }


@router.post("/verify", response_model=Done)
def verify(body: CodeCheck, s: SessionDep) -> dict[str, str]:
    """Verify an account with its e-mailed code."""
    auth.verify(s, data=body)
    return {"message": "Email verified successfully. You can now sign in."}


@router.post("/resend-code", response_model=Done)
def resend_code(body: CodeResend, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Send a new verification code; the previous one stops working."""
    auth.resend_code(s, data=body, ip=ip)
    return {"message": "A new verification code has been sent to your email."}


@router.post("/login", response_model=SignInAnswer, response_model_exclude_none=True)
def login(body: SignIn, request: Request, response: Response, s: SessionDep, ip: ClientIP) -> dict[str, object]:
    """Sign in with username or e-mail and password: sets the session cookies, or, when the account has (or must
    set up) a second factor, answers `secondFactor` and continues at /api/auth/second-factor."""
    return answer_sign_in(response, sign_in.login(s, data=body, ip=ip, cookies=request.cookies))


@router.post("/forgot-password", response_model=Done)
def forgot_password(body: ResetRequest, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """E-mail a link to reset the password; the answer is the same whether or not the address has an account."""
    return {"message": password_reset.request_reset(s, data=body, ip=ip)}


@router.post("/reset-password", response_model=Done)
def reset_password(body: PasswordReset, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Set a new password with an e-mailed link; every session of the account ends and the e-mail counts as verified."""
    password_reset.reset_password(s, data=body, ip=ip)
    return {"message": password_reset.DONE}


@router.get("/me")
def me(user: CurrentUser) -> dict[str, object]:
    """The signed-in user, with effective permissions."""
    return {"user": UserPublic.of(user).model_dump(mode="json")}


@router.post("/refresh")
def refresh(request: Request, s: SessionDep) -> JSONResponse:
    """Rotate the refresh token; a reused one ends the whole session."""
    try:
        _user, issued = sessions.rotate(s, request.cookies.get(REFRESH_COOKIE) or "")
    except Unauthorized as exc:
        failed = JSONResponse({"message": exc.message, "errors": {}}, status_code=401)
        clear_session_cookies(failed)  # a dead session's cookies are of no use to anyone
        return failed
    response = JSONResponse({"message": "Session refreshed"})
    set_session_cookies(response, issued)
    return response


@router.post("/activity")
def activity(request: Request, s: SessionDep) -> dict[str, str]:
    """The browser reports user activity so the server-side idle timer matches what the user sees."""
    sessions.authenticate(s, request.cookies.get(ACCESS_COOKIE), allow_expired_jwt=True)
    return {"message": "ok"}


@router.get("/session")
def session_status(request: Request, s: SessionDep) -> dict[str, bool]:
    """Whether the browser's session still lives (200) or the server has ended it (401: revoked, idle, expired), so
    an open page can sign out instead of leaving private data on screen. Asking is not activity."""
    sessions.authenticate(s, request.cookies.get(ACCESS_COOKIE), allow_expired_jwt=True, touch=False)
    return {"active": True}


@router.post("/logout")
def logout(request: Request, response: Response, s: SessionDep) -> dict[str, str]:
    """End the session on the server and clear the cookies (also when it had already ended)."""
    sessions.end(s, access_token=request.cookies.get(ACCESS_COOKIE), refresh_token=request.cookies.get(REFRESH_COOKIE))
    clear_session_cookies(response)
    return {"message": "You have been successfully logged out."}
