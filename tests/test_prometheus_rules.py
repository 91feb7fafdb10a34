"""The Prometheus files in deploy/prometheus: the alert rules name only figures the app exports, every alert says how
urgent it is and what happened, and - with promtool installed (Debian's `prometheus` package) - Prometheus accepts
the rules and the scrape config, and each alert fires on the cases of alerts_test.yml and not before."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from app.core import metrics

DEPLOY = Path(__file__).resolve().parents[1] / "deploy" / "prometheus"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="promtool is not installed (apt-get install prometheus)")


def rules() -> list[dict[str, object]]:
    document = yaml.safe_load((DEPLOY / "alerts.yml").read_text())
    return [rule for group in document["groups"] for rule in group["rules"]]


def exported_names() -> set[str]:
    """Every series name the app's registry can export (a histogram's _bucket/_count/_sum, a counter's _total),
    labelled ones with no sample yet included."""
    return {"up"} | set(metrics.registry._names_to_collectors)  # "up": Prometheus' own, per target


def test_every_alert_is_complete_and_names_real_figures() -> None:
    found = rules()
    assert {r["alert"] for r in found} >= {
        "MailOutboxStuck", "BackgroundJobsLagging", "HighServerErrorRate", "LoginFailureSpike", "AppProcessDown",
    }  # fmt: skip
    exported = exported_names()
    for rule in found:
        labels, annotations = rule["labels"], rule["annotations"]
        assert isinstance(labels, dict) and labels["severity"] in {"page", "ticket"}, rule["alert"]
        assert isinstance(annotations, dict) and annotations["summary"], rule["alert"]
        named = set(re.findall(r"\b(app_[a-z_]+|up)\b", str(rule["expr"])))
        assert named, rule["alert"]
        assert named <= exported, (rule["alert"], named - exported)


def test_the_outbox_alert_is_at_ten_minutes() -> None:
    (stuck,) = [r for r in rules() if r["alert"] == "MailOutboxStuck"]
    assert "app_mail_outbox_oldest_pending_age_seconds" in str(stuck["expr"])
    assert str(stuck["expr"]).strip().endswith("> 600")


@needs_promtool
def test_prometheus_accepts_the_rules_and_they_fire_when_they_should() -> None:
    assert PROMTOOL is not None
    for args in (["check", "rules", "alerts.yml"], ["test", "rules", "alerts_test.yml"]):
        done = subprocess.run([PROMTOOL, *args], cwd=DEPLOY, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stdout + done.stderr


@needs_promtool
def test_prometheus_accepts_the_scrape_config(tmp_path: Path) -> None:
    assert PROMTOOL is not None
    token = tmp_path / "app-metrics-token"
    token.write_text("x" * 32)
    config = (DEPLOY / "prometheus.yml").read_text().replace("/etc/prometheus/app-metrics-token", str(token))
    assert config != (DEPLOY / "prometheus.yml").read_text()
    (tmp_path / "prometheus.yml").write_text(config)
    shutil.copy(DEPLOY / "alerts.yml", tmp_path / "alerts.yml")
    done = subprocess.run(
        [PROMTOOL, "check", "config", "prometheus.yml"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
