"""Start-up time of the frozen bundle and the installed program against the venv.

    .venv/bin/python tests/bench/bench_startup.py [--frozen PATH] [--venv-exe PATH]
                                                  [--installed PATH] [--runs N]
                                                  [--window-runs N] [--build]

The installed program is /usr/bin/qkv-studio (the .deb's) when it exists, or --installed PATH
(for example ~/.local/bin/qkv-studio after the archive's install.sh); it is left out otherwise.

Measures, for each executable, in the same clean environment (PATH=/usr/bin:/bin, empty HOME):

* start to selftest done: wall time of ``EXE --selftest`` (offscreen; compute F11, paint and
  check five frames, encode PNG/JPEG/SVG, exit);
* start to window: from launch until the main window ("QKV Studio — …") is mapped on an Xvfb
  display, found by polling ``xdotool search --onlyvisible`` every 10 ms (needs Xvfb and
  xdotool; skipped without them). Qt paints the window right after it is mapped, so this is a
  close outer bound for "first paint" without touching the app's code;
* with ``--build``: the time and size of a fresh ``packaging/build-linux.sh`` build into a
  temporary folder (which is then benchmarked instead of dist/).

Runs alternate between the two executables after one discarded warm-up run each, and report
median and 95th percentile (nearest rank) in milliseconds.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WINDOW_TITLE = "^QKV Studio .*"
POLL_SECONDS = 0.01
WINDOW_TIMEOUT = 60.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def clean_env(home: str, **extra: str) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", **extra}


def time_selftest(executable: Path, home: str) -> float:
    started = time.perf_counter()
    result = subprocess.run([str(executable), "--selftest"], env=clean_env(
        home, QT_QPA_PLATFORM="offscreen"), capture_output=True, text=True, timeout=120)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise RuntimeError(f"{executable} --selftest failed: {result.stderr.strip()}")
    return elapsed


def visible_window(display: str) -> bool:
    result = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", WINDOW_TITLE],
                            env={"DISPLAY": display, "PATH": "/usr/bin:/bin"},
                            capture_output=True, text=True, check=False)
    return bool(result.stdout.strip())


def time_window(executable: Path, home: str, display: str) -> float:
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed below
    process = subprocess.Popen([str(executable)], env=clean_env(
        home, DISPLAY=display, QT_QPA_PLATFORM="xcb"), stdout=subprocess.DEVNULL,
        stderr=errors)
    started = time.perf_counter()
    try:
        while not visible_window(display):
            if process.poll() is not None:
                errors.seek(0)
                detail = errors.read().decode(errors="replace")[-2000:]
                raise RuntimeError(f"{executable} exited with {process.returncode} before "
                                   f"showing a window:\n{detail}")
            if time.perf_counter() - started > WINDOW_TIMEOUT:
                raise RuntimeError(f"{executable} showed no window in {WINDOW_TIMEOUT} s")
            time.sleep(POLL_SECONDS)
        return time.perf_counter() - started
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        errors.close()


def start_xvfb() -> tuple[subprocess.Popen[bytes], str] | None:
    if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
        return None
    number = next(n for n in range(180, 240) if not Path(f"/tmp/.X11-unix/X{n}").exists()
                  and not Path(f"/tmp/.X{n}-lock").exists())
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1600x1000x24", "-noreset",
                               "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            return None
        time.sleep(0.05)
    return server, f":{number}"


def measure(label: str, runs: int, executables: dict[str, Path],
            one_run: Callable[[Path], float]) -> None:
    samples: dict[str, list[float]] = {name: [] for name in executables}
    for executable in executables.values():
        one_run(executable)  # warm-up: page cache, font cache
    for _ in range(runs):
        for name, executable in executables.items():
            samples[name].append(one_run(executable))
    print(f"\n{label} ({runs} runs each)")
    print(f"  {'':10} {'median ms':>10} {'p95 ms':>8} {'min ms':>8} {'÷ venv':>7}")
    venv_median = statistics.median(samples["venv"]) if "venv" in samples else math.nan
    for name, values in samples.items():
        print(f"  {name:10} {statistics.median(values) * 1000:10.0f} "
              f"{percentile(values, 0.95) * 1000:8.0f} {min(values) * 1000:8.0f} "
              f"{statistics.median(values) / venv_median:7.2f}")


def build(into: Path) -> Path:
    started = time.perf_counter()
    subprocess.run(["bash", str(ROOT / "packaging" / "build-linux.sh"), "--dist",
                    str(into / "dist"), "--work", str(into / "work"), "--no-check"],
                   check=True, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    bundle = into / "dist" / "qkv-studio"
    size = subprocess.run(["du", "-sh", str(bundle)], capture_output=True, text=True,
                          check=True).stdout.split()[0]
    print(f"build (fresh work folder): {elapsed:.1f} s, du -sh {size}")
    return bundle / "qkv-studio"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--frozen", type=Path, default=ROOT / "dist" / "qkv-studio" / "qkv-studio")
    parser.add_argument("--venv-exe", type=Path, default=ROOT / ".venv" / "bin" / "qkv-studio")
    parser.add_argument("--installed", type=Path, default=Path("/usr/bin/qkv-studio"),
                        help="the installed program (left out when missing)")
    parser.add_argument("--runs", type=int, default=10, help="selftest runs per executable")
    parser.add_argument("--window-runs", type=int, default=5, help="window runs per executable")
    parser.add_argument("--build", action="store_true", help="build a fresh bundle first")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="qkv-bench-") as scratch:
        frozen = build(Path(scratch)) if args.build else args.frozen
        if not frozen.is_file():
            print(f"no frozen app at {frozen}: run packaging/build-linux.sh or pass --build",
                  file=sys.stderr)
            return 2
        size = subprocess.run(["du", "-sh", str(frozen.parent)], capture_output=True,
                              text=True, check=True).stdout.split()[0]
        print(f"frozen: {frozen} ({size})\nvenv:   {args.venv_exe}\ncpus: {os.cpu_count()}")
        home = tempfile.mkdtemp(prefix="home-", dir=scratch)
        executables = {"frozen": frozen, "venv": args.venv_exe}
        if args.installed.exists():
            executables["installed"] = args.installed
            print(f"installed: {args.installed} -> {args.installed.resolve()}")
        measure("start to selftest done", args.runs, executables,
                lambda exe: time_selftest(exe, home))
        if not (ROOT / "app" / "main.py").exists():
            print("\nstart to window: pending (app/main.py does not exist yet)")
            return 0
        server = start_xvfb()
        if server is None:
            print("\nstart to window: skipped (needs Xvfb and xdotool)")
            return 0
        process, display = server
        try:
            measure(f"start to window mapped on Xvfb {display}", args.window_runs, executables,
                    lambda exe: time_window(exe, home, display))
        finally:
            process.terminate()
            process.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
