"""QKV Studio's engine: scenario documents in, traces of named steps out. Pure numpy, no Qt."""

from engine.errors import ScenarioError
from engine.explain import Explanation, explain, parse_cell
from engine.io import dumps_scenario, load_scenario, read_document, save_scenario
from engine.numbers import NumberTextError, format_number, parse_number
from engine.safe_write import WriteError
from engine.scenario import Attention, Block, FeedForward, Scenario, parse_scenario
from engine.trace import Step, Trace, compute

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
