"""Small standalone HTML pages for links opened from e-mails or new tabs (Google sign-in, newsletter confirmation)."""

from __future__ import annotations

import html

from fastapi.responses import HTMLResponse

# The site's look without its scripts (these pages come from the API, not the single-page app): its slate text, blue
# accent, white card and system font, so a link opened from an e-mail lands on a page of the site, not a bare one.
_STYLE = (
    "*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:#f8fafc;"
    "color:#0f172a;font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;line-height:1.5}"
    "header{background:#fff;border-bottom:1px solid #e2e8f0;padding:1rem 1.5rem}"
    "header a{color:#0f172a;font-weight:700;font-size:1.125rem;text-decoration:none}"
    "main{flex:1;display:flex;align-items:flex-start;justify-content:center;padding:3rem 1rem}"
    ".card{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;box-shadow:0 1px 2px rgba(15,23,42,.06);"
    "max-width:32rem;width:100%;padding:2rem}"
    "h1{font-size:1.5rem;margin:0 0 .75rem}p{margin:0 0 1.5rem;color:#334155}"
    ".button{display:inline-block;background:#1e40af;color:#fff;border-radius:.5rem;padding:.625rem 1.25rem;"
    "font-weight:600;text-decoration:none}.button:hover{background:#1e3a8a}"
    "footer{padding:1.5rem;text-align:center;font-size:.75rem;color:#64748b}"
)


def message_page(
    title: str,
    text: str,
    status: int,
    *,
    link: str = "/client-portal",
    link_text: str = "Back to sign in",
    site: str = "",
) -> HTMLResponse:
    """A page of the site's look with a heading, one paragraph and one button; every value is escaped. `site` is the
    company's name for the header (the site's home link) and footer."""
    name = html.escape(site)
    header = f"<header><a href='/'>{name}</a></header>" if site else ""
    footer = f"<footer>&copy; {name}</footer>" if site else ""
    body = (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<meta name='viewport' content='width=device-width, initial-scale=1'><style>{_STYLE}</style></head>"
        f"<body>{header}<main><div class='card'><h1>{html.escape(title)}</h1><p>{html.escape(text)}</p>"
        f"<a class='button' href='{html.escape(link, quote=True)}'>{html.escape(link_text)}</a></div></main>"
        f"{footer}</body></html>"
    )
    return HTMLResponse(body, status_code=status)
