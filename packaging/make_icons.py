"""Make the Windows .ico and macOS .icns from the committed icons (needs Pillow).

    python packaging/make_icons.py [OUT_DIR]        (default: build/icons)

The PNGs in resources/icons are rendered from qkv-studio.svg (see packaging/README.md). The
.icns also wants a 1024 px picture (512 pt at 2x): it is rendered from the SVG with Qt when
PySide6 is importable, else scaled up from the 512 px PNG.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

ROOT = Path(__file__).resolve().parent.parent
ICON_DIR = ROOT / "resources" / "icons"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_SIZES = (16, 32, 64, 128, 256, 512)


def _render_svg(svg: Path, size: int) -> PILImage | None:
    """The SVG at ``size`` px through QSvgRenderer, or None without PySide6."""
    try:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
        from PySide6.QtGui import QGuiApplication, QImage, QPainter
        from PySide6.QtSvg import QSvgRenderer
    except ImportError:
        return None
    import io

    from PIL import Image

    _app = QGuiApplication.instance() or QGuiApplication([])
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(str(svg)).render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    del _app
    return Image.open(io.BytesIO(bytes(data.data()))).convert("RGBA")


def make_icons(png_dir: Path = ICON_DIR, out_dir: Path = ROOT / "build" / "icons",
               ) -> dict[str, Path]:
    """Write ``qkv-studio.ico`` and ``qkv-studio.icns`` into ``out_dir``; return their paths."""
    from PIL import Image

    out_dir.mkdir(parents=True, exist_ok=True)
    pngs = {size: Image.open(png_dir / f"qkv-studio-{size}.png").convert("RGBA")
            for size in sorted(set(ICO_SIZES) | set(ICNS_SIZES))
            if (png_dir / f"qkv-studio-{size}.png").exists()}
    largest = pngs[max(pngs)]
    ico = out_dir / "qkv-studio.ico"
    # The ICO holds each size; Pillow uses an appended picture of the exact size when there is
    # one and scales the base picture down otherwise (24 px).
    largest.save(ico, format="ICO", sizes=[(size, size) for size in ICO_SIZES],
                 append_images=[pngs[size] for size in ICO_SIZES if size in pngs])
    icns = out_dir / "qkv-studio.icns"
    big = _render_svg(png_dir / "qkv-studio.svg", 1024) or largest.resize(
        (1024, 1024), Image.Resampling.LANCZOS)
    big.save(icns, format="ICNS", append_images=[pngs[size] for size in ICNS_SIZES
                                                 if size in pngs])
    return {"ico": ico, "icns": icns}


def main(argv: list[str]) -> int:
    out_dir = Path(argv[0]) if argv else ROOT / "build" / "icons"
    made = make_icons(ICON_DIR, out_dir)
    for kind, path in made.items():
        print(f"{kind}: {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
