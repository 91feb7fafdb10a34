"""Settings (/admin/settings): the signed-in staff member's account, the company's details for holders of
settings:manage, and the audit log for holders of audit:read. SettingsState (state.py), the page content (views.py)."""
