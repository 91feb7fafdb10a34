"""The systemd units in deploy/systemd/ are valid for systemd and confine the app as docs/deploy.md says.

`systemd-analyze verify` reads each unit as systemd would load it, and warns about an unknown option (a misspelt
`ProtecSystem=` would leave the process unconfined without a word at start), an unparsable value or a command that is
not executable. The units are rendered with this checkout in place of /opt/coastline, so the commands they start are
the real ones; a unit is valid only when verify says nothing at all."""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlmodel import Session

from app.core.config import Settings
from app.core.db import make_engine
from app.models import JobOpening
from tests.conftest import PG_ADMIN_URL, TEST_DB_NAME, fresh_database
from tools.server import free_port

ROOT = Path(__file__).resolve().parents[1]
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
UNITS = ROOT / "deploy" / "systemd"
INSTALL_DIR = "/opt/coastline"  # the placeholder the units use for the checkout
SYSTEMD_ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"
NEEDS_SYSTEMD_ANALYZE = pytest.mark.skipif(
    not Path(SYSTEMD_ANALYZE).is_file(), reason="systemd-analyze is not installed (Debian package systemd)"
)
# What verify loads: each unit, the template as one instance (a port).
LOADED = ["coastline-app@8001.service", "coastline-migrate.service", "coastline-backup.service",
          "coastline-pages.service", "coastline-backup.timer", "coastline.target"]  # fmt: skip
SERVICES = [
    "coastline-app@.service",
    "coastline-migrate.service",
    "coastline-backup.service",
    "coastline-pages.service",
]
PAGES = f"{INSTALL_DIR}/.web/build/client"  # the build's pages, which nginx serves and the pages service rewrites

# The confinement every service has: a dedicated user, nothing written outside /var/lib/coastline (and the backup
# folder, the pages folder), no privilege, IP and Unix sockets only, the system calls of an ordinary service.
HARDENING = {
    "User": "coastline",
    "Group": "coastline",
    "EnvironmentFile": "/etc/coastline/coastline.env",
    "StateDirectory": "coastline",
    "UMask": "0077",
    "NoNewPrivileges": "yes",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "PrivateDevices": "yes",
    "PrivateMounts": "yes",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes",
    "ProtectClock": "yes",
    "ProtectHostname": "yes",
    "ProtectProc": "invisible",
    "RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
    "RestrictNamespaces": "yes",
    "RestrictRealtime": "yes",
    "RestrictSUIDSGID": "yes",
    "RemoveIPC": "yes",
    "CapabilityBoundingSet": "",
    "AmbientCapabilities": "",
    "LockPersonality": "yes",
    "MemoryDenyWriteExecute": "yes",
    "SystemCallArchitectures": "native",
    "SystemCallFilter": "@system-service",
}
# Where a service's confinement differs, and why (its unit says so too). The pages service runs Node, whose JIT maps
# memory writable and executable, and writes pages that nginx, another user, reads.
DIFFERS: dict[str, dict[str, str | None]] = {
    "coastline-pages.service": {"MemoryDenyWriteExecute": None, "UMask": "0022"},
}


def options(name: str) -> dict[str, dict[str, list[str]]]:
    """A unit file's sections and their options (an option may be given several times: every value, in order)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in (UNITS / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key, []).append(value)
    return sections


def environment(service: dict[str, list[str]]) -> dict[str, str]:
    return dict(pair.split("=", 1) for line in service.get("Environment", []) for pair in line.split())


def render(target: Path, change: tuple[str, str] | None = None) -> Path:
    """The units with this checkout as the install folder (and one text changed in the app's unit, if asked)."""
    target.mkdir(exist_ok=True)
    for unit in UNITS.iterdir():
        text = unit.read_text().replace(INSTALL_DIR, str(ROOT))
        if change and unit.name == "coastline-app@.service":
            assert change[0] in text
            text = text.replace(change[0], change[1])
        (target / unit.name).write_text(text)
    return target


def verify(folder: Path) -> tuple[int, str]:
    done = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", *(f"./{name}" for name in LOADED)],
        cwd=folder, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return done.returncode, (done.stdout + done.stderr).strip()


@NEEDS_SYSTEMD_ANALYZE
def test_the_units_pass_systemd_analyze_verify_without_a_word(tmp_path: Path) -> None:
    assert sorted(p.name for p in UNITS.iterdir()) == sorted([*SERVICES, "coastline-backup.timer", "coastline.target"])
    assert verify(render(tmp_path)) == (0, "")


@NEEDS_SYSTEMD_ANALYZE
@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (("ProtectSystem=strict", "ProtecSystem=strict"), "Unknown key 'ProtecSystem'"),
        (("ProtectSystem=strict", "ProtectSystem=strickt"), "Failed to parse protect system value"),
        (("SystemCallFilter=@system-service", "SystemCallFilter=@system-servic"), "Unknown system call group"),
        (("ExecStart=" + str(ROOT) + "/.venv/bin/reflex", "ExecStart=/nowhere/reflex"), "is not executable"),
    ],
)
def test_a_misspelt_option_or_a_missing_command_fails_the_check(
    tmp_path: Path, change: tuple[str, str], complaint: str
) -> None:
    rendered_change = (change[0].replace(INSTALL_DIR, str(ROOT)), change[1])
    _, said = verify(render(tmp_path, rendered_change))
    assert complaint in said


@NEEDS_SYSTEMD_ANALYZE
def test_systemd_rates_every_service_ok(tmp_path: Path) -> None:
    """`systemd-analyze security` scores what a service may still do, 0 (nothing) to 10; under 2 is its "OK". What is
    left: the network (the app serves it) and the system calls @system-service allows."""
    services = [
        "coastline-app@8001.service", "coastline-migrate.service", "coastline-backup.service", "coastline-pages.service"
    ]  # fmt: skip
    done = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=yes", "--threshold=19", "--no-pager", *(f"./{s}" for s in services)],
        cwd=render(tmp_path), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    scores = dict(re.findall(r"Overall exposure level for (\S+): ([\d.]+)", done.stdout))
    assert scores.keys() == set(services), done.stdout + done.stderr
    assert done.returncode == 0 and all(float(v) < 2 for v in scores.values()), scores


@pytest.mark.parametrize("name", SERVICES)
def test_every_service_is_confined(name: str) -> None:
    service = options(name)["Service"]
    for key, value in {**HARDENING, **DIFFERS.get(name, {})}.items():
        assert service.get(key) == (None if value is None else [value]), (name, key)
    env = environment(service)
    # The app writes where systemd lets it: its data folder is the state directory's.
    assert env["DATA_DIR"].startswith("/var/lib/coastline/") and env["APP_ENV"] == "prod"
    assert {"DATA_DIR", "APP_ENV"} <= {field.upper() for field in Settings.model_fields}
    assert service["WorkingDirectory"] == [INSTALL_DIR]
    assert service["ExecStart"][0].startswith(INSTALL_DIR + "/")


def test_the_app_process_serves_the_api_and_websocket_on_its_instance_port() -> None:
    unit = options("coastline-app@.service")
    service = unit["Service"]
    assert service["ExecStart"] == [
        f"{INSTALL_DIR}/.venv/bin/reflex run --env prod --backend-only --backend-port %i --backend-host 127.0.0.1"
    ]
    env = environment(service)
    # Everything Reflex writes at start goes under the state directory; the checkout (and the build nginx serves)
    # stays read-only.
    for name in ("REFLEX_WEB_WORKDIR", "REFLEX_STATES_WORKDIR", "HOME"):
        assert env[name].startswith("/var/lib/coastline"), name
    assert env["GRANIAN_WORKERS"] == "1" and env["REFLEX_BACKEND_ONLY"] == "true"
    assert service["Restart"] == ["on-failure"]
    assert int(service["LimitNOFILE"][0]) >= 65536  # one socket per open tab
    assert unit["Install"]["WantedBy"] == ["coastline.target"]
    assert unit["Unit"]["PartOf"] == ["coastline.target"]


def test_the_pages_service_keeps_the_pages_nginx_serves_current() -> None:
    unit = options("coastline-pages.service")
    service = unit["Service"]
    assert service["ExecStart"] == [f"{INSTALL_DIR}/.venv/bin/python -m app.cli pages --watch --folder {PAGES}"]
    assert service["ReadWritePaths"] == [PAGES]  # the one folder it writes besides the state directory
    assert f"root {PAGES};" in (ROOT / "deploy" / "nginx" / "site-tls.conf").read_text()  # the folder nginx serves
    assert service["Restart"] == ["on-failure"]
    assert unit["Install"]["WantedBy"] == ["coastline.target"]
    assert unit["Unit"]["PartOf"] == ["coastline.target"]
    # The checkout's Node (the build's version), before any other the host has on its PATH.
    path = environment(service)["PATH"].replace(INSTALL_DIR, str(ROOT))
    assert shutil.which("node", path=path) == str(ROOT / ".tools" / "node_modules" / ".bin" / "node")


def test_the_nginx_sample_sends_requests_to_the_ports_the_runbook_enables() -> None:
    site = (ROOT / "deploy" / "nginx" / "site-tls.conf").read_text()
    upstream = re.findall(r"server 127\.0\.0\.1:(\d+)", site)
    runbook = (ROOT / "docs" / "deploy.md").read_text()
    enabled = re.findall(r"coastline-app@(\d+)\.service", runbook)
    assert upstream and set(upstream) <= set(enabled)


@NEEDS_SYSTEMD_ANALYZE
def test_the_timer_starts_the_backup_nightly_and_makes_up_a_missed_night() -> None:
    timer = options("coastline-backup.timer")["Timer"]
    assert timer["Unit"] == ["coastline-backup.service"] and timer["Persistent"] == ["true"]
    backup = options("coastline-backup.service")["Service"]
    assert backup["ExecStart"] == [f"{INSTALL_DIR}/deploy/backup.sh /var/backups/coastline"]
    assert backup["ReadWritePaths"] == ["/var/backups/coastline"] and backup["Type"] == ["oneshot"]
    done = subprocess.run(
        [SYSTEMD_ANALYZE, "calendar", "--iterations=2", timer["OnCalendar"][0]],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.search(r"Next elapse: .* 02:30:00 UTC", done.stdout), done.stdout


def test_the_sample_environment_file_names_only_settings_the_app_reads() -> None:
    sample = (ROOT / "deploy" / "coastline.env.example").read_text()
    names = re.findall(r"^#?([A-Z][A-Z0-9_]*)=", sample, re.M)
    fields = {field.upper() for field in Settings.model_fields}
    assert names and [n for n in names if n not in fields] == []  # a misspelt name would be ignored without a word
    assert {"PUBLIC_URL", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "TRUSTED_PROXY_HOPS"} <= set(names)


# --- the app process under the unit's confinement ------------------------------------------------------------------
# Without systemd as process 1 (a container), the confinement is rebuilt from the kernel's own parts: a mount
# namespace in which every mount is read-only but the state directory (ProtectSystem=strict) with a fresh /tmp
# (PrivateTmp), no capabilities and no new privileges (setpriv), and the kernel's memory-deny-write-execute
# (PR_SET_MDWE, Linux 6.3; systemd's MemoryDenyWriteExecute refuses the same mappings). The user stays root without
# capabilities: on this machine the virtualenv's Python lives under /root (a host installs it outside, "Service
# files"); the read-only mounts, not file permissions, are what keeps it from writing. The pages service runs without
# memory-deny-write-execute, as its unit does (Node cannot run under it).

SANDBOX = r"""
n=$1; shift; writable=("${@:1:$n}"); shift "$n"
m=$1; shift; kept=("${@:1:$m}"); shift "$m"
carried=("${kept[@]}" "${writable[@]}")  # a writable folder may lie inside a kept one: mounted after it
mount -t tmpfs tmpfs /mnt  # holds the carried folders while /tmp is replaced
for i in "${!carried[@]}"; do mkdir "/mnt/$i"; mount --bind "${carried[$i]}" "/mnt/$i"; done
awk '{print $5}' /proc/self/mountinfo | sort -u | while read -r at; do mount -o remount,bind,ro "$at" 2>/dev/null; done
mount -t tmpfs -o mode=1777 tmpfs /tmp
for i in "${!carried[@]}"; do
    mkdir -p "${carried[$i]}" 2>/dev/null; mount --move "/mnt/$i" "${carried[$i]}" 2>/dev/null
    if [ "$i" -ge "$m" ]; then mount -o remount,bind,rw "${carried[$i]}"; fi
done
exec setpriv --no-new-privs --bounding-set=-all "$@"
"""


def confined(writable: list[Path], command: list[str], *, kept: tuple[Path, ...] = (), mdwe: bool = True) -> list[str]:
    """`command` under the rebuilt confinement, `writable` its only writable folders, with the kernel's
    memory-deny-write-execute unless `mdwe` is false. A checkout under /tmp (a CI clone), and the `kept` folders
    (under the test's /tmp: what an install has in /opt), are carried into the private /tmp, read-only: in an install
    the checkout lives in /opt, which the unit leaves as is."""
    carried = [*([ROOT] if ROOT.is_relative_to("/tmp") else []), *kept]
    return ["unshare", "-m", "--propagation", "private", "bash", "-c", SANDBOX, "sandbox", str(len(writable)),
            *map(str, writable), str(len(carried)), *map(str, carried), *([sys.executable, "-c", MDWE] if mdwe else []),
            *command]  # fmt: skip


MDWE = (  # PR_SET_MDWE (65), PR_MDWE_REFUSE_EXEC_GAIN (1); kept across execve
    "import ctypes, os, sys\n"
    "if ctypes.CDLL(None, use_errno=True).prctl(65, 1, 0, 0, 0): raise SystemExit('PR_SET_MDWE refused')\n"
    "os.execv(sys.argv[1], sys.argv[1:])\n"
)


def _can_confine() -> str | None:
    """Why this machine cannot rebuild the confinement, or None."""
    if os.geteuid() != 0:
        return "needs root (a mount namespace)"
    if not (shutil.which("unshare") and shutil.which("setpriv") and Path("/mnt").is_dir()):
        return "needs unshare and setpriv (util-linux) and /mnt"
    probe = subprocess.run([sys.executable, "-c", MDWE, "/bin/true"], capture_output=True, check=False)
    if probe.returncode:
        return "the kernel has no PR_SET_MDWE (Linux 6.3+)"
    tried = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True, check=False)
    return "unshare -m is not allowed here" if tried.returncode else None


@pytest.fixture
def units_database() -> Iterator[str]:
    name = f"{TEST_DB_NAME}_units"
    url = fresh_database(name)
    engine = make_engine(url)
    with Session(engine) as s:
        s.add(JobOpening(code="JOB-900", title="Operator", department="IT", location="Remote"))
        s.commit()
    engine.dispose()
    yield url
    admin = make_engine(PG_ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def test_the_app_process_serves_under_the_units_confinement(units_database: str, tmp_path: Path) -> None:
    reason = _can_confine()
    if reason:
        pytest.skip(reason)
    state, port = tmp_path / "state", free_port()
    state.mkdir(mode=0o700)

    def placed(value: str) -> str:
        return value.replace(INSTALL_DIR, str(ROOT)).replace("/var/lib/coastline", str(state)).replace("%i", str(port))

    service = options("coastline-app@.service")["Service"]
    env = {
        "PATH": os.environ["PATH"],
        "LANG": "C.UTF-8",
        # The environment file's part.
        "DATABASE_URL": units_database,
        "SECRET_KEY": "confined-" + "k" * 48,
        "PUBLIC_URL": f"http://127.0.0.1:{port}",
        "TRUSTED_PROXY_HOPS": "1",
        **{name: placed(value) for name, value in environment(service).items()},
    }
    command = [placed(word) for word in service["ExecStart"][0].split()]
    checkout_states = _stamp(ROOT / ".states")
    log = (tmp_path / "app.log").open("wb")
    proc = subprocess.Popen(
        confined([state], command),
        cwd=placed(service["WorkingDirectory"][0]), env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, (tmp_path / "app.log").read_text()[-3000:]
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, (tmp_path / "app.log").read_text()[-3000:]
            time.sleep(0.5)
        # A sign-in (bcrypt), an application with its CV (written to DATA_DIR), the websocket.
        login = httpx.post(url + "/api/auth/login", json={"identifier": "nobody", "password": "Wrong-pass-1"})
        assert login.status_code == 401
        fields = {"firstName": "Jordan", "lastName": "Lee", "phone": "772-555-0199", "email": "jordan@example.com",
                  "linkedinProfile": "", "jobId": "JOB-900"}  # fmt: skip
        sent = httpx.post(url + "/api/applications/submit", data=fields, files={"resume": ("cv.pdf", PDF)})
        assert sent.status_code == 201, sent.text
        stored = list((state / "data" / "applications").iterdir())
        assert [p.read_bytes() for p in stored] == [PDF]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(
                f"GET /_event/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {url}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            assert sock.recv(4096).startswith(b"HTTP/1.1 101")
        # Everything it wrote is under the state directory: the checkout has nothing new (other runs in this checkout
        # may have left a .states folder of their own; this process must not have touched it).
        assert _stamp(ROOT / ".states") == checkout_states
        assert {p.name for p in state.iterdir()} <= {"data", "states", "web"}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # systemd's stop: SIGTERM, then SIGKILL after TimeoutStopSec
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()
    assert "Read-only file system" not in (tmp_path / "app.log").read_text()


def test_the_backup_runs_under_its_units_confinement(units_database: str, tmp_path: Path) -> None:
    reason = _can_confine()
    if reason:
        pytest.skip(reason)
    state, backups = tmp_path / "state", tmp_path / "backups"
    (state / "data" / "applications").mkdir(parents=True)
    (state / "data" / "applications" / "cv.pdf").write_bytes(PDF)
    backups.mkdir()

    def placed(value: str) -> str:
        value = value.replace(INSTALL_DIR, str(ROOT)).replace("/var/backups/coastline", str(backups))
        return value.replace("/var/lib/coastline", str(state))

    service = options("coastline-backup.service")["Service"]
    writable = [Path(placed(path)) for path in ["/var/lib/coastline", *service["ReadWritePaths"]]]
    env = {
        "PATH": os.environ["PATH"],
        "LANG": "C.UTF-8",
        "DATABASE_URL": units_database,
        "SECRET_KEY": "confined-" + "k" * 48,
        "PUBLIC_URL": "https://www.example.com",
        **{name: placed(value) for name, value in environment(service).items()},
    }
    done = subprocess.run(
        confined(writable, [placed(word) for word in service["ExecStart"][0].split()]),
        cwd=placed(service["WorkingDirectory"][0]), env=env, capture_output=True, text=True, timeout=180,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    runs = list(backups.iterdir())
    assert len(runs) == 1, done.stdout  # in the folder the unit lets it write, not in its private /tmp
    run = runs[0]
    assert (run / "database.pgdump").stat().st_size > 0
    assert (run / "app" / "files" / "applications" / "cv.pdf").read_bytes() == PDF
    assert "JOB-900" in (run / "app" / "tables" / "job_openings.jsonl").read_text()


NODE = ROOT / ".tools" / "node_modules" / ".bin" / "node"  # what `make setup` installs, and the pages unit runs
_LOOP_JS = "let s = 0; for (let i = 0; i < 1e7; i++) s += i; console.log(s)"  # hot enough for the JIT to compile it


def test_node_cannot_run_under_memory_deny_write_execute() -> None:
    """Why the pages service goes without MemoryDenyWriteExecute, and the app units (which keep it) leave the
    rendering to it: V8's JIT maps memory writable and executable. Should Node ever run under it, the pages unit can
    have it back."""
    probe = subprocess.run([sys.executable, "-c", MDWE, "/bin/true"], capture_output=True, check=False)
    if probe.returncode:
        pytest.skip("the kernel has no PR_SET_MDWE (Linux 6.3+)")
    free = subprocess.run([NODE, "-e", _LOOP_JS], capture_output=True, text=True, timeout=60, check=False)
    assert (free.returncode, free.stdout.strip()) == (0, "49999995000000"), free.stderr
    denied = subprocess.run(
        [sys.executable, "-c", MDWE, NODE, "-e", _LOOP_JS], capture_output=True, text=True, timeout=60, check=False
    )
    assert denied.returncode != 0 and "49999995000000" not in denied.stdout


def test_the_pages_service_renders_under_its_units_confinement(units_database: str, tmp_path: Path) -> None:
    """The unit's command, environment and umask, confined as the unit confines it (without memory-deny-write-execute),
    on a copy of a build's pages: it renders them with the database's content (the job JOB-900, which the build did
    not show), writing only the pages folder, readable by nginx."""
    reason = _can_confine()
    if reason:
        pytest.skip(reason)
    built = ROOT / os.environ.get("REFLEX_WEB_WORKDIR", ".web")
    if not ((built / "build" / "client" / ".content.sha256").is_file() and (built / "build" / "server").is_dir()):
        pytest.skip(f"needs a frontend build of this version in {built} (`make build`)")
    # The install's web folder, read-only but for its pages: the build's pages (without the assets, which rendering
    # does not read), its server build and the packages that one imports.
    state, web = tmp_path / "state", tmp_path / "web"
    state.mkdir(mode=0o700)
    pages = web / "build" / "client"
    shutil.copytree(built / "build" / "client", pages, ignore=shutil.ignore_patterns("assets"))
    shutil.copytree(built / "build" / "server", web / "build" / "server")
    (web / "node_modules").symlink_to((built / "node_modules").resolve())
    baked = (pages / ".content.sha256").read_text()
    assert "Operator" not in (pages / "careers" / "index.html").read_text()

    def placed(value: str) -> str:
        value = value.replace(INSTALL_DIR + "/.web", str(web)).replace(INSTALL_DIR, str(ROOT))
        return value.replace("/var/lib/coastline", str(state))

    service = options("coastline-pages.service")["Service"]
    writable = [Path(placed(path)) for path in ["/var/lib/coastline", *service["ReadWritePaths"]]]
    assert writable[1] == pages
    env = {
        "LANG": "C.UTF-8",
        "DATABASE_URL": units_database,
        "SECRET_KEY": "confined-" + "k" * 48,
        "PUBLIC_URL": "https://www.example.com",
        **{name: placed(value) for name, value in environment(service).items()},  # PATH too: the checkout's Node
    }
    log_file = tmp_path / "pages.log"
    with log_file.open("wb") as log:
        proc = subprocess.Popen(
            confined(writable, [placed(word) for word in service["ExecStart"][0].split()], kept=(web,), mdwe=False),
            cwd=placed(service["WorkingDirectory"][0]), env=env, stdout=log, stderr=subprocess.STDOUT,
            umask=int(service["UMask"][0], 8), start_new_session=True,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 180
            while (pages / ".content.sha256").read_text() == baked:  # --watch: the first check is at once
                said = log_file.read_text()
                assert proc.poll() is None and "Traceback" not in said, said[-3000:]  # a failed render is logged
                assert time.monotonic() < deadline, said[-3000:]
                time.sleep(0.5)
            assert proc.poll() is None  # it keeps watching
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    said = log_file.read_text()
    assert "Read-only file system" not in said and "Traceback" not in said, said[-3000:]
    for page in (pages / "careers" / "index.html", pages / "careers.html"):
        html = page.read_text()
        assert "Operator" in re.sub(r"<script\b.*?</script>", "", html, flags=re.S), page  # in the markup
        assert gzip.decompress(page.with_name(page.name + ".gz").read_bytes()).decode() == html
        for file in (page, page.with_name(page.name + ".gz"), page.with_name(page.name + ".br")):
            assert file.stat().st_mode & 0o777 == 0o644, file  # nginx, another user, reads them
    assert not [p.name for p in pages.rglob("*.tmp-*")]


def _stamp(folder: Path) -> tuple[tuple[str, float], ...]:
    """A folder's files and their modification times (empty when it does not exist)."""
    if not folder.exists():
        return ()
    return tuple(sorted((str(p.relative_to(folder)), p.stat().st_mtime) for p in folder.rglob("*")))
