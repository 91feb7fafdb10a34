"""project manager

A project names the staff member who answers for it; a client's cancellation is mailed to them.

Revision ID: 5a2f7c31d9e0
Revises: 934a46f2ad64
Create Date: 2026-11-26 00:50:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5a2f7c31d9e0"
down_revision: str | None = "934a46f2ad64"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.add_column(sa.Column("manager_id", sa.Uuid(), nullable=True))
        batch_op.create_index(batch_op.f("ix_projects_manager_id"), ["manager_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_projects_manager_id_users"), "users", ["manager_id"], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_projects_manager_id_users"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_projects_manager_id"))
        batch_op.drop_column("manager_id")
