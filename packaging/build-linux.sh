#!/usr/bin/env bash
# Build the Linux desktop bundle: dist/qkv-studio/qkv-studio (PyInstaller, one folder).
#
#   bash packaging/build-linux.sh [--dist DIR] [--work DIR] [--venv DIR] [--with-ffmpeg]
#                                 [--clean] [--no-check]
#
#   --dist DIR      where the bundle goes (default: dist/; the app is DIR/qkv-studio/qkv-studio)
#   --work DIR      PyInstaller's work folder and the generated icons (default: build/pyinstaller)
#   --venv DIR      the Python environment to build from (default: the project's .venv; created
#                   with the [export] extra when it does not exist)
#   --with-ffmpeg   also bundle imageio-ffmpeg's ffmpeg (+172 MB); otherwise MP4 export uses an
#                   ffmpeg on PATH (Debian: apt-get install ffmpeg) or $IMAGEIO_FFMPEG_EXE
#   --clean         empty PyInstaller's cache first
#   --no-check      skip the frozen app's --selftest at the end
#
# Besides the bundle it writes DIR/qkv-studio/share/ (desktop file, AppStream metainfo, MIME
# type, icons: see packaging/README.md) and WORK/icons/qkv-studio.ico and .icns (for the
# Windows and macOS builds, made here with Pillow so they can be checked on Linux).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIST="$ROOT/dist"
WORK="$ROOT/build/pyinstaller"
VENV="$ROOT/.venv"
FFMPEG=0
CLEAN=()
CHECK=1
PYINSTALLER_SPEC="pyinstaller>=6.10,<7"
APP_ID=io.github.qkvstudio.QKVStudio

while [ $# -gt 0 ]; do
  case "$1" in
    --dist) DIST=$(realpath -m "$2"); shift 2 ;;
    --work) WORK=$(realpath -m "$2"); shift 2 ;;
    --venv) VENV=$(realpath -m "$2"); shift 2 ;;
    --with-ffmpeg) FFMPEG=1; shift ;;
    --clean) CLEAN=(--clean); shift ;;
    --no-check) CHECK=0; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "build-linux.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done

started=$(date +%s.%N)
PY="$VENV/bin/python"

if [ ! -x "$PY" ]; then
  echo "build-linux.sh: creating $VENV"
  python3 -m venv "$VENV"
  "$PY" -m pip install -q --upgrade pip
  "$PY" -m pip install -q "$ROOT[export]"
fi
if ! "$PY" -c 'import PyInstaller' 2>/dev/null; then
  echo "build-linux.sh: installing $PYINSTALLER_SPEC into $VENV"
  "$PY" -m pip install -q "$PYINSTALLER_SPEC"
fi
"$PY" - <<'EOF'
import sys
import PySide6
if sys.version_info < (3, 12) and tuple(map(int, PySide6.__version__.split(".")[:2])) >= (6, 12):
    sys.exit(f"build-linux.sh: PySide6 {PySide6.__version__} crashes on Python 3.11; "
             "install PySide6-Essentials<6.12 (see pyproject.toml)")
EOF
for tool in readelf strip; do
  command -v "$tool" >/dev/null || echo "build-linux.sh: $tool missing (binutils): the bundle will be larger"
done

mkdir -p "$WORK"
if "$PY" -c 'import PIL' 2>/dev/null; then
  QT_QPA_PLATFORM=offscreen "$PY" "$ROOT/packaging/make_icons.py" "$WORK/icons"
else
  echo "build-linux.sh: Pillow missing: no .ico/.icns"
fi

echo "build-linux.sh: PyInstaller $("$PY" -m PyInstaller --version), bundling ffmpeg: $FFMPEG"
QKV_BUNDLE_FFMPEG=$FFMPEG QKV_ICON_DIR="$WORK/icons" "$PY" -m PyInstaller --noconfirm \
  "${CLEAN[@]}" --log-level WARN --distpath "$DIST" --workpath "$WORK" \
  "$ROOT/packaging/qkv-studio.spec"

APP="$DIST/qkv-studio"
# Desktop integration files, laid out like a prefix: copy or link share/ into ~/.local/share or
# /usr/local/share (see packaging/README.md).
SHARE="$APP/share"
rm -rf "$SHARE"
install -Dm644 "$ROOT/packaging/linux/$APP_ID.desktop" "$SHARE/applications/$APP_ID.desktop"
install -Dm644 "$ROOT/packaging/linux/$APP_ID.metainfo.xml" "$SHARE/metainfo/$APP_ID.metainfo.xml"
install -Dm644 "$ROOT/packaging/linux/$APP_ID.mime.xml" "$SHARE/mime/packages/$APP_ID.xml"
install -Dm644 "$ROOT/resources/icons/qkv-studio.svg" \
  "$SHARE/icons/hicolor/scalable/apps/$APP_ID.svg"
for size in 16 32 48 64 128 256 512; do
  install -Dm644 "$ROOT/resources/icons/qkv-studio-$size.png" \
    "$SHARE/icons/hicolor/${size}x${size}/apps/$APP_ID.png"
done

finished=$(date +%s.%N)
size=$(du -sh "$APP" | cut -f1)
bytes=$(du -sb "$APP" | cut -f1)
printf 'build-linux.sh: built %s in %.1f s, %s (%d bytes)\n' "$APP/qkv-studio" \
  "$(awk "BEGIN { print $finished - $started }")" "$size" "$bytes"

if [ "$CHECK" = 1 ]; then
  home=$(mktemp -d)
  env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen \
    "$APP/qkv-studio" --selftest
  rm -rf "$home"
fi
