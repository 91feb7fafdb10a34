"""Operator commands: `python -m app.cli {migrate, create-user, seed-demo, backup, restore, send-reminders}`.

Results go to stdout (one line each, easy to read and to script); diagnostics go to the log on stderr.
Exit codes: 0 success, 1 unexpected failure (e.g. database unreachable), 2 bad input (argparse uses 2 as well).
"""

from __future__ import annotations

import argparse
import getpass
import logging
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session

from app.core import migrations
from app.core.config import settings
from app.core.db import make_engine, session_scope
from app.core.errors import Conflict, Invalid, Unavailable
from app.core.permissions import EmployeeType, Role
from app.services.accounts.users import create_user
from app.services.billing import reminders
from app.services.operations import backup as backups
from app.services.operations.seed import seed_demo
from app.services.platform import storage

log = logging.getLogger("app.cli")

SessionFactory = Callable[[], AbstractContextManager[Session]]
EXIT_OK, EXIT_FAILURE, EXIT_BAD_INPUT = 0, 1, 2


def _out(line: str = "") -> None:
    sys.stdout.write(line + "\n")


def _err(line: str) -> None:
    sys.stderr.write(line + "\n")


def migrate(args: argparse.Namespace, sessions: SessionFactory) -> int:
    """Upgrade the configured database to the newest migration."""
    url = settings.database_url
    head = migrations.upgrade(url)
    _out(f"Database {migrations.safe_url(url)} is at revision {head} (head)")
    return EXIT_OK


def create_user_command(args: argparse.Namespace, sessions: SessionFactory) -> int:
    """Create an account (verified unless --unverified) and print its id."""
    password = args.password if args.password is not None else _prompt_password()
    if password is None:
        return EXIT_BAD_INPUT
    with sessions() as s:
        try:
            user = create_user(
                s,
                username=args.username,
                email=args.email,
                password=password,
                role=args.role,
                employee_type=args.employee_type,
                first_name=args.first_name,
                last_name=args.last_name,
                phone=args.phone,
                company=args.company,
                is_verified=not args.unverified,
            )
        except (Conflict, Invalid) as exc:
            _err(f"error: {exc.message}")
            for field, text in exc.errors.items():
                _err(f"  {field}: {text}")
            return EXIT_BAD_INPUT
        kind = f"{user.role.value} ({user.employee_type.value})" if user.employee_type else user.role.value
        _out(f"Created {kind} user {user.username} with id {user.id}")
    return EXIT_OK


def _prompt_password() -> str | None:
    # Asked interactively so the password stays out of shell history and the process list.
    first = getpass.getpass("Password: ")
    if getpass.getpass("Repeat password: ") != first:
        _err("error: the passwords do not match")
        return None
    return first


def seed_demo_command(args: argparse.Namespace, sessions: SessionFactory) -> int:
    """Insert missing demo content; demo accounts and client data only outside production. With --migrate, the
    database is upgraded first, in the same process (`make run`: one start of Python, not two)."""
    if args.migrate:
        migrate(args, sessions)
    with_accounts = settings.app_env != "prod"
    with sessions() as s:
        report = seed_demo(s, with_accounts=with_accounts)
    _out(f"Demo content seeded (APP_ENV={settings.app_env}): {report.total_created} new rows")
    for kind, count in report.created.items():
        _out(f"  {kind:<20} {count:>3} created")
    if not with_accounts:
        _out("APP_ENV=prod: demo accounts and demo client data are never created in production.")
        return EXIT_OK
    if report.credentials:
        _out("")
        _out("Demo accounts (development only; passwords as seeded, so a password changed since will not work):")
        width = max(len(c.username) for c in report.credentials)
        _out(f"  {'ROLE':<10}{'USERNAME':<{width + 2}}PASSWORD")
        for cred in report.credentials:
            _out(f"  {cred.role:<10}{cred.username:<{width + 2}}{cred.password}")
    return EXIT_OK


def backup_command(args: argparse.Namespace, sessions: SessionFactory) -> int:
    """Write a consistent snapshot of the database and the private files into a new folder."""
    engine = make_engine(settings.database_url)
    try:
        summary = backups.backup(engine, storage.store_for(settings), Path(args.folder))
    except (Conflict, Invalid) as exc:
        _err(f"error: {exc.message}")
        return EXIT_BAD_INPUT
    except Unavailable as exc:
        _err(f"error: {exc.message}")
        return EXIT_FAILURE
    finally:
        engine.dispose()
    _out(
        f"Backup written to {args.folder}: {summary.rows} rows in {summary.tables} tables, {summary.files} private "
        f"files, schema revision {summary.revision}"
    )
    return EXIT_OK


def restore_command(args: argparse.Namespace, sessions: SessionFactory) -> int:
    """Bring a backup back into an empty database and the private files store (STORAGE_URL)."""
    try:
        summary = backups.restore(settings.database_url, storage.store_for(settings), Path(args.folder))
    except (Conflict, Invalid) as exc:
        _err(f"error: {exc.message}")
        return EXIT_BAD_INPUT
    except Unavailable as exc:
        _err(f"error: {exc.message}")
        return EXIT_FAILURE
    _out(
        f"Restored {summary.rows} rows in {summary.tables} tables and {summary.files} private files into "
        f"{migrations.safe_url(settings.database_url)} (backup revision {summary.revision}, now at head)"
    )
    return EXIT_OK


def send_reminders_command(args: argparse.Namespace, sessions: SessionFactory) -> int:
    """Run one pass of the overdue invoices' reminders now (the background jobs run one daily) and print each sent."""
    with sessions() as s:
        sent = reminders.send_reminders(s)
    for r in sent:
        _out(f"Reminder {r.count} of {reminders.REMINDERS_MAX} for {r.invoice_number} to {r.to}: ${r.outstanding:,.2f}")
    _out(f"{len(sent)} reminder(s) queued")
    return EXIT_OK


def pages_command(args: argparse.Namespace, sessions: SessionFactory) -> int:
    """Render the public pages again if the content they show changed (app/ui/fresh_pages.py); with --watch, keep
    doing so. For deployments whose app processes cannot run Node (docs/deploy.md, "Service files")."""
    from app.ui import fresh_pages

    folder = Path(args.folder) if args.folder else fresh_pages.served_pages()
    if not (folder / fresh_pages.STAMP).is_file():
        _err(f"error: {folder} holds no build made by this version (`make build` makes one)")
        return EXIT_FAILURE
    while True:
        try:
            rendered = fresh_pages.refresh(folder, wait=True)
        except Exception:
            if not args.watch:
                raise
            log.exception("Rendering the public pages failed; they keep their content until the next check")
        else:
            if not args.watch:
                _out(f"Rendered the public pages in {folder}" if rendered else f"The pages in {folder} are current")
                return EXIT_OK
        time.sleep(fresh_pages.INTERVAL_S)


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(prog="python -m app.cli", description="Operator commands of the site.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress (e.g. each migration step)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    commands.add_parser("migrate", help="upgrade the database to the newest schema").set_defaults(handler=migrate)

    user = commands.add_parser("create-user", help="create an admin, employee or client account")
    user.add_argument("--role", required=True, choices=[r.value for r in Role])
    user.add_argument("--employee-type", choices=[t.value for t in EmployeeType], help="required for employees")
    user.add_argument("--username", required=True)
    user.add_argument("--email", required=True)
    user.add_argument("--password", help="asked for interactively when omitted (keeps it out of shell history)")
    user.add_argument("--first-name")
    user.add_argument("--last-name")
    user.add_argument("--phone")
    user.add_argument("--company")
    user.add_argument("--unverified", action="store_true", help="require e-mail verification before sign-in")
    user.set_defaults(handler=create_user_command)

    seed = commands.add_parser("seed-demo", help="add missing demo content (and demo accounts outside prod)")
    seed.add_argument("--migrate", action="store_true", help="upgrade the database to the newest schema first")
    seed.set_defaults(handler=seed_demo_command)

    dump = commands.add_parser(
        "backup", help="write the database and the private files (CVs, from STORAGE_URL's store) into a new folder"
    )
    dump.add_argument("folder", help="a folder that does not exist yet (or is empty)")
    dump.set_defaults(handler=backup_command)

    load = commands.add_parser("restore", help="bring a backup back into an empty database and STORAGE_URL's store")
    load.add_argument("folder", help="a folder written by `backup`")
    load.set_defaults(handler=restore_command)

    remind = commands.add_parser(
        "send-reminders", help="mail the reminders of overdue invoices due today (idempotent within a day)"
    )
    remind.set_defaults(handler=send_reminders_command)

    pages = commands.add_parser(
        "pages", help="render the public pages again if the content they show changed (PAGES_DIR, else the build)"
    )
    pages.add_argument("--folder", help="the served pages folder (default: PAGES_DIR, else the build's)")
    pages.add_argument("--watch", action="store_true", help="keep checking, every 15 s (as the app processes do)")
    pages.set_defaults(handler=pages_command)
    return parser


def main(argv: Sequence[str] | None = None, *, sessions: SessionFactory | None = None) -> int:
    """Run one command; `sessions` replaces the database session factory (tests pass a rolled-back session)."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        return int(args.handler(args, sessions or session_scope))
    except SQLAlchemyError as exc:
        log.info("database error", exc_info=True)
        detail = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        _err(f"error: database error: {detail} (run with -v for the traceback)")
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
