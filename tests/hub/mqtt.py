"""Real processes for the hub tests: a mosquitto broker on a loopback port (plain, or TLS with
passwords), the hub command, a cuttable TCP proxy (a board's network going away), and boards
that play random games."""

from __future__ import annotations

import base64
import hashlib
import os
import random
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from referee.app.hub.board import BoardPublisher, public_game
from referee.app.hub.schema import parse_mqtt_url
from referee.rules.game import Game
from tests.serve.harness import Served, serving

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
GRAVEKEEPER = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "gravekeeper")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check: Callable[[], Any], timeout: float, what: str,
             seen: Callable[[], object] | None = None) -> Any:
    """``check()`` once it is true, polled for ``timeout`` seconds; else an AssertionError
    naming ``what`` and, when given, what ``seen()`` shows then (which board lagged, and how)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    shown = f"; seen: {seen()}" if seen is not None else ""
    raise AssertionError(f"timed out after {timeout} s waiting for {what}{shown}")


def write_password_file(path: Path, users: dict[str, str]) -> None:
    """mosquitto's password file: hashed by ``mosquitto_passwd -U`` when it is there, else
    written in its ``sha512`` form (``$6$`` base64 salt ``$`` base64 SHA-512 of password+salt)."""
    if os.path.exists(MOSQUITTO_PASSWD):
        path.write_text("".join(f"{name}:{password}\n" for name, password in users.items()))
        subprocess.run([MOSQUITTO_PASSWD, "-U", str(path)], check=True)
        return
    lines = []
    for name, password in users.items():
        salt = os.urandom(12)
        digest = hashlib.sha512(password.encode() + salt).digest()
        lines.append(f"{name}:$6${base64.b64encode(salt).decode()}$"
                     f"{base64.b64encode(digest).decode()}\n")
    path.write_text("".join(lines))


class Certificates:
    """A test CA and a server certificate it signed for 127.0.0.1 (PEM files in ``folder``)."""

    def __init__(self, folder: Path, name: str = "Gravekeeper test CA") -> None:
        import datetime
        import ipaddress

        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID

        folder.mkdir(parents=True, exist_ok=True)
        now = datetime.datetime.now(datetime.UTC)
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
              .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(days=1))
              .not_valid_after(now + datetime.timedelta(days=30))
              .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
              .add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False,
                                           False), critical=True)
              .sign(ca_key, hashes.SHA256()))
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (x509.CertificateBuilder()
                .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
                .issuer_name(ca_name).public_key(key.public_key())
                .serial_number(x509.random_serial_number())
                .not_valid_before(now - datetime.timedelta(days=1))
                .not_valid_after(now + datetime.timedelta(days=30))
                .add_extension(x509.SubjectAlternativeName(
                    [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
                .sign(ca_key, hashes.SHA256()))
        self.ca = folder / "ca.pem"
        self.cert = folder / "server.pem"
        self.key = folder / "server.key"
        self.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
        self.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        self.key.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                               serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))


class Broker:
    """mosquitto on 127.0.0.1:port with persistence in ``folder``; restartable. With
    ``certificates`` its one listener is TLS; with ``users`` (name -> password) it admits only
    them (a password file made by ``mosquitto_passwd``)."""

    def __init__(self, folder: Path, certificates: Certificates | None = None,
                 users: dict[str, str] | None = None) -> None:
        if not os.path.exists(MOSQUITTO):
            pytest.skip("mosquitto is not installed (scripts/setup installs it)")
        self.port = free_port()
        self.folder = folder
        self.conf = folder / "mosquitto.conf"
        self.log = folder / "mosquitto.log"
        self.tls = certificates is not None
        lines = [f"listener {self.port} 127.0.0.1", "persistence true",
                 f"persistence_location {folder}/", "autosave_interval 1",
                 "max_queued_messages 100000", f"log_dest file {self.log}"]
        if os.geteuid() == 0:   # as root mosquitto would become user "mosquitto", who
            lines.append("user root")  # cannot write its database in the test's folder
        if certificates is not None:
            lines += [f"cafile {certificates.ca}", f"certfile {certificates.cert}",
                      f"keyfile {certificates.key}"]
        if users:
            passwords = folder / "passwords"
            write_password_file(passwords, users)
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self._accepts, 10, "mosquitto to listen")

    def _accepts(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), 0.2).close()
            return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)
            self.proc = None

    @property
    def url(self) -> str:
        return f"mqtt{'s' if self.tls else ''}://127.0.0.1:{self.port}/test"

    def url_for(self, user: str, password: str, ca: Path | None = None) -> str:
        """The URL with credentials (and the CA certificate to trust, for TLS)."""
        return (f"mqtt{'s' if self.tls else ''}://{user}:{password}@127.0.0.1:{self.port}/test"
                + (f"?ca={ca}" if ca is not None else ""))


class Proxy:
    """A TCP proxy from a loopback port to the broker that can be cut (connections dropped,
    new ones refused) and restored: a board's Wi-Fi going away."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.port = free_port()
        self.cut = threading.Event()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if self.cut.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), 2)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)   # MQTT is silent for up to its keepalive (15 s)
            with self._lock:
                self._pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while not self.cut.is_set():
                data = a.recv(65536)
                if not data or self.cut.is_set():
                    break
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.close()
            except OSError:
                pass

    def set_cut(self, cut: bool) -> None:
        if cut:
            self.cut.set()
            with self._lock:
                pairs, self._pairs = self._pairs, []
            for a, b in pairs:   # a pulled cable: no FIN reaches either side in time
                for s in (a, b):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                        s.close()
                    except OSError:
                        pass
        else:
            self.cut.clear()

    def close(self) -> None:
        self.set_cut(True)
        self._server.close()


class HubProcess:
    """``gravekeeper hub`` as a real process on a free port (plain HTTP)."""

    def __init__(self, mqtt_url: str, data: Path) -> None:
        self.mqtt_url = mqtt_url
        self.data = data
        self.proc: subprocess.Popen[str] | None = None
        self.base = ""
        self.arbiter = ""
        self.stderr_lines: list[str] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [GRAVEKEEPER, "hub", "--mqtt", self.mqtt_url, "--data", str(self.data),
             "--host", "127.0.0.1", "--port", "0", "--http"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        dashboard = self.proc.stdout.readline().strip()
        arbiter = self.proc.stdout.readline().strip()
        assert dashboard.startswith("dashboard: http://"), dashboard + self._stderr()
        assert arbiter.startswith("arbiter: http://"), arbiter
        self.base = dashboard.split(": ", 1)[1].rstrip("/")
        self.arbiter = arbiter.split(": ", 1)[1]

    def _stderr(self) -> str:
        if self.proc is not None and self.proc.poll() is not None and self.proc.stderr:
            return self.proc.stderr.read()
        return ""

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.base + path, timeout=5) as response:
            return bytes(response.read())

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        """SIGTERM; keeps what it said on stderr in ``stderr_lines``."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                _, err = self.proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                _, err = self.proc.communicate()
            self.stderr_lines = err.splitlines()
            self.proc = None


class RandomBoard:
    """A board playing a random game and publishing it (as ``serve`` does)."""

    def __init__(self, board: str, variant: str, mqtt_url: str, seed: int) -> None:
        self.game = Game(variant, seed=seed)
        self.rng = random.Random(seed)
        self.board = board
        self.publisher = BoardPublisher(parse_mqtt_url(mqtt_url), board)
        self.game_id = f"{board}-g1"

    def start(self) -> None:
        self.publisher.start()
        self.publish()

    def publish(self) -> None:
        self.publisher.publish(public_game(self.game, game_id=self.game_id,
                                           players={"white": f"W{self.board}",
                                                    "black": f"B{self.board}"}))

    def step(self) -> bool:
        legal = self.game.legal()
        if not legal:
            return False
        self.game.play(self.rng.choice(legal))
        self.publish()
        return True

    def public_moves(self) -> list[str]:
        return list(public_game(self.game, game_id=self.game_id)["moves"])


@contextmanager
def serve_boards(folder: Path, specs: dict[str, tuple[str, str]]) -> Iterator[dict[str, Served]]:
    """``serve`` on a simulated board for each board id -> (variant, hub URL), started
    together (each start is a few seconds of imports)."""
    with ExitStack() as stack:
        contexts: dict[str, AbstractContextManager[Served]] = {
            board: serving(variant, folder / board, "--hub", url, "--board", board)
            for board, (variant, url) in specs.items()}

        def enter(board: str) -> Served:
            served = contexts[board].__enter__()
            stack.push(contexts[board])
            return served

        with ThreadPoolExecutor(len(specs)) as pool:
            started = dict(zip(specs, pool.map(enter, specs), strict=True))
        yield started
