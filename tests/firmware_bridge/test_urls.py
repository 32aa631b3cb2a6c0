"""The one URL grammar (firmware_bridge/urls.py) that sensors and hardware backends share."""

from __future__ import annotations

import pytest

from firmware_bridge.errors import BadSensorUrl
from firmware_bridge.urls import parse_url
from hardware.errors import ConfigError
from hardware.urls import parse_spec


def test_the_three_forms_of_a_spec() -> None:
    bare = parse_url("Mock")
    assert (bare.scheme, bare.target, dict(bare.options), bare.slashes) == ("mock", "", {}, False)
    short = parse_url("capture:shots?width=20")
    assert (short.scheme, short.target) == ("capture", "shots")
    assert dict(short.options) == {"width": "20"}
    full = parse_url("replay:///tmp/a%20b.events?speed=0")
    assert (full.target, full.options["speed"], full.slashes) == ("/tmp/a%20b.events", "0", True)
    assert parse_url("x://?order=G%52B").options["order"] == "GRB"


def test_typed_options_and_their_ranges() -> None:
    url = parse_url("x://?a=0x3C&b=2.5&c=yes&d=GRB", BadSensorUrl)
    assert url.integer("a", 0, 0, 0x77) == 60 and url.number("b", 0, 0, 3) == 2.5
    assert url.flag("c", False) and url.choice("d", "RGB", ("GRB", "RGB")) == "GRB"
    assert url.integer("missing", 7, 0, 1) == 7  # a default is not checked against the range
    reads = {"a": lambda u: u.integer("a", 0, 0, 0x77), "b": lambda u: u.number("b", 0, 0, 3),
             "c": lambda u: u.flag("c", False),
             "d": lambda u: u.choice("d", "RGB", ("GRB", "RGB"))}
    for bad, message in [("a=nan", "is not a whole number"), ("b=inf", "out of range"),
                         ("b=-1", r"out of range \(0 to 3\)"), ("b=" + "1" * 31, "out of range"),
                         ("c=maybe", "not 1/0"), ("d=BGR", "not one of")]:
        with pytest.raises(BadSensorUrl, match=message):
            reads[bad[0]](parse_url(f"x://?{bad}", BadSensorUrl))


def test_each_caller_gets_its_own_error_class_and_the_same_words() -> None:
    with pytest.raises(BadSensorUrl) as sensor:
        parse_url("sim://?x=1", BadSensorUrl).check_options(("seed",))
    with pytest.raises(ConfigError) as device:
        parse_spec("mock://?x=1").check_options(("seed",))
    assert str(sensor.value).partition(": ")[2].replace("sim", "mock") == \
        str(device.value).partition(": ")[2]
    for text in ("://x", "?x=1", "a b://", "x://?a=1&a=2", "x://?a"):
        with pytest.raises(ConfigError):
            parse_spec(text)
