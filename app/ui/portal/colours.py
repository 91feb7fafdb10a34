"""The portal's status badge colours, apart from the state so the build (rxconfig) can read them without Reflex state.

Spec section 4: completed and paid green; in progress and scheduled blue; planning and pending yellow; cancelled red;
others grey. Keys are Radix colour names. The badges take their colour from the state at run time, so the build cannot
see them in the pages: rxconfig names `BADGE_COLOURS` among the colour scales to load (app/ui/radix_styles.py).
"""

BADGE_COLORS = {
    "completed": "green",
    "paid": "green",
    "in_progress": "blue",
    "scheduled": "blue",
    "planning": "yellow",
    "pending": "yellow",
    "cancelled": "red",
}
DEFAULT_BADGE_COLOR = "gray"
BADGE_COLOURS = frozenset([*BADGE_COLORS.values(), DEFAULT_BADGE_COLOR])
