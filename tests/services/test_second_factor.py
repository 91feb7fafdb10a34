"""A second factor at sign-in (issue 28, ADR 0103): who must have one, setting it up, codes and their time steps,
replays, recovery codes, trusted browsers, the failure budget shared with passwords, and staff resets."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pyotp
import pytest
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.core.errors import Conflict, Forbidden, Invalid, TooManyRequests, Unauthorized
from app.models.base import utcnow
from app.models.enums import EmployeeType, Role
from app.models.second_factor import RecoveryCode, SignInChallenge, TotpFactor, TrustedBrowser
from app.models.system import AuditLog, EmailOutbox
from app.models.user import RefreshToken, User
from app.services.accounts import auth, password_reset, second_factor, sessions, sign_in
from tests import factories as f
from tests.services.conftest import Committed
from tests.services.test_throttle_races import in_parallel

IP = "203.0.113.40"


def _secret(enrolment: second_factor.Enrolment) -> str:
    return enrolment.secret.replace(" ", "")


def code_at(secret: str, step: int) -> str:
    return pyotp.TOTP(secret).at(step * second_factor.STEP_S)


def now_step() -> int:
    return int(time.time() // second_factor.STEP_S)


def enrol(s: Session, user: User) -> tuple[str, list[str]]:
    """Set up an authenticator for `user`; its secret and recovery codes. The first code used is the step before
    now, so the tests' own codes for now are still unused."""
    secret = _secret(second_factor.begin_enrolment(s, user))
    if (left := second_factor.STEP_S - time.time() % second_factor.STEP_S) < 2:
        time.sleep(left)  # the step before now would be two steps old if now turned before the check
    codes = second_factor.confirm_enrolment(s, user, code_at(secret, now_step() - 1), ip=IP)
    return secret, codes


def mails_to(s: Session, user: User) -> list[str]:
    rows = s.exec(select(EmailOutbox).where(EmailOutbox.to_address == user.email).order_by(col(EmailOutbox.id))).all()
    return [r.subject for r in rows]


def actions(s: Session, user: User) -> list[str]:
    return [a.action for a in s.exec(select(AuditLog).where(AuditLog.actor_id == user.id)).all()]


@pytest.mark.parametrize(
    ("role", "kind", "must"),
    [
        (Role.admin, None, True),
        (Role.employee, EmployeeType.cfo, True),  # billing
        (Role.employee, EmployeeType.hr, True),  # users
        (Role.employee, EmployeeType.legal, True),  # billing:read, users:read
        (Role.employee, EmployeeType.developer, False),
        (Role.employee, EmployeeType.marketing_lead, False),
        (Role.client, None, False),
    ],
)
def test_who_must_have_a_second_factor(session: Session, role: Role, kind: EmployeeType | None, must: bool) -> None:
    assert second_factor.required(f.user(session, role=role, employee_type=kind)) is must


def test_a_granted_billing_permission_makes_it_a_must_and_a_revoked_one_lifts_it(session: Session) -> None:
    dev = f.user(session, role=Role.employee, employee_type=EmployeeType.developer, extra_permissions=["billing:read"])
    assert second_factor.required(dev)
    hr = f.user(session, role=Role.employee, employee_type=EmployeeType.marketing_lead)
    assert not second_factor.required(hr)


def test_setting_up_shows_a_qr_code_and_turns_on_with_the_first_code(session: Session) -> None:
    client = f.user(session, "sf_client")
    first = second_factor.begin_enrolment(session, client)
    assert first.qr_svg.startswith("data:image/svg+xml") and first.uri.startswith("otpauth://totp/")
    assert second_factor.begin_enrolment(session, client).secret == first.secret  # a reload keeps the scanned key
    stored = session.get(TotpFactor, client.id)
    assert stored is not None and _secret(first) not in stored.secret  # sealed, never kept as typed
    assert second_factor.factor(session, client) is None  # not on before its first code
    with pytest.raises(Invalid):
        second_factor.confirm_enrolment(session, client, "000000", ip=IP)
    assert second_factor.factor(session, client) is None
    codes = second_factor.confirm_enrolment(session, client, code_at(_secret(first), now_step()), ip=IP)
    assert len(codes) == 10 and len(set(codes)) == 10
    assert second_factor.status(session, client).on and second_factor.status(session, client).recovery_left == 10
    assert mails_to(session, client) == ["Two-step sign-in is on"]
    assert "auth.second_factor_enrolled" in actions(session, client)
    with pytest.raises(Conflict):
        second_factor.begin_enrolment(session, client)


def test_a_sign_in_without_a_second_factor_opens_a_session_at_once(session: Session) -> None:
    f.user(session, "sf_plain")
    result = sign_in.login(session, data={"identifier": "sf_plain", "password": f.PASSWORD}, ip=IP)
    assert result.issued is not None and result.challenge is None


def test_an_admin_without_one_sets_it_up_as_the_second_step_and_then_signs_in(session: Session) -> None:
    admin = f.user(session, "sf_admin", role=Role.admin)
    result = sign_in.login(session, data={"identifier": "sf_admin", "password": f.PASSWORD}, ip=IP)
    assert result.issued is None and result.enrol and result.challenge
    token = result.challenge
    with pytest.raises(Invalid):  # no code to give yet, and no way round the set-up
        sign_in.complete(session, token, "", ip=IP)
    assert sign_in.needs_enrolment(session, token)
    secret = _secret(sign_in.enrolment(session, token))
    codes = sign_in.confirm(session, token, code_at(secret, now_step()), ip=IP)
    assert len(codes) == 10
    done = sign_in.complete(session, token, "", ip=IP)
    assert done.user.id == admin.id and sessions.authenticate(session, done.issued.access_token)[0].id == admin.id
    with pytest.raises(Unauthorized):  # used once
        sign_in.complete(session, token, "", ip=IP)


def test_a_code_signs_in_once_and_never_again(session: Session) -> None:
    user = f.user(session, "sf_cfo", role=Role.employee, employee_type=EmployeeType.cfo)
    secret, _ = enrol(session, user)
    first = sign_in.login(session, data={"identifier": "sf_cfo", "password": f.PASSWORD}, ip=IP)
    assert first.issued is None and not first.enrol
    code = code_at(secret, now_step())
    with pytest.raises(Invalid) as wrong:
        sign_in.complete(session, first.challenge, "123456" if code != "123456" else "654321", ip=IP)
    assert wrong.value.message == second_factor.WRONG_CODE
    done = sign_in.complete(session, first.challenge, code, ip=IP)
    assert done.issued.access_token
    second = sign_in.login(session, data={"identifier": "sf_cfo", "password": f.PASSWORD}, ip=IP)
    with pytest.raises(Invalid) as replay:
        sign_in.complete(session, second.challenge, code, ip=IP)
    assert replay.value.message == second_factor.USED_CODE
    with pytest.raises(Invalid) as older:  # the step before the one used is refused too
        sign_in.complete(session, second.challenge, code_at(secret, now_step() - 1), ip=IP)
    assert older.value.message == second_factor.USED_CODE
    assert sign_in.complete(session, second.challenge, code_at(secret, now_step() + 1), ip=IP).issued


def test_codes_of_the_steps_beside_now_are_accepted_and_none_further(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = f.user(session, "sf_steps", role=Role.admin)
    secret, _ = enrol(session, user)
    step = now_step() + 10  # a clock ahead of the enrolment's code, so every step below is unused
    # Just inside the step's first second, and just before its last: the window is whole steps.
    for offset in (0.001, second_factor.STEP_S - 0.001):
        monkeypatch.setattr(second_factor.time, "time", lambda o=offset: step * second_factor.STEP_S + o)
        row = session.get(TotpFactor, user.id)
        assert row is not None
        row.last_step = 0
        session.add(row)
        session.commit()
        for far in (-2, 2):
            with pytest.raises(Invalid):
                second_factor.check(session, user, row, code_at(secret, step + far), ip=IP)
        for near in (-1, 0, 1):
            session.refresh(row)
            row.last_step = 0
            session.add(row)
            session.commit()
            assert second_factor.check(session, user, row, code_at(secret, step + near), ip=IP) == "totp"


def test_a_recovery_code_works_once_and_the_owner_is_told(session: Session) -> None:
    user = f.user(session, "sf_recover", role=Role.admin)
    _, codes = enrol(session, user)
    first = sign_in.login(session, data={"identifier": "sf_recover", "password": f.PASSWORD}, ip=IP)
    done = sign_in.complete(session, first.challenge, codes[3].upper(), ip=IP)  # any case, dash or not
    assert done.issued
    assert second_factor.status(session, user).recovery_left == 9
    assert "A recovery code was used to sign in" in mails_to(session, user)
    assert "auth.recovery_code_used" in actions(session, user)
    again = sign_in.login(session, data={"identifier": "sf_recover", "password": f.PASSWORD}, ip=IP)
    with pytest.raises(Invalid) as used:
        sign_in.complete(session, again.challenge, codes[3].replace("-", ""), ip=IP)
    assert used.value.message == second_factor.USED_RECOVERY


def test_new_recovery_codes_replace_the_old_ones(session: Session) -> None:
    user = f.user(session, "sf_renew", role=Role.admin)
    secret, old = enrol(session, user)
    new = second_factor.renew_recovery_codes(session, user, code_at(secret, now_step()), ip=IP)
    assert not set(new) & set(old)
    challenge = sign_in.login(session, data={"identifier": "sf_renew", "password": f.PASSWORD}, ip=IP).challenge
    with pytest.raises(Invalid):
        sign_in.complete(session, challenge, old[0], ip=IP)
    assert sign_in.complete(session, challenge, new[0], ip=IP).issued


def test_a_trusted_browser_skips_the_step_for_thirty_days_and_for_its_own_account_only(session: Session) -> None:
    user = f.user(session, "sf_trust", role=Role.admin)
    other = f.user(session, "sf_other", role=Role.admin)
    secret, _ = enrol(session, user)
    enrol(session, other)
    challenge = sign_in.login(session, data={"identifier": "sf_trust", "password": f.PASSWORD}, ip=IP).challenge
    done = sign_in.complete(session, challenge, code_at(secret, now_step()), trust_label="Firefox on Linux", ip=IP)
    assert done.trust_token and done.trust_expires
    assert done.trust_expires - utcnow() > timedelta(days=29)
    cookies = {second_factor.trust_cookie(user.id): done.trust_token}
    again = sign_in.login(session, data={"identifier": "sf_trust", "password": f.PASSWORD}, ip=IP, cookies=cookies)
    assert again.issued is not None
    # The same token under the other account's cookie name trusts nothing.
    theirs = {second_factor.trust_cookie(other.id): done.trust_token}
    assert sign_in.login(session, data={"identifier": "sf_other", "password": f.PASSWORD}, cookies=theirs).challenge
    session.exec(update(TrustedBrowser).values(expires_at=utcnow() - timedelta(seconds=1)))
    session.commit()
    assert sign_in.login(session, data={"identifier": "sf_trust", "password": f.PASSWORD}, cookies=cookies).challenge
    assert second_factor.forget_browsers(session, user) == 1


def test_five_wrong_codes_end_the_sign_in(session: Session) -> None:
    user = f.user(session, "sf_five", role=Role.admin)
    secret, _ = enrol(session, user)
    challenge = sign_in.login(session, data={"identifier": "sf_five", "password": f.PASSWORD}, ip=IP).challenge
    right = code_at(secret, now_step())
    wrong = "000000" if right != "000000" else "111111"
    for _ in range(sign_in.CHALLENGE_ATTEMPTS):
        with pytest.raises(Invalid):
            sign_in.complete(session, challenge, wrong, ip=IP)
    with pytest.raises(Unauthorized) as ended:
        sign_in.complete(session, challenge, right, ip=IP)
    assert ended.value.message == sign_in.TOO_MANY_CODES


def test_wrong_codes_and_wrong_passwords_share_one_budget_per_account(session: Session) -> None:
    """From an unknown address the account allows 20 failures in 15 minutes, codes and passwords together: a thief
    with the password cannot try more codes by starting new sign-ins."""
    user = f.user(session, "sf_budget", role=Role.admin)
    enrol(session, user)
    tried = 0
    with pytest.raises(TooManyRequests):
        for n in range(40):
            ip = f"198.51.100.{n + 1}"  # a new address each time: only the account-wide count can stop this
            challenge = sign_in.login(session, data={"identifier": "sf_budget", "password": f.PASSWORD}, ip=ip)
            with pytest.raises(Invalid):
                sign_in.complete(session, challenge.challenge, "999999", ip=ip)  # each checked, each wrong
            tried += 1
    assert tried == auth.LOGIN_FAILURES_PER_ACCOUNT


def test_parallel_codes_for_one_sign_in_get_at_most_five_checks(committed: Committed, pool: Engine) -> None:
    with Session(committed.engine, expire_on_commit=False) as s:
        user = f.user(s, "sf_race", role=Role.admin)
        committed.user_ids.append(user.id)
        enrol(s, user)
        challenge = sign_in.login(s, data={"identifier": "sf_race", "password": f.PASSWORD}, ip=IP).challenge
    outcomes = in_parallel(pool, lambda s, _: sign_in.complete(s, challenge, "999999", ip=IP), 20)
    assert sum(isinstance(o, Invalid) for o in outcomes) == sign_in.CHALLENGE_ATTEMPTS
    assert all(isinstance(o, Invalid | Unauthorized) for o in outcomes)
    with Session(pool) as s:
        row = s.exec(select(SignInChallenge).where(SignInChallenge.user_id == user.id)).one()
        assert row.attempts == sign_in.CHALLENGE_ATTEMPTS


def test_one_code_sent_at_once_to_six_sign_ins_signs_in_once(committed: Committed, pool: Engine) -> None:
    with Session(committed.engine, expire_on_commit=False) as s:
        user = f.user(s, "sf_twice", role=Role.admin)
        committed.user_ids.append(user.id)
        secret, _ = enrol(s, user)
        tokens = [
            sign_in.login(s, data={"identifier": "sf_twice", "password": f.PASSWORD}, ip=IP).challenge for _ in range(6)
        ]
    code = code_at(secret, now_step())
    outcomes = in_parallel(pool, lambda s, i: sign_in.complete(s, tokens[i], code, ip=IP), 6)
    assert sum(isinstance(o, sign_in.Finished) for o in outcomes) == 1
    assert all(isinstance(o, sign_in.Finished) or o.message == second_factor.USED_CODE for o in outcomes)


def test_only_those_not_required_turn_it_off_and_with_a_code(session: Session) -> None:
    client = f.user(session, "sf_off")
    secret, _ = enrol(session, client)
    with pytest.raises(Invalid):
        second_factor.turn_off(session, client, "999999", ip=IP)
    second_factor.turn_off(session, client, code_at(secret, now_step()), ip=IP)
    assert second_factor.factor(session, client) is None
    assert session.exec(select(RecoveryCode).where(RecoveryCode.user_id == client.id)).first() is None
    assert mails_to(session, client)[-1] == "Two-step sign-in was turned off"
    admin = f.user(session, "sf_keep", role=Role.admin)
    secret, _ = enrol(session, admin)
    with pytest.raises(Forbidden):
        second_factor.turn_off(session, admin, code_at(secret, now_step()), ip=IP)


def test_staff_who_manage_users_reset_someone_elses_never_their_own(session: Session) -> None:
    hr = f.user(session, "sf_hr", role=Role.employee, employee_type=EmployeeType.hr)
    cfo = f.user(session, "sf_lost", role=Role.employee, employee_type=EmployeeType.cfo, first_name="Lin")
    admin = f.user(session, "sf_boss", role=Role.admin)
    dev = f.user(session, "sf_dev", role=Role.employee, employee_type=EmployeeType.developer)
    for person in (hr, cfo, admin):
        enrol(session, person)
    live = sessions.start(session, cfo)
    with pytest.raises(Forbidden):
        second_factor.reset_for(session, actor=dev, user_id=cfo.id)
    with pytest.raises(Forbidden):
        second_factor.reset_for(session, actor=hr, user_id=hr.id)
    with pytest.raises(Forbidden):  # an administrator's is an administrator's to reset
        second_factor.reset_for(session, actor=hr, user_id=admin.id)
    second_factor.reset_for(session, actor=hr, user_id=str(cfo.id), ip=IP)
    assert second_factor.factor(session, cfo) is None
    assert "Your two-step sign-in was reset" in mails_to(session, cfo)
    assert "auth.second_factor_reset" in actions(session, hr)
    row = session.exec(select(RefreshToken).where(RefreshToken.family_id == live.family_id)).one()
    session.refresh(row)
    assert row.is_revoked  # every session of theirs ends
    # The next sign-in sets it up again (the role still requires it).
    assert sign_in.login(session, data={"identifier": "sf_lost", "password": f.PASSWORD}, ip=IP).enrol
    with pytest.raises(Invalid):
        second_factor.reset_for(session, actor=hr, user_id=cfo.id)  # nothing left to reset


def test_a_staff_sign_in_is_audited_with_how_it_passed_the_second_step(session: Session) -> None:
    admin = f.user(session, "sf_audit", role=Role.admin)
    secret, _ = enrol(session, admin)
    challenge = sign_in.login(session, data={"identifier": "sf_audit", "password": f.PASSWORD}, ip=IP).challenge
    assert "auth.login" not in actions(session, admin)  # not signed in by the password alone
    sign_in.complete(session, challenge, code_at(secret, now_step()), ip=IP)
    entry = session.exec(select(AuditLog).where(AuditLog.actor_id == admin.id, AuditLog.action == "auth.login")).one()
    assert entry.details == {"method": "password", "second_factor": "code"}


def test_a_password_reset_opens_no_session_and_every_browser_proves_the_second_factor_again(session: Session) -> None:
    user = f.user(session, "sf_reset_pw", role=Role.admin)
    secret, _ = enrol(session, user)
    challenge = sign_in.login(session, data={"identifier": "sf_reset_pw", "password": f.PASSWORD}, ip=IP).challenge
    done = sign_in.complete(session, challenge, code_at(secret, now_step()), trust_label="Safari on iPhone", ip=IP)
    cookies = {second_factor.trust_cookie(user.id): done.trust_token or ""}
    password_reset.send_link(session, user)
    link = re.search(
        r"token=([A-Za-z0-9_\-]+)",
        session.exec(
            select(EmailOutbox.body_text).where(
                EmailOutbox.to_address == user.email, col(EmailOutbox.body_text).contains("token=")
            )
        ).all()[-1],
    )
    assert link is not None
    done_reset = password_reset.reset_password(
        session, data={"token": link.group(1), "new_password": "A-new-pass-2026"}
    )
    assert done_reset.id == user.id
    after = sign_in.login(session, data={"identifier": "sf_reset_pw", "password": "A-new-pass-2026"}, cookies=cookies)
    assert after.issued is None and after.challenge  # the new password alone opens nothing
