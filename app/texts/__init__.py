"""QKV Studio's bilingual teaching texts (English and Simplified Chinese). Imports no Qt.

For every step of a trace: a translated title (:func:`step_title`), a one-line summary and four
short texts under the headings why / how / pitfalls / check (:func:`step_text`), and speaker
notes combining them (:func:`speaker_notes`). A glossary of the domain's terms
(:func:`glossary`) with :func:`linked_terms` to find those terms inside any text.

The window, the exporters and the command line all read these texts.
"""

from app.texts.frame_words import join_notes
from app.texts.links import linked_terms
from app.texts.lookup import EXPLAIN_KEYS, glossary, glossary_entry, step_sections, step_text
from app.texts.model import (
    LANGUAGES,
    TERM_IDS,
    GlossaryEntry,
    StepText,
    check_language,
)
from app.texts.notes import speaker_notes
from app.texts.step_labels import step_label
from app.texts.titles import step_title
from app.texts.words import HEADINGS, LANGUAGE_NAMES

__all__ = [
    "EXPLAIN_KEYS",
    "HEADINGS",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "TERM_IDS",
    "GlossaryEntry",
    "StepText",
    "check_language",
    "glossary",
    "glossary_entry",
    "join_notes",
    "linked_terms",
    "speaker_notes",
    "step_label",
    "step_sections",
    "step_text",
    "step_title",
]
