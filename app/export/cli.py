"""``qkv-studio export FILE --format …``: the exporters from the command line, always headless.

Qt is imported only when an export runs, after ``QT_QPA_PLATFORM`` is set to ``offscreen``.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.checkpoint_options import load_document
from app.export.settings import (
    DEFAULT_DWELL,
    EXPORT_THEMES,
    FORMATS,
    OPTION_NAMES,
    ExportRequest,
    document_name,
    number_problem,
    parse_head,
    parse_receiver,
    parse_steps,
)
from app.model.examples import opening_receiver, resolve_document
from app.model.sheet import ASPECTS, DEFAULT_ASPECT
from app.texts import LANGUAGES
from engine.format.numbers import DECIMAL_CHOICES

if TYPE_CHECKING:
    from app.canvas import FrameOptions
    from app.export.job import Progress
    from app.export.run_pages import Page
    from engine import Scenario, Trace

EXIT_FAILED = 1
EXIT_REFUSED = 2


def add_export_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the export options to ``parser`` and set ``run`` to :func:`run_export_command`."""
    parser.description = ("Export frames as images, a PDF, an animation or slides. PNG and SVG "
                          "write one file per step into a folder, or one step into the file "
                          "--out names; the others write one file.")
    parser.add_argument("--format", required=True, choices=list(FORMATS),
                        help="what to write")
    parser.add_argument("--steps", "--step", metavar="all|N|N-M|ID",
                        help="which steps, counted from 1, or a step id (L2.scores) or a layer "
                             "(L2) (default: all); with --run --token T, of that token's steps")
    parser.add_argument("--run", action="store_true", dest="generation_run",
                        help="a document with a generation run: the draw of every token in "
                             "order, one frame per token (gif, mp4, pdf, pptx), or with --token "
                             "T that token's steps")
    parser.add_argument("--token", metavar="T",
                        help="with --run: token T of the run (counted from 1), its steps as the "
                             "document that drew it computes them")
    parser.add_argument("--out", metavar="PATH",
                        help="for png/svg the folder (default: the current folder), or with one "
                             "step the file (--steps 10 --out g01.png; a .png/.svg name with "
                             "several steps is refused); otherwise the file (default: "
                             "NAME.FORMAT in the current folder)")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--width", metavar="PX",
                      help="width in pixels of every picture (png, gif, mp4, pptx pictures), "
                           "svg and pdf page (at 96 px to the inch); the height follows "
                           "--aspect; both rounded to even (default: 1920 × 1080)")
    size.add_argument("--scale", type=float, metavar="S",
                      help="pixels per canvas unit of the 1920 × 1080 sheet (1440 × 1080 for "
                           "4:3): 2 gives 3840 × 2160")
    parser.add_argument("--aspect", choices=list(ASPECTS), default=DEFAULT_ASPECT,
                        help=f"shape of every picture, page and slide (default: "
                             f"{DEFAULT_ASPECT})")
    parser.add_argument("--pptx-pictures", action="store_true",
                        help="pptx: each slide one picture of the frame, instead of editable "
                             "tables, connectors and text boxes")
    parser.add_argument("--transparent", action="store_true",
                        help="no background (png, svg, pdf, pptx; gif and mp4 stay opaque)")
    parser.add_argument("--dwell", type=float, default=DEFAULT_DWELL, metavar="SECONDS",
                        help=f"seconds per step in gif/mp4 (default: {DEFAULT_DWELL:g})")
    parser.add_argument("--caption", action="store_true",
                        help="print the step's one-sentence summary under each frame")
    parser.add_argument("--theme", choices=EXPORT_THEMES, default=EXPORT_THEMES[0],
                        help="slide (default) or high-contrast; both light")
    parser.add_argument("--decimals", metavar="N",
                        help="decimals the numbers print: "
                             f"{', '.join(map(str, DECIMAL_CHOICES))} (default: the document's "
                             "display.decimals, else 3, or 6 for a small decoder block)")
    parser.add_argument("--receiver", metavar="TOKEN|N",
                        help="the query in focus: a token, or its position counted from 0 as "
                             "the window's Receiver list (default: the example's opening "
                             "receiver, else the last token)")
    parser.add_argument("--head", default="all", metavar="N|all",
                        help="one head, counted from 1, or all heads side by side (default: "
                             "all; an attention of more than 8 heads draws head 1)")
    parser.add_argument("--worked-row", choices=("on", "off"),
                        help="the receiver's worked arithmetic at the scores, shares and mix "
                             "steps (default: on for at most 4 positions, as the window)")
    parser.add_argument("--view", choices=("frames", "model", "lens"), default="frames",
                        help="frames: the steps (default); model: one picture of every layer × "
                             "head's shares and their sinks; lens: the logit lens, each layer's "
                             "most probable token at each position (model and lens: png, svg, "
                             "pdf or pptx; --out the file)")
    parser.add_argument("--layers", metavar="A-B",
                        help="with --view model: the layers shown, counted from 1 (default: "
                             "all)")
    parser.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0],
                        help="language of step titles, captions and speaker notes")
    parser.set_defaults(run=run_export_command)


def _fail(message: str, status: int = EXIT_REFUSED) -> int:
    print(f"qkv-studio: {message}", file=sys.stderr)
    return status


def _destination(args: argparse.Namespace, name: str, steps: int) -> tuple[Path, str | None]:
    """Where the export goes, and for a per-step format sent to one file its name: ``--out
    g01.png`` with one step writes g01.png; with several it is refused (``ValueError``), as a
    folder named g01.png would surprise."""
    spec = FORMATS[args.format]
    out = Path(args.out) if args.out is not None else None
    if out is None:
        return (Path.cwd(), None) if spec.per_step else (Path.cwd() / f"{name}{spec.suffix}", None)
    folder = out.is_dir() or args.out.endswith(("/", os.sep))  # "dir/": a folder, made if new
    if not spec.per_step:
        return (out / f"{name}{spec.suffix}" if folder else out), None
    if folder or out.suffix.lower() != spec.suffix:
        return out, None
    if steps != 1:
        raise ValueError(f"--out {args.out} names one file, but {steps} steps are exported: "
                         f"give one step (--steps N) or a folder (--out {out.stem}/)")
    return out.parent, out.name


def run_export_command(args: argparse.Namespace) -> int:
    """Run ``qkv-studio export``; print one line per written file; return the exit status.

    Returns 2 for a refused document or bad arguments (nothing written), 1 when a file cannot be
    written (nothing left behind), 0 on success.
    """
    from engine import ScenarioError, compute

    try:
        _read_whole_options(args)
    except ScenarioError as error:
        return _fail(str(error))
    problem = number_problem(args.width, args.scale, args.dwell, OPTION_NAMES)
    if problem is not None:
        return _fail(problem)

    document = resolve_document(args.file)
    try:
        trace = compute(load_document(document, args))
    except ScenarioError as error:
        return _fail(str(error))
    if args.view != "frames" or args.layers is not None:
        return _export_picture(args, trace, document)
    try:
        trace, steps, pages = _selection(args, trace)
        view = _view(args, trace.scenario if pages is None else pages[0].trace.scenario,
                     document)
    except ValueError as error:
        return _fail(str(error))
    name = document_name(document)
    try:
        destination, single_file = _destination(args, name, len(steps))
    except ValueError as error:
        return _fail(str(error))
    from engine.files.outputs import current

    # Before any frame is drawn: the file (or folder) named is not the document or its sidecar;
    # a folder's per-step files are checked again before the first is moved in.
    current().refuse_outputs([destination / single_file if single_file is not None
                              else destination])
    request = ExportRequest(format=args.format, steps=steps, destination=destination,
                            single_file=single_file, name=name, width=args.width,
                            scale=args.scale, transparent=args.transparent, caption=args.caption,
                            lang=args.lang, dwell=args.dwell, theme=args.theme,
                            aspect=args.aspect, pptx_pictures=args.pptx_pictures,
                            decimals=args.decimals)
    if args.transparent and args.format in ("gif", "mp4"):
        print(f"qkv-studio: --transparent is ignored for {args.format}", file=sys.stderr)
    if args.pptx_pictures and args.format != "pptx":
        print(f"qkv-studio: --pptx-pictures is ignored for {args.format}", file=sys.stderr)
    headless_application()
    from app.export.job import run_export
    from app.export.safe import ExportError, ExportRefusedError

    progress = _terminal_progress()
    try:
        written = run_export(trace, request, _frame_options(view, trace.scenario.n),
                             progress=progress, pages=pages)
    except ExportRefusedError as error:
        return _fail(str(error))
    except ExportError as error:
        return _fail(str(error), EXIT_FAILED)
    finally:
        if progress is not None:
            print(file=sys.stderr)  # the progress line ends before anything else is said
    for path in written:
        print(path)
    if single_file is not None and [path.name for path in written] != [single_file]:
        print(f"qkv-studio: step {steps[0] + 1} is too small for a projector in one picture, so "
              f"it is split over {len(written)} files (as F5 splits it over slides): "
              f"{', '.join(path.name for path in written)}, in place of {single_file}",
              file=sys.stderr)
    return 0


def _export_picture(args: argparse.Namespace, trace: Trace, document: Path) -> int:
    """``--view model`` (every layer × head's shares) or ``--view lens`` (the logit lens) in one
    file; 2 for a refused option or document."""
    from app.export.picture_export import PICTURE_FORMATS
    from app.texts.problems import problem_words
    from engine import ScenarioError
    from engine.analysis.sinks import layer_shares, parse_layers

    if args.layers is not None and args.view != "model":
        return _fail("--layers needs --view model")
    if args.format not in PICTURE_FORMATS:
        return _fail(f"--view {args.view} writes {', '.join(PICTURE_FORMATS)}, not {args.format}")
    attentions = len(layer_shares(trace))
    if args.view == "model" and attentions == 0:
        return _fail("--view model: this document has no attention")
    try:
        layers = parse_layers(args.layers, attentions) if args.view == "model" else None
        view = _view(args, trace.scenario, document)
    except (ScenarioError, ValueError) as error:
        return _fail(str(error))
    spec = FORMATS[args.format]
    name = f"{document_name(document)}-{args.view}{spec.suffix}"
    out = Path(args.out) if args.out is not None else Path.cwd() / name
    if out.is_dir() or str(args.out or "").endswith(("/", os.sep)):
        out = out / name
    from engine.files.outputs import current

    current().refuse_outputs([out])
    headless_application()
    from PySide6.QtCore import QSize

    from app.canvas import THEMES
    from app.canvas.lens_view import LensItem, LensOptions
    from app.canvas.model_view import ModelViewItem, ModelViewOptions
    from app.export.picture_export import picture_frame, write_picture
    from app.export.safe import ExportError
    from app.export.settings import export_size

    theme = THEMES[args.theme]
    try:
        item: ModelViewItem | LensItem = (
            ModelViewItem(trace, ModelViewOptions(receiver=view.receiver, layers=layers,
                                                  lang=args.lang, theme=theme))
            if args.view == "model"
            else LensItem(trace, LensOptions(receiver=view.receiver, lang=args.lang,
                                             theme=theme)))
    except ScenarioError as error:  # the lens of a document without a vocabulary head
        return _fail(problem_words(error, args.lang))
    frame = picture_frame(item, item.title(), theme, transparent=args.transparent)
    size = QSize(*export_size(args.aspect, width=args.width, scale=args.scale))
    try:
        written = write_picture(frame, theme, args.format, out, size, aspect=args.aspect,
                                transparent=args.transparent)
    except ExportError as error:
        return _fail(str(error), EXIT_FAILED)
    print(written)
    return 0


def _read_whole_options(args: argparse.Namespace) -> None:
    """Read ``--width``, ``--token`` and ``--decimals`` as whole numbers in their ranges.

    Raises
    ------
    ScenarioError
        Naming the option (:func:`engine.format.whole_text.read_whole`), or ``--decimals`` not one
        of :data:`~engine.format.numbers.DECIMAL_CHOICES`.
    """
    from engine import ScenarioError
    from engine.format.whole_text import option_whole
    from engine.words.refusals import Refusal

    # the range of each is said in words of its own: number_problem, _selection
    args.width = option_whole(args.width, "--width")
    args.token = option_whole(args.token, "--token")
    args.decimals = option_whole(args.decimals, "--decimals", 0, max(DECIMAL_CHOICES))
    if args.decimals is not None and args.decimals not in DECIMAL_CHOICES:
        raise ScenarioError("--decimals", Refusal(
            "not_choice", options=", ".join(map(str, DECIMAL_CHOICES)), got=args.decimals))


def _terminal_progress() -> Progress | None:
    """Progress on standard error while it is a terminal (``exported 3 of 12 steps``, on one
    line rewritten), so a long export is seen moving; none otherwise (a script reads one line
    per written file and no other output)."""
    if not sys.stderr.isatty():
        return None

    def said(done: int, total: int) -> bool:
        print(f"\rqkv-studio: exported {done} of {total} steps", end="", file=sys.stderr,
              flush=True)
        return True

    return said


def _selection(args: argparse.Namespace,
               trace: Trace) -> tuple[Trace, tuple[int, ...], tuple[Page, ...] | None]:
    """The trace and steps to export, and for ``--run`` the pages of the run (whole, or token
    ``--token``'s steps); ``ValueError`` with one line for a choice the document refuses."""
    from app.export.run_pages import run_selection
    from app.model.run import run_tokens

    text = "all" if args.steps is None else args.steps
    if args.token is not None and not args.generation_run:
        raise ValueError("--token needs --run (--run --token T: token T's steps)")
    if not args.generation_run:
        return trace, parse_steps(text, len(trace.steps), [s.id for s in trace.steps]), None
    scenario = trace.scenario
    count = len(run_tokens(scenario))
    if count == 0:
        raise ValueError(f"--run: {args.file} has no generation run (generate tokens first: "
                         f"Generate next, or qkv-studio generate --out)")
    if args.token is None:
        if args.steps is not None:
            raise ValueError("--run exports the draw of every token; for one token's steps "
                             "give --token T with --steps")
        if FORMATS[args.format].per_step:
            raise ValueError(f"--run writes one file for the whole run (gif, mp4, pdf or "
                             f"pptx), not {args.format}; or give --token T")
    elif not 1 <= args.token <= count:
        raise ValueError(f"--token {args.token}: the run has tokens 1 to {count}")
    chosen = run_selection(scenario, args.token, lambda token: parse_steps(
        text, len(token.steps), [s.id for s in token.steps]))
    return chosen.trace, chosen.steps, chosen.pages


@dataclass(frozen=True)
class _View:
    """What the frames show that the window chooses: ``None`` follows the window's default."""

    receiver: int | None
    head: int | None
    worked_row: bool | None


def _view(args: argparse.Namespace, scenario: Scenario, document: Path) -> _View:
    """The receiver, head and worked row asked for (the opening receiver of an example when
    none is); ``ValueError`` with one line for a choice the document does not have."""
    receiver = args.receiver if args.receiver is not None else opening_receiver(document)
    return _View(None if receiver is None else parse_receiver(receiver, scenario.tokens),
                 parse_head(args.head, scenario.most_heads),
                 None if args.worked_row is None else args.worked_row == "on")


def _frame_options(view: _View, positions: int) -> FrameOptions:
    """The frame options of ``view``; the worked row by default as the window shows it."""
    from app.canvas import FrameOptions
    from app.canvas.worked_row import WORKED_ROW_POSITIONS

    worked_row = positions <= WORKED_ROW_POSITIONS if view.worked_row is None else view.worked_row
    return FrameOptions(receiver=view.receiver, head=view.head, worked_row=worked_row)


def headless_application() -> None:
    """Make sure a ``QApplication`` exists; one made here always uses the offscreen platform."""
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        _KEEP.append(QApplication(["qkv-studio"]))


_KEEP: list[object] = []
"""Holds the application made for an export for the rest of the process."""
