"""The Projects tab's time log: the handlers read, log and delete through the service, and refuse callers without the
permission whatever the browser sends (the harness is tests/ui/harness.py's: committed rows, the real state tree)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from decimal import Decimal

from sqlmodel import Session, select

from app.models.enums import EmployeeType, ProjectStatus
from app.models.project import Project, ProjectTimeEntry
from app.models.user import User
from app.services.projects.time_entries import business_today
from app.ui.admin.projects.state import ProjectListState
from app.ui.format import long_date
from tests import factories as f
from tests.ui.harness import call, handler_state, notice, sign_in, staff


def _staff(s: Session, etype: EmployeeType | None) -> User:
    return staff(s, etype, first_name="Pat")


def _project(s: Session) -> Project:
    tag = uuid.uuid4().hex[:10]
    return f.project(s, f.user(s, f"c_{tag}"), f"{tag} Portal", estimated_hours=40)


def _tab(s: Session, user: User, project: Project) -> ProjectListState:
    """The Projects tab as `user`, showing `project`'s card."""
    state = handler_state(ProjectListState, sign_in(s, user))
    call(state, "set_search", project.name)
    return state


def _actual(s: Session, project: Project) -> Decimal:
    s.expire_all()
    return s.get(Project, project.id).actual_hours  # type: ignore[union-attr]


def _today() -> str:
    return business_today().isoformat()


def test_a_writer_logs_and_deletes_time_and_the_card_follows(db: Session) -> None:
    project = _project(db)
    tab = _tab(db, _staff(db, EmployeeType.product_manager), project)
    call(tab, "open_time", project.id)
    assert tab.dialog == "time" and tab.time_project == project.name and tab.time_rows == []
    assert (tab.time_actual, tab.time_estimated, tab.time_today) == ("0", "40", _today())

    call(tab, "log_time", {"work_date": _today(), "hours": "1.5", "note": "Kick-off"})
    assert notice(tab)["title"] == "Time logged" and tab.form_error == ""
    assert [(r.hours, r.note, r.author, r.can_delete) for r in tab.time_rows] == [("1.5", "Kick-off", "Pat", True)]
    assert tab.time_actual == "1.5" and tab.rows[0].actual_hours == "1.5"  # the card shows the new total
    assert _actual(db, project) == Decimal("1.5")

    call(tab, "log_time", {"work_date": _today(), "hours": "25", "note": ""})
    assert (tab.time_hours_error, tab.time_date_error) == ("Hours cannot be more than 24 in one entry", "")
    assert tab.form_error == "Hours cannot be more than 24 in one entry"
    tomorrow = (business_today() + timedelta(days=1)).isoformat()
    call(tab, "log_time", {"work_date": tomorrow, "hours": "2"})
    assert (tab.time_date_error, tab.time_hours_error) == ("Date cannot be in the future", "")
    assert _actual(db, project) == Decimal("1.5")

    call(tab, "ask_delete_time", tab.time_rows[0].id)
    call(tab, "keep_time")
    assert tab.time_confirm == 0 and len(tab.time_rows) == 1
    call(tab, "ask_delete_time", tab.time_rows[0].id)
    call(tab, "confirm_delete_time")
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
    call(tab, "open_time", project.id)
    assert (len(tab.time_rows), tab.time_total, tab.time_pages, tab.time_first, tab.time_last) == (10, 12, 2, 1, 10)
    call(tab, "time_next_page")
    assert (len(tab.time_rows), tab.time_page, tab.time_first, tab.time_last) == (2, 2, 11, 12)


def test_readers_see_but_cannot_log_or_delete(db: Session) -> None:
    project = _project(db)
    author = _staff(db, EmployeeType.product_manager)
    writer = _tab(db, author, project)
    call(writer, "open_time", project.id)
    call(writer, "log_time", {"work_date": _today(), "hours": "3"})
    entry_id = writer.time_rows[0].id

    dev = _tab(db, _staff(db, EmployeeType.developer), project)  # content:read, not content:write, not the manager
    call(dev, "open_time", project.id)
    assert dev.time_actual == "3" and not dev.time_rows[0].can_delete and not dev.time_can_log
    call(dev, "log_time", {"work_date": _today(), "hours": "5"})  # a crafted event: the form is not shown
    assert dev.form_error == "You don't have permission to log time on projects" and _actual(db, project) == 3
    call(dev, "ask_delete_time", entry_id)
    call(dev, "confirm_delete_time")
    assert notice(dev)["description"] == "You don't have permission to delete time entries"

    cto = _tab(db, _staff(db, EmployeeType.cto), project)  # writes projects, but the entry is the pm's
    call(cto, "open_time", project.id)
    call(cto, "ask_delete_time", entry_id)
    call(cto, "confirm_delete_time")
    assert notice(cto)["description"] == "You can only delete your own time entries"
    assert _actual(db, project) == 3 and db.exec(select(ProjectTimeEntry).where(ProjectTimeEntry.id == entry_id)).one()

    admin = _tab(db, _staff(db, None), project)
    call(admin, "open_time", project.id)
    assert admin.time_rows[0].can_delete
    call(admin, "ask_delete_time", entry_id)
    call(admin, "confirm_delete_time")
    assert notice(admin)["title"] == "Time entry deleted" and _actual(db, project) == 0


def test_outsiders_get_nothing(db: Session) -> None:
    project = _project(db)
    for user in (f.user(db, f"c_{uuid.uuid4().hex[:10]}"), _staff(db, EmployeeType.hr)):  # hr lacks content:read
        state = handler_state(ProjectListState, sign_in(db, user))
        call(state, "open_time", project.id)
        assert state.dialog == "" and state.time_rows == []
        state.dialog = "time"  # forged over the websocket, with the project id too
        state._dialog_key = str(project.id)
        call(state, "log_time", {"work_date": _today(), "hours": "2"})
        call(state, "time_next_page")
        assert state.time_rows == []
    signed_out = handler_state(ProjectListState, None)
    call(signed_out, "open_time", project.id)
    assert signed_out.dialog == ""
    assert _actual(db, project) == 0


def test_the_manager_logs_time_and_a_completed_project_takes_none(db: Session) -> None:
    project = _project(db)
    dev = _staff(db, EmployeeType.developer)  # content:read only, but the project's manager: its member
    project.manager_id = dev.id
    db.add(project)
    db.commit()
    tab = _tab(db, dev, project)
    call(tab, "open_time", project.id)
    assert tab.time_can_log and tab.time_closed == ""
    call(tab, "log_time", {"work_date": _today(), "hours": "20"})
    assert tab.form_error == "" and tab.time_actual == "20" and tab.time_rows[0].can_delete
    call(tab, "log_time", {"work_date": _today(), "hours": "5"})  # 25 h in one day
    assert tab.time_hours_error == "At most 24 hours a day: you have already logged 20 h on " + long_date(_today())
    assert _actual(db, project) == 20

    project.status = ProjectStatus.completed
    db.add(project)
    db.commit()
    call(tab, "open_time", project.id)
    assert not tab.time_can_log and tab.time_closed == "Time cannot be logged on a completed project: reopen it first"
    assert not tab.time_rows[0].can_delete
    call(tab, "log_time", {"work_date": _today(), "hours": "1"})  # a crafted event: the form is not shown
    assert tab.form_error == "Time cannot be logged on a completed project: reopen it first"
    assert _actual(db, project) == 20


def test_the_manager_puts_a_developer_on_the_team_who_then_logs_their_own_hours(db: Session) -> None:
    """Issue 26: the time log was read-only for the developers whose hours fill it."""
    project = _project(db)
    lead = staff(db, EmployeeType.developer, first_name="Lee")
    dana = staff(db, EmployeeType.developer, first_name="Dana")
    project.manager_id = lead.id
    db.add(project)
    db.commit()
    manager = _tab(db, lead, project)
    call(manager, "open_time", project.id)
    assert manager.time_can_log and manager.time_can_log_for_others
    assert [c.label for c in manager.time_team] == ["Lee (manager)"]
    call(manager, "open_team")
    assert manager.time_team_open and str(lead.id) not in [p.value for p in manager.time_team_picks]
    dana_pick = next(p for p in manager.time_team_picks if p.value == str(dana.id))
    assert not dana_pick.on_team
    call(manager, "save_team", {f"member-{dana.id}": True})
    assert notice(manager)["title"] == "Team saved" and not manager.time_team_open
    assert [c.label for c in manager.time_team] == ["Lee (manager)", "Dana"]
    assert [c.label for c in manager.time_whose] == ["You", "Dana"]
    # The manager logs Dana's hours; the entry is hers.
    call(manager, "log_time", {"work_date": _today(), "hours": "2", "note": "Pairing", "user_id": str(dana.id)})
    assert notice(manager)["description"].endswith("for Dana")
    assert [(r.hours, r.author) for r in manager.time_rows] == [("2", "Dana")]

    developer = _tab(db, dana, project)
    call(developer, "open_time", project.id)
    assert developer.time_can_log and not developer.time_can_log_for_others
    call(developer, "log_time", {"work_date": _today(), "hours": "3", "note": "Checkout"})
    assert notice(developer)["title"] == "Time logged" and developer.form_error == ""
    assert _actual(db, project) == Decimal("5")
    # A crafted event: a member logging the manager's hours, or choosing the team, is refused by the service.
    call(developer, "log_time", {"work_date": _today(), "hours": "1", "user_id": str(lead.id)})
    assert developer.form_error == "You can only log your own time on this project"
    call(developer, "save_team", {f"member-{dana.id}": True, f"member-{lead.id}": True})
    assert developer.time_team_error == "You don't have permission to choose a project's team"
    assert _actual(db, project) == Decimal("5")
