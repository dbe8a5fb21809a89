"""The baked cividis table is pyqtgraph's, entry for entry."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from app.canvas.cividis import CIVIDIS
from app.canvas.theme import cell_color


def test_baked_cividis_equals_pyqtgraphs_table() -> None:
    table = pg.colormap.get("cividis").getLookupTable(0.0, 1.0, 256, alpha=False)
    np.testing.assert_array_equal(CIVIDIS, table)
    assert cell_color(0.0).name() == "#00204d"
    assert cell_color(1.0).name() == "#ffea46"
