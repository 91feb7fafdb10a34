"""A value larger than its PostgreSQL column is the caller's mistake: the typed input refuses it by name, and the
engine answers Invalid, not a database error, wherever a service forgot to check."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import TOO_LARGE
from app.core.errors import Invalid
from app.models.enums import Role
from app.services.accounts import admin_users
from tests import factories as f


def test_an_overlong_profile_field_in_a_staff_edit_is_a_field_error(session: Session) -> None:
    # This edit once reached the engine's guard (TOO_LARGE); its typed input now names the field and its limit.
    admin = f.user(session, "large_admin", role=Role.admin)
    target = f.user(session, "large_target")
    with pytest.raises(Invalid) as caught:
        admin_users.update_user(session, actor=admin, user_id=target.id, data={"first_name": "x" * 20000})
    assert caught.value.errors == {"first_name": "First name must not exceed 100 characters"}
    assert caught.value.message != TOO_LARGE["22001"]


def test_numbers_past_their_column(engine: Engine) -> None:
    table = sa.Table("large_values", sa.MetaData(), sa.Column("n", sa.Integer), sa.Column("code", sa.String(3)))
    with engine.connect() as conn, conn.begin():
        table.create(conn)
        for row in ({"n": 2**31, "code": "ok"}, {"n": 1, "code": "long"}):
            with pytest.raises(Invalid), conn.begin_nested():
                conn.execute(table.insert(), row)
        conn.execute(table.insert(), {"n": 2**31 - 1, "code": "abc"})
        conn.rollback()
