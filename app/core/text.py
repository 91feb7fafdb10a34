"""Text no database can store: NUL, which PostgreSQL refuses in text, and lone surrogates, which have no UTF-8 form.

JSON's `\\u0000` and `\\ud800` escapes put both into a Python string; so can a URL's `%00` and a form field. The API
refuses them at its boundary and the engine refuses them in any statement's parameters, both with these words.
"""

from __future__ import annotations

import re
from typing import Any

INVALID_CHARACTER = "Contains an invalid character"
INVALID_TEXT = "Some text contains an invalid character (such as NUL). Please remove it and try again."
# Python strings hold code points, so a surrogate in one is always unpaired (json.loads joins valid pairs).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(value: str) -> bool:
    return _UNSTORABLE.search(value) is None


def unstorable_paths(value: Any, path: str = "") -> list[str]:
    """The dotted paths (`items.0.description`) of the strings in a JSON-like value that cannot be stored."""
    if isinstance(value, str):
        return [] if storable(value) else [path]
    if isinstance(value, dict):
        found = []
        for key, item in value.items():
            # A bad key is reported at its parent, so the answer itself never carries the bad text.
            if isinstance(key, str) and not storable(key):
                found.append(path)
                continue
            found += unstorable_paths(item, f"{path}.{key}" if path else str(key))
        return found
    if isinstance(value, list | tuple):
        return [p for i, item in enumerate(value) for p in unstorable_paths(item, f"{path}.{i}" if path else str(i))]
    return []
