"""The command line: ``compute``, ``explain``, ``generate``, ``import-hf`` and ``lens`` run without
Qt; the rest loads it lazily."""

from __future__ import annotations

import argparse
import codecs
import io
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from app import __version__
from app.checkpoint_options import add_checkpoint_options, load_document
from app.given_once import given_twice, refuse_repeats
from app.model.examples import example_names, resolve_document

if TYPE_CHECKING:
    from engine import ScenarioError, Trace
    from engine.format.generation_keys import Settings

EXIT_REFUSED = 2
EXIT_FAILED = 1
"""A file that cannot be written (a refused document or option: :data:`EXIT_REFUSED`)."""
MAX_INDENT = 16
COMMANDS = ("compute", "explain", "generate", "import-hf", "export", "worksheet", "lens")
WORDED_IN_LANG = ("worksheet",)
"""The commands whose refusals are worded in their ``--lang``; the others speak English."""


def _document_help() -> str:
    return f"a scenario file, or a built-in example: {', '.join(example_names())}"


def _settings(args: argparse.Namespace, run: Settings | None) -> Settings:
    """The options given, the rest from the document's run (or the defaults).

    Raises
    ------
    ScenarioError
        Placed at the setting (``top_k``) a run cannot use.
    """
    from engine.format.generation_keys import MAX_SEED, Settings
    from engine.format.whole_text import option_whole

    base = run if run is not None else Settings()
    given = {"temperature": args.temperature, "top_p": args.top_p,
             "top_k": option_whole(args.top_k, "--top-k"),
             "seed": option_whole(args.seed, "--seed", 0, MAX_SEED)}
    return replace(base, **{name: value for name, value in given.items() if value is not None})


def _option_named(error: ScenarioError) -> ScenarioError:
    """A refusal of the run's settings or steps, or of import-hf's texts, placed at its option
    (``top_k``: ``--top-k``, ``text_pair``: ``--text-pair``); a refusal of the document as it
    is."""
    from engine import ScenarioError

    if error.place not in ("temperature", "top_k", "top_p", "seed", "steps", "text", "text_pair"):
        return error
    return ScenarioError(f"--{error.place.replace('_', '-')}", error.refusal or error.problem)


def _generate(args: argparse.Namespace) -> int:
    from engine import ScenarioError, WriteError, save_scenario
    from engine.files.outputs import current
    from engine.format.reader import MAX_POSITIONS
    from engine.format.whole_text import read_whole
    from engine.generation.run import generate

    try:
        steps = read_whole(args.steps, "--steps")
        if not 1 <= steps <= MAX_POSITIONS:
            return _refuse(f"--steps must be a whole number from 1 to {MAX_POSITIONS}, got "
                           f"{steps}")
        scenario = load_document(resolve_document(args.file), args)
        run = scenario.generation
        current().refuse_outputs([args.out])
        result = generate(scenario, steps,
                          _settings(args, run.settings if run is not None else None))
        if args.out is not None:
            save_scenario(result.scenario, args.out)
    except ScenarioError as error:
        return _refuse(str(_option_named(error)))
    except WriteError as error:
        return _refuse(str(error), EXIT_FAILED)
    json.dump(result.to_json(), sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _import_hf(args: argparse.Namespace) -> int:
    """Open a Hugging Face checkpoint folder as a document: printed, or written to ``--out``."""
    from app.held_stderr import stderr_held
    from engine import ScenarioError, WriteError, dumps_scenario, save_scenario
    from engine.checkpoint import import_checkpoint
    from engine.checkpoint.folder import CONFIG, TOKENIZER, WEIGHTS
    from engine.files.outputs import current
    from engine.format.io import needs_sidecar
    from engine.format.sidecar_write import JSON_NUMBERS

    def panicked(error: BaseException) -> bool:  # the Rust runtime's notice: said by the refusal
        return isinstance(error, ScenarioError) and error.refusal is not None \
            and error.refusal.key == "tokenizer_failed"

    folder = Path(args.folder)
    for read in (folder / CONFIG, folder / TOKENIZER, *folder.glob(WEIGHTS)):
        current().add(read)  # what the importer reads: never replaced by --out
    current().refuse_outputs([args.out])
    try:
        with stderr_held(panicked):
            scenario = import_checkpoint(args.folder, args.text, args.layers, args.text_pair)
        if args.out is not None:
            save_scenario(scenario, args.out, self_contained=args.self_contained)
            return 0
    except ScenarioError as error:
        return _refuse(str(_option_named(error)))
    except WriteError as error:
        return _refuse(str(error), EXIT_FAILED)
    if needs_sidecar(scenario, self_contained=args.self_contained):
        return _refuse(f"the model holds more than the {JSON_NUMBERS:,} numbers a document "
                       f"prints as JSON: give --out FILE to write it with its sidecar of weights")
    sys.stdout.write(dumps_scenario(scenario, self_contained=args.self_contained))
    return 0


def _load_trace(args: argparse.Namespace) -> Trace | None:
    """The trace of the document named on the command line, or None after printing why not."""
    from engine import ScenarioError, compute

    try:
        return compute(load_document(resolve_document(args.file), args))
    except ScenarioError as error:
        print(f"qkv-studio: {error}", file=sys.stderr)
        return None


def _compute(args: argparse.Namespace) -> int:
    from engine import ScenarioError
    from engine.format.whole_text import option_whole

    try:
        indent = option_whole(args.indent, "--indent")
    except ScenarioError as error:
        return _refuse(str(error))
    if indent is not None and not 0 <= indent <= MAX_INDENT:
        return _refuse(f"--indent must be a whole number from 0 to {MAX_INDENT}, got {indent}")
    trace = _load_trace(args)
    if trace is None:
        return EXIT_REFUSED
    names = None if args.arrays is None else [name.strip() for name in args.arrays.split(",")]
    unknown = [name for name in names or () if name not in trace.arrays]
    if unknown:
        return _refuse(f"--arrays: the trace has no array \"{unknown[0]}\" (its arrays: "
                       f"{_shown(list(trace.arrays))})")
    json.dump(trace.to_json(names), sys.stdout, ensure_ascii=False, indent=indent)
    sys.stdout.write("\n")
    return 0


def _shown(names: list[str], most: int = 12) -> str:
    """The first ``most`` names and how many more."""
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown} and {len(names) - most} more"


def _refuse(message: str, status: int = EXIT_REFUSED) -> int:
    print(f"qkv-studio: {message}", file=sys.stderr)
    return status


def terminal_text(text: str) -> str:
    """``text`` with every control character but the line break escaped (``\\x1b``), so a
    document's labels cannot clear, retitle or otherwise drive the terminal."""
    from engine.format.errors import one_line

    return "\n".join(one_line(line) for line in text.split("\n"))


def _explain(args: argparse.Namespace) -> int:
    from engine import explain, parse_cell

    trace = _load_trace(args)
    if trace is None:
        return EXIT_REFUSED
    try:
        name, index = parse_cell(args.cell)
        print(terminal_text(explain(trace, name, index).text()))
    except (ValueError, KeyError, IndexError) as error:
        message = error.args[0] if error.args else str(error)
        print(f"qkv-studio: {message}", file=sys.stderr)
        return EXIT_REFUSED
    return 0


def _run_command(args: argparse.Namespace) -> int:
    """Run a command; output that cannot be written (a closed pipe, a full disk) is one line.

    The command is one run of :mod:`engine.files.outputs`: no file it writes replaces one it reads
    (refused, exit 2, nothing written)."""
    from engine.files.outputs import Inputs, OutputRefusedError, guarding

    _utf8_stdout()
    try:
        with guarding(Inputs()):
            result: int = args.run(args)
        sys.stdout.flush()
    except OutputRefusedError as error:
        return _refuse(str(error))
    except OSError as error:
        from engine.files.safe_write import plain_reason

        _silence_stdout()
        reason = ("the reader of the output closed it" if isinstance(error, BrokenPipeError)
                  else plain_reason(error))
        return _refuse(f"cannot write the output: {reason}")
    return result


def _utf8_stdout() -> None:
    """Standard output in UTF-8: a document's labels and a JSON's strings can hold any
    character, and an output in another encoding (a Windows redirect in cp1252,
    ``PYTHONIOENCODING=latin-1``) failed with a traceback half-way through it."""
    stream = sys.stdout
    if isinstance(stream, io.TextIOWrapper) \
            and codecs.lookup(stream.encoding or "utf-8").name != "utf-8":
        stream.reconfigure(encoding="utf-8")


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the exit's own flush has nothing left to fail on."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def build_parser() -> argparse.ArgumentParser:
    parser = refuse_repeats(argparse.ArgumentParser(
        prog="qkv-studio",
        description="Watch attention compute, step by step. Without a command, opens the window.",
        epilog="commands: compute FILE | explain FILE ARRAY[i,j] | generate FILE --steps K | "
               "import-hf DIR --text TEXT | export FILE --format … | worksheet FILE --out "
               "SHEET.pdf | lens FILE --top K (each has --help)"))
    parser.add_argument("--version", action="version", version=f"qkv-studio {__version__}")
    parser.add_argument("--selftest", action="store_true",
                        help="compute and paint the F11 example offscreen, check the pictures, "
                             "print one line and exit (0 = this installation works)")
    parser.add_argument("file", nargs="?", help=_document_help() + " (default: f11)")
    return parser


def _command_parser(command: str) -> argparse.ArgumentParser:
    parser = refuse_repeats(argparse.ArgumentParser(prog=f"qkv-studio {command}"))
    if command == "import-hf":
        _add_import_arguments(parser)
        return parser
    parser.add_argument("file", help=_document_help())
    add_checkpoint_options(parser)
    if command == "compute":
        parser.add_argument("--indent", default=None, metavar="N",
                            help=f"pretty-print the JSON (0 to {MAX_INDENT} spaces)")
        parser.add_argument("--arrays", default=None,
                            help="print only these arrays of the trace, for example "
                                 "logits,L3.weights (default: every array; a whole model's "
                                 "trace is large)")
        parser.set_defaults(run=_compute)
    elif command == "explain":
        parser.add_argument("cell", help="the cell, for example Q[1,0], scores[0,1,0], probs[1,2]")
        parser.set_defaults(run=_explain)
    elif command == "generate":
        _add_generate_arguments(parser)
    elif command == "worksheet":
        from app.export.worksheet_cli import add_worksheet_arguments

        add_worksheet_arguments(parser)
    elif command == "lens":
        from app.lens_cli import add_lens_arguments

        add_lens_arguments(parser)
    else:
        from app.export.cli import add_export_arguments

        add_export_arguments(parser)
    return parser


def _add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--steps", required=True, metavar="K", help="how many tokens to append")
    parser.add_argument("--temperature", type=float, default=None,
                        help="divides the logits before the softmax; 0 is greedy (default: the "
                             "document's run, else 1)")
    parser.add_argument("--top-k", default=None, metavar="K",
                        help="keep only the k most probable entries (default: all)")
    parser.add_argument("--top-p", type=float, default=None,
                        help="keep the smallest set whose probability reaches p, in (0, 1] "
                             "(default: 1, all)")
    parser.add_argument("--seed", default=None, metavar="S",
                        help="the seed of the draws: the same seed gives the same tokens "
                             "(default: 0)")
    parser.add_argument("--out", default=None,
                        help="write the extended document, with its generation record, here")
    parser.set_defaults(run=_generate)


def _add_import_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Open a local Hugging Face checkpoint (gpt2, llama, mistral, qwen2, "
                          "qwen3, gpt_neox, gemma, gemma2, gemma3_text, phi, phi3, opt, bert, "
                          "stablelm, starcoder2, olmo2, mixtral, qwen3_moe, qwen2_moe) as a "
                          "scenario document computing TEXT.")
    parser.add_argument("folder", metavar="DIR",
                        help="the checkpoint's folder: config.json, *.safetensors, tokenizer.json")
    parser.add_argument("--text", required=True, help="the text the model reads")
    parser.add_argument("--text-pair", default=None,
                        help="a second text after it, as segment B (token type 1), as BERT "
                             "reads a sentence pair; only for models with token types")
    parser.add_argument("--layers", default=None,
                        help="only these layers, counted from 1: 1-2, 3 or 1,3-4 (default: all)")
    parser.add_argument("--out", default=None,
                        help="write the document here (default: print it)")
    parser.add_argument("--self-contained", action="store_true",
                        help="write every weight's numbers into the document (and its sidecar) "
                             "instead of naming the checkpoint's tensors, so that it opens "
                             "without the checkpoint")
    parser.set_defaults(run=_import_hf)


def _given_twice(parser: argparse.ArgumentParser, args: argparse.Namespace,
                 lang: str = "en") -> int | None:
    """Exit 2 after naming the first option given twice (``qkv-studio lens: --top was given
    twice (3, then 5); give it once``); None when each option was given once."""
    error = given_twice(args)
    if error is None:
        return None
    from app.texts.problems import problem_words

    print(f"{parser.prog}: {problem_words(error, lang)}", file=sys.stderr)
    return EXIT_REFUSED


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``qkv-studio``."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] in COMMANDS:
        parser = _command_parser(arguments[0])
        args = parser.parse_args(arguments[1:])
        lang = args.lang if arguments[0] in WORDED_IN_LANG else "en"
        twice = _given_twice(parser, args, lang)
        return _run_command(args) if twice is None else twice
    parser = build_parser()
    args = parser.parse_args(arguments)
    twice = _given_twice(parser, args)
    if twice is not None:
        return twice
    if args.selftest:
        from app.selftest import run_selftest

        return run_selftest()
    from app.main import run_window

    return run_window(args.file)


if __name__ == "__main__":
    sys.exit(main())
