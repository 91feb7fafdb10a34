"""Billing (/admin/billing, billing:read): invoices with their status, the create dialog with line items, issuing,
recording payments, the PDF and deleting drafts (billing:write). Totals are shown live but computed by the server."""

from __future__ import annotations

import uuid
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.services import billing, invoices, projects
from app.ui.admin.common import (
    INPUT_INLINE,
    TEXTAREA,
    confirm_dialog,
    day_text,
    dollars,
    error_panel,
    form_alert,
    form_text,
    holds,
    label_of,
    load_clients,
    loading_text,
    search_input,
)
from app.ui.admin.state import AdminState, as_actor, error_text
from app.ui.admin.widgets import (
    BTN_PRIMARY,
    BTN_SECONDARY,
    CARD,
    ICON_BTN,
    INPUT,
    TD,
    TH,
    badge_by,
    dialog,
    empty_row,
    field,
    page_header,
    select,
    submit_actions,
    text_input,
)

FEATURE = "Billing"
STATUS_COLORS = {"draft": "grey", "pending": "yellow", "paid": "green"}
STATUS_LABELS = {"draft": "Draft", "pending": "Issued", "paid": "Paid"}
STATUS_FILTERS = [("", "All Statuses"), ("draft", "Draft"), ("pending", "Issued (unpaid)"), ("paid", "Paid")]
CENT = Decimal("0.01")


def _dec(value: Any) -> Decimal:
    try:
        return Decimal(str(value or "0").strip() or "0")
    except InvalidOperation:
        return Decimal("0")


def invoice_row(i: dict[str, Any], clients: dict[str, str]) -> dict[str, str]:
    return {
        "id": str(i["id"]),
        "number": i["invoice_number"],
        "client": clients.get(i["client_id"], "—"),
        "status": i["status"],
        "status_label": STATUS_LABELS.get(i["status"], label_of(i["status"])),
        "description": i.get("description") or "",
        "total": dollars(i["total_amount"]),
        "issue_date": day_text(i.get("issue_date")) or "—",
        "due_date": day_text(i.get("due_date")) or "—",
        "paid_date": day_text(i.get("paid_date")) or "",
        "pdf": f"/api/protected/invoices/{i['id']}/download",
    }


def _new_line() -> dict[str, str]:
    return {"key": uuid.uuid4().hex, "description": "", "quantity": "1", "unit_price": ""}


class BillingState(AdminState):
    rows: list[dict[str, str]] = []
    search: str = ""
    status_filter: str = ""
    loading: bool = False
    load_error: str = ""
    clients: list[dict[str, str]] = []
    _projects: list[dict[str, str]] = []

    create_open: bool = False
    inv_client: str = ""
    lines: list[dict[str, str]] = []
    tax_rate: str = "0"
    form_error: str = ""
    form_errors: dict[str, str] = {}
    saving: bool = False

    pay_open: bool = False
    pay_number: str = ""
    _pay_id: int = 0
    delete_open: bool = False
    delete_name: str = ""
    _delete_id: int = 0

    async def _reload(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.billing_read, FEATURE, quiet=quiet)
        if actor is None:
            self.rows = []
            return
        self.loading = True
        if not self.clients:
            self.clients = await load_clients(actor)
        names = {c["id"]: c["name"] for c in self.clients}
        try:
            data = await as_actor(actor, lambda s, a: invoices.list_invoices(s, actor=a))
            self.load_error = ""
        except Exception as exc:
            data = []
            self.load_error = error_text(exc, "There was an error loading the invoices.")
        self.rows = [invoice_row(i, names) for i in data]
        self.loading = False

    @rx.event
    async def load(self) -> None:
        self.create_open = self.pay_open = self.delete_open = False
        self.clients = []
        await self._reload(quiet=True)

    @rx.event
    async def retry(self) -> None:
        await self._reload()

    @rx.event
    def set_search(self, value: str) -> None:
        self.search = str(value)[:100]

    @rx.event
    def set_status_filter(self, value: str) -> None:
        self.status_filter = value if value in STATUS_LABELS else ""

    @rx.var
    def shown(self) -> list[dict[str, str]]:
        needle = self.search.strip().lower()
        return [
            r
            for r in self.rows
            if (not self.status_filter or r["status"] == self.status_filter)
            and (not needle or needle in r["number"].lower() or needle in r["client"].lower())
        ]

    @rx.var
    def can_write(self) -> bool:
        return holds(self.user, Perm.billing_write)

    # --- create ----------------------------------------------------------------------------------------------

    @rx.event
    async def open_create(self) -> None:
        actor = await self._actor(Perm.billing_write, FEATURE)
        if actor is None:
            return
        try:
            rows = await as_actor(actor, lambda s, a: projects.list_projects(s, actor=a))
        except Exception:
            rows = []  # without content:read the invoice simply has no project
        self._projects = [{"id": str(p["id"]), "name": str(p["name"]), "client_id": str(p["client_id"])} for p in rows]
        self.inv_client = ""
        self.lines = [_new_line(), _new_line()]
        self.tax_rate = "0"
        self.form_error, self.form_errors = "", {}
        self.create_open = True

    @rx.event
    def set_create_open(self, value: bool) -> None:
        self.create_open = bool(value) and self.create_open

    @rx.event
    def set_inv_client(self, value: str) -> None:
        self.inv_client = str(value)

    @rx.event
    def set_tax_rate(self, value: str) -> None:
        self.tax_rate = str(value)[:10]

    @rx.event
    def add_line(self) -> None:
        if len(self.lines) < 100:
            self.lines = [*self.lines, _new_line()]

    @rx.event
    def remove_line(self, index: int) -> None:
        self.lines = [x for i, x in enumerate(self.lines) if i != int(index)]

    @rx.event
    def set_line(self, index: int, key: str, value: str) -> None:
        i = int(index)
        if key in ("description", "quantity", "unit_price") and 0 <= i < len(self.lines):
            items = [dict(x) for x in self.lines]
            items[i][key] = str(value)[:500]
            self.lines = items

    @rx.var
    def project_options(self) -> list[dict[str, str]]:
        return [p for p in self._projects if p["client_id"] == self.inv_client]

    @rx.var
    def preview(self) -> dict[str, str]:
        """An estimate for the form; the saved invoice's figures are the server's."""
        subtotal = sum((_dec(x["quantity"]) * _dec(x["unit_price"]) for x in self.lines), Decimal("0"))
        subtotal = subtotal.quantize(CENT, ROUND_HALF_UP)
        tax = (subtotal * _dec(self.tax_rate) / 100).quantize(CENT, ROUND_HALF_UP)
        return {"subtotal": dollars(subtotal), "tax": dollars(tax), "total": dollars(subtotal + tax)}

    @rx.event
    async def submit_create(self, form: dict[str, Any]) -> None:
        actor = await self._actor(Perm.billing_write, FEATURE)
        if actor is None:
            return
        data = {
            "client_id": form_text(form, "client_id"),
            "project_id": form_text(form, "project_id") or None,
            "description": form_text(form, "description", 500),
            "due_date": form_text(form, "due_date") or None,
            "notes": form_text(form, "notes", 5000),
            "tax_rate": self.tax_rate.strip() or "0",
            "items": [
                {"description": x["description"], "quantity": x["quantity"], "unit_price": x["unit_price"]}
                for x in self.lines
                if x["description"].strip() or x["unit_price"].strip()
            ],
        }
        ok, dto = await self._save(
            actor, lambda s, a: billing.create_invoice(s, actor=a, data=data), "Failed to create invoice", toast=False
        )
        if not ok or dto is None:
            return
        self.create_open = False
        self._notify("success", "Invoice created successfully", f"{dto['invoice_number']} is a draft until issued.")
        await self._reload()

    # --- actions ---------------------------------------------------------------------------------------------

    async def _act(self, title: str, fn: Any, ok: str) -> bool:
        actor = await self._actor(Perm.billing_write, FEATURE)
        if actor is None:
            return False
        done, _ = await self._save(actor, fn, title)
        if not done:
            return False
        self._notify("success", ok)
        await self._reload()
        return True

    @rx.event
    async def issue(self, invoice_id: str) -> None:
        iid = int(invoice_id)
        await self._act(
            "Failed to issue invoice",
            lambda s, a: billing.issue_invoice(s, actor=a, invoice_id=iid),
            "Invoice issued; the client has been notified",
        )

    @rx.event
    def open_pay(self, invoice_id: str, number: str) -> None:
        self._pay_id, self.pay_number = int(invoice_id), str(number)
        self.form_error, self.form_errors = "", {}
        self.pay_open = True

    @rx.event
    def set_pay_open(self, value: bool) -> None:
        self.pay_open = bool(value) and self.pay_open

    @rx.event
    async def submit_pay(self, form: dict[str, Any]) -> None:
        iid = self._pay_id
        amount, method, paid_on = form_text(form, "amount"), form_text(form, "method", 50), form_text(form, "paid_on")
        if await self._act(
            "Failed to record payment",
            lambda s, a: billing.record_payment(
                s, actor=a, invoice_id=iid, amount=amount or None, method=method, paid_on=paid_on or None
            ),
            "Payment recorded",
        ):
            self.pay_open = False

    @rx.event
    def ask_delete(self, invoice_id: str, number: str) -> None:
        self._delete_id, self.delete_name = int(invoice_id), str(number)
        self.delete_open = True

    @rx.event
    def set_delete_open(self, value: bool) -> None:
        self.delete_open = bool(value) and self.delete_open

    @rx.event
    async def confirm_delete(self) -> None:
        iid = self._delete_id
        await self._act(
            "Failed to delete invoice",
            lambda s, a: billing.delete_draft(s, actor=a, invoice_id=iid),
            "Invoice deleted successfully",
        )
        self.delete_open = False


# --- UI ----------------------------------------------------------------------------------------------------------

S = BillingState


def _actions(r: rx.Var) -> rx.Component:
    return rx.el.div(
        rx.cond(
            r["status"] != "draft",
            rx.el.a(
                rx.icon("file-down", size=16),
                href=r["pdf"],
                title="Download PDF",
                aria_label=f"Download {r['number']} as PDF",
                class_name=ICON_BTN,
                data_testid="invoice-pdf",
            ),
            rx.fragment(),
        ),
        rx.cond(
            S.can_write,
            rx.fragment(
                rx.cond(
                    r["status"] == "draft",
                    rx.fragment(
                        rx.el.button(
                            "Issue",
                            on_click=S.issue(r["id"]),
                            disabled=S.saving,
                            class_name=f"{BTN_SECONDARY} !px-2.5 !py-1",
                            data_testid="invoice-issue",
                        ),
                        rx.el.button(
                            rx.icon("trash-2", size=16),
                            on_click=S.ask_delete(r["id"], r["number"]),
                            title="Delete draft",
                            aria_label=f"Delete {r['number']}",
                            class_name=ICON_BTN,
                        ),
                    ),
                    rx.fragment(),
                ),
                rx.cond(
                    r["status"] == "pending",
                    rx.el.button(
                        "Record payment",
                        on_click=S.open_pay(r["id"], r["number"]),
                        class_name=f"{BTN_SECONDARY} !px-2.5 !py-1",
                        data_testid="invoice-pay",
                    ),
                    rx.fragment(),
                ),
            ),
            rx.fragment(),
        ),
        class_name="flex items-center justify-end gap-1.5",
    )


def _row(r: rx.Var) -> rx.Component:
    return rx.el.tr(
        rx.el.td(
            rx.el.p(r["number"], class_name="font-medium text-slate-900 whitespace-nowrap"),
            rx.el.p(r["client"], class_name="text-xs text-slate-500 md:hidden"),
            rx.el.p(r["description"], class_name="line-clamp-1 text-xs text-slate-500"),
            class_name=TD,
        ),
        rx.el.td(r["client"], class_name=f"{TD} hidden md:table-cell"),
        rx.el.td(badge_by(r["status"], STATUS_COLORS, r["status_label"], data_testid="invoice-status"), class_name=TD),
        rx.el.td(r["total"], class_name=f"{TD} whitespace-nowrap text-right font-medium"),
        rx.el.td(r["issue_date"], class_name=f"{TD} hidden lg:table-cell whitespace-nowrap"),
        rx.el.td(r["due_date"], class_name=f"{TD} hidden lg:table-cell whitespace-nowrap"),
        rx.el.td(
            rx.cond(r["paid_date"] != "", r["paid_date"], "—"),
            class_name=f"{TD} hidden xl:table-cell whitespace-nowrap",
        ),
        rx.el.td(_actions(r), class_name=TD),
        class_name="border-t border-slate-100 hover:bg-slate-50/60",
        data_testid="invoice-row",
    )


def _table() -> rx.Component:
    headers = [
        ("Invoice", ""),
        ("Client", "hidden md:table-cell"),
        ("Status", ""),
        ("Total", "text-right"),
        ("Issued", "hidden lg:table-cell"),
        ("Due", "hidden lg:table-cell"),
        ("Paid", "hidden xl:table-cell"),
    ]
    return rx.el.div(
        rx.el.div(
            rx.el.table(
                rx.el.thead(
                    rx.el.tr(
                        *[rx.el.th(t, class_name=f"{TH} {extra}") for t, extra in headers],
                        rx.el.th(rx.el.span("Actions", class_name="sr-only"), class_name=TH),
                    ),
                    class_name="bg-slate-50",
                ),
                rx.el.tbody(
                    rx.cond(
                        S.shown.length() > 0,
                        rx.foreach(S.shown, _row),
                        empty_row(
                            8,
                            rx.cond(
                                (S.search != "") | (S.status_filter != ""),
                                "No invoices found matching your search.",
                                "No invoices found.",
                            ),
                        ),
                    )
                ),
                class_name="min-w-full",
            ),
            class_name="overflow-x-auto",
        ),
        class_name=f"{CARD} overflow-hidden",
    )


def _line_row(x: rx.Var, i: rx.Var) -> rx.Component:
    return rx.el.div(
        rx.el.input(
            default_value=x["description"],
            placeholder="Description",
            aria_label="Line description",
            on_change=lambda v: S.set_line(i, "description", v),
            class_name=f"{INPUT_INLINE} w-full sm:w-auto sm:flex-1",
            data_testid="line-description",
        ),
        rx.el.div(
            rx.el.input(
                type="number",
                min="1",
                step="1",
                default_value=x["quantity"],
                aria_label="Quantity",
                on_change=lambda v: S.set_line(i, "quantity", v),
                class_name=f"{INPUT_INLINE} w-20",
                data_testid="line-quantity",
            ),
            rx.el.input(
                type="number",
                min="0",
                step="0.01",
                default_value=x["unit_price"],
                placeholder="Unit price",
                aria_label="Unit price",
                on_change=lambda v: S.set_line(i, "unit_price", v),
                class_name=f"{INPUT_INLINE} w-32",
                data_testid="line-price",
            ),
            rx.el.button(
                rx.icon("x", size=14),
                type="button",
                on_click=S.remove_line(i),
                aria_label="Remove line",
                class_name=ICON_BTN,
            ),
            class_name="flex items-center gap-2",
        ),
        key=x["key"],
        class_name="flex flex-col gap-2 sm:flex-row sm:items-center",
        data_testid="line-row",
    )


def _create_dialog() -> rx.Component:
    err = S.form_errors
    p = S.preview
    form = rx.el.form(
        form_alert("Failed to create invoice", S.form_error),
        rx.el.div(
            field(
                "Client",
                rx.el.select(
                    rx.el.option("Choose a client", value="", disabled=True),
                    rx.foreach(S.clients, lambda c: rx.el.option(c["label"], value=c["id"])),
                    name="client_id",
                    id="invoice-client",
                    value=S.inv_client,
                    on_change=S.set_inv_client,
                    required=True,
                    class_name=f"{INPUT} pr-8",
                ),
                err["client_id"],
                required=True,
            ),
            field(
                "Project (optional)",
                rx.el.select(
                    rx.el.option("No project", value=""),
                    rx.foreach(S.project_options, lambda o: rx.el.option(o["name"], value=o["id"])),
                    name="project_id",
                    id="invoice-project",
                    key=S.inv_client,
                    class_name=f"{INPUT} pr-8",
                ),
                err["project_id"],
            ),
            rx.el.div(
                field("Description", text_input("description", id="invoice-description"), err["description"]),
                class_name="sm:col-span-2",
            ),
            field("Due date", text_input("due_date", id="invoice-due", type="date", min="1900-01-01"), err["due_date"]),
            field(
                "Tax rate (%)",
                rx.el.input(
                    type="number",
                    min="0",
                    max="100",
                    step="0.01",
                    name="tax_rate",
                    id="invoice-tax",
                    default_value=S.tax_rate,
                    on_change=S.set_tax_rate,
                    class_name=INPUT,
                ),
                err["tax_rate"],
            ),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        rx.el.fieldset(
            rx.el.legend("Line items", class_name="mb-2 text-sm font-medium text-slate-700"),
            rx.el.div(rx.foreach(S.lines, _line_row), class_name="flex flex-col gap-2"),
            rx.cond(err["items"], rx.el.p(err["items"], class_name="mt-1 text-xs text-red-600"), rx.fragment()),
            rx.el.button(
                rx.icon("plus", size=14),
                "Add line",
                type="button",
                on_click=S.add_line,
                class_name=f"{BTN_SECONDARY} mt-2",
            ),
            class_name="mt-4",
        ),
        rx.el.dl(
            rx.el.div(rx.el.dt("Subtotal"), rx.el.dd(p["subtotal"]), class_name="flex justify-between"),
            rx.el.div(rx.el.dt("Tax"), rx.el.dd(p["tax"]), class_name="flex justify-between"),
            rx.el.div(
                rx.el.dt("Total"),
                rx.el.dd(p["total"], data_testid="invoice-preview-total"),
                class_name="flex justify-between font-semibold text-slate-900",
            ),
            rx.el.p("Estimate: the server computes the saved amounts.", class_name="text-xs text-slate-500"),
            class_name="mt-4 space-y-1 rounded-lg bg-slate-50 p-3 text-sm text-slate-700",
        ),
        rx.el.div(
            field("Notes", rx.el.textarea(name="notes", id="invoice-notes", rows=2, class_name=TEXTAREA), err["notes"]),
            class_name="mt-4",
        ),
        submit_actions(S.set_create_open(False), S.saving, "Create draft", test_id="invoice-save"),
        on_submit=S.submit_create,
        reset_on_submit=False,
    )
    return dialog(
        "Create Invoice",
        "A draft gets the next invoice number; the client sees it once it is issued.",
        form,
        open=S.create_open,
        on_open_change=S.set_create_open,
        max_width="46rem",
    )


def _pay_dialog() -> rx.Component:
    err = S.form_errors
    form = rx.el.form(
        form_alert("Failed to record payment", S.form_error),
        rx.el.div(
            field(
                "Amount (USD)",
                text_input("amount", id="pay-amount", type="number", step="0.01", min="0.01"),
                err["amount"],
                hint="Leave empty for the whole outstanding amount.",
            ),
            field("Method", text_input("method", id="pay-method", placeholder="Bank transfer")),
            field("Payment date", text_input("paid_on", id="pay-date", type="date", min="1900-01-01"), err["paid_on"]),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        submit_actions(S.set_pay_open(False), S.saving, "Record payment"),
        on_submit=S.submit_pay,
        reset_on_submit=False,
    )
    return dialog(
        "Record Payment",
        rx.el.span("A payment on ", rx.el.strong(S.pay_number), "."),
        form,
        open=S.pay_open,
        on_open_change=S.set_pay_open,
    )


def billing_content() -> rx.Component:
    return rx.el.div(
        page_header(
            "Billing",
            "Invoices for clients: drafts, issued and paid.",
            rx.cond(
                S.can_write,
                rx.el.button(
                    rx.icon("plus", size=16),
                    "Create Invoice",
                    on_click=S.open_create,
                    class_name=BTN_PRIMARY,
                    data_testid="create-invoice",
                ),
                rx.fragment(),
            ),
        ),
        rx.el.div(
            search_input(S.search, S.set_search, "Search invoices…"),
            rx.el.div(
                select(STATUS_FILTERS, value=S.status_filter, on_change=S.set_status_filter, aria_label="Status"),
                class_name="w-full sm:w-48",
            ),
            class_name="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center",
        ),
        rx.cond(
            S.load_error != "",
            error_panel("Failed to load invoices", "There was an error loading the invoices.", S.retry),
            rx.cond(S.loading & (S.rows.length() == 0), loading_text("Loading invoices…"), _table()),
        ),
        _create_dialog(),
        _pay_dialog(),
        confirm_dialog(
            "Delete Draft Invoice",
            rx.el.span('Are you sure you want to delete "', S.delete_name, '"? This action cannot be undone.'),
            open=S.delete_open,
            on_open_change=S.set_delete_open,
            on_confirm=S.confirm_delete,
            busy=S.saving,
        ),
    )
