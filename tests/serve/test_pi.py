"""What can be tested of the Pi setup here: the unit file, install-pi's steps, doctor."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.app.doctor import doctor_main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_the_unit_file_verifies(tmp_path: Path) -> None:
    unit = (ROOT / "scripts/pi/gravekeeper.service").read_text()
    unit = unit.replace("@PREFIX@", str(Path(sys.executable).parent.parent)).replace(
        "@USER@", "root")
    (tmp_path / "gravekeeper.service").write_text(unit)
    result = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "gravekeeper.service")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Restart=always" in unit and "gravekeeper serve $GRAVEKEEPER_ARGS" in unit


def test_install_pi_dry_run_lists_every_step() -> None:
    result = subprocess.run([str(ROOT / "scripts/install-pi"), "--dry-run", "--prefix", "/opt/gk",
                             "--", "serial:///dev/ttyACM0", "--variant", "zombie"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    steps = [line for line in result.stdout.splitlines() if line.startswith("+ ")]
    wanted = ["apt-get install", "python3 -m venv /opt/gk", "pip install", "[pi]",
              "write /etc/default/gravekeeper", "write /etc/systemd/system/gravekeeper.service",
              "systemctl enable --now gravekeeper.service"]
    for text in wanted:
        assert any(text in step for step in steps), text
    assert "GRAVEKEEPER_ARGS=serial:///dev/ttyACM0 --variant zombie" in result.stdout
    assert "ExecStart=/opt/gk/bin/gravekeeper serve" in result.stdout
    bad = subprocess.run([str(ROOT / "scripts/install-pi"), "--frobnicate"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def _none() -> list[str]:
    return []


def test_doctor_finds_the_simulated_board() -> None:
    out = io.StringIO()
    finders = {"serial": _none, "i2c": _none, "gpio": _none, "video": _none}
    assert doctor_main(["--try", "sim://", "--timeout", "3"], out, finders) == 0
    text = out.getvalue()
    assert "ok  sim://: a Gravekeeper board answers (with LEDs, 32 squares occupied)" in text
    assert "no /dev/gpiochip*" in text and "no /dev/video*" in text
    assert text.splitlines()[-1] == "Ready: referee with `gravekeeper serve sim://`."


def test_doctor_without_a_board_says_so() -> None:
    out = io.StringIO()
    finders = {"serial": lambda: ["/dev/nonexistent-tty"], "i2c": _none, "gpio": _none,
               "video": _none}
    assert doctor_main(["--timeout", "0.3"], out, finders) == 1
    assert "--  serial:///dev/nonexistent-tty: no Gravekeeper board" in out.getvalue()
    assert out.getvalue().splitlines()[-1].startswith("No board answers")
