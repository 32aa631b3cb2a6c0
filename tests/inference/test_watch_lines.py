"""``watch``'s action lines with a camera that may take its last moves back
(``referee.app.watch.TextOutput``): a line waits while the camera doubts it, a ``# seen:`` line
says it at once, a withdrawn move's line is never printed, and a game over prints them all."""

from __future__ import annotations

import io

from referee.app.watch import TextOutput
from referee.live.session import Update
from referee.rules.game import Game


def _output(game: Game, span: list[tuple[int, int]]) -> tuple[TextOutput, io.StringIO]:
    out = io.StringIO()
    return TextOutput(out, game, lambda: span[0]), out


def _play(game: Game, text: str, output: TextOutput) -> None:
    played = game.play(text)
    output(Update("action", played.text, game.state, played=played))


def test_a_doubted_line_waits_and_a_withdrawn_one_is_never_printed() -> None:
    game = Game("standard")
    span = [(0, 1)]  # the camera may still take back action 0
    output, out = _output(game, span)
    _play(game, "e2e4", output)
    assert out.getvalue().splitlines() == ["# seen: e2e4"]
    undone = game.undo()
    output(Update("takeback", f"took back {undone.text}", game.state, played=undone))
    _play(game, "d2d4", output)
    span[0] = (1, 1)  # action 0 is sure now
    output.flush()
    lines = out.getvalue().splitlines()
    assert [line for line in lines if not line.startswith("#")] == ["d2d4"]
    assert "# takeback: took back e2e4" in lines


def test_a_game_over_prints_the_lines_it_held() -> None:
    game = Game("standard")
    span = [(0, 3)]  # the camera doubts every move so far
    output, out = _output(game, span)
    for text in ("f2f3", "e7e5", "g2g4"):
        _play(game, text, output)
    assert [line for line in out.getvalue().splitlines() if not line.startswith("#")] == []
    span[0] = (1, 3)  # ... then its last two only
    output.flush()
    assert [line for line in out.getvalue().splitlines() if not line.startswith("#")] == [
        "f2f3"]
    span[0] = (1, 4)
    _play(game, "d8h4", output)  # mate: no move can follow
    assert [line for line in out.getvalue().splitlines() if not line.startswith("#")] == [
        "f2f3", "e7e5", "g2g4", "d8h4"]


def test_a_signal_asks_the_pump_to_stop_and_a_second_one_interrupts() -> None:
    """SIGTERM (and Ctrl-C) only ask ``watch`` to stop between two steps of its pump: raised
    where the main thread stood, a line being printed was lost (a ``kill`` on a busy machine
    printed four of a record's five actions). A second signal interrupts at once."""
    import os
    import signal

    import pytest

    from referee.app.watch import stop_requests

    before = signal.getsignal(signal.SIGTERM)
    with stop_requests() as stopped:
        assert not stopped()
        os.kill(os.getpid(), signal.SIGTERM)  # delivered before kill returns (to ourselves)
        assert stopped()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGTERM) is before
