"""The matrix editor: every input of the scenario as an editable grid."""
