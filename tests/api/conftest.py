"""API test client: the FastAPI app wrapped in the same middleware as the served site, on the test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.api import create_api
from app.api.middleware import BodySizeLimit, RequestObservability, SecurityHeaders
from app.core.db import get_session


@pytest.fixture
def client(session: Session) -> Iterator[TestClient]:
    api = create_api()
    api.dependency_overrides[get_session] = lambda: session
    with TestClient(RequestObservability(SecurityHeaders(BodySizeLimit(api))), raise_server_exceptions=False) as c:
        yield c
