"""The admin routes: one page per section, all rendered by the same shell and guarded on load."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx

from app.ui.admin.analytics.state import AnalyticsState
from app.ui.admin.analytics.views import analytics_content
from app.ui.admin.applications.state import ApplicationListState
from app.ui.admin.applications.views import applications_content
from app.ui.admin.billing.state import BillingState
from app.ui.admin.billing.views import billing_content
from app.ui.admin.clients.state import ClientsState
from app.ui.admin.clients.views import clients_content
from app.ui.admin.company.state import CompanySettingsState
from app.ui.admin.content.state import ContentState
from app.ui.admin.content.views import content_content
from app.ui.admin.dashboard.state import DashboardState
from app.ui.admin.dashboard.views import dashboard_content
from app.ui.admin.inquiries.state import InquiriesState
from app.ui.admin.inquiries.views import inquiries_content
from app.ui.admin.meetings.page import LOADERS as MEETINGS_LOADERS
from app.ui.admin.meetings.page import meetings_content
from app.ui.admin.orders.state import OrdersState
from app.ui.admin.orders.views import orders_panel
from app.ui.admin.products.state import ProductCatalogueState
from app.ui.admin.products.views import products_content
from app.ui.admin.settings.state import SettingsState
from app.ui.admin.settings.views import settings_content
from app.ui.admin.shell import admin_shell
from app.ui.admin.state import SECTIONS, AdminState
from app.ui.admin.users.state import UsersState
from app.ui.admin.users.views import users_content

# section -> (content, the section state's loader, or a list of loaders); the keys must match state.SECTIONS.

SECTION_PAGES: dict[str, tuple[Callable[[], rx.Component], object]] = {
    "dashboard": (dashboard_content, DashboardState.load),
    "users": (users_content, UsersState.load),
    "clients": (clients_content, ClientsState.load),
    "inquiries": (inquiries_content, InquiriesState.load),
    "content": (content_content, ContentState.load),
    "billing": (lambda: rx.el.div(billing_content(), orders_panel()), [BillingState.load, OrdersState.load]),
    "analytics": (analytics_content, AnalyticsState.load),
    "products": (products_content, ProductCatalogueState.load),
    "meetings": (meetings_content, MEETINGS_LOADERS),
    "applications": (applications_content, ApplicationListState.load),
    "settings": (settings_content, [SettingsState.load, CompanySettingsState.load]),
}


def register_admin_pages() -> None:
    for key, label, route, _icon in SECTIONS:
        content, loader = SECTION_PAGES[key]
        loaders = loader if isinstance(loader, list) else [loader]

        def render(key: str = key, label: str = label, content: Callable[[], rx.Component] = content) -> rx.Component:
            return admin_shell(key, label, content())

        render.__name__ = f"admin_{key}"
        # Reflex writes a page's memoized components to a module named after the page function's module. All the
        # sections' pages are made here, so without this they all shared one 1.4 MB module (637 KB of script that
        # every staff page loaded, parsed and compiled); named after the section's own views, each page loads its own.
        render.__module__ = content.__module__
        rx.page(
            route=route,
            title=f"{label} | Staff Dashboard",
            on_load=[AdminState.open_section(key), *loaders],
        )(render)
