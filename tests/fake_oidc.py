"""A local OpenID Connect provider for tests: discovery, JWKS and a token endpoint issuing RS256 ID tokens."""

from __future__ import annotations

import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm


class FakeOIDC:
    def __init__(self, client_id: str, client_secret: str) -> None:
        self.client_id, self.client_secret = client_id, client_secret
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.codes: dict[str, dict[str, Any]] = {}
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def discovery_url(self) -> str:
        return f"{self.url}/.well-known/openid-configuration"

    def issue_code(self, **claims: Any) -> str:
        """The code Google would hand the browser after the user consents with these claims."""
        code = secrets.token_urlsafe(16)
        self.codes[code] = claims
        return code

    def id_token(self, claims: dict[str, Any], key: Any = None) -> str:
        now = int(time.time())
        body = {"iss": self.url, "aud": self.client_id, "iat": now, "exp": now + 300, **claims}
        return jwt.encode(body, key or self.key, algorithm="RS256", headers={"kid": "test-key"})

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        provider = self

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
                if self.path == "/.well-known/openid-configuration":
                    self._json(
                        200,
                        {
                            "issuer": provider.url,
                            "authorization_endpoint": f"{provider.url}/authorize",
                            "token_endpoint": f"{provider.url}/token",
                            "jwks_uri": f"{provider.url}/jwks",
                        },
                    )
                elif self.path == "/jwks":
                    jwk = json.loads(RSAAlgorithm.to_jwk(provider.key.public_key()))
                    self._json(200, {"keys": [{**jwk, "kid": "test-key", "use": "sig", "alg": "RS256"}]})
                else:
                    self._json(404, {})

            def do_POST(self) -> None:
                form = {
                    k: v[0] for k, v in parse_qs(self.rfile.read(int(self.headers["content-length"])).decode()).items()
                }
                claims = provider.codes.pop(form.get("code", ""), None)
                if (
                    claims is None
                    or form.get("client_id") != provider.client_id
                    or form.get("client_secret") != provider.client_secret
                ):
                    self._json(400, {"error": "invalid_grant"})
                    return
                self._json(200, {"id_token": provider.id_token(claims), "token_type": "Bearer"})

        return Handler

    def start(self) -> FakeOIDC:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
