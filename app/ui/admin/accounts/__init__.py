"""What User Management and Clients share: AccountsMixin and the typed rows (state.py), the dialogs (views.py)."""
