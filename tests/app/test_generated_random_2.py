"""Documents drawn at random open, draw, tell and export (split so that two test workers share
them: test_generated_documents.py)."""

from tests.app.generated_checks import drawn_test

test_a_drawn_document_opens_draws_tells_and_exports = drawn_test()
