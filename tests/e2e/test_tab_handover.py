"""A browser tab that changes hands sends the next person nothing of the last one's (app/ui/tab_handover.py, ADR 0107).

Reflex keeps a tab's state under its sessionStorage token, and signing in or out is a form post that leaves that tab
in place; its next hydrate used to send the whole state tree, the previous person's lists included, before any
on-load guard ran. These tests read every websocket frame the browser receives, as an attacker's devtools would."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from playwright.sync_api import Browser, Page, WebSocket, expect
from sqlmodel import Session

from app.models.enums import EmployeeType, Role
from app.services.accounts import sessions
from tests import factories as f
from tests.e2e.conftest import Server
from tests.e2e.test_accounts import sign_in

HYDRATED = '"is_hydrated_rx_state_":true'


def _frames(page: Page) -> list[str]:
    """Every websocket frame the page receives from now on, across reloads and navigations."""
    received: list[str] = []

    def watch(ws: WebSocket) -> None:
        ws.on(
            "framereceived", lambda payload: received.append(payload if isinstance(payload, str) else payload.decode())
        )

    page.on("websocket", watch)
    return received


def _cookie(db: Session, site: str, user: object) -> dict[str, object]:
    token = sessions.start(db, user).access_token  # type: ignore[arg-type]
    return {"name": "access_token", "value": token, "url": site, "httpOnly": True}


def _admin_sees(page: Page, site: str, marker: str) -> None:
    page.goto(site + "/admin/users")
    page.get_by_placeholder("Search users…").fill(marker)
    expect(page.get_by_test_id("user-row")).to_have_count(1)
    expect(page.get_by_test_id("user-row")).to_contain_text(marker)


def _none_carries(page: Page, frames: list[str], marker: str, settled: Callable[[], None]) -> None:
    """After `settled`, once the tab's hydrate has finished (the page may paint before its websocket is up), no frame
    received since `frames` was last cleared carries `marker`."""
    settled()
    for _ in range(150):
        if any(HYDRATED in frame for frame in frames):
            break
        page.wait_for_timeout(100)
    assert any(HYDRATED in frame for frame in frames), "the tab never finished hydrating"
    leaked = [frame[:200] for frame in frames if marker in frame]
    assert leaked == [], leaked


def developer_after_admin(site: str, browser: Browser, db: Session) -> None:
    """The admin opens User Management in a tab; then a developer (no `users:read`) signs in in it."""
    tag = uuid.uuid4().hex[:8]
    marker = f"handover{tag}"
    f.user(db, marker, first_name="Handover", last_name=tag.upper())  # a client only users:read may see
    admin = f.user(db, f"ho_admin_{tag}", role=Role.admin)
    developer = f.user(db, f"ho_dev_{tag}", role=Role.employee, employee_type=EmployeeType.developer)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    frames = _frames(page)
    context.add_cookies([_cookie(db, site, admin)])
    _admin_sees(page, site, marker)
    assert any(marker in frame for frame in frames)  # the admin's own frames carry it: the check below can fail

    # Someone else signs in in the same tab (the cookie changes; the tab's sessionStorage token stays).
    frames.clear()
    context.clear_cookies()
    context.add_cookies([_cookie(db, site, developer)])
    page.goto(site + "/admin/dashboard")
    _none_carries(
        page, frames, marker, lambda: expect(page.get_by_role("heading", name="Quick Actions")).to_be_visible()
    )
    # The tab now serves the developer, who is refused the section, and still receives nothing of it.
    frames.clear()
    page.goto(site + "/admin/users")
    _none_carries(page, frames, marker, lambda: expect(page.get_by_test_id("access-restricted")).to_be_visible())
    context.close()


def test_staff_without_users_read_receive_none_of_the_admins_rows(
    server: Server, browser: Browser, db: Session
) -> None:
    developer_after_admin(server.url, browser, db)


def test_a_client_signing_in_where_a_staff_session_ended_receives_nothing_of_it(
    server: Server, browser: Browser, db: Session
) -> None:
    """The staff member walked away; their session ended on the server (the idle limit, or "sign out everywhere"),
    and the next person signs in to the portal in that tab. Both the signed-out page and the portal are clean."""
    tag = uuid.uuid4().hex[:8]
    marker = f"handover{tag}"
    f.user(db, marker, first_name="Handover", last_name=tag.upper())
    admin = f.user(db, f"ho_admin_{tag}", role=Role.admin)
    client = f.user(db, f"ho_client_{tag}", first_name="Casey")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    frames = _frames(page)
    context.add_cookies([_cookie(db, server.url, admin)])
    _admin_sees(page, server.url, marker)

    sessions.revoke_all(db, admin.id)
    db.commit()
    frames.clear()
    page.goto(server.url + "/client-portal")  # the ended session's cookie is still sent
    _none_carries(page, frames, marker, lambda: expect(page.get_by_role("button", name="Sign In")).to_be_visible())
    frames.clear()
    sign_in(page, server, client.username, f.PASSWORD)
    _none_carries(page, frames, marker, lambda: expect(page.get_by_text("Casey").first).to_be_visible())
    context.close()


def test_the_same_person_keeps_their_tab(server: Server, browser: Browser, db: Session) -> None:
    """The reset is for a change of hands only: a reload by the same person keeps what the tab held (no extra work,
    no lost search)."""
    tag = uuid.uuid4().hex[:8]
    marker = f"handover{tag}"
    f.user(db, marker, first_name="Handover", last_name=tag.upper())
    admin = f.user(db, f"ho_admin_{tag}", role=Role.admin)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    frames = _frames(page)
    context.add_cookies([_cookie(db, server.url, admin)])
    _admin_sees(page, server.url, marker)
    frames.clear()
    page.reload()
    expect(page.get_by_role("heading", name="User Management")).to_be_visible()
    expect(page.get_by_test_id("user-row")).to_have_count(1)
    assert any(marker in frame for frame in frames)
    context.close()
