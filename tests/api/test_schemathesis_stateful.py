"""Schemathesis, stateful: sequences of calls that feed one answer's ids into the next request, as an administrator
and as a client, answer no 5xx and keep to the schema.

The links between operations are the ones schemathesis infers from the typed answers and path parameters (a created
organization's id to its update and delete, a project's to its milestones and invoices, ...), so a sequence reaches
records that exist instead of 404s. Each sequence runs in a savepoint of the test's transaction, rolled back after.
STATEFUL_EXAMPLES sets how many sequences run (`make torture` runs more).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance
from sqlalchemy.engine import Connection
from sqlmodel import Session

from tests.api.test_schemathesis import SCHEMA, UNCONFIGURED_GOOGLE, _current, world  # noqa: F401 (the fixture)

EXAMPLES = int(os.environ.get("STATEFUL_EXAMPLES", "15"))
BaseMachine: Any = SCHEMA.as_state_machine()


def test_links_were_found() -> None:
    """A schema in which no link could be inferred would leave the state machine nothing but random calls."""
    linked = [name for name in dir(BaseMachine) if "__200_" in name or "__201_" in name]
    assert len(linked) >= 20, linked


@pytest.mark.parametrize("caller", ["admin", "client"])
def test_call_sequences_answer_no_5xx_and_keep_to_the_schema(
    world: tuple[Connection, dict[str, str], dict[str, str]],  # noqa: F811 (the imported fixture)
    caller: str,
) -> None:
    conn, tokens, _ids = world
    seen: list[str] = []

    class Machine(BaseMachine):
        def setup(self) -> None:
            self._nested = conn.begin_nested()
            _current["session"] = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)

        def teardown(self) -> None:
            _current["session"].close()
            self._nested.rollback()

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"cookies": {"access_token": tokens[caller]}}

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            seen.append(f"{case.operation.label} {response.status_code}")
            checks = [response_schema_conformance]
            google = case.operation.path.startswith(UNCONFIGURED_GOOGLE) and response.status_code == 503
            if not google:
                checks.append(not_a_server_error)
            case.validate_response(response, checks=checks)

    Machine.run(
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=6,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    assert len(seen) >= EXAMPLES  # the sequences did call the API
