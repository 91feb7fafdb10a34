"""Native HTML form posts for signing in and out.

A session cookie set over the websocket would not reach the open websocket (it sees only its handshake's cookies), so
the browser signs in and out with a real form post answered by a 303 redirect: a full page load, fresh cookies, and it
works without JavaScript. Failures return to the form with an error code the page turns into the spec's message.
"""

from __future__ import annotations

import logging
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse

from app.api.deps import ClientIP, SessionDep
from app.api.routes.auth import clear_session_cookies, finish_sign_in, set_challenge_cookie, set_session_cookies
from app.core.cookies import ACCESS_COOKIE, REFRESH_COOKIE
from app.core.errors import Forbidden, Invalid, TooManyRequests, Unauthorized
from app.core.permissions import STAFF_ROLES
from app.services.accounts import auth, second_factor, sessions, sign_in
from app.services.accounts.auth import SignIn
from app.services.platform.schema import parse

log = logging.getLogger(__name__)

router = APIRouter(prefix="/auth/form", tags=["auth"], include_in_schema=False)

# The pages that post here, and where each sends a successful sign-in.
FORM_PAGES = {"portal": "/client-portal", "admin": "/admin/login"}
SECOND_STEP_PAGE = "/sign-in/second-step"


def _back(page: str, error: str, **params: str) -> RedirectResponse:
    query = urlencode({"error": error, **params})
    return RedirectResponse(f"{FORM_PAGES[page]}?{query}", status_code=303)


def landing(role: str, profile_complete: bool) -> str:
    if not profile_complete:
        return "/complete-profile"
    return "/admin/dashboard" if role in STAFF_ROLES else "/client-portal"


@router.post("/login")
def login(
    request: Request,
    s: SessionDep,
    ip: ClientIP,
    identifier: Annotated[str, Form()] = "",
    password: Annotated[str, Form()] = "",
    page: Annotated[str, Form()] = "portal",
    welcome: Annotated[str, Form()] = "",
) -> RedirectResponse:
    """Sign in from the portal or admin login page and continue where the user belongs."""
    page = page if page in FORM_PAGES else "portal"
    keep = {"identifier": identifier.strip()[:254]}
    try:
        return _login(
            s, ip, request.cookies, identifier=identifier, password=password, page=page, welcome=welcome, keep=keep
        )
    except Exception:
        # A fault of ours (the database down, a bug): the sign-in page says so instead of a raw JSON 500.
        log.exception("form sign-in failed on the server")
        return _back(page, "server", **keep)


def _login(
    s: SessionDep,
    ip: str | None,
    cookies: dict[str, str],
    *,
    identifier: str,
    password: str,
    page: str,
    welcome: str,
    keep: dict[str, str],
) -> RedirectResponse:
    try:
        user = auth.check_password(s, data=parse(SignIn, {"identifier": identifier, "password": password}), ip=ip)
    except Invalid:
        return _back(page, "required", **keep)
    except Unauthorized:
        return _back(page, "invalid", **keep)
    except TooManyRequests:
        return _back(page, "throttled", **keep)
    except Forbidden as exc:
        return _back(page, "unverified", uid=str(exc.extra.get("userId", "")))
    if page == "admin" and user.role not in STAFF_ROLES:
        return _back(page, "not_staff", **keep)
    target = landing(user.role, user.profile_complete)
    if target == "/client-portal" and welcome == "1":
        target += "?welcome=true"  # first sign-in after verifying: the portal opens its welcome dialog
    elif target != "/complete-profile":
        target += "?login=1"
    result = sign_in.begin(s, user, method="password", landing=target, cookies=cookies, ip=ip)
    if result.issued is None:
        response = RedirectResponse(SECOND_STEP_PAGE, status_code=303)
        set_challenge_cookie(response, result.challenge or "")
        return response
    response = RedirectResponse(target, status_code=303)
    set_session_cookies(response, result.issued)
    return response


# A refused code goes back to the second-step page with one of these; the page says it in words.
_STEP_ERRORS = {
    second_factor.WRONG_CODE: "wrong",
    second_factor.USED_CODE: "used",
    second_factor.USED_RECOVERY: "used_recovery",
    second_factor.CODE_FORMAT: "format",
}


@router.post("/second-step")
def second_step(
    request: Request,
    s: SessionDep,
    ip: ClientIP,
    code: Annotated[str, Form()] = "",
    trust: Annotated[str, Form()] = "",
) -> RedirectResponse:
    """The second step of a sign-in begun by the forms or Google: a code (or, right after setting up an
    authenticator, none) and on to where the sign-in was going; a refusal goes back to the step with its reason."""
    label = second_factor.browser_label(request.headers.get("user-agent")) if trust else None
    try:
        finished = sign_in.complete(s, request.cookies.get(sign_in.CHALLENGE_COOKIE), code, trust_label=label, ip=ip)
    except Unauthorized as exc:  # expired, used, or five wrong codes: the sign-in starts again
        reason = "step_attempts" if exc.message == sign_in.TOO_MANY_CODES else "step_expired"
        return RedirectResponse(f"{FORM_PAGES['portal']}?{urlencode({'error': reason})}", status_code=303)
    except TooManyRequests:
        return RedirectResponse(f"{SECOND_STEP_PAGE}?error=throttled", status_code=303)
    except Invalid as exc:
        return RedirectResponse(f"{SECOND_STEP_PAGE}?error={_STEP_ERRORS.get(exc.message, 'wrong')}", status_code=303)
    except Exception:
        log.exception("the second sign-in step failed on the server")
        return RedirectResponse(f"{SECOND_STEP_PAGE}?error=server", status_code=303)
    response = RedirectResponse(finished.landing or landing(finished.user.role, finished.user.profile_complete), 303)
    finish_sign_in(response, finished)
    return response


@router.post("/logout")
def logout(request: Request, s: SessionDep, page: Annotated[str, Form()] = "") -> RedirectResponse:
    """Sign out (server-side) and land on the sign-in page of the account's kind: staff on the staff one, clients on
    the portal's; when the session had already ended, the page the form came from (`page`) decides."""
    try:
        user = sessions.end(
            s, access_token=request.cookies.get(ACCESS_COOKIE), refresh_token=request.cookies.get(REFRESH_COOKIE)
        )
    except Exception:
        # The session could not be ended server-side (it idles out on its own); the browser still drops its cookies
        # and the sign-in page the form came from says what went wrong.
        log.exception("form sign-out failed on the server")
        response = _back("admin" if page == "admin" else "portal", "server")
    else:
        staff = user.role in STAFF_ROLES if user is not None else page == "admin"
        response = RedirectResponse(f"{FORM_PAGES['admin' if staff else 'portal']}?logged_out=1", status_code=303)
    clear_session_cookies(response)
    return response
