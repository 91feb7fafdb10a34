"""Migrations are expand-only (ADR 0097): during a rolling release the old code keeps serving on the migrated schema
(`make release` migrates before it replaces any process), so a migration's upgrade may add but not take away.

Refused in `upgrade()` unless the migration declares itself a contract step:
- dropping a table or a column, renaming a table or a column (`op.drop_table`, `drop_column`, `rename_table`,
  `alter_column(..., new_column_name=...)`), or the same in SQL text given to `op.execute`;
- making a column NOT NULL (`alter_column(..., nullable=False)`): the old code may insert rows without it;
- adding a NOT NULL column without a `server_default`: the old code's inserts do not name it.

A contract step runs in a release after the one whose code stopped using what it removes, and says so: a module-level
`CONTRACT = "..."` naming that release's commit (which must be in this repository's history). `downgrade()` is not
checked (it undoes an expansion). Every migration written before the rule keeps it already.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERSIONS = ROOT / "alembic" / "versions"
REMOVING_CALLS = {"drop_table", "drop_column", "rename_table"}
REMOVING_SQL = re.compile(r"\b(DROP\s+(TABLE|COLUMN)|RENAME\s+(TO|COLUMN)|SET\s+NOT\s+NULL)\b", re.IGNORECASE)
COMMIT = re.compile(r"\b[0-9a-f]{7,40}\b")


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _is_false(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def contract_ops(source: str) -> list[str]:
    """What the upgrade() of a migration's source takes away from the old code, one line each."""
    tree = ast.parse(source)
    upgrade = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "upgrade"), None)
    if upgrade is None:
        return []
    found = []
    for node in ast.walk(upgrade):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name, line = node.func.attr, f"line {node.lineno}"
        if name in REMOVING_CALLS:
            found.append(f"{line}: {name}")
        elif name == "alter_column" and _keyword(node, "new_column_name") is not None:
            found.append(f"{line}: alter_column renames a column")
        elif name == "alter_column" and _is_false(_keyword(node, "nullable")):
            found.append(f"{line}: alter_column makes a column NOT NULL")
        elif name == "add_column":
            for column in node.args:
                if (
                    isinstance(column, ast.Call)
                    and _is_false(_keyword(column, "nullable"))
                    and _keyword(column, "server_default") is None
                ):
                    found.append(f"{line}: add_column adds a NOT NULL column without a server_default")
        elif name == "execute":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and REMOVING_SQL.search(arg.value):
                    found.append(f"{line}: execute({arg.value[:60]!r})")
    return found


def declared_contract(source: str) -> str | None:
    """The module's CONTRACT string, if it has one."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "CONTRACT" for t in targets):
                value = node.value
                return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else ""
    return None


def _is_commit(sha: str) -> bool:
    done = subprocess.run(["git", "cat-file", "-e", f"{sha}^{{commit}}"], cwd=ROOT, capture_output=True, check=False)
    return done.returncode == 0


def problems(source: str) -> list[str]:
    """Why a migration breaks the rule (empty: it keeps it)."""
    removing = contract_ops(source)
    if not removing:
        return []
    contract = declared_contract(source)
    if contract is None:
        return [*removing, "not expand-only, and no CONTRACT naming the release that stopped using it"]
    commits = COMMIT.findall(contract)
    if not commits:
        return [f"CONTRACT {contract!r} names no commit (the release whose code stopped using what this removes)"]
    unknown = [sha for sha in commits if not _is_commit(sha)]
    return [f"CONTRACT names {sha}, which is not a commit of this repository" for sha in unknown]


@pytest.mark.parametrize("path", sorted(VERSIONS.glob("*.py")), ids=lambda p: p.name)
def test_every_migration_is_expand_only_or_a_declared_contract_step(path: Path) -> None:
    # docs/deploy.md, "Rolling release": expand in one release, contract in a later one.
    assert problems(path.read_text()) == [], path.name


UPGRADE = """
revision: str = "abc123"


def upgrade() -> None:
{body}


def downgrade() -> None:
    op.drop_table("notes")
    op.drop_column("invoices", "notes")
"""


def _migration(body: str, header: str = "") -> str:
    return header + UPGRADE.format(body="\n".join("    " + line for line in body.splitlines()))


@pytest.mark.parametrize(
    "body",
    [
        'op.drop_column("invoices", "notes")',
        'op.drop_table("notes")',
        'op.rename_table("notes", "remarks")',
        'with op.batch_alter_table("invoices") as batch_op:\n    batch_op.drop_column("notes")',
        'op.alter_column("invoices", "notes", new_column_name="remarks")',
        'op.alter_column("invoices", "notes", nullable=False)',
        'op.add_column("invoices", sa.Column("notes", sa.Text(), nullable=False))',
        'op.execute("ALTER TABLE invoices DROP COLUMN notes")',
        'op.execute("alter table invoices rename column notes to remarks")',
    ],
)
def test_what_takes_away_from_the_old_code_is_refused(body: str) -> None:
    assert problems(_migration(body)), body


@pytest.mark.parametrize(
    "body",
    [
        'op.create_table("notes", sa.Column("id", sa.Integer(), nullable=False))',
        'op.add_column("invoices", sa.Column("notes", sa.Text(), nullable=True))',
        'op.add_column("invoices", sa.Column("kind", sa.Text(), nullable=False, server_default="plain"))',
        'op.alter_column("invoices", "notes", nullable=True)',
        'op.create_index("ix_invoices_notes", "invoices", ["notes"])',
        "op.execute(\"UPDATE invoices SET notes = '' WHERE notes IS NULL\")",
    ],
)
def test_expanding_passes_and_downgrades_are_not_checked(body: str) -> None:
    assert problems(_migration(body)) == [], body


def test_a_contract_step_names_a_commit_of_this_repository() -> None:
    body = 'op.drop_column("invoices", "notes")'
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    named = f'CONTRACT = "invoices.notes unused since release {head.strip()[:10]}"\n'
    assert problems(_migration(body, named)) == []
    assert problems(_migration(body, 'CONTRACT = "notes are unused now"\n'))  # which release?
    assert problems(_migration(body, 'CONTRACT = "unused since 0000000deadbeef"\n'))  # no such commit
