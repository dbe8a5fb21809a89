#!/usr/bin/env bash
# Build the Debian package dist/qkv-studio_VERSION_amd64.deb from the bundle.
#
#   bash packaging/build-deb.sh [--bundle DIR] [--out DIR] [--no-lintian]
#
#   --bundle DIR   the PyInstaller folder (default: dist/qkv-studio; built with
#                  packaging/build-linux.sh first when it does not exist)
#   --out DIR      where the .deb goes (default: dist/)
#   --no-lintian   skip lintian (run when installed: apt-get install lintian)
#
# The maintainer is $DEBFULLNAME <$DEBEMAIL> when both are set. The package tree is laid out
# by packaging/deb.py (see packaging/README.md for what goes where).
set -euo pipefail

started=$(date +%s.%N)
source "$(dirname "${BASH_SOURCE[0]}")/linux/release-common.sh"
LINTIAN=1
PY=${PYTHON:-python3}
for option in "${REST[@]}"; do
  case "$option" in
    --no-lintian) LINTIAN=0 ;;
    *) echo "build-deb.sh: unknown option $option (try --help)" >&2; exit 2 ;;
  esac
done
prepare_release
MAINTAINER="QKV Studio developers <qkv-studio@packages.invalid>"
if [ -n "${DEBFULLNAME:-}" ] && [ -n "${DEBEMAIL:-}" ]; then MAINTAINER="$DEBFULLNAME <$DEBEMAIL>"; fi
GLIBC=$(ldd --version | head -1 | grep -o '[0-9]\+\.[0-9]\+$')

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
"$PY" "$ROOT/packaging/deb.py" "$BUNDLE" "$STAGE/root" "$VERSION" "$MAINTAINER" "$GLIBC"
DEB="$OUT/qkv-studio_${VERSION}_amd64.deb"
dpkg-deb --root-owner-group -Zxz -z9 --build "$STAGE/root" "$DEB" >/dev/null

finished=$(date +%s.%N)
printf 'build-deb.sh: built %s in %.1f s, %s (%d bytes)\n' "$DEB" \
  "$(awk "BEGIN { print $finished - $started }")" "$(du -h "$DEB" | cut -f1)" "$(stat -c %s "$DEB")"
if [ "$LINTIAN" = 1 ]; then
  if command -v lintian >/dev/null; then
    lintian --info --display-info --pedantic "$DEB" || true
  else
    echo "build-deb.sh: lintian missing (apt-get install lintian): not checked"
  fi
fi
