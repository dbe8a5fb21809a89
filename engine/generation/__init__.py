"""Generating and sampling: drawing a token, appending it, the KV cache and growing a trace."""
