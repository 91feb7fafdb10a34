"""Private files in an S3-compatible bucket (STORAGE_URL=s3://...), against a real S3 protocol server on this machine:
moto's server, started on a free loopback port and spoken to over HTTP by the app's own boto3 client.

An application's CV goes into the bucket through the public route and comes back only through the staff route after
its permission check; the object is not readable without the bucket's keys; a store that cannot be reached answers
503 and records nothing (or, for a download, no audit entry), and the file is all there when the store is back;
`backup` and `restore` carry the bucket's objects, and stop before touching anything when the store is down.
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
import httpx
import pytest
from botocore.config import Config
from fastapi.testclient import TestClient
from moto.server import ThreadedMotoServer
from pydantic import SecretStr
from sqlmodel import Session, select

from app.cli import main
from app.core.config import Settings, settings
from app.core.db import make_engine
from app.core.errors import NotFound
from app.models import AuditLog, JobApplication
from app.models.enums import EmployeeType, Role
from app.models.system import EmailOutbox
from app.services.platform import files, storage
from tests import factories as f
from tests.api.test_applications_admin_api import as_user
from tests.api.test_careers_api import fields, submit
from tests.services.test_careers import make_pdf
from tools.server import free_port

KEY_ID, SECRET = "test-key-id", "test-secret-key"  # moto signs and checks nothing else about them
PREFIX = "cvs"


@dataclass
class S3:
    """A running S3 protocol server, and a client of the bucket's owner to look behind the app's back."""

    server: ThreadedMotoServer
    port: int

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self) -> Any:
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name="us-east-1",
            aws_access_key_id=KEY_ID,
            aws_secret_access_key=SECRET,
            config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
        )

    def stop(self) -> None:
        self.server.stop()

    def start(self) -> None:
        # A new server on the same port: the objects live in the process's moto backend, as a restarted store
        # keeps its disks.
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)
        self.server.start()


@pytest.fixture(scope="module")
def s3() -> Iterator[S3]:
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    running = S3(server, port)
    yield running
    running.stop()


def _use_bucket(monkeypatch: pytest.MonkeyPatch, endpoint: str, bucket: str) -> None:
    monkeypatch.setattr(settings, "storage_url", f"s3://{bucket}/{PREFIX}")
    monkeypatch.setattr(settings, "s3_endpoint_url", endpoint)
    monkeypatch.setattr(settings, "aws_access_key_id", KEY_ID)
    monkeypatch.setattr(settings, "aws_secret_access_key", SecretStr(SECRET))


@pytest.fixture
def bucket(s3: S3, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A new, empty bucket that STORAGE_URL points at; DATA_DIR is an empty folder that must stay empty."""
    name = f"cvs-{uuid.uuid4().hex[:12]}"
    s3.client().create_bucket(Bucket=name)
    monkeypatch.setattr(settings, "data_dir", tmp_path / "data")
    _use_bucket(monkeypatch, s3.endpoint, name)
    return name


def _objects(s3: S3, bucket: str) -> dict[str, bytes]:
    client = s3.client()
    listed = client.list_objects_v2(Bucket=bucket).get("Contents", [])
    return {o["Key"]: client.get_object(Bucket=bucket, Key=o["Key"])["Body"].read() for o in listed}


def _nothing_local() -> bool:
    return not settings.data_dir.exists() or not any(settings.data_dir.rglob("*"))


def test_a_cv_goes_into_the_bucket_and_comes_back_only_through_the_staff_route(
    client: TestClient, session: Session, s3: S3, bucket: str
) -> None:
    cv = make_pdf()
    r = submit(client, resume=("Jordan Lee CV.pdf", cv, "application/pdf"))
    assert r.status_code == 201, r.text
    application = session.get(JobApplication, r.json()["id"])
    assert application is not None
    # In the bucket under the prefix, by the name the row keeps; nothing on this machine's disk.
    assert _objects(s3, bucket) == {f"{PREFIX}/{application.resume_path}": cv}
    assert _nothing_local()

    url = f"/api/admin/applications/{application.id}/resume"
    assert client.get(url).status_code == 401  # signed out
    as_user(client, session, f.user(session, "sales_s3", role=Role.employee, employee_type=EmployeeType.sales_lead))
    assert client.get(url).status_code == 403  # staff without applications:read
    as_user(client, session, f.user(session, "hr_s3", role=Role.employee, employee_type=EmployeeType.hr))
    got = client.get(url)
    assert got.status_code == 200 and got.content == cv
    assert got.headers["content-type"] == "application/pdf" and got.headers["cache-control"] == "no-store"
    assert "Jordan%20Lee%20CV.pdf" in got.headers["content-disposition"]


def test_a_stored_object_is_not_readable_without_the_buckets_keys(s3: S3, bucket: str) -> None:
    stored = files.store("cv.pdf", make_pdf(), field="resume")
    key = f"{PREFIX}/{stored.name}"
    assert s3.client().head_object(Bucket=bucket, Key=key)["ContentLength"] > 0  # there, for the owner's keys
    anonymous = httpx.get(f"{s3.endpoint}/{bucket}/{key}")
    assert anonymous.status_code == 403 and b"%PDF" not in anonymous.content
    # Nor by anyone the bucket's ACL names: the object carries no grant beyond its owner.
    grants = s3.client().get_object_acl(Bucket=bucket, Key=key)["Grants"]
    assert [g["Grantee"].get("URI") for g in grants if g["Grantee"].get("URI")] == []


def _closed_port_store(monkeypatch: pytest.MonkeyPatch, bucket: str) -> None:
    _use_bucket(monkeypatch, f"http://127.0.0.1:{free_port()}", bucket)  # nothing listens there


def test_an_upload_to_an_unreachable_store_answers_503_and_records_nothing(
    client: TestClient, session: Session, s3: S3, bucket: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _closed_port_store(monkeypatch, bucket)
    started = time.monotonic()
    r = submit(client, data=fields(email="outage@example.com"))
    took = time.monotonic() - started
    assert r.status_code == 503
    assert r.json()["message"] == files.STORAGE_UNAVAILABLE
    assert took < 10  # the visitor hears back in seconds (two quick refusals), not after botocore's minute
    # Nothing half-saved: no application without its CV, no mail announcing one, no file anywhere.
    assert session.exec(select(JobApplication)).all() == []
    assert session.exec(select(EmailOutbox).where(EmailOutbox.to_address == "outage@example.com")).all() == []
    assert _objects(s3, bucket) == {} and _nothing_local()


def test_a_store_that_goes_down_after_the_upload_answers_503_and_keeps_the_file(
    client: TestClient, session: Session, s3: S3, bucket: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cv = make_pdf()
    r = submit(client, resume=("cv.pdf", cv, "application/pdf"))
    assert r.status_code == 201, r.text
    url = f"/api/admin/applications/{r.json()['id']}/resume"
    as_user(client, session, f.user(session, "hr_outage", role=Role.employee, employee_type=EmployeeType.hr))

    def downloads() -> int:
        return len(session.exec(select(AuditLog).where(AuditLog.action == "application.download")).all())

    s3.stop()
    try:
        down = client.get(url)
        assert down.status_code == 503 and down.json()["message"] == files.READ_UNAVAILABLE
        assert downloads() == 0  # no download recorded that did not happen
        refused = submit(client, data=fields(email="second@example.com"))
        assert refused.status_code == 503 and refused.json()["message"] == files.STORAGE_UNAVAILABLE
    finally:
        s3.start()
    back = client.get(url)
    assert back.status_code == 200 and back.content == cv  # nothing was lost while it was down
    assert downloads() == 1
    assert len(session.exec(select(JobApplication)).all()) == 1


def _application_row(db: Path, name: str) -> None:
    engine = make_engine(f"sqlite:///{db}")
    try:
        with Session(engine) as s:
            row = JobApplication(
                first_name="Ana", last_name="Silva", email="ana@example.com", phone="7725550100",
                resume_path=name, resume_filename="cv.pdf", resume_content_type="application/pdf",
            )  # fmt: skip
            s.add(row)
            s.commit()
    finally:
        engine.dispose()


def test_backup_and_restore_carry_the_buckets_objects(
    s3: S3, bucket: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    monkeypatch.setattr(settings, "database_url", f"sqlite:///{source}")
    assert main(["migrate"]) == 0
    cvs = [make_pdf(), make_pdf() + b"%second"]
    names = [files.store(f"cv{i}.pdf", data).name for i, data in enumerate(cvs)]
    for name in names:
        _application_row(source, name)
    capsys.readouterr()

    out = tmp_path / "backup"
    assert main(["backup", str(out)]) == 0
    assert "2 private files" in capsys.readouterr().out
    manifest = json.loads((out / "manifest.json").read_text())
    assert sorted(manifest["files"]) == sorted(names) and manifest["store"].startswith(f"s3://{bucket}/{PREFIX}")
    assert [(out / "files" / n).read_bytes() for n in names] == cvs

    # The same backup brought back on an "empty machine": a new database and a new, empty bucket.
    fresh = f"restored-{uuid.uuid4().hex[:12]}"
    s3.client().create_bucket(Bucket=fresh)
    _use_bucket(monkeypatch, s3.endpoint, fresh)
    monkeypatch.setattr(settings, "database_url", f"sqlite:///{target}")
    assert main(["restore", str(out)]) == 0
    assert "and 2 private files" in capsys.readouterr().out
    assert _objects(s3, fresh) == {f"{PREFIX}/{n}": data for n, data in zip(names, cvs, strict=True)}
    engine = make_engine(f"sqlite:///{target}")
    try:
        with Session(engine) as s:
            rows = s.exec(select(JobApplication)).all()
            assert sorted(a.resume_path for a in rows) == sorted(names)
            for a, data in zip(sorted(rows, key=lambda a: names.index(a.resume_path)), cvs, strict=True):
                with files.open_private(a.resume_path) as fh:  # through the store the product reads from
                    assert fh.read() == data
    finally:
        engine.dispose()
    assert _nothing_local()


def test_backup_and_restore_stop_before_any_work_when_the_store_is_down(
    bucket: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    monkeypatch.setattr(settings, "database_url", f"sqlite:///{source}")
    assert main(["migrate"]) == 0
    _application_row(source, files.store("cv.pdf", make_pdf()).name)
    out = tmp_path / "backup"
    assert main(["backup", str(out)]) == 0
    capsys.readouterr()

    _closed_port_store(monkeypatch, bucket)
    assert main(["backup", str(tmp_path / "second")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: The file store s3://{bucket}/{PREFIX}") and "nothing was backed up" in err
    assert not (tmp_path / "second").exists()

    monkeypatch.setattr(settings, "database_url", f"sqlite:///{target}")
    assert main(["restore", str(out)]) == 1
    assert "can't be reached" in capsys.readouterr().err
    with sqlite3.connect(target) as conn:  # the database was not touched: no schema, no rows
        assert conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall() == []


def test_storage_url_is_checked_when_the_settings_load() -> None:
    for wrong in ("s3://", "s3://Upper_Case", "ftp://host/x", "file://relative/folder", "data"):
        with pytest.raises(ValueError, match="STORAGE_URL must be empty"):
            Settings(storage_url=wrong)
    ok = Settings(storage_url="s3://my-bucket/cvs/", s3_endpoint_url="http://127.0.0.1:9000")
    assert ok.storage_url == "s3://my-bucket/cvs"
    store = storage.store_for(ok)
    assert isinstance(store, storage.S3Store) and store.description == "s3://my-bucket/cvs at http://127.0.0.1:9000"
    folder = storage.store_for(Settings(storage_url="file:///srv/files"))
    assert isinstance(folder, storage.LocalStore) and folder.root == Path("/srv/files")
    assert isinstance(storage.store_for(Settings(storage_url="")), storage.LocalStore)  # DATA_DIR, as before


@pytest.mark.parametrize("kind", ["local", "s3"])
def test_both_stores_keep_one_contract(kind: str, bucket: str, tmp_path: Path) -> None:
    """put, open, exists, keys (what a backup lists), delete: the same answers from the folder and the bucket."""
    store = storage.LocalStore(tmp_path / "files") if kind == "local" else storage.store_for(settings)
    store.check()
    assert store.keys("applications") == [] and not store.exists("applications/a.pdf")
    store.put("applications/b.pdf", b"%PDF-b")
    store.put("applications/a.pdf", b"%PDF-a")
    store.put("other/c.pdf", b"%PDF-c")
    store.put("applications/a.pdf", b"%PDF-a2")  # a second write replaces the first, whole
    assert store.keys("applications") == ["applications/a.pdf", "applications/b.pdf"]
    assert store.exists("applications/a.pdf")
    with store.open("applications/a.pdf") as fh:
        assert b"".join(storage.chunks(fh)) == b"%PDF-a2"
    store.delete("applications/a.pdf")
    store.delete("applications/a.pdf")  # twice: cleanup may run again
    assert not store.exists("applications/a.pdf") and store.keys("applications") == ["applications/b.pdf"]
    for missing in ("applications/a.pdf", "../outside.pdf"):
        with pytest.raises(NotFound):
            store.open(missing)
