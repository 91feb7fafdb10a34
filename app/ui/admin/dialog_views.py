"""The staff sections' dialogs as they look: a form dialog and a delete confirmation, bound to the section's
`app.ui.admin.dialogs.Dialogs` state by the dialog's name."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.admin.common import TEXTAREA, confirm_dialog, form_alert
from app.ui.admin.dialogs import shown
from app.ui.admin.widgets import BTN_PRIMARY, BTN_SECONDARY, dialog, submit_actions


def form_dialog(
    state: Any,
    name: str,
    title: Any,
    description: Any,
    fields: rx.Component,
    *,
    on_submit: Any,
    failed: str = "Please check the form",
    submit: Any = "Save",
    test_id: str | None = None,
    max_width: str = "32rem",
    danger: bool = False,
    cancel: str = "Cancel",
) -> rx.Component:
    """The dialog `name` of `state`'s section: the form's error (titled `failed`), its fields, Cancel and `submit`."""
    form = rx.el.form(
        form_alert(failed, state.form_error),
        fields,
        submit_actions(state.close_dialog(False), state.saving, submit, test_id=test_id, danger=danger, cancel=cancel),
        on_submit=on_submit,
        reset_on_submit=False,
    )
    return dialog(title, description, form, max_width=max_width, **shown(state, name))


def delete_dialog(state: Any, title: str) -> rx.Component:
    """The spec's confirmation: 'Are you sure you want to delete "{name}"? This action cannot be undone.'"""
    return confirm_dialog(
        title,
        rx.el.span('Are you sure you want to delete "', state.dialog_name, '"? This action cannot be undone.'),
        **shown(state, "delete"),
        on_confirm=state.confirm_delete,
        busy=state.saving,
    )


def notes_form(
    state: Any, label: str, value: Any, textarea_id: str, *, editable: Any = True, placeholder: str | None = None
) -> rx.Component:
    """The staff notes at the foot of a detail dialog: the text, Close, and Save Notes (`state.save_notes`) for those
    who may edit (`editable`, a Var; the handler checks again); for others the text is read-only."""
    save = rx.el.button("Save Notes", type="submit", disabled=state.saving, class_name=BTN_PRIMARY)
    return rx.el.form(
        rx.el.label(
            rx.el.span(label, class_name="mb-1 block text-sm font-medium text-slate-700"),
            rx.el.textarea(
                name="notes",
                id=textarea_id,
                default_value=value,
                rows=3,
                placeholder=placeholder,
                read_only=None if editable is True else ~editable,
                class_name=TEXTAREA,
            ),
            class_name="block",
        ),
        rx.el.div(
            rx.el.button("Close", type="button", on_click=state.close_dialog(False), class_name=BTN_SECONDARY),
            save if editable is True else rx.cond(editable, save, rx.fragment()),
            class_name="mt-3 flex justify-end gap-2",
        ),
        on_submit=state.save_notes,
        reset_on_submit=False,
        class_name="mt-4",
    )
