"""Dashboard home (/admin/dashboard): welcome, the figures the user may see, system status, role, quick actions.
DashboardState and its rows (state.py), the page content (views.py)."""
