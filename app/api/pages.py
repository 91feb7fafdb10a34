"""Small standalone HTML pages for links opened from e-mails or new tabs (Google sign-in, newsletter confirmation)."""

from __future__ import annotations

import html

from fastapi.responses import HTMLResponse


def message_page(
    title: str, text: str, status: int, *, link: str = "/client-portal", link_text: str = "Back to sign in"
) -> HTMLResponse:
    """A plain page with a heading, one paragraph and one link; every value is escaped."""
    body = (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'></head>"
        "<body style='font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#0f172a'>"
        f"<h1 style='font-size:1.5rem'>{html.escape(title)}</h1><p>{html.escape(text)}</p>"
        f"<p><a href='{html.escape(link, quote=True)}'>{html.escape(link_text)}</a></p></body></html>"
    )
    return HTMLResponse(body, status_code=status)
