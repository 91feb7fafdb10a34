"""Passkey buttons (ADR 0104): each runs its WebAuthn ceremony in `passkeys.js` (wired once per page by
`PasskeyBehaviour`), over the REST routes; a page without scripts simply never reacts to them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import reflex as rx

from app.ui.components.behaviour import Behaviour


class PasskeyBehaviour(Behaviour):
    """Renders nothing; wires every passkey button of the page (`passkeys.js`)."""

    script = Path(__file__).with_name("passkeys.js").read_text(encoding="utf-8")

    def add_hooks(self) -> list[str | rx.Var]:
        return ["useEffect(() => setupPasskeys(), []);"]


def passkey_button(kind: str, label: str, status_id: str, class_name: str, **props: Any) -> rx.Component:
    """A button that runs the `kind` ceremony ("add", "second-step", "sign-in"), and the live region it reports in."""
    return rx.el.div(
        PasskeyBehaviour.create(),
        rx.el.button(
            rx.icon("key-round", size=16, aria_hidden="true"),
            label,
            type="button",
            class_name=class_name,
            custom_attrs={"data-passkey": kind, "data-passkey-status": status_id, **props.pop("data", {})},
            **props,
        ),
        rx.el.p(id=status_id, role="status", aria_live="polite", class_name="mt-2 text-sm text-slate-700"),
    )
