"""Files and memory: regular files only, whole replacements, no output over an input, what fits."""
