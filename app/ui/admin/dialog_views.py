"""The staff sections' dialogs as they look: a form dialog and a delete confirmation, bound to the section's
`app.ui.admin.dialogs.Dialogs` state by the dialog's name, and the form dialogs' fields (a control that starts at the
edited row's value, with the server's error for its name beneath it)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.admin.common import TEXTAREA, confirm_dialog, form_alert, text_area, wide
from app.ui.admin.dialogs import shown
from app.ui.admin.widgets import BTN_PRIMARY, BTN_SECONDARY, dialog, field, select, submit_actions, text_input


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


def _props(value: Any, required: bool) -> dict[str, Any]:
    """A control's starting value (none in a form for a new row) and whether it must be filled."""
    return ({"default_value": value} if value is not None else {}) | ({"required": True} if required else {})


def text_field(
    state: Any,
    label: str,
    name: str,
    value: Any = None,
    *,
    error: str = "",
    hint: str | None = None,
    required: bool = False,
    **props: Any,
) -> rx.Component:
    """A text input (of any `type` in `props`) of `state`'s form dialog, starting at `value`, with the server's error
    for `name` (or for `error`, where the service names the field otherwise)."""
    errors: Any = state.form_errors  # a Var to Reflex, a dict to mypy
    control = text_input(name, **_props(value, required), **props)
    return field(label, control, errors[error or name], hint=hint, required=required)


def number_field(
    state: Any, label: str, name: str, value: Any, low: str, high: str = "", *, step: str = "", **props: Any
) -> rx.Component:
    """A number input of `state`'s form dialog, from `low` (up to `high`, in steps of `step`), as `text_field` is."""
    bounds: dict[str, Any] = {k: v for k, v in (("min", low), ("max", high), ("step", step)) if v}
    return text_field(state, label, name, value, type="number", **bounds, **props)


def select_field(
    state: Any,
    label: str,
    name: str,
    options: list[tuple[str, str]],
    value: Any = None,
    *,
    required: bool = False,
    **props: Any,
) -> rx.Component:
    """A select of fixed `options` (value, label) of `state`'s form dialog, starting at `value`."""
    errors: Any = state.form_errors
    control = select(options, name=name, **_props(value, required), **props)
    return field(label, control, errors[name], required=required)


def area_field(state: Any, label: str, name: str, value: Any, *, rows: int = 3, **props: Any) -> rx.Component:
    """A multi-line text (a description) of `state`'s form dialog, across both columns of its grid."""
    errors: Any = state.form_errors
    return wide(field(label, text_area(name, default_value=value, rows=rows, **props), errors[name]))


def check_field(name: str, label: str, checked: Any, **props: Any) -> rx.Component:
    """A form dialog's checkbox (Active) with its label beside it."""
    return rx.el.label(
        rx.el.input(
            type="checkbox", name=name, default_checked=checked, class_name="h-4 w-4 rounded border-slate-300", **props
        ),
        rx.el.span(label, class_name="text-sm text-slate-700"),
        class_name="flex items-center gap-2",
    )


def close_row(on_close: Any) -> rx.Component:
    """The Close button at the foot of a dialog that only shows (or saves as it goes)."""
    return rx.el.div(
        rx.el.button("Close", type="button", on_click=on_close, class_name=BTN_SECONDARY),
        class_name="mt-4 flex justify-end",
    )
