"""How a failed connection is named and said (referee.app.hub.connection), without a broker:
one line per outage, not per retry; credentials and untrusted certificates are settings
(fatal for the hub at start), everything else is weather."""

from __future__ import annotations

import ssl
from types import SimpleNamespace

from referee.app.hub.connection import LinkState, Problem, problem_of, refusal


def test_problems_are_named_and_only_settings_are_fatal() -> None:
    untrusted = ssl.SSLCertVerificationError(1, "certificate verify failed")
    untrusted.verify_message = "unable to get local issuer certificate"
    assert problem_of(untrusted).fatal
    assert "?ca=PATH" in problem_of(untrusted).text
    assert not problem_of(ConnectionRefusedError()).fatal
    assert not problem_of(TimeoutError()).fatal
    assert not problem_of(None).fatal
    assert refusal(SimpleNamespace(value=135)).fatal          # not authorized
    assert refusal(SimpleNamespace(value=134)).fatal          # bad user name or password
    assert not refusal(SimpleNamespace(value=136)).fatal      # server unavailable


def test_one_line_per_outage() -> None:
    said: list[str] = []
    link = LinkState(said.append)
    assert not link.settled
    link.failed(Problem("the broker's port refuses connections"))
    link.failed(Problem("the broker's port refuses connections"))
    assert said == ["the broker's port refuses connections"] and link.settled
    link.ok()
    link.on_disconnect(SimpleNamespace(is_failure=True))
    link.on_disconnect(SimpleNamespace(is_failure=True))
    assert said[1:] == ["lost the connection to the broker"]
    link.on_disconnect(SimpleNamespace(is_failure=False))     # a disconnect asked for
    assert len(said) == 2


def test_the_hub_says_nothing_until_it_has_seen_the_first_answer() -> None:
    link = LinkState()
    link.failed(Problem("the broker does not answer"))
    assert link.first_outcome(0) == Problem("the broker does not answer")
    said: list[str] = []
    link.speak(said.append)                                   # said now, once
    link.failed(Problem("the broker does not answer"))
    assert said == ["the broker does not answer"]
    link.ok()
    assert link.first_outcome(0) is None
