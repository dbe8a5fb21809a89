"""Reading a computed trace: the logit lens and attention sinks."""
