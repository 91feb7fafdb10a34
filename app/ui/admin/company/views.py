"""The Company card of Settings: the details visitors, clients and invoices see, in one form."""

from __future__ import annotations

import reflex as rx

from app.ui.admin.common import text_area
from app.ui.admin.company.state import CompanySettingsState
from app.ui.admin.dialog_views import text_field
from app.ui.admin.widgets import BTN_PRIMARY, CARD, INPUT, field

S = CompanySettingsState
TWO_COLUMNS = "grid grid-cols-1 gap-4 sm:grid-cols-2"


def _text(
    label: str, name: str, *, kind: str = "text", hint: str | None = None, required: bool = False
) -> rx.Component:
    value = getattr(S.details, name)
    return text_field(S, label, name, value, id=f"company-{name}", type=kind, hint=hint, required=required)


def _group(title: str, *children: rx.Component) -> rx.Component:
    return rx.el.fieldset(
        rx.el.legend(title, class_name="mb-3 text-sm font-semibold text-slate-900"),
        *children,
        class_name="border-t border-slate-100 pt-5",
    )


def _form() -> rx.Component:
    return rx.el.form(
        _group(
            "Name and contact",
            rx.el.div(
                _text("Company name", "name", required=True),
                _text("Phone", "phone", kind="tel", required=True),
                _text("Main e-mail", "email", kind="email", required=True),
                _text("Sales e-mail", "sales_email", kind="email", required=True),
                rx.el.div(
                    _text("Address", "address", required=True, hint="Printed on invoices and in the footer."),
                    class_name="sm:col-span-2",
                ),
                class_name=TWO_COLUMNS,
            ),
        ),
        _group(
            "Social links",
            rx.el.div(
                _text("LinkedIn", "linkedin_url", kind="url"),
                _text("Twitter", "twitter_url", kind="url"),
                _text("GitHub", "github_url", kind="url"),
                class_name="grid grid-cols-1 gap-4 sm:grid-cols-3",
            ),
            rx.el.p(
                "Full https:// addresses; leave one empty to hide its icon.", class_name="mt-2 text-xs text-slate-500"
            ),
        ),
        _group(
            "Website and calendar",
            rx.el.div(
                field(
                    "Client badges",
                    text_area(
                        "client_badges", id="company-client_badges", default_value=S.details.client_badges, rows=4
                    ),
                    S.form_errors["client_badges"],
                    hint='The home page\'s "Trusted by" names, one per line (at most 8).',
                ),
                field(
                    "Business time zone",
                    rx.el.select(
                        rx.foreach(S.zone_options, lambda z: rx.el.option(z.label, value=z.value)),
                        name="business_timezone",
                        id="company-business_timezone",
                        default_value=S.details.business_timezone,
                        class_name=f"{INPUT} pr-8",
                    ),
                    S.form_errors["business_timezone"],
                    hint="Meeting types' weekly hours and the times in e-mails are read in it.",
                ),
                class_name=TWO_COLUMNS,
            ),
        ),
        _group(
            "Invoices",
            field(
                "Bank transfer instructions",
                text_area(
                    "bank_instructions",
                    id="company-bank_instructions",
                    default_value=S.details.bank_instructions,
                    rows=4,
                ),
                S.form_errors["bank_instructions"],
                hint="Bank, account and reference, as clients should read them: printed on invoices, in invoice and "
                "reminder e-mails and in the client portal. Leave empty to show none.",
            ),
        ),
        rx.cond(
            S.general_error != "",
            rx.el.p(S.general_error, class_name="text-sm text-red-700", role="alert"),
            rx.fragment(),
        ),
        rx.el.div(
            rx.el.button(
                rx.cond(S.saving, "Saving…", "Save Company Settings"),
                type="submit",
                disabled=S.saving,
                class_name=BTN_PRIMARY,
                data_testid="save-company",
            ),
            class_name="flex justify-end",
        ),
        key=S.version,
        on_submit=S.save,
        reset_on_submit=False,
        class_name="mt-4 flex flex-col gap-5",
    )


def company_card() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Company", class_name="text-lg font-semibold text-slate-900"),
        rx.el.p(
            "How the website, e-mails and invoices name and reach the company. Changes apply at once; page titles "
            "and the legal pages take the name on the next restart.",
            class_name="text-sm text-slate-500",
        ),
        rx.cond(
            S.load_error != "",
            rx.el.p(S.load_error, class_name="mt-4 text-sm text-red-700", role="alert"),
            rx.cond(S.loaded, _form(), rx.el.p("Loading…", class_name="mt-4 text-sm text-slate-500")),
        ),
        class_name=f"{CARD} mt-6 p-5 sm:p-6",
        data_testid="company-settings",
    )
