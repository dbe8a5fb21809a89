"""The forward pass: the tape of typed steps, the trace it writes, and the numerics of each op."""
