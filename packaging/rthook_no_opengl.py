"""PyInstaller runtime hook: stand-ins for PySide6.QtOpenGL and QtOpenGLWidgets (10 MB).

pyqtgraph imports both at start-up, but draws with OpenGL only when ``useOpenGL`` is set, which
QKV Studio never does; so the bundle leaves them out and these modules answer the import. The
one name read at import time, ``QOpenGLWidget`` (a base class in pyqtgraph), is a plain
QWidget subclass; anything else raises an AttributeError that says why. The frozen build's test
(tests/packaging/test_build.py) paints every example's steps through pyqtgraph.
"""

import sys
import types


def _opengl_stand_in(name: str) -> types.ModuleType:
    module = types.ModuleType(name, "QKV Studio's bundle has no OpenGL (packaging/README.md)")

    def __getattr__(attribute: str) -> type:  # noqa: N807 - a module's own __getattr__
        if attribute == "QOpenGLWidget":
            from PySide6.QtWidgets import QWidget

            stand_in = type("QOpenGLWidget", (QWidget,), {"__module__": name})
            setattr(module, attribute, stand_in)
            return stand_in
        raise AttributeError(f"{name}.{attribute}: QKV Studio's bundle has no OpenGL")

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


for _name in ("PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets"):
    sys.modules.setdefault(_name, _opengl_stand_in(_name))
