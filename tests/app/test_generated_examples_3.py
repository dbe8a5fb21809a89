"""The generated documents' examples 7 to 9 of 10 open, draw, tell and export (split so
that two test workers share them: test_generated_documents.py)."""

from tests.app.generated_checks import examples_test

test_the_example_opens_draws_tells_and_exports = examples_test(6, 9)
