"""Per-cell arithmetic and how numbers are printed: terms, decimals, two traces compared."""
