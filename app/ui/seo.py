"""Search and sharing metadata: per-page title, description, canonical URL and Open Graph tags; the sitemap filter.

`@public_page(path, title, description, on_load=...)` gives a page its <title>, meta description,
`og:image` (Reflex renders those three itself), plus a canonical link, the other Open Graph tags and a Twitter card.
React hoists them into <head>, and prerendering puts them into the static HTML. URLs are absolute from
`settings.public_url`, which the build reads, as it does for the sitemap.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

import reflex as rx
from reflex_base.plugins.sitemap import SitemapPlugin, TrailingSlashOption

from app.core.config import settings
from app.ui import routes
from app.ui.state.company import AT_BUILD

OG_IMAGE = "/og-image.png"  # assets/og-image.png, 1200x630
OG_IMAGE_ALT = f"{AT_BUILD.name}: web, cloud and digital transformation on the Treasure Coast"

# Never in the sitemap: signed-in areas, account flows, and anything under these prefixes.
PRIVATE_PREFIXES: tuple[str, ...] = (
    "/admin",
    routes.CLIENT_PORTAL,
    routes.REGISTER,
    routes.SETTINGS,
    routes.PROFILE,
    routes.COMPLETE_PROFILE,
    routes.FORGOT_PASSWORD,
    routes.RESET_PASSWORD,
    routes.BOOK_MEETING_MANAGE,
    routes.BOOK_MEETING_CONFIRM,
)


def absolute(path: str) -> str:
    return settings.public_url + (path if path.startswith("/") else f"/{path}")


def canonical(path: str) -> str:
    """The page's address as served: Reflex serves a prerendered page at "/about/" and redirects "/about" there."""
    return absolute(path.rstrip("/") + "/")


def page_meta(path: str, title: str, description: str) -> dict[str, Any]:
    """Keyword arguments for `@rx.page` of a public page at `path`."""
    url = canonical(path)
    image = absolute(OG_IMAGE)
    return {
        "route": path,
        "title": title,
        "description": description,
        "image": image,
        "meta": [
            {"property": "og:type", "content": "website"},
            {"property": "og:site_name", "content": AT_BUILD.name},
            {"property": "og:locale", "content": "en_US"},
            {"property": "og:title", "content": title},
            {"property": "og:description", "content": description},
            {"property": "og:url", "content": url},
            {"property": "og:image:width", "content": "1200"},
            {"property": "og:image:height", "content": "630"},
            {"property": "og:image:alt", "content": OG_IMAGE_ALT},
            {"name": "twitter:card", "content": "summary_large_image"},
            {"name": "twitter:title", "content": title},
            {"name": "twitter:description", "content": description},
            {"name": "twitter:image", "content": image},
            rx.el.link(rel="canonical", href=url),
        ],
    }


Page = TypeVar("Page", bound=Callable[[], rx.Component])


def public_page(path: str, title: str, description: str, *, on_load: Any = None) -> Callable[[Page], Page]:
    """Registers a public page at `path` with its search and sharing metadata (`@rx.page(**page_meta(...))`)."""
    return rx.page(**page_meta(path, title, description), on_load=on_load)


def _path_of(route: str) -> str:
    route = route.strip("/")
    return "/" if route in ("", "index") else f"/{route}"


def is_private(route: str) -> bool:
    path = _path_of(route)
    return any(path == p or path.startswith(p + "/") for p in PRIVATE_PREFIXES)


@dataclasses.dataclass(kw_only=True, frozen=True)
class PublicSitemapPlugin(SitemapPlugin):
    """Reflex's sitemap, limited to public pages (Reflex lists every static route; pages cannot opt out), with the
    same trailing-slash addresses as the canonical links."""

    trailing_slash: TrailingSlashOption = "always"

    def pre_compile(self, **context: Any) -> None:
        pages = [p for p in context.get("unevaluated_pages", []) if not is_private(p.route)]
        super().pre_compile(**{**context, "unevaluated_pages": pages})
