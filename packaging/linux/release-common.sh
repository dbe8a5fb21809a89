# Shared by packaging/build-deb.sh and packaging/build-archive.sh (sourced, not run):
# --bundle DIR and --out DIR, VERSION from app/__init__.py, prepare_release (the bundle built
# when missing). Sets ROOT, BUNDLE, OUT, VERSION and REST (the options left for the caller).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUNDLE="$ROOT/dist/qkv-studio"
OUT="$ROOT/dist"
REST=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bundle) BUNDLE=$(realpath -m "$2"); shift 2 ;;
    --out) OUT=$(realpath -m "$2"); shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) REST+=("$1"); shift ;;
  esac
done
VERSION=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$ROOT/app/__init__.py")

prepare_release() {
  # After the caller has checked REST: build the bundle when missing, make OUT.
  [ -x "$BUNDLE/qkv-studio" ] || bash "$ROOT/packaging/build-linux.sh" --dist "$(dirname "$BUNDLE")"
  mkdir -p "$OUT"
}
