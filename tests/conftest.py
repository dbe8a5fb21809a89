"""Shared test set-up: Qt runs offscreen; settings and data go to a temporary home."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import Phase, settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

settings.register_profile("mutation", phases=[Phase.explicit, Phase.reuse, Phase.generate],
                          database=None)
"""For mutmut (``--hypothesis-profile=mutation``, see docs/testing.md): a failing example is
enough to kill a mutant, so none is shrunk, and none is remembered between mutants."""


LONGEST_FIRST = (
    "tests/packaging/test_build.py",
    "tests/app/test_generated_random_1.py",
    "tests/app/test_generated_random_2.py",
    "tests/app/test_legibility.py",
    "tests/app/test_launch_relaunch.py",
    "tests/engine/test_engine_malformed.py",
    "tests/app/test_back_row_gelu_presets.py",
    "tests/export/test_export_refusals.py",
    "tests/app/test_back_row_gated_presets.py",
    "tests/app/test_big_legibility.py",
    "tests/app/test_generated_examples_1.py",
    "tests/app/test_generated_examples_2.py",
    "tests/app/test_documents_save_open.py",
    "tests/app/test_presets_menu.py",
    "tests/app/test_big_views.py",
    "tests/app/test_mapped_document.py",
    "tests/export/test_worksheet_leaks.py",
    "tests/app/test_back_row_moe_presets.py",
    "tests/export/test_worksheet_lessons.py",
    "tests/app/test_editor_stacks.py",
    "tests/engine/test_engine_whole_model.py",
    "tests/export/test_export_cli.py",
    "tests/export/test_export_sizes.py",
    "tests/app/test_generated_examples_3.py",
    "tests/app/test_window_generation.py",
    "tests/engine/test_engine_outputs.py",
    "tests/engine/test_engine_io.py",
    "tests/app/test_back_row_big_examples.py",
    "tests/engine/test_engine_checkpoint_transformers.py",
    "tests/app/test_open_speed.py",
    "tests/engine/test_engine_retrace.py",
    "tests/app/test_window_steps.py",
    "tests/app/test_deep_map.py",
)
"""The modules that take longest, longest first (``--durations=0`` summed by module on 659c6ee,
each over 30 s on a loaded machine), after the frozen build and the random documents (their time
varies with the draw: 11 to 15 s a module for six seeds on 9e6cad7, a loaded machine): with
``--dist loadfile --no-loadscope-reorder`` (``./dev.sh test``) pytest-xdist hands whole modules
to its two workers in collection order, so a long module collected last (the frozen build was:
xdist's default order puts modules of few tests last; then the worksheets') makes the run wait
for it alone, while the short modules collected after these fill both workers to the end."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """:data:`LONGEST_FIRST`'s modules first, in that order; every other test keeps its order."""
    def rank(item: pytest.Item) -> int:
        module = item.nodeid.split("::")[0]
        return LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)


def settings_in(config: Path) -> None:
    """The user's QSettings kept in ``config`` (Qt caches XDG_CONFIG_HOME, so the path is set
    explicitly). A module-scoped window is made before its first test's own folder is set:
    it calls this with a folder of its own, or it reads what the test before left."""
    from PySide6.QtCore import QSettings

    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(config))


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """QSettings and data folders in a temporary place."""
    config = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    settings_in(config)
    yield


@pytest.fixture(scope="session", autouse=True)
def _empty_clipboard_at_exit() -> Iterator[None]:
    """The offscreen platform crashes at interpreter exit while the clipboard holds data that a
    test put there (PySide6 6.11); empty it once the session ends."""
    yield
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is not None:
        QGuiApplication.clipboard().clear()


@pytest.fixture
def device_node(tmp_path: Path) -> Callable[[str], Path]:
    """``device_node("null")``: a device to write onto that no failing test can damage.

    As root, a private node with the numbers of ``/dev/<name>`` in a temporary folder (a writer
    that wrongly replaced it would otherwise replace the system's ``/dev/null``); as any other
    user, ``/dev/<name>`` itself, which such a user cannot replace.
    """
    def make(name: str) -> Path:
        system = Path("/dev") / name
        if os.geteuid() != 0:
            return system
        node = tmp_path / "devices" / name
        node.parent.mkdir(exist_ok=True)
        try:
            os.mknod(node, stat.S_IFCHR | 0o666, system.stat().st_rdev)
        except OSError:
            pytest.skip("cannot make a device node here")
        return node

    return make
