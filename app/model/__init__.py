"""The document under the window and what is read from it, with no Qt: the named edits, the
parts of the tree, the outline, a step's operands, the slide sheet, the built-in examples."""
