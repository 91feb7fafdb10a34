"""User Management (/admin/users): UsersState (state.py) and its page content (views.py)."""
