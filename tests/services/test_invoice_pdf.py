"""Invoice PDFs print any client's name: embedded Unicode fonts (DejaVu Sans, a CJK fallback), subset, small."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from sqlmodel import Session, select

from app.models.billing import Invoice, InvoiceItem
from app.services.billing import invoice_pdf
from app.services.platform import company
from tests import factories as f

TYPOGRAPHY = "Zo\u00eb\u2019s \u201caudit\u201d"  # curly quotes, spelled out for the linter
NAMES = ("Zoë Núñez", "Łukasz", "渡辺", "김민준", "Ωμέγα Привет")


def _fonts_embedded(pdf: bytes) -> set[str]:
    # Subset fonts are named "ABCDEF+RealName" in the PDF.
    return {m.decode() for m in re.findall(rb"/BaseFont\s*/[A-Z]{6}\+([A-Za-z-]+)", pdf)}


def _items(s: Session, inv: Invoice) -> list[InvoiceItem]:
    return list(s.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == inv.id).order_by(InvoiceItem.id)))  # type: ignore[arg-type]


def test_names_in_any_script_come_back_exactly(session: Session) -> None:
    client = f.user(session, first_name="Zoë", last_name="Núñez", company="Łukasz & 渡辺 Ωμέγα Привет")
    inv = f.invoice(
        session,
        client,
        items=[
            ("Workshop with Łukasz", 2, "100.00"),
            ("渡辺さんの翻訳 (translation)", 1, "50.00"),
            ("Onboarding for 김민준", 1, "25.00"),
            (TYPOGRAPHY, 1, "1"),
        ],
    )
    pdf = invoice_pdf.render(inv, _items(session, inv), client, company=company.profile(session))
    text = f.pdf_text(pdf)
    for expected in (
        *NAMES,
        "Zoë Núñez",
        "Łukasz & 渡辺 Ωμέγα Привет",
        "Workshop with Łukasz",
        "渡辺さんの翻訳",
        "Onboarding for 김민준",
    ):
        assert expected in text, (expected, text)
    assert TYPOGRAPHY in text  # typography no longer flattened to ASCII
    assert "?" not in text.replace("Questions:", "")
    assert _fonts_embedded(pdf) == {"DejaVuSansBook", "DejaVuSansBold", "DroidSansFallback"}
    # Subsetting keeps the file small although the fonts on disk weigh 4.9 MB.
    assert len(pdf) < 80_000, len(pdf)


def test_latin_only_invoice_does_not_load_the_cjk_font(session: Session) -> None:
    client = f.user(session, first_name="Zoë", last_name="Núñez", company="Łukasz Sp. z o.o.")
    inv = f.invoice(session, client)
    pdf = invoice_pdf.render(inv, _items(session, inv), client, company=company.profile(session))
    assert "Łukasz Sp. z o.o." in f.pdf_text(pdf)
    assert _fonts_embedded(pdf) == {"DejaVuSansBook", "DejaVuSansBold"}
    assert len(pdf) < 50_000, len(pdf)


@pytest.mark.parametrize(
    ("name", "sha256"),
    [
        ("DejaVuSans.ttf", "abdc775b21b1bc470d50c97e790d276f2054b7504e56e5bd3e64f48d68582322"),
        ("DejaVuSans-Bold.ttf", "0d977336a6d5fba34eab8e3199eb218327161b5143749f802982c2bc34df0c96"),
        ("DroidSansFallback.ttf", "56d3edfb377a8bc3c4b77f4476405c770173c0e31221ad7c77d0a8e1f3039a3e"),
    ],
)
def test_shipped_fonts_are_the_pinned_files_with_their_licences(name: str, sha256: str) -> None:
    folder = Path(invoice_pdf.FONTS)
    assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == sha256
    assert (folder / "LICENSE-DejaVu.txt").is_file() and (folder / "LICENSE-DroidSansFallback.txt").is_file()
    assert sha256 in (folder / "README.md").read_text()
