"""A smaller ICU data library for the bundle: only the items QKV Studio's Qt loads.

QtCore links ICU, and ICU's data library (``libicudata.so.73``, 31 MB) is one symbol,
``icudt73_dat``, holding a "common data" package: a header, a table of contents (item names,
sorted, and offsets) and the items, each 16-byte aligned. :func:`read_package` splits it,
:func:`write_package` writes one with only some items, and :func:`build_library` links that into
a shared library with the same soname and symbol (``ld`` and ``objcopy`` from binutils), so
libicuuc finds it as before.

Which items to keep was measured (packaging/README.md): the app run over every example, export
format, dialog and both languages with the items as separate files, recording which ICU opened.

    python packaging/icu_data.py SOURCE_LIB OUT_LIB [ITEM_PATTERN …]
"""

from __future__ import annotations

import fnmatch
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ALIGNMENT = 16
MAGIC = b"\xda\x27"
FORMAT = b"CmnD"
KEEP = (
    # What Qt opened (QCollator in the file dialog, time-zone names, QLocale, codec lookup) in the
    # app's paths, in Chinese and English; plus ICU's small core tables and the break rules.
    "cnvalias.icu", "gb18030.cnv", "*.icu", "*.nrm", "*.spp", "*.cfu",
    "root.res", "pool.res", "res_index.res", "en.res", "en_US*.res", "zh.res", "zh_*.res",
    "supplementalData.res", "likelySubtags.res", "keyTypeData.res", "metadata.res",
    "metaZones.res", "timezoneTypes.res", "zoneinfo64.res", "windowsZones.res",
    "numberingSystems.res",
    "coll/root.res", "coll/res_index.res", "coll/ucadata.icu", "coll/en*.res", "coll/zh*.res",
    "zone/root.res", "zone/pool.res", "zone/res_index.res", "zone/en.res", "zone/en_US*.res",
    "zone/zh.res", "zone/zh_*.res",
    "brkitr/root.res", "brkitr/res_index.res", "brkitr/en.res", "brkitr/zh*.res", "brkitr/*.brk",
)


class PackageError(ValueError):
    """The bytes are not an ICU common data package this module can read."""


def _symbol_extent(library: Path, symbol: str) -> tuple[int, int]:
    """File offset and size of ``symbol`` in ``library`` (via ``nm`` and ``readelf``)."""
    listing = subprocess.run(["nm", "-D", "--defined-only", "-S", str(library)],
                             capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[3] == symbol:
            address, size = int(fields[0], 16), int(fields[1], 16)
            break
    else:
        raise PackageError(f"{library}: no symbol {symbol}")
    sections = subprocess.run(["readelf", "-lW", str(library)], capture_output=True, text=True,
                              check=True).stdout
    for line in sections.splitlines():
        fields = line.split()
        if fields and fields[0] == "LOAD":
            offset, virtual, file_size = int(fields[1], 16), int(fields[2], 16), int(fields[4], 16)
            if virtual <= address < virtual + file_size:
                return offset + address - virtual, size
    raise PackageError(f"{library}: {symbol} is not in a loaded segment")


def data_symbol(library: Path) -> str:
    """``icudt73_dat`` for ``libicudata.so.73``."""
    return f"icudt{library.name.split('.so.')[1].split('.')[0]}_dat"


def extract_package(library: Path) -> bytes:
    """The common data package inside an ICU data library."""
    offset, size = _symbol_extent(library, data_symbol(library))
    with library.open("rb") as handle:
        handle.seek(offset)
        return handle.read(size)


def read_package(data: bytes) -> tuple[bytes, dict[str, bytes]]:
    """The package's header and its items by name (``icudt73l/coll/root.res``)."""
    if len(data) < 32:
        raise PackageError(f"{len(data)} bytes is too short for an ICU data package")
    header_size = struct.unpack_from("<H", data)[0]
    if data[2:4] != MAGIC or data[12:16] != FORMAT or data[8] != 0:
        raise PackageError("not a little-endian ICU common data package (CmnD)")
    count = struct.unpack_from("<I", data, header_size)[0]
    toc = header_size
    entries = [struct.unpack_from("<II", data, toc + 4 + 8 * i) for i in range(count)]
    items: dict[str, bytes] = {}
    for index, (name_offset, data_offset) in enumerate(entries):
        end = entries[index + 1][1] if index + 1 < count else len(data) - toc
        name_end = data.index(b"\0", toc + name_offset)
        items[data[toc + name_offset:name_end].decode("ascii")] = data[toc + data_offset:toc + end]
    return data[:header_size], items


def _padded(block: bytes) -> bytes:
    return block + b"\xaa" * (-len(block) % ALIGNMENT)  # ICU pads with 0xaa


def write_package(header: bytes, items: dict[str, bytes]) -> bytes:
    """A package with ``header`` and ``items`` (names sorted as ICU's binary search expects)."""
    names = sorted(items, key=lambda name: name.encode("ascii"))
    table_size = 4 + 8 * len(names)
    name_blob = b"".join(name.encode("ascii") + b"\0" for name in names)
    name_offsets, offset = [], table_size
    for name in names:
        name_offsets.append(offset)
        offset += len(name) + 1
    data_start = len(_padded(b"\0" * (len(header) + offset))) - len(header)
    body, data_offsets = b"", []
    for name in names:
        data_offsets.append(data_start + len(body))
        body += _padded(items[name])
    table = struct.pack("<I", len(names)) + b"".join(
        struct.pack("<II", n, d) for n, d in zip(name_offsets, data_offsets, strict=True))
    prefix = _padded(header + table + name_blob)
    return prefix + body


def select(items: dict[str, bytes], patterns: tuple[str, ...] = KEEP) -> dict[str, bytes]:
    """The items whose name, after the package folder (``icudt73l/``), matches a pattern."""
    return {name: data for name, data in items.items()
            if any(fnmatch.fnmatchcase(name.split("/", 1)[1], pattern) for pattern in patterns)}


def build_library(package: bytes, symbol: str, soname: str, out: Path) -> None:
    """Link ``package`` into a shared library exporting it as ``symbol`` (read-only data)."""
    with tempfile.TemporaryDirectory() as scratch:
        blob = Path(scratch) / "package.bin"
        blob.write_bytes(package)
        obj = Path(scratch) / "package.o"
        subprocess.run(["ld", "-r", "-b", "binary", "-o", str(obj), blob.name], cwd=scratch,
                       check=True)
        subprocess.run(["objcopy", "--rename-section",
                        ".data=.rodata,alloc,load,readonly,data,contents",
                        "--set-section-alignment", f".rodata={ALIGNMENT}",
                        "--redefine-sym", f"_binary_package_bin_start={symbol}",
                        "--strip-symbol", "_binary_package_bin_end",
                        "--strip-symbol", "_binary_package_bin_size", str(obj)], check=True)
        subprocess.run(["ld", "-shared", "-z", "noexecstack", "-soname", soname, "-o", str(out),
                        str(obj)], check=True)


def shrink(source: Path, out: Path, patterns: tuple[str, ...] = KEEP) -> tuple[int, int]:
    """Write the smaller library for ``source`` to ``out``; the item counts before and after."""
    header, items = read_package(extract_package(source))
    kept = select(items, patterns)
    build_library(write_package(header, kept), data_symbol(source), source.name, out)
    return len(items), len(kept)


if __name__ == "__main__":
    before, after = shrink(Path(sys.argv[1]), Path(sys.argv[2]), tuple(sys.argv[3:]) or KEEP)
    print(f"icu_data.py: kept {after} of {before} items in {sys.argv[2]}")
