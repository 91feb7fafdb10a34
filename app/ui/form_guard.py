"""No native submit of a script-handled form: a security control in every page's <head> (issue 14, ADR 0061).

Reflex's forms are handled by script (`rx.form` / `rx.el.form` always prevent the browser's submit once React has
hydrated them) and have no `action`. Submitted natively, before the scripts have started (a slow phone, or the
scripts parked until the first paint by app/ui/page_weight.py), the browser would GET the current page with every
field, the password included, in the address bar, the history and the server's logs. The two forms that post
natively, sign-in and sign-out (app/ui/components/native_form.py), carry an `action` and are left alone.

Listening in the capture phase on the window, the guard runs before any page script could stop the event, from the
moment the <head> is parsed; after hydration it only repeats what Reflex's handler does.
"""

from __future__ import annotations

import reflex as rx

# No quotes, `<`, `>` or `&`: React's server render escapes them in a script's text, which would break it.
SCRIPT = "addEventListener(`submit`,function(e){if(!e.target.hasAttribute(`action`))e.preventDefault()},true)"


def form_guard() -> rx.Component:
    """The <head> script (an inline one: it must run before the first form can be submitted)."""
    return rx.el.script(SCRIPT)
