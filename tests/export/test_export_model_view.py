"""``qkv-studio export FILE --view model``: every layer × head in one PNG, SVG, PDF or slide,
read back; its options refused in one line, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pypdf import PdfReader
from PySide6.QtWidgets import QApplication

from app.cli import main
from app.model.examples import resolve_document
from engine import compute, load_scenario


@pytest.fixture(scope="module")
def sink_figures() -> list[str]:
    """Each head's mean share on the first key, two decimals, by numpy over the shares."""
    trace = compute(load_scenario(resolve_document("three-layers")))
    return [f"{share:.2f}" for k in (1, 2, 3)
            for share in trace.arrays[f"L{k}.weights"][:, :, 0].mean(axis=1)]


def export(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(["export", "three-layers", "--view", "model", *arguments])
    out, err = capsys.readouterr()
    return status, out, err


def test_png_is_at_the_export_size(qapp: QApplication, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "model.png"
    assert export(capsys, "--format", "png", "--out", str(out)) == (0, f"{out}\n", "")
    with Image.open(out) as image:
        assert image.size == (1920, 1080)


def test_svg_and_pdf_name_every_head_and_print_its_sink(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        sink_figures: list[str]) -> None:
    svg, pdf = tmp_path / "m.svg", tmp_path / "m.pdf"
    assert export(capsys, "--format", "svg", "--out", str(svg))[0] == 0
    assert export(capsys, "--format", "pdf", "--out", str(pdf), "--layers", "2-3")[0] == 0
    svg_text = svg.read_text(encoding="utf-8")
    labels = [f"L{layer} h{head}" for layer in (1, 2, 3) for head in (1, 2)]
    for label, figure in zip(labels, sink_figures, strict=True):
        assert f">{label}<" in svg_text and f">{figure}<" in svg_text
    assert "Attention sinks" in svg_text
    pdf_text = PdfReader(pdf).pages[0].extract_text()
    assert "L2 h1" in pdf_text and "L3 h2" in pdf_text and "L1 h1" not in pdf_text
    assert sink_figures[-1] in pdf_text


def test_pptx_is_one_slide_titled_with_the_picture(qapp: QApplication, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.pptx"
    assert export(capsys, "--format", "pptx", "--out", str(out), "--lang", "zh")[0] == 0
    slides = list(Presentation(str(out)).slides)
    assert len(slides) == 1
    shapes = slides[0].shapes
    assert shapes.title is not None and shapes.title.text.startswith("模型总览：3 × 2 个头")
    pictures = [shape for shape in shapes if shape.shape_type == MSO_SHAPE_TYPE.PICTURE]
    assert len(pictures) == 1 and pictures[0].top > shapes.title.top


@pytest.mark.parametrize(("arguments", "words"), [
    (("--layers", "0-2"), "--layers: this document has layers 1 to 3, got 0-2"),
    (("--layers", "x"), "--layers: expected layers A-B"),
    (("--receiver", "9"), "--receiver 9: this document has positions 0 to 2"),
    (("--format", "gif"), "--view model writes png, svg, pdf, pptx, not gif"),
])
def test_a_bad_option_is_refused_in_one_line_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: tuple[str, ...],
        words: str) -> None:
    chosen = ("--format", "png") if "--format" not in arguments else ()
    status, out, err = export(capsys, *chosen, *arguments, "--out", str(tmp_path / "m.png"))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_layers_without_the_model_view_is_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["export", "three-layers", "--format", "png", "--layers", "1",
                   "--out", str(tmp_path)])
    assert status == 2 and "--layers needs --view model" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
