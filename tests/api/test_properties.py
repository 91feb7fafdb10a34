"""Property tests (hypothesis): whatever a caller sends — any JSON type in any field, arbitrary Unicode, huge strings —
the answer is a clear 4xx that changes nothing, or a success whose stored result is right. Never a 5xx.

Each example runs in its own transaction that is rolled back afterwards (`Api.example`), so the rate limits, which
count in the database, start from zero every time and the properties are checked against the real code paths.
`HYPOTHESIS_EXAMPLES` raises the examples per property (the default keeps `make test` fast; `make torture` raises it).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import Session, func, select

from app.api import create_api
from app.api.middleware import BodySizeLimit, SecurityHeaders
from app.core.db import get_session
from app.core.errors import Invalid
from app.core.text import storable
from app.models import ContactInquiry, Project, User
from app.models.enums import Role
from app.services.accounts import sessions
from app.services.billing import billing
from app.services.platform.rules import normalize_email
from tests import factories as f

EXAMPLES = int(os.environ.get("HYPOTHESIS_EXAMPLES", "40"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)

# Any JSON value, weighted towards what breaks services: odd text, huge text, numbers at the edges, wrong types.
huge_text = st.builds(lambda ch, n: ch * n, st.characters(), st.integers(min_value=1_000, max_value=120_000))
odd_text = st.text(st.characters(codec="utf-8"), max_size=300)  # NUL and every plane; lone surrogates below
surrogate = st.sampled_from(["\ud800", "a\udfffb", "\ud83d"])
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    odd_text,
    huge_text,
    st.sampled_from(["", " ", "NaN", "Infinity", "-1", "1e309", "0x10", "9" * 40, "../../etc/passwd", "<script>"]),
)
any_json = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=5,
)


def body(
    fields: dict[str, st.SearchStrategy[Any]], required: tuple[str, ...] = ()
) -> st.SearchStrategy[dict[str, Any]]:
    """A JSON object: each field usually from its own strategy (a plausible value), sometimes any JSON at all; the
    required fields usually present; now and then only stray keys. Plausible values keep successes common enough
    for the "stored right" half of each property to be exercised (see --hypothesis-show-statistics)."""

    def field(v: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(v, v, v, any_json)

    present = {k: field(v) for k, v in fields.items() if k in required}
    optional = {k: field(v) for k, v in fields.items() if k not in required}
    shaped = st.fixed_dictionaries(present, optional=optional)
    return st.one_of(shaped, shaped, shaped, st.dictionaries(st.sampled_from([*fields, "extra"]), any_json, max_size=4))


words = st.text(st.characters(categories=("L", "N", "P", "Zs")), min_size=1, max_size=80).filter(str.strip)


class Api:
    """The API over one session per example, rolled back after it."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.session: Session | None = None
        api = create_api()
        api.dependency_overrides[get_session] = lambda: self.session
        self.client = TestClient(SecurityHeaders(BodySizeLimit(api)), raise_server_exceptions=False)

    @contextmanager
    def example(self) -> Iterator[Session]:
        conn = self.engine.connect()
        outer = conn.begin()
        s = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
        self.session = s
        self.client.cookies.clear()
        try:
            yield s
        finally:
            s.close()
            outer.rollback()
            conn.close()

    def send(self, method: str, path: str, payload: Any) -> Any:
        """JSON as a client library writes it: ASCII with \\u escapes, so lone surrogates travel too."""
        data = json.dumps(payload)
        return self.client.request(method, path, content=data, headers={"content-type": "application/json"})

    def sign_in(self, s: Session, user: User) -> None:
        self.client.cookies.set("access_token", sessions.start(s, user).access_token)


@pytest.fixture(scope="module")
def api(engine: Engine) -> Iterator[Api]:
    a = Api(engine)
    with a.client:
        yield a


def _clear_4xx(r: Any) -> None:
    """A refusal the product's way: a 4xx with a message a person can read (and field errors as text)."""
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:500])
    payload = r.json()
    assert isinstance(payload.get("message"), str) and payload["message"].strip()
    assert all(isinstance(v, str) and v for v in payload.get("errors", {}).values())


def _count(s: Session, model: type) -> int:
    return s.exec(select(func.count()).select_from(model)).one()


CONTACT = {
    "name": words,
    "email": st.emails(),
    "message": words,
    "company": st.text(max_size=220),
    "phone": st.text(max_size=40),
    "service_type": st.text(max_size=60),
    "budget": st.text(max_size=60),
    "newsletter": st.booleans(),
}


@SETTINGS
@given(payload=body(CONTACT, required=("name", "email", "message")))
def test_contact_form_stores_what_it_acknowledges_or_refuses_clearly(api: Api, payload: dict[str, Any]) -> None:
    with api.example() as s:
        before = _count(s, ContactInquiry)
        r = api.send("POST", "/api/contact", payload)
        event(str(r.status_code))  # --hypothesis-show-statistics: how many succeeded
        if r.status_code == 201:
            row = s.exec(select(ContactInquiry).order_by(ContactInquiry.id.desc())).first()  # type: ignore[union-attr]
            assert row is not None and _count(s, ContactInquiry) == before + 1
            assert row.email == normalize_email(str(payload["email"]))  # the one stored form of an address
            assert " ".join(row.message.split()) == " ".join(str(payload["message"]).split())
        else:
            _clear_4xx(r)
            assert _count(s, ContactInquiry) == before


REGISTER = {
    "username": st.from_regex(r"[a-z][a-z0-9_]{2,20}", fullmatch=True),
    "email": st.emails(),
    "password": st.from_regex(r"[A-Z][a-z]{6,12}[0-9]{2}[!#%&*+=?@^_-]", fullmatch=True),
    "first_name": st.text(max_size=60),
    "last_name": st.text(max_size=60),
    "company": st.text(max_size=120),
    "phone": st.text(max_size=30),
}


@SETTINGS
@given(payload=body(REGISTER, required=("username", "email", "password")))
def test_registration_creates_exactly_the_account_asked_for_or_refuses_clearly(
    api: Api, payload: dict[str, Any]
) -> None:
    with api.example() as s:
        before = _count(s, User)
        r = api.send("POST", "/api/auth/register", payload)
        event(str(r.status_code))  # --hypothesis-show-statistics: how many succeeded
        if r.status_code == 201:
            user = s.exec(select(User).where(User.username == payload["username"])).one()
            assert user.email == normalize_email(str(payload["email"])) and not user.is_verified
            assert _count(s, User) == before + 1
        else:
            _clear_4xx(r)
            assert _count(s, User) == before


PROFILE = {
    "first_name": st.text(max_size=60),
    "last_name": st.text(max_size=60),
    "phone": st.text(max_size=30),
    "company": st.text(max_size=120),
    "username": st.from_regex(r"[a-z][a-z0-9_]{2,20}", fullmatch=True),
}


@SETTINGS
@given(payload=body(PROFILE))
def test_a_profile_update_changes_only_what_was_accepted(api: Api, payload: dict[str, Any]) -> None:
    with api.example() as s:
        user = f.user(s, "prop_client", first_name="Casey", company="Acme")
        api.sign_in(s, user)
        r = api.send("PUT", "/api/protected/profile", payload)
        event(str(r.status_code))  # --hypothesis-show-statistics: how many succeeded
        s.refresh(user)
        if r.status_code == 200:
            shown = r.json()["user"]
            assert shown["username"] == user.username and shown["first_name"] == user.first_name
        else:
            _clear_4xx(r)
            assert (user.username, user.first_name, user.company) == ("prop_client", "Casey", "Acme")


PROJECT = {
    "name": words,
    "client_id": st.just("CLIENT"),
    "status": st.sampled_from(["planning", "in_progress", "completed", "on_hold", "cancelled", "done"]),
    "project_type": st.sampled_from(["web_development", "consulting", "other", "x"]),
    "budget": st.decimals(min_value=0, max_value=10**6, places=2).map(str),
    "progress_percentage": st.integers(min_value=0, max_value=100),
    "start_date": st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 1, 1)).map(str),
    "estimated_hours": st.integers(min_value=0, max_value=10_000),
    "milestones": st.lists(st.fixed_dictionaries({"title": st.text(max_size=300)}), max_size=3),
}


@SETTINGS
@given(payload=body(PROJECT, required=("name", "client_id", "status", "project_type")))
def test_staff_project_writes_succeed_or_refuse_clearly(api: Api, payload: dict[str, Any]) -> None:
    with api.example() as s:
        admin = f.user(s, "prop_admin", role=Role.admin)
        client = f.user(s, "prop_owner")
        if payload.get("client_id") == "CLIENT":
            payload["client_id"] = str(client.id)
        api.sign_in(s, admin)
        before = _count(s, Project)
        r = api.send("POST", "/api/protected/projects", payload)
        event(str(r.status_code))  # --hypothesis-show-statistics: how many succeeded
        if r.status_code == 201:
            assert _count(s, Project) == before + 1
            project = s.exec(select(Project).order_by(Project.created_at.desc())).first()  # type: ignore[attr-defined]
            assert project is not None and project.name == " ".join(str(payload["name"]).split())
            assert 0 <= project.progress_percentage <= 100
            sent = payload.get("progress_percentage", 0)
            if type(sent) is int:
                assert project.progress_percentage == sent
        else:
            _clear_4xx(r)
            assert _count(s, Project) == before


CENT = Decimal("0.01")
money = st.decimals(min_value=0, max_value=Decimal("99999999.99"), places=2, allow_nan=False)
line = st.fixed_dictionaries(
    {
        # Text the database can store (a NUL is refused as a field error: the any-text property covers that).
        "description": st.text(min_size=1, max_size=40).filter(lambda t: t.strip() and storable(t)),
        "quantity": st.integers(1, 100_000),
        "unit_price": money,
    }
)


@SETTINGS
@given(items=st.lists(line, min_size=1, max_size=6), rate=st.decimals(min_value=0, max_value=100, places=2))
def test_invoice_arithmetic_is_exact_to_the_cent_or_refused_at_the_column_limit(
    items: list[dict[str, Any]], rate: Decimal
) -> None:
    limit = Decimal("99999999.99")
    amounts = [(Decimal(i["quantity"]) * i["unit_price"]).quantize(CENT, rounding=ROUND_HALF_UP) for i in items]
    subtotal = sum(amounts, Decimal(0))
    tax = (subtotal * rate / 100).quantize(CENT, rounding=ROUND_HALF_UP)
    try:
        priced = billing.price_invoice(items, str(rate))
    except Invalid as exc:
        assert max(amounts) > limit or subtotal > limit or subtotal + tax > limit, exc.errors
        return
    assert [line.amount for line in priced.lines] == amounts
    assert (priced.subtotal, priced.tax, priced.total) == (subtotal, tax, subtotal + tax)
    assert priced.total <= limit and all(x.as_tuple().exponent == -2 for x in (priced.subtotal, priced.tax))


@SETTINGS
@given(
    items=st.lists(st.dictionaries(st.sampled_from(["description", "quantity", "unit_price"]), any_json), max_size=4),
    rate=any_json,
)
def test_invoice_pricing_of_garbage_is_a_field_error(items: list[dict[str, Any]], rate: Any) -> None:
    try:
        billing.price_invoice(items, rate)
    except Invalid as exc:
        assert exc.errors and all(isinstance(v, str) and v for v in exc.errors.values())


@SETTINGS
@given(text=st.one_of(odd_text, surrogate, huge_text))
def test_any_text_in_any_public_form_field_is_stored_or_refused(api: Api, text: str) -> None:
    with api.example():
        for path, payload in (
            ("/api/contact", {"name": text, "email": "a@example.com", "message": text}),
            ("/api/newsletter/subscribe", {"email": text}),
            ("/api/auth/login", {"identifier": text, "password": text}),
            ("/api/auth/forgot-password", {"email": text}),
        ):
            r = api.send("POST", path, payload)
            assert r.status_code < 500, (path, r.status_code, r.text[:300])
