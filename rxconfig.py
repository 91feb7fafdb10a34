"""Reflex configuration, derived from the one Settings object (see app/core/config.py)."""

import os

import reflex as rx

from app.core.config import settings
from app.ui.dev_proxy import DevBackendProxyPlugin
from app.ui.fresh_pages import ContentStampPlugin
from app.ui.page_weight import PageWeightPlugin
from app.ui.portal.colours import BADGE_COLOURS
from app.ui.radix_styles import RadixThemesParts, TailwindV4WithoutRadix
from app.ui.seo import PublicSitemapPlugin

# A backend-only process (the app processes behind nginx, tools/reliability/cluster.py) serves no pages, and Reflex
# refuses to start one that has a frontend port.
BACKEND_ONLY = os.environ.get("REFLEX_BACKEND_ONLY", "").lower() in ("1", "true", "yes")
# The theme's colours (slate is blue's natural gray, what "auto" chose before it was named here).
ACCENT, GRAY = "blue", "slate"

config = rx.Config(
    app_name="app",
    # Pages on PORT. The backend's port and `api_url` are left to the command line: `make run` (prod) and
    # `make preview` serve the backend on the same port, plain `reflex run` (dev) on its own (8000 by default), and
    # Reflex points the websocket there as http://localhost:N, which the browser reads as the page's own host.
    frontend_port=None if BACKEND_ONLY else settings.port,
    deploy_url=settings.public_url,
    # CORS and the websocket accept only the site's own origin (Reflex's default is "*").
    cors_allowed_origins=settings.allowed_origins,
    redis_url=settings.redis_url,
    # The websocket's client address behind reverse proxies: the same rule as the API's (app.core.net).
    trusted_proxy_hops=settings.trusted_proxy_hops,
    # No phoning home, no badge; our own Alembic migrations own the database (db_url stays unset on purpose).
    telemetry_enabled=False,
    # Scripts, styles and pages are compressed once at build time and served as they are (brotli where the browser
    # takes it, else gzip), never compressed per request.
    frontend_compression_formats=["brotli", "gzip"],
    show_built_with_reflex=False,
    # No page builds components at run time (rx.dynamic), so the optional libraries' namespaces (all of Radix Themes)
    # need not ride in every page's root chunk for `window.__reflex` (issue 14).
    frontend_lazy_bundled_libraries=True,
    plugins=[
        # Radix Themes with only the stylesheet parts the pages use: the theme's colours and those the portal's
        # badges take from state (app/ui/radix_styles.py).
        TailwindV4WithoutRadix(),
        RadixThemesParts(
            theme=rx.theme(appearance="light", accent_color=ACCENT, gray_color=GRAY),
            colours=frozenset({ACCENT, GRAY, *BADGE_COLOURS}),
        ),
        # Public pages only: the portal, admin and account pages stay out of the sitemap.
        PublicSitemapPlugin(),
        # Dev mode only: Vite forwards /api and /robots.txt to the backend, so relative links work as in prod.
        DevBackendProxyPlugin(),
        # Prod builds: no script before the first paint (app/ui/page_weight.py).
        PageWeightPlugin(),
        # Prod builds: the pages folder is stamped with the content it was prerendered with (app/ui/fresh_pages.py).
        ContentStampPlugin(),
    ],
)
