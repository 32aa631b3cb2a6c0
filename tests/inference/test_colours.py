"""Piece colours in ``occupied`` snapshots (a camera's ``e4=w``): evidence the inference uses,
never a requirement, never a way to a secret; and a sensor's withdrawal of moves it showed.

Colour event files run through ``gravekeeper watch`` with the others (test_event_files.py);
here the same paths as a real process, and the inference's rules one by one.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from firmware_bridge.errors import SensorTimeout
from firmware_bridge.events import Occupied, SensorEvent, Withdraw, read_event_file
from referee.app.runner import Pump
from referee.live.inference import MoveInference, Problem, Recognised
from referee.live.session import Referee, Update
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE
from referee.rules.state import State

EVENTS = Path(__file__).resolve().parents[1] / "events"
GRAVEKEEPER = Path(sys.executable).with_name("gravekeeper")
MASQUERADE = ("assign=black:KK,QQ,RR,BB,NN", "assign=white:KR,QK,RN,BB,NQ")


def occupied(state: State) -> list[int]:
    return [sq for sq, piece in enumerate(state.board) if piece]


def colours(state: State) -> dict[int, int]:
    return {sq: state.board[sq] >> 4 for sq in occupied(state)}


def after(game: Game, *moves: str) -> State:
    trial = Game(game.variant, seed=game.seed, state=game.state)
    for m in moves:
        trial.play(m)
    return trial.state


def judge(inf: MoveInference, state: State, seen: dict[int, int], t: int = 1000) -> list[object]:
    return [*inf.snapshot(t, occupied(state), seen), *inf.tick(t + 500)]


def texts(game: Game, decisions: Iterable[object]) -> list[str]:
    return [game.variant.format_action(a) for d in decisions if isinstance(d, Recognised)
            for a in d.actions]


def test_a_capture_seen_only_as_a_colour_change() -> None:
    """exd5 in one snapshot: e4 empties, d5 stays occupied and turns white. The colour change
    is the victim's removal; without colours the same snapshot is a piece still in the hand."""
    game = Game("standard")
    game.play("e2e4")
    game.play("d7d5")
    board = after(game, "e4d5")
    inf = MoveInference(game.variant, game.state)
    assert texts(game, judge(inf, board, colours(board))) == ["e4d5"]
    blind = MoveInference(game.variant, game.state)
    assert judge(blind, board, {}) == [] and blind.flush() == []


def test_a_contradicting_colour_rules_the_outcome_out() -> None:
    """The occupancy of 1. e4, but e4 holds a black piece: not 1. e4; the referee says which
    square is wrong, and takes the move once the colour is right."""
    game = Game("standard")
    board = after(game, "e2e4")
    e4 = game.variant.layout.square("e4")
    inf = MoveInference(game.variant, game.state)
    out = judge(inf, board, {**colours(board), e4: BLACK})
    assert len(out) == 1 and isinstance(out[0], Problem)
    assert out[0].text == "wrong piece on e4" and out[0].swap == (e4,)
    assert texts(game, judge(inf, board, colours(board), t=3000)) == ["e2e4"]


def test_a_contradicting_colour_with_clock_confirmed_moves() -> None:
    """The same with moves counted at the clock press: the wrong colour is named, not an
    illegal move."""
    game = Game("standard")
    board = after(game, "e2e4")
    e4 = game.variant.layout.square("e4")
    inf = MoveInference(game.variant, game.state, confirm_with_clock=True)
    out = judge(inf, board, {**colours(board), e4: BLACK})
    assert len(out) == 1 and isinstance(out[0], Problem) and out[0].text == "wrong piece on e4"


def test_a_colour_contradicts_a_capture_the_hands_made() -> None:
    """Lifts and places (no colours) show exd5; a snapshot before the board settles says d5
    is still black: the capture is ruled out."""
    game = Game("standard")
    game.play("e2e4")
    game.play("d7d5")
    sq = game.variant.layout.square
    inf = MoveInference(game.variant, game.state)
    inf.lift(0, sq("e4"))
    inf.lift(50, sq("d5"))
    inf.place(100, sq("d5"))
    board = after(game, "e4d5")
    out = judge(inf, board, {**colours(board), sq("d5"): BLACK}, t=120)
    assert not texts(game, out) and any(isinstance(d, Problem) for d in out)


def test_squares_without_a_colour_count_as_before() -> None:
    """Colours on some squares only: the move is recognised as from a board without colours."""
    game = Game("standard")
    board = after(game, "g1f3")
    f3 = game.variant.layout.square("f3")
    seen = {s: c for s, c in colours(board).items() if s != f3}
    assert texts(game, judge(MoveInference(game.variant, game.state), board, seen)) == ["g1f3"]


@pytest.mark.parametrize("white", ["assign=white:KR,QK,RN,BB,NQ",
                                   "assign=white:KK,QQ,RR,BB,NN"])
def test_masquerade_colours_tell_nothing_of_the_secret(white: str) -> None:
    """The knight's capture attempt on the queen puts a white piece on d5, whether the secret
    assignment lets it capture (knights capture as knights) or not (as queens): the same
    snapshot is recognised as the same attempt either way."""
    game = Game("masquerade")
    for text in ("assign=black:KK,QQ,RR,BB,NN", white,
                 *"e2e4 d7d5 e4d5 d8d5 b1c3 a7a6".split()):
        game.play(text)
    board = {**colours(game.state)}
    sq = game.variant.layout.square
    del board[sq("c3")]
    board[sq("d5")] = WHITE
    inf = MoveInference(game.variant, game.state)
    out = [*inf.snapshot(1000, sorted(board), board), *inf.tick(1500)]
    assert texts(game, out) == ["c3d5"]


def test_colour_of_gray_pieces_is_never_checked() -> None:
    """Afterlife's mercenaries are gray: a colour seen on one neither rules a move out nor
    makes a wrong piece."""
    game = Game("afterlife")
    inf = MoveInference(game.variant, game.state)
    gray = [sq for sq, piece in enumerate(game.state.board) if piece >> 4 == 3]
    assert gray
    seen = {**colours(game.state), **{sq: WHITE for sq in gray}}
    assert judge(inf, game.state, seen) == []


class _Events:
    """A sensor of fixed events (what the pump needs of one)."""

    def __init__(self, events: list[SensorEvent]) -> None:
        self.events = list(events)

    def get(self, timeout: float | None = None) -> SensorEvent | None:
        if not self.events:
            return None
        return self.events.pop(0)

    def live_ms(self) -> int | None:
        return None


def _snap(t: int, state: State, game: Game) -> Occupied:
    name = game.variant.layout.name
    return Occupied(t, frozenset(name(s) for s in occupied(state)),
                    {name(s): "w" if c == WHITE else "b" for s, c in colours(state).items()})


def _pump(game: Game, events: list[SensorEvent]) -> list[Update]:
    updates: list[Update] = []
    referee = Referee(game, [updates.append])
    pump = Pump(referee, _Events(events))  # type: ignore[arg-type]
    try:
        pump.run()
    except SensorTimeout:  # pragma: no cover - the fake never times out
        pass
    return updates


def test_a_withdrawal_takes_back_the_referees_last_moves_and_the_correction_follows() -> None:
    """A camera saw 1. Nh3 (the knight put down there first), then found it was 1. Nf3: it
    withdraws Nh3, shows the board before it, then the board after Nf3."""
    game = Game("standard")
    start = game.state
    wrong, right = after(game, "g1h3"), after(game, "g1f3")
    updates = _pump(game, [_snap(1000, wrong, game), Withdraw(2000, ("g1h3",)),
                           _snap(2000, start, game), _snap(2400, right, game)])
    assert game.action_texts() == ["g1f3"]
    kinds = [u.kind for u in updates]
    assert "takeback" in kinds and kinds[-1] == "action"


def test_a_withdrawal_never_takes_back_what_it_did_not_show() -> None:
    """Withdrawn moves that are not the referee's last (the referee never accepted them):
    nothing is taken back."""
    game = Game("standard")
    game.play("e2e4")
    updates = _pump(game, [Withdraw(100, ("g1h3",))])
    assert game.action_texts() == ["e2e4"] and not updates


def test_watch_a_colour_event_file_as_a_real_process(tmp_path: Path) -> None:
    path = EVENTS / "standard" / "colour-capture-victim-never-lifted.events"
    proc = subprocess.run([str(GRAVEKEEPER), "watch", f"replay://{path}"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert [ln for ln in proc.stdout.splitlines() if not ln.startswith("#")] == \
        ["e2e4", "d7d5", "e4d5", "d8d5"]


def test_sense_records_colours_and_replays_them(tmp_path: Path) -> None:
    """``sense --record`` writes the colours back out: the recording reads as the original."""
    path = EVENTS / "standard" / "colour-capture-victim-never-lifted.events"
    out = tmp_path / "again.events"
    proc = subprocess.run([str(GRAVEKEEPER), "sense", f"replay://{path}", "--fast", "--record",
                           str(out)], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "d5=w" in proc.stdout
    assert read_event_file(out) == read_event_file(path)


def _camera_game(variant: str, seed: int, turns: int = 40) -> tuple[list[str], list[str],
                                                                     list[str]]:
    """A random game seen as a camera reports it: one ``occupied`` snapshot with colours per
    settled position, the victims never seen lifted. Promotions are to the piece the referee
    takes when nobody chooses (the snapshots cannot tell it). Returns (actions played, actions
    recognised, problem texts)."""
    import random

    from referee.rules import actions as A

    rng = random.Random(seed)
    truth, watched = Game(variant, seed=seed), Game(variant, seed=seed)
    updates: list[Update] = []
    referee = Referee(watched, [updates.append])
    referee.start()
    private = truth.variant.kinds_done_by(*A.OFF_BOARD)
    chosen: list[str] = []
    t = 0

    def pick() -> None:
        legal = [a for a in truth.legal() if a.promo in ("", "q", "Q")] or truth.legal()
        chosen.append(truth.play(rng.choice(legal)).text)

    for _ in range(turns):
        if truth.outcome.result != "*" or not truth.legal():
            break
        before = truth.state
        if truth.legal()[0].kind in private:  # a choice on a phone
            secret = truth.variant.format_action(rng.choice(truth.legal()))
            chosen.append(truth.play(secret).text)
            referee.private_action(secret)
        else:
            pick()
            while truth.outcome.result == "*" and truth.state.to_act == before.to_act and \
                    truth.legal() and truth.legal()[0].kind in truth.variant.placing_kinds:
                pick()
        t += 1000
        name = truth.variant.layout.name
        referee.feed(Occupied(t, frozenset(name(s) for s in occupied(truth.state)),
                              {name(s): "w" if c == WHITE else "b"
                               for s, c in colours(truth.state).items() if c in (WHITE, BLACK)}))
        referee.tick(t + 500)
    referee.finish()
    return chosen, watched.action_texts(), [u.text for u in updates if u.kind == "problem"]


@pytest.mark.parametrize("variant", ["standard", "deadmans", "ghost", "zombie"])
def test_random_games_seen_as_colour_snapshots(variant: str) -> None:
    """Captures seen only as colour changes, Hell homes, ghost cells, zombies rising and
    burials: every action recognised, no problem shown."""
    for seed in range(3):
        chosen, recognised, problems = _camera_game(variant, seed)
        assert recognised == chosen, (variant, seed, problems)
        assert not problems, (variant, seed, problems)


def test_a_snapshot_forgets_the_pieces_an_identity_board_named_before() -> None:
    """A DGT board names each piece it places (``place d5 p``). After a reconnect its snapshot
    shows d5 white: the black pawn named there before is gone (exd5 while the cable was out),
    not a reason to rule the capture out (it was, and the game stopped)."""
    from firmware_bridge.events import Lift, LinkState, Place

    game = Game("standard")
    referee = Referee(game, [])
    referee.start()
    t = 0
    for move, piece in (("e2e4", "P"), ("d7d5", "p"), ("a2a3", "P"), ("f7f5", "p")):
        t += 1000
        referee.feed(Lift(t, move[:2]))
        referee.feed(Place(t + 100, move[2:], piece))
        referee.tick(t + 600)
    assert game.action_texts() == ["e2e4", "d7d5", "a2a3", "f7f5"]
    board = after(game, "e4d5")
    names = game.variant.layout.name
    seen = {names(sq): "w" if c == WHITE else "b" for sq, c in colours(board).items()}
    referee.feed(LinkState(t + 1000, "reconnecting"))
    referee.feed(Occupied(t + 2000, frozenset(seen), seen))
    referee.feed(LinkState(t + 2000, "connected"))
    referee.tick(t + 3000)
    assert game.action_texts()[4:] == ["e4d5"]
