"""The client portal at /client-portal (issue 5): a module per tab, composed by dashboard.py, routed by page.py."""
