"""The OpenAPI schema is honest: every write documents its body, every parameter its type, and the routes converted
to typed schemas document their answers (issue 11, "typed schemas end to end")."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.api import create_api
from app.models.enums import Role
from app.services.accounts import sessions
from app.services.site import site_admin
from tests import factories as f

# Writes that take no body by design: the cookie is the whole request, or the path names the action's object.
BODYLESS = {
    ("post", "/api/auth/refresh"),
    ("post", "/api/auth/activity"),
    ("post", "/api/auth/logout"),
    ("post", "/api/admin/invoices/{invoice_id}/issue"),
    ("post", "/api/admin/meetings/{meeting_id}/complete"),
    ("post", "/api/calendly/webhook"),  # the raw body is read to check its signature
    ("post", "/api/stripe/webhook"),  # the raw body is read to check its signature
    ("post", "/api/protected/invoices/{invoice_id}/pay"),  # the path names the invoice; the amount is what is owed
    ("post", "/api/protected/reset-password/{user_id}/send-link"),  # the path says whom; the link is e-mailed
    ("post", "/api/booking/manage/{token}/cancel"),  # the token in the path is the whole request
    ("post", "/api/booking/confirm/{token}"),  # the mailed token is the whole request
    ("post", "/api/admin/newsletter/subscribers/{subscriber_id}/unsubscribe"),  # the path names whom
    ("post", "/api/auth/second-factor/enrol"),  # the sign-in's cookie says whose: a new secret is the answer
    ("post", "/api/protected/second-factor/enrol"),  # the session says whose
    ("post", "/api/protected/second-factor/forget-browsers"),  # the session says whose
    ("post", "/api/admin/users/{user_id}/second-factor/reset"),  # the path names whom
    ("post", "/api/protected/passkeys/options"),  # a new challenge for the session's account
    ("post", "/api/auth/second-factor/passkey/options"),  # a new challenge for the sign-in the cookie names
    ("post", "/api/auth/passkey/options"),  # a new challenge for whoever holds a passkey
}

# Routes converted to typed schemas: their success answer is a documented model, not "any object".
TYPED = {
    ("get", "/api/protected/organizations"),
    ("post", "/api/protected/organizations"),
    ("put", "/api/protected/organizations/{organization_id}"),
    ("delete", "/api/protected/organizations/{organization_id}"),
    ("get", "/api/products"),
    ("get", "/api/admin/products"),
    ("post", "/api/admin/products"),
    ("put", "/api/admin/products/{product_id}"),
    ("delete", "/api/admin/products/{product_id}"),
    ("post", "/api/admin/products/{product_id}/prices"),
    ("put", "/api/admin/prices/{price_id}"),
    ("get", "/api/admin/applications"),
    ("put", "/api/admin/applications/{application_id}"),
    ("get", "/api/admin/newsletter/subscribers"),
    ("post", "/api/admin/newsletter/subscribers/{subscriber_id}/unsubscribe"),
    ("post", "/api/contact"),
    ("get", "/api/booking/types"),
    ("get", "/api/booking/slots"),
    ("post", "/api/booking"),
    ("get", "/api/booking/manage/{token}"),
    ("post", "/api/booking/manage/{token}/reschedule"),
    ("post", "/api/booking/manage/{token}/cancel"),
    ("post", "/api/newsletter/subscribe"),
    ("post", "/api/auth/register"),
    ("post", "/api/auth/verify"),
    ("post", "/api/auth/resend-code"),
    ("post", "/api/auth/login"),
    ("post", "/api/auth/forgot-password"),
    ("post", "/api/auth/reset-password"),
    ("put", "/api/protected/profile"),
    ("put", "/api/protected/change-password"),
    ("post", "/api/auth/complete-profile"),
    ("post", "/api/admin/meetings"),
    ("get", "/api/admin/meetings"),
    ("put", "/api/admin/meetings/{meeting_id}"),
    ("get", "/api/admin/invoices"),
    ("post", "/api/admin/invoices"),
    ("post", "/api/admin/invoices/{invoice_id}/issue"),
    ("post", "/api/admin/invoices/{invoice_id}/payments"),
    ("put", "/api/admin/invoices/{invoice_id}/reminders"),
    ("delete", "/api/admin/invoices/{invoice_id}"),
    ("get", "/api/admin/inquiries"),
    ("put", "/api/admin/inquiries/{inquiry_id}"),
    ("get", "/api/admin/users"),
    ("post", "/api/admin/users"),
    ("put", "/api/admin/users/{user_id}"),
    ("delete", "/api/admin/users/{user_id}"),
    ("post", "/api/protected/create-client"),
    ("put", "/api/protected/reset-password/{user_id}"),
    ("post", "/api/protected/reset-password/{user_id}/send-link"),
    ("get", "/api/protected/projects"),
    ("post", "/api/protected/projects"),
    ("put", "/api/protected/projects/{project_id}"),
    ("delete", "/api/protected/projects/{project_id}"),
    ("put", "/api/protected/projects/{project_id}/milestones"),
    ("get", "/api/protected/invoices"),
    ("get", "/api/protected/meetings"),
    ("get", "/api/admin/dashboard"),
    ("get", "/api/admin/audit"),
    ("get", "/api/admin/analytics"),
    *(("get", f"/api/admin/site/{k}") for k in site_admin.KINDS),
    ("post", "/api/admin/meetings/{meeting_id}/complete"),
    ("post", "/api/protected/meetings/{meeting_id}/cancel"),
    ("get", "/api/protected/meetings/{meeting_id}/slots"),
    ("post", "/api/protected/meetings/{meeting_id}/reschedule"),
    *(
        (m, p)
        for k in site_admin.KINDS
        for m, p in (("post", f"/api/admin/site/{k}"), ("put", f"/api/admin/site/{k}/{{item_id}}"))
    ),
}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return create_api().openapi()


@pytest.fixture
def admin_client(client: TestClient, session: Session) -> TestClient:
    admin = f.user(session, "openapi_admin", role=Role.admin)
    client.cookies.set("access_token", sessions.start(session, admin).access_token)
    return client


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, ops in spec["paths"].items() for method, op in ops.items()]


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref", "")
    return spec["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else schema


def test_every_write_documents_its_body(spec: dict[str, Any]) -> None:
    missing = []
    for method, path, op in _operations(spec):
        if method not in ("post", "put", "patch") or (method, path) in BODYLESS:
            continue
        content = op.get("requestBody", {}).get("content", {})
        schemas = [_resolve(spec, c.get("schema", {})) for c in content.values()]
        if not schemas or not all(s.get("properties") for s in schemas):
            missing.append(f"{method.upper()} {path}")
    assert missing == []
    writes = {(m, p) for m, p, _ in _operations(spec) if m in ("post", "put", "patch")}
    assert writes >= BODYLESS, "a body-less route listed here no longer exists"


def test_every_parameter_is_typed(spec: dict[str, Any]) -> None:
    untyped = [
        f"{method.upper()} {path} {p['name']}"
        for method, path, op in _operations(spec)
        for p in op.get("parameters", [])
        if not (p.get("schema", {}).get("type") or p.get("schema", {}).get("anyOf") or p.get("schema", {}).get("$ref"))
    ]
    assert untyped == []


def test_converted_routes_document_their_answer(spec: dict[str, Any]) -> None:
    ops = {(m, p): op for m, p, op in _operations(spec)}
    for key in TYPED:
        op = ops[key]
        success = next(code for code in op["responses"] if code.startswith("2"))
        schema = op["responses"][success]["content"]["application/json"]["schema"]
        resolved = _resolve(spec, schema)
        assert resolved.get("properties"), f"{key} answers an undocumented object"


def test_typed_bodies_carry_their_constraints(spec: dict[str, Any]) -> None:
    body = spec["paths"]["/api/protected/organizations"]["post"]["requestBody"]["content"]["application/json"]
    org = _resolve(spec, body["schema"])
    assert org["required"] == ["name"]
    assert {"maxLength": 200, "type": "string"} in org["properties"]["name"]["anyOf"]
    path_id = spec["paths"]["/api/protected/organizations/{organization_id}"]["put"]["parameters"][0]["schema"]
    assert (path_id["minimum"], path_id["maximum"]) == (1, 2**31 - 1)


def _body(spec: dict[str, Any], path: str) -> dict[str, Any]:
    return _resolve(spec, spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"])


def test_public_forms_document_their_fields(spec: dict[str, Any]) -> None:
    contact = _body(spec, "/api/contact")
    assert contact["required"] == ["email", "message", "name"]
    assert {"maxLength": 100, "type": "string"} in contact["properties"]["name"]["anyOf"]
    assert "cloud-solutions" in contact["properties"]["service_type"]["enum"]
    register = _body(spec, "/api/auth/register")
    assert register["required"] == ["email", "password", "username"]
    username = register["properties"]["username"]
    assert (username["minLength"], username["maxLength"], username["pattern"]) == (3, 30, "^[A-Za-z0-9_]+$")
    assert set(_body(spec, "/api/auth/verify")["properties"]) == {"userId", "code"}  # the spec's payload names
    assert set(_body(spec, "/api/auth/reset-password")["properties"]) == {"token", "newPassword"}
    assert _body(spec, "/api/newsletter/subscribe")["required"] == ["email"]
    assert _body(spec, "/api/auth/complete-profile")["required"] == ["company", "phone", "username"]
    put = spec["paths"]["/api/protected/change-password"]["put"]["requestBody"]["content"]["application/json"]
    assert set(_resolve(spec, put["schema"])["properties"]) == {"currentPassword", "newPassword", "confirmPassword"}


def test_public_forms_keep_their_own_422_wording(client: TestClient) -> None:
    """The contact form always heads its refusals "Please check the highlighted fields."; registration says one
    field's problem alone, several as "Please check the information and try again"; a bad code says so."""
    r = client.post("/api/contact", json={"name": "Pat", "email": "pat@example.com", "message": "x" * 5001})
    assert r.json() == {
        "message": "Please check the highlighted fields.",
        "errors": {"message": "Project details must not exceed 5000 characters"},
    }
    r = client.post("/api/auth/register", json={"username": "ok_name", "email": "nope", "password": "Password-123"})
    assert r.json() == {"message": "Invalid email address", "errors": {"email": "Invalid email address"}}
    r = client.post("/api/auth/register", json={"username": "x", "email": "nope", "password": "Password-123"})
    assert r.json()["message"] == "Please check the information and try again"
    r = client.post("/api/auth/verify", json={"userId": "x", "code": "12"})
    assert r.json() == {
        "message": "Invalid verification code",
        "errors": {"code": "Enter the 6-digit code from the e-mail"},
    }
    r = client.post("/api/auth/forgot-password", json={"email": "nope"})
    assert r.json() == {
        "message": "Please enter a valid email address.",
        "errors": {"email": "Please enter a valid email address."},
    }


def test_meeting_writes_document_their_rules(spec: dict[str, Any]) -> None:
    meeting = _body(spec, "/api/admin/meetings")
    duration = meeting["properties"]["duration_minutes"]["anyOf"][0]
    assert (duration["type"], duration["minimum"], duration["maximum"]) == ("integer", 5, 600)
    project = meeting["properties"]["project_id"]["anyOf"][0]
    assert (project["minimum"], project["maximum"]) == (1, 2**31 - 1)
    assert {"maxLength": 200, "type": "string"} in meeting["properties"]["title"]["anyOf"]


def test_each_site_content_kind_documents_its_own_fields(spec: dict[str, Any]) -> None:
    team, jobs = _body(spec, "/api/admin/site/team"), _body(spec, "/api/admin/site/jobs")
    assert team["required"] == ["bio", "name", "role"] and "code" not in team["properties"]
    assert {"maxLength": 5000, "type": "string"} in jobs["properties"]["description"]["anyOf"]
    assert jobs["properties"]["employment_type"]["enum"][:2] == ["Full-time", "Part-time"]
    rating = _body(spec, "/api/admin/site/testimonials")["properties"]["rating"]["anyOf"][0]
    assert (rating["minimum"], rating["maximum"]) == (1, 5)
    update = spec["paths"]["/api/admin/site/team/{item_id}"]["put"]["requestBody"]["content"]["application/json"]
    assert "required" not in _resolve(spec, update["schema"])  # a change sends only what changes


def test_rules_on_the_fields_keep_the_products_422(admin_client: Any) -> None:
    """A rule on a field answers in the service's words (first one as the message); a wrong shape answers alone."""
    r = admin_client.post("/api/protected/organizations", json={"name": "x" * 201, "size": "huge"})
    assert r.status_code == 422
    assert r.json() == {
        "message": "Name must not exceed 200 characters",
        "errors": {
            "name": "Name must not exceed 200 characters",
            "size": "Size must be one of: small, medium, large, enterprise",
        },
    }
    r = admin_client.post("/api/protected/organizations", json={"name": ["Acme"], "size": "huge"})
    assert r.json() == {"message": "Please check the highlighted fields.", "errors": {"name": "Must be text"}}
    r = admin_client.post("/api/admin/products/1/prices", json={"amount": "1.001", "currency": "eur"})
    assert r.json()["errors"] == {
        "amount": "Price must be in whole cents",
        "currency": "Only US dollars (usd) are supported",
    }


def test_the_booking_body_documents_its_fields(spec: dict[str, Any]) -> None:
    """A visitor's booking (`BookingCreate`): what is required, the limits, the payload's camelCase names."""
    book = _body(spec, "/api/booking")
    assert book["required"] == ["email", "name", "start", "type"]
    assert set(book["properties"]) == {"type", "start", "name", "email", "company", "notes", "timeZone"}
    assert (book["properties"]["start"]["type"], book["properties"]["start"]["format"]) == ("string", "date-time")
    assert book["properties"]["type"]["maxLength"] == 100
    assert {"maxLength": 100, "type": "string"} in book["properties"]["name"]["anyOf"]
    assert {"maxLength": 2000, "type": "string"} in book["properties"]["notes"]["anyOf"]
    assert {"maxLength": 64, "type": "string"} in book["properties"]["timeZone"]["anyOf"]
    move = _body(spec, "/api/booking/manage/{token}/reschedule")
    assert move["required"] == ["start"] and set(move["properties"]) == {"start", "timeZone"}
    params = {p["name"]: p for p in spec["paths"]["/api/booking/slots"]["get"]["parameters"]}
    assert set(params) == {"type", "from", "days"} and params["type"]["required"]
    assert {"type": "integer", "minimum": 1, "maximum": 31} in params["days"]["schema"]["anyOf"]
