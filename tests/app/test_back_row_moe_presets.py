"""F5 at 1024 × 768 and a 4:3 export 1024 wide,
every step of the presets with a mixture of experts (Mixtral, Qwen2-MoE)
(:mod:`tests.app.back_row`)."""

from __future__ import annotations

import pytest

from tests.app.back_row import group_tests
from tests.app.back_row import projector as projector  # the 1024 × 768 canvas fixture

pytestmark = pytest.mark.slow
test_presented_at_1024_by_768, test_exported_4_by_3_1024_wide = group_tests("moe_presets")
