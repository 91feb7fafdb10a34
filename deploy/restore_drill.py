"""The restore drill (docs/deploy.md, "Runbook"): bring a backup of deploy/backup.sh back into two scratch databases and
check that it holds what it promises. Run it on a schedule (monthly), on any machine with the checkout and PostgreSQL:

    .venv/bin/python deploy/restore_drill.py /var/backups/coastline            # the newest run in the folder
    .venv/bin/python deploy/restore_drill.py /var/backups/coastline/20261128T023000Z

DRILL_ADMIN_URL names a PostgreSQL role that may create databases (default
postgresql://postgres@127.0.0.1:5432/postgres; a role made for the drill, `createuser --createdb coastline_drill`, is
enough). The drill never touches the live database or the live files: it creates `<DRILL_PREFIX>_pg` and
`<DRILL_PREFIX>_app` (prefix coastline_drill), restores into a temporary folder, and drops all three at the end
(`--keep` leaves them, to look at; they are dropped at the next drill).

1. `pg_restore` of database.pgdump into <prefix>_pg: PostgreSQL's own copy restores without an error, at the schema
   revision the app's backup recorded, with every table the app's backup has.
2. `python -m app.cli restore app/` into <prefix>_app and the temporary folder: every row and every private file comes
   back (the restore checks each checksum before it starts), then the schema is upgraded to this checkout's.
3. The app's copy holds exactly the rows its manifest counts, and each private file is there with its checksum.

The two copies are taken a few seconds apart while the site runs, so their row counts may differ by what was written
in between: the differences are listed, not counted as a failure. Exit status 0: the drill passed; 1: it failed.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


class DrillFailed(Exception):
    pass


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def newest_run(folder: Path) -> Path:
    """`folder` itself when it is one backup run, else its newest finished run (hidden partial ones are skipped)."""
    if (folder / "app" / "manifest.json").is_file():
        return folder
    runs = sorted(p for p in folder.glob("2*Z") if (p / "app" / "manifest.json").is_file())
    if not runs:
        raise DrillFailed(f"{folder} holds no finished backup run (a folder with app/manifest.json)")
    return runs[-1]


def database_url(admin_url: str, name: str) -> str:
    """The admin URL with another database name (scheme://user@host:port/name)."""
    return admin_url.rsplit("/", 1)[0] + "/" + name


def recreate(admin_url: str, name: str, *, create: bool = True) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if create:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def row_counts(url: str) -> dict[str, int]:
    """Rows in every table of the public schema."""
    with psycopg.connect(url) as conn:
        names = [
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
            )
        ]
        counts: dict[str, int] = {}
        for name in names:
            found = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(name))).fetchone()
            counts[name] = int(found[0]) if found else 0
        return counts


def revision(url: str) -> str | None:
    with psycopg.connect(url) as conn:
        found = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return str(found[0]) if found else None


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def run(cmd: list[str], env: dict[str, str] | None = None) -> None:
    say("$ " + " ".join(cmd))
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    for line in (done.stdout + done.stderr).splitlines():
        say("  " + line)
    if done.returncode:
        raise DrillFailed(f"{cmd[0]} {' '.join(cmd[1:3])} ... failed with exit status {done.returncode}")


def drill(run_dir: Path, admin_url: str, prefix: str, data_dir: Path) -> list[str]:
    """Both restores and the checks; the notes (row count differences between the two copies)."""
    manifest: dict[str, Any] = json.loads((run_dir / "app" / "manifest.json").read_text())
    pg_db, app_db = f"{prefix}_pg", f"{prefix}_app"
    pg_url, app_url = database_url(admin_url, pg_db), database_url(admin_url, app_db)
    for name in (pg_db, app_db):
        recreate(admin_url, name)

    say(f"1. PostgreSQL's dump into {pg_db}")
    run(["pg_restore", "--exit-on-error", "--no-owner", "--no-acl", "--dbname", pg_url,
         str(run_dir / "database.pgdump")])  # fmt: skip
    if revision(pg_url) != manifest["revision"]:
        raise DrillFailed(f"{pg_db} is at revision {revision(pg_url)}, the backup at {manifest['revision']}")
    pg_counts = row_counts(pg_url)
    missing = sorted(set(manifest["tables"]) - set(pg_counts))
    if missing:
        raise DrillFailed(f"the dump lacks tables the app's backup has: {', '.join(missing)}")

    say(f"2. The app's backup into {app_db} and {data_dir}")
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("STORAGE_URL", "REDIS_URL")},  # never the live stores
        "APP_ENV": "dev",  # a command-line run: the production checks on secrets do not concern a restore
        "DATABASE_URL": re.sub(r"^postgresql:", "postgresql+psycopg:", app_url),
        "DATA_DIR": str(data_dir),
    }
    run([sys.executable, "-m", "app.cli", "restore", str(run_dir / "app")], env)

    say("3. Checks")
    app_counts = row_counts(app_url)
    for table, expected in sorted(manifest["tables"].items()):
        if app_counts.get(table) != expected["rows"]:
            raise DrillFailed(f"{app_db}.{table} has {app_counts.get(table)} rows, the backup {expected['rows']}")
    for name, expected in sorted(manifest["files"].items()):
        path = data_dir / name
        if not path.is_file() or sha256(path) != expected["sha256"]:
            raise DrillFailed(f"the private file {name} did not come back whole")
    rows = sum(t["rows"] for t in manifest["tables"].values())
    tables, files = len(manifest["tables"]), len(manifest["files"])
    say(f"   {app_db}: {rows} rows in {tables} tables as counted, {files} private files whole")
    notes = [
        f"{table}: {pg_counts[table]} rows in the dump, {t['rows']} in the app's backup"
        for table, t in sorted(manifest["tables"].items())
        if pg_counts[table] != t["rows"]
    ]
    pg_rows = sum(pg_counts[table] for table in manifest["tables"])
    say(f"   {pg_db}: {pg_rows} rows in the same tables, revision {manifest['revision']}")
    for note in notes:
        say(f"   note: {note} (written between the two)")
    return notes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("backup", type=Path, help="a backup run, or the folder of runs (the newest is taken)")
    ap.add_argument("--keep", action="store_true", help="leave the scratch databases and folder, to look at")
    args = ap.parse_args()
    admin_url = os.environ.get("DRILL_ADMIN_URL", DEFAULT_ADMIN_URL)
    prefix = os.environ.get("DRILL_PREFIX", "coastline_drill")
    if not re.fullmatch(r"[a-z0-9_]{1,50}", prefix):
        say(f"DRILL_PREFIX {prefix!r}: lower-case letters, digits and _ only")
        return 2
    data_dir = Path(tempfile.mkdtemp(prefix=f"{prefix}-files-"))
    try:
        run_dir = newest_run(args.backup)
        say(f"Restore drill of {run_dir}")
        drill(run_dir, admin_url, prefix, data_dir)
    except (DrillFailed, psycopg.Error, OSError, ValueError, KeyError) as exc:
        say(f"Restore drill FAILED: {exc}")
        return 1
    finally:
        if args.keep:
            say(f"Kept: databases {prefix}_pg and {prefix}_app, files in {data_dir}")
        else:
            for name in (f"{prefix}_pg", f"{prefix}_app"):
                with contextlib.suppress(psycopg.Error):
                    recreate(admin_url, name, create=False)
            shutil.rmtree(data_dir, ignore_errors=True)
    say("Restore drill passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
