"""The nginx files in deploy/ agree with the app: nginx serves the pages itself, so it must send the same security
headers the app sends with what it serves (app/api/middleware.py). The TLS sample is a valid nginx config, and served
by a real nginx it answers only to its own name (redirecting to that name, never to the client's Host), hides its
version and bounds the websockets one address may hold."""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.api import middleware
from app.core.config import settings
from tools.server import free_port

NGINX = Path(__file__).resolve().parents[1] / "deploy" / "nginx"


def test_nginx_sends_the_apps_security_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "app_env", "prod")  # behind TLS: HSTS included
    app = {k.decode(): v.decode() for k, v in middleware._security_headers()}
    text = (NGINX / "app-security-headers.conf").read_text()
    nginx = {name.lower(): value for name, value in re.findall(r'^add_header (\S+) "(.*)" always;$', text, re.M)}
    assert nginx == app


NEEDS_NGINX = pytest.mark.skipif(
    shutil.which("nginx") is None, reason="nginx is installed by tools/dev/ensure-test-services.sh"
)
NAME = "www.example.com"  # the sample's server name
EVENT_SOCKETS_PER_ADDRESS = 50  # app-locations.conf: limit_conn event_sockets


@dataclass
class Site:
    """The TLS sample served by a real nginx on loopback: `http` and `https` stand for ports 80 and 443."""

    http: int
    https: int
    ca: Path  # the self-signed certificate of NAME


def _sample(tmp_path: Path, ports: tuple[int, int, int] | None = None) -> Path:
    """site-tls.conf as an operator would adapt it, wrapped in a complete nginx.conf; with `ports` (80, 443 and the
    app's), moved to those loopback ports."""
    snippets = tmp_path / "snippets"
    snippets.mkdir()
    for name in ("app-locations.conf", "app-security-headers.conf"):
        shutil.copyfile(NGINX / name, snippets / name)
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={NAME}",
         "-addext", f"subjectAltName=DNS:{NAME}",
         "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    site = (NGINX / "site-tls.conf").read_text()
    site = site.replace(f"/etc/letsencrypt/live/{NAME}/fullchain.pem", str(tmp_path / "cert.pem"))
    site = site.replace(f"/etc/letsencrypt/live/{NAME}/privkey.pem", str(tmp_path / "key.pem"))
    site = site.replace("/opt/coastline/.web/build/client", str(tmp_path))
    if ports:
        http, https, upstream = ports
        site = re.sub(r"^\s*listen \[::\]:.*\n", "", site, flags=re.M)  # loopback IPv4 only here
        site = re.sub(r"listen 80\b", f"listen 127.0.0.1:{http}", site)
        site = re.sub(r"listen 443\b", f"listen 127.0.0.1:{https}", site)
        site = re.sub(r"server 127\.0\.0\.1:\d+", f"server 127.0.0.1:{upstream}", site)
    (tmp_path / "site.conf").write_text(site)
    temp = "".join(
        f" {kind}_temp_path {tmp_path}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\ndaemon off;\nevents {{}}\n"
        f"http {{\n include /etc/nginx/mime.types;\n access_log off;\n{temp} include {tmp_path}/site.conf;\n}}\n"
    )
    return conf


class _Upstream:
    """Stands in for the app processes: a websocket upgrade is accepted and held open, anything else answered."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            request = conn.recv(65536)
            if request.startswith(b"GET /_event"):
                conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
                self.held.append(conn)
            else:
                conn.sendall(b"HTTP/1.1 200 OK\r\nServer: app\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
                conn.close()

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


@NEEDS_NGINX
def test_the_tls_sample_is_a_valid_nginx_config(tmp_path: Path) -> None:
    conf = _sample(tmp_path)  # as shipped: ports 80 and 443, IPv4 and IPv6
    done = subprocess.run(["nginx", "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    upstream = _Upstream()
    http, https = free_port(), free_port()
    conf = _sample(tmp_path, (http, https, upstream.port))
    nginx = subprocess.Popen(
        ["nginx", "-p", str(tmp_path), "-c", str(conf)], stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 20
        while not _accepts(https):
            assert nginx.poll() is None, nginx.communicate()[1].decode()
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
        yield Site(http=http, https=https, ca=tmp_path / "cert.pem")
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        upstream.close()


def _accepts(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


def _exchange(sock: socket.socket, request: str) -> bytes:
    """What the server sends back to `request` until it closes the connection (b"": closed without a word)."""
    sock.sendall(request.encode())
    answer = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            answer += chunk
            if b"\r\n\r\n" in answer and not answer.startswith(b"HTTP/1.1 101"):
                break
    return answer


def _plain(site: Site, request: str) -> bytes:
    with socket.create_connection(("127.0.0.1", site.http), timeout=10) as sock:
        return _exchange(sock, request)


def _tls(site: Site, sni: str | None) -> ssl.SSLSocket:
    context = ssl.create_default_context(cafile=str(site.ca))
    context.check_hostname = sni == NAME
    if sni != NAME:
        context.verify_mode = ssl.CERT_NONE
    sock = socket.create_connection(("127.0.0.1", site.https), timeout=10)
    try:
        return context.wrap_socket(sock, server_hostname=sni)
    except BaseException:
        sock.close()
        raise


def _get(host: str, target: str = "/", close: bool = True) -> str:
    return f"GET {target} HTTP/1.1\r\nHost: {host}\r\n" + ("Connection: close\r\n" if close else "") + "\r\n"


def _headers(answer: bytes) -> dict[str, str]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode().split("\r\n")[1:]
    return {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in head)}


@NEEDS_NGINX
def test_port_80_redirects_to_the_configured_name_whatever_the_request_says(site: Site) -> None:
    ours = [_get(NAME, "/about?x=1"), _get("WWW.Example.COM:80", "/about?x=1"), _get("x", f"http://{NAME}/about?x=1")]
    foreign = [_get("evil.example", "/about?x=1"), _get(NAME, "http://evil.example/about?x=1")]
    answers = [_plain(site, request) for request in ours + foreign]
    # Our name is redirected; nothing (closed without an answer, a redirect) ever points anywhere but to it.
    assert [a.split(b"\r\n", 1)[0] for a in answers[: len(ours)]] == [b"HTTP/1.1 301 Moved Permanently"] * len(ours)
    assert [_headers(a)["location"] for a in answers if a] == [f"https://{NAME}/about?x=1"] * len(ours), answers
    assert [_headers(a)["server"] for a in answers if a] == ["nginx"] * len(ours)  # no version


@NEEDS_NGINX
def test_unknown_names_are_closed_without_an_answer(site: Site) -> None:
    for request in (
        _get("evil.example"),
        _get("127.0.0.1"),
        _get(NAME, "http://evil.example/"),
        "GET / HTTP/1.0\r\n\r\n",  # no name at all
    ):
        assert _plain(site, request) == b"", request
    with _tls(site, NAME) as sock:  # our certificate, then another site's name
        assert _exchange(sock, _get("evil.example")) == b""


@NEEDS_NGINX
def test_tls_is_refused_to_unknown_names_and_served_to_ours(site: Site) -> None:
    for sni in ("evil.example", None):
        with pytest.raises(ssl.SSLError):
            _tls(site, sni).close()
    with _tls(site, NAME) as sock:
        answer = _exchange(sock, _get(NAME, "/api/health"))
    assert answer.startswith(b"HTTP/1.1 200"), answer
    headers = _headers(answer)
    assert headers["server"] == "nginx", headers  # nginx's own name, without the version (and not the app's)


@NEEDS_NGINX
def test_one_address_holds_a_bounded_number_of_websockets(site: Site) -> None:
    upgrade = (
        f"GET /_event/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {NAME}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )

    def open_socket() -> tuple[ssl.SSLSocket, bytes]:
        sock = _tls(site, NAME)
        sock.sendall(upgrade.encode())
        return sock, sock.recv(4096)

    held = []
    try:
        for _ in range(EVENT_SOCKETS_PER_ADDRESS):
            sock, answer = open_socket()
            held.append(sock)
            assert answer.startswith(b"HTTP/1.1 101"), (len(held), answer)
        extra, answer = open_socket()
        extra.close()
        assert answer.startswith(b"HTTP/1.1 429"), answer
        held.pop().close()  # a socket that closes makes room for another
        deadline = time.monotonic() + 10
        while True:
            sock, answer = open_socket()
            held.append(sock)
            if answer.startswith(b"HTTP/1.1 101") or time.monotonic() > deadline:
                break
            held.pop().close()
            time.sleep(0.1)
        assert answer.startswith(b"HTTP/1.1 101"), answer
    finally:
        for sock in held:
            sock.close()
