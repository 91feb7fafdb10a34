"""The staff sections' dialogs as they look: a form dialog and a delete confirmation, bound to the section's
`app.ui.admin.dialogs.Dialogs` state by the dialog's name."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.admin.common import confirm_dialog, form_alert
from app.ui.admin.dialogs import shown
from app.ui.admin.widgets import dialog, submit_actions


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
