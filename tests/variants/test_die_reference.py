"""Die Chess against an independent model written straight from RULINGS.md §3.

The model below shares no code with ``referee/rules/variants/die.py``: it reads the engine's public
position text, works on (file, rank) pairs, and generates and applies actions its own way. The
tests compare legal sets after every action of seeded random games under many option sets, and
perft counts (which the golden file then pins).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

import pytest

from referee.rules.game import Game
from referee.rules.perft import perft
from referee.rules.variants import make_variant
from tests.perftfile import PERFT_DIR, PerftCase, read_perft_file

LIMITS = {"P": 2, "N": 2, "B": 2, "R": 1, "Q": 1, "K": 1}
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
Sq = tuple[int, int]


def sq_name(s: Sq) -> str:
    return "abcdefgh"[s[0]] + str(s[1] + 1)


def parse_sq(text: str) -> Sq:
    return ("abcdefgh".index(text[0]), int(text[1]) - 1)


@dataclass(frozen=True)
class Model:
    """Both dice and the turn, as RULINGS §3 describes them. Index 0 = White, 1 = Black."""

    pos: tuple[Sq | None, Sq | None]
    face: tuple[str, str]
    count: tuple[int, int]
    side: int
    rolls: int
    moved: bool

    @classmethod
    def from_text(cls, text: str) -> Model:
        """From the engine's public position text (format in docs/variants/die.md)."""
        fields = text.split()
        pos: list[Sq | None] = []
        faces, counts = [], []
        for die in fields[:2]:
            faces.append(die[0].upper())
            if die[1:] == "x":
                pos.append(None)
                counts.append(0)
            else:
                where, _, c = die[1:].partition(":")
                pos.append(parse_sq(where))
                counts.append(int(c))
        turn = fields[3]
        rolls = int(turn.replace("m", "").replace("x", "").replace("-", "").lstrip("r") or 0)
        return cls((pos[0], pos[1]), (faces[0], faces[1]), (counts[0], counts[1]),
                   0 if fields[2] == "w" else 1, rolls, "m" in turn)


def on_board(s: Sq) -> bool:
    return 0 <= s[0] < 8 and 0 <= s[1] < 8


def model_legal(m: Model, opts: dict[str, Any]) -> list[str]:
    """Every legal action, as canonical text."""
    me, enemy = m.pos[m.side], m.pos[1 - m.side]
    if me is None or enemy is None:
        return []
    face, out = m.face[m.side], []
    far = 7 if m.side == 0 else 0
    promos = ["n", "b", "r", "q"] + (["k"] if opts.get("die.promotion_allows_king", True)
                                      else [])
    optional = opts.get("die.promotion_optional", True)
    if not m.moved:
        if opts.get("die.promote_on_rolled_pawn_last_rank", False) and face == "P" \
                and me[1] == far:
            out += [sq_name(me) + sq_name(me) + p for p in promos]
            if not optional:
                return out
        if m.count[m.side] < LIMITS[face]:
            for t in targets(me, enemy, face, m.side):
                text = sq_name(me) + sq_name(t)
                if face == "P" and t[1] == far:
                    out += ([text] if optional else []) + [text + p for p in promos]
                else:
                    out.append(text)
    if m.rolls < opts.get("die.max_rolls_per_turn", 1) and (
            not m.moved or opts.get("die.allow_move_then_roll", False)):
        if opts.get("die.roll_source", "physical") == "rng":
            out.append("roll")
        else:
            out += [f"roll={n}" for n in range(1, 7)]
    return out + ["pass"]


def targets(me: Sq, enemy: Sq, face: str, side: int) -> list[Sq]:
    """Squares the die may move to showing ``face``."""
    x, y = me
    if face == "P":
        dy = 1 if side == 0 else -1
        out = [(x, y + dy)] if on_board((x, y + dy)) and (x, y + dy) != enemy else []
        return out + [(x + dx, y + dy) for dx in (-1, 1) if (x + dx, y + dy) == enemy]
    if face in "NK":
        return [(x + dx, y + dy) for dx, dy in (KNIGHT if face == "N" else KING)
                if on_board((x + dx, y + dy))]
    dirs = {"B": BISHOP, "R": ROOK, "Q": ROOK + BISHOP}[face]
    out = []
    for dx, dy in dirs:
        t = (x + dx, y + dy)
        while on_board(t):
            out.append(t)
            if t == enemy:
                break
            t = (t[0] + dx, t[1] + dy)
    return out


def model_apply(m: Model, text: str, opts: dict[str, Any]) -> Model:
    """The model after a legal action (physical rolls only)."""
    face_map = opts.get("die.face_map", "PNBRQK")
    s = m.side
    if text == "pass":
        return replace(m, side=1 - s, rolls=0, moved=False)
    if text.startswith("roll="):
        faces, counts = list(m.face), list(m.count)
        faces[s], counts[s] = face_map[int(text[5:]) - 1], 0
        m = replace(m, face=(faces[0], faces[1]), count=(counts[0], counts[1]),
                    rolls=m.rolls + 1)
        return replace(m, side=1 - s, rolls=0, moved=False) if m.moved and \
            m.rolls >= opts.get("die.max_rolls_per_turn", 1) else m
    frm, to, promo = parse_sq(text[:2]), parse_sq(text[2:4]), text[4:].upper()
    pos, faces, counts = list(m.pos), list(m.face), list(m.count)
    if to == pos[1 - s]:
        if faces[1 - s] == "K":
            pos[1 - s] = None
        else:
            order = ["a1", "c1", "e1", "g1"] if s == 1 else ["h8", "f8", "d8", "b8"]
            pos[1 - s] = next(parse_sq(q) for q in order if parse_sq(q) != to)
            faces[1 - s] = "P"
        counts[1 - s] = 0
    if to != frm:
        counts[s] += 1
    pos[s] = to
    faces[s] = promo or faces[s]
    m = replace(m, pos=(pos[0], pos[1]), face=(faces[0], faces[1]),
                count=(counts[0], counts[1]), moved=True)
    if not opts.get("die.allow_move_then_roll", False) or \
            m.rolls >= opts.get("die.max_rolls_per_turn", 1):
        return replace(m, side=1 - s, rolls=0, moved=False)
    return m


def model_perft(m: Model, depth: int, opts: dict[str, Any]) -> int:
    legal = model_legal(m, opts)
    if depth == 1:
        return len(legal)
    return sum(model_perft(model_apply(m, a, opts), depth - 1, opts) for a in legal)


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"die.allow_move_then_roll": True},
    {"die.max_rolls_per_turn": 2},
    {"die.allow_move_then_roll": True, "die.max_rolls_per_turn": 3},
    {"die.promotion_optional": False},
    {"die.promotion_allows_king": False},
    {"die.promote_on_rolled_pawn_last_rank": True},
    {"die.promote_on_rolled_pawn_last_rank": True, "die.promotion_optional": False},
    {"die.roll_source": "rng"},
    {"die.face_map": "KQRBNP"},
]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(
    f"{k[4:]}={v}" for k, v in o.items()) or "defaults")
def test_legal_sets_match_the_model_in_random_games(opts: dict[str, Any]) -> None:
    variant = make_variant("die", opts)
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(variant, seed=seed)
        while game.outcome.result == "*" and len(game.played) < 200:
            model = Model.from_text(variant.position(game.state, private=False))
            expected = model_legal(model, opts)
            assert sorted(game.legal_texts()) == sorted(expected), (
                seed, game.action_texts()[-6:], variant.position(game.state))
            action = rng.choice(game.legal())
            played = game.play(action)
            if opts.get("die.roll_source") != "rng":
                after = model_apply(model, played.text, opts)
                if game.outcome.result == "*" or after.pos[0] and after.pos[1]:
                    assert after == Model.from_text(variant.position(game.state, False)), (
                        seed, played.text)


GOLDEN = [c for name in ("die.perft", "die-options.perft")
          for c in read_perft_file(PERFT_DIR / name)]


@pytest.mark.parametrize("case", GOLDEN, ids=[f"{c.file}:{c.id}" for c in GOLDEN])
def test_golden_perft_counts_match_the_model(case: PerftCase) -> None:
    """The golden file's numbers (which the engine must reproduce, tests/test_perft_files.py)
    are what the independent model counts."""
    game = Game("die", case.options)
    for text in case.moves:
        game.play(text)
    model = Model.from_text(game.variant.position(game.state, private=False))
    assert {d: model_perft(model, d, case.options) for d in case.counts} == case.counts


def test_start_counts_by_hand() -> None:
    """Depth 2 from the start, counted by hand: a1a2 (8 replies) + six rolls, each followed by
    the new face's moves plus pass (P 2, N 3, B 8, R 15, Q 22, K 4 = 54) + pass (8 replies)."""
    game = Game("die")
    assert perft(game.variant, game.state, 1) == 8
    assert perft(game.variant, game.state, 2) == 8 + 54 + 8
