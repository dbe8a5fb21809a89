"""What an export asks for: steps, names and sizes (no Qt needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.export.settings import (
    FORMATS,
    ExportRequest,
    document_name,
    export_size,
    parse_steps,
    slug,
    step_file_name,
)


@pytest.mark.parametrize(("text", "expected"), [
    ("all", (0, 1, 2, 3, 4)), ("ALL", (0, 1, 2, 3, 4)), ("1", (0,)), ("5", (4,)),
    ("2-3", (1, 2)), (" 2 - 4 ", (1, 2, 3)), ("3-3", (2,)),
])
def test_steps_are_one_based_and_inclusive(text: str, expected: tuple[int, ...]) -> None:
    assert parse_steps(text, 5) == expected


@pytest.mark.parametrize(("text", "message"), [
    ("0", "steps 1 to 5"), ("6", "steps 1 to 5"), ("2-9", "steps 1 to 5"),
    ("4-2", "comes after"), ("two", "all, N or N-M"), ("1,2", "all, N or N-M"), ("", "N-M"),
])
def test_bad_steps_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_steps(text, 5)


def test_step_files_are_numbered_from_one_with_two_digits_or_more() -> None:
    assert step_file_name("f11", 0, 5, "png") == "f11-step01.png"
    assert step_file_name("g01", 11, 12, "svg") == "g01-step12.svg"
    assert step_file_name("big", 4, 120, "png") == "big-step005.png"


def test_document_names_drop_the_document_suffix() -> None:
    assert document_name(Path("resources/examples/f11.qkv.json")) == "f11"
    assert document_name("lesson 3.json") == "lesson 3"
    assert document_name("notes.txt") == "notes"
    assert slug("F11 · Q/K/V on two positions") == "F11-Q-K-V-on-two-positions"
    assert slug("···") == "frame"


def test_every_format_has_its_suffix_and_kind() -> None:
    assert list(FORMATS) == ["png", "svg", "pdf", "gif", "mp4", "pptx"]
    assert [f.key for f in FORMATS.values() if f.per_step] == ["png", "svg"]
    assert FORMATS["pptx"].suffix == ".pptx"


def test_request_refuses_impossible_sizes() -> None:
    base = {"format": "png", "steps": (0,), "destination": Path(".")}
    with pytest.raises(ValueError, match="positive number of pixels, got 0"):
        ExportRequest(**base, width=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="scale must be a positive finite number"):
        ExportRequest(**base, scale=-1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not both"):
        ExportRequest(**base, width=100, scale=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dwell"):
        ExportRequest(**base, dwell=0.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown format 'bmp'"):
        ExportRequest(format="bmp", steps=(0,), destination=Path("."))
    with pytest.raises(ValueError, match="no step"):
        ExportRequest(format="png", steps=(), destination=Path("."))


def test_every_picture_of_an_export_has_one_even_size() -> None:
    def size(**settings: object) -> tuple[int, int]:
        return ExportRequest(format="gif", steps=(0,), destination=Path("x.gif"),
                             **settings).pixel_size()  # type: ignore[arg-type]

    assert size() == (1920, 1080)
    assert size(width=1280) == (1280, 720)
    assert size(width=1001) == (1000, 562), "even, the height 1000 × 9 / 16 = 562.5 made even"
    assert size(scale=2.0) == (3840, 2160)
    assert size(aspect="4:3") == (1440, 1080)
    assert size(aspect="4:3", width=1024) == (1024, 768)
    assert export_size() == (1920, 1080)
    with pytest.raises(ValueError, match="unknown aspect '3:2'"):
        size(aspect="3:2")
