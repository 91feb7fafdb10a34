"""The Organizations tab: search, the 3-column card grid with its pager, the create/edit dialog and the delete
confirmation."""

from __future__ import annotations

import reflex as rx

from app.models.enums import OrganizationSize
from app.ui.admin.cards import CARD_BOX, card_actions, card_form, card_page, card_title
from app.ui.admin.common import text_area, wide
from app.ui.admin.dialog_views import delete_dialog
from app.ui.admin.organizations.state import SIZE_LABELS, OrganizationListState
from app.ui.admin.pickers import client_picker
from app.ui.admin.widgets import badge, field, select, text_input

S = OrganizationListState


def _card(o: rx.Var) -> rx.Component:
    return rx.el.div(
        card_title(o.name, card_actions(S.can_write, o.name, S.open_edit(o.id), S.ask_delete(o.id, o.name))),
        rx.cond(o.industry != "", badge(o.industry, "blue"), rx.fragment()),
        rx.el.p(o.description, class_name="line-clamp-2 text-sm text-slate-600"),
        rx.cond(
            o.website != "",
            rx.el.a(
                rx.icon("globe", size=14),
                o.website,
                href=o.website,
                target="_blank",
                rel="noopener noreferrer",
                class_name="flex items-center gap-1 truncate text-sm text-blue-600 hover:underline",
            ),
            rx.fragment(),
        ),
        rx.cond(
            o.size != "",
            rx.el.p(o.size_label, " company", class_name="text-xs text-slate-500"),
            rx.fragment(),
        ),
        class_name=CARD_BOX,
        data_testid="organization-card",
    )


def _fields() -> rx.Component:
    e, err = S.edit, S.form_errors
    return rx.el.div(
        field(
            "Name",
            text_input("name", id="org-name", default_value=e.name, required=True),
            err["name"],
            required=True,
        ),
        field("Industry", text_input("industry", id="org-industry", default_value=e.industry), err["industry"]),
        field(
            "Website",
            text_input("website", id="org-website", type="url", default_value=e.website, placeholder="https://"),
            err["website"],
        ),
        field(
            "Size",
            select(
                [("", "Not specified"), *[(s.value, f"{SIZE_LABELS[s.value]}") for s in OrganizationSize]],
                name="size",
                id="org-size",
                default_value=e.size,
            ),
            err["size"],
        ),
        client_picker(
            S,
            select_id="org-contact",
            search_test_id="org-contact-search",
            label="Primary contact",
            blank="None",
            name="primary_contact_id",
            error=err["primary_contact_id"],
        ),
        wide(
            field(
                "Description",
                text_area("description", id="org-description", default_value=e.description, rows=3),
                err["description"],
            )
        ),
        class_name="grid gap-4 sm:grid-cols-2",
    )


def organizations_panel() -> rx.Component:
    dialogs = [card_form(S, _fields()), delete_dialog(S, "Delete Organization")]
    return card_page(
        S, _card, plural="organizations", kind="organizations", create_label="Create Organization", dialogs=dialogs
    )
