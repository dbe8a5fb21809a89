"""Help beside the canvas: each step explained under four headings, and the glossary."""
