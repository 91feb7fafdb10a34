"""The systemd units in deploy/systemd/ are valid for systemd and confine the app as docs/deploy.md says.

`systemd-analyze verify` reads each unit as systemd would load it, and warns about an unknown option (a misspelt
`ProtectSystm=` would leave the process unconfined without a word at start), an unparsable value or a command that is
not executable. The units are rendered with this checkout in place of /opt/coastline, so the commands they start are
the real ones; a unit is valid only when verify says nothing at all."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from app.core.config import Settings

ROOT = Path(__file__).resolve().parents[1]
UNITS = ROOT / "deploy" / "systemd"
INSTALL_DIR = "/opt/coastline"  # the placeholder the units use for the checkout
SYSTEMD_ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"
NEEDS_SYSTEMD_ANALYZE = pytest.mark.skipif(
    not Path(SYSTEMD_ANALYZE).is_file(), reason="systemd-analyze is not installed (Debian package systemd)"
)
# What verify loads: each unit, the template as one instance (a port).
LOADED = ["coastline-app@8001.service", "coastline-migrate.service", "coastline-backup.service",
          "coastline-backup.timer", "coastline.target"]  # fmt: skip
SERVICES = ["coastline-app@.service", "coastline-migrate.service", "coastline-backup.service"]

# The confinement every service has: a dedicated user, nothing written outside /var/lib/coastline (and the backup
# folder), no privilege, IP and Unix sockets only, the system calls of an ordinary service.
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
    assert sorted(p.name for p in UNITS.iterdir()) == sorted(SERVICES + ["coastline-backup.timer", "coastline.target"])
    assert verify(render(tmp_path)) == (0, "")


@NEEDS_SYSTEMD_ANALYZE
@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (("ProtectSystem=strict", "ProtectSystm=strict"), "Unknown key 'ProtectSystm'"),
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


@pytest.mark.parametrize("name", SERVICES)
def test_every_service_is_confined(name: str) -> None:
    service = options(name)["Service"]
    for key, value in HARDENING.items():
        assert service.get(key) == [value], (name, key)
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
