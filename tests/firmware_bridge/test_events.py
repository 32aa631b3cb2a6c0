"""EVENTS.md line format: formatting, parsing, errors naming the line."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.errors import EventFormatError
from firmware_bridge.events import (
    BUTTON_NAMES,
    Button,
    Die,
    Lift,
    LinkState,
    Occupied,
    Place,
    SensorEvent,
    Withdraw,
    format_event,
    iter_event_lines,
    parse_event_line,
    read_event_file,
)

SQUARES = ["e4", "hell:d1", "a0", "z5", "i3", "d9", "limbo", "hours:b2", "hall:h5", "a1"]


def test_format_each_kind_with_and_without_times() -> None:
    assert format_event(Lift(12, "e4")) == "12 lift e4"
    assert format_event(Place(13, "hell:d1", "Q"), times=False) == "place hell:d1 Q"
    assert format_event(Place(13, "e4")) == "13 place e4"
    snapshot = Occupied(0, frozenset({"hell:a1", "e2", "a1"}))
    assert format_event(snapshot) == "0 occupied a1 e2 hell:a1"
    assert format_event(Occupied(5, frozenset())) == "5 occupied"
    assert format_event(Button(7, "clock-white")) == "7 button clock-white"
    assert format_event(Die(8, 6), times=False) == "die 6"


def test_link_state_is_a_comment_that_parses_to_nothing() -> None:
    line = format_event(LinkState(5, "reconnecting", "cable"))
    assert line == "# link reconnecting cable"
    assert parse_event_line(line) is None


def test_parse_each_kind() -> None:
    assert parse_event_line("0 lift e4") == Lift(0, "e4")
    assert parse_event_line("  10 place hall:h5 m ") == Place(10, "hall:h5", "m")
    assert parse_event_line("11 occupied a0 limbo") == Occupied(11, frozenset({"a0", "limbo"}))
    assert parse_event_line("12 button roll") == Button(12, "roll")
    assert parse_event_line("13 die 3") == Die(13, 3)
    assert parse_event_line("") is None
    assert parse_event_line("# comment") is None


@pytest.mark.parametrize("line", [
    "lift e4", "x lift e4", "-1 lift e4", "5 jump e4", "5 lift", "5 lift e4 e5", "5 lift e44",
    "5 place e4 QQ", "5 button start", "5 die 7", "5 die", "5 occupied e4 banana",
    "5 occupied e4=x", "5 occupied e4=", "5 occupied e4=W", "5 occupied e4=w e4=b",
    "5 occupied =w", "5 occupied e4=wb",
])
def test_bad_lines_name_the_line(line: str) -> None:
    with pytest.raises(EventFormatError, match=r"game.events:line 7: "):
        parse_event_line(line, 7, "game.events")


def test_occupied_with_colours() -> None:
    """``square=colour`` on some squares; plain squares parse and are written as before."""
    line = "7 occupied e4=w a1 hell:d1=b e7=b"
    ev = parse_event_line(line)
    assert ev == Occupied(7, frozenset({"e4", "a1", "hell:d1", "e7"}),
                          {"e4": "w", "hell:d1": "b", "e7": "b"})
    assert format_event(ev) == "7 occupied a1 e4=w e7=b hell:d1=b"
    assert isinstance(ev, Occupied) and ev.colours["e4"] == "w" and "a1" not in ev.colours
    plain = parse_event_line("7 occupied e4 a1")
    assert plain == Occupied(7, frozenset({"e4", "a1"})) and format_event(plain) == \
        "7 occupied a1 e4"
    assert hash(ev) != hash(plain)  # immutable and hashable, like every event


def test_occupied_colours_are_checked_and_read_only() -> None:
    with pytest.raises(ValueError, match="'x'"):
        Occupied(0, frozenset({"e4"}), {"e4": "x"})
    with pytest.raises(ValueError, match="e5, which is not occupied"):
        Occupied(0, frozenset({"e4"}), {"e5": "w"})
    given = {"e4": "w"}
    ev = Occupied(0, frozenset({"e4"}), given)
    given["e4"] = "b"  # the event keeps its own copy
    assert ev.colours["e4"] == "w"
    with pytest.raises(TypeError):
        ev.colours["e4"] = "b"  # type: ignore[index]


def test_occupied_events_copy_and_pickle() -> None:
    for ev in (Occupied(1, frozenset({"e4", "d5"}), {"e4": "w"}), Occupied(2, frozenset())):
        assert copy.deepcopy(ev) == ev and pickle.loads(pickle.dumps(ev)) == ev


def test_bad_colour_says_what_is_wrong() -> None:
    with pytest.raises(EventFormatError,
                       match=r"line 2: 'e4=g': colour 'g' is not w \(white\) or b \(black\)"):
        parse_event_line("3 occupied e2 e4=g", 2)


def test_withdraw_is_a_comment_that_parses_to_nothing() -> None:
    line = format_event(Withdraw(40, ("g1h3", "a7a6")))
    assert line == "# withdraw g1h3 a7a6"
    assert parse_event_line(line) is None


def test_times_must_not_decrease() -> None:
    with pytest.raises(EventFormatError, match="line 3: time 5 ms is earlier than"):
        list(iter_event_lines(["10 lift e2", "# c", "5 place e4"]))


def test_read_event_file_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    good = tmp_path / "g.events"
    good.write_text("# header\n0 occupied e2\n\n40 lift e2\n90 place e4\n")
    assert read_event_file(good) == [Occupied(0, frozenset({"e2"})), Lift(40, "e2"),
                                     Place(90, "e4")]
    bad = tmp_path / "b.events"
    bad.write_text("0 lift e2\n1 hop e4\n")
    with pytest.raises(EventFormatError, match=r"b.events:line 2: unknown event kind 'hop'"):
        read_event_file(bad)
    with pytest.raises(FileNotFoundError):
        read_event_file(tmp_path / "missing.events")


squares = st.sampled_from(SQUARES)
events = st.one_of(
    st.builds(Lift, st.integers(0, 10**9), squares),
    st.builds(Place, st.integers(0, 10**9), squares, st.sampled_from([None, "K", "p", "m"])),
    st.builds(Occupied, st.integers(0, 10**9), st.frozensets(squares)),
    st.dictionaries(squares, st.sampled_from(["w", "b", ""])).map(
        lambda seen: Occupied(5, frozenset(seen), {s: c for s, c in seen.items() if c})),
    st.builds(Button, st.integers(0, 10**9), st.sampled_from(BUTTON_NAMES)),
    st.builds(Die, st.integers(0, 10**9), st.integers(1, 6)),
)


@given(events)
def test_format_parse_round_trip(ev: SensorEvent) -> None:
    assert parse_event_line(format_event(ev, times=True)) == ev
