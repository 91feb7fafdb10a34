"""Links to files the server sends (an invoice's PDF, an applicant's CV): past the client-side router.

Reflex 0.10 renders every `rx.el.a` as React Router's `Link`, which handles a click on a same-site address inside the
single-page app: `/api/...` is no page of it, so the click showed the 404 page while the file itself was fine (issue
26). `reload_document` makes the browser follow the link itself, and `download` makes that a download named as the
server's Content-Disposition says, so the page the user was on stays open.
"""

from __future__ import annotations

from typing import Any

import reflex as rx


def file_link(*children: Any, href: Any, **props: Any) -> rx.Component:
    """A link that downloads the file at `href` (a server route, usually under /api) with the browser's own request:
    the session cookie goes along, and the server checks who may have it."""
    return rx.el.a(*children, href=href, reload_document=True, download=True, **props)
