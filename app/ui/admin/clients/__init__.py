"""Clients (/admin/clients): ClientsState (state.py) and its page content (views.py)."""
