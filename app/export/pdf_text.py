"""The text behind the glyphs of Qt's PDF pages, mended so a search, a copy or a screen reader
reads the words the page shows.

Qt writes each font's ``ToUnicode`` map from the font's cmap alone, giving every glyph the
lowest code point the cmap draws with it. Where a CJK face draws a radical and an ideograph
with one glyph, the ideograph is written as the radical (行 as ⾏ U+2F8F, 长 as ⻓ U+2ED3);
the ``fi`` ligature comes out as ``ﬁ``, the en dash as a figure dash, the space as a tab.
:func:`searchable_pdf` rewrites those maps. The glyphs a font reaches only through its
substitutions get no text at all: the frame's font leaves the one that did so for digits,
``locl``, off (see :func:`app.canvas.theme.font`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from PySide6.QtGui import QFontDatabase, QRawFont

from app.canvas.theme import font

RADICALS = range(0x2E80, 0x2FE0)
"""CJK Radicals Supplement and Kangxi Radicals: never in the frames' words, but what Qt writes
for the ideographs whose glyph a radical shares."""
IDEOGRAPHS = range(0x4E00, 0xA000)
LIGATURES = range(0xFB00, 0xFB07)
"""ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ: the letters they join (their compatibility decomposition)."""
LOOKALIKES = {"\u2012": "\u2013"}
"""A figure dash is the en dash's glyph in the CJK face and comes first: the words use the en
dash (``1–3``)."""
_TO_UNICODE = re.compile(rb"/ToUnicode (\d+) 0 R")
_RANGE = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(\[[^\]]*\]|<[0-9A-Fa-f]*>)")
_HEX = re.compile(rb"<([0-9A-Fa-f]*)>")
_CHAR = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>")
_BLOCK = re.compile(rb"beginbf(char|range)(.*?)endbf\1", re.S)
_TRAILER = re.compile(rb"trailer\s*<<(.*?)>>\s*startxref\s*(\d+)", re.S)
ENTRIES_PER_BLOCK = 100
"""A CMap's ``beginbfchar`` block holds at most 100 entries."""
CMAP_HEAD = (b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
             b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
             b"/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
             b"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n")
CMAP_TAIL = b"endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"


@cache
def shared_radicals() -> dict[str, str]:
    """Each radical the frame's CJK face draws with an ideograph's glyph, and that ideograph
    (⾏ → 行, ⻓ → 长): the same face Qt read its map from."""
    raw = QRawFont.fromFont(font(), QFontDatabase.WritingSystem.SimplifiedChinese)
    ideographs = "".join(map(chr, IDEOGRAPHS))
    by_glyph: dict[int, str] = {}
    for ideograph, glyph in zip(ideographs, raw.glyphIndexesForString(ideographs), strict=True):
        if glyph:
            by_glyph.setdefault(glyph, ideograph)
    radicals = "".join(map(chr, RADICALS))
    return {radical: by_glyph[glyph]
            for radical, glyph in zip(radicals, raw.glyphIndexesForString(radicals), strict=True)
            if glyph in by_glyph}


def readable(text: str) -> str:
    """The text a glyph stands for, from the text Qt gave it: the ideograph for a radical that
    shares its glyph, a ligature's letters, a space for a tab or a line break."""
    result = []
    for ch in text:
        if ord(ch) in RADICALS:
            result.append(shared_radicals().get(ch, ch))
        elif ord(ch) in LIGATURES:
            result.append(unicodedata.normalize("NFKC", ch))
        elif "\t" <= ch <= "\r":
            result.append(" ")
        else:
            result.append(LOOKALIKES.get(ch, ch))
    return "".join(result)


def parse_cmap(cmap: bytes) -> dict[int, str]:
    """The glyph codes of a ``ToUnicode`` CMap (``bfrange`` entries, a linear range or a list,
    as Qt writes them, and ``bfchar`` entries, as :func:`write_cmap` does) and the text of
    each."""
    mapping: dict[int, str] = {}
    for kind, block in _BLOCK.findall(cmap):
        if kind == b"char":
            mapping.update((int(code, 16), _utf16(text)) for code, text in _CHAR.findall(block))
        else:
            mapping.update(_ranges(block))
    return mapping


def _ranges(block: bytes) -> dict[int, str]:
    mapping: dict[int, str] = {}
    for start, end, target in _RANGE.findall(block):
        first, last = int(start, 16), int(end, 16)
        if target.startswith(b"["):
            for code, text in zip(range(first, last + 1), _HEX.findall(target), strict=False):
                mapping[code] = _utf16(text)
        else:
            text = _utf16(target[1:-1])
            for offset, code in enumerate(range(first, last + 1)):
                mapping[code] = text[:-1] + chr(ord(text[-1]) + offset) if text else text
    return mapping


def _utf16(hex_text: bytes) -> str:
    return bytes.fromhex(hex_text.decode("ascii")).decode("utf-16-be", "replace")


def write_cmap(mapping: dict[int, str]) -> bytes:
    """A ``ToUnicode`` CMap of ``mapping`` in ``bfchar`` blocks (code 0, .notdef, has none)."""
    entries = [b"<%04X> <%s>" % (code, text.encode("utf-16-be").hex().upper().encode("ascii"))
               for code, text in sorted(mapping.items()) if code and text]
    blocks = [entries[i:i + ENTRIES_PER_BLOCK] for i in range(0, len(entries),
                                                              ENTRIES_PER_BLOCK)]
    body = b"".join(b"%d beginbfchar\n%s\nendbfchar\n" % (len(block), b"\n".join(block))
                    for block in blocks)
    return CMAP_HEAD + body + CMAP_TAIL


def _stream(pdf: bytes, number: int) -> bytes | None:
    """The content of object ``number`` when it is an unfiltered stream, as Qt writes a
    ``ToUnicode`` map."""
    match = re.search(rb"(?:^|\n)%d 0 obj\s*<<\s*/Length (\d+)\s*>>\s*stream\r?\n" % number, pdf)
    if match is None:
        return None
    return pdf[match.end():match.end() + int(match.group(1))]


def searchable_pdf(pdf: bytes) -> bytes:
    """``pdf`` (written by ``QPdfWriter``) with every font's text map mended (see the module's
    note), as an incremental update appended to it; unchanged when no map needs it."""
    mended: dict[int, bytes] = {}
    for number in sorted({int(found) for found in _TO_UNICODE.findall(pdf)}):
        cmap = _stream(pdf, number)
        if cmap is None:
            continue
        mapping = parse_cmap(cmap)
        fixed = {code: readable(text) for code, text in mapping.items()}
        if fixed != mapping:
            mended[number] = write_cmap(fixed)
    return _append_update(pdf, mended) if mended else pdf


def _append_update(pdf: bytes, objects: dict[int, bytes]) -> bytes:
    """``pdf`` with ``objects`` (number → stream content) replaced by an incremental update:
    the new objects, their cross-reference section and a trailer pointing back to the last."""
    trailers = list(_TRAILER.finditer(pdf))
    if not trailers:
        return pdf
    trailer, previous = trailers[-1].group(1), int(trailers[-1].group(2))
    out = bytearray(pdf if pdf.endswith(b"\n") else pdf + b"\n")
    offsets = {}
    for number, content in sorted(objects.items()):
        offsets[number] = len(out)
        out += b"%d 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n" % (
            number, len(content), content)
    xref = len(out)
    out += b"xref\n" + b"".join(b"%d 1\n%010d 00000 n \n" % (number, offset)
                                for number, offset in offsets.items())
    trailer = re.sub(rb"/Prev\s+\d+", b"", trailer)
    out += b"trailer\n<<%s/Prev %d\n>>\nstartxref\n%d\n%%%%EOF\n" % (trailer, previous, xref)
    return bytes(out)
