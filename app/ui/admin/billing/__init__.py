"""Billing (/admin/billing): `state.py` holds one page of invoices and the dialogs' data, `views.py` the markup."""
