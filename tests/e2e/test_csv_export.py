"""Export CSV in the staff panel: the button downloads the list with the filters on screen (issue 12, point 10)."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.models.inquiry import ContactInquiry
from tests.e2e.conftest import Server
from tests.e2e.test_admin import MOBILE, signed_in

pytestmark = pytest.mark.e2e
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/shots"))


def test_export_downloads_the_filtered_inquiries(browser: Browser, server: Server, db_engine: Engine) -> None:
    with Session(db_engine) as s:
        s.add_all(
            [
                ContactInquiry(name="Export Kept", email="export.kept@example.com", message="Site", status="resolved"),
                ContactInquiry(name="Export Other", email="export.other@example.com", message="App"),
            ]
        )
        s.commit()
    with signed_in(browser, server, db_engine, "admin") as (page, errors):
        page.goto(server.url + "/admin/inquiries")
        expect(page.get_by_text("Export Other")).to_be_visible()
        page.get_by_label("Search inquiries").fill("export")
        page.get_by_label("Filter by status").select_option("resolved")
        expect(page.get_by_text("Export Other")).to_have_count(0)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "inquiries-export-1280.png"))
        with page.expect_download() as info:
            page.get_by_test_id("export-csv").click()
        download = info.value
        assert download.suggested_filename.startswith("inquiries-") and download.suggested_filename.endswith(".csv")
        rows = list(csv.reader(io.StringIO(Path(download.path()).read_text(encoding="utf-8-sig"))))
        assert rows[0][:4] == ["id", "created_at", "name", "email"]
        assert [r[3] for r in rows[1:]] == ["export.kept@example.com"]
        assert errors == []
    with signed_in(browser, server, db_engine, "admin", MOBILE) as (page, _errors):
        page.goto(server.url + "/admin/inquiries")
        expect(page.get_by_test_id("export-csv")).to_be_visible()
        page.screenshot(path=str(SHOTS / "inquiries-export-390.png"))
