"""The build step that trims the Radix stylesheet and starts the scripts after the first paint (issue 14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ui.lean_css import UnknownRadixComponent, parse, radix_usage, trim_radix
from app.ui.page_weight import PARKED_TYPE, defer_hydration, rename_referrers

# A miniature of the built stylesheet: Tailwind's layers around Radix's, minified as Vite writes it.
CSS = (
    "/*! tailwindcss v4 */"
    "@layer theme{:root{--color-blue-800:#1e40af}}"
    "@layer components{"
    ":root,.light,.light-theme{--blue-9:#0090ff;--tomato-9:#e54d2e;--gray-5:#ddd;--unread:1px}"
    ".dark,.dark-theme{--blue-9:#3b9eff}"
    "[data-accent-color=blue]{--accent-9:var(--blue-9)}"
    "[data-accent-color=tomato]{--accent-9:var(--tomato-9)}"
    ".rt-BaseDialogOverlay{position:fixed}"
    ".rt-BaseDialogContent.rt-r-size-3{padding:24px;box-shadow:0 0 0 1px var(--gray-5)}"
    ".rt-Button.rt-r-size-2{height:32px}"
    ".rt-TextFieldRoot{color:var(--accent-9)}"
    ".rt-Text{margin:0}"
    ".rt-r-mb-3{margin-bottom:12px}"
    "@media (min-width:520px){.xs\\:rt-r-mb-3{margin-bottom:12px}.xs\\:-rt-r-m-1{margin:-4px}}"
    ":where(.rt-Button,.rt-BaseDialogContent):focus{outline:2px solid var(--accent-9)}"
    ":where(.rt-Button,.rt-Card){cursor:pointer}"
    "@keyframes rt-fade-in{0%{opacity:0}}@keyframes rt-unused{0%{opacity:0}}"
    ".rt-BaseDialogOverlay:before{animation:rt-fade-in .2s}"
    "}"
    "@layer utilities{.mt-6{margin-top:1.5rem}}"
)
JSX = ['jsx(RadixThemesDialog.Content,{className:"p-5"},jsx(RadixThemesDialog.Title,{},"Hi"))']


def trimmed(scripts: str = "", jsx: list[str] | None = None, light_only: bool = True) -> str:
    usage = radix_usage(JSX if jsx is None else jsx, {"blue", "slate"})
    return trim_radix(CSS, usage, scripts=scripts, light_only=light_only)


def test_the_parser_gives_back_what_it_read() -> None:
    assert "".join(n.render() for n in parse(CSS)) == CSS


def test_components_the_pages_render_stay_and_others_go() -> None:
    out = trimmed()
    assert ".rt-BaseDialogOverlay{position:fixed}" in out
    assert ".rt-BaseDialogContent.rt-r-size-3{" in out
    assert ".rt-Text{margin:0}" in out  # a dialog's description is a Text
    assert "rt-Button" not in out.replace(":where(.rt-Button,.rt-BaseDialogContent)", "")
    assert ":where(.rt-Button,.rt-BaseDialogContent):focus" in out  # one surviving alternative keeps it
    assert ".rt-Card" not in out
    # A prefix of a used component's name is not enough: TextField is not Text.
    assert "rt-TextFieldRoot" not in out


def test_standalone_modifiers_stay_but_breakpoint_copies_go_without_responsive_props() -> None:
    out = trimmed()
    assert ".rt-r-mb-3{margin-bottom:12px}" in out
    assert "xs\\:rt-r-mb-3" not in out and "xs\\:-rt-r-m-1" not in out
    assert "@media (min-width:520px)" not in out  # emptied, so dropped
    responsive = ['jsx(RadixThemesDialog.Content,{mb:({ ["initial"] : "1", ["sm"] : "3" })})']
    assert "xs\\:rt-r-mb-3" in trimmed(jsx=responsive)


def test_unused_colours_dark_tokens_and_unread_properties_go() -> None:
    out = trimmed()
    assert "--blue-9:#0090ff" in out and "--accent-9:var(--blue-9)" in out
    assert "tomato" not in out
    assert "--unread" not in out
    assert ".dark" not in out
    assert ".dark" in trimmed(light_only=False)
    # A property a script mentions stays even though no CSS reads it.
    assert "--unread:1px" in trimmed(scripts='el.style.getPropertyValue("--unread")')


def test_keyframes_stay_only_when_something_runs_them() -> None:
    out = trimmed()
    assert "@keyframes rt-fade-in" in out
    assert "rt-unused" not in out


def test_other_layers_are_untouched() -> None:
    out = trimmed()
    assert out.startswith("/*! tailwindcss v4 */@layer theme{:root{--color-blue-800:#1e40af}}")
    assert out.endswith("@layer utilities{.mt-6{margin-top:1.5rem}}")


def test_an_unknown_radix_component_fails_the_build() -> None:
    with pytest.raises(UnknownRadixComponent, match="Select"):
        trimmed(jsx=["jsx(RadixThemesSelect.Root,{})"])


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
    # Native submits of script-handled forms are dropped until React owns the form.
    assert 'document.addEventListener("submit"' in out and "__reactProps$" in out
    assert "<p>Hero text</p>" in out and '<link href="/assets/s.css" rel="stylesheet"/>' in out


def test_a_page_without_the_router_script_is_left_alone() -> None:
    page = "<html><body><p>static</p></body></html>"
    assert defer_hydration(page) == page


def test_scripts_naming_a_renamed_file_are_renamed_after_their_new_content(tmp_path: Path) -> None:
    (tmp_path / "root-aaaa.js").write_text('import "./dep-bbbb.js";const css="/assets/styles-old.css";')
    (tmp_path / "manifest-cccc.js").write_text('{"root":"/assets/root-aaaa.js","url":"/assets/manifest-cccc.js"}')
    (tmp_path / "other-dddd.js").write_text("untouched")
    renamed = {"styles-old.css": "styles-new.css"}
    rename_referrers(tmp_path, renamed)
    names = sorted(p.name for p in tmp_path.iterdir())
    root, manifest = renamed["root-aaaa.js"], renamed["manifest-cccc.js"]
    assert names == sorted([root, manifest, "other-dddd.js"])
    assert "styles-new.css" in (tmp_path / root).read_text()
    assert root in (tmp_path / manifest).read_text()  # the manifest names root's final name
    assert f'"url":"/assets/{manifest}"' in (tmp_path / manifest).read_text()  # and its own


def test_scripts_naming_each_other_in_a_cycle_fail_the_build(tmp_path: Path) -> None:
    (tmp_path / "a-1111.js").write_text('import "./b-2222.js";"/assets/styles-old.css"')
    (tmp_path / "b-2222.js").write_text('import "./a-1111.js";')
    with pytest.raises(RuntimeError, match="cycle"):
        rename_referrers(tmp_path, {"styles-old.css": "styles-new.css"})
