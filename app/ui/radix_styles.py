"""Radix Themes' stylesheet in the parts the site uses, not the all-in-one `styles.css` (issue 24, ADRs 0061, 0062).

`RadixThemesPlugin` imports `@radix-ui/themes/styles.css`: the tokens of all 31 colour scales, every component and
every layout utility, 812 KB. Radix Themes ships its colour scales and base tokens as files of their own, and the
source of each component and utility (`src/components/<name>.css`, `src/styles/utilities/<name>.css`). The site loads
the scales of the colours it names, the base tokens, and the source of the components it renders and of the layout
utilities they use, built by Radix's own PostCSS steps (its `postcss-breakpoints.cjs` and the nesting and
custom-media plugins at the versions it pins), which Vite runs before Tailwind's.

Only Reflex's plugin hooks are used: static assets, stylesheet paths, development dependencies, and a modify task on
`postcss.config.js` (the hook Tailwind's own plugin uses for that file). The parts are imported into Tailwind's
`components` layer, as Reflex does with `styles.css`, so Tailwind's utilities keep winning over Radix's defaults.
Tailwind's plugin would still import `styles.css` whenever Radix Themes is enabled, so it is told that no Radix
stylesheet is wanted from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from reflex.constants import Dirs
from reflex.plugins import RadixThemesPlugin, TailwindV4Plugin

PACKAGE = "@radix-ui/themes"
# Under `.web/styles`, where Reflex keeps the root stylesheet that imports it.
STYLESHEET = "radix-themes.css"
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


# The components the pages render (`RadixThemes<Name>` in the compiled pages, and the Text and Heading the rest build
# on), as files of Radix Themes' source (`src/components/`), in the order of its own `src/components/index.css`:
# Skeleton and Text first, so that components extending them win at equal specificity.
COMPONENTS = (
    "reset",
    "animations",
    "flex",
    "skeleton",
    "text",
    "alert-dialog",
    "badge",
    "dialog",
    "heading",
    "link",
    "progress",
    "tabs",
)
# The layout props those components take (Radix's `src/styles/utilities/`, not all 36 at six breakpoints): the rendered
# pages carry `rt-r-max-w` (the dialogs' default max width), `rt-r-mb-3` and `rt-r-lt-start` (the dialog titles'
# margin and leading trim), and Dialog and Skeleton take widths and heights.
UTILITIES = ("leading-trim", "margin", "width", "min-width", "max-width", "height", "min-height", "max-height")
# Radix Themes' breakpoints (its `src/styles/breakpoints.css`). Its PostCSS plugin `postcss-breakpoints.cjs` reads
# them from `./src/styles/breakpoints.css` under the build's working directory (`.web`), so they are written there;
# the e2e stylesheet test checks they still match the installed package's file.
BREAKPOINTS_PATH = Path("src") / "styles" / "breakpoints.css"
BREAKPOINTS = """@custom-media --xs (min-width: 520px);
@custom-media --sm (min-width: 768px);
@custom-media --md (min-width: 1024px);
@custom-media --lg (min-width: 1280px);
@custom-media --xl (min-width: 1640px);
"""
# Radix's build steps for its source CSS (its postcss.config and devDependencies), run by Vite before Tailwind:
# flatten the nesting, expand `@breakpoints { ... }` into the `xs:`..`xl:` media rules, resolve `@media (--md)`.
POSTCSS_PLUGINS = ("postcss-nesting", f"{PACKAGE}/postcss-breakpoints.cjs", "postcss-custom-media")
POSTCSS_PACKAGES = ("postcss-nesting@12.0.2", "postcss-custom-media@10.0.2")
# The rule of `src/components/index.css` that is not in a component's file: the root theme covers the viewport and
# stacks the layered components (dialogs) above the page.
ROOT_THEME_RULE = """@layer components {
  .radix-themes:where([data-is-root-theme='true']) {
    position: relative;
    z-index: 0;
    min-height: 100vh;
    @supports (min-height: 100dvh) {
      min-height: 100dvh;
    }
  }
}
"""


def radix_stylesheet(colours: Iterable[str]) -> str:
    """The stylesheet importing Radix Themes' parts: the colour scales named (and `gray`, which tokens alias), the base
    tokens, and the source of the components the pages render and of the layout utilities they use."""
    wanted = {*colours, "gray"}
    unknown = sorted(wanted - COLOURS)
    if unknown:
        raise ValueError(f"not Radix Themes colours: {unknown}")
    # Radix's own order (its src/styles/index.css): the scales, then base.css, whose `[data-gray-color=...]` aliases
    # must come after gray.css's plain `--gray-*` (same specificity), then the components and the utilities.
    scales = [f"tokens/colors/{c}.css" for c in sorted(wanted, key=lambda c: (c != "gray", c))]
    components = [f"src/components/{name}.css" for name in COMPONENTS]
    utilities = [f"src/styles/utilities/{name}.css" for name in UTILITIES]
    parts = [*scales, "tokens/base.css", *components, *utilities]
    # The `@custom-media` rules must be in the same sheet as the `@media (--xs)` that use them.
    imports = [f'@import "{PACKAGE}/src/styles/breakpoints.css";\n']
    imports += [f'@import "{PACKAGE}/{part}" layer(components);\n' for part in parts]
    return "".join(imports) + ROOT_THEME_RULE


def with_radix_postcss(config_js: str) -> str:
    """Reflex's `postcss.config.js` with Radix's source-CSS plugins before Tailwind's (which Tailwind's plugin adds)."""
    lines = config_js.splitlines()
    anchor = next((i for i, line in enumerate(lines) if "@tailwindcss/postcss" in line), None)
    if anchor is None:
        raise ValueError("postcss.config.js names no @tailwindcss/postcss plugin to put Radix's plugins before")
    added = [f'  "{name}": {{}},' for name in POSTCSS_PLUGINS if f'"{name}"' not in config_js]
    return "\n".join([*lines[:anchor], *added, *lines[anchor:]])


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
        return [(Path("styles") / STYLESHEET, radix_stylesheet(self.colours)), (BREAKPOINTS_PATH, BREAKPOINTS)]

    def get_frontend_development_dependencies(self, **context: Any) -> tuple[str, ...]:
        return (*super().get_frontend_development_dependencies(**context), *POSTCSS_PACKAGES)

    def pre_compile(self, **context: Any) -> None:
        super().pre_compile(**context)
        if self.enabled:
            context["add_modify_task"](Dirs.POSTCSS_JS, with_radix_postcss)

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
