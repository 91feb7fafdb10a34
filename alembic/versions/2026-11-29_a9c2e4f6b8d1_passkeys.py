"""passkeys

Passkeys (WebAuthn credentials) as the second step or a sign-in without a password, and the ceremonies under way
(issue 28, ADR 0104). Expand-only: new tables.

Revision ID: a9c2e4f6b8d1
Revises: f3c6e9a2b7d5
Create Date: 2026-11-29 05:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.models.base

revision: str = "a9c2e4f6b8d1"
down_revision: str | None = "f3c6e9a2b7d5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UTC = app.models.base.UTCDateTime


def _user(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["user_id"], ["users.id"], name=op.f(f"fk_{table}_user_id_users"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("credential_id", sa.String(length=1400), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.JSON(), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("last_used_at", UTC(), nullable=True),
        sa.Column("created_at", UTC(), nullable=False),
        _user("passkeys"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_passkeys")),
        sa.UniqueConstraint("credential_id", name=op.f("uq_passkeys_credential_id")),
    )
    op.create_index(op.f("ix_passkeys_user_id"), "passkeys", ["user_id"], unique=False)
    op.create_table(
        "webauthn_ceremonies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("purpose", sa.String(length=20), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("challenge", sa.String(length=200), nullable=False),
        sa.Column("expires_at", UTC(), nullable=False),
        sa.Column("used_at", UTC(), nullable=True),
        sa.Column("created_at", UTC(), nullable=False),
        _user("webauthn_ceremonies"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webauthn_ceremonies")),
        sa.UniqueConstraint("token", name=op.f("uq_webauthn_ceremonies_token")),
    )
    op.create_index(op.f("ix_webauthn_ceremonies_user_id"), "webauthn_ceremonies", ["user_id"], unique=False)


def downgrade() -> None:
    for table in ("webauthn_ceremonies", "passkeys"):
        op.drop_index(op.f(f"ix_{table}_user_id"), table_name=table)
        op.drop_table(table)
