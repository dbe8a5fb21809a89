"""The scenario: its modules, the tree of them, their names, and edits that keep a lesson."""
