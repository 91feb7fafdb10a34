"""Reflex configuration, derived from the one Settings object (see app/core/config.py)."""

import reflex as rx
from reflex_base.plugins.tailwind_v4 import TailwindV4Plugin
from reflex_components_radix.plugin import RadixThemesPlugin

from app.core.config import settings
from app.ui.seo import PublicSitemapPlugin

config = rx.Config(
    app_name="app",
    # The site is served on one port; "localhost" makes the browser use whatever host it loaded the page from.
    frontend_port=settings.port,
    backend_port=settings.port,
    api_url=f"http://localhost:{settings.port}",
    deploy_url=settings.public_url,
    # CORS and the websocket accept only the site's own origin (Reflex's default is "*").
    cors_allowed_origins=settings.allowed_origins,
    redis_url=settings.redis_url,
    # No phoning home, no badge; our own Alembic migrations own the database (db_url stays unset on purpose).
    telemetry_enabled=False,
    show_built_with_reflex=False,
    plugins=[
        TailwindV4Plugin(),
        RadixThemesPlugin(theme=rx.theme(appearance="light", accent_color="blue")),
        # Public pages only: the portal, admin and account pages stay out of the sitemap.
        PublicSitemapPlugin(),
    ],
)
