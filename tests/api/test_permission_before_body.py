"""A staff member without a route's permission is refused (403) before the body is read or the record looked up:
never a 422 that tells them which fields a body they may not send would need, nor a 404 that tells them which ids
exist."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.api import create_api
from app.core.permissions import ALL_PERMS
from app.models.enums import EmployeeType, Role
from app.services.accounts import sessions
from tests import factories as f

# Routes any signed-in user may write: their own account, the portal's own records (paying one's invoice), forms.
OWN = re.compile(
    r"^/api/(auth|account|protected/(profile|settings|second-factor|passkeys|meetings|projects/\{[^}]+\}$|invoices/\{[^}]+\}/pay$)|contact|careers|applications/submit|protected/change-password|newsletter|booking|forms|webhooks|stripe/webhook|calendly)"
)


def _staff_writes() -> list[tuple[str, str]]:
    """Every write that is not the caller's own, from the OpenAPI schema."""
    paths = create_api().openapi()["paths"]
    return [
        (method.upper(), path)
        for path, operations in paths.items()
        for method, operation in operations.items()
        if method != "get" and not OWN.match(path)
    ]


def test_a_staff_member_without_the_permission_gets_403_whatever_the_body(client: TestClient, session: Session) -> None:
    nobody = f.user(
        session,
        "no_perms",
        role=Role.employee,
        employee_type=EmployeeType.developer,
        revoked_permissions=sorted(p.value for p in ALL_PERMS),
    )
    client.cookies.set("access_token", sessions.start(session, nobody).access_token)
    routes = _staff_writes()
    assert len(routes) > 20
    answers = {}
    # An empty body, a body no model accepts, and an id past what the column holds: each would be a 422 if the body
    # or the path were read before the permission.
    for body, row_id in (({}, "1"), ([], "1"), ({}, str(2**31))):
        for method, path in routes:
            url = re.sub(r"\{[^}]+\}", row_id, path)
            answers[f"{method} {url} {body!r}"] = client.request(method, url, json=body).status_code
    wrong = {k: v for k, v in answers.items() if v != 403}
    assert wrong == {}, "\n".join(f"{k}: {v}" for k, v in sorted(wrong.items()))


def test_a_generated_write_without_its_permission_gate_is_refused_at_start_up() -> None:
    from fastapi import APIRouter
    from pydantic import BaseModel

    from app.api.crud import Write, writes

    class Thing(BaseModel):
        id: int

    with pytest.raises(ValueError, match="permission gate"):
        writes(
            APIRouter(),
            "/things",
            "thing_id",
            noun="Thing",
            public=Thing,
            perm="",
            things="things",
            delete=Write(lambda s, **_: None, "Gone."),
        )
