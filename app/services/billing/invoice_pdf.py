"""Renders an invoice as a PDF (fpdf2): company, client, line items, totals, what has been paid and is due, dates,
status, and how to pay by bank transfer when company settings say."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from pathlib import Path

from fpdf import FPDF
from fpdf.fonts import TTFFont

from app.models.billing import Invoice, InvoiceItem
from app.models.enums import InvoiceStatus
from app.models.user import User
from app.services.platform.company import Company

INK = (15, 23, 42)
MUTED = (100, 116, 139)
ACCENT = (30, 64, 175)
VOID_RED = (220, 38, 38)
VOID = "VOID"

# Unicode TrueType fonts shipped with the code (see fonts/README.md): any client's name prints as written.
FONTS = Path(__file__).parent / "fonts"
FONT = "DejaVu"
CJK_FALLBACK = "DroidFallback"


def _usd(value: Decimal) -> str:
    return f"${value:,.2f}"


def _day(value: date | None) -> str:
    return value.strftime("%B %-d, %Y") if value else "-"


def _fonts(pdf: FPDF, texts: Iterable[str]) -> None:
    """DejaVu Sans for Latin, Greek and Cyrillic; the 3.4 MB CJK font (Chinese, Japanese, Korean) is parsed only
    when some text needs it."""
    pdf.add_font(FONT, "", FONTS / "DejaVuSans.ttf")
    pdf.add_font(FONT, "B", FONTS / "DejaVuSans-Bold.ttf")
    font = pdf.fonts[FONT.lower()]
    covered = font.cmap if isinstance(font, TTFFont) else {}
    if any(ord(ch) not in covered for text in texts for ch in text if not ch.isspace()):
        pdf.add_font(CJK_FALLBACK, "", FONTS / "DroidSansFallback.ttf")
        # exact_match=False: bold DejaVu text falls back to the one (regular) CJK face.
        pdf.set_fallback_fonts([CJK_FALLBACK], exact_match=False)


def render(
    invoice: Invoice, items: list[InvoiceItem], client: User, *, company: Company, paid: Decimal = Decimal("0.00")
) -> bytes:
    """The invoice's PDF; `paid` is what its payments add up to (shown with the balance once anything is paid)."""
    name = " ".join(p for p in (client.first_name, client.last_name) if p) or client.username
    company_lines = (company.address, company.email, company.phone)
    client_lines = [line for line in (name, client.company, client.email, client.phone) if line]
    pdf = FPDF(format="Letter")
    _fonts(
        pdf,
        [
            company.name,
            *company_lines,
            *client_lines,
            invoice.invoice_number,
            invoice.description or "",
            invoice.notes or "",
            company.bank_instructions or "",
            *(item.description for item in items),
        ],
    )
    pdf.set_title(f"Invoice {invoice.invoice_number}")
    pdf.set_author(company.name)
    pdf.set_auto_page_break(auto=True, margin=18)
    pdf.add_page()
    w = pdf.epw

    pdf.set_text_color(*ACCENT)
    pdf.set_font(FONT, "B", 20)
    pdf.cell(w / 2, 10, company.name)
    pdf.set_text_color(*INK)
    pdf.cell(w / 2, 10, "INVOICE", align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 10)
    pdf.set_text_color(*MUTED)
    for line in company_lines:
        pdf.cell(w / 2, 5, line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)

    top = pdf.get_y()
    pdf.set_text_color(*INK)
    pdf.set_font(FONT, "B", 10)
    pdf.cell(w / 2, 6, "Bill to", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 10)
    for line in client_lines:
        pdf.cell(w / 2, 5, line, new_x="LMARGIN", new_y="NEXT")
    bottom = pdf.get_y()
    pdf.set_xy(pdf.l_margin + w / 2, top)
    facts = [
        ("Invoice number", invoice.invoice_number),
        ("Status", str(invoice.status).replace("_", " ").title()),
        ("Issue date", _day(invoice.issue_date or invoice.created_at.date())),
        ("Due date", _day(invoice.due_date)),
    ]
    if invoice.paid_date:
        facts.append(("Paid on", _day(invoice.paid_date)))
    for label, value in facts:
        pdf.set_x(pdf.l_margin + w / 2)
        pdf.set_font(FONT, "", 10)
        pdf.set_text_color(*MUTED)
        pdf.cell(w / 4, 5, label, align="R")
        pdf.set_text_color(*INK)
        pdf.set_font(FONT, "B", 10)
        pdf.cell(w / 4, 5, value, align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.set_y(max(bottom, pdf.get_y()) + 6)
    if invoice.status == InvoiceStatus.void:
        _void_note(pdf, invoice, w)
    if invoice.description:
        pdf.set_font(FONT, "", 10)
        pdf.multi_cell(w, 5, invoice.description, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)

    pdf.set_font(FONT, "B", 10)
    pdf.set_fill_color(241, 245, 249)
    with pdf.table(
        col_widths=(50, 12, 19, 19),
        text_align=("LEFT", "RIGHT", "RIGHT", "RIGHT"),
        line_height=7,
        first_row_as_headings=True,
    ) as table:
        table.row(("Description", "Qty", "Unit price", "Amount"))
        pdf.set_font(FONT, "", 10)
        for item in items:
            table.row((item.description, str(item.quantity), _usd(item.unit_price), _usd(item.amount)))
    pdf.ln(4)

    balance = Decimal("0.00") if invoice.status == InvoiceStatus.paid else max(invoice.total_amount - paid, Decimal(0))
    rows = [
        ("Subtotal", invoice.subtotal, False),
        ("Tax", invoice.tax_amount, False),
        ("Total", invoice.total_amount, True),
    ]
    if invoice.status != InvoiceStatus.draft:
        # Issued: what has been received so far and what is still due, so a partial payment shows on the document.
        rows += [("Amount paid", paid, False), ("Balance due", balance, True)]
    for label, amount, bold in rows:
        pdf.set_font(FONT, "B" if bold else "", 11 if bold else 10)
        pdf.cell(w * 0.75, 6, label, align="R")
        pdf.cell(w * 0.25, 6, _usd(amount), align="R", new_x="LMARGIN", new_y="NEXT")
    if company.bank_instructions and balance > 0:
        pdf.ln(6)
        pdf.set_text_color(*INK)
        pdf.set_font(FONT, "B", 10)
        pdf.cell(w, 6, "How to pay by bank transfer", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(FONT, "", 10)
        pdf.multi_cell(w, 5, company.bank_instructions, new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(*MUTED)
        pdf.set_font(FONT, "", 9)
        pdf.cell(w, 5, f"Please give the invoice number {invoice.invoice_number} as the reference.")
        pdf.set_text_color(*INK)
        pdf.ln(2)
    if invoice.notes:
        pdf.ln(6)
        pdf.set_font(FONT, "", 9)  # muted rather than italic: one face fewer to ship
        pdf.set_text_color(*MUTED)
        pdf.multi_cell(w, 5, invoice.notes)
    pdf.ln(8)
    pdf.set_font(FONT, "", 9)
    pdf.set_text_color(*MUTED)
    pdf.cell(w, 5, f"Thank you for your business. Questions: {company.email}", align="C")
    if invoice.status == InvoiceStatus.void:
        _void_stamp(pdf)
    return bytes(pdf.output())


def _void_note(pdf: FPDF, invoice: Invoice, w: float) -> None:
    """Under the heading: when the invoice was voided and why (ADR 0078)."""
    when = _day(invoice.voided_at.date()) if invoice.voided_at else "-"
    pdf.set_font(FONT, "B", 10)
    pdf.set_text_color(*VOID_RED)
    text = f"VOID since {when}: {invoice.void_reason or 'no reason given'}"
    pdf.multi_cell(w, 5, text, new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*INK)
    pdf.ln(3)


def _void_stamp(pdf: FPDF) -> None:
    """VOID across every page, drawn last so it lies over the figures: a printed copy can never pass for a bill."""
    for number in range(1, pdf.pages_count + 1):
        pdf.page = number
        pdf.set_font(FONT, "B", 110)
        width = pdf.get_string_width(VOID)
        x, y = pdf.w / 2, pdf.h / 2
        with pdf.local_context(fill_opacity=0.22, text_color=VOID_RED), pdf.rotation(35, x=x, y=y):
            pdf.text(x - width / 2, y + 15, VOID)
