"""The site's visual system as Tailwind class strings: colours, focus ring, buttons, containers.

Colours (Tailwind's default palette, so no config change is needed):
- primary: deep blue, ``blue-800`` (#1e40af) for actions and ``blue-950`` (#172554) for dark surfaces;
- accent: ``amber-400`` (#fbbf24), used sparingly for the main call to action on dark surfaces;
- neutrals: ``slate`` greys (text ``slate-900``/``slate-600``, borders ``slate-200``, surfaces ``slate-50``).
All text/background pairs below meet WCAG AA contrast. Fonts come from the system stack (``font-sans``): no web fonts.

Class strings are written out in full (never assembled from fragments) so Tailwind's scanner finds them.
"""

# Visible keyboard focus for every interactive element (mouse clicks do not show it).
FOCUS_RING = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
FOCUS_RING_ON_DARK = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300"

CONTAINER = "mx-auto w-full max-w-7xl px-4 sm:px-6 lg:px-8"

_BUTTON_BASE = (
    "inline-flex items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap "
    "transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-60"
)
BUTTON_SM = "h-9 px-4 text-sm"
BUTTON_LG = "h-12 px-6 text-base"

BUTTON_PRIMARY = f"{_BUTTON_BASE} bg-blue-800 text-white shadow-sm hover:bg-blue-900 active:bg-blue-950 {FOCUS_RING}"
BUTTON_OUTLINE = (
    f"{_BUTTON_BASE} border border-slate-300 bg-white text-slate-800 hover:border-slate-400 hover:bg-slate-50 "
    f"{FOCUS_RING}"
)
BUTTON_ACCENT = (
    f"{_BUTTON_BASE} bg-amber-400 text-slate-950 shadow-sm hover:bg-amber-300 active:bg-amber-500 {FOCUS_RING_ON_DARK}"
)
BUTTON_GHOST_ON_DARK = (
    f"{_BUTTON_BASE} border border-white/30 bg-white/5 text-white hover:border-white/60 hover:bg-white/10 "
    f"{FOCUS_RING_ON_DARK}"
)

# Compact buttons of the signed-in areas (account pages, portal, staff panel): the same colours, sized for forms,
# tables and dialogs. One primary colour everywhere: blue-800 on white text (10.4:1).
_COMPACT = (
    "inline-flex items-center justify-center gap-2 rounded-lg px-3.5 py-2 text-sm font-medium whitespace-nowrap "
    f"transition-colors cursor-pointer disabled:cursor-not-allowed disabled:opacity-60 {FOCUS_RING}"
)
COMPACT_PRIMARY = f"{_COMPACT} bg-blue-800 text-white shadow-sm hover:bg-blue-900"
COMPACT_SECONDARY = f"{_COMPACT} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
COMPACT_DANGER = f"{_COMPACT} bg-red-600 text-white hover:bg-red-700"
COMPACT_DANGER_OUTLINE = f"{_COMPACT} border border-red-200 bg-white text-red-700 hover:bg-red-50"

# The account pages' form buttons (sign in, register, reset): full width and a little taller.
_FORM = (
    "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold shadow-sm "
    f"transition-colors disabled:cursor-not-allowed disabled:opacity-60 {FOCUS_RING}"
)
FORM_PRIMARY = f"{_FORM} w-full bg-blue-800 text-white hover:bg-blue-900"
FORM_SECONDARY = f"{_FORM} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50"

TEXT_LINK = f"font-semibold text-blue-800 underline-offset-4 hover:underline rounded-sm {FOCUS_RING}"

EYEBROW = "text-sm font-semibold tracking-wider text-blue-800 uppercase"
HEADING_2 = "text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl"
LEAD = "text-lg leading-relaxed text-pretty text-slate-600"
