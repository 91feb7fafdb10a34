"""The Reflex app: every page, with the REST API and the security middleware around it."""

import reflex as rx
from reflex_base.registry import RegistrationContext

from app.api import create_api
from app.api.middleware import BodySizeLimit, RequestObservability, SecurityHeaders
from app.core.config import settings
from app.core.error_reports import init_error_reports
from app.core.logs import configure_logging
from app.core.memory import freeze_after_startup
from app.core.migrations import check_schema_at_startup
from app.services.operations.jobs import background_loop
from app.ui import (
    pages,  # noqa: F401  (registers every page)
    routes,
)
from app.ui.components.signed_in_hint import signed_in_hint
from app.ui.form_guard import form_guard
from app.ui.fresh_pages import keep_current, refresh_at_startup
from app.ui.observability import EventObservability
from app.ui.site.not_found import not_found_page
from app.ui.tab_handover import TabHandover


def start_observing() -> None:
    """Each server process (each granian worker) logs in LOG_FORMAT and reports errors if SENTRY_DSN is set (docs/
    deploy.md, "Metrics, logs and alerts"). At start-up, not at import: tests and the build import this module too,
    and must keep their own logging."""
    configure_logging(settings.log_format, settings.log_level)
    init_error_reports(settings)


def add_decorated_pages(app: rx.App) -> None:
    """Add the `@rx.page` pages to the app now, once, and empty Reflex's list of them.

    Reflex 0.10 adds that list's pages at the start of every compile of an App. In prod the `reflex run` process
    compiles the app for the frontend build and then forks the backend workers, which compile the same App again:
    every page was "being redefined with the same component". Added here, later compiles find nothing left to add.
    """
    decorated = RegistrationContext.ensure_context().decorated_pages
    for render, kwargs in decorated:
        app.add_page(render, **kwargs)
    decorated.clear()


app = rx.App(
    # RequestObservability outermost: the request id is set before anything else runs and the time covers it all.
    api_transformer=[create_api(), BodySizeLimit, SecurityHeaders, RequestObservability],
    # Read before the first paint on every page (the inactivity script comes with the signed-in layouts instead);
    # the form guard runs before any form can be submitted.
    head_components=[*signed_in_hint(), form_guard()],
    # Toasts can be dismissed: one that sits over a row's buttons must not block them for its whole duration.
    toaster=rx.toast.provider(close_button=True, position="top-center"),
)
add_decorated_pages(app)
# Every websocket event logs with its tab's request id, and its time is measured (app/ui/observability.py).
app.add_middleware(EventObservability())
# A tab whose cookie now names another session starts empty, before hydrate sends it anything (app/ui/tab_handover.py).
app.add_middleware(TabHandover())
app.add_page(
    not_found_page,
    route=routes.NOT_FOUND,
    title="Page Not Found",
    description="The page you are looking for does not exist.",
    meta=[{"name": "robots", "content": "noindex"}],
)
# First: a plain function, so Reflex calls it before it starts the tasks below, whose lines it then formats.
app.register_lifespan_task(start_observing)
# Outside dev a schema behind the code is reported with the command that fixes it; `reflex run` in dev applies it.
app.register_lifespan_task(check_schema_at_startup)
# The public pages show the served database's content before the server answers, and keep up with it while it runs.
app.register_lifespan_task(refresh_at_startup)
app.register_lifespan_task(keep_current)
# Delivers the mail outbox (and other housekeeping) while the server runs.
app.register_lifespan_task(background_loop)
# Keeps the collector's full passes off the start-up objects, which stalled every tab's events (app/core/memory.py).
app.register_lifespan_task(freeze_after_startup)
