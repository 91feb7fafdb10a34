"""What the caller may do with a record, shipped beside the record (ADR 0065).

A service that returns rows to a page computes, once and for the actor it was called with, which actions the page may
offer on each row (`can_issue`, `can_cancel`, ...): the page shows or hides a button by the flag and never repeats the
rule. A flag is `Action`: required (a row built without it is an error) and excluded from every dump, so the REST
answers (whose response models are the rows' parent classes) and the data export never carry it.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

Action = Annotated[bool, Field(exclude=True)]
