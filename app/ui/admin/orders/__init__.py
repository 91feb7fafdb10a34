"""Billing's orders and subscriptions panel (/admin/billing, billing:read), below the invoices."""
