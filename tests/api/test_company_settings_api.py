"""Company settings over HTTP: the typed body, the spec's 422 shape, and what a save changes for visitors."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.core.config import settings
from app.models.enums import Role
from app.models.user import User
from app.services.accounts import sessions
from tests import factories as f

URL = "/api/admin/settings/company"


def as_user(client: TestClient, session: Session, user: User) -> None:
    client.cookies.set("access_token", sessions.start(session, user).access_token)


def test_read_then_save(client: TestClient, session: Session) -> None:
    as_user(client, session, f.user(session, "company_api_admin", role=Role.admin))
    first = client.get(URL)
    assert first.status_code == 200, first.text
    assert first.json()["data"]["name"] == settings.company_name
    assert first.json()["data"]["client_badges"] == settings.company_client_badges
    saved = client.put(URL, json={"name": "Tidewater Tech", "client_badges": ["A", "B"], "twitter_url": None})
    assert saved.status_code == 200, saved.text
    body = saved.json()
    assert body["message"] == "Company settings saved"
    assert body["data"]["name"] == "Tidewater Tech" and body["data"]["client_badges"] == ["A", "B"]
    assert body["data"]["twitter_url"] is None
    assert client.get(URL).json()["data"]["name"] == "Tidewater Tech"


def test_refusals_use_the_spec_shape_and_change_nothing(client: TestClient, session: Session) -> None:
    as_user(client, session, f.user(session, "company_api_admin2", role=Role.admin))
    bad = client.put(URL, json={"email": "nope", "business_timezone": "Nowhere/Land", "name": "Kept?"})
    assert bad.status_code == 422
    body = bad.json()
    assert set(body["errors"]) == {"email", "business_timezone"}
    assert body["errors"]["email"] == "Please enter a valid email address"
    assert client.get(URL).json()["data"]["name"] == settings.company_name
    shape = client.put(URL, json={"client_badges": {"not": "a list"}})
    assert shape.status_code == 422 and "client_badges" in shape.json()["errors"]
    assert client.put(URL, json=["not", "an", "object"]).status_code == 422


def test_signed_out_and_clients_are_refused(client: TestClient, session: Session) -> None:
    assert client.get(URL).status_code == 401
    as_user(client, session, f.user(session, "company_api_client"))
    assert client.put(URL, json={"name": "Mine now"}).status_code == 403
