"""Schemathesis against the API's own OpenAPI schema: every operation, as each caller, answers no 5xx.

For every operation in the schema and each caller (signed out, a client, an admin) schemathesis generates a small,
fixed (derandomized) set of requests, valid and invalid, from the schema and sends them in-process to the ASGI app
wrapped in the same middleware as the served site. Each response must not be a 5xx (`not_a_server_error`) and must
conform to the schema (`response_schema_conformance`). Most routes declare no response_model yet, so for them the
conformance check is vacuous: only the status codes and bodies a route does declare (chiefly the 422s) are checked.

Ids drawn at random mostly name nothing (a 404), so in about half the examples the path's ids are replaced by those of
records made for the run (of the caller's own or another client's), which takes the request into the route itself.

Each example runs in a savepoint rolled back afterwards, on the test database like the other API tests, so one
example's deletion or rate limit cannot hide another.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import bcrypt
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session

from app.api import create_api
from app.api.middleware import BodySizeLimit, SecurityHeaders
from app.core import security
from app.core.db import get_session
from app.models.enums import InvoiceStatus, Role
from app.services.accounts import sessions
from app.services.site import site_admin
from tests import factories as f

CALLERS = ("anonymous", "client", "admin")
# Examples per operation and caller: enough to reach past validation into each route, small enough that the whole
# file runs in about a minute (`make test` runs it); `make torture` runs SCHEMATHESIS_MAX_EXAMPLES=100. Each
# operation and caller gets a world (transaction) of its own: the rate limits' advisory locks are held until a
# transaction ends, not a savepoint, so one module-wide transaction ran PostgreSQL "out of shared memory" at 100.
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "10"))

API = create_api()
_current: dict[str, Session] = {}
API.dependency_overrides[get_session] = lambda: _current["session"]
APP = SecurityHeaders(BodySizeLimit(API))
SCHEMA = schemathesis.openapi.from_asgi("/api/openapi.json", APP)

# Operations left out of the run, each with the reason.
EXCLUDED: dict[str, str] = {}
# Google sign-in answers a deliberate 503 page while GOOGLE_CLIENT_ID/SECRET are unset (configuring it would send the
# route to Google's discovery URL over the network, which cannot run in-process): there that one answer is expected.
UNCONFIGURED_GOOGLE = "/api/auth/google"

OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations() if result.ok().label not in EXCLUDED]


def _fast_hash() -> str:
    return bcrypt.hashpw(b"x", bcrypt.gensalt(4)).decode()


@pytest.fixture
def world(engine: Engine) -> Iterator[tuple[Connection, dict[str, str], dict[str, str]]]:
    """A client and an admin with live sessions and one record behind each path parameter, in a transaction of
    this test's own; each example then runs in a savepoint of its own."""
    mp = pytest.MonkeyPatch()
    # bcrypt at cost 12 would make the run take minutes; the cost is not what is tested here.
    mp.setattr(security, "BCRYPT_ROUNDS", 4)
    mp.setattr(security, "DUMMY_HASH", _fast_hash())
    conn = engine.connect()
    outer = conn.begin()
    s = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
    pw = bcrypt.hashpw(f.PASSWORD.encode(), bcrypt.gensalt(4)).decode()
    client = f.user(s, "st_client", password_hash=pw)
    admin = f.user(s, "st_admin", role=Role.admin, password_hash=pw)
    project = f.project(s, client)
    invoice = f.invoice(s, client, status=InvoiceStatus.pending)
    meeting = f.meeting(s, client)
    rows = f.one_of_each(s, "Schemathesis")
    org, inquiry, product, price, application = (
        rows["organization"],
        rows["inquiry"],
        rows["product"],
        rows["price"],
        rows["application"],
    )
    service = site_admin.create_item(
        s,
        actor=admin,
        kind="services",
        data={
            "title": "Sites",
            "slug": "st-sites",
            "icon": "code",
            "description": "We build",
            "features": ["Fast"],
            "popular": True,
            "is_active": True,
            "sort_order": 3,
        },
    )
    ids = {
        "application_id": application.id,
        "document": "resume",
        "inquiry_id": inquiry.id,
        "invoice_id": invoice.id,
        "kind": "services",
        "item_id": service.id,
        "meeting_id": meeting.id,
        "organization_id": org.id,
        "price_id": price.id,
        "product_id": product.id,
        "project_id": project.id,
        "subscriber_id": rows["subscriber"].id,
        "user_id": client.id,
    }
    tokens = {
        "client": sessions.start(s, client).access_token,
        "admin": sessions.start(s, admin).access_token,
    }
    try:
        yield conn, tokens, {name: str(value) for name, value in ids.items()}
    finally:
        s.close()
        outer.rollback()
        conn.close()
        mp.undo()


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda o: o.label)
def test_schemathesis_no_5xx_and_schema_conformance(
    world: tuple[Connection, dict[str, str], dict[str, str]], operation: Any, caller: str
) -> None:
    conn, tokens, ids = world
    cookies = {"access_token": tokens[caller]} if caller in tokens else None

    @settings(
        max_examples=MAX_EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(), real_ids=st.booleans())
    def run(case: schemathesis.Case, real_ids: bool) -> None:
        if real_ids and case.path_parameters:
            case.path_parameters = {name: ids.get(name, value) for name, value in case.path_parameters.items()}
        nested = conn.begin_nested()
        _current["session"] = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
        try:
            response = case.call(cookies=cookies)
            checks = [response_schema_conformance]
            unconfigured = operation.path.startswith(UNCONFIGURED_GOOGLE) and response.status_code == 503
            if not (unconfigured and "Google sign-in is not available" in response.text):
                checks.append(not_a_server_error)
            case.validate_response(response, checks=checks)
        finally:
            _current["session"].close()
            nested.rollback()

    run()


def test_the_run_reaches_every_operation() -> None:
    # A schema walk that found nothing would pass vacuously.
    assert len(OPERATIONS) + len(EXCLUDED) >= 69
