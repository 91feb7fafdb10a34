"""Password guessing against one account by 50 attackers at once, spread over two processes (two app workers share
nothing but the database): the attackers get at most the per-account limit of password checks per window (20 per 15
minutes: at most 80 an hour, the issue's ceiling being 100), and the owner still signs in from an address the account
has used before. The accounts and counts here are committed (each process has its own connections), so the test
cleans up after itself.
"""

from __future__ import annotations

import multiprocessing
import os
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, delete, func, select

from app.core.errors import TooManyRequests, Unauthorized
from app.models import KnownSignInAddress, RateLimitEvent, User
from app.services.accounts import auth, sign_in
from tests import factories as f

OWNER_ADDRESS = "192.0.2.10"
ATTACKERS_PER_PROCESS = 25
GUESSES_EACH = 3


def _attack(args: tuple[str, str, int]) -> dict[str, int]:
    """One app process: 25 attackers (threads), each from its own address, each guessing three times."""
    database_url, username, process = args
    os.environ["DATABASE_URL"] = database_url
    from app.core.db import make_engine

    engine = make_engine(database_url)

    def guesser(n: int) -> list[str]:
        outcomes = []
        for k in range(GUESSES_EACH):
            with Session(engine) as s:
                try:
                    sign_in.login(
                        s, data={"identifier": username, "password": f"guess-{n}-{k}"}, ip=f"198.51.{process}.{n}"
                    )
                    outcomes.append("signed-in")
                except Unauthorized:
                    outcomes.append("checked")  # the password was compared: a guess the attacker got
                except TooManyRequests:
                    outcomes.append("refused")
        return outcomes

    with ThreadPoolExecutor(ATTACKERS_PER_PROCESS) as pool:
        results = [o for outcomes in pool.map(guesser, range(ATTACKERS_PER_PROCESS)) for o in outcomes]
    engine.dispose()
    return {k: results.count(k) for k in ("checked", "refused", "signed-in")}


@pytest.fixture
def target(engine: Engine) -> Iterator[User]:
    with Session(engine, expire_on_commit=False) as s:
        limits_before = s.exec(select(func.coalesce(func.max(RateLimitEvent.id), 0))).one()
        owner = f.user(s, f"bf_{uuid.uuid4().hex[:8]}")
        sign_in.login(
            s, data={"identifier": owner.username, "password": f.PASSWORD}, ip=OWNER_ADDRESS
        )  # the owner's usual address
    yield owner
    with Session(engine) as s:
        s.exec(delete(RateLimitEvent).where(col(RateLimitEvent.id) > limits_before))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id) == owner.id))  # type: ignore[call-overload]
        s.commit()


def test_fifty_attackers_in_two_processes_get_at_most_the_account_limit_and_the_owner_still_signs_in(
    engine: Engine, target: User
) -> None:
    url = engine.url.render_as_string(hide_password=False)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        outcomes = pool.map(_attack, [(url, target.username, p) for p in (1, 2)])
    checked = sum(o["checked"] for o in outcomes)
    refused = sum(o["refused"] for o in outcomes)
    assert sum(o["signed-in"] for o in outcomes) == 0
    assert checked + refused == 2 * ATTACKERS_PER_PROCESS * GUESSES_EACH
    # Every window admits exactly the limit, however the 150 guesses interleave across processes and threads.
    assert checked == auth.LOGIN_FAILURES_PER_ACCOUNT
    per_hour = checked * (timedelta(hours=1) / auth.LOGIN_WINDOW)
    assert per_hour <= 100

    with Session(engine) as s:
        # The owner, from their usual address, is not locked out by the attack...
        user = sign_in.login(s, data={"identifier": target.username, "password": f.PASSWORD}, ip=OWNER_ADDRESS).user
        assert user.id == target.id
        # ...while a new address, even with the right password, waits for the window (the cost of the cap).
        with pytest.raises(TooManyRequests):
            sign_in.login(s, data={"identifier": target.username, "password": f.PASSWORD}, ip="203.0.113.200")


def test_an_address_is_known_only_after_a_password_sign_in_and_only_for_its_account(session: Session) -> None:
    owner, other = f.user(session, "known_owner"), f.user(session, "known_other")
    sign_in.login(session, data={"identifier": owner.username, "password": f.PASSWORD}, ip=OWNER_ADDRESS)
    rows = session.exec(select(KnownSignInAddress)).all()
    assert [r.user_id for r in rows] == [owner.id] and OWNER_ADDRESS not in rows[0].address  # stored hashed
    for n in range(auth.LOGIN_FAILURES_PER_ACCOUNT):  # the account-wide limit, from many addresses
        for user in (owner, other):
            with pytest.raises(Unauthorized):
                sign_in.login(session, data={"identifier": user.username, "password": "wrong"}, ip=f"198.51.100.{n}")
    assert (
        sign_in.login(session, data={"identifier": owner.username, "password": f.PASSWORD}, ip=OWNER_ADDRESS).user.id
        == owner.id
    )
    with pytest.raises(TooManyRequests):  # the same address is not known for another account
        sign_in.login(session, data={"identifier": other.username, "password": f.PASSWORD}, ip=OWNER_ADDRESS)
    # Signing in again refreshes the one row; a failure from a known address still counts per address.
    sign_in.login(session, data={"identifier": owner.username, "password": f.PASSWORD}, ip=OWNER_ADDRESS)
    assert len(session.exec(select(KnownSignInAddress)).all()) == 1
