"""Web addresses in plain text (app/services/platform/links.py): what becomes a link, and that nothing is lost."""

from __future__ import annotations

import pytest

from app.services.platform.links import pieces


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("See https://example.com/a.pdf.", [("See ", False), ("https://example.com/a.pdf", True), (".", False)]),
        ("(http://x.example/q?a=1)", [("(", False), ("http://x.example/q?a=1", True), (")", False)]),
        ("javascript:alert(1) and ftp://x", [("javascript:alert(1) and ftp://x", False)]),
        ('<a href="https://e.example">x</a>', [('<a href="', False), ("https://e.example", True), ('">x</a>', False)]),
        ("", []),
    ],
)
def test_only_http_addresses_become_links_and_the_text_stays_whole(text: str, expected: list) -> None:
    found = pieces(text)
    assert found == expected
    assert "".join(t for t, _ in found) == text
