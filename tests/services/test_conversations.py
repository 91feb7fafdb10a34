"""Project conversations (issue 28): the client and the staff on the project post; staff add internal notes the
client never reads; everyone else is refused, and a project another client owns is "not found"."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from app.core.config import settings
from app.core.errors import Forbidden, Invalid, NotFound, PayloadTooLarge, TooManyRequests
from app.models.enums import EmployeeType, Role
from app.models.project import MESSAGE_MAX, ProjectMember, ProjectMessageFile
from app.models.user import User
from app.services.platform import files
from app.services.projects import conversations, projects
from tests import factories as f


@pytest.fixture
def people(session: Session) -> dict[str, User]:
    return {
        "client": f.user(session, "conv_client", first_name="Dana", last_name="Reyes"),
        "other": f.user(session, "conv_other_client"),
        "dev": f.user(session, "conv_dev", role=Role.employee, employee_type=EmployeeType.developer, first_name="Lee"),
        "outsider": f.user(session, "conv_outsider", role=Role.employee, employee_type=EmployeeType.developer),
        "hr": f.user(session, "conv_hr", role=Role.employee, employee_type=EmployeeType.hr),
    }


def test_client_and_team_talk_and_internal_notes_stay_with_staff(session: Session, people: dict[str, User]) -> None:
    project = f.project(session, people["client"], "Clinic site")
    session.add(ProjectMember(project_id=project.id or 0, user_id=people["dev"].id))
    session.commit()

    client = people["client"]
    asked = conversations.post(session, actor=client, project_id=project.id, data={"body": " When is launch? "})
    assert asked.body == "When is launch?" and asked.mine and not asked.from_staff and asked.author == "Dana Reyes"
    conversations.post(session, actor=people["dev"], project_id=project.id, data={"body": "Friday.", "internal": False})
    conversations.post(
        session, actor=people["dev"], project_id=project.id, data={"body": "Tight: QA first.", "internal": True}
    )

    seen_by_client = conversations.thread(session, actor=people["client"], project_id=project.id)
    assert [m.body for m in seen_by_client.messages] == ["When is launch?", "Friday."]
    assert seen_by_client.can_post and not seen_by_client.can_note
    seen_by_dev = conversations.thread(session, actor=people["dev"], project_id=project.id)
    assert [(m.body, m.internal) for m in seen_by_dev.messages] == [
        ("When is launch?", False),
        ("Friday.", False),
        ("Tight: QA first.", True),
    ]
    assert seen_by_dev.can_post and seen_by_dev.can_note and seen_by_dev.messages[1].from_staff


def test_everyone_else_is_refused_and_nothing_is_stored(session: Session, people: dict[str, User]) -> None:
    project = f.project(session, people["client"], "Clinic app")
    with pytest.raises(NotFound, match="Project not found"):
        conversations.thread(session, actor=people["other"], project_id=project.id)
    with pytest.raises(NotFound, match="Project not found"):
        conversations.post(session, actor=people["other"], project_id=project.id, data={"body": "Hi"})
    with pytest.raises(Forbidden, match="Only staff can add internal notes"):
        conversations.post(session, actor=people["client"], project_id=project.id, data={"body": "x", "internal": True})
    # Staff who read projects but are not on this one read it and may not post; HR does not read projects at all.
    assert not conversations.thread(session, actor=people["outsider"], project_id=project.id).can_post
    with pytest.raises(Forbidden, match="Only the project's team"):
        conversations.post(session, actor=people["outsider"], project_id=project.id, data={"body": "Hello"})
    with pytest.raises(Forbidden):
        conversations.thread(session, actor=people["hr"], project_id=project.id)
    for body in ("", "   ", "x" * (MESSAGE_MAX + 1)):
        with pytest.raises(Invalid):
            conversations.post(session, actor=people["client"], project_id=project.id, data={"body": body})
    assert conversations.thread(session, actor=people["client"], project_id=project.id).messages == []
    with pytest.raises(NotFound):
        conversations.thread(session, actor=people["client"], project_id="1 OR 1=1")


def test_posting_is_bounded_per_author_and_a_refusal_stores_nothing(session: Session, people: dict[str, User]) -> None:
    project = f.project(session, people["client"], "Clinic burst")
    for i in range(conversations.PER_AUTHOR):
        conversations.post(session, actor=people["client"], project_id=project.id, data={"body": f"Message {i}"})
    with pytest.raises(TooManyRequests, match="too quickly"):
        conversations.post(session, actor=people["client"], project_id=project.id, data={"body": "One more"})
    session.rollback()
    thread = conversations.thread(session, actor=people["client"], project_id=project.id)
    assert len(thread.messages) == conversations.PER_AUTHOR and thread.messages[-1].body != "One more"


# Files attached to messages (ADR 0101).
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
EXE = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00" + b"\x00" * 64 + b"This program cannot be run"


def _package(entries: dict[str, bytes], *, mimetype: bytes | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        if mimetype is not None:
            zf.writestr("mimetype", mimetype, compress_type=zipfile.ZIP_STORED)
        for name, content in entries.items():
            zf.writestr(name, content, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(settings, "data_dir", tmp_path)
    return tmp_path


def _stored(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def _download(session: Session, actor: User, project_id: int, file_id: int) -> tuple[str, str, bytes]:
    name, kind, handle = conversations.open_file(session, actor=actor, project_id=project_id, file_id=file_id)
    with handle:
        return name, kind, handle.read()


def test_files_travel_with_messages_and_only_their_readers_download_them(
    session: Session, people: dict[str, User], data_dir: Path
) -> None:
    project = f.project(session, people["client"], "Clinic files")
    session.add(ProjectMember(project_id=project.id or 0, user_id=people["dev"].id))
    session.commit()
    pid = project.id or 0

    sent = conversations.post(
        session,
        actor=people["client"],
        project_id=pid,
        data={"body": "The brief and a sketch"},
        uploads=[("../Brief Ünïcode.pdf", PDF), ("sketch.PNG", PNG)],
    )
    assert [(x.name, x.content_type, x.size) for x in sent.files] == [
        ("Brief Ünïcode.pdf", "application/pdf", len(PDF)),
        ("sketch.PNG", "image/png", len(PNG)),
    ]
    only_files = conversations.post(session, actor=people["client"], project_id=pid, data={}, uploads=[("a.pdf", PDF)])
    assert only_files.body == "" and len(only_files.files) == 1
    note = conversations.post(
        session,
        actor=people["dev"],
        project_id=pid,
        data={"body": "Our estimate", "internal": True},
        uploads=[("estimate.csv", b"task,hours\nDesign,12\n")],
    )
    assert all(k.startswith("conversations/") for k in _stored(data_dir)) and len(_stored(data_dir)) == 4

    seen = conversations.thread(session, actor=people["client"], project_id=pid)
    assert [[x.name for x in m.files] for m in seen.messages] == [["Brief Ünïcode.pdf", "sketch.PNG"], ["a.pdf"]]
    first = seen.messages[0].files[0]
    assert first.url == f"/api/projects/{pid}/messages/files/{first.id}"
    # The client, the team and staff who read projects download the client's files.
    for reader in ("client", "dev", "outsider"):
        assert _download(session, people[reader], pid, first.id) == ("Brief Ünïcode.pdf", "application/pdf", PDF)
    # The internal note's file is the staff's only; another client learns nothing, not even that the project exists.
    note_file = note.files[0].id
    assert _download(session, people["outsider"], pid, note_file)[1:] == ("text/csv", b"task,hours\nDesign,12\n")
    for who, file_id, project_id in (
        ("client", note_file, pid),
        ("other", first.id, pid),
        ("client", first.id, pid + 1000),  # the right file under a wrong project
        ("client", 2**40, pid),
        ("client", "1 OR 1=1", pid),
    ):
        with pytest.raises(NotFound, match="File not found"):
            conversations.open_file(session, actor=people[who], project_id=project_id, file_id=file_id)
    with pytest.raises(Forbidden):
        conversations.open_file(session, actor=people["hr"], project_id=pid, file_id=first.id)


@pytest.mark.parametrize(
    ("name", "content", "content_type"),
    [
        ("photo.jpeg", b"\xff\xd8\xff\xe0" + b"\x00" * 32, "image/jpeg"),
        ("anim.gif", b"GIF89a" + b"\x00" * 32, "image/gif"),
        ("shot.webp", b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 32, "image/webp"),
        ("sheet.xlsx", _package({"xl/workbook.xml": b"<workbook/>"}), files.XLSX.content_type),
        ("deck.pptx", _package({"ppt/presentation.xml": b"<p/>"}), files.PPTX.content_type),
        ("letter.docx", _package({"word/document.xml": b"<w/>"}), files.DOCX.content_type),
        (
            "text.odt",
            _package({"content.xml": b"<c/>"}, mimetype=files.ODT.content_type.encode()),
            files.ODT.content_type,
        ),
        (
            "calc.ods",
            _package({"content.xml": b"<c/>"}, mimetype=files.ODS.content_type.encode()),
            files.ODS.content_type,
        ),
        ("bundle.zip", _package({"readme.txt": b"hello"}), "application/zip"),
        ("legacy.xls", bytes.fromhex("D0CF11E0A1B11AE1") + "Workbook".encode("utf-16-le"), "application/vnd.ms-excel"),
        ("notes.txt", "Grüße\r\n\tindented\n".encode(), "text/plain"),
    ],
)
def test_each_accepted_kind_is_recognised_by_its_content(name: str, content: bytes, content_type: str) -> None:
    assert files.detect(name, content, policy=files.ATTACHMENT).content_type == content_type


def test_wrong_types_oversized_and_too_many_files_are_refused_storing_nothing(
    session: Session, people: dict[str, User], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = f.project(session, people["client"], "Clinic refusals")
    bomb = _package({"word/document.xml": b"<w/>"})
    monkeypatch.setattr(files, "MAX_UNPACKED", 3)  # the package declares more than this unpacked
    monkeypatch.setattr(settings, "max_upload_mb", 1)
    refusals: list[tuple[list[tuple[str, bytes]], type[Exception], str]] = [
        ([("setup.pdf", EXE)], Invalid, "setup.pdf: Please attach only PDF files"),
        ([("readme.txt", EXE)], Invalid, "readme.txt: Please attach only"),
        ([("fine.pdf", PDF), ("installer.exe", EXE)], Invalid, "installer.exe: Please attach only"),
        ([("page.html", b"<html><script>alert(1)</script></html>")], Invalid, "page.html: Please attach only"),
        ([("big.pdf", PDF + b"0" * (1024 * 1024))], PayloadTooLarge, "big.pdf: File too large: the maximum is 1 MB"),
        ([("empty.pdf", b"")], Invalid, "empty.pdf: The uploaded file is empty."),
        ([("bomb.docx", bomb)], Invalid, "bomb.docx: This file unpacks to more than 100 MB"),
        ([(f"{i}.pdf", PDF) for i in range(4)], Invalid, "Attach at most 3 files to a message."),
        ([], Invalid, "Message is required"),
    ]
    for uploads, error, message in refusals:
        with pytest.raises(error, match=re.escape(message)) as refused:
            conversations.post(session, actor=people["client"], project_id=project.id, data={}, uploads=uploads)
        assert message in next(iter(refused.value.errors.values()))  # type: ignore[attr-defined]
    assert conversations.thread(session, actor=people["client"], project_id=project.id).messages == []
    assert _stored(data_dir) == [] and session.exec(select(ProjectMessageFile)).all() == []


def test_stored_files_are_bounded_per_author_per_day_and_per_project(
    session: Session, people: dict[str, User], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = f.project(session, people["client"], "Clinic quota")
    session.add(ProjectMember(project_id=project.id or 0, user_id=people["dev"].id))
    session.commit()
    pdf = PDF + b"%" * (1000 - len(PDF))  # 1000 bytes
    monkeypatch.setattr(conversations, "AUTHOR_DAY_BYTES", 2500)
    monkeypatch.setattr(conversations, "PROJECT_BYTES", 4500)

    def send(who: str, count: int) -> None:
        conversations.post(
            session,
            actor=people[who],
            project_id=project.id,
            data={},
            uploads=[(f"{i}.pdf", pdf) for i in range(count)],
        )

    send("client", 2)
    with pytest.raises(Invalid, match="100 MB of files today"):
        send("client", 1)  # 3000 bytes today: past the author's 2500
    assert len(_stored(data_dir)) == 2
    # A day later the author's allowance is back; the project's total still counts everything.
    for row in session.exec(select(ProjectMessageFile)).all():
        row.created_at -= timedelta(days=1, minutes=1)
        session.add(row)
    session.commit()
    send("client", 2)
    with pytest.raises(Invalid, match="already holds 2 GB of files"):
        send("dev", 1)  # 5000 bytes in the project: past its 4500
    assert len(_stored(data_dir)) == 4
    assert (
        sum(len(m.files) for m in conversations.thread(session, actor=people["dev"], project_id=project.id).messages)
        == 4
    )


def test_deleting_a_project_deletes_its_conversations_files_from_the_store(
    session: Session, people: dict[str, User], data_dir: Path
) -> None:
    kept = f.project(session, people["client"], "Kept")
    gone = f.project(session, people["client"], "Gone")
    conversations.post(session, actor=people["client"], project_id=kept.id, data={}, uploads=[("k.pdf", PDF)])
    conversations.post(session, actor=people["client"], project_id=gone.id, data={}, uploads=[("g.pdf", PDF)])
    conversations.post(session, actor=people["client"], project_id=gone.id, data={}, uploads=[("h.png", PNG)])
    assert len(_stored(data_dir)) == 3
    admin = f.user(session, "conv_admin", role=Role.admin)
    projects.delete_project(session, actor=admin, project_id=gone.id or 0)
    left = session.exec(select(ProjectMessageFile.key)).all()
    assert _stored(data_dir) == sorted(left) and len(left) == 1
