"""Time entries over HTTP: who may list, log and delete them, the 422s, and the client's portal showing the total."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.enums import EmployeeType, ProjectStatus, Role
from app.models.user import User
from app.services.accounts import sessions
from app.services.projects.time_entries import business_today
from tests import factories as f


def as_user(client: TestClient, session: Session, user: User) -> None:
    client.cookies.set("access_token", sessions.start(session, user).access_token)


@pytest.fixture
def world(session: Session) -> dict[str, object]:
    owner = f.user(session, "hours_client")
    return {
        "owner": owner,
        "project": f.project(session, owner, estimated_hours=220),
        "pm": f.user(session, "hours_pm", role=Role.employee, employee_type=EmployeeType.product_manager),
        "cto": f.user(session, "hours_cto", role=Role.employee, employee_type=EmployeeType.cto),
        "dev": f.user(session, "hours_dev", role=Role.employee, employee_type=EmployeeType.developer),
        "admin": f.user(session, "hours_admin", role=Role.admin),
    }


def _url(world: dict, entry: int | None = None) -> str:
    base = f"/api/protected/projects/{world['project'].id}/time-entries"
    return f"{base}/{entry}" if entry else base


def _entry(hours: object = 2.5, **kw: object) -> dict[str, object]:
    return {"work_date": business_today().isoformat(), "hours": hours, "note": "Sprint review", **kw}


def test_log_list_and_delete(client: TestClient, session: Session, world: dict) -> None:
    as_user(client, session, world["pm"])
    made = client.post(_url(world), json=_entry())
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["message"] == "Time logged"
    assert body["data"]["hours"] == 2.5 and body["data"]["note"] == "Sprint review" and body["data"]["can_delete"]
    assert client.post(_url(world), json=_entry(8)).status_code == 201
    listed = client.get(_url(world)).json()
    assert listed["total"] == 2 and listed["actual_hours"] == 10.5 and listed["estimated_hours"] == 220
    assert (
        client.get(f"/api/protected/projects?search={world['project'].name}").json()["data"][0]["actual_hours"] == 10.5
    )

    gone = client.delete(_url(world, body["data"]["id"]))
    assert gone.status_code == 200 and gone.json() == {"message": "Time entry deleted"}
    assert client.get(_url(world)).json()["actual_hours"] == 8
    assert client.delete(_url(world, body["data"]["id"])).json()["message"] == "Time entry not found"


def test_bad_entries_are_422_with_the_field_named(client: TestClient, session: Session, world: dict) -> None:
    as_user(client, session, world["pm"])
    tomorrow = (business_today() + timedelta(days=1)).isoformat()
    for data, field, message in (
        (_entry(25), "hours", "Hours cannot be more than 24 in one entry"),
        (_entry(0), "hours", "Hours must be more than 0"),
        (_entry(work_date=tomorrow), "work_date", "Date cannot be in the future"),
        (_entry(note="n" * 501), "note", "Note must not exceed 500 characters"),
        ({}, "work_date", "Date is required"),
    ):
        r = client.post(_url(world), json=data)
        assert r.status_code == 422, r.text
        assert r.json()["errors"][field] == message
    shape = client.post(_url(world), json={"work_date": ["2026-01-01"], "hours": {"h": 1}})
    assert shape.status_code == 422 and set(shape.json()["errors"]) == {"work_date", "hours"}
    assert client.get(_url(world)).json()["actual_hours"] == 0


def test_who_is_refused(client: TestClient, session: Session, world: dict) -> None:
    assert client.get(_url(world)).status_code == 401
    assert client.post(_url(world), json=_entry()).status_code == 401

    as_user(client, session, world["owner"])  # the project's own client: the total only, never the entries
    for r in (client.get(_url(world)), client.post(_url(world), json=_entry())):
        assert (
            r.status_code == 403
            and r.json()["message"] == "Access Denied: Staff privileges required to access this panel."
        )

    as_user(client, session, world["dev"])  # reads projects, but does not write them
    assert client.get(_url(world)).status_code == 200
    refused = client.post(_url(world), json=_entry())
    assert refused.status_code == 403
    assert refused.json()["message"] == "You don't have permission to log time on projects"

    as_user(client, session, world["pm"])
    entry = client.post(_url(world), json=_entry()).json()["data"]["id"]
    as_user(client, session, world["cto"])  # may write projects, but the entry is the pm's
    r = client.delete(_url(world, entry))
    assert r.status_code == 403 and r.json()["message"] == "You can only delete your own time entries"
    as_user(client, session, world["dev"])
    assert client.delete(_url(world, entry)).status_code == 403
    as_user(client, session, world["admin"])
    assert client.delete(_url(world, entry)).status_code == 200


def test_the_client_sees_estimated_and_actual_hours(client: TestClient, session: Session, world: dict) -> None:
    as_user(client, session, world["pm"])
    client.post(_url(world), json=_entry("1.25"))
    client.post(_url(world), json=_entry(6))
    as_user(client, session, world["owner"])
    mine = client.get("/api/protected/projects").json()["data"]
    assert [(p["estimated_hours"], p["actual_hours"]) for p in mine] == [(220, 7.25)]


def test_the_manager_logs_and_a_finished_project_is_409(client: TestClient, session: Session, world: dict) -> None:
    project, dev = world["project"], world["dev"]
    as_user(client, session, dev)
    outsider = client.post(_url(world), json={"hours": "lots"})  # the gate answers before the body is judged
    assert (
        outsider.status_code == 403
        and outsider.json()["message"] == "You don't have permission to log time on projects"
    )
    project.manager_id = dev.id  # the developer manages the project: its member
    session.add(project)
    session.commit()
    made = client.post(_url(world), json=_entry(20))
    assert made.status_code == 201, made.text
    too_long = client.post(_url(world), json=_entry(5))
    assert too_long.status_code == 422 and too_long.json()["errors"]["hours"].startswith("At most 24 hours a day")

    project.status = ProjectStatus.completed
    session.add(project)
    session.commit()
    refused = client.post(_url(world), json=_entry(1))
    assert refused.status_code == 409
    assert refused.json()["message"] == "Time cannot be logged on a completed project: reopen it first"
    kept = client.delete(_url(world, made.json()["data"]["id"]))
    assert kept.status_code == 409
    assert kept.json()["message"] == "Time entries of a completed project cannot be deleted: reopen it first"
    assert client.get(_url(world)).json()["actual_hours"] == 20


def test_the_manager_sets_the_team_and_a_member_logs_over_http(
    client: TestClient, session: Session, world: dict
) -> None:
    project, dev = world["project"], world["dev"]
    lead = f.user(session, "alead", role=Role.employee, employee_type=EmployeeType.developer, first_name="Lee")
    project.manager_id = lead.id
    session.add(project)
    session.commit()
    team_url = f"/api/protected/projects/{project.id}/team"
    as_user(client, session, dev)
    assert client.post(_url(world), json=_entry()).status_code == 403  # not on the team
    assert client.put(team_url, json={"members": [str(dev.id)]}).status_code == 403  # nor its manager
    as_user(client, session, lead)
    saved = client.put(team_url, json={"members": [str(dev.id)]})
    assert saved.status_code == 200 and saved.json()["message"] == "Team saved"
    assert [(m["name"], m["manager"]) for m in saved.json()["data"]] == [("Lee", True), (dev.username, False)]
    refused = client.put(team_url, json={"members": [str(world["owner"].id)]})
    assert refused.status_code == 422 and refused.json()["errors"] == {"members.0": "Please choose a staff member"}
    logged = client.post(_url(world), json=_entry(1, user_id=str(dev.id)))
    assert logged.status_code == 201 and logged.json()["data"]["user_id"] == str(dev.id)
    as_user(client, session, dev)
    mine = client.post(_url(world), json=_entry(2))
    assert mine.status_code == 201 and mine.json()["data"]["user_id"] == str(dev.id)
    listed = client.get(_url(world)).json()
    assert listed["can_log"] and not listed["can_log_for_others"] and len(listed["team"]) == 2
