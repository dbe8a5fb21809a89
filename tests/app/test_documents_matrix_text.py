"""The matrix parser behind paste and File → Import matrix… (Qt-free, never eval)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from app.files.matrix_text import (
    MatrixTextError,
    fit_problem,
    load_matrix_file,
    match_problem,
    parse_matrix_text,
)
from tests.app.hostile_files import hostile_matrix_files

TWO_BY_TWO = [[1.0, 2.0], [3.0, 4.0]]


@pytest.mark.parametrize("text", [
    "1\t2\n3\t4",                                   # spreadsheet cells
    "1\t2\t\n3\t4\t\n",                             # trailing empty cells from a spreadsheet
    "1,2\r\n3,4\r\n",                               # CSV with Windows line ends
    "1;2\n3;4",                                     # semicolons
    "1 2\n  3   4  ",                               # spaces
    '"1","2"\n"3","4"',                             # quoted CSV cells
    "a,b\n1,2\n3,4",                                # a header line of names
    "\n\n1\t2\n\n3\t4\n\n",                         # blank lines
    "1\t2\n3,4",                                    # each line its own separator
    "[[1, 2], [3, 4]]",                             # JSON-like
    "[[1,2],\n [3,4],]".replace(",]", "]"),         # JSON over lines
    "[[1. 2.]\n [3. 4.]]",                          # NumPy's printed form
    "array([[1., 2.],\n       [3., 4.]])",          # NumPy's repr
    "np.array([[1, 2], [3, 4]], dtype=float32)",    # with a dtype
    "\ufeff1\t2\n3\t4",                             # a byte-order mark
])
def test_common_shapes_of_text_read_as_the_same_matrix(text: str) -> None:
    np.testing.assert_array_equal(parse_matrix_text(text), TWO_BY_TWO)


@pytest.mark.parametrize(("text", "expected"), [
    ("[1, 2, 3]", [[1, 2, 3]]),
    ("[ 0.5 -1.  2. ]", [[0.5, -1, 2]]),
    ("1\t2\t3", [[1, 2, 3]]),
    ("7", [[7]]),
    ("1,5;2,5", [[1.5, 2.5]]),                      # decimal comma with semicolons
    ("−1\t2", [[-1, 2]]),                           # a true minus sign
    ("[[1e3, -2.5e-2]]", [[1000, -0.025]]),
])
def test_rows_and_numbers_read_as_a_person_writes_them(text: str,
                                                       expected: list[list[float]]) -> None:
    np.testing.assert_array_equal(parse_matrix_text(text), expected)


@pytest.mark.parametrize(("text", "message"), [
    ("", "there are no numbers to read"),
    ("   \n\t\n", "there are no numbers to read"),
    ("1\t2\n3", "row 2 has 1 number but row 1 has 2; every row needs the same count"),
    ("1\tabc", "line 1, cell 2: “abc” is not a number"),
    ("1\t\t3", "line 1, cell 2 is empty"),
    ("nan 1", "line 1, cell 1: “nan” is not a finite number"),
    ("1e999", "line 1, cell 1: “1e999” is not a finite number"),
    ("[[1, 2], [3, inf]]", "row 2, column 2: “inf” is not a finite number"),
    ("[[1, x]]", "row 1, column 2: “x” is not a number"),
    ("[1, null]", "item 2: “null” is not a number"),
    ("[[1, 2], [3]]", "row 2 has 1 number but row 1 has 2"),
    ("[[1, 2]", "the brackets or commas do not match up"),
    ("[[1,, 2]]", "the brackets or commas do not match up"),
    ("[]", "the brackets hold no numbers"),
    ("[[]]", "there are no numbers to read"),
    ("[[[1]]]", "row 1 holds lists inside: only 1-D or 2-D matrices can be read"),
    ("[1, [2]]", "row 1 is a single number among rows of numbers"),
    ("[" * 100_000 + "1" + "]" * 100_000, "the brackets or commas do not match up"),
    ("__import__('os').system('touch /tmp/pwned')", "is not a number"),
])
def test_bad_text_is_refused_with_one_line_that_says_where(text: str, message: str) -> None:
    with pytest.raises(MatrixTextError) as caught:
        parse_matrix_text(text)
    assert message in str(caught.value)
    assert len(str(caught.value).splitlines()) == 1


def test_huge_text_is_refused_before_it_is_read() -> None:
    with pytest.raises(MatrixTextError, match="at most"):
        parse_matrix_text("1\t" * 3_000_000)


def test_a_matrix_wider_than_the_limit_is_refused() -> None:
    with pytest.raises(MatrixTextError, match="larger than 4096"):
        parse_matrix_text(" ".join(["1"] * 5000))


def test_code_in_the_text_is_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    for text in (f"[[__import__('pathlib').Path({str(marker)!r}).touch()]]",
                 f"1\t__import__('pathlib').Path({str(marker)!r}).touch()"):
        with pytest.raises(MatrixTextError):
            parse_matrix_text(text)
    assert not marker.exists()


FINITE = st.floats(allow_nan=False, allow_infinity=False, width=64, min_value=-1e12,
                   max_value=1e12)
MATRICES = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=6),
                      elements=FINITE)


@settings(max_examples=60, deadline=None)
@given(MATRICES, st.sampled_from(["tsv", "csv", "json", "numpy", "repr"]))
def test_printed_matrices_read_back_exactly(matrix: np.ndarray, form: str) -> None:
    if form == "tsv":
        text = "\n".join("\t".join(repr(float(x)) for x in row) for row in matrix)
    elif form == "csv":
        text = "\r\n".join(",".join(repr(float(x)) for x in row) for row in matrix)
    elif form == "json":
        text = json.dumps(matrix.tolist())
    elif form == "numpy":
        text = np.array2string(matrix, floatmode="unique", threshold=sys.maxsize,
                               max_line_width=80)
    else:
        with np.printoptions(floatmode="unique", threshold=sys.maxsize):
            text = repr(matrix)
    np.testing.assert_array_equal(parse_matrix_text(text), matrix)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("[]0123456789.,;\t \n-+eE()arynanf\"'")),
               max_size=60) | st.text(max_size=40))
def test_any_text_is_read_or_refused_with_a_matrix_text_error(text: str) -> None:
    try:
        values = parse_matrix_text(text)
    except MatrixTextError as error:
        assert len(str(error).splitlines()) == 1
        return
    assert values.ndim == 2 and values.size > 0 and np.isfinite(values).all()


# -- files ---------------------------------------------------------------------------------
def test_npy_files_of_numbers_load_as_float_matrices(tmp_path: Path) -> None:
    np.save(tmp_path / "a.npy", np.array([[1, 2], [3, 4]], dtype=np.int16))
    np.save(tmp_path / "row.npy", np.array([0.5, -1.5], dtype=np.float32))
    np.testing.assert_array_equal(load_matrix_file(tmp_path / "a.npy"), TWO_BY_TWO)
    row = load_matrix_file(tmp_path / "row.npy")
    assert row.dtype == np.float64
    np.testing.assert_array_equal(row, [[0.5, -1.5]])


def npy_header_only(path: Path, shape: tuple[int, ...], dtype: str) -> None:
    """A ``.npy`` file whose header declares ``shape`` and whose data is a sparse hole of zeros:
    a large file that costs no disk and no time to write."""
    with path.open("wb") as stream:
        np.lib.format.write_array_header_1_0(
            stream, {"descr": dtype, "fortran_order": False, "shape": shape})
        stream.truncate(stream.tell() + int(np.prod(shape)) * np.dtype(dtype).itemsize)


@pytest.mark.parametrize(("shape", "dtype", "message"), [
    ((1, 60_000_000), "|i1", "a 1×60000000 matrix is larger than 4096 rows or columns"),
    ((60_000_000,), "|i1", "a 1×60000000 matrix is larger than 4096 rows or columns"),
    ((5000, 3), "<f8", "a 5000×3 matrix is larger than 4096 rows or columns"),
    ((2, 2000, 2000), "|u1", "a 3-D array; only 1-D or 2-D matrices can be imported"),
    ((2, 3), "<f8", "not a NumPy .npy array file (it is cut short)"),
])
def test_npy_shape_is_refused_from_the_header_before_any_conversion(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shape: tuple[int, ...], dtype: str,
        message: str) -> None:
    """A 60 MB int8 array of 1 × 60M is refused by its header: the data is never read (np.load
    is not called) and the peak of memory stays under 1 MB, where converting it to float64
    peaked at 549 MB."""
    import tracemalloc

    path = tmp_path / "big.npy"
    npy_header_only(path, shape, dtype)
    if message.endswith("cut short)"):
        with path.open("r+b") as stream:
            stream.truncate(stream.seek(0, 2) - 1)
    loads: list[object] = []
    monkeypatch.setattr(np, "load", lambda *args, **_kwargs: loads.append(args))
    tracemalloc.start()
    try:
        with pytest.raises(MatrixTextError) as caught:
            load_matrix_file(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(caught.value) == f"big.npy: {message}"
    assert loads == [], "the data was loaded before the shape was checked"
    assert peak < 1_000_000, f"peak {peak} bytes"


def test_csv_and_tsv_files_load(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("x,y\n1,2\n3,4\n", encoding="utf-8")
    (tmp_path / "a.tsv").write_text("1\t2\n3\t4\n", encoding="utf-8")
    for name in ("a.csv", "a.tsv"):
        np.testing.assert_array_equal(load_matrix_file(tmp_path / name), TWO_BY_TWO)


def test_hostile_matrix_files_are_refused_naming_the_file(tmp_path: Path) -> None:
    for key, (path, word) in hostile_matrix_files(tmp_path).items():
        with pytest.raises(MatrixTextError) as caught:
            load_matrix_file(path)
        message = str(caught.value)
        assert message.startswith(f"{path.name}: "), key
        assert word in message, (key, message)
        assert len(message.splitlines()) == 1
    assert not (tmp_path / "unpickled").exists(), "a pickle was loaded"


# -- fitting ---------------------------------------------------------------------------------
def test_fit_and_match_messages_name_both_shapes() -> None:
    assert fit_problem((2, 2), "Wq", (2, 2)) is None
    assert fit_problem((1, 2), "Wq", (2, 2), (1, 0), "Wq[1,0]") is None
    assert fit_problem((3, 2), "Wq", (2, 2)) == \
        "a 3×2 block does not fit Wq, which is 2×2 at the current sizes"
    assert fit_problem((2, 1), "Wq", (2, 2), (1, 0), "Wq[1,0]") == \
        "a 2×1 block pasted at Wq[1,0] does not fit Wq, which is 2×2 at the current sizes"
    assert match_problem((2, 2), "Wq", (2, 2)) is None
    assert match_problem((3, 2), "Wq", (2, 2)) == ("a 3×2 block does not fit Wq, which is 2×2 "
                                                   "at the current sizes (change the sizes "
                                                   "first)")
    assert "does not fill Wq" in str(match_problem((1, 2), "Wq", (2, 2)))


def test_the_parser_needs_no_qt() -> None:
    import subprocess

    code = ("import sys, app.files.matrix_text, app.files.opening\n"
            "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt was imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
