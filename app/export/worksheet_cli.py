"""``qkv-studio worksheet FILE --out sheet.pdf``: a document's exercises printed as an A4
worksheet, with an answer key and an editable deck on request; always headless.

Qt is imported only when the pages are drawn, after ``QT_QPA_PLATFORM`` is set to ``offscreen``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.checkpoint_options import load_document
from app.model.examples import resolve_document
from app.texts import LANGUAGES
from app.texts.problems import problem_words
from engine.exercises.hand import MAX_VARIANTS, check_variant_count
from engine.format.errors import ScenarioError
from engine.format.whole_text import option_whole, read_whole

EXIT_FAILED = 1
EXIT_REFUSED = 2
MAX_SEED = 2**63 - 1


def add_worksheet_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the worksheet options to ``parser`` and set ``run`` to :func:`run_worksheet`."""
    parser.description = ("Print a document's exercises as an A4 worksheet: the frames with the "
                          "hidden cells left blank, room to write and how to check; with "
                          "--answers its answer key, every hidden value with its arithmetic.")
    parser.add_argument("--exercise", default="all", metavar="N|all",
                        help="one exercise, counted from 1, or all (default: all)")
    parser.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0],
                        help="language of the sheet, the key and the frames (default: en)")
    parser.add_argument("--variants", default=None, metavar="K",
                        help=f"K sheets (1 to {MAX_VARIANTS}) with other, hand-friendly "
                             "numbers: whole numbers and halves chosen so the shares still "
                             "differ; each sheet and key prints its variant number (default: "
                             "the document's own numbers)")
    parser.add_argument("--seed", default=None, metavar="S",
                        help="with --variants: the same seed draws the same variants "
                             "(default: 0)")
    parser.add_argument("--out", required=True, metavar="SHEET.pdf", help="the worksheet")
    parser.add_argument("--answers", metavar="KEY.pdf", help="also write the answer key")
    parser.add_argument("--pptx", metavar="SHEET.pptx",
                        help="also write the worksheet as editable slides (blanks are empty "
                             "table cells)")
    parser.set_defaults(run=run_worksheet)


def _fail(message: str, status: int = EXIT_REFUSED) -> int:
    print(f"qkv-studio: {message}", file=sys.stderr)
    return status


def _refused(error: ValueError, lang: str) -> int:
    """A refused document, exercise or option, in the sheet's language where it has words."""
    if isinstance(error, ScenarioError):
        return _fail(problem_words(error, lang))
    return _fail(str(error))


def _variants(args: argparse.Namespace) -> int:
    """The number of variants asked (0: the document's own numbers).

    Raises
    ------
    ScenarioError
        At ``--variants`` when anything but a number from 1 to :data:`MAX_VARIANTS` is given
        (:func:`engine.format.whole_text.read_whole`).
    """
    if args.variants is None:
        return 0
    count = read_whole(args.variants, "--variants")
    check_variant_count(count, "--variants")
    return count


def _option_problem(args: argparse.Namespace) -> str | None:
    if args.seed is not None and not args.variants:
        return "--seed chooses the variants' numbers: give --variants K too"
    if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
        return f"--seed must be a whole number from 0 to {MAX_SEED}, got {args.seed}"
    return None


def run_worksheet(args: argparse.Namespace) -> int:
    """Run ``qkv-studio worksheet``; print one line per written file; return the exit status:
    2 for a refused document or option (nothing written), 1 when a file cannot be written (nothing
    left behind), 0 on success."""
    try:
        variants = _variants(args)
        args.seed = option_whole(args.seed, "--seed")
    except ScenarioError as error:
        return _refused(error, args.lang)
    problem = _option_problem(args)
    if problem is not None:
        return _fail(problem)
    from app.export.worksheet_plan import choose_exercises, plan_sheets
    from engine.files.outputs import current

    try:
        scenario = load_document(resolve_document(args.file), args)
        # Before anything is drawn: no output is the document, its sidecar or another output.
        current().refuse_outputs([args.out, args.answers, args.pptx])
        chosen = choose_exercises(scenario, args.exercise)
        sheets = plan_sheets(scenario, chosen, args.lang, variants, args.seed or 0)
    except ValueError as error:  # a refused document (ScenarioError) or exercise
        return _refused(error, args.lang)
    from app.export.cli import headless_application

    headless_application()
    from app.export.safe import ExportError, ExportRefusedError
    from app.export.worksheet import write_worksheets

    answers = Path(args.answers) if args.answers is not None else None
    pptx = Path(args.pptx) if args.pptx is not None else None
    try:
        written = write_worksheets(sheets, args.lang, Path(args.out), answers, pptx)
    except ExportRefusedError as error:
        return _fail(str(error))
    except ExportError as error:
        return _fail(str(error), EXIT_FAILED)
    for path in written:
        print(path)
    return 0


__all__ = ["add_worksheet_arguments", "run_worksheet"]
