"""The Projects tab's time log: the handlers read, log and delete through the service, and refuse callers without the
permission whatever the browser sends (the harness is test_admin_handlers': committed rows, the real state tree)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.models.enums import EmployeeType, ProjectStatus, Role
from app.models.project import Project, ProjectTimeEntry
from app.models.user import User
from app.services.projects.time_entries import business_today
from app.ui.admin.projects.state import ProjectListState
from app.ui.format import long_date
from tests import factories as f
from tests.ui.notices import notice
from tests.ui.test_admin_handlers import _call, _state, _token


@pytest.fixture
def db(engine: Engine) -> Iterator[Session]:
    with Session(engine, expire_on_commit=False) as s:
        yield s


def _staff(s: Session, etype: EmployeeType | None) -> User:
    role = Role.employee if etype else Role.admin
    return f.user(s, f"t_{uuid.uuid4().hex[:10]}", role=role, employee_type=etype, first_name="Pat")


def _project(s: Session) -> Project:
    tag = uuid.uuid4().hex[:10]
    return f.project(s, f.user(s, f"c_{tag}"), f"{tag} Portal", estimated_hours=40)


def _tab(s: Session, user: User, project: Project) -> ProjectListState:
    """The Projects tab as `user`, showing `project`'s card."""
    state = _state(ProjectListState, _token(s, user))
    _call(state, "set_search", project.name)
    return state


def _actual(s: Session, project: Project) -> Decimal:
    s.expire_all()
    return s.get(Project, project.id).actual_hours  # type: ignore[union-attr]


def _today() -> str:
    return business_today().isoformat()


def test_a_writer_logs_and_deletes_time_and_the_card_follows(db: Session) -> None:
    project = _project(db)
    tab = _tab(db, _staff(db, EmployeeType.product_manager), project)
    _call(tab, "open_time", project.id)
    assert tab.dialog == "time" and tab.time_project == project.name and tab.time_rows == []
    assert (tab.time_actual, tab.time_estimated, tab.time_today) == ("0", "40", _today())

    _call(tab, "log_time", {"work_date": _today(), "hours": "1.5", "note": "Kick-off"})
    assert notice(tab)["title"] == "Time logged" and tab.form_error == ""
    assert [(r.hours, r.note, r.author, r.can_delete) for r in tab.time_rows] == [("1.5", "Kick-off", "Pat", True)]
    assert tab.time_actual == "1.5" and tab.rows[0].actual_hours == "1.5"  # the card shows the new total
    assert _actual(db, project) == Decimal("1.5")

    _call(tab, "log_time", {"work_date": _today(), "hours": "25", "note": ""})
    assert (tab.time_hours_error, tab.time_date_error) == ("Hours cannot be more than 24 in one entry", "")
    assert tab.form_error == "Hours cannot be more than 24 in one entry"
    tomorrow = (business_today() + timedelta(days=1)).isoformat()
    _call(tab, "log_time", {"work_date": tomorrow, "hours": "2"})
    assert (tab.time_date_error, tab.time_hours_error) == ("Date cannot be in the future", "")
    assert _actual(db, project) == Decimal("1.5")

    _call(tab, "ask_delete_time", tab.time_rows[0].id)
    _call(tab, "keep_time")
    assert tab.time_confirm == 0 and len(tab.time_rows) == 1
    _call(tab, "ask_delete_time", tab.time_rows[0].id)
    _call(tab, "confirm_delete_time")
    assert notice(tab)["title"] == "Time entry deleted" and tab.time_rows == [] and tab.rows[0].actual_hours == "0"
    assert _actual(db, project) == 0


def test_the_entries_page_through(db: Session) -> None:
    project = _project(db)
    pm = _staff(db, EmployeeType.product_manager)
    db.add_all(
        ProjectTimeEntry(project_id=project.id, user_id=pm.id, work_date=business_today() - timedelta(days=i), hours=1)
        for i in range(12)
    )
    db.commit()
    tab = _tab(db, pm, project)
    _call(tab, "open_time", project.id)
    assert (len(tab.time_rows), tab.time_total, tab.time_pages, tab.time_first, tab.time_last) == (10, 12, 2, 1, 10)
    _call(tab, "time_next_page")
    assert (len(tab.time_rows), tab.time_page, tab.time_first, tab.time_last) == (2, 2, 11, 12)


def test_readers_see_but_cannot_log_or_delete(db: Session) -> None:
    project = _project(db)
    author = _staff(db, EmployeeType.product_manager)
    writer = _tab(db, author, project)
    _call(writer, "open_time", project.id)
    _call(writer, "log_time", {"work_date": _today(), "hours": "3"})
    entry_id = writer.time_rows[0].id

    dev = _tab(db, _staff(db, EmployeeType.developer), project)  # content:read, not content:write, not the manager
    _call(dev, "open_time", project.id)
    assert dev.time_actual == "3" and not dev.time_rows[0].can_delete and not dev.time_can_log
    _call(dev, "log_time", {"work_date": _today(), "hours": "5"})  # a crafted event: the form is not shown
    assert dev.form_error == "You don't have permission to log time on projects" and _actual(db, project) == 3
    _call(dev, "ask_delete_time", entry_id)
    _call(dev, "confirm_delete_time")
    assert notice(dev)["description"] == "You don't have permission to delete time entries"

    cto = _tab(db, _staff(db, EmployeeType.cto), project)  # writes projects, but the entry is the pm's
    _call(cto, "open_time", project.id)
    _call(cto, "ask_delete_time", entry_id)
    _call(cto, "confirm_delete_time")
    assert notice(cto)["description"] == "You can only delete your own time entries"
    assert _actual(db, project) == 3 and db.exec(select(ProjectTimeEntry).where(ProjectTimeEntry.id == entry_id)).one()

    admin = _tab(db, _staff(db, None), project)
    _call(admin, "open_time", project.id)
    assert admin.time_rows[0].can_delete
    _call(admin, "ask_delete_time", entry_id)
    _call(admin, "confirm_delete_time")
    assert notice(admin)["title"] == "Time entry deleted" and _actual(db, project) == 0


def test_outsiders_get_nothing(db: Session) -> None:
    project = _project(db)
    for user in (f.user(db, f"c_{uuid.uuid4().hex[:10]}"), _staff(db, EmployeeType.hr)):  # hr lacks content:read
        state = _state(ProjectListState, _token(db, user))
        _call(state, "open_time", project.id)
        assert state.dialog == "" and state.time_rows == []
        state.dialog = "time"  # forged over the websocket, with the project id too
        state._dialog_key = str(project.id)
        _call(state, "log_time", {"work_date": _today(), "hours": "2"})
        _call(state, "time_next_page")
        assert state.time_rows == []
    signed_out = _state(ProjectListState, None)
    _call(signed_out, "open_time", project.id)
    assert signed_out.dialog == ""
    assert _actual(db, project) == 0


def test_the_manager_logs_time_and_a_completed_project_takes_none(db: Session) -> None:
    project = _project(db)
    dev = _staff(db, EmployeeType.developer)  # content:read only, but the project's manager: its member
    project.manager_id = dev.id
    db.add(project)
    db.commit()
    tab = _tab(db, dev, project)
    _call(tab, "open_time", project.id)
    assert tab.time_can_log and tab.time_closed == ""
    _call(tab, "log_time", {"work_date": _today(), "hours": "20"})
    assert tab.form_error == "" and tab.time_actual == "20" and tab.time_rows[0].can_delete
    _call(tab, "log_time", {"work_date": _today(), "hours": "5"})  # 25 h in one day
    assert tab.time_hours_error == "At most 24 hours a day: you have already logged 20 h on " + long_date(_today())
    assert _actual(db, project) == 20

    project.status = ProjectStatus.completed
    db.add(project)
    db.commit()
    _call(tab, "open_time", project.id)
    assert not tab.time_can_log and tab.time_closed == "Time cannot be logged on a completed project: reopen it first"
    assert not tab.time_rows[0].can_delete
    _call(tab, "log_time", {"work_date": _today(), "hours": "1"})  # a crafted event: the form is not shown
    assert tab.form_error == "Time cannot be logged on a completed project: reopen it first"
    assert _actual(db, project) == 20
