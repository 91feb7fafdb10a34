"""The account pages' handlers enforce the same rules as the REST calls: a crafted event changes nothing it may not."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from reflex.istate.data import RouterData
from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.app import app  # noqa: F401  (registers the pages and their states)
from app.core.security import verify_password
from app.models.system import EmailOutbox
from app.models.user import PasswordResetToken, User
from app.services.accounts import password_reset
from app.ui.auth.complete_profile import CompleteProfileState
from app.ui.auth.password_reset import ForgotPasswordState, ResetPasswordState
from app.ui.auth.register import RegisterState
from tests import factories as f
from tests.services.test_password_reset import mailed_token
from tests.ui.harness import drain, in_own_loop, root_state, sign_in


@pytest.fixture
def users(engine: Engine) -> Iterator[dict[str, User]]:
    tag = uuid.uuid4().hex[:6]
    with Session(engine, expire_on_commit=False) as s:
        made = {"done": f.user(s, f"done_{tag}"), "half": f.user(s, f"half_{tag}", profile_complete=False)}
    yield made
    with Session(engine) as s:
        ids = [u.id for u in made.values()]
        s.exec(delete(EmailOutbox).where(col(EmailOutbox.to_address).in_([u.email for u in made.values()])))  # type: ignore[call-overload]
        s.exec(delete(PasswordResetToken).where(col(PasswordResetToken.user_id).in_(ids)))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id).in_(ids)))  # type: ignore[call-overload]
        s.commit()


def password_hash(engine: Engine, user: User) -> str | None:
    with Session(engine) as s:
        return s.get(User, user.id).password_hash  # type: ignore[union-attr]


CRAFTED = {"company": "X Co", "phone": "+1 772 555 0199", "password": "Hijack-pass-1"}


@in_own_loop
async def test_a_crafted_complete_profile_event_cannot_replace_a_password(
    engine: Engine, users: dict[str, User]
) -> None:
    for kind in ("done", "half"):
        user = users[kind]
        before = password_hash(engine, user)
        state = await root_state(sign_in(engine, user)).get_state(CompleteProfileState)
        await drain(state.submit({"username": user.username, **CRAFTED}))
        assert password_hash(engine, user) == before
        assert not verify_password(CRAFTED["password"], before)
        assert state.message or state.errors  # the page says why


@in_own_loop
async def test_the_reset_pages_send_a_link_and_use_it(engine: Engine, users: dict[str, User]) -> None:
    user = users["done"]
    forgot = await root_state(None).get_state(ForgotPasswordState)
    await drain(forgot.submit({"email": user.email}))
    assert forgot.sent == password_reset.SENT and forgot.errors == {}
    with Session(engine) as s:
        token = mailed_token(s, user.email)

    root = root_state(None)
    root.router = RouterData.from_router_data(
        {"headers": {"origin": "http://127.0.0.1:3000"}, "asPath": f"/reset-password?token={token}"}
    )
    reset = await root.get_state(ResetPasswordState)
    await reset.load()
    assert reset.view == "form" and reset.problem == ""
    await drain(reset.submit({"newPassword": "Fresh-start-42", "confirmPassword": "Fresh-start-4"}))
    assert reset.errors == {"confirmPassword": "New password and confirmation do not match"}
    await drain(reset.submit({"newPassword": "Fresh-start-42", "confirmPassword": "Fresh-start-42"}))
    assert reset.view == "done" and reset.sign_in == "/client-portal"
    assert verify_password("Fresh-start-42", password_hash(engine, user))
    with Session(engine) as s:
        assert s.exec(select(PasswordResetToken).where(PasswordResetToken.user_id == user.id)).one().used_at
    await reset.load()  # the same link opened again
    assert reset.view == "invalid" and "already been used" in reset.problem


@in_own_loop
async def test_the_staff_sign_in_sends_clients_to_their_own(engine: Engine, users: dict[str, User]) -> None:
    """Issue 12, point 2: a signed-in client on /admin/login is told where clients sign in; so is a client whose
    sign-in the staff form refused (its username carried over to the portal's form)."""
    from app.ui.auth.login import LoginState

    client = users["done"]
    signed_in = await root_state(sign_in(engine, client)).get_state(LoginState)
    assert await signed_in.load_admin_login() is None
    assert signed_in.view == "client" and signed_in.portal_sign_in == "/client-portal"

    root = root_state(None)
    root.router = RouterData.from_router_data(
        {"headers": {}, "asPath": "/admin/login?error=not_staff&identifier=jo%2Bwork%40example.com"}
    )
    refused = await root.get_state(LoginState)
    await refused.load_admin_login()
    assert refused.view == "form" and refused.wrong_door
    assert refused.portal_sign_in == "/client-portal?identifier=jo%2Bwork%40example.com"

    root = root_state(None)
    root.router = RouterData.from_router_data({"headers": {}, "asPath": "/admin/login?error=invalid"})
    wrong_password = await root.get_state(LoginState)
    await wrong_password.load_admin_login()
    assert not wrong_password.wrong_door  # only a refused client is sent elsewhere


@in_own_loop
async def test_the_register_page_answers_a_taken_address_as_a_new_one(engine: Engine, users: dict[str, User]) -> None:
    """Defect: the page said "This email is already registered" for an address with an account."""
    owner = users["done"]
    tag = uuid.uuid4().hex[:6]
    pages = []
    for name, email in ((f"fresh_{tag}", f"fresh_{tag}@example.com"), (f"probe_{tag}", owner.email.upper())):
        page = await root_state(None).get_state(RegisterState)
        await drain(page.register({"username": name, "email": email, "password": "Correct-horse-1"}))
        pages.append(page)
    try:
        for page, email in zip(pages, (f"fresh_{tag}@example.com", owner.email), strict=True):
            assert (page.step, page.errors, page.message, page.email) == ("verify", {}, "", email)
        with Session(engine) as s:
            subjects = s.exec(select(EmailOutbox.subject).where(EmailOutbox.to_address == owner.email)).all()
            assert any("tried to register" in subject for subject in subjects)
    finally:
        with Session(engine) as s:
            made = s.exec(select(User.id).where(col(User.username).in_([f"fresh_{tag}", f"probe_{tag}"]))).all()
            s.exec(delete(EmailOutbox).where(EmailOutbox.to_address == f"fresh_{tag}@example.com"))  # type: ignore[call-overload,arg-type]
            s.exec(delete(User).where(col(User.id).in_(made)))  # type: ignore[call-overload]
            s.commit()
