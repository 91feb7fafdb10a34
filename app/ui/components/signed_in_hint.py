"""Before the websocket has checked a session, show what this browser most likely needs.

The session cookies are HttpOnly, so until the websocket has asked the server, a prerendered page cannot know who is
looking. The non-secret `signed_in` cookie (set with the session, cleared with it; app/core/cookies.py) can be read at
once: a script in <head> marks the document before the first paint, and two classes show a part of the page only to
browsers with or without it. Once the session is checked the page shows what the server says and drops the classes.
"""

from __future__ import annotations

import reflex as rx

from app.core.cookies import SIGNED_IN_HINT

WHEN_SIGNED_IN = "hint-signed-in"
WHEN_SIGNED_OUT = "hint-signed-out"
_ATTRIBUTE = "data-signed-in"

# No quotes, `<`, `>` or `&`: React's server render escapes them in a script's text, which would break it.
_SCRIPT = f"if(/(?:^|;\\s*){SIGNED_IN_HINT}=1(?:;|$)/.test(document.cookie))document.documentElement.dataset.signedIn=1"
_EXPIRED = f"{SIGNED_IN_HINT}=; Max-Age=0; Path=/; SameSite=Lax"
_STYLE = f"html[{_ATTRIBUTE}] .{WHEN_SIGNED_OUT},html:not([{_ATTRIBUTE}]) .{WHEN_SIGNED_IN}{{display:none}}"


def signed_in_hint() -> list[rx.Component]:
    """The <head> pieces: the style first, so the script's mark takes effect before anything is painted."""
    return [rx.el.style(_STYLE), rx.el.script(_SCRIPT)]


def forget_hint(when: rx.Var[bool]) -> rx.Component:
    """Removes a hint the server no longer backs (the session ended elsewhere or expired), so the next visit shows
    the sign-in form at once: once this page load's on-load events have run (`is_hydrated`; before that the state
    may be a previous load's) and `when` says the server found no session.

    Compiled into the page, so no eval (the CSP refuses it; a script returned by a handler would be evaluated). Not
    `rx.remove_cookie`: Reflex runs the page's on-load events again after it."""
    clear = rx.run_script(f'document.cookie="{_EXPIRED}"+(location.protocol=="https:"?"; Secure":"")')
    return rx.cond(rx.State.is_hydrated & when, rx.el.span(hidden=True, on_mount=clear))
