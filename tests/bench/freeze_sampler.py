"""Where the interface thread is while the window is frozen: a thread samples the main thread's
stack every few milliseconds once the window's 10-ms timer has not ticked for ``after`` ms, and
adds the samples up by the label of the action measured (``--profile`` of
:mod:`tests.bench.bench_window_scale`). Samples land at the frozen thread's next Python line
(a C call holding the GIL delays them): a guide to what blocks, not a clock."""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter, defaultdict
from types import FrameType

INTERVAL = 0.005


def _stack(frame: FrameType | None) -> tuple[str, ...]:
    found = []
    while frame is not None:
        code = frame.f_code
        found.append(f"{code.co_filename.rsplit('/', 2)[-1]}:{code.co_name}:{frame.f_lineno}")
        frame = frame.f_back
    return tuple(reversed(found))


class FreezeSampler:
    """Samples the main thread while it has not ticked :meth:`tick` for ``after`` ms."""

    def __init__(self, after: float = 0.04) -> None:
        self.after = after
        self.last = time.perf_counter()
        self.label = ""
        self.samples: defaultdict[str, Counter[tuple[str, ...]]] = defaultdict(Counter)
        self.freezes: defaultdict[str, list[Counter[tuple[str, ...]]]] = defaultdict(list)
        """Per label, each freeze's own samples (the longest is printed on its own)."""
        self._in_freeze = False
        self._main = threading.main_thread().ident
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def tick(self) -> None:
        self.last = time.perf_counter()

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(INTERVAL):
            if time.perf_counter() - self.last < self.after:
                self._in_freeze = False
                continue
            label = self.label  # read once: the main thread may set another meanwhile
            if not self._in_freeze or not self.freezes[label]:
                self._in_freeze = True
                self.freezes[label].append(Counter())
            frame = sys._current_frames().get(self._main or 0)
            if frame is not None:
                stack = _stack(frame)
                self.samples[label][stack] += 1
                self.freezes[label][-1][stack] += 1

    def report(self, top: int = 12) -> None:
        """Per label: the functions most often on the frozen stack (inclusive) and at its top,
        over all its freezes, then over its longest freeze alone."""
        for label, stacks in self.samples.items():
            total = sum(stacks.values())
            print(f"\n== {label}: {total} samples (~{total * INTERVAL * 1000:.0f} ms frozen)")
            _summed(stacks, top)
            longest = max(self.freezes[label], key=lambda freeze: sum(freeze.values()))
            count = sum(longest.values())
            print(f"  -- its longest freeze alone: {count} samples "
                  f"(~{count * INTERVAL * 1000:.0f} ms past the first {self.after * 1000:.0f})")
            _summed(longest, top, share=0.98)


def _summed(stacks: Counter[tuple[str, ...]], top: int, share: float = 0.9) -> None:
    """The functions most often on ``stacks`` (inclusive, those on more than ``share`` of the
    samples left out), then at their top."""
    total = sum(stacks.values())
    inclusive: Counter[str] = Counter()
    leaf: Counter[str] = Counter()
    for stack, count in stacks.items():
        for name in {s.rsplit(':', 1)[0] for s in stack}:
            inclusive[name] += count
        leaf[stack[-1]] += count
    print(f"  inclusive (those on over {share:.0%} of the samples left out):")
    for name, count in [(name, count) for name, count in inclusive.most_common()
                        if count <= share * total][:top * 2]:
        print(f"    {count * INTERVAL * 1000:7.0f} ms  {name}")
    print("  at the top:")
    for name, count in leaf.most_common(top):
        print(f"    {count * INTERVAL * 1000:7.0f} ms  {name}")
