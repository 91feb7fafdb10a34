"""project messages by time

Every server process runs the digest pass every few seconds (ADR 0102); it reads the messages of the last seven days.
Without an index on created_at PostgreSQL read every message ever written for it: 77 ms a pass with 200,000
messages against 17 ms with the index, in the same run (tools/bench/bench_digest.py; docs/performance.md, "The digest
pass over many messages"). Expand-only: an index is added.

Revision ID: b7e1d3f5a9c2
Revises: a9c2e4f6b8d1
Create Date: 2026-11-29 08:45:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "b7e1d3f5a9c2"
down_revision: str | None = "a9c2e4f6b8d1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_project_messages_created_at", "project_messages", ["created_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_project_messages_created_at", table_name="project_messages")
