#!/bin/sh
# QKV Studio: put this unpacked folder in your applications menu, for you alone (no root needed).
#
#   ./install.sh              install into ~/.local (the program in ~/.local/opt/qkv-studio,
#                             the command ~/.local/bin/qkv-studio, the menu entry, the icon and
#                             the *.qkv.json file type under ~/.local/share)
#   ./install.sh --uninstall  remove all of that again
#   ./install.sh --prefix DIR use DIR instead of ~/.local
#
# 把这个解压出来的文件夹装进你的应用程序菜单（仅当前用户，无需 root）：./install.sh；
# 卸载：./install.sh --uninstall。
set -eu

APP_ID=io.github.qkvstudio.QKVStudio
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX="$HOME/.local"
ACTION=install

while [ $# -gt 0 ]; do
  case "$1" in
    --uninstall) ACTION=uninstall; shift ;;
    --prefix) PREFIX=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1 (try --help) / 未知选项 $1" >&2; exit 2 ;;
  esac
done

TARGET="$PREFIX/opt/qkv-studio"
BIN="$PREFIX/bin"
SHARE="$PREFIX/share"
MANIFEST="$TARGET/.installed-files"

refresh_caches() {
  if command -v update-mime-database >/dev/null 2>&1 && [ -d "$SHARE/mime/packages" ]; then
    update-mime-database "$SHARE/mime" || true
  fi
  if command -v update-desktop-database >/dev/null 2>&1 && [ -d "$SHARE/applications" ]; then
    update-desktop-database "$SHARE/applications" || true
  fi
  if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$SHARE/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t -f "$SHARE/icons/hicolor" || true
  fi
}

prune() {
  # Remove the empty folders from $1 up to $PREFIX, never above it.
  folder=$1
  while [ "$folder" != "$(dirname "$PREFIX")" ] && [ "${folder#"$PREFIX"}" != "$folder" ]; do
    rmdir "$folder" 2>/dev/null || return 0
    folder=$(dirname "$folder")
  done
}

uninstall() {
  if [ ! -f "$MANIFEST" ]; then
    echo "install.sh: QKV Studio is not installed in $PREFIX / QKV Studio 未安装在 $PREFIX" >&2
    exit 1
  fi
  while IFS= read -r file; do
    rm -f "$file"
    prune "$(dirname "$file")"
  done < "$MANIFEST"
  rm -rf "$TARGET"
  refresh_caches
  # Caches that now describe nothing: the MIME database without any packages/, an
  # applications folder holding only its mimeinfo.cache.
  [ -d "$SHARE/mime/packages" ] || rm -rf "$SHARE/mime"
  if [ "$(ls -A "$SHARE/applications" 2>/dev/null)" = mimeinfo.cache ]; then
    rm -f "$SHARE/applications/mimeinfo.cache"
  fi
  for folder in "$SHARE/applications" "$PREFIX/opt" "$BIN" "$SHARE"; do
    prune "$folder"
  done
  echo "install.sh: QKV Studio removed from $PREFIX / 已从 $PREFIX 卸载 QKV Studio"
}

missing_libraries() {
  # The bundle leaves X11, fontconfig, FreeType, GLib and D-Bus to the system.
  LD_LIBRARY_PATH="$HERE/_internal:$HERE/_internal/PySide6/Qt/lib" ldd \
    "$HERE/_internal/PySide6/Qt/lib/libQt6Gui.so.6" \
    "$HERE/_internal/PySide6/Qt/plugins/platforms/libqxcb.so" 2>/dev/null \
    | awk '/not found/ { print $1 }' | sort -u
}

install_here() {
  if [ ! -x "$HERE/qkv-studio" ]; then
    echo "install.sh: run me from the unpacked folder / 请在解压出的文件夹中运行" >&2
    exit 1
  fi
  if [ "$HERE" = "$(cd "$TARGET" 2>/dev/null && pwd)" ]; then
    echo "install.sh: run me from the unpacked archive, not from $TARGET / 请在解压出的文件夹中运行" >&2
    exit 1
  fi
  missing=$(missing_libraries)
  if [ -n "$missing" ]; then
    echo "install.sh: these system libraries are missing / 缺少这些系统库:" $missing >&2
    echo "  Debian/Ubuntu: sudo apt install libx11-6 libx11-xcb1 libfontconfig1 libglib2.0-0 libdbus-1-3 libxkbcommon-x11-0" >&2
    exit 1
  fi
  [ -f "$MANIFEST" ] && uninstall >/dev/null
  mkdir -p "$TARGET" "$BIN"
  cp -R "$HERE/." "$TARGET/"
  rm -rf "$TARGET/share"
  : > "$MANIFEST"
  (cd "$HERE/share" && find . -type f) | while IFS= read -r file; do
    target="$SHARE/${file#./}"
    mkdir -p "$(dirname "$target")"
    cp "$HERE/share/$file" "$target"
    echo "$target" >> "$MANIFEST"
  done
  # The menu entry starts the program by its full path: ~/.local/bin is not on every
  # desktop session's PATH.
  desktop="$SHARE/applications/$APP_ID.desktop"
  sed -i "s|^Exec=qkv-studio |Exec=\"$TARGET/qkv-studio\" |" "$desktop"
  ln -sf "$TARGET/qkv-studio" "$BIN/qkv-studio"
  echo "$BIN/qkv-studio" >> "$MANIFEST"
  refresh_caches
  echo "install.sh: QKV Studio installed: the applications menu, or $BIN/qkv-studio"
  echo "install.sh: 已安装 QKV Studio：见应用程序菜单，或运行 $BIN/qkv-studio"
  command -v ffmpeg >/dev/null 2>&1 || {
    echo "install.sh: MP4 export needs ffmpeg (Debian/Ubuntu: sudo apt install ffmpeg)"
    echo "install.sh: 导出 MP4 需要 ffmpeg（Debian/Ubuntu：sudo apt install ffmpeg）"
  }
}

if [ "$ACTION" = uninstall ]; then uninstall; else install_here; fi
