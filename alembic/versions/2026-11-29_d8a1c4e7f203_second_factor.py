"""second factor

A second factor for sign-in (issue 28): authenticator apps (TOTP), recovery codes, trusted browsers and the sign-in
waiting for its second step. Expand-only: new tables.

Revision ID: d8a1c4e7f203
Revises: c3e5a7b90d14
Create Date: 2026-11-29 04:57:30.137268
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.models.base

revision: str = "d8a1c4e7f203"
down_revision: str | None = "c3e5a7b90d14"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UTC = app.models.base.UTCDateTime


def _user(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["user_id"], ["users.id"], name=op.f(f"fk_{table}_user_id_users"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "totp_factors",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("secret", sa.String(length=200), nullable=False),
        sa.Column("confirmed_at", UTC(), nullable=True),
        sa.Column("last_step", sa.BigInteger(), nullable=False),
        sa.Column("created_at", UTC(), nullable=False),
        _user("totp_factors"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_totp_factors")),
    )
    op.create_table(
        "recovery_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("used_at", UTC(), nullable=True),
        sa.Column("created_at", UTC(), nullable=False),
        _user("recovery_codes"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_recovery_codes")),
    )
    op.create_index(op.f("ix_recovery_codes_user_id"), "recovery_codes", ["user_id"], unique=False)
    op.create_table(
        "trusted_browsers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=120), nullable=False),
        sa.Column("expires_at", UTC(), nullable=False),
        sa.Column("last_used_at", UTC(), nullable=True),
        sa.Column("created_at", UTC(), nullable=False),
        _user("trusted_browsers"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trusted_browsers")),
        sa.UniqueConstraint("token", name=op.f("uq_trusted_browsers_token")),
    )
    op.create_index(op.f("ix_trusted_browsers_user_id"), "trusted_browsers", ["user_id"], unique=False)
    op.create_table(
        "sign_in_challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("method", sa.String(length=20), nullable=False),
        sa.Column("landing", sa.String(length=200), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("expires_at", UTC(), nullable=False),
        sa.Column("passed_at", UTC(), nullable=True),
        sa.Column("used_at", UTC(), nullable=True),
        sa.Column("created_at", UTC(), nullable=False),
        _user("sign_in_challenges"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in_challenges")),
        sa.UniqueConstraint("token", name=op.f("uq_sign_in_challenges_token")),
    )
    op.create_index(op.f("ix_sign_in_challenges_user_id"), "sign_in_challenges", ["user_id"], unique=False)


def downgrade() -> None:
    for table in ("sign_in_challenges", "trusted_browsers", "recovery_codes"):
        op.drop_index(op.f(f"ix_{table}_user_id"), table_name=table)
        op.drop_table(table)
    op.drop_table("totp_factors")
