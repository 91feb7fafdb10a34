"""The staff lists of organizations, projects, products and job applications page, search, filter and sort in SQL.

Every row made here carries a random tag, and the lists are searched by it, so rows other tests committed do not count.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from sqlmodel import Session

from app.core.errors import Forbidden, Invalid
from app.models.base import utcnow
from app.models.careers import JobApplication, JobOpening
from app.models.commerce import Order, OrderItem, Price, Product
from app.models.enums import ApplicationStatus, EmployeeType, ProductCategory, ProjectStatus, ProjectType, Role
from app.models.project import Organization
from app.models.user import User
from app.services.careers import applications
from app.services.careers.applications import OpeningChoice
from app.services.catalogue import products
from app.services.projects import organizations, projects
from tests import factories as f


def _tag() -> str:
    return uuid.uuid4().hex[:8]


def _staff(s: Session, etype: EmployeeType) -> User:
    return f.user(s, f"{etype.value}_{_tag()}", role=Role.employee, employee_type=etype)


def _admin(s: Session) -> User:
    return f.user(s, f"admin_{_tag()}", role=Role.admin)


def _add(s: Session, *rows: object) -> None:
    s.add_all(rows)
    s.commit()


# --- organizations -----------------------------------------------------------------------------------------------


def test_organizations_page_search_and_sort(session: Session) -> None:
    tag = _tag()
    base = utcnow()
    industries = ["Retail" if i % 2 else "Healthcare" for i in range(7)]
    _add(
        session,
        *[
            Organization(name=f"{tag} Org {i:02d}", industry=industries[i], created_at=base + timedelta(minutes=i))
            for i in range(7)
        ],
    )
    dev = _staff(session, EmployeeType.developer)  # content:read only

    first = organizations.list_organizations(session, actor=dev, search=tag, page_size=3)
    assert (first.total, first.page, first.pages, first.page_size) == (7, 1, 3, 3)
    assert [o.name for o in first.data] == [f"{tag} Org 00", f"{tag} Org 01", f"{tag} Org 02"]  # by name
    last = organizations.list_organizations(session, actor=dev, search=tag, page=3, page_size=3)
    assert [o.name for o in last.data] == [f"{tag} Org 06"]
    assert organizations.list_organizations(session, actor=dev, search=tag, page=4, page_size=3).data == []

    newest = organizations.list_organizations(session, actor=dev, search=tag, sort="newest", page_size=2)
    assert [o.name for o in newest.data] == [f"{tag} Org 06", f"{tag} Org 05"]
    # The search looks in the industry too (case-insensitive), and takes LIKE's wildcards literally.
    retail = organizations.list_organizations(session, actor=dev, search="retail", page_size=100)
    assert {o.name for o in retail.data if o.name.startswith(tag)} == {f"{tag} Org {i:02d}" for i in (1, 3, 5)}
    assert organizations.list_organizations(session, actor=dev, search=f"{tag}%").total == 0
    assert organizations.list_organizations(session, actor=dev, search=tag).as_json()["pages"] == 1


def test_organization_choices_are_capped_searched_and_keep_the_chosen_one(session: Session) -> None:
    tag = _tag()
    rows = [Organization(name=f"{tag} Choice {i:02d}") for i in range(5)]
    _add(session, *rows)
    pm = _staff(session, EmployeeType.product_manager)
    capped = organizations.organization_choices(session, actor=pm, search=tag, limit=2)
    assert capped.total == 5 and [c.name for c in capped.data] == [f"{tag} Choice 00", f"{tag} Choice 01"]
    kept = organizations.organization_choices(session, actor=pm, search=tag, limit=2, include_id=rows[4].id)
    assert [c.name for c in kept.data] == [f"{tag} Choice 00", f"{tag} Choice 01", f"{tag} Choice 04"]
    assert set(capped.data[0].model_dump()) == {"id", "name"}


def test_organizations_need_content_read(session: Session) -> None:
    for who in (_staff(session, EmployeeType.hr), f.user(session, f"client_{_tag()}")):
        with pytest.raises(Forbidden):
            organizations.list_organizations(session, actor=who)
        with pytest.raises(Forbidden):
            organizations.organization_choices(session, actor=who)


# --- projects ----------------------------------------------------------------------------------------------------


def test_projects_page_search_filters_and_sort(session: Session) -> None:
    tag = _tag()
    casey = f.user(session, f"casey_{tag}", first_name="Casey", last_name=f"Quill{tag}")
    other = f.user(session, f"other_{tag}")
    org = Organization(name=f"{tag} Org")
    _add(session, org)
    base = utcnow()
    made = [
        f.project(
            session,
            casey if i < 4 else other,
            f"{tag} Project {i}",
            status=ProjectStatus.in_progress if i % 2 else ProjectStatus.planning,
            project_type=ProjectType.consulting if i == 5 else ProjectType.web_development,
            organization_id=org.id if i == 0 else None,
            created_at=base + timedelta(minutes=i),
        )
        for i in range(6)
    ]
    f.milestone(session, made[5], "Kick-off", 0)
    dev = _staff(session, EmployeeType.developer)

    page = projects.list_projects_page(session, actor=dev, search=tag, page_size=4)
    assert (page.total, page.pages, len(page.data)) == (6, 2, 4)
    assert [p.name for p in page.data][:2] == [f"{tag} Project 5", f"{tag} Project 4"]  # newest first
    top = page.data[0]
    assert [m.title for m in top.milestones] == ["Kick-off"] and top.client_name == other.username
    assert projects.list_projects_page(session, actor=dev, search=tag, page=3, page_size=4).data == []
    by_name = projects.list_projects_page(session, actor=dev, search=tag, sort="name", page_size=2)
    assert [p.name for p in by_name.data] == [f"{tag} Project 0", f"{tag} Project 1"]

    # The client's name, the status and the type as the cards show them ("in progress") are searched too.
    assert projects.list_projects_page(session, actor=dev, search=f"quill{tag}").total == 4
    assert projects.list_projects_page(session, actor=dev, search=f"Casey Quill{tag}").total == 4
    both = projects.list_projects_page(session, actor=dev, search="in progress", page_size=100)
    assert {p.name for p in both.data if p.name.startswith(tag)} == {f"{tag} Project {i}" for i in (1, 3, 5)}
    named = projects.list_projects_page(session, actor=dev, search=tag, status="in_progress", project_type="consulting")
    assert [p.name for p in named.data] == [f"{tag} Project 5"]
    assert projects.list_projects_page(session, actor=dev, search=tag, client_id=str(casey.id)).total == 4
    in_org = projects.list_projects_page(session, actor=dev, organization_id=org.id)
    assert [(p.name, p.organization_name) for p in in_org.data] == [(f"{tag} Project 0", f"{tag} Org")]
    for bad in ({"status": "done"}, {"project_type": "gardening"}, {"client_id": "not-a-uuid"}):
        with pytest.raises(Invalid):
            projects.list_projects_page(session, actor=dev, **bad)  # type: ignore[arg-type]


def test_projects_page_shows_a_client_only_their_own_and_staff_without_content_read_nothing(session: Session) -> None:
    tag = _tag()
    casey, other = f.user(session, f"casey_{tag}"), f.user(session, f"other_{tag}")
    f.project(session, casey, f"{tag} Mine")
    f.project(session, other, f"{tag} Theirs")
    mine = projects.list_projects_page(session, actor=casey, search=tag)
    assert [p.name for p in mine.data] == [f"{tag} Mine"]
    hr = _staff(session, EmployeeType.hr)  # no content:read: sees only projects of their own, i.e. none
    assert projects.list_projects_page(session, actor=hr, search=tag).total == 0


def test_project_choices_for_pickers(session: Session) -> None:
    tag = _tag()
    casey, other = f.user(session, f"casey_{tag}"), f.user(session, f"other_{tag}")
    for i in range(3):
        f.project(session, casey, f"{tag} Pick {i}")
    f.project(session, other, f"{tag} Pick other")
    cfo = _staff(session, EmployeeType.cfo)
    picked = projects.project_choices(session, actor=cfo, search=tag, client_id=str(casey.id), limit=2)
    assert picked.total == 3 and [c.name for c in picked.data] == [f"{tag} Pick 0", f"{tag} Pick 1"]
    assert picked.data[0].client_id == str(casey.id)
    with pytest.raises(Forbidden):
        projects.project_choices(session, actor=_staff(session, EmployeeType.hr))


# --- products ----------------------------------------------------------------------------------------------------


def test_products_page_search_sort_and_prices(session: Session) -> None:
    tag = _tag()
    base = utcnow()
    rows = [
        Product(
            name=f"{tag} Product {i}",
            category=ProductCategory.training if i < 2 else ProductCategory.service_package,
            is_active=i != 4,
            created_at=base + timedelta(minutes=i),
        )
        for i in range(5)
    ]
    _add(session, *rows)
    first = int(rows[0].id or 0)
    _add(session, Price(product_id=first, amount="10.00"), Price(product_id=first, amount="5.00", is_active=False))
    cfo = _staff(session, EmployeeType.cfo)  # products:read

    page = products.list_products(session, actor=cfo, search=tag, page_size=2)
    assert (page.total, page.pages) == (5, 3)
    assert [p.name for p in page.data] == [f"{tag} Product 0", f"{tag} Product 1"]
    assert [x.amount for x in page.data[0].prices] == ["5.00", "10.00"]  # every price, staff see them all
    assert products.list_products(session, actor=cfo, search=tag, page=4, page_size=2).data == []
    newest = products.list_products(session, actor=cfo, search=tag, sort="newest", page_size=1)
    assert [p.name for p in newest.data] == [f"{tag} Product 4"]  # inactive ones too
    training = products.list_products(session, actor=cfo, search="training", page_size=100)
    assert {p.name for p in training.data if p.name.startswith(tag)} == {f"{tag} Product 0", f"{tag} Product 1"}
    assert products.list_products(session, actor=cfo, search="service package", page_size=100).total >= 3

    public = products.list_active_products(session, search=tag, page_size=100)
    assert public.total == 4 and all(p.is_active for p in public.data)
    assert [x.amount for x in public.data[0].prices] == ["10.00"]  # only active prices


def test_products_say_who_may_delete_them(session: Session) -> None:
    """`can_delete` is the delete rule, computed once: the actor writes products and the product was never ordered
    (an ordered one is deactivated instead, and its delete is refused)."""
    tag = _tag()
    kept, spare = Product(name=f"{tag} Ordered"), Product(name=f"{tag} Spare")
    _add(session, kept, spare)
    client = f.user(session, f"client_{tag}")
    order = Order(order_number=f"ORD-{tag}", client_id=client.id)
    _add(session, order)
    _add(session, OrderItem(order_id=order.id or 0, product_id=kept.id or 0))
    writer = _staff(session, EmployeeType.product_manager)  # products:write

    flags = {p.name: p.can_delete for p in products.list_products(session, actor=writer, search=tag).data}
    assert flags == {f"{tag} Ordered": False, f"{tag} Spare": True}
    reader = _staff(session, EmployeeType.marketing_lead)  # products:read only: may delete neither
    assert not any(p.can_delete for p in products.list_products(session, actor=reader, search=tag).data)
    with pytest.raises(Invalid):
        products.delete_product(session, actor=writer, product_id=kept.id or 0)
    assert products.update_product(session, actor=writer, product_id=spare.id or 0, data={}).can_delete


def test_products_need_products_read(session: Session) -> None:
    for who in (_staff(session, EmployeeType.developer), f.user(session, f"client_{_tag()}")):
        with pytest.raises(Forbidden):
            products.list_products(session, actor=who)


# --- job applications --------------------------------------------------------------------------------------------


def _application(tag: str, i: int, **kw: object) -> JobApplication:
    fields: dict[str, object] = {
        "first_name": f"Robin{i}",
        "last_name": f"Tester{tag}",
        "email": f"robin{i}.{tag}@example.com",
        "phone": "+1 555 0100",
        "resume_path": "x.pdf",
        "resume_filename": "cv.pdf",
        "resume_content_type": "application/pdf",
        **kw,
    }
    return JobApplication(**fields)  # type: ignore[arg-type]


def test_applications_page_search_filters_and_sort(session: Session) -> None:
    tag = _tag()
    code = f"J{tag[:6]}".upper()
    opening = JobOpening(code=code, title=f"Gardener {tag}", department="Grounds", location="Remote")
    _add(session, opening)
    base = utcnow()
    _add(
        session,
        *[
            _application(
                tag,
                i,
                job_code=code if i < 3 else None,
                job_opening_id=opening.id if i < 3 else None,
                status=ApplicationStatus.reviewing if i == 1 else ApplicationStatus.new,
                created_at=base + timedelta(minutes=i),
            )
            for i in range(5)
        ],
    )
    hr = _staff(session, EmployeeType.hr)

    page = applications.list_applications(session, actor=hr, search=tag, page_size=2)
    assert (page.total, page.pages) == (5, 3)
    assert [a.first_name for a in page.data] == ["Robin4", "Robin3"]  # newest first
    assert applications.list_applications(session, actor=hr, search=tag, page=9, page_size=2).data == []
    oldest = applications.list_applications(session, actor=hr, search=tag, sort="oldest", page_size=1)
    assert [a.first_name for a in oldest.data] == ["Robin0"]
    # Name (also "first last"), e-mail and the job (code or title) are searched; opening and status filter.
    assert applications.list_applications(session, actor=hr, search=f"Robin2 Tester{tag}").total == 1
    assert applications.list_applications(session, actor=hr, search=f"robin3.{tag}@").total == 1
    by_title = applications.list_applications(session, actor=hr, search=f"gardener {tag}")
    assert by_title.total == 3 and {a.job_title for a in by_title.data} == {f"Gardener {tag}"}
    assert applications.list_applications(session, actor=hr, search=tag, job_code=code).total == 3
    reviewing = applications.list_applications(session, actor=hr, search=tag, status="reviewing")
    assert [a.first_name for a in reviewing.data] == ["Robin1"]
    with pytest.raises(Invalid):
        applications.list_applications(session, actor=hr, status="hired")

    choices = applications.opening_choices(session, actor=hr)
    assert OpeningChoice(code=code, label=f"Gardener {tag} ({code})") in choices


def test_applications_need_applications_read(session: Session) -> None:
    for who in (_staff(session, EmployeeType.developer), f.user(session, f"client_{_tag()}")):
        with pytest.raises(Forbidden):
            applications.list_applications(session, actor=who)
        with pytest.raises(Forbidden):
            applications.opening_choices(session, actor=who)
    assert applications.list_applications(session, actor=_admin(session)).page == 1
