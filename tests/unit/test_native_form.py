"""Sign-in and sign-out forms must post natively: Reflex's own forms always call preventDefault()."""

from __future__ import annotations

import pytest
import reflex as rx

from app.ui.components.native_form import native_form


def test_native_form_renders_without_a_submit_handler() -> None:
    form = native_form(rx.el.input(name="identifier"), method="post", action="/api/auth/form/login")
    rendered = str(form)
    assert 'action:"/api/auth/form/login"' in rendered and 'method:"post"' in rendered
    assert "onSubmit" not in rendered
    assert not form._get_all_hooks()


def test_reflex_form_without_on_submit_would_still_prevent_the_post() -> None:
    # Why NativeForm exists: if Reflex ever stops doing this, the subclass can go.
    form = rx.el.form(rx.el.input(name="identifier"), method="post", action="/api/auth/form/login")
    assert "onSubmit" in str(form)
    assert any("preventDefault" in hook for hook in form._get_all_hooks())


def test_native_form_refuses_a_handler() -> None:
    with pytest.raises(ValueError, match="natively"):
        native_form(on_submit=rx.console_log("x"))


def test_native_form_must_name_where_it_posts() -> None:
    # app/ui/form_guard.py drops every native submit of a form without an action.
    with pytest.raises(ValueError, match="action"):
        native_form(rx.el.button("Sign in"), method="post")
