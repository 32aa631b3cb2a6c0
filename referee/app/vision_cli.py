"""The ``gravekeeper vision-eval`` and ``gravekeeper vision-track`` commands.

Both return 0 on success and 2 on bad input, printing a one-line ``error:`` message on stderr
(never a traceback) for every :class:`~vision.errors.VisionError` and argument error.
"""

from __future__ import annotations

import itertools
import json
import sys
from typing import TYPE_CHECKING, Any

from referee.app.errors import CommandParser, UsageError, fail
from vision.errors import VisionError

if TYPE_CHECKING:
    from referee.app.vision_track import Tracker
    from referee.rules.game import Game


def _fail(prog: str, message: str) -> int:
    return fail(prog, f"error: {message}")


def _eval_parser() -> CommandParser:
    p = CommandParser(prog="gravekeeper vision-eval",
                description="Score the camera pipeline on labelled photos.")
    p.add_argument("labels", help="labels CSV (file, fen_board, corners_a8_h8_h1_a1, ...)")
    p.add_argument("--corners", choices=("given", "auto"), default="given",
                   help="use the labelled corners or find the board automatically")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def eval_main(argv: list[str]) -> int:
    """``vision-eval LABELS.csv [--corners given|auto] [--json]``."""
    prog = "gravekeeper vision-eval"
    try:
        args = _eval_parser().parse_args(argv)
        from vision.evaluate import evaluate
        from vision.labels import read_labels
        from vision.locate import locate_board

        photos = read_labels(args.labels)
        summary = evaluate(photos, locate_board if args.corners == "auto" else None)
    except UsageError as e:
        return _fail(prog, str(e))
    except VisionError as e:
        return _fail(prog, str(e))
    except OSError as e:  # permissions, I/O errors: still bad input, not a crash
        return _fail(prog, f"{e.strerror or e}: {e.filename or ''}".rstrip(": "))
    if args.json:
        print(json.dumps(summary.as_dict()))
        return 0
    s = summary
    print(f"photos: {s.photos} (corners: {s.corners})")
    print(f"occupancy error: {s.occupancy_error_pct:.2f} % of squares")
    print(f"colour error: {s.colour_error_pct:.2f} % of squares")
    print(f"boards with no mistake: {s.perfect_boards_pct:.2f} %")
    if s.corner_error_px is None or s.corner_error_median_px is None:
        print("corner error: n/a (no board found)")
    else:
        print(f"corner error: {s.corner_error_px:.2f} px mean, "
              f"{s.corner_error_median_px:.2f} px median")
    print(f"boards found: {s.boards_found_pct:.2f} %")
    print(f"ms per photo: {s.ms_per_photo:.1f}")
    return 0


def _track_parser() -> CommandParser:
    p = CommandParser(prog="gravekeeper vision-track",
                description="Follow a game from its start position on video.")
    p.add_argument("source", help="video file, folder of frames (name order), camera:N or URL")
    p.add_argument("--corners", required=True,
                   help="JSON list of four [x, y] board corners in the order a8, h8, h1, a1")
    p.add_argument("--corners2", default=None,
                   help="a variant with a second board: its corners (JSON, a8, h8, h1, a1; "
                   "else it is looked for beside the first board in the first frame)")
    p.add_argument("--variant", default="standard", help="variant name (default: standard)")
    p.add_argument("--fen", default=None,
                   help="start from this set-up position (FEN) instead of the initial one")
    p.add_argument("--stabilise", action="store_true",
                   help="a camera held in the hand: carry the corners onto the board in every "
                        "frame (as camera://...?stabilise=1 and phone://)")
    return p


def _start(variant: str, fen: str | None) -> Game:
    """The game to follow: the variant's start, or the set-up position ``fen``.

    Raises:
        RefereeError: unknown variant, a variant without FEN positions, or a bad FEN.
    """
    from referee.rules.errors import RecordError
    from referee.rules.game import Game

    game = Game(variant)
    if fen is None:
        return game
    read = getattr(game.variant, "from_position", None)
    if read is None:
        raise RecordError("this variant cannot start from a FEN")
    return Game(game.variant, seed=game.seed, state=read(fen))


def _second_board(frame: Any, corners: Any) -> Any:
    """The second board's corners, found beside the first in ``frame``.

    Raises:
        BoardNotFoundError: none there (the message says how to give them).
    """
    from referee.app.vision_view import find_second
    from vision.errors import BoardNotFoundError

    try:
        return find_second(frame, corners)
    except BoardNotFoundError:
        raise BoardNotFoundError("this variant has a second board and none was found beside "
                                 "the first in the first frame: give its corners with "
                                 "--corners2") from None


def _print_moves(tracker: Tracker, printed: int, upto: int) -> int:
    for played in tracker.game.played[printed:upto]:
        print(played.text, flush=True)
    return max(printed, upto)


def track_main(argv: list[str]) -> int:
    """``vision-track SOURCE --corners JSON [--variant NAME] [--fen FEN] [--stabilise]``:
    print moves, then a summary."""
    prog = "gravekeeper vision-track"
    try:
        args = _track_parser().parse_args(argv)
        from referee.app.vision_track import Tracker
        from referee.app.vision_view import view_of
        from referee.rules.errors import RefereeError
        from vision.geometry import parse_corners
        from vision.sources import FolderSource, open_source, video_fps

        corners = parse_corners(args.corners)
        others = [parse_corners(args.corners2)] if args.corners2 is not None else []
        src = open_source(args.source)
        if isinstance(src, FolderSource):  # a photo that cannot be read: said, then skipped
            src.unreadable = lambda why: print(f"{prog}: skipped a photo: {why}",
                                               file=sys.stderr, flush=True)
        try:
            game = _start(args.variant, args.fen)
        except RefereeError as e:
            src.close()
            return _fail(prog, f"variant {args.variant!r}: {e}")
        printed = 0
        with src:
            frames = src.frames()
            if not others and view_of(game.variant).blocks:
                first = next(frames, None)
                if first is not None:
                    others = [_second_board(first, corners)]
                    frames = itertools.chain([first], frames)
            tracker = Tracker(corners, args.variant, stills=isinstance(src, FolderSource),
                              game=game, others=others, stabilise=args.stabilise)
            for _ in tracker.run(frames, video_fps(args.source)):
                # A later frame may still take back the last decisions (Tracker._retract):
                # the record is printed once they can no longer change.
                final = len(tracker.game.played) - tracker.pending()
                printed = _print_moves(tracker, printed, final)
        _print_moves(tracker, printed, len(tracker.game.played))
    except UsageError as e:
        return _fail(prog, str(e))
    except VisionError as e:
        return _fail(prog, str(e))
    except OSError as e:
        return _fail(prog, f"{e.strerror or e}: {e.filename or ''}".rstrip(": "))
    print(f"# {tracker.summary()}")
    return 0
