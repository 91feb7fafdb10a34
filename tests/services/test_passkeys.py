"""Passkeys (issue 28, ADR 0104) against a software authenticator: adding one, the second step with it, a sign-in
without a password (the authenticator must have verified the person), and what is refused: another origin, a
ceremony used twice or expired, a counter that went back, another account's passkey, too many passkeys."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.core.config import settings
from app.core.errors import Invalid, TooManyRequests, Unauthorized
from app.models.base import utcnow
from app.models.enums import Role
from app.models.second_factor import Passkey, WebAuthnCeremony
from app.models.system import AuditLog, EmailOutbox
from app.models.user import User
from app.services.accounts import passkeys, second_factor, sign_in
from tests import factories as f
from tests.services.conftest import Committed
from tests.services.test_second_factor import IP, enrol
from tests.services.test_throttle_races import in_parallel, kinds
from tests.soft_authenticator import SoftAuthenticator

SITE = "https://portal.example.com"


@pytest.fixture(autouse=True)
def public_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "public_url", SITE)


def device(**kw: object) -> SoftAuthenticator:
    return SoftAuthenticator(origin=SITE, rp_id="portal.example.com", **kw)  # type: ignore[arg-type]


def add(s: Session, user: User, key: SoftAuthenticator, name: str = "Laptop") -> Passkey:
    token, options = passkeys.registration_options(s, user)
    return passkeys.register(s, user, token, key.create(json.loads(options)), name, ip=IP)


def test_the_relying_party_is_the_sites_host_and_loopback_is_localhost(monkeypatch: pytest.MonkeyPatch) -> None:
    assert passkeys.site() == passkeys.Site("portal.example.com", SITE)
    monkeypatch.setattr(settings, "public_url", "http://127.0.0.1:3000")
    assert passkeys.site() == passkeys.Site("localhost", "http://localhost:3000")


def test_adding_a_passkey_keeps_its_public_key_and_tells_the_owner(session: Session) -> None:
    user = f.user(session, "pk_add", first_name="Pat")
    token, options = passkeys.registration_options(session, user)
    parsed = json.loads(options)
    assert parsed["rp"]["id"] == "portal.example.com" and parsed["user"]["name"] == user.email
    stored = passkeys.register(session, user, token, device().create(parsed), "Laptop", ip=IP)
    assert stored.name == "Laptop" and stored.transports == ["internal"]
    assert [p.id for p in passkeys.listed(session, user)] == [stored.id]
    subjects = session.exec(select(EmailOutbox.subject).where(EmailOutbox.to_address == user.email)).all()
    assert subjects == ["A passkey was added to your account"]
    with pytest.raises(Unauthorized):  # the ceremony is used up
        passkeys.register(session, user, token, device().create(parsed), "Again", ip=IP)


def test_a_passkey_made_for_another_site_or_another_ceremony_is_refused(session: Session) -> None:
    user = f.user(session, "pk_origin")
    token, options = passkeys.registration_options(session, user)
    with pytest.raises(Invalid):
        passkeys.register(
            session, user, token, device().create(json.loads(options), origin="https://evil.example"), "X", ip=IP
        )
    token, options = passkeys.registration_options(session, user)
    other_token, _ = passkeys.registration_options(session, user)
    with pytest.raises(Invalid):  # signed for the first challenge, sent with the second
        passkeys.register(session, user, other_token, device().create(json.loads(options)), "X", ip=IP)
    assert passkeys.listed(session, user) == []


def test_an_expired_ceremony_is_refused(session: Session) -> None:
    user = f.user(session, "pk_late")
    token, options = passkeys.registration_options(session, user)
    session.exec(update(WebAuthnCeremony).values(expires_at=utcnow() - timedelta(seconds=1)))
    session.commit()
    with pytest.raises(Unauthorized):
        passkeys.register(session, user, token, device().create(json.loads(options)), "X", ip=IP)


def test_the_second_step_with_a_passkey_instead_of_a_code(session: Session) -> None:
    admin = f.user(session, "pk_admin", role=Role.admin)
    enrol(session, admin)
    key = device()
    add(session, admin, key)
    challenge = sign_in.login(session, data={"identifier": "pk_admin", "password": f.PASSWORD}, ip=IP).challenge
    assert sign_in.has_passkeys(session, challenge)
    ceremony, options = sign_in.passkey_options(session, challenge)
    allowed = [c["id"] for c in json.loads(options)["allowCredentials"]]
    assert allowed == [passkeys.listed(session, admin)[0].credential_id]
    done = sign_in.complete_with_passkey(session, challenge, ceremony, key.get(json.loads(options)), ip=IP)
    assert done.user.id == admin.id and done.issued.access_token
    entry = session.exec(select(AuditLog).where(AuditLog.actor_id == admin.id, AuditLog.action == "auth.login")).one()
    assert entry.details == {"method": "password", "second_factor": "passkey"}


def test_another_accounts_passkey_does_not_pass_the_second_step(session: Session) -> None:
    admin = f.user(session, "pk_victim", role=Role.admin)
    enrol(session, admin)
    add(session, admin, device())
    thief = f.user(session, "pk_thief")
    their_key = device()
    add(session, thief, their_key)
    challenge = sign_in.login(session, data={"identifier": "pk_victim", "password": f.PASSWORD}, ip=IP).challenge
    ceremony, options = sign_in.passkey_options(session, challenge)
    with pytest.raises(Invalid) as refused:
        sign_in.complete_with_passkey(session, challenge, ceremony, their_key.get(json.loads(options)), ip=IP)
    assert refused.value.message == passkeys.UNKNOWN


def test_a_sign_in_without_a_password_needs_the_person_verified(session: Session) -> None:
    client = f.user(session, "pk_free")
    verified, unverified = device(), device(user_verified=False)
    add(session, client, verified)
    add(session, client, unverified, "Old key")
    ceremony, options = sign_in.passkey_sign_in_options(session, ip=IP)
    parsed = json.loads(options)
    assert parsed["allowCredentials"] == [] and parsed["userVerification"] == "required"
    result = sign_in.with_passkey(session, ceremony, verified.get(parsed), ip=IP)
    assert result.user.id == client.id and result.issued is not None
    ceremony, options = sign_in.passkey_sign_in_options(session, ip=IP)
    with pytest.raises(Invalid):  # a touch alone is one factor
        sign_in.with_passkey(session, ceremony, unverified.get(json.loads(options)), ip=IP)


def test_a_counter_that_went_back_is_refused(session: Session) -> None:
    client = f.user(session, "pk_clone")
    key = device()
    add(session, client, key)
    ceremony, options = sign_in.passkey_sign_in_options(session, ip=IP)
    sign_in.with_passkey(session, ceremony, key.get(json.loads(options), count=5), ip=IP)
    ceremony, options = sign_in.passkey_sign_in_options(session, ip=IP)
    with pytest.raises(Invalid):  # a copy of the key that signs with an older count
        sign_in.with_passkey(session, ceremony, key.get(json.loads(options), count=3), ip=IP)


def test_passkeys_are_bounded_per_account_and_ceremonies_per_address(session: Session) -> None:
    user = f.user(session, "pk_many")
    for n in range(passkeys.MAX_PASSKEYS):
        add(session, user, device(), f"Key {n}")
    with pytest.raises(Invalid):
        passkeys.registration_options(session, user)
    with pytest.raises(TooManyRequests):
        for _ in range(sign_in.CEREMONIES_PER_ADDRESS + 1):
            sign_in.passkey_sign_in_options(session, ip="198.51.100.99")


def test_registrations_at_once_stop_at_the_bound_and_a_key_is_kept_once(committed: Committed, pool: Engine) -> None:
    # Four tabs finishing a registration together, one place left: one is kept, three are told why.
    with Session(committed.engine, expire_on_commit=False) as s:
        user = f.user(s, "pk_race")
        committed.user_ids.append(user.id)
        for n in range(passkeys.MAX_PASSKEYS - 1):
            add(s, user, device(), f"Key {n}")
        started = [passkeys.registration_options(s, user) for _ in range(4)]
        answers = [(token, device().create(json.loads(options))) for token, options in started]
    outcomes = in_parallel(pool, lambda s, i: passkeys.register(s, user, *answers[i], f"Tab {i}", ip=IP), 4)
    assert kinds(outcomes) == {"ok": 1, "Invalid": 3}
    assert {str(o) for o in outcomes if isinstance(o, Invalid)} == {passkeys.TOO_MANY}
    # One authenticator's credential offered by two accounts at once: the second is refused in words, not a 500.
    with Session(committed.engine, expire_on_commit=False) as s:
        people = [f.user(s, f"pk_twin{i}") for i in range(2)]
        committed.user_ids.extend(p.id for p in people)
        key = device()
        twins = []
        for person in people:
            token, options = passkeys.registration_options(s, person)
            twins.append((person, token, key.create(json.loads(options))))
    outcomes = in_parallel(pool, lambda s, i: passkeys.register(s, *twins[i], "Shared", ip=IP), 2)
    assert kinds(outcomes) == {"ok": 1, "Invalid": 1}
    assert [str(o) for o in outcomes if isinstance(o, Invalid)] == [passkeys.ALREADY]


def test_removing_a_passkey_is_for_its_owner(session: Session) -> None:
    owner, other = f.user(session, "pk_owner"), f.user(session, "pk_other")
    stored = add(session, owner, device())
    with pytest.raises(Exception, match="Passkey not found"):
        passkeys.remove(session, other, stored.id, ip=IP)
    passkeys.remove(session, owner, stored.id, ip=IP)
    assert passkeys.listed(session, owner) == []


def test_the_second_factor_status_is_unchanged_by_passkeys_alone(session: Session) -> None:
    """A passkey stands in for the code at the second step; two-step sign-in (and its recovery codes) stays the
    authenticator's, so a required person still sets one up."""
    admin = f.user(session, "pk_required", role=Role.admin)
    add(session, admin, device())
    assert sign_in.login(session, data={"identifier": "pk_required", "password": f.PASSWORD}, ip=IP).enrol
    enrol(session, admin)
    assert second_factor.status(session, admin).on
