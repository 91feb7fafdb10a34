"""Column types and helpers shared by every table: UTC timestamps (`Stamped`), money, validated enums, JSON lists."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

# Named constraints make migrations reproducible on PostgreSQL and SQLite (batch mode needs names).
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC timestamps on every database (SQLite returns naive values, which we mark as UTC)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given; use timezone-aware UTC values")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


MONEY = sa.Numeric(10, 2)
ZERO = Decimal("0.00")


def created_at() -> Any:
    return Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


def updated_at() -> Any:
    return Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False, sa_column_kwargs={"onupdate": utcnow})


class Stamped(SQLModel):
    """A table's rows record when they were created and last changed (UTC; `updated_at` moves on every update)."""

    created_at: datetime = created_at()
    updated_at: datetime = updated_at()


def timestamp(*, nullable: bool = True, index: bool = False) -> Any:
    return Field(default=None, sa_type=UTCDateTime, nullable=nullable, index=index)


def money(default: Decimal | None = ZERO, *, nullable: bool = False) -> Any:
    return Field(default=default, sa_type=MONEY, nullable=nullable)


def enum_field(enum_cls: type[StrEnum], default: StrEnum | None, *, nullable: bool = False, index: bool = False) -> Any:
    """A string column limited to the enum's values by a CHECK constraint, so bad values never reach the table."""
    sa_enum = sa.Enum(
        enum_cls,
        name=_snake(enum_cls.__name__),
        native_enum=False,
        create_constraint=True,
        length=32,
        validate_strings=True,
        values_callable=lambda e: [m.value for m in e],
    )
    return Field(default=default, sa_type=sa_enum, nullable=nullable, index=index)


def string_list() -> Any:
    """A list of strings stored as JSON (permissions, attendees, tags, features)."""
    return Field(default_factory=list, sa_type=sa.JSON, nullable=False)


def text(*, nullable: bool = True) -> Any:
    return Field(default=None, sa_type=sa.Text, nullable=nullable)


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(name))
