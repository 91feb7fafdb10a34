"""The content, products and applications states hold one page, never a whole table, and their handlers refuse
callers without the permission (a browser can send any event with any payload). Products are edited in one place,
Products & Services, with the products permissions (ADR 0090).

The harness is tests/ui/harness.py's: the real state tree, the session cookie in the router's headers, and committed
rows (the handlers' services run in threads over their own connections). Each test tags its rows and searches by the
tag, so rows other tests committed do not count.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from reflex import constants
from reflex.state import State
from sqlmodel import Session, select

from app.models.careers import JobApplication
from app.models.commerce import Price, Product
from app.models.enums import ApplicationStatus, EmployeeType
from app.models.project import Organization, Project
from app.ui.admin.applications.state import ApplicationListState
from app.ui.admin.content.state import ContentState
from app.ui.admin.organizations.state import OrganizationListState
from app.ui.admin.pickers import CLIENT_LIMIT
from app.ui.admin.products.state import ProductCatalogueState
from app.ui.admin.projects.state import ProjectListState
from app.ui.admin.site_editor.state import SiteEditorState
from app.ui.admin.state import AdminState
from app.ui.admin.subscribers.state import SubscriberListState
from tests import factories as f
from tests.ui.harness import call, call_returning, handler_state, new_tag, notice, sign_in, staff

ROWS = 60


def _seed(s: Session, rows: list[object]) -> None:
    s.add_all(rows)
    s.commit()


def _one_page(state: object) -> None:
    rows = state.rows  # type: ignore[attr-defined]
    assert 0 < len(rows) <= state.page_size  # type: ignore[attr-defined]
    assert state.total == ROWS and state.pages == -(-ROWS // state.page_size)  # type: ignore[attr-defined]


def test_organizations_state_holds_one_page(db: Session) -> None:
    tag = new_tag()
    _seed(db, [Organization(name=f"{tag} Org {i:02d}", industry="Retail") for i in range(ROWS)])
    state = handler_state(OrganizationListState, sign_in(db, staff(db, EmployeeType.developer)))
    call(state, "set_search", tag)
    _one_page(state)
    assert [r.name for r in state.rows][:2] == [f"{tag} Org 00", f"{tag} Org 01"]
    call(state, "next_page")
    assert state.page == 2 and state.rows[0].name == f"{tag} Org {state.page_size:02d}"
    call(state, "load")  # the page's loader: back to the first page, the search kept
    assert state.page == 1 and state.total == ROWS


def test_projects_state_holds_one_page(db: Session) -> None:
    tag = new_tag()
    client = f.user(db, f"client_{tag}", first_name="Casey")
    _seed(db, [Project(name=f"{tag} Project {i}", client_id=client.id) for i in range(ROWS)])
    state = handler_state(ProjectListState, sign_in(db, staff(db, EmployeeType.developer)))
    call(state, "set_search", tag)
    _one_page(state)
    assert state.rows[0].client == "Casey" and state.rows[0].progress == 0


def test_products_state_holds_one_page(db: Session) -> None:
    tag = new_tag()
    _seed(db, [Product(name=f"{tag} Product {i:02d}", is_active=i % 2 == 0) for i in range(ROWS)])
    catalogue = handler_state(ProductCatalogueState, sign_in(db, staff(db, EmployeeType.cfo)))  # products:read
    call(catalogue, "set_search", tag)
    _one_page(catalogue)
    # Every product, the inactive ones too: the staff's catalogue is where they are switched back on.
    assert {r.active for r in catalogue.rows} == {True, False}


def test_applications_state_holds_one_page(db: Session) -> None:
    tag = new_tag()
    _seed(
        db,
        [
            JobApplication(
                first_name=f"Robin{i}", last_name=tag, email=f"r{i}.{tag}@example.com", phone="5550100",
                job_code="JOB-001", resume_path="x", resume_filename="cv.pdf", resume_content_type="application/pdf",
            )
            for i in range(ROWS)
        ],
    )  # fmt: skip
    state = handler_state(ApplicationListState, sign_in(db, staff(db, EmployeeType.hr)))
    call(state, "load")
    assert state.total >= ROWS and len(state.rows) <= state.page_size
    assert any(o.value == "JOB-001" for o in state.openings)
    call(state, "set_search", tag)
    _one_page(state)
    call(state, "set_status_filter", "reviewing")
    assert state.total == 0 and state.rows == []


@pytest.mark.parametrize(
    ("cls", "etype"),
    [
        (OrganizationListState, EmployeeType.hr),
        (ProjectListState, EmployeeType.hr),
        (ProductCatalogueState, EmployeeType.hr),
        (ProductCatalogueState, EmployeeType.developer),  # content:read is not products:read
        (ApplicationListState, EmployeeType.developer),
    ],
)
def test_a_crafted_load_without_the_permission_gets_nothing(db: Session, cls: type, etype: EmployeeType) -> None:
    tag = new_tag()
    client = f.user(db, f"client_{tag}")
    _seed(
        db,
        [
            Organization(name=f"{tag} Org"),
            Project(name=f"{tag} Project", client_id=client.id),
            Product(name=f"{tag} Product"),
            JobApplication(
                first_name="Robin", last_name=tag, email=f"r.{tag}@example.com", phone="5550100",
                resume_path="x", resume_filename="cv.pdf", resume_content_type="application/pdf",
            ),
        ],
    )  # fmt: skip
    for token in (sign_in(db, staff(db, etype)), sign_in(db, client), None):
        state = handler_state(cls, token)
        call(state, "set_search", tag)
        call(state, "load")
        call(state, "next_page")
        assert state.rows == [] and state.total == 0


def test_content_writes_through_the_handlers(db: Session) -> None:
    """The positive control, then the same events from a reader: nothing changes."""
    tag = new_tag()
    client = f.user(db, f"client_{tag}")
    writer = sign_in(db, staff(db, EmployeeType.product_manager))  # content:write

    orgs = handler_state(OrganizationListState, writer)
    call(orgs, "open_create")
    assert orgs.dialog == "form" and orgs.form_title == "Create Organization"
    call(orgs, "submit_form", {"name": f"{tag} Dental", "industry": "Healthcare", "size": "small"})
    assert notice(orgs)["title"] == "Organization created successfully" and orgs.dialog == ""
    org = db.exec(select(Organization).where(Organization.name == f"{tag} Dental")).one()

    projects = handler_state(ProjectListState, writer)
    call(projects, "open_create")
    assert len(projects.client_options) <= CLIENT_LIMIT and projects.client_id == ""
    call(projects, "search_clients", client.username)
    assert [c.value for c in projects.client_options] == [str(client.id)]
    assert any(c.value == str(org.id) for c in projects.org_choices)
    call(projects, "add_milestone")
    call(projects, "set_milestone", 0, "title", "Discovery")
    call(projects, "remove_milestone", "not-a-number")  # ignored, not the first row
    form = {"name": f"{tag} Portal", "client_id": str(client.id), "status": "planning"}
    call(projects, "submit_form", {**form, "project_type": "consulting", "organization_id": str(org.id)})
    assert notice(projects)["title"] == "Project created successfully"
    call(projects, "set_search", tag)
    assert [(r.name, r.milestone_count) for r in projects.rows] == [(f"{tag} Portal", 1)]
    call(projects, "open_edit", projects.rows[0].id)
    assert projects.edit.name == f"{tag} Portal" and projects.form_org == str(org.id)
    assert [m.title for m in projects.milestones] == ["Discovery"]
    project_id = projects.rows[0].id

    reader = sign_in(db, staff(db, EmployeeType.developer))  # content:read only
    for cls, target, form in (
        (OrganizationListState, org.id, {"name": "Hijacked"}),
        (ProjectListState, project_id, {"name": "Hijacked", "client_id": str(client.id)}),
    ):
        crafted = handler_state(cls, reader)
        crafted._dialog_key = str(target)
        call(crafted, "submit_form", form)
        assert notice(crafted)["title"] == "Access Restricted"
        call(crafted, "ask_delete", target, "x")
        call(crafted, "confirm_delete")
    db.expire_all()
    assert db.get(Organization, org.id).name == f"{tag} Dental"  # type: ignore[union-attr]
    assert db.get(Project, project_id).name == f"{tag} Portal"  # type: ignore[union-attr]

    call(orgs, "set_search", tag)
    call(orgs, "ask_delete", org.id, org.name)
    call(orgs, "confirm_delete")
    assert notice(orgs)["title"] == "Organization deleted successfully" and orgs.rows == []


def test_products_are_created_edited_priced_and_deleted_in_one_place(db: Session) -> None:
    """Products & Services does all the catalogue's work (ADR 0090): a product's fields, its prices and their switch,
    its deletion; each with products:write, and what the portal offers follows."""
    tag = new_tag()
    state = handler_state(ProductCatalogueState, sign_in(db, staff(db, EmployeeType.product_manager)))
    call(asyncio.run(state.get_state(AdminState)), "open_section", "products")  # the page's guard, then its loader
    call(state, "load")
    assert state.can_write
    call(state, "open_create")
    assert state.dialog == "form" and state.form_title == "Create Product" and state.edit.active is True
    call(state, "submit_form", {"name": f"{tag} Audit", "category": "consultation", "is_active": "on"})
    assert notice(state)["title"] == "Product created successfully" and state.dialog == ""
    call(state, "set_search", tag)
    [row] = state.rows
    assert (row.name, row.category.value, row.active, row.prices, row.offered) == (
        f"{tag} Audit", "consultation", True, [], False
    )  # fmt: skip

    call(state, "open_edit", row.id)
    assert state.form_title == "Edit Product" and state.edit.name == f"{tag} Audit"
    form = {"name": f"{tag} Security Audit", "category": "training", "description": "Two days", "is_active": "on"}
    call(state, "submit_form", form)
    assert notice(state)["title"] == "Product updated successfully"
    call(state, "open_price", row.id, row.name)
    assert state.dialog == "price" and state.dialog_name == f"{tag} Audit"
    call(state, "submit_price", {"amount": "480.50", "billing_period": "one_time"})
    assert notice(state)["title"] == "Price added successfully"
    [row] = state.rows
    assert (row.name, row.category.value, row.description) == (f"{tag} Security Audit", "training", "Two days")
    assert [(x.amount, x.period, x.active) for x in row.prices] == [("$480.50", "One Time", True)] and row.offered

    call(state, "toggle_price", row.prices[0].id, False)
    assert notice(state)["title"] == "Price updated successfully"
    assert not state.rows[0].prices[0].active and not state.rows[0].offered
    assert db.exec(select(Price).where(Price.product_id == row.id)).one().is_active is False

    call(state, "ask_delete", row.id, row.name)
    assert state.dialog == "delete"
    call(state, "confirm_delete")
    assert notice(state)["title"] == "Product deleted successfully" and state.rows == []
    db.expire_all()
    assert db.get(Product, row.id) is None


def test_catalogue_readers_cannot_write_through_the_handlers(db: Session) -> None:
    """A marketing lead reads the catalogue (products:read) and writes content (content:write), not products: every
    write a crafted event attempts is refused and changes nothing."""
    tag = new_tag()
    product = Product(name=f"{tag} Plan")
    _seed(db, [product])
    price = Price(product_id=product.id or 0, amount=100)
    _seed(db, [price])
    state = handler_state(ProductCatalogueState, sign_in(db, staff(db, EmployeeType.marketing_lead)))
    call(asyncio.run(state.get_state(AdminState)), "open_section", "products")
    call(state, "set_search", tag)
    assert [r.name for r in state.rows] == [f"{tag} Plan"] and not state.can_write and not state.rows[0].can_delete
    call(state, "open_edit", product.id)
    call(state, "open_price", product.id, "x")
    call(state, "ask_delete", product.id, "x")
    assert state.dialog == ""
    state._dialog_key = str(product.id)
    call(state, "submit_form", {"name": "Hijacked"})
    assert notice(state)["title"] == "Access Restricted"
    call(state, "submit_price", {"amount": "1", "billing_period": "monthly"})
    call(state, "toggle_price", price.id, False)
    call(state, "confirm_delete")
    db.expire_all()
    assert db.get(Product, product.id).name == f"{tag} Plan"  # type: ignore[union-attr]
    assert [(x.amount, x.is_active) for x in db.exec(select(Price).where(Price.product_id == product.id))] == [
        (100, True)
    ]


def test_applications_move_only_for_writers(db: Session) -> None:
    tag = new_tag()
    application = JobApplication(
        first_name="Robin", last_name=tag, email=f"r.{tag}@example.com", phone="5550100",
        resume_path="x", resume_filename="cv.pdf", resume_content_type="application/pdf",
    )  # fmt: skip
    _seed(db, [application])
    for etype in (EmployeeType.developer, EmployeeType.coo):  # coo reads applications but may not process them
        crafted = handler_state(ApplicationListState, sign_in(db, staff(db, etype)))
        crafted._dialog_key = str(application.id)
        call(crafted, "move_to", "reviewing")
    db.expire_all()
    assert db.get(JobApplication, application.id).status == ApplicationStatus.new  # type: ignore[union-attr]

    hr = handler_state(ApplicationListState, sign_in(db, staff(db, EmployeeType.hr)))
    call(hr, "set_search", tag)
    call(hr, "open_detail", hr.rows[0].id)
    call(hr, "move_to", "reviewing")
    assert notice(hr)["title"] == "Application updated successfully" and hr.detail.status.value == "reviewing"
    assert hr.rows[0].status.label == "Reviewing"


def test_the_content_page_loads_only_the_tab_shown(db: Session) -> None:
    state = handler_state(ContentState, sign_in(db, staff(db, EmployeeType.developer)))
    assert call_returning(state, "load") == OrganizationListState.load
    assert call_returning(state, "set_tab", "projects") == ProjectListState.show
    assert call_returning(state, "set_tab", "nonsense") == OrganizationListState.show
    assert state.tab == "organizations"
    assert call_returning(state, "set_tab", "products") == OrganizationListState.show  # no Products tab any more


def _content_at(token: str, url: str) -> Any:
    """The Content page's state in a tab whose address is `url` (its query is what the loader reads)."""
    root = State(_reflex_internal_init=True)
    headers = {"cookie": f"access_token={token}"}
    root._update_router_vars(
        {
            constants.RouteVar.HEADERS: headers,
            constants.RouteVar.PATH: "/admin/content",
            constants.RouteVar.ORIGIN: url,
        },
        {},
    )
    return root.get_substate(ContentState.get_full_name().split("."))


def test_the_content_page_opens_the_tab_its_address_names(db: Session) -> None:
    token = sign_in(db, staff(db, EmployeeType.developer))
    state = _content_at(token, "/admin/content?tab=site")
    assert call_returning(state, "load") == SiteEditorState.load and state.tab == "site"
    state = _content_at(token, "/admin/content?tab=newsletter")
    assert call_returning(state, "load") == SubscriberListState.load and state.tab == "newsletter"
    # The old Products tab's address leads to the one place products are edited.
    state = _content_at(token, "/admin/content?tab=products")
    redirect = call_returning(state, "load")
    assert "/admin/products" in str(redirect.args) and state.tab == "organizations"


def test_a_dialog_opened_before_the_tabs_loader_runs_stays_open(db: Session) -> None:
    """The tab's loader is a chained event: a click queued before it (CI caught "Create" being clicked that early)
    runs first, and the loader must not close the dialog it opened. The switch itself closes what was left open."""
    state = handler_state(ContentState, sign_in(db, staff(db, None)))
    orgs = asyncio.run(state.get_state(OrganizationListState))
    call(orgs, "open_create")
    assert orgs.dialog == "form"
    loader = call_returning(state, "set_tab", "organizations")  # a dialog left open: the switch closes it
    assert loader == OrganizationListState.show and orgs.dialog == ""
    call(orgs, "open_create")  # the user's click, queued before the chained loader
    call(orgs, "show")
    assert orgs.dialog == "form"
    call_returning(state, "load")
    assert orgs.dialog == ""
    call(orgs, "open_create")
    call(orgs, "load")
    assert orgs.dialog == "form"
