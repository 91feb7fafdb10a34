"""A local Calendly API for tests: /users/me and /event_types, bearer-token checked, told to hang or fail on demand."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

ORG = "https://api.calendly.com/organizations/ORG-1"


def event_type(slug: str, name: str, **overrides: Any) -> dict[str, Any]:
    """An event type as Calendly's API returns it (the fields the product reads, plus a few it ignores)."""
    return {
        "uri": f"https://api.calendly.com/event_types/{slug}",
        "name": name,
        "active": True,
        "slug": slug,
        "scheduling_url": f"https://calendly.com/acme/{slug}",
        "duration": 30,
        "kind": "solo",
        "type": "StandardEventType",
        "secret": False,
        "color": "#0069ff",
        "description_plain": f"About {name}",
        "description_html": f"<p>About {name}</p>",
        "profile": {"type": "User", "name": "Marcus Reed", "owner": "https://api.calendly.com/users/U-1"},
        **overrides,
    }


class FakeCalendly:
    def __init__(self, token: str) -> None:
        self.token = token
        self.event_types: list[dict[str, Any]] = []
        self.page_size = 100
        self.fail_status: int | None = None  # answer every call with this status
        self.hang = False  # hold every call until stop()
        self.requests: list[str] = []
        self.cancellations: list[tuple[str, dict[str, Any]]] = []  # (event uuid, body) of each POST .../cancellation
        self._release = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _json(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                fake.requests.append(self.path)
                if fake.hang:
                    fake._release.wait(30)
                    return
                if fake.fail_status:
                    self._json(fake.fail_status, {"title": "Internal Server Error", "message": "boom"})
                    return
                if self.headers.get("authorization") != f"Bearer {fake.token}":
                    self._json(401, {"title": "Unauthenticated", "message": "The access token is invalid"})
                    return
                url = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                if url.path == "/users/me":
                    user = {"uri": "https://api.calendly.com/users/U-1", "name": "Marcus Reed"}
                    self._json(200, {"resource": {**user, "current_organization": ORG}})
                elif url.path == "/event_types":
                    self._event_types(query)
                else:
                    self._json(404, {"title": "Resource Not Found"})

            def do_POST(self) -> None:
                fake.requests.append(self.path)
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
                if fake.fail_status:
                    self._json(fake.fail_status, {"title": "Internal Server Error", "message": "boom"})
                    return
                if self.headers.get("authorization") != f"Bearer {fake.token}":
                    self._json(401, {"title": "Unauthenticated", "message": "The access token is invalid"})
                    return
                parts = urlsplit(self.path).path.strip("/").split("/")
                if len(parts) == 3 and parts[0] == "scheduled_events" and parts[2] == "cancellation":
                    fake.cancellations.append((parts[1], body))
                    self._json(201, {"resource": {"canceled_by": "Marcus Reed", "reason": body.get("reason")}})
                else:
                    self._json(404, {"title": "Resource Not Found"})

            def _event_types(self, query: dict[str, str]) -> None:
                if query.get("organization") != ORG and "page" not in query:
                    self._json(400, {"title": "Invalid Argument", "message": "organization or user required"})
                    return
                start = int(query.get("page", "0"))
                rows = fake.event_types
                if query.get("active") == "true":
                    rows = [r for r in rows if r["active"]]
                chunk = rows[start : start + fake.page_size]
                more = start + fake.page_size < len(rows)
                next_page = f"{fake.url}/event_types?page={start + fake.page_size}&active=true" if more else None
                self._json(200, {"collection": chunk, "pagination": {"count": len(chunk), "next_page": next_page}})

        return Handler

    def start(self) -> FakeCalendly:
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        self._release.set()
        self.server.shutdown()
        self.server.server_close()
