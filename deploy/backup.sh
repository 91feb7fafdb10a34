#!/bin/bash
# One backup run (coastline-backup.service runs it nightly; docs/deploy.md, "Runbook"):
#
#   deploy/backup.sh BACKUP_DIR
#
# writes BACKUP_DIR/<UTC time>/ with
#   database.pgdump   PostgreSQL's own dump (pg_dump's custom format: pg_restore brings it back, whole or in part)
#   app/              the app's backup (`python -m app.cli backup`): every row as JSON and the private files (CVs,
#                     cover letters, invoice PDFs), each with its checksum in app/manifest.json
# and then deletes the runs older than KEEP_DAYS days (default 14). The database and the files come from the app's own
# environment (DATABASE_URL, DATA_DIR, ...). A run is written under a hidden name and renamed when whole, so a
# folder with a plain name is a finished backup. Exit status: 0 written, 1 failed, 2 bad use.
set -euo pipefail

target=${1:?usage: deploy/backup.sh BACKUP_DIR}
keep_days=${KEEP_DAYS:-14}
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-$root/.venv/bin/python}

if [[ ${DATABASE_URL:-} != postgresql* ]]; then
    echo "backup.sh: DATABASE_URL must name the PostgreSQL database (the app's environment file)" >&2
    exit 2
fi
# libpq reads the same URL without SQLAlchemy's driver name.
pg_url=${DATABASE_URL/#postgresql+psycopg:/postgresql:}

umask 077
stamp=$(date -u +%Y%m%dT%H%M%SZ)
work="$target/.$stamp.partial"
mkdir -p "$target"
rm -rf "$work"
trap 'rm -rf "$work"' EXIT  # an interrupted run leaves nothing that looks like a backup
mkdir "$work"

pg_dump --format=custom --file="$work/database.pgdump" --dbname="$pg_url"
(cd "$root" && "$python" -m app.cli backup "$work/app")

mv "$work" "$target/$stamp"
trap - EXIT
size() { du -sh "$1" | cut -f1; }
echo "Backup $target/$stamp: database.pgdump $(size "$target/$stamp/database.pgdump"), app/ $(size "$target/$stamp/app")"

# Older runs go (finished ones by their folder's time; a partial one left by a crash after a day).
find "$target" -mindepth 1 -maxdepth 1 -type d -name '2*Z' -mtime "+$keep_days" \
    -printf "Deleted %p (older than $keep_days days)\n" -exec rm -rf {} +
find "$target" -mindepth 1 -maxdepth 1 -type d -name '.*.partial' -mtime +1 -exec rm -rf {} +
