"""Throttles under real concurrency: threads with their own sessions and connections, on committed data.

The rolled-back `session` fixture runs everything on one connection, where no race can happen; these tests commit,
so each cleans up what it wrote.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.db import make_engine
from app.core.errors import Invalid, TooManyRequests
from app.models.inquiry import ContactInquiry
from app.models.system import EmailOutbox
from app.models.user import User, VerificationCode
from app.services.accounts import auth, sign_in
from app.services.crm import contact, newsletter
from app.services.platform import mail, ratelimit
from tests import factories as f
from tests.migrations import migrate
from tests.services.conftest import Committed

N = 40


@pytest.fixture
def sqlite(tmp_path: Path) -> Iterator[Engine]:
    """The embedded database, migrated, in a file of its own: one writer at a time, and WAL readers."""
    url = f"sqlite:///{tmp_path / 'throttle.db'}"
    migrate(url)
    eng = make_engine(url)
    yield eng
    eng.dispose()


class Calls:
    """A thread-safe counting wrapper around `fn`."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn, self.n, self._lock = fn, 0, threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self.n += 1
        return self.fn(*args, **kwargs)


def in_parallel(eng: Engine, fn: Callable[[Session, int], Any], n: int = N) -> list[Any]:
    """Run `fn(session, i)` in n threads released together; each result is a return value or the exception."""
    barrier = threading.Barrier(n)

    def run(i: int) -> Any:
        with Session(eng, expire_on_commit=False) as s:
            barrier.wait()
            try:
                return fn(s, i)
            except Exception as exc:  # collected and asserted by the test
                return exc

    with ThreadPoolExecutor(n) as pool_:
        return list(pool_.map(run, range(n)))


def kinds(results: list[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in results:
        name = type(r).__name__ if isinstance(r, Exception) else "ok"
        out[name] = out.get(name, 0) + 1
    return out


def mailed_code(s: Session, email: str) -> str:
    msg = s.exec(
        select(EmailOutbox).where(EmailOutbox.to_address == email).order_by(col(EmailOutbox.id).desc())
    ).first()
    assert msg is not None
    match = re.search(r"code is (\d{6})", msg.body_text)
    assert match
    return match.group(1)


def test_hit_admits_exactly_the_limit(committed: Committed, pool: Engine) -> None:
    window = timedelta(minutes=5)
    results = in_parallel(
        pool, lambda s, _: ratelimit.hit(s, key="race:hit", limit=5, window=window, message="Slow down")
    )
    assert kinds(results) == {"ok": 5, "TooManyRequests": N - 5}
    with Session(pool) as s:
        assert ratelimit.count(s, "race:hit", window) == 5  # refused attempts leave nothing behind


def test_hit_admits_exactly_the_limit_on_sqlite(sqlite: Engine) -> None:
    window = timedelta(minutes=5)
    results = in_parallel(
        sqlite, lambda s, _: ratelimit.hit(s, key="race:hit", limit=5, window=window, message="Slow down"), n=20
    )
    assert kinds(results) == {"ok": 5, "TooManyRequests": 15}
    with Session(sqlite) as s:
        assert ratelimit.count(s, "race:hit", window) == 5


def test_parallel_wrong_logins_get_at_most_five_password_checks(
    committed: Committed, pool: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Session(committed.engine, expire_on_commit=False) as s:
        user = f.user(s, "race_login")
    committed.user_ids.append(user.id)
    checks = Calls(auth.verify_password)
    monkeypatch.setattr(auth, "verify_password", checks)

    results = in_parallel(
        pool,
        lambda s, _: sign_in.login(
            s, data={"identifier": "race_login", "password": "wrong-password"}, ip="203.0.113.77"
        ),
    )

    assert checks.n <= auth.LOGIN_FAILURES_PER_ACCOUNT_AND_IP
    assert kinds(results) == {"Unauthorized": checks.n, "TooManyRequests": N - checks.n}
    with Session(pool) as s:  # even the right password now waits out the window from that address
        with pytest.raises(TooManyRequests):
            sign_in.login(s, data={"identifier": "race_login", "password": f.PASSWORD}, ip="203.0.113.77")
        assert (
            sign_in.login(s, data={"identifier": "race_login", "password": f.PASSWORD}, ip="198.51.100.8").user.id
            == user.id
        )


def test_parallel_wrong_codes_get_at_most_five_comparisons(
    committed: Committed, pool: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Session(committed.engine, expire_on_commit=False) as s:
        user = auth.register(
            s, data={"username": "race_code", "email": "race_code@example.com", "password": f.PASSWORD}
        )
        code = mailed_code(s, user.email)
    committed.user_ids.append(user.id)
    wrong = "000000" if code != "000000" else "111111"
    comparisons = Calls(auth.secrets.compare_digest)
    monkeypatch.setattr(auth.secrets, "compare_digest", comparisons)

    results = in_parallel(pool, lambda s, _: auth.verify(s, data={"userId": user.id, "code": wrong}))

    assert comparisons.n <= auth.MAX_CODE_ATTEMPTS
    assert kinds(results) == {"Invalid": N}
    with Session(pool) as s:
        row = s.exec(select(VerificationCode).where(VerificationCode.user_id == user.id)).one()
        assert row.attempts == auth.MAX_CODE_ATTEMPTS and not row.is_used
        with pytest.raises(Invalid, match="no longer accepted"):
            auth.verify(s, data={"userId": user.id, "code": code})


def test_parallel_wrong_codes_on_sqlite(sqlite: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    with Session(sqlite, expire_on_commit=False) as s:
        user = auth.register(
            s, data={"username": "race_code", "email": "race_code@example.com", "password": f.PASSWORD}
        )
        code = mailed_code(s, user.email)
    wrong = "000000" if code != "000000" else "111111"
    comparisons = Calls(auth.secrets.compare_digest)
    monkeypatch.setattr(auth.secrets, "compare_digest", comparisons)

    results = in_parallel(sqlite, lambda s, _: auth.verify(s, data={"userId": user.id, "code": wrong}), n=20)

    assert comparisons.n <= auth.MAX_CODE_ATTEMPTS
    assert kinds(results) == {"Invalid": 20}
    with Session(sqlite) as s:
        assert s.exec(select(VerificationCode.attempts)).one() == auth.MAX_CODE_ATTEMPTS


def test_a_right_code_is_used_once_however_many_send_it(committed: Committed, pool: Engine) -> None:
    with Session(committed.engine, expire_on_commit=False) as s:
        user = auth.register(
            s, data={"username": "race_once", "email": "race_once@example.com", "password": f.PASSWORD}
        )
        code = mailed_code(s, user.email)
    committed.user_ids.append(user.id)

    results = in_parallel(pool, lambda s, _: auth.verify(s, data={"userId": user.id, "code": code}), n=20)

    assert kinds(results).get("ok") == 1
    with Session(pool) as s:
        assert s.get(User, user.id).is_verified  # type: ignore[union-attr]


def test_parallel_contact_submissions_from_one_address(committed: Committed, pool: Engine) -> None:
    email = "race_contact@example.com"
    committed.emails.append(email)

    def submit(s: Session, _: int) -> ContactInquiry:
        return contact.submit_inquiry(
            s, data={"name": "Race", "email": email, "message": "Hello there, a project."}, ip="203.0.113.5"
        )

    results = in_parallel(pool, submit)

    limit = contact.PER_IP_LIMITS[0][0]
    assert kinds(results) == {"ok": limit, "TooManyRequests": N - limit}
    with Session(pool) as s:
        acks = s.exec(select(func.count()).where(EmailOutbox.to_address == email)).one()
        assert acks == contact.ACKS_PER_ADDRESS[0]  # the per-address cap on acknowledgements holds too


def test_parallel_newsletter_requests_mail_one_address_at_most_the_cap(committed: Committed, pool: Engine) -> None:
    email = "race_news@example.com"
    committed.emails.append(email)

    results = in_parallel(
        pool,
        lambda s, i: newsletter.subscribe(
            s, data={"email": email, "source": "footer"}, ip=f"10.9.{i // 250}.{i % 250}"
        ),
    )

    assert kinds(results) == {"ok": N}  # the same neutral answer for everyone
    with Session(pool) as s:
        mails = s.exec(select(func.count()).where(EmailOutbox.to_address == email)).one()
        assert mails == newsletter.MAILS_PER_ADDRESS[0]


def test_unauthorized_and_too_many_are_the_only_answers(committed: Committed, pool: Engine) -> None:
    """Unknown identifiers are throttled the same way, and a long one is no server error."""
    identifier = "x" * 400
    results = in_parallel(
        pool, lambda s, _: sign_in.login(s, data={"identifier": identifier, "password": "wrong-pw"}, ip="192.0.2.1")
    )
    counts = kinds(results)
    assert set(counts) <= {"Unauthorized", "TooManyRequests"}
    assert counts.get("Unauthorized", 0) <= auth.LOGIN_FAILURES_PER_ACCOUNT_AND_IP


def _public_mail(s: Session, _: int) -> bool:
    queued = mail.enqueue(s, to="race_mail@example.com", letter=mail.Letter("s", "t"), public=True) is not None
    s.commit()
    return queued


def test_parallel_public_mails_to_one_recipient_queue_exactly_the_cap(committed: Committed, pool: Engine) -> None:
    results = in_parallel(pool, _public_mail)
    cap = settings.public_mail_per_recipient_per_day
    assert results.count(True) == cap
    with Session(pool) as s:
        assert s.exec(select(func.count()).where(EmailOutbox.to_address == "race_mail@example.com")).one() == cap


def test_parallel_public_mails_on_sqlite(sqlite: Engine) -> None:
    results = in_parallel(sqlite, _public_mail, n=20)
    assert results.count(True) == settings.public_mail_per_recipient_per_day
