"""The hub and a ``serve`` board over TLS with passwords, against a real mosquitto whose TLS
listener has a certificate from a CA the test makes: the boards' actions reach the hub through
``mqtts://USER:PASSWORD@127.0.0.1:PORT/EVENT?ca=CA.pem``; a wrong password or a certificate the
CA does not vouch for ends the hub at start with one line and exit status 2; a board with a
wrong password, or one that does not trust the broker's certificate, goes on refereeing,
retries, and says so once. No password is ever printed."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from pathlib import Path

from tests.hub.mqtt import GRAVEKEEPER, Broker, Certificates, HubProcess, serve_boards, wait_for
from tests.serve.harness import STDERR

OPENING = ("e2e4", "e7e5", "g1f3", "b8c6")
PASSWORDS = {"hub": "hub-secret-1", "board0": "board-secret-2", "board1": "board-secret-3"}


def _moves(url: str) -> list[str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return list(json.loads(response.read())["moves"])


def _refused_hub(url: str, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([GRAVEKEEPER, "hub", "--mqtt", url, "--data", str(data), "--http",
                           "--host", "127.0.0.1", "--port", "0"],
                          capture_output=True, text=True, timeout=60)


def test_tls_with_passwords_and_one_line_for_a_wrong_one(tmp_path: Path) -> None:
    certs = Certificates(tmp_path / "certs")
    rogue = Certificates(tmp_path / "rogue", "Some other CA")
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker", certs, PASSWORDS)
    broker.start()
    hub = HubProcess(broker.url_for("hub", PASSWORDS["hub"], certs.ca), tmp_path / "hub")
    hub.start()
    try:
        for url, why in ((broker.url_for("hub", "not-the-password", certs.ca),
                          "refused the user name or password"),
                         (broker.url_for("hub", PASSWORDS["hub"]),            # system CAs
                          "TLS certificate is not trusted"),
                         (broker.url_for("hub", PASSWORDS["hub"], rogue.ca),  # the wrong CA
                          "TLS certificate is not trusted")):
            done = _refused_hub(url, tmp_path / "refused")
            assert done.returncode == 2, done.stderr
            assert done.stdout == ""
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and why in lines[0], done.stderr
            assert "secret" not in done.stderr and "not-the-password" not in done.stderr

        refused = broker.log.read_text().count("not authorised")
        ca = certs.ca
        with serve_boards(tmp_path, {
                "board0": ("standard", broker.url_for("board0", PASSWORDS["board0"], ca)),
                "board1": ("zombie", broker.url_for("board1", "wrong-password", ca)),
                "board2": ("deadmans", broker.url_for("board2", "x", rogue.ca))}) as boards:
            for move in OPENING:
                for served in boards.values():   # the refused boards go on refereeing
                    served.play(move)
            wait_for(lambda: _moves(f"{hub.base}/api/boards/board0/game") == list(OPENING),
                     20, "the TLS board's moves on the hub")
            for served in boards.values():
                assert _moves(served.base + "/api/game") == list(OPENING)
            # they retry (paho's back-off: 1, 2, 4 s) and say so once, not once per attempt
            wait_for(lambda: broker.log.read_text().count("not authorised") >= refused + 3,
                     20, "three refused attempts")
            said = {board: [line for line in STDERR[served.proc.pid] if "hub" in line]
                    for board, served in boards.items()}
            assert said["board0"] == []
            assert len(said["board1"]) == 1, said
            assert "refused the user name or password" in said["board1"][0]
            assert "goes on refereeing and retrying" in said["board1"][0]
            assert len(said["board2"]) == 1, said
            assert "TLS certificate is not trusted" in said["board2"][0]
            listed = [row["board"] for row in json.loads(hub.get("/api/boards"))]
            assert listed == ["board0"]
            logs = "".join(line for lines in said.values() for line in lines)
            logs += "".join(line for s in boards.values() for line in STDERR[s.proc.pid])
            assert not [p for p in (*PASSWORDS.values(), "wrong-password") if p in logs]
    finally:
        hub.stop()
        broker.stop()
