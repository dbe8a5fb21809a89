#!/usr/bin/env bash
# QKV Studio developer entry: `./dev.sh run [FILE]` or `./dev.sh test [PYTEST ARGS]`.
# Installs what is missing (Debian packages when root or sudo is available, the Python packages
# into .venv), then runs the app or the whole check: ruff, mypy, vulture, import-linter and pytest.
set -euo pipefail
cd "$(dirname "$0")"
# Python's compiled modules are kept (some machines set PYTHONDONTWRITEBYTECODE): every test
# process and command-line run would otherwise compile the app from source again, and pytest
# rewrite each test module's asserts again (a quarter of the CPU time of tests that start
# processes; collecting the suite, 30 s of CPU for each worker, 15 s once compiled).
unset PYTHONDONTWRITEBYTECODE

SYSTEM_PACKAGES=(fonts-noto-cjk fonts-noto-color-emoji libegl1 libgl1 libfontconfig1 libxkbcommon0 libdbus-1-3
  libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0
  libxcb-render-util0 libxcb-shape0 libxcb-xfixes0 libxcb-xkb1 libx11-xcb1
  poppler-utils librsvg2-bin xvfb xauth desktop-file-utils appstream binutils)

ensure_system() {
  command -v dpkg-query >/dev/null 2>&1 || return 0
  local missing=()
  for package in "${SYSTEM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "dev.sh: missing system packages (${missing[*]}); install them as root" >&2; return 0
    fi
  fi
  echo "dev.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

pick_python() {
  for candidate in python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c \
      'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"; return
    fi
  done
  echo "dev.sh: Python 3.11 or newer is needed" >&2; exit 1
}

ensure_venv() {  # $1: the extras needed, comma-separated; installed ones are kept
  local needed=$1 stamp=.venv/.installed hash had="" extra all missing=0
  hash=$(sha256sum pyproject.toml | cut -d' ' -f1)
  if [ ! -x .venv/bin/python ]; then "$(pick_python)" -m venv .venv; fi
  if [ -f "$stamp" ] && [ "$(cut -d' ' -f1 "$stamp")" = "$hash" ]; then
    had=$(cut -s -d' ' -f2 "$stamp")
  fi
  for extra in ${needed//,/ }; do [[ ",$had," == *",$extra,"* ]] || missing=1; done
  if [ "$missing" -eq 1 ]; then
    all=$(printf '%s,%s' "$had" "$needed" | tr ',' '\n' | grep -v '^$' | sort -u | paste -sd,)
    echo "dev.sh: installing .[$all] into .venv"
    .venv/bin/python -m pip install -q --upgrade pip
    # --no-compile: pip would compile all 14,000 modules of torch, transformers and the rest (about
    # 50 s of CPU); a module is compiled instead when a run first imports it (about 2,400 of them).
    .venv/bin/python -m pip install -q --no-compile -e ".[$all]"
    echo "$hash $all" > "$stamp"
  fi
}

stage() {  # $1: what runs, said before and with its seconds after; the rest: the command
  local name=$1 started=$SECONDS
  shift
  echo "dev.sh: $name…"
  "$@"
  echo "dev.sh: $name done in $((SECONDS - started)) s"
}

command=${1:-}
shift || true
case "$command" in
  run)
    ensure_system
    ensure_venv export
    exec .venv/bin/qkv-studio "$@"
    ;;
  test)
    stage "system packages" ensure_system
    # QKV_NO_REFERENCE=1 leaves out torch and transformers (about 1.1 GB): their tests then skip.
    if [ -n "${QKV_NO_REFERENCE:-}" ]; then extras=export,test; else extras=export,test,reference; fi
    stage "Python packages ($extras; about a minute the first time)" ensure_venv "$extras"
    export QT_QPA_PLATFORM=offscreen
    # The checks run on one core: on the other, a collection of the suite compiles the app and
    # the packages it imports and rewrites each test module's asserts, once, where each of the
    # two workers would do it at the same time (16 s of CPU a worker on a fresh clone, 8 s
    # compiled); only what the arguments select. A failure here shows again, with its reason,
    # when the tests are collected.
    .venv/bin/python -m pytest --collect-only -q -p no:cacheprovider "$@" >/dev/null 2>&1 &
    collecting=$!
    stage "ruff" .venv/bin/ruff check .
    stage "mypy" .venv/bin/mypy
    stage "vulture" .venv/bin/vulture  # dead code; exceptions in scripts/vulture_whitelist.py
    stage "lint-imports" .venv/bin/lint-imports  # the layers: pyproject.toml [tool.importlinter]
    stage "compiling the suite" wait "$collecting" || true
    # Two workers, each taking whole modules (a module's fixtures, a frozen build, made once),
    # in collection order, the longest modules first (tests/conftest.py: LONGEST_FIRST);
    # arguments given after `test` come later and win (-n 0: one process).
    echo "dev.sh: tests (pytest on 2 workers, 5,100 tests: 5 to 9 minutes on a 2-core machine)…"
    exec .venv/bin/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder "$@"
    ;;
  *)
    echo "usage: ./dev.sh run [FILE] | ./dev.sh test [PYTEST ARGS]" >&2
    exit 2
    ;;
esac
