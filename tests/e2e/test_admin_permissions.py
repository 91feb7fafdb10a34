"""User Management's Permissions dialog in a real browser: an admin grants one permission and revokes another, the
database follows; HR sees the switch it may not use disabled, with the reason."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.permissions import PERM_DESCRIPTIONS, Perm
from app.models.enums import EmployeeType, Role
from app.models.user import User
from app.services.accounts.users import create_user
from app.services.platform.access import perms
from tests.e2e.conftest import Server
from tests.e2e.test_admin import _toast, signed_in

pytestmark = pytest.mark.e2e


def _developer(engine: Engine) -> User:
    name = f"perm_dev_{uuid.uuid4().hex[:6]}"
    with Session(engine, expire_on_commit=False) as s:
        return create_user(
            s, username=name, email=f"{name}@example.com", password="Developer-pass-1", role=Role.employee,
            employee_type=EmployeeType.developer, first_name="Dev",
        )  # fmt: skip


def _held(engine: Engine, user: User) -> frozenset[str]:
    with Session(engine) as s:
        fresh = s.get(User, user.id)
        assert fresh is not None
        return perms(fresh)


def _open_permissions(page: Page, server: Server, username: str) -> None:
    page.goto(server.url + "/admin/users")
    expect(page.get_by_role("heading", name="User Management")).to_be_visible()
    page.get_by_placeholder("Search users…").fill(username)
    expect(page.get_by_test_id("user-row")).to_have_count(1)
    page.get_by_role("button", name=f"Permissions of {username}").click()
    expect(page.get_by_test_id("permissions-dialog")).to_be_visible()


def _switch(page: Page, permission: str):  # type: ignore[no-untyped-def]
    """A permission's switch, found by the words it shows (not its key: issue 26)."""
    return page.get_by_role("switch", name=PERM_DESCRIPTIONS[Perm(permission)], exact=True)


def _source(page: Page, permission: str):  # type: ignore[no-untyped-def]
    return page.locator(f"[data-testid=permission-row][data-permission='{permission}']").get_by_test_id(
        "permission-source"
    )


def test_admin_grants_and_revokes_one_permission(server: Server, browser: Browser, db_engine: Engine) -> None:
    dev = _developer(db_engine)
    with signed_in(browser, server, db_engine, "admin") as (page, errors):
        _open_permissions(page, server, dev.username)
        expect(page.get_by_role("dialog")).to_contain_text("Developers (Devs) · holds 4 of 20")
        expect(_switch(page, "billing:write")).to_have_attribute("aria-checked", "false")
        expect(_source(page, "content:read")).to_have_text("Role default")

        _switch(page, "billing:write").click()
        _toast(page, "Permissions updated")
        expect(_switch(page, "billing:write")).to_have_attribute("aria-checked", "true")
        expect(_source(page, "billing:write")).to_have_text("Granted")

        _switch(page, "content:read").click()
        expect(_switch(page, "content:read")).to_have_attribute("aria-checked", "false")
        expect(_source(page, "content:read")).to_have_text("Revoked")
        expect(page.get_by_role("dialog")).to_contain_text("holds 4 of 20")
        assert not errors, errors
    held = _held(db_engine, dev)
    assert "billing:write" in held and "content:read" not in held


def test_hr_cannot_grant_what_hr_lacks(server: Server, browser: Browser, db_engine: Engine) -> None:
    dev = _developer(db_engine)
    with signed_in(browser, server, db_engine, "staff_hr") as (page, errors):
        _open_permissions(page, server, dev.username)
        billing = _switch(page, "billing:write")
        expect(billing).to_be_disabled()
        expect(billing).to_have_attribute("title", "You cannot grant permissions you do not hold: billing:write")
        row = page.locator("[data-testid=permission-row][data-permission='billing:write']")
        expect(row).to_contain_text("You cannot grant permissions you do not hold: billing:write")
        _switch(page, "applications:read").click()  # HR holds it
        expect(_switch(page, "applications:read")).to_have_attribute("aria-checked", "true")
        assert not errors, errors
    assert "applications:read" in _held(db_engine, dev) and "billing:write" not in _held(db_engine, dev)
