"""Hostile uploads to the public application form (/api/applications/submit), each refused or stored safely with disk
use bounded. Already covered beside this file: an empty file, the cap and one byte over it (413), a renamed executable
(test_careers_api); stored names that try to leave the private folder (tests/services/test_careers). Here: a zip bomb
dressed as a DOCX, a PDF carrying a script, path traversal in the uploaded file's name, and 50 uploads at once.
"""

from __future__ import annotations

import io
import os
import threading
import tracemalloc
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, delete, func, select

from app.core.config import settings
from app.core.errors import TooManyRequests
from app.models.careers import JobApplication
from app.models.enums import EmployeeType, Role
from app.models.system import EmailOutbox, RateLimitEvent
from app.services.accounts import sessions
from app.services.careers import careers
from app.services.platform import files
from tests import factories as f
from tests.api.test_careers_api import fields, submit
from tests.services.test_careers import make_pdf

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(settings, "data_dir", tmp_path / "data")
    return tmp_path / "data"


def _stored(data_dir: Path) -> list[Path]:
    """Every file under the data folder, temporary ones included."""
    return sorted(p for p in data_dir.rglob("*") if p.is_file()) if data_dir.exists() else []


def _bomb(unpacked_mb: int) -> bytes:
    """A well-formed DOCX whose document.xml unpacks to `unpacked_mb` MB of zeros (a few hundred KB packed)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        with zf.open("word/document.xml", "w", force_zip64=True) as member:
            chunk = b"\0" * (1 << 20)
            for _ in range(unpacked_mb):
                member.write(chunk)
    return buf.getvalue()


def test_a_zip_bomb_dressed_as_a_docx_is_refused_without_unpacking_it(client: TestClient, data_dir: Path) -> None:
    bomb = _bomb(300)
    assert len(bomb) < 2 * 1024 * 1024  # small enough to pass the upload cap: only its contents are huge
    tracemalloc.start()
    try:
        r = submit(client, resume=("cv.docx", bomb, DOCX_TYPE))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.status_code == 422
    assert r.json()["errors"]["resume"] == files.UNPACKS_TOO_LARGE
    assert peak < 40 * 1024 * 1024  # the 300 MB inside were never unpacked
    assert _stored(data_dir) == []


def test_a_docx_with_thousands_of_entries_is_refused(client: TestClient, data_dir: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("word/document.xml", "<w:document/>")
        for i in range(files.MAX_ENTRIES):
            zf.writestr(f"word/media/{i}.bin", b"")
    r = submit(client, resume=("cv.docx", buf.getvalue(), DOCX_TYPE))
    assert r.status_code == 422 and r.json()["errors"]["resume"] == files.UNPACKS_TOO_LARGE
    assert _stored(data_dir) == []


def test_a_pdf_carrying_a_script_is_kept_byte_for_byte_and_only_ever_served_as_a_download(
    client: TestClient, session: Session, data_dir: Path
) -> None:
    scripted = make_pdf().replace(
        b"%%EOF", b"1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert('owned')) >> >> endobj\n%%EOF"
    )
    r = submit(client, resume=("cv.pdf", scripted, "application/pdf"))
    assert r.status_code == 201, r.text
    row = session.exec(select(JobApplication).order_by(col(JobApplication.id).desc())).first()
    assert row is not None
    hr = f.user(session, "hr_uploads", role=Role.employee, employee_type=EmployeeType.hr)
    client.cookies.set("access_token", sessions.start(session, hr).access_token)
    cv = client.get(f"/api/admin/applications/{row.id}/resume")
    assert cv.status_code == 200 and cv.content == scripted
    # Never rendered by the browser in the site's origin: a download, of the sniffed type, not cached anywhere.
    assert cv.headers["content-disposition"].startswith("attachment;")
    assert cv.headers["content-type"] == "application/pdf"
    assert cv.headers["x-content-type-options"] == "nosniff" and cv.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    "name", ["../../../../tmp/evil.pdf", "..\\..\\evil.pdf", "/etc/cron.d/evil.pdf", "applications/../../evil.pdf"]
)
def test_path_traversal_in_the_file_name_stays_in_the_private_folder(
    client: TestClient, session: Session, data_dir: Path, name: str
) -> None:
    r = submit(client, resume=(name, make_pdf(), "application/pdf"))
    assert r.status_code == 201, r.text
    row = session.exec(select(JobApplication).order_by(col(JobApplication.id).desc())).first()
    assert row is not None and row.resume_filename == "evil.pdf"  # shown to staff without any folder part
    [stored] = _stored(data_dir)
    assert stored.parent == data_dir / "applications" and stored.stem != "evil"
    assert f"applications/{stored.name}" == row.resume_path
    assert not Path("/tmp/evil.pdf").exists() and not (data_dir.parent / "evil.pdf").exists()


@pytest.fixture
def committed(engine: Engine) -> Iterator[str]:
    """A tag for the applications the parallel test commits (the service commits), removed afterwards."""
    tag = uuid.uuid4().hex[:8]
    with Session(engine) as s:
        mails_before = s.exec(select(func.coalesce(func.max(EmailOutbox.id), 0))).one()
        limits_before = s.exec(select(func.coalesce(func.max(RateLimitEvent.id), 0))).one()
    yield tag
    with Session(engine) as s:  # the tests run one at a time: what came after is this test's
        s.exec(delete(JobApplication).where(col(JobApplication.email).like(f"%{tag}%")))  # type: ignore[call-overload]
        s.exec(delete(EmailOutbox).where(col(EmailOutbox.id) > mails_before))  # type: ignore[call-overload]
        s.exec(delete(RateLimitEvent).where(col(RateLimitEvent.id) > limits_before))  # type: ignore[call-overload]
        s.commit()


def test_fifty_parallel_uploads_store_exactly_what_was_acknowledged(
    engine: Engine, data_dir: Path, committed: str
) -> None:
    """25 applicants from 25 addresses and 25 uploads from one address (over its limit of 5), all at once: every
    acknowledged application has its file, no refused one left a file behind, no temporary file remains."""
    pdf = make_pdf()
    outcomes: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(50)

    def apply(i: int) -> None:
        ip = f"198.51.100.{i}" if i < 25 else "203.0.113.99"
        form = fields(email=f"a{i}.{committed}@example.com")
        start.wait()
        with Session(engine, expire_on_commit=False) as s:
            try:
                careers.submit_application(
                    s,
                    job_code=form["jobId"],
                    first_name=form["firstName"],
                    last_name=form["lastName"],
                    phone=form["phone"],
                    email=form["email"],
                    resume=(f"cv{i}.pdf", pdf),
                    ip=ip,
                )
                outcome = "stored"
            except TooManyRequests:
                outcome = "limited"
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=apply, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    with Session(engine) as s:
        rows = s.exec(select(JobApplication).where(col(JobApplication.email).like(f"%{committed}%"))).all()
    assert outcomes.count("stored") == len(rows) == 25 + 5 and outcomes.count("limited") == 20
    on_disk = _stored(data_dir)
    assert sorted(p.name for p in on_disk) == sorted(r.resume_path.split("/", 1)[1] for r in rows)
    assert sum(p.stat().st_size for p in on_disk) == len(rows) * len(pdf)  # bounded: nothing beyond what was kept


@pytest.fixture
def full_disk(data_dir: Path) -> Iterator[Path]:
    """The data folder on a real 1 MB filesystem (tmpfs), filled to its last few KB; the filler is yielded."""
    import subprocess

    data_dir.mkdir(parents=True)
    mount = ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(data_dir)]
    if subprocess.run(mount, capture_output=True).returncode:
        pytest.skip("mounting a small filesystem needs root (CI and the development machines run tests as root)")
    filler = data_dir / "filler"
    try:
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        with pytest.raises(OSError, match="No space left"):
            while True:
                os.write(fd, b"\0" * 4096)
        os.close(fd)
        yield filler
    finally:
        subprocess.run(["umount", "-l", str(data_dir)], check=True)


def test_a_full_disk_answers_503_keeps_nothing_and_recovers_without_a_restart(
    client: TestClient, session: Session, full_disk: Path
) -> None:
    before = session.exec(select(func.count()).select_from(JobApplication)).one()
    r = submit(client)
    assert r.status_code == 503, r.text
    assert r.json()["message"] == files.STORAGE_UNAVAILABLE
    assert session.exec(select(func.count()).select_from(JobApplication)).one() == before  # nothing half-kept
    assert _stored(full_disk.parent) == [full_disk]  # no partial or temporary file
    full_disk.unlink()  # the operator frees space
    r = submit(client)
    assert r.status_code == 201, r.text
    assert session.exec(select(func.count()).select_from(JobApplication)).one() == before + 1
    assert len(_stored(full_disk.parent)) == 1
