"""The build steps that keep the pages light: Radix's stylesheet in parts, scripts after the first paint (issue 14)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from reflex_base.plugins.tailwind_v4 import TailwindV4Plugin
from reflex_components_radix.plugin import RADIX_THEMES_PACKAGE, RADIX_THEMES_STYLESHEET, RadixThemesPlugin

from app.ui.form_guard import SCRIPT, form_guard
from app.ui.page_weight import PARKED_TYPE, defer_hydration, group_icons
from app.ui.portal.colours import BADGE_COLOURS
from app.ui.radix_styles import COMPONENTS, RadixThemesParts, TailwindV4WithoutRadix, radix_stylesheet
from rxconfig import config

PAGE = (
    '<html><head><link rel="modulepreload" href="/assets/manifest-1.js"/>'
    '<link rel="modulepreload" href="/assets/root-2.js"/><link href="/assets/s.css" rel="stylesheet"/></head>'
    "<body><main><p>Hero text</p></main>"
    '<script type="module" async="">import "/assets/manifest-1.js";\nimport("/assets/entry.client-3.js");</script>'
    "</body></html>"
)


def test_hydration_waits_for_the_first_paint() -> None:
    out = defer_hydration(PAGE)
    assert '<link rel="modulepreload"' not in out
    assert '<script type="module"' not in out
    # The module's code is parked unchanged, and the boot script knows the preloads and the parked type.
    assert f'<script type="{PARKED_TYPE}">import "/assets/manifest-1.js";\nimport("/assets/entry.client-3.js");' in out
    assert '["/assets/manifest-1.js","/assets/root-2.js"]' in out
    assert "requestAnimationFrame(function(){requestAnimationFrame(go)})" in out
    # No React internals: the form guard lives in every page's <head> instead (app/ui/form_guard.py).
    assert "__reactProps$" not in out
    assert "<p>Hero text</p>" in out and '<link href="/assets/s.css" rel="stylesheet"/>' in out


def test_a_page_without_the_router_script_is_left_alone() -> None:
    page = "<html><body><p>static</p></body></html>"
    assert defer_hydration(page) == page


def test_icon_chunks_are_grouped_and_a_changed_vite_config_fails_the_build() -> None:
    vite = "codeSplitting: {\n  groups: [\n    {\n      test: /env.json/,\n"
    grouped = group_icons(vite)
    assert 'name: "icons"' in grouped and grouped.index("icons") < grouped.index("env.json")
    assert group_icons(grouped) == grouped
    with pytest.raises(RuntimeError, match="groups"):
        group_icons("codeSplitting: {}")


# --- Radix Themes' stylesheet in parts (app/ui/radix_styles.py) ----------------------------------------------------


def test_the_radix_stylesheet_imports_the_parts_and_the_named_colours_into_the_components_layer() -> None:
    css = radix_stylesheet({"blue", "slate"})
    imports = [line for line in css.splitlines() if line]
    assert imports == [
        f'@import "@radix-ui/themes/{part}" layer(components);'
        for part in (
            "tokens/colors/gray.css",  # always: Radix's tokens alias it
            "tokens/colors/blue.css",
            "tokens/colors/slate.css",
            # After the scales: its `--gray-*: var(--slate-*)` must win over gray.css's plain values.
            "tokens/base.css",
        )
    ] + ['@import "./radix_components.css" layer(components);']  # the components, built from Radix's sources
    with pytest.raises(ValueError, match="greyish"):
        radix_stylesheet({"greyish"})


def test_the_site_loads_the_colours_of_its_theme_and_of_the_portal_badges_and_no_others() -> None:
    radix = next(p for p in config.plugins if isinstance(p, RadixThemesPlugin))
    assert isinstance(radix, RadixThemesParts)
    assert radix.colours == {"blue", "slate", *BADGE_COLOURS}
    theme = str(radix.theme)
    assert "blue" in theme and "slate" in theme
    # The stylesheet is one Reflex writes into .web/styles and imports from the root stylesheet.
    assert radix.get_stylesheet_paths() == ("./radix-themes.css",)
    [(path, css), (components_path, components)] = radix.get_static_assets()
    assert str(path) == "styles/radix-themes.css"
    assert css == radix_stylesheet(radix.colours)
    assert RADIX_THEMES_STYLESHEET not in str(css)
    # Beside it, so its relative import finds it.
    assert str(components_path) == "styles/radix_components.css"
    assert components == COMPONENTS.read_text(encoding="utf-8")
    # Off `window.__reflex`: no plugin dependency that Reflex would bundle whole for run-time components.
    assert radix.get_frontend_dependencies() == ()
    assert RadixThemesPlugin(enabled=False).get_stylesheet_paths() == ()


ROOT = Path(__file__).resolve().parents[2]
RADIX_TOOLS = ROOT / ".tools" / "radix-css" / "node_modules"


def test_the_radix_components_are_built_from_the_radix_version_reflex_installs() -> None:
    header = COMPONENTS.read_text(encoding="utf-8").splitlines()[0]
    built = re.search(r"from @radix-ui/themes (\S+):", header)
    assert built is not None, header
    assert f"@radix-ui/themes@{built[1]}" == RADIX_THEMES_PACKAGE
    pinned = (ROOT / "tools" / "dev" / "radix_css" / "package.json").read_text(encoding="utf-8")
    assert f'"@radix-ui/themes": "{built[1]}"' in pinned


def test_the_committed_radix_components_are_what_radix_sources_make() -> None:
    """Rebuilds app/ui/radix_components.css from Radix's sources in memory: a hand edit, a changed list of parts in
    build.mjs or another Radix version fails here until `make radix-css` is run and its result committed."""
    assert RADIX_TOOLS.is_dir(), "run `make .tools/radix-css/.ready` (make test and make test-fast do)"
    node = shutil.which("node")
    assert node is not None, "Node is needed: `make setup` puts Node 22 on PATH"
    script = ROOT / "tools" / "dev" / "radix_css" / "build.mjs"
    done = subprocess.run(
        [node, str(script), str(RADIX_TOOLS), "--check"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr + done.stdout
    css = COMPONENTS.read_text(encoding="utf-8")
    # Compiled: no source syntax left for Tailwind's PostCSS to trip on (the first build on a fresh clone did).
    assert "@custom-media" not in css and "@breakpoints" not in css and "(--xs)" not in css
    assert ".xs\\:rt-r-mb-3" in css and "@media (min-width: 520px)" in css


def test_tailwind_no_longer_imports_the_whole_radix_stylesheet() -> None:
    def saved(plugin: TailwindV4Plugin) -> str:
        tasks: list[tuple[object, tuple[object, ...]]] = []
        plugin.pre_compile(
            add_save_task=lambda fn, *args, **kw: tasks.append((fn, args)),
            add_modify_task=lambda *args: None,
            radix_themes_plugin=RadixThemesParts(),
            unevaluated_pages=[],
        )
        return "".join(str(fn(*args)) for fn, args in tasks)  # type: ignore[operator]

    assert RADIX_THEMES_STYLESHEET in saved(TailwindV4Plugin())  # what Reflex's plugin does with Radix enabled
    assert RADIX_THEMES_STYLESHEET not in saved(TailwindV4WithoutRadix())
    assert "tailwindcss/utilities.css" in saved(TailwindV4WithoutRadix())


# --- the form guard (app/ui/form_guard.py; the browser test is in tests/e2e/test_accounts.py) ----------------------


def test_the_form_guard_is_in_every_pages_head_and_survives_reacts_escaping() -> None:
    from app.app import app

    assert any(str(c) == str(form_guard()) for c in app.head_components)
    # React's server render escapes these in a script's text, which would break the script.
    assert not set(SCRIPT) & set("\"'<>&")
    assert "preventDefault" in SCRIPT and "action" in SCRIPT and "__react" not in SCRIPT
