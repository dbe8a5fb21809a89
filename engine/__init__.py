"""QKV Studio's engine: scenario documents in, traces of named steps out. Pure numpy, no Qt."""

from engine.arithmetic.cells import Explanation, explain, parse_cell
from engine.files.safe_write import WriteError
from engine.format.document import parse_scenario
from engine.format.errors import ScenarioError
from engine.format.io import dumps_scenario, load_scenario, read_document, save_scenario
from engine.format.numbers import NumberTextError, format_number, parse_number
from engine.forward.trace import Step, Trace, compute
from engine.scenario.scenario import Attention, Block, FeedForward, Scenario

__all__ = [
    "Attention",
    "Block",
    "Explanation",
    "FeedForward",
    "NumberTextError",
    "Scenario",
    "ScenarioError",
    "Step",
    "Trace",
    "WriteError",
    "compute",
    "dumps_scenario",
    "explain",
    "format_number",
    "load_scenario",
    "parse_cell",
    "parse_number",
    "parse_scenario",
    "read_document",
    "save_scenario",
]
