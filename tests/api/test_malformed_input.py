"""A sweep over the API's own OpenAPI schema: every operation answers malformed input with a 4xx, never a 5xx.

For each operation and each caller (signed out, a client, an admin) it sends, one change at a time on top of a valid
request: NUL, a lone surrogate and overlong text in every string (path, query, body, form field), integer ids at
and past the database's range, huge page numbers, dates at the ends of the calendar, amounts past what
Numeric(10, 2) holds, and a value of the wrong JSON type in every body field the route reads. Many bodies were
free-form objects, so the fields a route reads are written out below (from the routes and services); the schema's
own properties are added to them.

Each case runs in a savepoint rolled back afterwards, so a deletion or a rate limit in one case cannot hide another.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import bcrypt
import pytest
from fastapi.testclient import TestClient
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

NUL = "a\x00b"
SURROGATE = "\ud800"
# Past every column's width: a service that forgets a length check must still not answer 500.
LONG = "x" * 10_000
BAD_STRINGS = (NUL, SURROGATE, LONG)
# For string parameters a route may parse as a number: past INTEGER, a digit int() refuses, past int()'s digit limit.
NUMERIC_STRINGS = ("99999999999", "\u00b2", "9" * 5000)
WRONG_TYPES: tuple[Any, ...] = (["x"], 12345, {"a": 1})
BAD_IDS = (2**31, 2**63, -1)
BAD_DATES = ("0001-01-01", "9999-12-31")
BAD_DATETIMES = ("0001-01-01T00:00:00+05:00", "9999-12-31T23:59:00+00:00")
BAD_MONEY: tuple[Any, ...] = ("1000000000000", 10**12)
BAD_INTS: tuple[Any, ...] = (2**31, 2**63, -1)
DATE_FIELDS = {"start_date", "end_date", "deadline", "due_date", "paid_on", "date"}
DATETIME_FIELDS = {"start_time"}
MONEY_FIELDS = {"amount", "unit_price", "budget", "tax_rate"}
INT_FIELDS = {"quantity", "rating", "sort_order", "duration_minutes", "estimated_hours", "progress_percentage"}
ID_FIELDS = {"organization_id", "project_id"}
PAGING = {"page", "page_size", "limit"}
PDF = b"%PDF-1.4\n%sweep\n"
CALLERS = ("anonymous", "client", "admin")

World = dict[str, Any]
Body = dict[str, Any] | Callable[[World], dict[str, Any]]

ITEM = {"description": "Work", "quantity": 1, "unit_price": "10.00"}
MILESTONE = {"title": "Design", "description": "Mock-ups", "due_date": "2031-01-10", "status": "pending"}
PRICE = {"amount": "10.00", "currency": "usd", "billing_period": "one_time", "is_active": True}
# Fields whose value is a list of objects: each gets wrong types itself, and each inner field gets its own cases.
NESTED = {"items": ITEM, "milestones": MILESTONE, "prices": PRICE}


def _project(w: World) -> dict[str, Any]:
    return {
        "name": "Sweep site",
        "client_id": str(w["client"].id),
        "status": "planning",
        "project_type": "web_development",
        "description": "A site",
        "organization_id": w["organization"].id,
        "budget": "1000.00",
        "start_date": "2031-01-01",
        "end_date": "2031-06-01",
        "deadline": "2031-06-01",
        "estimated_hours": 10,
        "progress_percentage": 10,
    }


def _meeting(w: World) -> dict[str, Any]:
    return {
        "client_id": str(w["client"].id),
        "title": "Sweep call",
        "start_time": "2031-01-06T15:00:00+00:00",
        "duration_minutes": 30,
        "description": "Talk",
        "meeting_type": "Call",
        "meeting_url": "https://meet.example.com/x",
        "project_id": w["project"].id,
    }


USER_FIELDS = {"username": "made_user", "email": "made_user@example.com", "password": "Password-123"}
PROFILE = {"first_name": "Made", "last_name": "User", "phone": "+1 555 123 4567", "company": "Acme"}
SITE = {
    "testimonials": {
        "name": "Pat",
        "role": "CEO",
        "company": "Acme",
        "text": "Great",
        "rating": 5,
        "date": "2030-01-01",
        "verified": True,
        "featured": False,
        "is_published": True,
        "sort_order": 1,
    },
    "jobs": {
        "title": "Engineer",
        "code": "JOB-900",
        "department": "Dev",
        "location": "Remote",
        "employment_type": "Full-time",
        "salary": "$1",
        "description": "Build",
        "requirements": ["Python"],
        "benefits": "Fun\nMore fun",
        "is_active": True,
        "sort_order": 2,
    },
    "services": {
        "title": "Sites",
        "slug": "sweep-sites",
        "icon": "code",
        "description": "We build",
        "features": ["Fast"],
        "popular": True,
        "is_active": True,
        "sort_order": 3,
    },
    "portfolio": {
        "title": "Case",
        "category": "Web Development",
        "description": "Did",
        "tags": ["a"],
        "link": "https://example.com",
        "is_live": True,
        "is_published": True,
        "sort_order": 4,
    },
    "team": {"name": "Sam", "role": "Dev", "bio": "Codes", "skills": ["Go"], "is_published": True, "sort_order": 5},
}

# The fields each route reads, as a valid body; one field at a time is then made malformed.
BODIES: dict[tuple[str, str], Body] = {
    ("POST", "/api/auth/register"): {**USER_FIELDS, **PROFILE},
    ("POST", "/api/auth/verify"): lambda w: {"userId": str(w["unverified"].id), "code": "123456"},
    ("POST", "/api/auth/resend-code"): lambda w: {"userId": str(w["unverified"].id)},
    ("POST", "/api/auth/login"): {"identifier": "nobody", "password": "Wrong-pass-1"},
    ("PUT", "/api/protected/profile"): {**PROFILE, "username": "renamed_user"},
    ("PUT", "/api/protected/change-password"): {
        "currentPassword": f.PASSWORD,
        "newPassword": "Another-pass-1",
        "confirmPassword": "Another-pass-1",
    },
    ("POST", "/api/auth/complete-profile"): {"username": "done_user", "company": "Acme", "phone": "+1 555 123 4567"},
    ("PUT", "/api/protected/projects/{project_id}"): _project,
    ("POST", "/api/protected/projects"): _project,
    ("POST", "/api/protected/meetings/{meeting_id}/cancel"): {"reason": "Busy"},
    ("POST", "/api/admin/users"): {
        **USER_FIELDS,
        **PROFILE,
        "password_hash": "Password-123",
        "role": "employee",
        "employee_type": "developer",
        "extra_permissions": ["content:read"],
    },
    ("PUT", "/api/admin/users/{user_id}"): {
        **PROFILE,
        "username": "renamed_client",
        "email": "renamed@example.com",
        "role": "client",
        "employee_type": None,
        "extra_permissions": [],
        "revoked_permissions": [],
        "is_verified": True,
    },
    ("POST", "/api/protected/create-client"): {**USER_FIELDS, **PROFILE, "password_hash": "Password-123"},
    ("PUT", "/api/protected/reset-password/{user_id}"): {"newPassword": "Another-pass-1"},
    ("PUT", "/api/admin/inquiries/{inquiry_id}"): lambda w: {
        "status": "in_progress",
        "priority": "high",
        "assigned_to": str(w["admin"].id),
        "is_spam": False,
        "notes": "Call back",
    },
    ("POST", "/api/protected/organizations"): lambda w: {
        "name": "Sweep Org",
        "description": "Org",
        "industry": "Tech",
        "website": "https://example.com",
        "size": "small",
        "primary_contact_id": str(w["client"].id),
    },
    ("PUT", "/api/protected/projects/{project_id}/milestones"): {"milestones": [MILESTONE]},
    ("POST", "/api/admin/products"): {
        "name": "Sweep product",
        "description": "A thing",
        "category": "service_package",
        "is_active": True,
        "metadata": {"tier": "gold"},
        "prices": [PRICE],
    },
    ("POST", "/api/admin/products/{product_id}/prices"): PRICE,
    ("PUT", "/api/admin/prices/{price_id}"): {"is_active": False},
    ("POST", "/api/admin/invoices"): lambda w: {
        "client_id": str(w["client"].id),
        "project_id": w["project"].id,
        "description": "Work",
        "notes": "Thanks",
        "due_date": "2031-02-01",
        "tax_rate": "7",
        "items": [ITEM],
    },
    ("POST", "/api/admin/invoices/{invoice_id}/payments"): {
        "amount": "1.00",
        "method": "card",
        "paid_on": "2031-01-01",
    },
    ("PUT", "/api/admin/invoices/{invoice_id}/reminders"): {"enabled": False},
    ("POST", "/api/admin/meetings"): _meeting,
    ("PUT", "/api/admin/meetings/{meeting_id}"): _meeting,
    ("PUT", "/api/admin/applications/{application_id}"): {"status": "reviewing", "notes": "Good"},
    ("POST", "/api/contact"): {
        "name": "Pat",
        "email": "pat@example.com",
        "company": "Acme",
        "phone": "+1 555 123 4567",
        "service_type": "other",
        "budget": "discuss",
        "message": "Hello",
        "newsletter": True,
        "website": "",
    },
    ("POST", "/api/newsletter/subscribe"): {"email": "news@example.com", "source": "footer"},
}
BODIES[("PUT", "/api/protected/organizations/{organization_id}")] = BODIES[("POST", "/api/protected/organizations")]
BODIES[("PUT", "/api/admin/products/{product_id}")] = BODIES[("POST", "/api/admin/products")]
# Compound money edges: each value fits, their product or sum does not.
EXTRA_BODIES: dict[tuple[str, str], list[Body]] = {
    ("POST", "/api/admin/invoices"): [
        lambda w: {
            "client_id": str(w["client"].id),
            "items": [{**ITEM, "quantity": 100000, "unit_price": "99999999.99"}],
        },
        lambda w: {"client_id": str(w["client"].id), "items": [{**ITEM, "unit_price": "99999999.99"}] * 2},
        lambda w: {
            "client_id": str(w["client"].id),
            "tax_rate": "100",
            "items": [{**ITEM, "unit_price": "99999999.99"}],
        },
    ],
}
APPLICATION_FORM = {
    "firstName": "Pat",
    "lastName": "Lee",
    "phone": "+1 555 123 4567",
    "email": "pat.lee@example.com",
    "linkedinProfile": "https://linkedin.com/in/pat",
    "jobId": "JOB-001",
}
# Operations the schema leaves out (native HTML form posts), with their form fields.
HIDDEN_FORMS = {
    "/api/auth/form/login": {"identifier": "nobody", "password": "Wrong-pass-1", "page": "portal", "welcome": "1"},
}


@dataclass
class Case:
    name: str
    path: str
    query: str = ""
    json_body: Any = None
    raw_json: bool = False
    form: dict[str, str] | None = None
    files: dict[str, tuple[str, bytes, str]] | None = None


@dataclass
class Operation:
    method: str
    template: str
    params: list[dict[str, Any]]
    body_fields: set[str] = field(default_factory=set)
    body_kind: str | None = None  # "json" | "form"

    @property
    def id(self) -> str:
        return f"{self.method} {self.template}"


def _resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    return spec["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else schema


def operations() -> list[Operation]:
    spec = create_api().openapi()
    ops = []
    for template, methods in spec["paths"].items():
        for method, op in methods.items():
            content = op.get("requestBody", {}).get("content", {})
            kind = "form" if "multipart/form-data" in content else "json" if content else None
            props: set[str] = set()
            if content:
                schema = _resolve(next(iter(content.values()))["schema"], spec)
                props = set(schema.get("properties", {}))
            ops.append(Operation(method.upper(), template, op.get("parameters", []), props, kind))
    ops += [Operation("POST", path, [], set(fields), "form") for path, fields in HIDDEN_FORMS.items()]
    return ops


def _quote(value: str) -> str:
    # A lone surrogate cannot be UTF-8 encoded; send the bytes a client would (its CESU-8 form) percent-encoded.
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


def _path_defaults(w: World, kind: str) -> dict[str, str]:
    return {
        "project_id": str(w["project"].id),
        "invoice_id": str(w["invoice"].id),
        "meeting_id": str(w["meeting"].id),
        "inquiry_id": str(w["inquiry"].id),
        "organization_id": str(w["organization"].id),
        "product_id": str(w["product"].id),
        "price_id": str(w["price"].id),
        "application_id": str(w["application"].id),
        "subscriber_id": str(w["subscriber"].id),
        "item_id": str(w["site_rows"][kind]),
        "user_id": str(w["target"].id),
        "kind": kind,
        "document": "resume",
    }


def _fill(template: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        template = template.replace("{" + name + "}", value)
    return template


def _field_values(name: str) -> list[Any]:
    values: list[Any] = [*BAD_STRINGS, *WRONG_TYPES]
    if name in DATE_FIELDS:
        values += BAD_DATES
    if name in DATETIME_FIELDS:
        values += BAD_DATETIMES
    if name in MONEY_FIELDS:
        values += BAD_MONEY
    if name in INT_FIELDS | ID_FIELDS:
        values += BAD_INTS
    return values


def _site_kind(template: str) -> str | None:
    """The content kind a site editor write is for: each kind has its own routes (its own body)."""
    parts = template.split("/")
    return parts[4] if template.startswith("/api/admin/site/") and len(parts) > 4 and parts[4] in SITE else None


def _body_cases(op: Operation, w: World, kind: str, path: str, seen: set[str], full: bool) -> Iterator[Case]:
    key = (op.method, op.template)
    base = BODIES.get(key, {})
    body = dict(base(w) if callable(base) else base)
    if "{kind}" in op.template or _site_kind(op.template):
        body = dict(SITE[kind])
    # A field shared by several site content kinds is validated the same way in each: test it once.
    names = sorted((set(body) if "{kind}" in op.template else op.body_fields | set(body)) - seen)
    seen.update(names)
    if not full:
        for value in BAD_STRINGS:
            yield Case(f"body every field={value!r}", path, json_body={**body, **dict.fromkeys(names, value)})
        return
    for name in names:
        for value in _field_values(name):
            yield Case(f"body {name}={value!r}", path, json_body={**body, name: value})
        if name in NESTED:
            for value in (["x"], [1], [[]], [None]):
                yield Case(f"body {name}={value!r}", path, json_body={**body, name: value})
            inner = NESTED[name]
            for sub in inner:
                for value in _field_values(sub):
                    yield Case(
                        f"body {name}.0.{sub}={value!r}", path, json_body={**body, name: [{**inner, sub: value}]}
                    )
    if not seen - set(names):  # the first kind only
        for value in ([], "text", 7, None):
            yield Case(f"body is {value!r}", path, json_body=value)
    for extra in EXTRA_BODIES.get(key, []):
        yield Case("body compound edge", path, json_body=extra(w) if callable(extra) else extra)


def _form_cases(op: Operation, path: str) -> Iterator[Case]:
    if op.template in HIDDEN_FORMS:
        base, files = dict(HIDDEN_FORMS[op.template]), None
    else:
        base, files = dict(APPLICATION_FORM), {"resume": ("cv.pdf", PDF, "application/pdf")}
    for name in sorted(base):
        yield Case(f"form {name} NUL", path, form={**base, name: NUL}, files=files)
        if files:  # a text field sent as a file
            yield Case(f"form {name} as a file", path, form=base, files={**files, name: ("x.txt", b"x", "text/plain")})
    if files:
        yield Case("form resume name NUL", path, form=base, files={"resume": ("cv\x00.pdf", PDF, "application/pdf")})
        yield Case("form resume as text", path, form={**base, "resume": "x"}, files={})


def baseline(op: Operation, w: World) -> Case:
    """The operation's valid request, whose answer tells whether a caller gets past authorization."""
    kind = _site_kind(op.template) or "testimonials"
    path = _fill(op.template, _path_defaults(w, kind))
    if op.body_kind == "form":
        return Case("baseline", path, form=HIDDEN_FORMS.get(op.template, APPLICATION_FORM), files={})
    site = "{kind}" in op.template or _site_kind(op.template)
    base = SITE[kind] if site else BODIES.get((op.method, op.template), {})
    return Case("baseline", path, json_body=dict(base(w) if callable(base) else base))


def cases(op: Operation, w: World, *, full: bool = True) -> Iterator[Case]:
    """The malformed requests for an operation; a caller it refuses gets only those that could fail before that."""
    kinds = list(SITE) if "{kind}" in op.template else [_site_kind(op.template) or "testimonials"]
    seen: set[str] = set()
    for kind in kinds:
        defaults = _path_defaults(w, kind)
        path = _fill(op.template, defaults)
        for p in op.params if kind == kinds[0] else []:
            name, where = p["name"], p["in"]
            schema = p["schema"]
            types = {s.get("type") for s in schema.get("anyOf", [schema])}
            formats = {s.get("format") for s in schema.get("anyOf", [schema])}
            if where == "path":
                bad = [*BAD_STRINGS] + ([str(i) for i in BAD_IDS] if "integer" in types else [*NUMERIC_STRINGS])
                for value in bad:
                    yield Case(f"path {name}={value!r}", _fill(op.template, {**defaults, name: _quote(value)}))
            elif "integer" in types:
                for value in (2**63, -(2**63), 2**31):
                    yield Case(f"query {name}={value}", path, query=f"{name}={value}")
            elif "date" in formats:
                for value in BAD_DATES:
                    yield Case(f"query {name}={value}", path, query=f"{name}={value}")
            elif "string" in types:
                for value in (*BAD_STRINGS, *NUMERIC_STRINGS):
                    yield Case(f"query {name}={value!r}", path, query=f"{name}={_quote(value)}")
        if op.body_kind == "json":
            yield from _body_cases(op, w, kind, path, seen, full)
        elif op.body_kind == "form":
            yield from _form_cases(op, path)


def _fast_hash() -> str:
    return bcrypt.hashpw(b"x", bcrypt.gensalt(4)).decode()


@pytest.fixture(scope="module")
def sweep(engine: Engine) -> Iterator[tuple[Connection, World]]:
    """One world of records for every case; each case then runs in a savepoint of its own."""
    mp = pytest.MonkeyPatch()
    # bcrypt at cost 12 would make the sweep take minutes; the cost is not what is tested here.
    mp.setattr(security, "BCRYPT_ROUNDS", 4)
    mp.setattr(security, "DUMMY_HASH", _fast_hash())
    conn = engine.connect()
    outer = conn.begin()
    s = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
    pw = bcrypt.hashpw(f.PASSWORD.encode(), bcrypt.gensalt(4)).decode()
    client = f.user(s, "sweep_client", password_hash=pw)
    admin = f.user(s, "sweep_admin", role=Role.admin, password_hash=pw)
    w: World = {
        "client": client,
        "admin": admin,
        "target": f.user(s, "sweep_target", password_hash=pw),
        "unverified": f.user(s, "sweep_new", password_hash=pw, is_verified=False),
        "project": f.project(s, client),
        "invoice": f.invoice(s, client, status=InvoiceStatus.pending),
        "meeting": f.meeting(s, client),
    }
    w |= f.one_of_each(s, "Sweep")
    w["site_rows"] = {}
    for kind, values in SITE.items():
        w["site_rows"][kind] = site_admin.create_item(s, actor=admin, kind=kind, data=dict(values)).id
    # Each kind's unique id is taken now, so a case's create must pick its own.
    w["tokens"] = {
        "client": sessions.start(s, client).access_token,
        "admin": sessions.start(s, admin).access_token,
    }
    try:
        yield conn, w
    finally:
        s.close()
        outer.rollback()
        conn.close()
        mp.undo()


@pytest.fixture(scope="module")
def api_client(sweep: tuple[Connection, World]) -> Iterator[tuple[TestClient, dict[str, Session]]]:
    api = create_api()
    current: dict[str, Session] = {}
    api.dependency_overrides[get_session] = lambda: current["session"]
    with TestClient(SecurityHeaders(BodySizeLimit(api)), raise_server_exceptions=False) as c:
        yield c, current


def send(c: TestClient, op: Operation, case: Case) -> Any:
    url = case.path + (f"?{case.query}" if case.query else "")
    if case.form is not None or case.files is not None:
        return c.request(op.method, url, data=case.form, files=case.files or None)
    if op.body_kind == "json":
        # json.dumps escapes a lone surrogate as \ud800, the form a browser or another client would send.
        return c.request(
            op.method, url, content=json.dumps(case.json_body or {}), headers={"content-type": "application/json"}
        )
    return c.request(op.method, url)


def run_operation(
    c: TestClient, current: dict[str, Session], conn: Connection, w: World, op: Operation, caller: str
) -> list[str]:
    """Every case of one operation for one caller; returns the cases answered with a 5xx."""
    c.cookies.clear()
    if caller != "anonymous":
        c.cookies.set("access_token", w["tokens"][caller])
    failures = []

    def isolated(case: Case) -> Any:
        nested = conn.begin_nested()
        current["session"] = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
        try:
            return send(c, op, case)
        finally:
            current["session"].close()
            nested.rollback()

    # Past authorization every case counts; before it, only the path, the query and the strings can be reached.
    full = isolated(baseline(op, w)).status_code not in (401, 403)
    for case in cases(op, w, full=full):
        r = isolated(case)
        if r.status_code >= 500:
            failures.append(f"{case.name}: {r.status_code} {r.text[:120]}")
        elif r.status_code == 422 and r.headers.get("content-type", "").startswith("application/json"):
            body = r.json()
            assert set(body) >= {"message", "errors"}, f"{op.id} {case.name}: {body}"
    return failures


OPERATIONS = operations()


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("op", OPERATIONS, ids=lambda o: o.id)
def test_malformed_input_never_answers_5xx(
    api_client: tuple[TestClient, dict[str, Session]], sweep: tuple[Connection, World], op: Operation, caller: str
) -> None:
    c, current = api_client
    conn, w = sweep
    failures = run_operation(c, current, conn, w, op, caller)
    assert not failures, f"{op.id} as {caller}:\n" + "\n".join(failures)


def test_the_sweep_reaches_every_operation() -> None:
    # A schema walk that found nothing would pass vacuously.
    assert len(OPERATIONS) >= 69
    assert any(op.body_kind == "form" for op in OPERATIONS)
