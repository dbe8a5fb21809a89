"""Matrix files that must be refused (Qt-free), shared by the parser and window tests."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np


class Payload:
    """Unpickling this would create a file: proof that nothing is ever unpickled."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Path.touch, (str(self.marker),))  # type: ignore[return-value]


def hostile_matrix_files(folder: Path) -> dict[str, tuple[Path, str]]:
    """Files that must be refused, with a word their message must hold."""
    marker = folder / "unpickled"
    objects = np.empty(2, dtype=object)
    objects[0], objects[1] = Payload(marker), 1
    np.save(folder / "objects.npy", objects, allow_pickle=True)
    (folder / "pickle.npy").write_bytes(pickle.dumps(Payload(marker)))
    np.save(folder / "cube.npy", np.zeros((2, 2, 2)))
    np.save(folder / "scalar.npy", np.float64(3))
    np.save(folder / "complex.npy", np.array([[1 + 2j]]))
    np.save(folder / "bools.npy", np.array([[True]]))
    np.save(folder / "nan.npy", np.array([[1.0, np.nan]]))
    np.save(folder / "inf.npy", np.array([[1.0], [-np.inf]]))
    np.save(folder / "empty.npy", np.zeros((0, 3)))
    np.save(folder / "text.npy", np.array([["a", "b"]]))
    np.savez(folder / "several.npz", a=np.zeros(2), b=np.ones(2))
    np.save(folder / "wide.npy", np.zeros((1, 5000)))
    good = (folder / "cube.npy").read_bytes()
    (folder / "truncated.npy").write_bytes(good[: len(good) // 2])
    (folder / "random.npy").write_bytes(bytes(range(256)) * 4)
    (folder / "binary.csv").write_bytes(b"1,2\x00\x01\x02")
    (folder / "latin1.csv").write_bytes("1,2\n\xe9".encode("latin-1"))
    (folder / "folder.csv").mkdir()
    with (folder / "huge.npy").open("wb") as stream:
        stream.truncate(2**30)  # a sparse 1 GB file
    return {
        "objects": (folder / "objects.npy", "Python objects"),
        "pickle": (folder / "pickle.npy", "not a NumPy .npy"),
        "cube": (folder / "cube.npy", "3-D"),
        "scalar": (folder / "scalar.npy", "0-D"),
        "complex": (folder / "complex.npy", "complex128"),
        "bools": (folder / "bools.npy", "bool"),
        "nan": (folder / "nan.npy", "NaN at row 0, column 1"),
        "inf": (folder / "inf.npy", "infinity at row 1, column 0"),
        "empty": (folder / "empty.npy", "empty"),
        "text": (folder / "text.npy", "<U1"),
        "npz": (folder / "several.npz", ".npz archive"),
        "wide": (folder / "wide.npy", "larger than 4096"),
        "truncated": (folder / "truncated.npy", "not a NumPy .npy"),
        "random": (folder / "random.npy", "not a NumPy .npy"),
        "binary": (folder / "binary.csv", "binary file"),
        "latin1": (folder / "latin1.csv", "not UTF-8"),
        "folder": (folder / "folder.csv", "folder"),
        "huge": (folder / "huge.npy", "limited to"),
        "missing": (folder / "missing.csv", "cannot be read"),
    }
