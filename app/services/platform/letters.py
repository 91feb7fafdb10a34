"""Every letter the platform sends, rendered from its template in `mail_templates/` by one function, `render`.

A letter is one file, `mail_templates/<name>.txt`: its output is the text part, word for word; it sets `subject`
(one line) and may set `button`, a (label, address) pair for the HTML part's call to action. The HTML part is not
written per letter: `mail_templates/layout.html` lays the text part out in the company's colours (paragraphs kept,
addresses made links, the button under them), so the two parts can never say different things.

A missing variable fails the rendering (StrictUndefined): a letter with a hole is a bug, found by the test that renders
every template, not a mail sent with a blank in it. Only `.html` templates escape (autoescape), since the text part is
plain text: a name like `<b>` is shown as typed in both parts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from sqlmodel import Session

from app.core.config import settings
from app.services.platform import company, links, mail
from app.services.platform.mail import Letter

TEMPLATES = Path(__file__).with_name("mail_templates")

_env = Environment(
    loader=FileSystemLoader(TEMPLATES),
    undefined=StrictUndefined,
    autoescape=select_autoescape(enabled_extensions=("html",), disabled_extensions=("txt",), default=True),
    keep_trailing_newline=True,  # the text part ends with its newline, as the letters always have
    trim_blocks=True,  # a line holding only a tag leaves no line behind
    lstrip_blocks=True,
    auto_reload=False,
)

# Colours of the site (app/ui/styles.py): primary blue-800, dark surface blue-950, accent amber-400, slate neutrals.
BRAND = {
    "primary": "#1e40af",
    "dark": "#172554",
    "accent": "#fbbf24",
    "text": "#0f172a",
    "muted": "#475569",
    "border": "#e2e8f0",
    "surface": "#f8fafc",
}


def names() -> list[str]:
    """Every letter there is (the file names in `mail_templates/`, without `.txt`)."""
    return sorted(p.stem for p in TEMPLATES.glob("*.txt") if not p.name.startswith("_"))  # _name: a shared part


def render(s: Session, name: str, /, **context: Any) -> Letter:
    """Letter `name` filled in with `context`; the templates also get `company` (the stored company details) and
    `public_url`. Raises jinja2's UndefinedError when the letter uses a variable not given."""
    values = {"company": company.profile(s), "public_url": settings.public_url, **context}
    module = _env.get_template(f"{name}.txt").make_module(values)
    text = str(module)
    exported = vars(module)  # the template's top-level `set`s
    if "subject" not in exported:
        raise ValueError(f"The letter {name} sets no subject")
    subject = mail.header_text(str(exported["subject"]))
    button = exported.get("button")
    html = _env.get_template("layout.html").render(
        subject=subject,
        paragraphs=[
            [links.pieces(line) for line in block.splitlines()] for block in re.split(r"\n\s*\n", text.strip())
        ],
        button={"label": button[0], "url": button[1]} if button else None,
        company=values["company"],
        colours=BRAND,
    )
    return Letter(subject=subject, text=text, html=html)
