"""The conversation's REST routes (ADR 0101): the thread as the caller may read it, a multipart message with files,
and a file's download (an attachment, never sniffed), refused as "File not found" to anyone who may not read it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.core.config import settings
from app.models.enums import EmployeeType, Role
from app.models.project import ProjectMember
from app.models.user import User
from app.services.accounts import sessions
from tests import factories as f

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
EXE = b"MZ\x90\x00\x03\x00\x00\x00" + b"\x00" * 64


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(settings, "data_dir", tmp_path)
    return tmp_path


@pytest.fixture
def people(session: Session) -> dict[str, User]:
    return {
        "client": f.user(session, "capi_client"),
        "other": f.user(session, "capi_other"),
        "dev": f.user(session, "capi_dev", role=Role.employee, employee_type=EmployeeType.developer),
        "hr": f.user(session, "capi_hr", role=Role.employee, employee_type=EmployeeType.hr),
    }


def as_user(client: TestClient, session: Session, user: User | None) -> None:
    client.cookies.clear()
    if user is not None:
        client.cookies.set("access_token", sessions.start(session, user).access_token)


def test_a_client_posts_files_and_the_team_reads_and_downloads_them(
    client: TestClient, session: Session, people: dict[str, User], data_dir: Path
) -> None:
    project = f.project(session, people["client"], "API files")
    session.add(ProjectMember(project_id=project.id or 0, user_id=people["dev"].id))
    session.commit()
    url = f"/api/projects/{project.id}/messages"

    as_user(client, session, people["client"])
    r = client.post(url, data={"body": "Plan attached"}, files=[("files", ("Plan «v2».pdf", PDF, "text/html"))])
    assert r.status_code == 201, r.text
    sent = r.json()["data"]
    assert sent["body"] == "Plan attached" and r.json()["message"] == "Message sent"
    [attached] = sent["files"]
    assert (attached["name"], attached["content_type"], attached["size"]) == (
        "Plan «v2».pdf",
        "application/pdf",
        len(PDF),
    )
    assert attached["url"] == f"{url}/files/{attached['id']}"

    as_user(client, session, people["dev"])
    r = client.post(url, data={"body": "Our notes", "internal": "on"}, files=[("files", ("notes.txt", b"hi\n"))])
    assert r.status_code == 201, r.text
    note_file = r.json()["data"]["files"][0]["url"]
    thread = client.get(url).json()
    assert [(m["body"], len(m["files"])) for m in thread["messages"]] == [("Plan attached", 1), ("Our notes", 1)]
    assert thread["can_note"] is True
    r = client.get(attached["url"])
    assert r.status_code == 200 and r.content == PDF
    assert r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"] == f"attachment; filename*=UTF-8''{quote('Plan «v2».pdf')}"
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["cache-control"] == "no-store"

    as_user(client, session, people["client"])
    assert [m["body"] for m in client.get(url).json()["messages"]] == ["Plan attached"]  # the note is not there
    assert client.get(attached["url"]).content == PDF
    r = client.get(note_file)
    assert (r.status_code, r.json()["message"]) == (404, "File not found")

    as_user(client, session, people["other"])
    assert client.get(url).status_code == 404
    r = client.get(attached["url"])
    assert (r.status_code, r.json()["message"]) == (404, "File not found")
    as_user(client, session, people["hr"])  # staff who do not read projects
    assert client.get(attached["url"]).status_code == 403
    assert client.post(url, data={"body": "x"}).status_code == 403
    as_user(client, session, None)
    assert client.get(attached["url"]).status_code == 401
    assert client.get(url).status_code == 401


def test_refused_files_store_nothing_and_say_why(
    client: TestClient, session: Session, people: dict[str, User], data_dir: Path
) -> None:
    project = f.project(session, people["client"], "API refusals")
    url = f"/api/projects/{project.id}/messages"
    as_user(client, session, people["client"])
    r = client.post(url, data={"body": "Setup"}, files=[("files", ("invoice.pdf", EXE))])
    assert r.status_code == 422
    assert r.json()["errors"]["files"].startswith("invoice.pdf: Please attach only PDF files")
    r = client.post(url, data={"body": "Many"}, files=[("files", (f"{i}.pdf", PDF)) for i in range(4)])
    assert (r.status_code, r.json()["message"]) == (422, "Attach at most 3 files to a message.")
    r = client.post(url, data={"body": "  "})
    assert (r.status_code, r.json()["errors"]) == (422, {"body": "Message is required"})
    r = client.post(url, data={"body": "Note"}, files=[("files", ("a.pdf", PDF))], headers={})
    assert r.status_code == 201
    r = client.post(url, data={"body": "Sneaky", "internal": "true"})
    assert r.status_code == 403
    assert [m["body"] for m in client.get(url).json()["messages"]] == ["Note"]
    assert sorted(p.parent.name for p in data_dir.rglob("*") if p.is_file()) == ["conversations"]


def test_three_files_of_the_full_size_fit_one_request_and_a_larger_body_is_refused(
    client: TestClient, session: Session, people: dict[str, User], data_dir: Path
) -> None:
    project = f.project(session, people["client"], "API sizes")
    url = f"/api/projects/{project.id}/messages"
    as_user(client, session, people["client"])
    full = PDF + b"%" * (settings.max_upload_mb * 1024 * 1024 - len(PDF))
    r = client.post(url, data={"body": ""}, files=[("files", (f"{i}.pdf", full)) for i in range(3)])
    assert r.status_code == 201, r.text
    assert [x["size"] for x in r.json()["data"]["files"]] == [len(full)] * 3
    r = client.post(url, data={"body": ""}, files=[("files", (f"{i}.pdf", full + b"%")) for i in range(4)])
    assert r.status_code == 413
    assert len([p for p in data_dir.rglob("*") if p.is_file()]) == 3
