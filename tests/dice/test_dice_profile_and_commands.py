"""Dice profiles (load, check, save) and the `dice read`, `dice bench`, `calibrate dice`
commands, on rendered trays written to a temporary folder."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import cli as calibration_cli
from companion.dice import cli as dice_cli
from companion.dice import synth
from companion.dice.profile import DEFAULT_PATH, Profile, ProfileError, load, save


def _run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers()
    dice_cli.register(sub)
    calibration_cli.register(sub)
    args = parser.parse_args(argv)
    return args.func(args)


def test_shipped_default_profile_is_the_built_in_default():
    assert load(DEFAULT_PATH) == Profile()
    assert load() == Profile()


def test_profile_round_trips_through_toml(tmp_path):
    path = tmp_path / "p.toml"
    tuned = Profile(name="tuned")
    save(tuned, path)
    assert load(path) == tuned


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[pips]\nthreshold = 'high'\n", "pips.threshold: expected a number"),
        ("[pips]\nkernel = 21.5\n", "pips.kernel: expected a whole number"),
        ("[pips]\nthreshold = 900\n", "pips.threshold: 900 is outside"),
        ("[pips]\nthreshhold = 20\n", "unknown key pips.threshhold"),
        ("[lighting]\nx = 1\n", "unknown section [lighting]"),
        ("[pips\n", "not valid TOML"),
        ("[pips]\nmin_radius = 9\nmax_radius = 4\n", "min_radius must be below"),
        ("[scene]\nhand_reaches = 0.8\n", "hand_reaches must be below"),
    ],
)
def test_bad_profile_is_refused_with_the_key_and_the_reason(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ProfileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load(path)


def test_missing_profile_file_is_a_clear_error(tmp_path):
    with pytest.raises(ProfileError, match="cannot read profile"):
        load(tmp_path / "nope.toml")


def test_dice_read_prints_json_and_writes_an_annotated_image(tmp_path, capsys):
    rng = np.random.default_rng(7)
    scene = synth.random_scene([2, 6], rng, view_tilt=0.0, style="ivory", surface="felt-green")
    image = tmp_path / "roll.png"
    cv2.imwrite(str(image), synth.render(scene, rng))
    out = tmp_path / "seen.png"
    assert _run("dice", "read", str(image), "--json", "--expect", "2", "--annotate", str(out)) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["values"] == [2, 6]
    assert result["status"] == "ok"
    assert cv2.imread(str(out)).shape == (480, 640, 3)


def test_dice_read_reports_an_unreadable_image(tmp_path, capsys):
    bad = tmp_path / "bad.png"
    bad.write_text("not an image")
    assert _run("dice", "read", str(bad)) == 1
    assert "cannot read image" in capsys.readouterr().err


def test_dice_bench_scores_labelled_and_synthetic_sets(tmp_path, capsys, labelled_set):
    labelled_set(tmp_path / "rendered", 4, seed=1)
    code = _run("dice", "bench", str(tmp_path / "rendered"), "--synthetic", "3", "--json")
    assert code == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["set"] for r in rows] == ["rendered", "synthetic-3"]
    fields = {
        "set",
        "images",
        "dice",
        "hands_free_rate",
        "silent_error_rate",
        "proposal_right_rate",
        "per_die_accuracy",
        "exact_image_rate",
        "uncertain_rate",
        "confident_error_rate",
        "ms_p50",
        "ms_p95",
        "hands_free_by_dice",
    }
    assert set(rows[0]) == fields
    assert rows[0]["images"] == 4 and rows[0]["dice"] == 12
    assert 0 <= rows[0]["per_die_accuracy"] <= 1
    assert rows[0]["per_die_accuracy"] > 0.8


def test_dice_bench_refuses_a_folder_without_labels(tmp_path, capsys):
    (tmp_path / "images").mkdir()
    assert _run("dice", "bench", str(tmp_path)) == 2
    assert "no labels.jsonl" in capsys.readouterr().err


def test_calibrate_dice_reports_before_and_after_and_writes_a_loadable_profile(
    tmp_path, capsys, labelled_set
):
    labelled_set(tmp_path / "photos", 3, seed=2)
    out = tmp_path / "tuned.toml"
    assert (
        _run("calibrate", "dice", str(tmp_path / "photos"), "--rounds", "1", "--out", str(out)) == 0
    )
    text = capsys.readouterr().out
    assert "before:" in text and "after:" in text
    tuned = load(out)
    assert tuned.name.endswith("tuned")


def _claim_a_die_more(folder: Path) -> None:
    """Make the set's labels claim a die more in every image than it shows."""
    labels = folder / "labels.jsonl"
    lines = [json.loads(line) for line in labels.read_text().splitlines()]
    for obj in lines:
        obj["dice"].append({"value": 1, "box": [0, 0, 1, 1]})
    labels.write_text("\n".join(json.dumps(obj) for obj in lines) + "\n")


def test_dice_bench_no_expect_reads_without_the_labelled_count(tmp_path, capsys, labelled_set):
    """Labels that claim a fourth die: told the count, the reader flags every roll; not told,
    it accepts what it sees, and the bench calls each such roll a silent error."""
    labelled_set(tmp_path / "rendered", 3, seed=1)
    _claim_a_die_more(tmp_path / "rendered")

    assert _run("dice", "bench", str(tmp_path / "rendered"), "--json") == 0
    told = json.loads(capsys.readouterr().out)[0]
    assert _run("dice", "bench", str(tmp_path / "rendered"), "--json", "--no-expect") == 0
    blind = json.loads(capsys.readouterr().out)[0]
    assert told["hands_free_rate"] == 0 and told["silent_error_rate"] == 0
    assert blind["silent_error_rate"] == 1.0


def test_dice_bench_held_out_scores_only_the_images_no_model_was_trained_on(
    tmp_path, capsys, labelled_set
):
    from companion.dice.scoring import held_out, load_set

    labelled_set(tmp_path / "rendered", 8, seed=3)
    kept_back = [s.name for s in load_set(tmp_path / "rendered") if held_out(s.name)]
    assert 0 < len(kept_back) < 8  # a quarter or so, chosen by name
    assert [s.name for s in load_set(tmp_path / "rendered", only_held_out=True)] == kept_back
    assert _run("dice", "bench", str(tmp_path / "rendered"), "--held-out", "--json") == 0
    assert json.loads(capsys.readouterr().out)[0]["images"] == len(kept_back)


def test_dice_read_and_bench_can_use_the_learned_detector(tmp_path, capsys, labelled_set):
    labelled_set(tmp_path / "rendered", 2, seed=4)
    assert _run("dice", "bench", str(tmp_path / "rendered"), "--reader", "detector", "--json") == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert row["images"] == 2 and 0 <= row["per_die_accuracy"] <= 1
    image = tmp_path / "rendered" / "images" / "0.png"
    assert _run("dice", "read", str(image), "--reader", "detector", "--json") == 0
    assert json.loads(capsys.readouterr().out)["status"] in ("ok", "check")


def test_dice_bench_zoom_reads_the_same_dice_at_another_resolution(tmp_path, capsys, labelled_set):
    """`--zoom 2` reads each image at twice its width, as a camera with twice the pixels
    would see the tray: the reader brings the dice to its own size, so it reads the same
    dice, each twice as far from the corner. (The labels claim a die more, so every roll is
    written among the failures.) A zoom no camera could mean is refused, naming the option."""
    labelled_set(tmp_path / "rendered", 2, seed=4)
    _claim_a_die_more(tmp_path / "rendered")
    read = []
    for zoom in ("1", "2"):
        failures = tmp_path / f"failures-{zoom}.jsonl"
        args = ("--zoom", zoom, "--failures", str(failures), "--json")
        assert _run("dice", "bench", str(tmp_path / "rendered"), *args) == 0
        capsys.readouterr()
        rolls = [json.loads(line) for line in failures.read_text().splitlines()]
        read.append(sorted((d["face"], d["centre"]) for roll in rolls for d in roll["dice"]))
    assert len(read[0]) == len(read[1]) >= 4
    for (face, (x, y)), (twice_face, (x2, y2)) in zip(*read, strict=True):
        assert twice_face == face and abs(x2 - 2 * x) < 4 and abs(y2 - 2 * y) < 4
    assert _run("dice", "bench", str(tmp_path / "rendered"), "--zoom", "0") == 2
    assert "--zoom" in capsys.readouterr().err
