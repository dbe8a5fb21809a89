"""``qkv-studio export``: arguments, refusals, file names, every format from G01, headless."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import imageio_ffmpeg
import pytest
from PIL import Image, ImageSequence
from pptx import Presentation
from pypdf import PdfReader
from PySide6.QtWidgets import QApplication

from app.cli import main
from tests.export.conftest import leftovers, load_trace

ROOT = Path(__file__).resolve().parents[2]
QKV_STUDIO = Path(sys.executable).parent / "qkv-studio"


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, list[str], str]:
    status = main(["export", *arguments])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_a_range_of_steps_writes_exactly_those_files(qapp: QApplication, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = run(capsys, "f11", "--format", "png", "--steps", "2-3", "--out",
                             str(tmp_path), "--width", "400")
    assert (status, err) == (0, "")
    assert leftovers(tmp_path) == ["f11-step02.png", "f11-step03.png"]
    assert lines == [str(tmp_path / "f11-step02.png"), str(tmp_path / "f11-step03.png")]
    with Image.open(tmp_path / "f11-step02.png") as image:
        assert image.width == 400


def test_single_file_formats_default_to_the_document_name_here(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, lines, _ = run(capsys, str(ROOT / "resources/examples/multihead.qkv.json"),
                           "--format", "pdf", "--steps", "4")
    assert status == 0
    assert lines == [str(tmp_path / "multihead.pdf")]
    assert len(PdfReader(tmp_path / "multihead.pdf").pages) == 1
    folder = tmp_path / "slides"
    folder.mkdir()
    status, lines, _ = run(capsys, "f11", "--format", "pptx", "--out", str(folder))
    assert (status, lines) == (0, [str(folder / "f11.pptx")]), "a folder gets NAME.pptx"


def test_one_step_split_into_parts_sent_to_one_file_name_writes_a_file_per_part_and_says_so(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The BERT example's first feed-forward at 960 wide is too small for a projector in one
    picture: ``--out ffn.png`` writes ffn-1.png, ffn-2.png … (never a small picture under the
    name asked), prints each, and says on standard error why the names differ."""
    step = load_trace("bert").step_index("L1.ffn") + 1
    status, lines, err = run(capsys, "bert", "--format", "png", "--steps", str(step),
                             "--width", "960", "--out", str(tmp_path / "ffn.png"))
    names = leftovers(tmp_path)
    assert status == 0 and len(names) > 1
    assert names == [f"ffn-{k}.png" for k in range(1, len(names) + 1)]
    assert lines == [str(tmp_path / name) for name in names]
    assert err == (f"qkv-studio: step {step} is too small for a projector in one picture, so it "
                   f"is split over {len(names)} files (as F5 splits it over slides): "
                   f"{', '.join(names)}, in place of ffn.png\n")
    status, lines, err = run(capsys, "bert", "--format", "png", "--steps", "1",
                             "--width", "960", "--out", str(tmp_path / "one.png"))
    assert (status, lines, err) == (0, [str(tmp_path / "one.png")], "")


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_a_part_of_a_split_step_never_replaces_a_file_the_user_did_not_name(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        fmt: str) -> None:
    """``--out ffn.png`` over the user's own ffn-2.png (and ffn.png): refused in one line
    naming the part, exit 2; every old file as it was, nothing else written (no part, no
    staging folder). In another folder the same export writes its parts."""
    step = load_trace("bert").step_index("L1.ffn") + 1
    own = {f"ffn.{fmt}": b"asked for: replaced only by a whole picture",
           f"ffn-2.{fmt}": b"the user's own picture"}
    for name, data in own.items():
        (tmp_path / name).write_bytes(data)
    status, lines, err = run(capsys, "bert", "--format", fmt, "--steps", str(step),
                             "--width", "960", "--out", str(tmp_path / f"ffn.{fmt}"))
    assert (status, lines) == (2, [])
    assert err.startswith(f"qkv-studio: cannot write {tmp_path / f'ffn-2.{fmt}'}: the step is "
                          f"split over ") and err.count("\n") == 1
    assert f"files in place of ffn.{fmt} (ffn-1.{fmt}, ffn-2.{fmt}" in err
    assert err.endswith("and a file of this name is already there that the export was not "
                        "asked to replace: move it or choose another name\n")
    assert leftovers(tmp_path) == sorted(own)
    assert {name: (tmp_path / name).read_bytes() for name in own} == own
    elsewhere = tmp_path / "elsewhere"
    status, lines, _ = run(capsys, "bert", "--format", fmt, "--steps", str(step),
                           "--width", "960", "--out", str(elsewhere / f"ffn.{fmt}"))
    assert status == 0 and leftovers(elsewhere) == [Path(line).name for line in lines]
    assert len(lines) > 1


def test_the_refusal_of_a_part_over_a_file_is_worded_in_chinese_too(
        qapp: QApplication, tmp_path: Path) -> None:
    from app.export.job import run_export
    from app.export.safe import ExportRefusedError
    from app.export.settings import ExportRequest

    trace = load_trace("bert")
    (tmp_path / "ffn-1.png").write_bytes(b"mine")
    request = ExportRequest(format="png", steps=(trace.step_index("L1.ffn"),),
                            destination=tmp_path, single_file="ffn.png", width=960)
    with pytest.raises(ExportRefusedError) as refused:
        run_export(trace, request)
    assert refused.value.words("zh").startswith(
        f"无法写入 {tmp_path / 'ffn-1.png'}：这一步被拆成 ")
    assert refused.value.words("zh").endswith(
        "而这里已有同名文件，导出并未被要求替换它：请把它移走，或换一个名称")
    assert leftovers(tmp_path) == ["ffn-1.png"]
    assert (tmp_path / "ffn-1.png").read_bytes() == b"mine"


def test_a_refused_document_exits_2_and_writes_nothing(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    document = tmp_path / "lesson.qkv.json"
    document.write_text('{"tokens": ["a"], "X": [[1, 2]], "attention": {"Wq": [[1]]}}')
    monkeypatch.chdir(tmp_path)
    for fmt in ("png", "pptx"):
        status, lines, err = run(capsys, str(document), "--format", fmt)
        assert status == 2 and lines == []
        assert err.startswith("qkv-studio: ") and err.count("\n") == 1
    assert leftovers(tmp_path) == ["lesson.qkv.json"]


@pytest.mark.parametrize(("arguments", "message"), [
    (["--steps", "6"], "--steps 6: this document has steps 1 to 5"),
    (["--steps", "0-2"], "this document has steps 1 to 5"),
    (["--steps", "x"], "--steps expects all, N or N-M"),
    (["--width", "0"], "--width must be a positive number of pixels, got 0"),
    (["--width", "-5"], "--width must be a positive number of pixels, got -5"),
    (["--scale", "0"], "--scale must be a positive finite number"),
    (["--dwell", "0"], "--dwell must be more than 0 and at most 600 seconds"),
])
def test_bad_arguments_exit_2_with_a_clear_message(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        arguments: list[str], message: str) -> None:
    status, lines, err = run(capsys, "f11", "--format", "png", "--out", str(tmp_path),
                             *arguments)
    assert status == 2 and lines == []
    assert err.startswith("qkv-studio: ") and message in err
    assert leftovers(tmp_path) == []


def test_width_and_scale_together_are_refused_by_argparse(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["export", "f11", "--format", "png", "--width", "10", "--scale", "2"])
    assert caught.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_an_unwritable_destination_exits_1_naming_the_path(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("")
    target = blocker / "out.gif"
    status, lines, err = run(capsys, "f11", "--format", "gif", "--out", str(target))
    assert status == 1 and lines == []
    assert err == f"qkv-studio: cannot write {target}: {blocker} is not a folder\n"
    assert leftovers(tmp_path) == ["file.txt"]


@pytest.fixture(scope="module")
def g01_files(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("g01")
    files: dict[str, Path] = {}
    for fmt in ("png", "svg", "pdf", "gif", "mp4", "pptx"):
        out = folder / fmt if fmt in ("png", "svg") else folder / f"g01.{fmt}"
        extra = ["--dwell", "0.4"] if fmt in ("gif", "mp4") else []
        size = ["--width", "480"] if fmt in ("gif", "mp4", "png") else []
        assert main(["export", "g01", "--format", fmt, "--out", str(out), "--caption",
                     *size, *extra]) == 0
        files[fmt] = out
    return files


def test_g01_exports_through_every_format(g01_files: dict[str, Path]) -> None:
    pngs = sorted(g01_files["png"].glob("*.png"))
    assert [p.name for p in pngs] == [f"g01-step{k:02d}.png" for k in range(1, 13)]
    for path in pngs:
        with Image.open(path) as image:
            assert image.width == 480
    svgs = sorted(g01_files["svg"].glob("*.svg"))
    assert len(svgs) == 12
    for path in svgs:
        assert ET.parse(path).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    assert len(PdfReader(g01_files["pdf"]).pages) == 12
    with Image.open(g01_files["gif"]) as gif:
        durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    assert durations == [400] * 12
    deck = Presentation(str(g01_files["pptx"]))
    assert len(deck.slides) == 12


@pytest.mark.slow
def test_g01_video_holds_twelve_steps(g01_files: dict[str, Path]) -> None:
    frames, seconds = imageio_ffmpeg.count_frames_and_secs(str(g01_files["mp4"]))
    assert (frames, seconds) == (12, pytest.approx(12 * 0.4)), "one frame a step, each 0.4 s"


@pytest.mark.slow
def test_a_real_process_exports_headless_and_byte_identical(tmp_path: Path) -> None:
    """Two separate processes, no display and no platform set: identical PNG and SVG bytes."""
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    outputs = []
    for run_name in ("one", "two"):
        out = tmp_path / run_name
        for fmt in ("png", "svg"):
            done = subprocess.run([str(QKV_STUDIO), "export", "f11", "--format", fmt, "--steps",
                                   "4-5", "--out", str(out), "--caption", "--lang", "zh"],
                                  env=environment, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            assert len(done.stdout.splitlines()) == 2
        outputs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert sorted(outputs[0]) == ["f11-step04.png", "f11-step04.svg", "f11-step05.png",
                                  "f11-step05.svg"]
    assert outputs[0] == outputs[1]


def test_theme_high_contrast_draws_black_on_white(tmp_path: Path) -> None:
    """--theme high-contrast: pure black text and grid lines; slide uses its softer greys."""
    from app.cli import main

    for theme in ("slide", "high-contrast"):
        assert main(["export", "f11", "--format", "svg", "--steps", "4",
                     "--out", str(tmp_path / theme), "--theme", theme]) == 0
    slide = (tmp_path / "slide" / "f11-step04.svg").read_text(encoding="utf-8")
    contrast = (tmp_path / "high-contrast" / "f11-step04.svg").read_text(encoding="utf-8")
    assert "#9aa0a6" in slide.lower() and "#9aa0a6" not in contrast.lower()
    assert contrast != slide


def test_an_unknown_theme_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from app.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["export", "f11", "--format", "png", "--out", str(tmp_path), "--theme", "dark"])
    assert stopped.value.code == 2
    assert "invalid choice: 'dark'" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_decimals_sets_how_many_decimals_the_svg_prints(tmp_path: Path) -> None:
    """--decimals 4: F11's shares 1/(1+e^(−√2)) = 0.80443 and 0.19557 print as 0.8044 / 0.1956."""
    for places in ("3", "4"):
        assert main(["export", "f11", "--format", "svg", "--steps", "4",
                     "--out", str(tmp_path / places), "--decimals", places]) == 0
    three = (tmp_path / "3" / "f11-step04.svg").read_text(encoding="utf-8")
    four = (tmp_path / "4" / "f11-step04.svg").read_text(encoding="utf-8")
    assert ">0.804<" in three and ">0.8044<" not in three
    assert ">0.8044<" in four and ">0.1956<" in four
