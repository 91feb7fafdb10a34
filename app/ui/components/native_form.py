"""A form the browser submits itself, for sign-in and sign-out (a full page load that brings the new cookies)."""

from __future__ import annotations

from typing import Any

from reflex_components_core.el.elements.forms import Form


class NativeForm(Form):
    """`Form.create` (behind both `rx.form` and `rx.el.form`) always adds an `on_submit` calling `preventDefault()`;
    skipping it renders a form without a submit handler, which posts natively to its `action`.
    """

    @classmethod
    def create(cls, *children: Any, **props: Any) -> Form:
        if "on_submit" in props:
            raise ValueError("NativeForm posts natively; use rx.form for a handled submit")
        return super(Form, cls).create(*children, **props)  # Form.create is what adds preventDefault


native_form = NativeForm.create
