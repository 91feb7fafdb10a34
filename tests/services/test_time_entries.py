"""Time on projects: who logs, reads and deletes entries, the rules on an entry, and actual_hours as their sum."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.core.errors import Conflict, Forbidden, Invalid, NotFound
from app.models.enums import EmployeeType, ProjectStatus, Role
from app.models.project import Project, ProjectTimeEntry
from app.models.system import AuditLog
from app.models.user import User
from app.services.projects import projects, time_entries
from app.services.projects.time_entries import business_today
from tests import factories as f


@pytest.fixture
def world(session: Session) -> dict[str, object]:
    client = f.user(session, "tclient", first_name="Zoë", last_name="Núñez")
    return {
        "client": client,
        "project": f.project(session, client, estimated_hours=40),
        "other": f.project(session, client, "Other"),
        "pm": f.user(session, "tpm", role=Role.employee, employee_type=EmployeeType.product_manager, first_name="Pat"),
        "cto": f.user(session, "tcto", role=Role.employee, employee_type=EmployeeType.cto),
        "dev": f.user(session, "tdev", role=Role.employee, employee_type=EmployeeType.developer),
        "hr": f.user(session, "t_hr", role=Role.employee, employee_type=EmployeeType.hr),
        "admin": f.user(session, "tadmin", role=Role.admin),
    }


def _log(s: Session, actor: User, project: Project, hours: object = "1.5", **kw: object) -> dict[str, object]:
    data = {"work_date": business_today().isoformat(), "hours": hours, **kw}
    return time_entries.log_time(s, actor=actor, project_id=project.id or 0, data=data).model_dump()


def _actual(s: Session, project: Project) -> Decimal:
    s.refresh(project)
    return project.actual_hours


def test_actual_hours_is_the_sum_of_the_entries(session: Session, world: dict) -> None:
    project, pm, cto = world["project"], world["pm"], world["cto"]
    first = _log(session, pm, project, "1.5", note="Kick-off workshop")
    second = _log(session, cto, project, 8)
    _log(session, pm, world["other"], 3)  # another project's hours stay there
    assert first["hours"] == 1.5 and first["author"] == "Pat" and first["note"] == "Kick-off workshop"
    assert _actual(session, project) == Decimal("9.50")
    rows = session.exec(select(ProjectTimeEntry).where(ProjectTimeEntry.project_id == project.id)).all()
    assert _actual(session, project) == sum(r.hours for r in rows)

    time_entries.delete_time_entry(session, actor=cto, project_id=project.id, entry_id=second["id"])
    assert _actual(session, project) == Decimal("1.50")
    page = time_entries.list_time_entries(session, actor=world["dev"], project_id=project.id)
    assert page.total == 1 and page.actual_hours == 1.5 and page.estimated_hours == 40
    # The portal's project (the client's own list) carries the same figures.
    mine = projects.list_projects(session, actor=world["client"])
    assert {p.name: (p.estimated_hours, p.actual_hours) for p in mine}["Website"] == (40, 1.5)
    logged = session.exec(select(AuditLog).where(AuditLog.entity_id == str(project.id))).all()
    assert sorted(a.action for a in logged if a.action.startswith("project.time")) == [
        "project.time_deleted",
        "project.time_logged",
        "project.time_logged",
    ]


def test_entries_are_listed_newest_day_first_and_paged(session: Session, world: dict) -> None:
    project, pm = world["project"], world["pm"]
    today = business_today()
    for days in (3, 0, 10, 1):
        _log(session, pm, project, 1, work_date=(today - timedelta(days=days)).isoformat())
    page = time_entries.list_time_entries(session, actor=pm, project_id=project.id, page_size=3)
    assert [e.work_date for e in page.data] == [(today - timedelta(days=d)).isoformat() for d in (0, 1, 3)]
    assert page.total == 4 and page.pages == 2
    assert all(e.can_delete for e in page.data)
    assert not any(
        e.can_delete for e in time_entries.list_time_entries(session, actor=world["cto"], project_id=project.id).data
    )


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"hours": 0}, "hours", "Hours must be more than 0"),
        ({"hours": -2}, "hours", "Hours must be more than 0"),
        ({"hours": "24.01"}, "hours", "Hours cannot be more than 24 in one entry"),
        ({"hours": "1.234"}, "hours", "Hours can have at most two decimals (e.g. 1.25)"),
        ({"hours": "lots"}, "hours", "Hours must be a number, e.g. 1.5"),
        ({"hours": "NaN"}, "hours", "Hours must be a number, e.g. 1.5"),
        ({"hours": None}, "hours", "Hours are required"),
        ({"hours": ""}, "hours", "Hours are required"),
        ({"work_date": ""}, "work_date", "Date is required"),
        ({"work_date": "yesterday"}, "work_date", "Date must be a date (YYYY-MM-DD)"),
        ({"work_date": "1899-12-31"}, "work_date", "Date cannot be before January 1, 1900"),
        ({"note": "x" * 501}, "note", "Note must not exceed 500 characters"),
    ],
)
def test_an_entry_must_make_sense(session: Session, world: dict, data: dict, field: str, message: str) -> None:
    with pytest.raises(Invalid) as caught:
        _log(session, world["pm"], world["project"], **{"hours": "1", **data})
    assert caught.value.errors == {field: message} and caught.value.message == message
    assert _actual(session, world["project"]) == 0


def test_a_future_day_is_refused_today_and_24_hours_are_fine(session: Session, world: dict) -> None:
    tomorrow = (business_today() + timedelta(days=1)).isoformat()
    with pytest.raises(Invalid, match="Date cannot be in the future"):
        _log(session, world["pm"], world["project"], 1, work_date=tomorrow)
    assert _log(session, world["pm"], world["project"], 24)["hours"] == 24
    assert _log(session, world["cto"], world["project"], "0.25", note="  Call  ")["note"] == "Call"
    assert _actual(session, world["project"]) == Decimal("24.25")


def test_who_may_log_read_and_delete(session: Session, world: dict) -> None:
    project, pm, cto, admin = world["project"], world["pm"], world["cto"], world["admin"]
    for refused in (world["client"], world["dev"], world["hr"]):  # dev and hr lack content:write
        with pytest.raises(Forbidden, match="You don't have permission to log time on projects"):
            _log(session, refused, project)
    for refused in (world["client"], world["hr"]):  # hr lacks content:read
        with pytest.raises(Forbidden, match="You don't have permission to view time entries"):
            time_entries.list_time_entries(session, actor=refused, project_id=project.id)
    entry = _log(session, pm, project, 2)
    with pytest.raises(Forbidden, match="You can only delete your own time entries"):
        time_entries.delete_time_entry(session, actor=cto, project_id=project.id, entry_id=entry["id"])
    with pytest.raises(Forbidden, match="You don't have permission to delete time entries"):
        time_entries.delete_time_entry(session, actor=world["dev"], project_id=project.id, entry_id=entry["id"])
    with pytest.raises(NotFound, match="Time entry not found"):  # the id of another project's entry
        time_entries.delete_time_entry(session, actor=pm, project_id=world["other"].id, entry_id=entry["id"])
    assert _actual(session, project) == 2
    time_entries.delete_time_entry(session, actor=admin, project_id=project.id, entry_id=entry["id"])
    assert _actual(session, project) == 0


def test_a_missing_project_is_not_found(session: Session, world: dict) -> None:
    with pytest.raises(NotFound, match="Project not found"):
        _log(session, world["pm"], Project(id=987654, name="x", client_id=world["client"].id))
    with pytest.raises(NotFound, match="Project not found"):
        time_entries.list_time_entries(session, actor=world["pm"], project_id=987654)


def test_hours_stay_when_their_author_leaves_and_go_with_the_project(session: Session, world: dict) -> None:
    project, pm = world["project"], world["pm"]
    _log(session, pm, project, 3)
    session.delete(pm)
    session.commit()
    page = time_entries.list_time_entries(session, actor=world["admin"], project_id=project.id)
    assert [(e.author, e.user_id, e.hours) for e in page.data] == [("Former staff member", None, 3)]
    assert _actual(session, project) == 3
    projects.delete_project(session, actor=world["admin"], project_id=project.id)
    assert session.exec(select(ProjectTimeEntry).where(ProjectTimeEntry.project_id == project.id)).all() == []


def test_entries_logged_at_once_all_count(engine: Engine) -> None:
    """Real concurrency (threads, own sessions, committed rows): no addition to actual_hours is lost."""
    with Session(engine, expire_on_commit=False) as s:
        tag = uuid.uuid4().hex[:8]
        client = f.user(s, f"race_c_{tag}")
        project = f.project(s, client, f"Race {tag}")
        pm = f.user(s, f"race_pm_{tag}", role=Role.employee, employee_type=EmployeeType.product_manager)

    def log_some(_: int) -> None:
        for days in range(8):  # a day each: one person's day holds at most 24 hours
            with Session(engine) as s:
                actor = s.get(User, pm.id)
                assert actor is not None
                data = {"work_date": (business_today() - timedelta(days=days)).isoformat(), "hours": "1.25"}
                time_entries.log_time(s, actor=actor, project_id=project.id or 0, data=data)

    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(log_some, range(4)))
        with Session(engine) as s:
            stored = s.get(Project, project.id)
            entries = s.exec(select(ProjectTimeEntry).where(ProjectTimeEntry.project_id == project.id)).all()
            assert stored is not None and len(entries) == 32
            assert stored.actual_hours == sum(e.hours for e in entries) == Decimal(40)
    finally:
        with Session(engine) as s:
            s.exec(delete(AuditLog).where(col(AuditLog.actor_id) == pm.id))  # type: ignore[call-overload]
            s.exec(delete(Project).where(col(Project.id) == project.id))  # type: ignore[call-overload]
            s.exec(delete(User).where(col(User.id).in_([pm.id, client.id])))  # type: ignore[call-overload]
            s.commit()


def test_one_persons_day_holds_24_hours_across_entries_and_projects(session: Session, world: dict) -> None:
    """The issue's ten entries of 24 h on one day: the first is accepted, the other nine refused."""
    project, other, pm = world["project"], world["other"], world["pm"]
    today = business_today()
    assert _log(session, pm, project, 24)["hours"] == 24
    said = f"At most 24 hours a day: you have already logged 24 h on {today:%B %-d, %Y}"
    for target in [project, other] * 4 + [project]:
        with pytest.raises(Invalid) as caught:
            _log(session, pm, target, 24)
        assert caught.value.message == said and caught.value.errors == {"hours": said}
    assert _actual(session, project) == 24 and _actual(session, other) == 0
    # Another day, and another person's same day, are theirs.
    assert _log(session, pm, other, 24, work_date=(today - timedelta(days=1)).isoformat())["hours"] == 24
    assert _log(session, world["cto"], project, 24)["hours"] == 24
    # Up to exactly 24 in hundredths; a deleted entry frees its hours.
    yesterday = (today - timedelta(days=2)).isoformat()
    first = _log(session, pm, project, "23.99", work_date=yesterday)
    with pytest.raises(Invalid, match=r"you have already logged 23\.99 h"):
        _log(session, pm, other, "0.02", work_date=yesterday)
    _log(session, pm, other, "0.01", work_date=yesterday)
    time_entries.delete_time_entry(session, actor=pm, project_id=project.id, entry_id=first["id"])
    assert _log(session, pm, other, "23.99", work_date=yesterday)["hours"] == 23.99


@pytest.mark.parametrize("status", [ProjectStatus.completed, ProjectStatus.cancelled])
def test_a_finished_project_takes_no_time_until_reopened(session: Session, world: dict, status: ProjectStatus) -> None:
    project, pm, admin = world["project"], world["pm"], world["admin"]
    entry = _log(session, pm, project, 5)
    projects.update_project(session, actor=admin, project_id=project.id, data={"status": status})
    for actor in (pm, admin):
        with pytest.raises(Conflict, match=f"^Time cannot be logged on a {status} project: reopen it first$"):
            _log(session, actor, project, 1)
        with pytest.raises(Conflict, match=f"^Time entries of a {status} project cannot be deleted: reopen it first$"):
            time_entries.delete_time_entry(session, actor=actor, project_id=project.id, entry_id=entry["id"])
    page = time_entries.list_time_entries(session, actor=pm, project_id=project.id)
    assert page.closed == f"Time cannot be logged on a {status} project: reopen it first"
    assert not page.can_log and not page.data[0].can_delete
    assert _actual(session, project) == 5

    projects.update_project(session, actor=admin, project_id=project.id, data={"status": "in_progress"})
    assert _log(session, pm, project, 1)["hours"] == 1
    time_entries.delete_time_entry(session, actor=pm, project_id=project.id, entry_id=entry["id"])
    assert _actual(session, project) == 1
    page = time_entries.list_time_entries(session, actor=pm, project_id=project.id)
    assert page.closed is None and page.can_log


def test_the_projects_manager_logs_time_on_it(session: Session, world: dict) -> None:
    """Who may log: staff who write projects on any project, and a project's manager (its member) on that one."""
    project, other, dev, hr = world["project"], world["other"], world["dev"], world["hr"]
    project.manager_id = dev.id  # a developer: content:read only
    session.add(project)
    session.commit()
    entry = _log(session, dev, project, 3)
    page = time_entries.list_time_entries(session, actor=dev, project_id=project.id)
    assert page.can_log and page.data[0].can_delete
    assert not time_entries.list_time_entries(session, actor=dev, project_id=other.id).can_log
    with pytest.raises(Forbidden, match="You don't have permission to log time on projects"):
        _log(session, dev, other, 1)
    with pytest.raises(Forbidden, match="You don't have permission to log time on projects"):  # missing or not
        _log(session, dev, Project(id=987654, name="x", client_id=world["client"].id))

    # A client who is somehow the manager gets nothing; a former manager keeps no say in the project.
    client = world["client"]
    project.manager_id = client.id
    session.add(project)
    session.commit()
    with pytest.raises(Forbidden, match="You don't have permission to log time on projects"):
        _log(session, client, project, 1)
    with pytest.raises(Forbidden, match="You don't have permission to delete time entries"):
        time_entries.delete_time_entry(session, actor=dev, project_id=project.id, entry_id=entry["id"])
    project.manager_id = hr.id  # hr cannot even read projects, but manages this one
    session.add(project)
    session.commit()
    assert _log(session, hr, project, 1)["hours"] == 1
    assert _actual(session, project) == 4


def test_entries_logged_at_once_stay_within_one_day(engine: Engine) -> None:
    """Real concurrency: ten 10-hour entries of one person on one day, on two projects at once; two pass, and each
    project's actual_hours is the sum of its entries."""
    with Session(engine, expire_on_commit=False) as s:
        tag = uuid.uuid4().hex[:8]
        client = f.user(s, f"day_c_{tag}")
        both = [f.project(s, client, f"Day {tag} {n}") for n in (1, 2)]
        pm = f.user(s, f"day_pm_{tag}", role=Role.employee, employee_type=EmployeeType.product_manager)
    barrier = threading.Barrier(10)

    def log_one(n: int) -> str:
        with Session(engine) as s:
            actor = s.get(User, pm.id)
            assert actor is not None
            data = {"work_date": business_today().isoformat(), "hours": 10}
            barrier.wait()
            try:
                time_entries.log_time(s, actor=actor, project_id=both[n % 2].id or 0, data=data)
            except Invalid as exc:
                return exc.message
            return "logged"

    try:
        with ThreadPoolExecutor(max_workers=10) as pool:
            answers = list(pool.map(log_one, range(10)))
        assert answers.count("logged") == 2
        assert all(a == "logged" or a.startswith("At most 24 hours a day: you have already logged") for a in answers)
        with Session(engine) as s:
            entries = s.exec(select(ProjectTimeEntry).where(col(ProjectTimeEntry.user_id) == pm.id)).all()
            assert sum(e.hours for e in entries) == 20
            for project in both:
                stored = s.get(Project, project.id)
                assert stored is not None
                assert stored.actual_hours == sum(e.hours for e in entries if e.project_id == project.id)
    finally:
        with Session(engine) as s:
            s.exec(delete(AuditLog).where(col(AuditLog.actor_id) == pm.id))  # type: ignore[call-overload]
            s.exec(delete(Project).where(col(Project.id).in_([p.id for p in both])))  # type: ignore[call-overload]
            s.exec(delete(User).where(col(User.id).in_([pm.id, client.id])))  # type: ignore[call-overload]
            s.commit()


def test_an_entry_deleted_twice_at_once_comes_off_the_total_once(engine: Engine) -> None:
    with Session(engine, expire_on_commit=False) as s:
        tag = uuid.uuid4().hex[:8]
        client = f.user(s, f"del_c_{tag}")
        project = f.project(s, client, f"Delete {tag}")
        pm = f.user(s, f"del_pm_{tag}", role=Role.employee, employee_type=EmployeeType.product_manager)
        for hours in (3, 5):
            data = {"work_date": business_today().isoformat(), "hours": hours}
            entry_id = time_entries.log_time(s, actor=pm, project_id=project.id or 0, data=data).id
    barrier = threading.Barrier(6)

    def delete_it(_: int) -> str:
        with Session(engine) as s:
            actor = s.get(User, pm.id)
            assert actor is not None
            barrier.wait()
            try:
                time_entries.delete_time_entry(s, actor=actor, project_id=project.id or 0, entry_id=entry_id)
            except NotFound:
                return "gone"
            return "deleted"

    try:
        with ThreadPoolExecutor(max_workers=6) as pool:
            answers = list(pool.map(delete_it, range(6)))
        assert sorted(answers) == ["deleted", "gone", "gone", "gone", "gone", "gone"]
        with Session(engine) as s:
            stored = s.get(Project, project.id)
            assert stored is not None and stored.actual_hours == 3
    finally:
        with Session(engine) as s:
            s.exec(delete(AuditLog).where(col(AuditLog.actor_id) == pm.id))  # type: ignore[call-overload]
            s.exec(delete(Project).where(col(Project.id) == project.id))  # type: ignore[call-overload]
            s.exec(delete(User).where(col(User.id).in_([pm.id, client.id])))  # type: ignore[call-overload]
            s.commit()


# --- the project's team: members log their own hours, its manager anyone's on the team (issue 26) -------------------


def _team(s: Session, actor: User, project: Project, *people: User) -> list[str]:
    members = [str(p.id) for p in people]
    return [m.name for m in time_entries.set_team(s, actor=actor, project_id=project.id or 0, members=members)]


@pytest.fixture
def managed(session: Session, world: dict) -> dict[str, object]:
    """The world's project managed by a developer (no content:write), with a second developer on hand."""
    lead = f.user(session, "tlead", role=Role.employee, employee_type=EmployeeType.developer, first_name="Lee")
    dana = f.user(session, "tdana", role=Role.employee, employee_type=EmployeeType.developer, first_name="Dana")
    project = world["project"]
    project.manager_id = lead.id
    session.add(project)
    session.commit()
    return {**world, "lead": lead, "dana": dana}


def test_a_developer_on_the_team_logs_their_own_hours_and_nobody_elses(session: Session, managed: dict) -> None:
    project, lead, dana, dev = managed["project"], managed["lead"], managed["dana"], managed["dev"]
    with pytest.raises(Forbidden, match="log time on projects"):
        _log(session, dana, project)  # not on the team yet: the log stays read-only for her
    assert not time_entries.list_time_entries(session, actor=dana, project_id=project.id).can_log
    assert _team(session, lead, project, dana) == ["Lee", "Dana"]  # the manager first, always on the team
    page = time_entries.list_time_entries(session, actor=dana, project_id=project.id)
    assert page.can_log and not page.can_log_for_others
    mine = _log(session, dana, project, 2, note="Checkout page")
    assert mine["author"] == "Dana" and mine["can_delete"]
    with pytest.raises(Forbidden, match="only log your own time"):
        _log(session, dana, project, 1, user_id=str(lead.id))
    with pytest.raises(Forbidden):  # a member does not choose the team
        _team(session, dana, project, dana, dev)
    # Off the team: her entry stays (the client's figures do not move), she logs no more.
    _team(session, lead, project)
    assert _actual(session, project) == Decimal("2.00")
    with pytest.raises(Forbidden):
        _log(session, dana, project)


def test_the_manager_logs_a_team_members_hours_within_that_persons_day(session: Session, managed: dict) -> None:
    project, lead, dana, dev = managed["project"], managed["lead"], managed["dana"], managed["dev"]
    _team(session, lead, project, dana)
    assert time_entries.list_time_entries(session, actor=lead, project_id=project.id).can_log_for_others
    entry = _log(session, lead, project, 20, user_id=str(dana.id))
    assert entry["author"] == "Dana" and entry["user_id"] == str(dana.id)
    row = session.get(ProjectTimeEntry, entry["id"])
    assert row is not None and row.logged_by_id == lead.id
    # Dana's day, not the manager's: 20 h of hers are logged.
    with pytest.raises(Invalid, match="Dana has already logged 20 h"):
        _log(session, lead, project, 5, user_id=str(dana.id))
    with pytest.raises(Invalid, match="At most 24 hours a day: you have already logged 20 h"):
        _log(session, dana, project, 5)
    _log(session, lead, project, 5)  # the manager's own day is untouched
    with pytest.raises(Invalid, match="Choose a member of the project's team") as refused:
        _log(session, lead, project, 1, user_id=str(dev.id))  # staff, but not on this team
    assert refused.value.errors == {"user_id": "Choose a member of the project's team"}
    with pytest.raises(Invalid, match="Choose a member"):
        _log(session, lead, project, 1, user_id=str(managed["client"].id))


def test_who_deletes_a_team_members_entry(session: Session, managed: dict) -> None:
    project, lead, dana, cto = managed["project"], managed["lead"], managed["dana"], managed["cto"]
    _team(session, lead, project, dana)
    by_cto = _log(session, cto, project, 1, user_id=str(dana.id))  # content:write logs anyone's on the team
    by_dana = _log(session, dana, project, 1)
    pms = _log(session, managed["pm"], project, 1)
    with pytest.raises(Forbidden, match="only delete your own"):
        time_entries.delete_time_entry(session, actor=cto, project_id=project.id, entry_id=by_dana["id"])
    with pytest.raises(Forbidden, match="only delete your own"):
        time_entries.delete_time_entry(session, actor=dana, project_id=project.id, entry_id=pms["id"])
    time_entries.delete_time_entry(session, actor=cto, project_id=project.id, entry_id=by_cto["id"])  # typed it in
    time_entries.delete_time_entry(session, actor=lead, project_id=project.id, entry_id=by_dana["id"])  # the manager
    time_entries.delete_time_entry(session, actor=lead, project_id=project.id, entry_id=pms["id"])
    assert _actual(session, project) == Decimal("0.00")


def test_the_team_takes_staff_only(session: Session, managed: dict) -> None:
    project, lead = managed["project"], managed["lead"]
    with pytest.raises(Invalid, match="Please choose a staff member") as refused:
        time_entries.set_team(
            session, actor=lead, project_id=project.id, members=[str(managed["dana"].id), str(managed["client"].id)]
        )
    assert refused.value.errors == {"members.1": "Please choose a staff member"}
    with pytest.raises(Invalid, match="Please choose a staff member"):
        time_entries.set_team(session, actor=lead, project_id=project.id, members=["not-an-id"])
    assert _team(session, lead, project) == ["Lee"]  # nothing was saved by the refusals
    with pytest.raises(Forbidden):
        _team(session, managed["hr"], project, managed["dana"])
    with pytest.raises(NotFound):
        time_entries.set_team(session, actor=lead, project_id=10**9, members=[])
