"""/api/auth/google: Google sign-in, opened by the login and registration pages in a new tab."""

from __future__ import annotations

import logging

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.api.deps import ClientIP, SessionDep
from app.api.pages import message_page
from app.api.routes.auth import set_challenge_cookie, set_session_cookies
from app.api.routes.forms import SECOND_STEP_PAGE, landing
from app.core.config import settings
from app.core.errors import Invalid
from app.services.accounts import google, sign_in

log = logging.getLogger(__name__)
router = APIRouter(prefix="/auth/google", tags=["auth"])
FLOW_COOKIE = "oidc_flow"
FLOW_COOKIE_PATH = "/api/auth/google"


@router.get("")
def start() -> Response:
    """Send the browser to Google, or explain that Google sign-in is not set up here."""
    if not google.is_configured():
        return message_page(
            "Google sign-in is not available",
            "Google sign-in has not been configured on this site. Please sign in with your username or e-mail "
            "and password, or create an account on the registration page.",
            503,
        )
    try:
        flow = google.start()
    except httpx.HTTPError:
        log.exception("Google discovery failed")
        return message_page(
            "Google sign-in is unavailable", "Google could not be reached. Please try again later.", 502
        )
    response = RedirectResponse(flow.authorize_url, status_code=302)
    response.set_cookie(
        FLOW_COOKIE,
        flow.flow_cookie,
        max_age=google.FLOW_TTL_S,
        path=FLOW_COOKIE_PATH,
        httponly=True,
        samesite="lax",  # sent on the top-level redirect back from Google
        secure=settings.secure_cookies,
    )
    return response


@router.get("/callback")
def callback(
    request: Request, s: SessionDep, ip: ClientIP, code: str = "", state: str = "", error: str = ""
) -> Response:
    """Finish sign-in: verify Google's answer, open a session, and continue where the user belongs."""
    if error or not code:
        return message_page("Google sign-in was cancelled", "No changes were made. You can close this tab.", 400)
    try:
        user = google.finish(s, code=code, state=state, flow_cookie=request.cookies.get(FLOW_COOKIE, ""))
    except Invalid as exc:
        return message_page("Google sign-in failed", exc.message, 400)
    except httpx.HTTPError:
        log.exception("Google token exchange failed")
        return message_page(
            "Google sign-in is unavailable", "Google could not be reached. Please try again later.", 502
        )
    target = landing(user.role, user.profile_complete)
    # Google vouches for the address, not for the person at this browser: the second step applies as to a password.
    result = sign_in.begin(s, user, method="google", landing=target, cookies=request.cookies, ip=ip)
    if result.issued is None:
        response = RedirectResponse(SECOND_STEP_PAGE, status_code=303)
        set_challenge_cookie(response, result.challenge or "")
    else:
        response = RedirectResponse(target, status_code=303)
        set_session_cookies(response, result.issued)
    response.delete_cookie(FLOW_COOKIE, path=FLOW_COOKIE_PATH)
    return response
