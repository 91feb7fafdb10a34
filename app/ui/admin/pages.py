"""The admin routes: one page per section, all rendered by the same shell and guarded on load."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx

from app.ui.admin.analytics import AnalyticsState, analytics_content
from app.ui.admin.applications import ApplicationsState, applications_content
from app.ui.admin.billing import BillingState, billing_content
from app.ui.admin.clients import ClientsState, clients_content
from app.ui.admin.content import ContentState, content_content
from app.ui.admin.dashboard import DashboardState, dashboard_content
from app.ui.admin.inquiries import InquiriesState, inquiries_content
from app.ui.admin.meetings import MeetingsState, meetings_content
from app.ui.admin.products_page import CatalogueState, products_content
from app.ui.admin.settings import SettingsState, settings_content
from app.ui.admin.shell import admin_shell
from app.ui.admin.state import SECTIONS, AdminState

# section -> (content, the section state's loader); the keys must match state.SECTIONS.
from app.ui.admin.users import UsersState, users_content

SECTION_PAGES: dict[str, tuple[Callable[[], rx.Component], object]] = {
    "dashboard": (dashboard_content, DashboardState.load),
    "users": (users_content, UsersState.load),
    "clients": (clients_content, ClientsState.load),
    "inquiries": (inquiries_content, InquiriesState.load),
    "content": (content_content, ContentState.load),
    "billing": (billing_content, BillingState.load),
    "analytics": (analytics_content, AnalyticsState.load),
    "products": (products_content, CatalogueState.load),
    "meetings": (meetings_content, MeetingsState.load),
    "applications": (applications_content, ApplicationsState.load),
    "settings": (settings_content, SettingsState.load),
}


def register_admin_pages() -> None:
    for key, label, route, _icon in SECTIONS:
        content, loader = SECTION_PAGES[key]

        def render(key: str = key, label: str = label, content: Callable[[], rx.Component] = content) -> rx.Component:
            return admin_shell(key, label, content())

        render.__name__ = f"admin_{key}"
        rx.page(
            route=route,
            title=f"{label} | Staff Dashboard",
            on_load=[AdminState.open_section(key), loader],  # type: ignore[list-item]
        )(render)
