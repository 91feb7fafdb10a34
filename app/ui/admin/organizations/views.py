"""The Organizations tab: search, the 3-column card grid with its pager, the create/edit dialog and the delete
confirmation."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar

from app.models.enums import OrganizationSize
from app.ui.admin.cards import CARD_BOX, card_actions, card_form, card_page, card_title
from app.ui.admin.dialog_views import area_field, delete_dialog, select_field, text_field
from app.ui.admin.organizations.state import SIZE_LABELS, OrganizationListState, OrganizationRow
from app.ui.admin.pickers import client_picker
from app.ui.admin.widgets import badge, external_link

S = OrganizationListState


def _card(o: ObjectVar[OrganizationRow]) -> rx.Component:
    return rx.el.div(
        card_title(o.name, card_actions(S.can_write, o.name, S.open_edit(o.id), S.ask_delete(o.id, o.name))),
        rx.cond(o.industry != "", badge(o.industry, "blue"), rx.fragment()),
        rx.el.p(o.description, class_name="line-clamp-2 text-sm text-slate-600"),
        rx.cond(
            o.website != "",
            external_link(
                rx.icon("globe", size=14),
                o.website,
                href=o.website,
                class_name="flex items-center gap-1 truncate text-sm text-blue-600 hover:underline",
            ),
            rx.fragment(),
        ),
        rx.cond(
            o.size.value != "",
            rx.el.p(o.size.label, " company", class_name="text-xs text-slate-500"),
            rx.fragment(),
        ),
        class_name=CARD_BOX,
        data_testid="organization-card",
    )


def _fields() -> rx.Component:
    e = S.edit
    sizes = [("", "Not specified"), *[(s.value, f"{SIZE_LABELS[s.value]}") for s in OrganizationSize]]
    return rx.el.div(
        text_field(S, "Name", "name", e.name, id="org-name", required=True),
        text_field(S, "Industry", "industry", e.industry, id="org-industry"),
        text_field(S, "Website", "website", e.website, id="org-website", type="url", placeholder="https://"),
        select_field(S, "Size", "size", sizes, e.size.value, id="org-size"),
        client_picker(
            S,
            select_id="org-contact",
            search_test_id="org-contact-search",
            label="Primary contact",
            blank="None",
            name="primary_contact_id",
            error=S.form_errors["primary_contact_id"],
        ),
        area_field(S, "Description", "description", e.description, id="org-description"),
        class_name="grid gap-4 sm:grid-cols-2",
    )


def organizations_panel() -> rx.Component:
    dialogs = [card_form(S, _fields()), delete_dialog(S, "Delete Organization")]
    return card_page(S, _card, dialogs)
