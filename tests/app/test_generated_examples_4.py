"""The generated documents' example 10 of 10 (BERT's masked-LM head) opens, draws, tells and
exports (split so that two test workers share them: test_generated_documents.py)."""

from tests.app.generated_checks import examples_test

test_the_example_opens_draws_tells_and_exports = examples_test(9, 10)
