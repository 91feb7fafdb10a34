"""Web addresses inside plain text (a letter's lines, a conversation's messages): found, never trusted as markup."""

from __future__ import annotations

import re

# http(s) up to the next space; a closing bracket or a full stop after it is the sentence's.
URL = re.compile(r"https?://[^\s<>\"]+[^\s<>\".,;:!?)\]]")


def pieces(text: str) -> list[tuple[str, bool]]:
    """The text as (text, is_link) pieces, in order; joined, they are the text again."""
    out: list[tuple[str, bool]] = []
    at = 0
    for m in URL.finditer(text):
        if m.start() > at:
            out.append((text[at : m.start()], False))
        out.append((m.group(), True))
        at = m.end()
    if at < len(text):
        out.append((text[at:], False))
    return out
