"""Imports every page module: Reflex compiles only the pages it has seen.

The 404 page is registered in app/app.py (``app.add_page(not_found_page, route="404")``).
"""

from app.ui.site import (  # noqa: F401
    about,
    apply,
    book_meeting,
    careers,
    contact,
    home,
    portfolio,
    privacy,
    services,
    terms,
)
