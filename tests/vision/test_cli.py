"""The vision-eval and vision-track commands end to end on the shared data, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.app.vision_cli import eval_main, track_main
from tests.vision.conftest import LABELS, SCHOLAR_CORNERS, VIDEO


def test_eval_json_figures_in_range(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_main([str(LABELS), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["photos"] == 43
    for key in ("occupancy_error_pct", "colour_error_pct", "perfect_boards_pct",
                "boards_found_pct"):
        assert 0.0 <= out[key] <= 100.0
    assert out["occupancy_error_pct"] < 10.0
    assert out["boards_found_pct"] == 100.0
    assert out["ms_per_photo"] > 0


def test_eval_text(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_main([str(LABELS)]) == 0
    out = capsys.readouterr().out
    assert "occupancy error:" in out and "ms per photo:" in out


def test_track_scholars_mate(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert track_main([str(VIDEO), "--corners", SCHOLAR_CORNERS]) == 0
    lines = capsys.readouterr().out.splitlines()
    moves = [ln for ln in lines if not ln.startswith("# ")]
    assert moves == "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7".split()
    assert lines[-1].startswith("# ")


def _one_line_error(capsys: pytest.CaptureFixture[str], code: int) -> None:
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "error:" in err
    assert "Traceback" not in err


def test_eval_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _one_line_error(capsys, eval_main([str(tmp_path / "none.csv")]))


def test_eval_bad_csv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    _one_line_error(capsys, eval_main([str(bad)]))


def test_eval_bad_corners_row(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    img = tmp_path / "x.jpg"
    img.write_bytes(b"not an image")
    bad = tmp_path / "bad.csv"
    bad.write_text('file,fen_board,corners_a8_h8_h1_a1\nx.jpg,8/8/8/8/8/8/8/8,"[[1,2]]"\n')
    _one_line_error(capsys, eval_main([str(bad)]))


def test_eval_unreadable_image(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    img = tmp_path / "x.jpg"
    img.write_bytes(b"not an image")
    bad = tmp_path / "bad.csv"
    bad.write_text('file,fen_board,corners_a8_h8_h1_a1\n'
                   'x.jpg,8/8/8/8/8/8/8/8,"[[0,0],[100,0],[100,100],[0,100]]"\n')
    _one_line_error(capsys, eval_main([str(bad)]))


def test_eval_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    _one_line_error(capsys, eval_main(["x.csv", "--corners", "sideways"]))


def test_track_bad_corners_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _one_line_error(capsys, track_main([str(tmp_path), "--corners", "[[1,2],"]))


def test_track_missing_video(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _one_line_error(capsys, track_main([str(tmp_path / "none.avi"), "--corners",
                                        SCHOLAR_CORNERS]))


def test_track_unreadable_frame(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"garbage")
    _one_line_error(capsys, track_main([str(tmp_path), "--corners", SCHOLAR_CORNERS]))


def test_track_unreadable_heic_photo(capsys: pytest.CaptureFixture[str],
                                    tmp_path: Path) -> None:
    (tmp_path / "IMG_0001.HEIC").write_bytes(b"ftypheic but no picture")
    _one_line_error(capsys, track_main([str(tmp_path), "--corners", SCHOLAR_CORNERS]))


def test_heic_photo_is_read_upright(tmp_path: Path) -> None:
    """A HEIC photo taken with the phone turned (its file says: turn it a quarter) is read
    as the phone showed it: taller than wide."""
    pillow_heif = pytest.importorskip("pillow_heif")
    from PIL import Image

    from vision.sources import read_image

    wide = np.zeros((60, 100, 3), dtype=np.uint8)
    wide[:, :50] = (255, 0, 0)  # red on the left (RGB)
    pillow_heif.register_heif_opener()
    exif = Image.Exif()
    exif[0x0112] = 6  # EXIF orientation: turn 90 degrees clockwise to show
    Image.fromarray(wide).save(tmp_path / "turned.heic", exif=exif.tobytes(), quality=90)
    img = read_image(tmp_path / "turned.heic")
    assert img.shape[:2] == (100, 60)
    assert img[10, 30, 2] > 200 and img[90, 30, 2] < 60  # red (BGR) now on top


def test_track_unknown_variant(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _one_line_error(capsys, track_main([str(tmp_path), "--corners", SCHOLAR_CORNERS,
                                        "--variant", "no-such-variant"]))


def test_eval_auto_corners_subset(data: Path, capsys: pytest.CaptureFixture[str],
                                  tmp_path: Path) -> None:
    rows = LABELS.read_text().splitlines()
    subset = tmp_path / "labels.csv"
    picked = [r.replace("photos/", str(data / "photos") + "/", 1) for r in rows[1:4]]
    subset.write_text("\n".join([rows[0], *picked]) + "\n")
    assert eval_main([str(subset), "--corners", "auto", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["corners"] == "auto" and out["photos"] == 3
    assert 0.0 <= out["boards_found_pct"] <= 100.0
    assert out["corner_error_px"] is None or out["corner_error_px"] >= 0.0


def test_track_variant_without_8x8_board(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    _one_line_error(capsys, track_main([str(tmp_path), "--corners", SCHOLAR_CORNERS,
                                        "--variant", "afterlife"]))


def test_track_bad_fen(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _one_line_error(capsys, track_main([str(tmp_path), "--corners", SCHOLAR_CORNERS,
                                        "--fen", "not a fen"]))


def test_track_from_a_set_up_position(data: Path, capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    """``--fen``: a game from a set-up position (castling both ways possible), one frame per
    position pieced from the real video's squares, followed exactly."""
    import numpy as np

    from tests.vision import variations as V

    fen = "r3k2r/1pp2ppp/2n5/8/3P4/2N5/PPP2PPP/R3K2R w KQkq - 0 1"
    start = V.warp_jittered(V.video_frames(VIDEO)[2], np.random.default_rng(0), 0.0)
    moves = V.random_game(30, 1, fen)
    folder = V.write_folder(tmp_path / "stills", V.composite_game(moves, start, 1, fen=fen))
    assert track_main([str(folder), "--corners", json.dumps(V.FULL), "--fen", fen]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln for ln in lines if not ln.startswith("# ")] == moves


def test_a_photo_that_cannot_be_read_is_skipped_and_the_game_followed(
        data: Path, tmp_path: Path) -> None:
    """A folder of the video's settled frames (one photo per position) where the photo after
    2. Qh5 was cut short while it was copied: ``vision-track`` and ``watch camera://`` say
    so in one line naming it, and follow the whole game (the move it hid is read with the
    next one). A folder of nothing readable is one error, exit 2."""
    from tests.vision import variations as V

    frames = V.video_frames(VIDEO)
    folder = tmp_path / "photos"
    folder.mkdir()
    for k, i in enumerate(V.SCHOLAR_STILLS):
        assert cv2.imwrite(str(folder / f"IMG_{k:04d}.jpg"), frames[i])
    cut = folder / "IMG_0003.jpg"
    cut.write_bytes(cut.read_bytes()[:2000])

    track = _run("vision-track", str(folder), "--corners", SCHOLAR_CORNERS)
    assert track.returncode == 0, track.stderr
    assert [ln for ln in track.stdout.splitlines() if not ln.startswith("#")] == SCHOLAR
    assert track.stderr.splitlines() == [
        f"gravekeeper vision-track: skipped a photo: not a readable image: {cut}"]

    flat = ",".join(str(v) for pt in json.loads(SCHOLAR_CORNERS) for v in pt)
    watch = _run("watch", f"camera://{folder}?fast=1&corners={flat}")
    assert watch.returncode == 0, watch.stderr
    lines = watch.stdout.splitlines()
    assert [ln for ln in lines if not ln.startswith("#")] == SCHOLAR
    assert [ln for ln in lines if "skipped" in ln] == [
        f"# note: skipped a photo: not a readable image: {cut}"]
    assert "Traceback" not in watch.stderr

    for name in ("IMG_0000.jpg", "IMG_0001.jpg", "IMG_0002.jpg", "IMG_0004.jpg",
                 "IMG_0005.jpg", "IMG_0006.jpg"):
        (folder / name).unlink()
    for argv in (["vision-track", str(folder), "--corners", SCHOLAR_CORNERS],
                 ["watch", f"camera://{folder}?fast=1&corners={flat}"]):
        bad = _run(*argv)
        assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr
        assert len(bad.stderr.splitlines()) == 1, bad.stderr
        assert "no readable image in the folder" in bad.stderr and str(cut) in bad.stderr


SCHOLAR = "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7".split()


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    exe = str(Path(sys.executable).with_name("gravekeeper"))
    return subprocess.run([exe, *argv], capture_output=True, text=True, timeout=120,
                          check=False)
