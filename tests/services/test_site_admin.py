"""Staff editing of the public site's content: validation, uniqueness, partial updates, permissions, audit, and
that what is saved is what the public pages read."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from app.core.errors import Forbidden, Invalid, NotFound
from app.models.careers import JobApplication, JobOpening
from app.models.enums import EmployeeType, Role
from app.models.system import AuditLog
from app.services.careers import careers
from app.services.site import site_admin, site_content
from tests import factories as f


@pytest.fixture
def editor(session: Session):
    return f.user(session, "site_editor", role=Role.employee, employee_type=EmployeeType.marketing_lead)


SERVICE = {
    "title": "Data Engineering",
    "slug": "data-engineering",
    "icon": "database",
    "description": "Pipelines and warehouses.",
    "features": "ETL pipelines\n\n  Data   warehouses \nStreaming",
    "popular": "on",
    "sort_order": "7",
}


def test_a_created_service_shows_on_the_public_page_with_its_features_cleaned(session: Session, editor) -> None:
    made = site_admin.create_item(session, actor=editor, kind="services", data=SERVICE)
    assert made.features == ["ETL pipelines", "Data warehouses", "Streaming"]
    assert made.is_active is True and made.popular is True and made.sort_order == 7
    card = next(c for c in site_content.services(session) if c.slug == "data-engineering")
    assert card.title == "Data Engineering" and card.icon == "database"

    site_admin.update_item(session, actor=editor, kind="services", item_id=made.id, data={"is_active": False})
    assert all(c.slug != "data-engineering" for c in site_content.services(session))
    row = site_admin.list_items(session, actor=editor, kind="services")
    assert any(r.slug == "data-engineering" and r.title == "Data Engineering" for r in row)  # partial update


def test_bad_input_names_each_field_and_changes_nothing(session: Session, editor) -> None:
    before = len(site_admin.list_items(session, actor=editor, kind="services"))
    with pytest.raises(Invalid) as caught:
        site_admin.create_item(
            session,
            actor=editor,
            kind="services",
            data={"title": "", "slug": "Not A Slug", "icon": "skull", "description": "x" * 2001, "sort_order": "-1"},
        )
    assert caught.value.errors == {
        "title": "Title is required",
        "slug": "Slug may contain only lowercase letters, digits and single hyphens",
        "icon": "Icon must be one of: " + ", ".join(site_content.SERVICE_ICONS),
        "description": "Description must not exceed 2000 characters",
        "sort_order": "Display order must be between 0 and 10000",
    }
    assert len(site_admin.list_items(session, actor=editor, kind="services")) == before


def test_testimonial_rules(session: Session, editor) -> None:
    with pytest.raises(Invalid) as caught:
        site_admin.create_item(
            session, actor=editor, kind="testimonials", data={"name": "Ann", "text": "Great", "rating": "6"}
        )
    assert caught.value.errors == {"rating": "Rating must be between 1 and 5"}
    with pytest.raises(Invalid) as caught:
        site_admin.create_item(
            session, actor=editor, kind="testimonials", data={"name": "Ann", "text": "Great", "date": "1899-01-01"}
        )
    assert caught.value.errors == {
        "rating": "Rating is required",
        "date": "Date cannot be before January 1, 1900",
    }
    made = site_admin.create_item(
        session,
        actor=editor,
        kind="testimonials",
        data={"name": "Ann Lee", "text": "Great work", "rating": 4, "date": "2026-03-01", "featured": True,
              "role": "CTO", "company": "Acme"},
    )  # fmt: skip
    assert made.date == "2026-03-01" and made.verified is True
    featured = site_content.featured_testimonials(session)
    assert any(t.name == "Ann Lee" and t.rating == 4 for t in featured)


def test_portfolio_link_must_be_a_web_address_and_category_a_filter(session: Session, editor) -> None:
    with pytest.raises(Invalid) as caught:
        site_admin.create_item(
            session,
            actor=editor,
            kind="portfolio",
            data={"title": "Shop", "description": "d", "category": "Gaming", "link": "javascript:alert(1)"},
        )
    assert caught.value.errors == {
        "category": "Category must be one of: Web Development, Marketing, Healthcare, FinTech, Education, IoT",
        "link": "Site address must be a full web address starting with https://",
    }


def test_job_ids_are_unique_upper_case_and_applications_survive_a_removed_opening(session: Session, editor) -> None:
    job = {"title": "QA Engineer", "code": "job-900", "department": "Engineering", "location": "Remote",
           "employment_type": "Contract", "requirements": ["Pytest", "Playwright"]}  # fmt: skip
    made = site_admin.create_item(session, actor=editor, kind="jobs", data=job)
    assert made.code == "JOB-900"
    opening = careers.get_job(session, "JOB-900")
    assert opening is not None and opening.requirements == ["Pytest", "Playwright"]
    with pytest.raises(Invalid) as caught:
        site_admin.create_item(session, actor=editor, kind="jobs", data={**job, "code": "JOB-900"})
    assert caught.value.errors == {"code": "Job ID is already used"}
    with pytest.raises(Invalid):
        site_admin.create_item(
            session, actor=editor, kind="jobs", data={**job, "code": "JOB 1", "employment_type": "x"}
        )

    application = JobApplication(
        job_opening_id=made.id, job_code="JOB-900", first_name="Q", last_name="A", email="qa@example.com",
        phone="+1 555 0100", resume_path="r", resume_filename="cv.pdf", resume_content_type="application/pdf",
    )  # fmt: skip
    session.add(application)
    session.commit()
    site_admin.delete_item(session, actor=editor, kind="jobs", item_id=made.id)
    assert session.get(JobOpening, made.id) is None
    session.refresh(application)
    assert application.job_opening_id is None and application.job_code == "JOB-900"


def test_empty_required_field_on_update_is_refused(session: Session, editor) -> None:
    made = site_admin.create_item(session, actor=editor, kind="team", data={"name": "Sam", "role": "Dev", "bio": "b"})
    with pytest.raises(Invalid) as caught:
        site_admin.update_item(session, actor=editor, kind="team", item_id=made.id, data={"name": " "})
    assert caught.value.errors == {"name": "Name is required"}
    with pytest.raises(NotFound):
        site_admin.update_item(session, actor=editor, kind="team", item_id=10**9, data={"name": "X"})
    with pytest.raises(NotFound):
        site_admin.list_items(session, actor=editor, kind="users")


def test_permissions_and_audit(session: Session, editor) -> None:
    developer = f.user(session, "site_dev", role=Role.employee, employee_type=EmployeeType.developer)
    hr = f.user(session, "site_hr", role=Role.employee, employee_type=EmployeeType.hr)
    client = f.user(session, "site_client")
    assert isinstance(site_admin.list_items(session, actor=developer, kind="team"), list)  # content:read
    with pytest.raises(Forbidden):
        site_admin.create_item(session, actor=developer, kind="team", data={"name": "X", "role": "Y", "bio": "Z"})
    for outsider in (hr, client):
        with pytest.raises(Forbidden):
            site_admin.list_items(session, actor=outsider, kind="team")
    made = site_admin.create_item(session, actor=editor, kind="team", data={"name": "Kim", "role": "PM", "bio": "b"})
    site_admin.delete_item(session, actor=editor, kind="team", item_id=made.id)
    actions = session.exec(select(AuditLog.action).where(AuditLog.actor_id == editor.id)).all()
    assert actions == ["site.team.create", "site.team.delete"]
