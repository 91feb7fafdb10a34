"""Links to server routes and files leave the client-side router (issue 26).

Reflex renders `rx.el.a` as React Router's `Link`, which handles a click on a same-site address inside the app:
`/api/...` is no page of it, so the staff's "Download PDF" and an applicant's CV opened the 404 page. This renders
every page and reads each router link's props: one that points under /api or is a download must set
`reloadDocument` (app/ui/components/file_link.py). The browser tests click them (tests/e2e/test_downloads.py).
"""

from __future__ import annotations

import re
from functools import cache

import pytest

LINK = "jsx(ReactRouterLink,{"


def _props(text: str, start: int) -> str:
    """The props object of the link whose `{` is at `start`, by matching braces."""
    depth = 0
    for end in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        if depth == 0:
            return text[start : end + 1]
    raise AssertionError("unbalanced props")


@cache
def router_links() -> dict[str, list[str]]:
    """Each page's route and the props of every router link it renders."""
    from app.app import app

    links: dict[str, list[str]] = {}
    for route, page in sorted(app._unevaluated_pages.items()):
        text = str(page.component())
        links[route] = [_props(text, m.end() - 1) for m in re.finditer(re.escape(LINK), text)]
    return links


def leaves_the_router(props: str) -> bool:
    return "reloadDocument:true" in props


def test_every_link_under_api_or_to_a_file_leaves_the_router() -> None:
    links = router_links()
    assert sum(map(len, links.values())) > 50  # the pages were rendered, links and all
    wrong = [
        (route, props[:160])
        for route, found in links.items()
        for props in found
        if ('"/api' in props or re.search(r"\bdownload:", props)) and not leaves_the_router(props)
    ]
    assert wrong == []


def test_the_staff_file_links_are_downloads() -> None:
    links = router_links()
    for route, field in (("admin/billing", '["pdf"]'), ("admin/applications", "resume_url")):
        found = [props for props in links[route] if field in props]
        assert found, (route, field)
        assert all(leaves_the_router(p) and "download:true" in p for p in found), found


@pytest.mark.parametrize(
    ("props", "expected"),
    [
        ('{to:"/api/protected/invoices/1/download"}', False),
        ('{to:"/api/x",reloadDocument:true}', True),
    ],
)
def test_the_check_tells_a_router_link_from_a_document_link(props: str, expected: bool) -> None:
    assert leaves_the_router(props) is expected
