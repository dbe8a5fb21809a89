"""Mending Qt's ToUnicode maps: the text each glyph code gets, and the incremental update."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from app.export.pdf_text import parse_cmap, readable, searchable_pdf, write_cmap

QT_CMAP = (b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
           b"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n3 beginbfrange\n"
           b"<0000> <0000> <0000>\n<0001> <0003> [<0009> <2F8F> <FB01> ]\n"
           b"<0010> <0012> <0041>\nendbfrange\nendcmap\n")
"""As Qt writes one: a list range (tab, the radical ⾏, the ligature ﬁ) and a linear range."""


def test_parse_reads_list_and_linear_ranges() -> None:
    assert parse_cmap(QT_CMAP) == {0: "\0", 1: "\t", 2: "\u2f8f", 3: "\ufb01", 16: "A",
                                   17: "B", 18: "C"}


def test_readable_gives_the_ideograph_the_letters_the_space_and_the_en_dash(
        qapp: QApplication) -> None:
    """⾏ (U+2F8F) and ⻓ (U+2ED3) share 行 and 长's glyphs in Noto Sans CJK SC."""
    assert readable("\u2f8f\u2ed3\ufb01\ufb00\t\u2012x") == "行长fiff –x"


def test_written_cmap_reads_back_and_leaves_out_notdef() -> None:
    mapping = {0: "\0", 1: " ", 2: "行", 3: "fi", 200: "Z"}
    assert parse_cmap(write_cmap(mapping)) == {1: " ", 2: "行", 3: "fi", 200: "Z"}
    assert b"<0003> <00660069>" in write_cmap(mapping)


def qt_pdf(cmap: bytes) -> bytes:
    """The skeleton of a PDF as Qt writes it: a font naming its map, the map, the trailer."""
    return (b"%PDF-1.4\n5 0 obj\n<< /ToUnicode 7 0 R >>\nendobj\n7 0 obj\n<< /Length "
            + str(len(cmap)).encode() + b" >>\nstream\n" + cmap + b"\nendstream\nendobj\n"
            b"xref\n0 8\ntrailer\n<<\n/Size 8\n/Root 5 0 R\n>>\nstartxref\n123\n%%EOF\n")


def test_update_replaces_the_map_and_points_back(qapp: QApplication) -> None:
    pdf = qt_pdf(QT_CMAP)
    mended = searchable_pdf(pdf)
    assert mended.startswith(pdf)
    update = mended[len(pdf):]
    assert update.startswith(b"7 0 obj\n") and b"/Prev 123" in update
    offset = int(update.split(b"startxref\n")[1].split(b"\n")[0])
    assert mended[offset:].startswith(b"xref\n7 1\n%010d 00000 n \n" % len(pdf))
    assert parse_cmap(update)[2] == "行"


def test_a_map_that_reads_right_is_left_alone(qapp: QApplication) -> None:
    pdf = qt_pdf(QT_CMAP.replace(b"<0009> <2F8F> <FB01>", b"<0020> <884C> <0066>"))
    assert searchable_pdf(pdf) == pdf
