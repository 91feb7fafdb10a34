"""The hash a sign-in for an unknown account is checked against costs what a real account's check costs."""

from __future__ import annotations

import bcrypt

from app.core import security


def test_the_dummy_hash_is_a_bcrypt_hash_of_the_accounts_cost() -> None:
    prefix, cost = security.DUMMY_HASH.split("$")[1:3]
    assert prefix == "2b" and int(cost) == security.BCRYPT_ROUNDS  # same rounds: same time as a wrong password
    assert bcrypt.checkpw(b"timing-equaliser", security.DUMMY_HASH.encode())
    assert security.verify_password("anything", None) is False
