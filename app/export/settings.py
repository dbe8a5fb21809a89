"""What an export is asked for: formats, steps, size and where the files go (no Qt)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from app.model.sheet import ASPECTS, DEFAULT_ASPECT, sheet_size
from engine.format.numbers import DECIMAL_CHOICES
from engine.format.whole_text import read_whole

CSS_DPI = 96.0
"""Scene units are CSS pixels: a frame drawn at scale 1 is a 96-dpi picture."""

DEFAULT_DWELL = 2.0
MAX_DWELL = 600.0
"""Seconds a step may stay in an animation: GIF stores a frame's time in at most 655.35 s."""
"""Seconds each step stays on screen in a GIF or MP4."""

def _even(value: float | Fraction) -> int:
    """The nearest even whole number, at least 2 (H.264 video needs even sizes); exact for any
    size, however large (a size too large to draw is refused later, in words)."""
    return max(2, 2 * round(Fraction(value) / 2))


def _scaled(length: float, factor: float) -> float | Fraction:
    """``length × factor``, exactly when the float product overflows (a scale of 1e306)."""
    product = length * factor
    return product if math.isfinite(product) else Fraction(length) * Fraction(factor)


def export_size(aspect: str = DEFAULT_ASPECT, *, width: int | None = None,
                scale: float | None = None) -> tuple[int, int]:
    """The pixel size of every picture of an export: ``width`` wide, or the sheet at ``scale``
    (by default at scale 1: 1920 × 1080 for 16:9), the height following the aspect, both even."""
    sheet_width, sheet_height = sheet_size(aspect)
    if width is None:
        factor = 1.0 if scale is None else scale
        return _even(_scaled(sheet_width, factor)), _even(_scaled(sheet_height, factor))
    wide = _even(width)
    return wide, _even(Fraction(wide) * Fraction(sheet_height) / Fraction(sheet_width))


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
    """

    key: str
    label: str
    per_step: bool

    @property
    def suffix(self) -> str:
        return f".{self.key}"


FORMATS: dict[str, Format] = {f.key: f for f in (
    Format("png", "PNG images (one per step)", per_step=True),
    Format("svg", "SVG vector images (one per step)", per_step=True),
    Format("pdf", "PDF document (one page per step)", per_step=False),
    Format("gif", "Animated GIF", per_step=False),
    Format("mp4", "MP4 video (H.264)", per_step=False),
    Format("pptx", "PowerPoint slides", per_step=False),
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
    single_file
        For a PNG or SVG export of one step: the name of the one file written in
        ``destination`` (``--out g01.png``), instead of ``<name>-step10.png``.
    width, scale
        The picture's width in pixels, or pixels per scene unit of the sheet; at most one is set.
        Every picture of an export has one size (:meth:`pixel_size`): by default 1920 × 1080.
        SVG takes it as its width and height, PDF as its page size at 96 pixels to the inch.
    aspect
        A key of :data:`ASPECTS`: the shape of every picture, page and slide's sheet.
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
    pptx_pictures
        PowerPoint slides as one picture each, rather than editable tables, connectors and text.
    decimals
        Decimals the frames print (one of :data:`engine.format.numbers.DECIMAL_CHOICES`); ``None``
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
    aspect: str = DEFAULT_ASPECT
    pptx_pictures: bool = False
    decimals: int | None = None
    single_file: str | None = None

    def step_file(self, step: int, count: int, part: int | None = None) -> str:
        """The name step ``step`` (of ``count``) is written under in ``destination``;
        ``part``: its part of a step split over several pages (``-1``, ``-2`` … after it)."""
        name = self.single_file or step_file_name(self.name, step, count, self.format)
        if part is None:
            return name
        stem, dot, suffix = name.rpartition(".")
        return f"{stem}-{part + 1}{dot}{suffix}" if dot else f"{name}-{part + 1}"

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
        if self.aspect not in ASPECTS:
            raise ValueError(f"unknown aspect {self.aspect!r}; expected one of "
                             f"{', '.join(ASPECTS)}")

    @property
    def spec(self) -> Format:
        return FORMATS[self.format]

    def pixel_size(self) -> tuple[int, int]:
        """Width and height in pixels of every picture this export draws."""
        return export_size(self.aspect, width=self.width, scale=self.scale)


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
    if scale is not None and not 0 < scale < math.inf:
        return f"{names.scale} must be a positive finite number, got {scale:g}"
    if width is not None and scale is not None:
        return f"give {names.width} or {names.scale}, not both"
    if not 0 < dwell <= MAX_DWELL:
        return (f"{names.dwell} must be more than 0 and at most {MAX_DWELL:g} seconds, got "
                f"{dwell:g}")
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


def parse_steps(text: str, count: int, ids: Sequence[str] = ()) -> tuple[int, ...]:
    """Steps from ``all``, ``N`` or ``N-M`` (1-based, inclusive) as 0-based indices; with the
    trace's step ``ids`` also a step id (``L2.scores``), ``ID-ID``, or a layer (``L2``,
    ``enc.L1``: every step of it).

    Raises
    ------
    ValueError
        With a message a user can act on, for a malformed text or a step out of 1…count.
    """
    cleaned = text.strip().lower()
    if cleaned == "all":
        return tuple(range(count))
    by_id = _steps_by_id(text.strip(), list(ids))
    if by_id is not None:
        return by_id
    match = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", cleaned, re.ASCII)
    if match is None:
        named = ", a step id such as L2.scores or a layer such as L2" if ids else ""
        raise ValueError(f"--steps expects all, N or N-M{named}, got {text!r}")
    first = read_whole(match.group(1), "--steps")
    last = read_whole(match.group(2), "--steps") if match.group(2) else first
    if first > last:
        raise ValueError(f"--steps {text}: the first step comes after the last")
    if first < 1 or last > count:
        raise ValueError(f"--steps {text}: this document has steps 1 to {count}")
    return tuple(range(first - 1, last))


def _steps_by_id(text: str, ids: list[str]) -> tuple[int, ...] | None:
    """The steps ``text`` names by id (``L2.scores``, ``L1.norm1-L1.mix``) or by layer (``L2``);
    None when it names none."""
    if text in ids:
        return (ids.index(text),)
    ends = [part.strip() for part in text.split("-")]
    if len(ends) == 2 and all(end in ids for end in ends):
        first, last = ids.index(ends[0]), ids.index(ends[1])
        if first > last:
            raise ValueError(f"--steps {text}: the first step comes after the last")
        return tuple(range(first, last + 1))
    layer = tuple(k for k, name in enumerate(ids) if name.startswith(text + "."))
    return layer or None


def parse_receiver(text: str, tokens: Sequence[str]) -> int:
    """The query row ``--receiver`` names: a token (where it stands, if it stands once) or a
    position ``N`` counted from 0, as the window's Receiver list numbers them (``3: B``).

    Raises
    ------
    ValueError
        One line naming the option and the problem: a token that stands twice, no such token,
        a position out of 0…n−1.
    """
    exact = [k for k, token in enumerate(tokens) if token == text]  # " " is a token too
    wanted = text if exact else text.strip()
    places = exact or [k for k, token in enumerate(tokens) if token == wanted]
    if len(places) == 1:
        return places[0]
    if places:
        problem = (f"{wanted!r} stands at positions {' and '.join(map(str, places))}; give "
                   f"one of those numbers")
    elif wanted.isdigit() and read_whole(wanted, "--receiver") < len(tokens):
        return int(wanted)
    elif wanted.isdigit():
        problem = f"this document has positions 0 to {len(tokens) - 1}"
    else:
        shown = ", ".join(f"{k}: {_readable(token)}"
                          for k, token in enumerate(tokens[:TOKENS_SHOWN]))
        more = ", …" if len(tokens) > TOKENS_SHOWN else ""
        problem = f"no token is {wanted!r}; give a token or a position ({shown}{more})"
    raise ValueError(f"--receiver {_readable(text)}: {problem}")


TOKENS_SHOWN = 8
"""Tokens a refused ``--receiver`` lists (a long document's list ends ``…``)."""


def _readable(token: str) -> str:
    """A token as a refusal lists it: quoted when it is empty or starts or ends with a space
    (``' '``, ``' cat'``), which would not read otherwise."""
    return token if token and token.strip() == token else repr(token)


def parse_head(text: str, heads: int) -> int | None:
    """The head ``--head`` names: ``all`` (``None``) or ``N`` counted from 1, as the window's
    Head list says ("Head 1"), up to the most heads any attention of the document has.

    Raises
    ------
    ValueError
        One line naming the option and the problem.
    """
    cleaned = text.strip().lower()
    if cleaned == "all":
        return None
    count = f"{heads} head" if heads == 1 else f"heads 1 to {heads}"
    if not cleaned.isdigit():
        raise ValueError(f"--head expects all or a head number ({count}), got {text!r}")
    if not 1 <= read_whole(cleaned, "--head") <= heads:
        raise ValueError(f"--head {text}: this document has {count}")
    return int(cleaned) - 1
