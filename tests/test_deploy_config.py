"""The nginx files in deploy/ agree with the app: nginx serves the pages itself, so it must send the same security
headers the app sends with what it serves (app/api/middleware.py), and the TLS sample must be a valid nginx config."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from app.api import middleware
from app.core.config import settings

NGINX = Path(__file__).resolve().parents[1] / "deploy" / "nginx"


def test_nginx_sends_the_apps_security_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "app_env", "prod")  # behind TLS: HSTS included
    app = {k.decode(): v.decode() for k, v in middleware._security_headers()}
    text = (NGINX / "app-security-headers.conf").read_text()
    nginx = {name.lower(): value for name, value in re.findall(r'^add_header (\S+) "(.*)" always;$', text, re.M)}
    assert nginx == app


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is installed by scripts/ensure-test-services.sh")
def test_the_tls_sample_is_a_valid_nginx_config(tmp_path: Path) -> None:
    snippets = tmp_path / "snippets"
    snippets.mkdir()
    for name in ("app-locations.conf", "app-security-headers.conf"):
        shutil.copyfile(NGINX / name, snippets / name)
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=www.example.com",
         "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    site = (NGINX / "site-tls.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/www.example.com/fullchain.pem", str(tmp_path / "cert.pem"))
    site = site.replace("/etc/letsencrypt/live/www.example.com/privkey.pem", str(tmp_path / "key.pem"))
    site = site.replace("/srv/app/.web/build/client", str(tmp_path))
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\nevents {{}}\n"
        f"http {{\n include /etc/nginx/mime.types;\n include {tmp_path}/site.conf;\n}}\n"
    )
    done = subprocess.run(
        ["nginx", "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
