"""A form the browser submits itself, for sign-in and sign-out (a full page load that brings the new cookies)."""

from __future__ import annotations

from typing import Any

from reflex_components_core.el.elements.forms import Form

from app.ui.components.session_watch import session_script


class NativeForm(Form):
    """`Form.create` (behind both `rx.form` and `rx.el.form`) always adds an `on_submit` calling `preventDefault()`;
    skipping it renders a form without a submit handler, which posts natively to its `action`.
    """

    @classmethod
    def create(cls, *children: Any, **props: Any) -> Form:
        if "on_submit" in props:
            raise ValueError("NativeForm posts natively; use rx.form for a handled submit")
        if "action" not in props:
            # app/ui/form_guard.py drops every native submit of a form without one.
            raise ValueError("NativeForm needs an action to post to")
        # Sign-in and sign-out change who the tab is: session-watch.js drops the tab's state token on their post.
        return super(Form, cls).create(*children, session_script(), **props)  # Form.create adds preventDefault


native_form = NativeForm.create
