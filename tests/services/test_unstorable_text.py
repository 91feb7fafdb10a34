"""The engine refuses text no database can store, for every caller (Reflex handlers and the CLI call services
directly): a service given NUL or a lone surrogate raises Invalid, never a database error."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from app.core.db import make_engine
from app.core.errors import Invalid
from app.core.text import INVALID_CHARACTER, INVALID_TEXT, storable, unstorable_paths
from app.models.enums import Role
from app.services.accounts.users import get_user_by_identifier
from app.services.crm import contact
from app.services.projects import organizations
from app.services.site import site_admin
from tests import factories as f


def test_what_cannot_be_stored() -> None:
    assert not storable("a\x00b") and not storable("\ud800") and not storable("\udfff")
    assert storable("plain") and storable("\U0001f600") and storable("tab\tand\nnewline")
    assert unstorable_paths({"a": ["ok", {"b": "x\x00"}], "c": "\ud800", "d\x00": "ok"}) == ["a.1.b", "c", ""]


def test_a_service_given_nul_raises_invalid_naming_the_column(session: Session) -> None:
    with pytest.raises(Invalid) as caught:
        contact.submit_inquiry(
            session, data={"name": "Pat", "email": "pat@example.com", "company": "Ac\x00me", "message": "Hi"}
        )
    assert caught.value.message == INVALID_TEXT
    assert caught.value.errors == {"company": INVALID_CHARACTER}


def test_a_lone_surrogate_in_an_update(session: Session) -> None:
    admin = f.user(session, "guard_admin", role=Role.admin)
    org = organizations.create_organization(session, actor=admin, data={"name": "Acme"})
    session.commit()
    with pytest.raises(Invalid) as caught:
        organizations.update_organization(session, actor=admin, organization_id=org.id, data={"industry": "\ud800"})
    assert caught.value.errors == {"industry": INVALID_CHARACTER}


def test_json_list_columns_are_checked_inside(session: Session) -> None:
    admin = f.user(session, "guard_admin2", role=Role.admin)
    data = {"name": "Sam", "role": "Dev", "bio": "Codes", "skills": ["Go", "Ru\x00st"]}
    with pytest.raises(Invalid):
        site_admin.create_item(session, actor=admin, kind="team", data=data)


def test_look_ups_are_refused_too(session: Session) -> None:
    with pytest.raises(Invalid):
        get_user_by_identifier(session, "pat\x00@example.com")


@pytest.mark.parametrize("url", ["sqlite://"])
def test_the_embedded_database_refuses_the_same(url: str) -> None:
    engine = make_engine(url)
    table = sa.Table("notes", sa.MetaData(), sa.Column("body", sa.Text), sa.Column("tags", sa.JSON))
    with engine.begin() as conn:
        table.create(conn)
        for row in ({"body": "a\x00b", "tags": []}, {"body": "\ud800", "tags": []}, {"body": "ok", "tags": ["\ud800"]}):
            with pytest.raises(Invalid):
                conn.execute(table.insert(), row)
        conn.execute(table.insert(), {"body": "fine", "tags": ["ok"]})
        assert conn.execute(sa.select(table.c.body)).scalars().all() == ["fine"]
