"""Text no database can store (NUL, lone surrogates) is refused at the API boundary with a 422 naming the field.

One dependency on every route covers JSON bodies (nested fields too), form fields, file names, query and path values.
"""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.core.text import INVALID_CHARACTER
from app.models.enums import Role
from app.models.inquiry import ContactInquiry
from app.services.accounts import sessions
from tests import factories as f

CONTACT = {"name": "Pat", "email": "pat@example.com", "message": "Hello"}


def _post_json(client: TestClient, url: str, body: object, method: str = "POST") -> object:
    # json.dumps writes a lone surrogate as the escape \ud800, as a JavaScript client's JSON.stringify does.
    return client.request(method, url, content=json.dumps(body), headers={"content-type": "application/json"})


def test_nul_in_a_json_field_is_a_422_naming_it_and_nothing_is_stored(client: TestClient, session: Session) -> None:
    before = len(session.exec(select(ContactInquiry)).all())  # other suites' handler tests may have left some
    r = _post_json(client, "/api/contact", {**CONTACT, "company": "Ac\x00me"})
    assert r.status_code == 422, r.text
    assert r.json() == {"message": "Please check the highlighted fields.", "errors": {"company": INVALID_CHARACTER}}
    assert len(session.exec(select(ContactInquiry)).all()) == before


def test_a_lone_surrogate_is_refused_like_nul(client: TestClient) -> None:
    r = _post_json(client, "/api/auth/login", {"identifier": "pat", "password": "\ud800secret"})
    assert r.status_code == 422, r.text
    assert r.json()["errors"] == {"password": INVALID_CHARACTER}


def test_a_valid_surrogate_pair_is_an_ordinary_character(client: TestClient) -> None:
    r = _post_json(client, "/api/contact", {**CONTACT, "message": "Thanks \ud83d\ude00"})
    assert r.status_code == 201, r.text


def test_nested_fields_are_named_by_their_path(client: TestClient, session: Session) -> None:
    admin = f.user(session, "boundary_admin", role=Role.admin)
    client.cookies.set("access_token", sessions.start(session, admin).access_token)
    target = f.user(session, "boundary_client")
    body = {"client_id": str(target.id), "items": [{"description": "Work\x00", "quantity": 1, "unit_price": "1"}]}
    r = _post_json(client, "/api/admin/invoices", body)
    assert r.status_code == 422, r.text
    assert r.json()["errors"] == {"items.0.description": INVALID_CHARACTER}


def test_query_and_path_values(client: TestClient, session: Session) -> None:
    admin = f.user(session, "boundary_admin2", role=Role.admin)
    client.cookies.set("access_token", sessions.start(session, admin).access_token)
    r = client.get("/api/admin/users?search=a%00b")
    assert r.status_code == 422, r.text
    assert r.json()["errors"] == {"search": INVALID_CHARACTER}
    r = client.get("/api/admin/site/te%00am")
    assert r.status_code == 422, r.text
    assert r.json()["errors"] == {"kind": INVALID_CHARACTER}


def test_form_fields(client: TestClient) -> None:
    form = {"firstName": "Pat", "lastName": "Le\x00e", "phone": "+1 555 123 4567", "email": "pat@example.com"}
    resume = {"resume": ("cv.pdf", b"%PDF-1.4\n", "application/pdf")}
    r = client.post("/api/applications/submit", data=form, files=resume)
    assert r.status_code == 422, r.text
    assert r.json()["errors"] == {"lastName": INVALID_CHARACTER}


def test_the_form_sign_in_is_covered_too(client: TestClient) -> None:
    r = client.post("/api/auth/form/login", data={"identifier": "pat\x00", "password": "x"}, follow_redirects=False)
    assert r.status_code == 422, r.text
    assert r.json()["errors"] == {"identifier": INVALID_CHARACTER}
