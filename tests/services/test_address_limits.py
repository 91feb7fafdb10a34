"""Every per-address limit counts an IPv6 client by its /64: a subscriber gets a whole /64 and can send each request
from another address in it, so limits keyed on the single address counted nothing (issue 23, point 5's cause)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlmodel import Session

from app.core.errors import TooManyRequests
from app.services.accounts import auth, password_reset
from app.services.crm import contact, newsletter

ONE_SUBSCRIBER = "2001:db8:7:1::{n:x}"  # every address of one /64
NEXT_DOOR = "2001:db8:7:2::1"  # another /64


def _contact(s: Session, n: int, ip: str) -> Any:
    data = {"name": "Rotating Sender", "email": f"r{n}@example.com", "message": "We need a new website soon."}
    return contact.submit_inquiry(s, data=data, ip=ip)


def _newsletter(s: Session, n: int, ip: str) -> Any:
    return newsletter.subscribe(s, data={"email": f"n{n}@example.com", "source": "footer"}, ip=ip)


def _reset(s: Session, n: int, ip: str) -> Any:
    return password_reset.request_reset(s, data={"email": f"p{n}@example.com"}, ip=ip)


def _register(s: Session, n: int, ip: str) -> Any:
    data = {"username": f"rotating_{n}", "email": f"reg{n}@example.com", "password": "Rotating-pass-1"}
    return auth.register(s, data=data, ip=ip)


LIMITED: list[tuple[str, Callable[[Session, int, str], Any], int]] = [
    ("contact form", _contact, contact.PER_IP_LIMITS[0][0]),
    ("newsletter", _newsletter, newsletter.PER_IP[0]),
    ("forgot password", _reset, password_reset.REQUESTS_PER_ADDRESS),
    ("registration", _register, 10),
]


@pytest.mark.parametrize(("what", "attempt", "limit"), LIMITED, ids=[w for w, _, _ in LIMITED])
def test_addresses_of_one_ipv6_subscriber_share_one_limit(
    session: Session, what: str, attempt: Callable[[Session, int, str], Any], limit: int
) -> None:
    for n in range(limit):
        attempt(session, n, ONE_SUBSCRIBER.format(n=n + 1))
    with pytest.raises(TooManyRequests):
        attempt(session, limit, ONE_SUBSCRIBER.format(n=limit + 1))
    attempt(session, limit + 1, NEXT_DOOR)  # another subscriber is not affected
