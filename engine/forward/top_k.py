"""The k largest shares of a row in ``torch.topk``'s order, equal shares included.

A router that gives two experts the same share (a teacher's router of zeros gives every expert
the same) must choose the experts transformers chooses. ``torch.topk`` on the CPU does not keep
the lower index first: for k · 64 > E it runs ``std::nth_element`` to put the k-th largest in
place, then ``std::sort`` on the k − 1 before it; for k · 64 ≤ E ``std::partial_sort``, which for
its heap. Both are libstdc++'s, and are replayed here step by step (median-of-three pivot,
unguarded partition, insertion sort of three or fewer; the heap's sift down and up); the sort
of the k − 1 (at most 16: k ≤ 17) is libstdc++'s insertion sort, which keeps equal shares in
place.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.format.reader import FloatArray

Before = Callable[[int, int], bool]


def _insertion_sort(order: list[int], first: int, last: int, before: Before) -> None:
    for i in range(first + 1, last):
        value, j = order[i], i
        if before(value, order[first]):
            order[first + 1:i + 1] = order[first:i]
            order[first] = value
            continue
        while before(value, order[j - 1]):
            order[j] = order[j - 1]
            j -= 1
        order[j] = value


def _median_to_first(order: list[int], result: int, a: int, b: int, c: int,
                     before: Before) -> None:
    def swap(i: int) -> None:
        order[result], order[i] = order[i], order[result]

    if before(order[a], order[b]):
        swap(b if before(order[b], order[c]) else c if before(order[a], order[c]) else a)
    else:
        swap(a if before(order[a], order[c]) else c if before(order[b], order[c]) else b)


def _partition(order: list[int], first: int, last: int, before: Before) -> int:
    """libstdc++'s ``__unguarded_partition_pivot``: the cut after moving the median of three
    to ``first`` as the pivot."""
    _median_to_first(order, first, first + 1, first + (last - first) // 2, last - 1, before)
    pivot, low, high = order[first], first + 1, last
    while True:
        while before(order[low], pivot):
            low += 1
        high -= 1
        while before(pivot, order[high]):
            high -= 1
        if low >= high:
            return low
        order[low], order[high] = order[high], order[low]
        low += 1


def _nth_element(order: list[int], nth: int, before: Before) -> None:
    """libstdc++'s ``std::nth_element`` (its introselect's depth limit, 2·⌊log₂ E⌋ halvings, is
    never reached by rows of at most 128 experts cut near the middle; it is not replayed)."""
    first, last = 0, len(order)
    while last - first > 3:
        cut = _partition(order, first, last, before)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(order, first, last, before)


def _adjust_heap(order: list[int], hole: int, length: int, value: int,
                 before: Before) -> None:
    """libstdc++'s ``__adjust_heap`` (then ``__push_heap``) on ``order[:length]``."""
    top = second = hole
    while second < (length - 1) // 2:
        second = 2 * (second + 1)
        if before(order[second], order[second - 1]):
            second -= 1
        order[hole] = order[second]
        hole = second
    if length % 2 == 0 and second == (length - 2) // 2:
        second = 2 * (second + 1)
        order[hole] = order[second - 1]
        hole = second - 1
    parent = (hole - 1) // 2
    while hole > top and before(order[parent], value):
        order[hole] = order[parent]
        hole = parent
        parent = (hole - 1) // 2
    order[hole] = value


def _pop_heap(order: list[int], length: int, result: int, before: Before) -> None:
    value = order[result]
    order[result] = order[0]
    _adjust_heap(order, 0, length, value, before)


def _partial_sort(order: list[int], k: int, before: Before) -> None:
    """libstdc++'s ``std::partial_sort``: a heap of the first k, each later one that comes
    before its top swapped in, then the heap sorted."""
    for parent in range((k - 2) // 2, -1, -1):
        _adjust_heap(order, parent, k, order[parent], before)
    for i in range(k, len(order)):
        if before(order[i], order[0]):
            _pop_heap(order, k, i, before)
    for last in range(k - 1, 0, -1):
        _pop_heap(order, last, last, before)


def top_k(shares: FloatArray, k: int) -> FloatArray:
    """Each row's k chosen experts (as numbers, n × k), largest share first, as ``torch.topk``
    orders them."""
    chosen = np.zeros((shares.shape[0], k), dtype=np.float64)
    for i, row in enumerate(shares.tolist()):
        def before(a: int, b: int, row: list[float] = row) -> bool:
            return row[a] > row[b]
        order = list(range(len(row)))
        if k * 64 <= len(row):
            _partial_sort(order, k, before)
        else:
            _nth_element(order, k - 1, before)
            _insertion_sort(order, 0, k - 1, before)
        chosen[i] = order[:k]
    return chosen


__all__ = ["top_k"]
