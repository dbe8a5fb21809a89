"""What an export is asked for: formats, steps, size and where the files go (no Qt)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.numbers import DECIMAL_CHOICES

CSS_DPI = 96.0
"""Scene units are CSS pixels: a frame drawn at scale 1 is a 96-dpi picture."""

DEFAULT_DWELL = 2.0
"""Seconds each step stays on screen in a GIF or MP4."""


@dataclass(frozen=True)
class Format:
    """One export format.

    Attributes
    ----------
    key
        The name used on the command line and in settings (``"png"``).
    label
        What the export dialog shows.
    per_step
        One file per step in a folder (PNG, SVG) rather than one file for all steps.
    default_scale
        Pixels per scene unit when neither a width nor a scale is asked for (raster formats).
    """

    key: str
    label: str
    per_step: bool
    default_scale: float = 1.0

    @property
    def suffix(self) -> str:
        return f".{self.key}"


FORMATS: dict[str, Format] = {f.key: f for f in (
    Format("png", "PNG images (one per step)", per_step=True, default_scale=2.0),
    Format("svg", "SVG vector images (one per step)", per_step=True),
    Format("pdf", "PDF document (one page per step)", per_step=False),
    Format("gif", "Animated GIF", per_step=False),
    Format("mp4", "MP4 video (H.264)", per_step=False),
    Format("pptx", "PowerPoint slides (16:9)", per_step=False, default_scale=2.0),
)}


EXPORT_THEMES = ("slide", "high-contrast")
"""Themes an export may use, by name in :data:`app.canvas.THEMES`; both are light."""


@dataclass(frozen=True)
class ExportRequest:
    """Everything an export needs besides the trace and the view options.

    Attributes
    ----------
    format
        A key of :data:`FORMATS`.
    steps
        0-based step indices, in the order they are exported.
    destination
        A folder for per-step formats, a file path otherwise.
    name
        The stem of per-step file names: ``<name>-step01.png``.
    width, scale
        The picture's width in pixels, or pixels per scene unit; at most one is set. With neither,
        the format's default scale applies. A PNG width is each file's width; GIF, MP4 and
        PowerPoint apply it to the widest step, so every step is drawn at one scale.
    transparent
        Leave the background unpainted (PNG, SVG, PDF, PowerPoint, clipboard).
    caption
        Print the step's one-sentence summary under the frame.
    lang
        Language of the step titles, captions and speaker notes.
    dwell
        Seconds each step is shown in a GIF or MP4.
    theme
        A key of :data:`EXPORT_THEMES`: the light slide theme, or high contrast for print and
        projectors that wash colours out. A dark theme is never exported.
    decimals
        Decimals the frames print (one of :data:`engine.numbers.DECIMAL_CHOICES`); ``None``
        follows the document's ``display.decimals``.
    """

    format: str
    steps: tuple[int, ...]
    destination: Path
    name: str = "frame"
    width: int | None = None
    scale: float | None = None
    transparent: bool = False
    caption: bool = False
    lang: str = "en"
    dwell: float = DEFAULT_DWELL
    theme: str = "slide"
    decimals: int | None = None

    def __post_init__(self) -> None:
        if self.decimals is not None and self.decimals not in DECIMAL_CHOICES:
            raise ValueError(f"--decimals must be one of "
                             f"{', '.join(map(str, DECIMAL_CHOICES))}, got {self.decimals}")
        if self.theme not in EXPORT_THEMES:
            raise ValueError(f"unknown theme {self.theme!r}; expected one of "
                             f"{', '.join(EXPORT_THEMES)}")
        if self.format not in FORMATS:
            raise ValueError(f"unknown format {self.format!r}; expected one of "
                             f"{', '.join(FORMATS)}")
        if not self.steps:
            raise ValueError("no step to export")
        problem = number_problem(self.width, self.scale, self.dwell)
        if problem is not None:
            raise ValueError(problem)

    @property
    def spec(self) -> Format:
        return FORMATS[self.format]

    def scale_for(self, frame_width: float) -> float:
        """Pixels per scene unit for a picture ``frame_width`` scene units wide."""
        if self.width is not None:
            return self.width / frame_width
        return self.scale if self.scale is not None else self.spec.default_scale


@dataclass(frozen=True)
class NumberNames:
    """How a message names the export's numbers: in prose, or as command-line options."""

    width: str = "the width"
    scale: str = "the scale"
    dwell: str = "the dwell time"


OPTION_NAMES = NumberNames(width="--width", scale="--scale", dwell="--dwell")
"""The numbers named as ``qkv-studio export`` options."""


def number_problem(width: int | None, scale: float | None, dwell: float,
                   names: NumberNames = NumberNames()) -> str | None:
    """What is wrong with an export's width, scale and dwell time, or ``None`` when nothing is.

    The one check behind both :class:`ExportRequest` and the command line.
    """
    if width is not None and width <= 0:
        return f"{names.width} must be a positive number of pixels, got {width}"
    if scale is not None and not scale > 0:
        return f"{names.scale} must be positive, got {scale:g}"
    if width is not None and scale is not None:
        return f"give {names.width} or {names.scale}, not both"
    if not dwell > 0:
        return f"{names.dwell} must be a positive number of seconds, got {dwell:g}"
    return None


def step_file_name(name: str, step: int, count: int, fmt: str) -> str:
    """``<name>-step01.png`` for step 0: 1-based, zero-padded to at least two digits."""
    digits = max(2, len(str(count)))
    return f"{name}-step{step + 1:0{digits}d}.{fmt}"


def document_name(path: str | Path) -> str:
    """The stem of a document's file name without ``.qkv.json`` / ``.json`` (``f11``)."""
    name = Path(path).name
    for suffix in (".qkv.json", ".json", ".qkv"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] or "frame"
    return Path(name).stem or "frame"


def slug(text: str) -> str:
    """A file-name-safe stem made from a title (``"F11 · Q/K/V"`` → ``"F11-Q-K-V"``)."""
    cleaned = re.sub(r"[^\w]+", "-", text, flags=re.UNICODE).strip("-")
    return cleaned[:60] or "frame"


def parse_steps(text: str, count: int) -> tuple[int, ...]:
    """Steps from ``all``, ``N`` or ``N-M`` (1-based, inclusive) as 0-based indices.

    Raises
    ------
    ValueError
        With a message a user can act on, for a malformed text or a step out of 1…count.
    """
    cleaned = text.strip().lower()
    if cleaned == "all":
        return tuple(range(count))
    match = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", cleaned)
    if match is None:
        raise ValueError(f"--steps expects all, N or N-M, got {text!r}")
    first = int(match.group(1))
    last = int(match.group(2)) if match.group(2) is not None else first
    if first > last:
        raise ValueError(f"--steps {text}: the first step comes after the last")
    if first < 1 or last > count:
        raise ValueError(f"--steps {text}: this document has steps 1 to {count}")
    return tuple(range(first - 1, last))
