"""The MQTT connection of the boards and the hub: one paho client per URL, its problems named.

Why a module of its own: boards (``serve``, ``watch``, ``run``) and the hub connect the same way
(TLS checked against the event's CA, user name and password, a persistent session, reconnecting
with a back-off) and must name a failed connection the same way, in one line. paho retries by
itself and tells only that a connection failed; :class:`LinkState` turns the exception paho is
handling, or the broker's refusal, into a :class:`Problem`, says it once per outage (not once
per retry), and knows whether it will mend itself: a wrong user name or password and a broker
certificate that the CA does not vouch for are settings, not weather. The hub exits on those
at start (exit 2); a board keeps refereeing and retrying, because an arbiter may fix the broker.
"""

from __future__ import annotations

import socket
import ssl
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from referee.app.hub.schema import MqttUrl

#: MQTT 5 reason codes (paho maps MQTT 3.1.1's CONNACK 4 and 5 onto them): credentials refused.
REFUSED_CREDENTIALS: Final = (134, 135)


@dataclass(frozen=True)
class Problem:
    """Why the broker cannot be used right now; ``fatal``: retrying will not help."""

    text: str
    fatal: bool = False


def problem_of(exc: BaseException | None) -> Problem:
    """The problem a failed connection attempt raised (paho's ``OSError`` family)."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return Problem(f"the broker's TLS certificate is not trusted ({exc.verify_message}); "
                       "give the event's CA certificate with ?ca=PATH", fatal=True)
    if isinstance(exc, ssl.SSLError):
        return Problem(f"TLS with the broker failed ({exc.reason or exc}); "
                       "is that port the broker's mqtts:// listener?")
    if isinstance(exc, socket.gaierror):
        return Problem(f"cannot find the broker's host ({exc.strerror})")
    if isinstance(exc, ConnectionRefusedError):
        return Problem("the broker's port refuses connections (is the broker running?)")
    if isinstance(exc, TimeoutError):
        return Problem("the broker does not answer")
    if isinstance(exc, OSError):
        return Problem(f"cannot reach the broker ({exc.strerror or exc})")
    return Problem("cannot connect to the broker")


def refusal(reason: Any) -> Problem:
    """The problem of a CONNACK that refused the connection."""
    if getattr(reason, "value", None) in REFUSED_CREDENTIALS:
        return Problem(f"the broker refused the user name or password ({reason})", fatal=True)
    return Problem(f"the broker refused the connection ({reason})")


class LinkState:
    """What a client's connection attempts came to (see the module docstring). Thread-safe.

    ``say`` receives one line per outage; None keeps it unsaid until :meth:`speak`."""

    def __init__(self, say: Callable[[str], None] | None = None, *, tls: bool = False) -> None:
        self._say = say
        self.tls = tls
        self._lock = threading.Lock()
        self._settled = threading.Event()   # the first attempt succeeded or failed
        self.connected = False
        self.problem: Problem | None = None  # the current outage's problem
        self._said = False

    def ok(self) -> None:
        """The broker accepted the connection: the outage (if any) is over."""
        with self._lock:
            self.connected, self.problem, self._said = True, None, False
        self._settled.set()

    def failed(self, problem: Problem) -> None:
        """A connection attempt failed or the connection was lost."""
        with self._lock:
            self.connected = False
            self.problem = problem
            say = None if self._said or self._say is None else self._say
            self._said = self._said or say is not None
        self._settled.set()
        if say is not None:
            say(problem.text)

    def on_connect_fail(self, client: Any, userdata: Any) -> None:
        """paho's ``on_connect_fail``: paho calls it inside its ``except OSError`` block, so
        the exception being handled is the one that failed the attempt."""
        self.failed(problem_of(sys.exception()))

    def on_disconnect(self, reason: Any) -> None:
        """A connection ended; an ended connection the client did not ask to end is a problem
        (a refused CONNACK was already counted, by the owner's ``on_connect``)."""
        if getattr(reason, "is_failure", False) and self.connected:
            self.failed(Problem("lost the connection to the broker"))
        elif getattr(reason, "is_failure", False) and self.problem is None:
            self.failed(Problem("the broker closed the connection before accepting it"
                                + ("" if self.tls else " (a TLS listener needs mqtts://)")))

    @property
    def settled(self) -> bool:
        """The first attempt has an outcome (connected, or a problem)."""
        return self._settled.is_set()

    def first_outcome(self, timeout: float) -> Problem | None:
        """Wait up to ``timeout`` s for the first attempt: None when connected, else its
        problem (or "does not answer" when there is no outcome in time)."""
        if not self._settled.wait(timeout):
            return Problem("the broker does not answer")
        with self._lock:
            return None if self.connected else self.problem

    def speak(self, say: Callable[[str], None]) -> None:
        """From now on say problems with ``say``; says the current one if it is still unsaid."""
        with self._lock:
            self._say = say
            text = self.problem.text if self.problem is not None and not self._said else None
            self._said = self._said or text is not None
        if text is not None:
            say(text)


def paho_client(url: MqttUrl, client_id: str) -> Any:
    """A paho MQTT client for ``url`` (TLS checked against ``url.ca`` or the system's CAs,
    credentials when the URL has them), with a persistent session: the broker keeps its
    subscriptions and QoS 1 messages across a reconnect (boards and the hub alike)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=False)
    if url.username:
        client.username_pw_set(url.username, url.password)
    if url.tls:
        client.tls_set(ca_certs=url.ca)
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    client.max_inflight_messages_set(100)
    return client
