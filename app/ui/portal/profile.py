"""Profile tab: the client's details, and editing first name, last name, phone and company (e-mail is fixed)."""

from __future__ import annotations

from typing import ClassVar

import reflex as rx

from app.models.user import UserPublic
from app.ui.portal import components as ui
from app.ui.portal.state import PortalState, ProfileFields, field_input

NOT_SET = "Not set"


class ProfileState(ProfileFields, PortalState):
    fields: ClassVar[tuple[str, ...]] = ("first_name", "last_name", "phone", "company")
    editing: bool = False

    @rx.event
    async def start_edit(self) -> None:
        """Fill the form from the stored profile (not from what the browser shows)."""
        if await self._fill_from_account():
            self._clear_errors()
            self.message = ""
            self.editing = True

    @rx.event
    def cancel_edit(self) -> None:
        self.editing = False
        self._clear_errors()

    def _saved(self, user: UserPublic) -> None:
        self.editing = False


def _value(key: str) -> rx.Var:
    value = getattr(PortalState.account, key)
    return rx.cond(value != "", value, NOT_SET)


def _read_view() -> rx.Component:
    return rx.el.div(
        rx.el.dl(
            ui.labelled("First Name", _value("first_name")),
            ui.labelled("Last Name", _value("last_name")),
            ui.labelled("Phone", _value("phone")),
            ui.labelled("Company", _value("company")),
            ui.labelled("Email", _value("email")),
            ui.labelled("Role", rx.el.span(_value("role"), class_name="capitalize")),
            ui.labelled("Member Since", rx.cond(PortalState.member_since != "", PortalState.member_since, NOT_SET)),
            class_name="grid grid-cols-1 gap-4 sm:grid-cols-2",
            data_testid="profile-details",
        ),
        rx.el.div(
            ui.action_button("pencil", "Edit Profile", ProfileState.start_edit, ui.BUTTON_PRIMARY),
        ),
        class_name="flex flex-col gap-6",
    )


# The editable fields: name, label and the input's extra attributes.
_FIELDS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("first_name", "First Name", {"auto_complete": "given-name"}),
    ("last_name", "Last Name", {"auto_complete": "family-name"}),
    ("phone", "Phone", {"type_": "tel", "auto_complete": "tel"}),
    ("company", "Company", {"auto_complete": "organization"}),
)


def _edit_view() -> rx.Component:
    return ui.tab_form(
        rx.el.div(
            *[field_input(ProfileState, name, label, **extra) for name, label, extra in _FIELDS],
            rx.el.div(
                rx.el.label("Email", html_for="portal-email", class_name="text-sm font-medium text-slate-700"),
                rx.el.input(
                    id="portal-email",
                    value=PortalState.account.email,
                    read_only=True,
                    disabled=True,
                    class_name="w-full rounded-md border border-slate-200 bg-slate-100 px-3 py-2 text-sm "
                    "text-slate-600",
                ),
                rx.el.p("Email cannot be changed", class_name="text-xs text-slate-500"),
                class_name="flex flex-col gap-1 sm:col-span-2",
            ),
            class_name="grid grid-cols-1 gap-4 sm:grid-cols-2",
        ),
        ProfileState.error,
        rx.el.div(
            ui.submit_button("Save Changes", "Saving...", ProfileState.saving),
            rx.el.button("Cancel", type="button", on_click=ProfileState.cancel_edit, class_name=ui.BUTTON_SECONDARY),
            class_name="flex flex-wrap gap-3",
        ),
        on_submit=ProfileState.save,
    )


def profile_tab() -> rx.Component:
    return ui.tab_section(
        "Profile Information",
        ui.card(
            ui.success_text(ProfileState.message),
            rx.cond(ProfileState.editing, _edit_view(), _read_view()),
            class_name="flex flex-col gap-4",
        ),
    )
