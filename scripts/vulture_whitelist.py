"""Names the dead-code check (vulture, run by ``./dev.sh test``) cannot see being used.

Each is used by something vulture does not read: Qt calls its virtual methods on our overrides,
numpy and python-pptx read the attributes we set, and code that looks a name up with
``getattr``. Add a name here only with its reason; see docs/testing.md.
"""
# ruff: noqa

# Qt virtual methods, called by Qt on our subclasses.
paint  # QGraphicsItem.paint: arrows, bars, compare, frame, grid, heads, layout
hoverMoveEvent  # QGraphicsItem: app/canvas/grid.py
hoverLeaveEvent  # QGraphicsItem: app/canvas/grid.py
eventFilter  # QObject: app/window/studio.py, app/window/compare_mode.py
minimumSizeHint  # QWidget: app/editor/table.py
dragEnterEvent  # QWidget: app/window/studio.py
dragMoveEvent  # QWidget: app/window/studio.py
dropEvent  # QWidget: app/window/studio.py
closeEvent  # QWidget: app/window/studio.py

# Attributes that libraries read.
writeable  # numpy's array.flags.writeable = False: engine/scenario/scenario.py, app/canvas/cividis.py
# python-pptx reads what app/export/deck.py sets on its shapes, text frames and tables:
author, alignment, word_wrap, auto_size, vertical_anchor, inherit, first_row, horz_banding
margin_left, margin_right, margin_top, margin_bottom

# Protocol methods: the type of a callable, called through the callables that match it.
__call__  # engine/forward/plan.py Attend: forward.attend and the KV cache's attend

# References held only to keep an object alive.
_closing  # app/window/presentation.py: the view being closed lives until Qt deletes it

# Looked up by name.
grid_line  # Theme.color("grid_line") reads the field with getattr: app/canvas/theme.py
# engine/arithmetic/cells.py: Explainer.explain calls getattr(self, f"_{name}") for each array name.
_X, _Q, _K, _V, _scores, _weights, _mixed, _attn_out, _norm1, _norm2, _final_norm
_resid1, _resid2, _ffn_hidden, _ffn_out, _logits, _probs

# pytest.
qapp  # a fixture asked for only for its effect: a QApplication exists during the test
pytestmark  # marks every test of a module
pytest_collection_modifyitems  # a hook pytest calls: tests/conftest.py orders the longest first

# Set on a tokenizers.Tokenizer, read by the tokenizers library (scripts/make_checkpoint_fixtures.py).
pre_tokenizer, post_processor, normalizer

# Set on a transformers GenerationConfig, read by generate (tests/engine/test_generation_transformers.py).
eos_token_id

# Set on a python-pptx slide's shapes, read by python-pptx when it numbers a new shape (app/export/deck.py).
turbo_add_enabled
wheelEvent  # QGraphicsView: app/window/picture_window.py
