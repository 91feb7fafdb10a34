"""The Reflex app: every page, with the REST API and the security middleware around it."""

import reflex as rx

from app.api import create_api
from app.api.middleware import BodySizeLimit, SecurityHeaders
from app.services.jobs import background_loop
from app.ui import pages  # noqa: F401  (registers every page)
from app.ui.site.not_found import not_found_page

app = rx.App(
    api_transformer=[create_api(), BodySizeLimit, SecurityHeaders],
    # The browser side of the inactivity rules, as a static file.
    head_components=[rx.el.script(src="/session-watch.js", defer=True)],
    # Toasts can be dismissed: one that sits over a row's buttons must not block them for its whole duration.
    toaster=rx.toast.provider(close_button=True),
)
app.add_page(
    not_found_page,
    route="404",
    title="Page Not Found",
    description="The page you are looking for does not exist.",
    meta=[{"name": "robots", "content": "noindex"}],
)
# Delivers the mail outbox (and other housekeeping) while the server runs.
app.register_lifespan_task(background_loop)
