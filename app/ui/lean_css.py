"""Trim the Radix Themes part of the built global stylesheet to what the compiled pages can use.

`RadixThemesPlugin` imports all of `@radix-ui/themes/styles.css` (about 680 KB minified: tokens for ~30 colours in
light, dark and P3, every component, every layout utility at six breakpoints) into the one stylesheet every page loads.
The site renders a handful of Radix components (dialogs, tabs, skeletons, links, one flex); the rest is Tailwind.

The trim works on the minified CSS Vite wrote, inside `@layer components` only (where Tailwind puts Radix; Tailwind's
own layers are already generated from the classes the pages use) and keeps:
- a selector whose Radix component classes (`rt-DialogContent`, ...) all belong to a component the compiled pages
  render (`RadixThemes<Name>` in the generated JSX). Radix derives a part's classes from the component's name, and
  family members share base classes (`rt-BaseDialog*` for Dialog and AlertDialog), hence the table below. A Radix
  component the table does not know fails the build instead of losing its styles silently;
- the lowercase modifier classes Radix assembles at run time (`rt-r-size-3`, `rt-variant-soft`, `rt-high-contrast`):
  in a compound selector they live or die with their component class; standalone ones (layout props, the defaults
  components pass to `Text`/`Heading`) are kept, except the breakpoint-prefixed copies (`sm:rt-r-mb-3`) when no page
  passes a responsive value to a Radix component;
- colour scales and `[data-accent-color=...]` / `[data-gray-color=...]` blocks for the colours the theme and pages name;
- custom properties somebody reads (`var(--x)` in the kept CSS, or `--x` in any built script or page), to a fixpoint.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

# Compiled component name -> patterns (full match) of the Radix classes its parts render, read from @radix-ui/themes
# 3.3: dialog parts are `rt-BaseDialog*` (Dialog and AlertDialog share them), their titles a `Heading` and their
# descriptions a `Text`; tab lists are `rt-BaseTabList*`. Exact names where a prefix would catch another component
# (`rt-Text` must not keep `rt-TextFieldRoot`).
RADIX_CLASS_FAMILIES: dict[str, tuple[str, ...]] = {
    "Theme": (r"rt-Theme",),
    "ColorModeProvider": (),
    "Dialog": (r"rt-(?:Base)?Dialog[A-Za-z]*", r"rt-Heading", r"rt-Text"),
    "AlertDialog": (r"rt-AlertDialog[A-Za-z]*", r"rt-BaseDialog[A-Za-z]*", r"rt-Heading", r"rt-Text"),
    "Tabs": (r"rt-Tabs[A-Za-z]*", r"rt-BaseTabList[A-Za-z]*"),
    "Skeleton": (r"rt-Skeleton",),
    "Link": (r"rt-Link", r"rt-Text"),
    "Text": (r"rt-Text",),
    "Heading": (r"rt-Heading",),
    "Flex": (r"rt-Flex",),
    "Badge": (r"rt-Badge",),
    "Progress": (r"rt-Progress[A-Za-z]*",),
    "Box": (r"rt-Box",),
}

_COMPONENT_RE = re.compile(r"\bRadixThemes([A-Z][A-Za-z]*)")
_CLASS_RE = re.compile(r"\.((?:\\.|[A-Za-z0-9_-])+)")
_BREAKPOINT_RE = re.compile(r"^(?:xs|sm|md|lg|xl):")
_COLOR_ATTR_RE = re.compile(r"\[data-(?:accent|gray)-color=[\"']?([a-z]+)[\"']?\]")
# Radix's colour scale variables: --blue-9, --slate-a3, --tomato-contrast, --amber-surface, --gray-9-contrast ...
_SCALE_VAR_RE = re.compile(r"--([a-z]+)-(?:a?\d{1,2}|contrast|surface|indicator|track)\b")
_VAR_USE_RE = re.compile(r"var\(\s*(--[A-Za-z0-9_-]+)")
_CUSTOM_PROP_RE = re.compile(r"--[A-Za-z0-9_-]+")
# Radix Themes 3.3's colour scales (its tokens/colors/*.css).
_ALL_COLOURS = frozenset(
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


class UnknownRadixComponent(RuntimeError):
    """A compiled page renders a Radix component whose classes the trim does not know."""


class UndeclaredColour(RuntimeError):
    """A Radix component takes its colour from state, and the build was not told which colours that can be."""


@dataclass
class Usage:
    """What the compiled pages use of Radix: component names, colours, whether any value is responsive."""

    components: set[str] = field(default_factory=set)
    colours: set[str] = field(default_factory=set)
    responsive: bool = False

    def class_pattern(self) -> re.Pattern[str]:
        unknown = sorted(self.components - RADIX_CLASS_FAMILIES.keys())
        if unknown:
            raise UnknownRadixComponent(
                f"Radix component(s) {unknown} are not in app.ui.lean_css.RADIX_CLASS_FAMILIES: add their classes there"
            )
        patterns = sorted({p for name in self.components for p in RADIX_CLASS_FAMILIES[name]})
        return re.compile("|".join(patterns) or "(?!)")


def radix_usage(
    compiled_sources: Iterable[str], theme_colours: Iterable[str], state_colours: Iterable[str] = ()
) -> Usage:
    """Scan the generated JSX (`.web/app`, `.web/components`, `.web/utils`) for Radix components and their props.

    `theme_colours` are the theme root's accent and gray; Radix's neutral `gray` scale is always kept (its tokens
    alias it). `state_colours` are the colours a component can get from state at run time (`color_scheme=State.x`):
    without them such a component fails the build rather than losing its colours.
    """
    state_colours = set(state_colours)
    usage = Usage(colours={*theme_colours, *state_colours, "gray"})
    for src in compiled_sources:
        if not state_colours and re.search(r"jsx\(RadixThemes[^\n]{0,400}?\bcolor:[^\"]", src):
            raise UndeclaredColour(
                "a Radix component's colour comes from state: pass its possible colours to PageWeightPlugin"
            )
        usage.components.update(_COMPONENT_RE.findall(src))
        # Colour props on Radix components (`color:"red"`, `accentColor:"blue"`, `grayColor:"slate"`).
        usage.colours.update(
            c
            for c in re.findall(r"\b(?:color|accentColor|grayColor|highContrast)\s*:\s*\"([a-z]+)\"", src)
            if c in _ALL_COLOURS
        )
        # A responsive prop is an object keyed by breakpoint: ({ ["initial"] : ..., ["sm"] : ... }).
        if re.search(r"RadixThemes[^\n]{0,400}\[\"initial\"\]", src):
            usage.responsive = True
    return usage


# --- a small parser for minified CSS -------------------------------------------------------------------------------


@dataclass
class Node:
    """A statement (`@import ...;`), a rule with declarations, or a block at-rule holding nodes."""

    prelude: str
    body: str | None = None  # declarations (or an opaque block such as @keyframes) when children is None
    children: list[Node] | None = None
    raw: str | None = None  # a licence comment, kept as written

    def render(self) -> str:
        if self.raw is not None:
            return self.raw
        if self.children is not None:
            inner = "".join(c.render() for c in self.children)
            return f"{self.prelude}{{{inner}}}"
        if self.body is None:
            return f"{self.prelude};"
        return f"{self.prelude}{{{self.body}}}"


_NESTING_AT_RULES = ("@media", "@supports", "@layer", "@container", "@scope", "@document", "@starting-style")


def _scan(css: str, start: int, stop_chars: str) -> int:
    """Index of the first of `stop_chars` at depth 0 from `start`, skipping strings, comments and parentheses."""
    depth = 0
    i = start
    n = len(css)
    while i < n:
        ch = css[i]
        if ch in "\"'":
            j = i + 1
            while j < n and css[j] != ch:
                j += 2 if css[j] == "\\" else 1
            i = j + 1
            continue
        if ch == "/" and css.startswith("/*", i):
            end = css.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        if ch == "\\":
            i += 2
            continue
        if depth == 0 and ch in stop_chars:
            return i
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        i += 1
    return n


def _block_end(css: str, open_at: int) -> int:
    """Index of the `}` closing the block opened at `open_at`."""
    depth = 0
    i = open_at
    while i < len(css):
        j = _scan(css, i, "{}")
        if j >= len(css):
            return j
        depth += 1 if css[j] == "{" else -1
        if depth == 0:
            return j
        i = j + 1
    return len(css)


def parse(css: str) -> list[Node]:
    nodes: list[Node] = []
    i = 0
    while i < len(css):
        while i < len(css) and css[i] in " \n\t\r":
            i += 1
        if i >= len(css):
            break
        if css.startswith("/*", i):
            end = css.find("*/", i + 2)
            end = len(css) if end < 0 else end + 2
            if css.startswith("/*!", i):  # licence comments stay
                nodes.append(Node(prelude="", raw=css[i:end]))
            i = end
            continue
        j = _scan(css, i, "{;")
        prelude = css[i:j].strip()
        if j >= len(css) or css[j] == ";":
            if prelude:
                nodes.append(Node(prelude=prelude))
            i = j + 1
            continue
        end = _block_end(css, j)
        inner = css[j + 1 : end]
        if prelude.startswith(_NESTING_AT_RULES):
            nodes.append(Node(prelude=prelude, children=parse(inner)))
        else:
            nodes.append(Node(prelude=prelude, body=inner))
        i = end + 1
    return nodes


def _split_top(text: str, sep: str = ",") -> list[str]:
    parts, i, start = [], 0, 0
    while True:
        j = _scan(text, i, sep)
        parts.append(text[start:j])
        if j >= len(text):
            return parts
        i = start = j + 1


def _split_decls(body: str) -> list[str]:
    return [d for d in _split_top(body, ";") if d.strip()]


# --- the trim ------------------------------------------------------------------------------------------------------


class _Trim:
    def __init__(self, usage: Usage, light_only: bool) -> None:
        self.usage = usage
        self.components = usage.class_pattern()
        self.light_only = light_only

    def class_ok(self, raw: str) -> bool:
        name = raw.replace("\\", "")
        if self.light_only and name in ("dark", "dark-theme"):
            return False
        if _BREAKPOINT_RE.match(name):
            name = name.split(":", 1)[1]
            if name.startswith(("rt-", "-rt-")) and not self.usage.responsive:
                return False
        name = name.removeprefix("-")  # negative margins: -rt-r-m-2
        if not name.startswith("rt-"):
            return True
        if name[3:4].isupper():
            return self.components.fullmatch(name) is not None
        return True  # a run-time modifier: judged with its compound's component class

    def selector_ok(self, sel: str) -> bool:
        for colour in _COLOR_ATTR_RE.findall(sel):
            if colour not in self.usage.colours:
                return False
        # Alternatives inside :is()/:where() need one surviving member; :not() never makes a selector unused.
        top = []
        i = 0
        for m in re.finditer(r":(is|where|not|has)\(", sel):
            if m.start() < i:
                continue
            end = m.end() - 1
            close = _scan(sel, end + 1, ")")
            depth_text = sel[end + 1 : close]
            top.append(sel[i : m.start()])
            if m.group(1) in ("is", "where", "has") and not any(
                self.selector_ok(alt) for alt in _split_top(depth_text)
            ):
                return False
            i = close + 1
        top.append(sel[i:])
        return all(self.class_ok(c) for part in top for c in _CLASS_RE.findall(part))

    def rules(self, nodes: list[Node]) -> list[Node]:
        kept: list[Node] = []
        for node in nodes:
            if node.children is not None:
                node.children = self.rules(node.children)
                if node.children or not node.prelude.startswith(("@media", "@supports", "@container")):
                    kept.append(node)
                continue
            if node.prelude.startswith("@") or node.body is None:
                kept.append(node)
                continue
            selectors = [s for s in _split_top(node.prelude) if self.selector_ok(s.strip())]
            if not selectors:
                continue
            node.prelude = ",".join(selectors)
            decls = [
                d
                for d in _split_decls(node.body)
                if not ((m := _SCALE_VAR_RE.match(d.strip())) and m.group(1) in _ALL_COLOURS - self.usage.colours)
            ]
            if decls:
                node.body = ";".join(decls)
                kept.append(node)
        return kept


def _walk_rules(nodes: list[Node]) -> Iterable[Node]:
    for node in nodes:
        if node.children is not None:
            yield from _walk_rules(node.children)
        else:
            yield node


def _drop_unread_properties(layer: list[Node], everything_else: str) -> None:
    """Remove `--x:...` declarations nobody reads, repeating until no more go (a chain of aliases dies together)."""
    while True:
        reads = set(_CUSTOM_PROP_RE.findall(everything_else))
        for node in _walk_rules(layer):
            if node.body is None:
                continue
            if node.prelude.startswith("@"):
                reads.update(_VAR_USE_RE.findall(node.body))
                continue
            for d in _split_decls(node.body):
                value = d.partition(":")[2]
                reads.update(_VAR_USE_RE.findall(value))
        dropped = False
        for node in _walk_rules(layer):
            if node.body is None or node.prelude.startswith("@"):
                continue
            decls = _split_decls(node.body)
            alive = [d for d in decls if not d.strip().startswith("--") or d.split(":", 1)[0].strip() in reads]
            if len(alive) != len(decls):
                dropped = True
                node.body = ";".join(alive)
        if not dropped:
            return


def _prune_empty(nodes: list[Node]) -> list[Node]:
    out = []
    for node in nodes:
        if node.children is not None:
            node.children = _prune_empty(node.children)
            if not node.children and node.prelude.startswith(("@media", "@supports", "@container")):
                continue
        elif node.body is not None and not node.body.strip():
            continue
        out.append(node)
    return out


def _drop_unused_keyframes(layer: list[Node]) -> list[Node]:
    text = "".join(n.render() for n in layer if not n.prelude.startswith("@keyframes"))
    return [
        n
        for n in layer
        if not n.prelude.startswith(("@keyframes", "@-webkit-keyframes")) or n.prelude.split()[-1] in text
    ]


def trim_radix(css: str, usage: Usage, *, scripts: str, light_only: bool) -> str:
    """The stylesheet with the `@layer components` block (Radix Themes) trimmed; other layers untouched.

    `scripts` is the text of every built script and page: custom properties they mention stay.
    """
    nodes = parse(css)
    layers = [n for n in nodes if n.children is not None and n.prelude == "@layer components"]
    if not layers:
        return css
    trim = _Trim(usage, light_only)
    for layer in layers:
        layer.children = trim.rules(layer.children or [])
    others = "".join(n.render() for n in nodes if n not in layers)
    for layer in layers:
        children = layer.children or []
        _drop_unread_properties(children, others + scripts)
        layer.children = _drop_unused_keyframes(_prune_empty(children))
    return "".join(n.render() for n in nodes)
