"""Radix Themes' stylesheet in the parts the site uses, not the all-in-one `styles.css` (issue 24, ADRs 0061, 0073).

`RadixThemesPlugin` imports `@radix-ui/themes/styles.css`: the tokens of all 31 colour scales, every component and
every layout utility, 812 KB. Radix Themes ships its tokens split (`tokens/colors/<name>.css`, `tokens/base.css`);
the site loads the scales of the colours it names and the base tokens from the package. Its components and
utilities come from `radix_components.css` beside this module: the dozen components the pages render, compiled from
Radix's sources by `tools/dev/radix_css/build.mjs` (`make radix-css`; a test fails when it is stale).

Only Reflex's plugin hooks are used. The parts are imported into Tailwind's `components` layer, as Reflex does with
`styles.css`, so Tailwind's utilities keep winning over Radix's defaults. Tailwind's plugin would still import
`styles.css` whenever Radix Themes is enabled, so it is told that no Radix stylesheet is wanted from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from reflex.plugins import RadixThemesPlugin, TailwindV4Plugin

PACKAGE = "@radix-ui/themes"
# Under `.web/styles`, where Reflex keeps the root stylesheet that imports it.
STYLESHEET = "radix-themes.css"
COMPONENTS = Path(__file__).with_name("radix_components.css")
# Radix Themes 3.3's colour scales (its tokens/colors/*.css): a name outside them would import a missing file.
COLOURS = frozenset(
    [
        "tomato",
        "red",
        "ruby",
        "crimson",
        "pink",
        "plum",
        "purple",
        "violet",
        "iris",
        "indigo",
        "blue",
        "cyan",
        "teal",
        "jade",
        "green",
        "grass",
        "brown",
        "orange",
        "sky",
        "mint",
        "lime",
        "yellow",
        "amber",
        "gold",
        "bronze",
        "gray",
        "mauve",
        "slate",
        "sage",
        "olive",
        "sand",
    ]
)


def radix_stylesheet(colours: Iterable[str]) -> str:
    """The stylesheet importing Radix Themes' parts, with the colour scales named (and `gray`, which tokens alias)."""
    wanted = {*colours, "gray"}
    unknown = sorted(wanted - COLOURS)
    if unknown:
        raise ValueError(f"not Radix Themes colours: {unknown}")
    # Radix's own order (its src/styles/index.css): the scales, then base.css, whose `[data-gray-color=...]` aliases
    # must come after gray.css's plain `--gray-*` (same specificity), then the components and the utilities.
    scales = [f"{PACKAGE}/tokens/colors/{c}.css" for c in sorted(wanted, key=lambda c: (c != "gray", c))]
    parts = [*scales, f"{PACKAGE}/tokens/base.css", f"./{COMPONENTS.name}"]
    return "".join(f'@import "{part}" layer(components);\n' for part in parts)


@dataclasses.dataclass
class RadixThemesParts(RadixThemesPlugin):
    """Radix Themes (the theme around every page, as `RadixThemesPlugin`) with only the stylesheet parts it needs.

    `colours`: every Radix colour the pages use, the theme's accent and gray included, and the ones components take
    from state at run time (the portal's badges). A colour missing here renders without its scale.
    """

    colours: frozenset[str] = frozenset()

    def get_stylesheet_paths(self, **context: Any) -> tuple[str, ...]:
        return (f"./{STYLESHEET}",) if self.enabled else ()

    def get_static_assets(self, **context: Any) -> Sequence[tuple[Path, str | bytes]]:
        if not self.enabled:
            return []
        styles = Path("styles")
        return [
            (styles / STYLESHEET, radix_stylesheet(self.colours)),
            (styles / COMPONENTS.name, COMPONENTS.read_text(encoding="utf-8")),
        ]

    def get_frontend_dependencies(self, **context: Any) -> tuple[str, ...]:
        # The components name the package themselves, so it is installed all the same. Reflex also registers every
        # plugin dependency for components built at run time (`window.__reflex`; the site builds none), and that
        # import of the whole namespace put every Radix component into the chunk every page loads.
        return ()


@dataclasses.dataclass
class TailwindV4WithoutRadix(TailwindV4Plugin):
    """Tailwind v4, without the import of Radix's `styles.css` it adds when Radix Themes is enabled."""

    def pre_compile(self, **context: Any) -> None:
        super().pre_compile(**{**context, "radix_themes_plugin": RadixThemesPlugin(enabled=False)})
