"""GET/PUT /api/admin/users/{id}/permissions: the overview and the one-permission change, refused as the rules say."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.enums import EmployeeType, Role
from app.models.user import User
from app.services.accounts import sessions
from app.services.platform.access import perms
from tests import factories as f


def as_user(client: TestClient, session: Session, user: User) -> None:
    client.cookies.set("access_token", sessions.start(session, user).access_token)


@pytest.fixture
def people(session: Session) -> dict[str, User]:
    def staff(name: str, etype: EmployeeType) -> User:
        return f.user(session, name, role=Role.employee, employee_type=etype)

    return {
        "admin": f.user(session, "api_admin", role=Role.admin),
        "hr": staff("api_hr", EmployeeType.hr),
        "cfo": staff("api_cfo", EmployeeType.cfo),
        "dev": staff("api_dev", EmployeeType.developer),
        "client": f.user(session, "api_client"),
    }


def _url(user: User) -> str:
    return f"/api/admin/users/{user.id}/permissions"


def test_admin_grants_and_revokes_one_permission(client: TestClient, session: Session, people: dict) -> None:
    dev = people["dev"]
    as_user(client, session, people["admin"])
    view = client.get(_url(dev))
    assert view.status_code == 200
    rows = {r["permission"]: r for r in view.json()["data"]["permissions"]}
    assert rows["content:read"] == {
        "permission": "content:read",
        "description": "View site content",
        "held": True,
        "source": "default",
        "can_change": True,
        "reason": None,
    }
    granted = client.put(_url(dev), json={"permission": "billing:write", "held": True})
    assert granted.status_code == 200 and granted.json()["message"] == "Permissions updated"
    rows = {r["permission"]: r for r in granted.json()["data"]["permissions"]}
    assert (rows["billing:write"]["held"], rows["billing:write"]["source"]) == (True, "granted")
    revoked = client.put(_url(dev), json={"permission": "content:read", "held": False})
    rows = {r["permission"]: r for r in revoked.json()["data"]["permissions"]}
    assert (rows["content:read"]["held"], rows["content:read"]["source"]) == (False, "revoked")
    session.refresh(dev)
    assert "billing:write" in perms(dev) and "content:read" not in perms(dev)


def test_the_grant_rule_over_http(client: TestClient, session: Session, people: dict) -> None:
    dev, hr = people["dev"], people["hr"]
    as_user(client, session, hr)
    lacking = client.put(_url(dev), json={"permission": "billing:write", "held": True})
    assert lacking.status_code == 403
    assert lacking.json()["message"] == "You cannot grant permissions you do not hold: billing:write"
    own = client.put(_url(hr), json={"permission": "clients:create", "held": False})
    assert own.status_code == 403 and own.json()["message"] == "You cannot change your own role or permissions"
    assert client.put(_url(dev), json={"permission": "applications:read", "held": True}).status_code == 200
    # The same rule through the older whole-record route (PUT /api/admin/users/{id}).
    r = client.put(f"/api/admin/users/{dev.id}", json={"extra_permissions": ["applications:read", "billing:write"]})
    assert r.status_code == 403

    as_user(client, session, people["cfo"])  # reads users, does not manage them
    assert client.get(_url(dev)).status_code == 200
    assert client.put(_url(dev), json={"permission": "content:read", "held": False}).status_code == 403
    session.refresh(dev)
    assert (dev.extra_permissions, dev.revoked_permissions) == (["applications:read"], [])


def test_who_cannot_even_look(client: TestClient, session: Session, people: dict) -> None:
    assert client.get(_url(people["dev"])).status_code == 401
    as_user(client, session, people["client"])
    assert client.get(_url(people["dev"])).status_code == 403
    assert client.put(_url(people["dev"]), json={"permission": "content:read", "held": False}).status_code == 403
    as_user(client, session, people["dev"])
    assert client.get(_url(people["hr"])).status_code == 403


def test_bad_bodies_and_targets(client: TestClient, session: Session, people: dict) -> None:
    as_user(client, session, people["admin"])
    unknown = client.put(_url(people["dev"]), json={"permission": "root:all", "held": True})
    assert unknown.status_code == 422 and unknown.json()["errors"] == {"permission": "Unknown permission: root:all"}
    assert client.put(_url(people["dev"]), json={"permission": "content:read"}).status_code == 422
    assert client.put(_url(people["dev"]), json={"permission": ["x"], "held": True}).status_code == 422
    assert client.get("/api/admin/users/not-a-user/permissions").json()["message"] == "User not found"
    admin = client.put(_url(people["admin"]), json={"permission": "audit:read", "held": False})
    assert admin.status_code == 403  # one's own
    client_target = client.put(_url(people["client"]), json={"permission": "billing:read", "held": True})
    assert client_target.status_code == 422 and "Clients hold no staff permissions" in client_target.json()["message"]
