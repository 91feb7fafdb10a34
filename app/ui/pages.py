"""Imports every page module: Reflex compiles only the pages it has seen.

The 404 page is registered in app/app.py (``app.add_page(not_found_page, route="404")``).
"""

from app.ui.admin.pages import register_admin_pages
from app.ui.auth import account, complete_profile, login, password_reset, register, second_step  # noqa: F401
from app.ui.portal import page as portal_page  # noqa: F401  (/client-portal)
from app.ui.site import (  # noqa: F401
    about,
    apply,
    book_meeting,
    booking_confirm,
    booking_manage,
    careers,
    contact,
    home,
    portfolio,
    privacy,
    services,
    terms,
)

# /admin/dashboard, /admin/users, /admin/clients, /admin/inquiries, /admin/settings (one shell, see app/ui/admin).
register_admin_pages()
