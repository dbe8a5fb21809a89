#!/usr/bin/env bash
# Build the portable archive dist/qkv-studio-VERSION-linux-x86_64.tar.xz from the bundle.
#
#   bash packaging/build-archive.sh [--bundle DIR] [--out DIR]
#
#   --bundle DIR   the PyInstaller folder (default: dist/qkv-studio; built with
#                  packaging/build-linux.sh first when it does not exist)
#   --out DIR      where the archive goes (default: dist/)
#
# The archive holds one folder, qkv-studio-VERSION-linux-x86_64/: the bundle, its share/
# (menu entry, file type, icons, metainfo), install.sh (per-user set-up and --uninstall) and
# README.txt.
set -euo pipefail

started=$(date +%s.%N)
source "$(dirname "${BASH_SOURCE[0]}")/linux/release-common.sh"
if [ ${#REST[@]} -gt 0 ]; then
  echo "build-archive.sh: unknown option ${REST[0]} (try --help)" >&2; exit 2
fi
prepare_release
NAME="qkv-studio-$VERSION-linux-x86_64"

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
cp -a "$BUNDLE" "$STAGE/$NAME"
install -m755 "$ROOT/packaging/linux/install.sh" "$STAGE/$NAME/install.sh"
install -m644 "$ROOT/packaging/linux/README.txt" "$STAGE/$NAME/README.txt"
ARCHIVE="$OUT/$NAME.tar.xz"
tar -C "$STAGE" --owner=0 --group=0 --numeric-owner --sort=name -cf - "$NAME" \
  | xz -9 -T0 > "$ARCHIVE"

finished=$(date +%s.%N)
printf 'build-archive.sh: built %s in %.1f s, %s (%d bytes)\n' "$ARCHIVE" \
  "$(awk "BEGIN { print $finished - $started }")" "$(du -h "$ARCHIVE" | cut -f1)" \
  "$(stat -c %s "$ARCHIVE")"
