"""How the field scorers read a value as text and as tokens, for the suites that must read values
the same way (the extraction suite's audit, chunk merge and miss attribution).

The public face of the private ``assay._fields._text``: the same functions (the same objects,
so their caches are shared), nothing recomputed.

- ``as_text(value)``: a field value as text (None → "", lists joined by "; ");
- ``is_blank(value)``: the field was not populated (None, blank text, an empty list);
- ``tokens(text)``: normalized word tokens, cached; ``uncached_tokens`` for long texts read
  once; ``token_lists`` for many texts at once; ``content_tokens`` without ``STOPWORDS``;
- ``BYTE_WORDS``: the byte table that turns ASCII text into its tokens separated by spaces;
- ``token_f1(pred, gold)``: SQuAD token F1; ``coverage(expected, prediction)``: the share of
  the expected text's content tokens present in the prediction.
"""

from __future__ import annotations

from assay._fields._text import (
    BYTE_WORDS,
    STOPWORDS,
    as_text,
    content_tokens,
    coverage,
    is_blank,
    token_f1,
    token_lists,
    tokens,
    uncached_tokens,
)

__all__ = [
    "BYTE_WORDS",
    "STOPWORDS",
    "as_text",
    "content_tokens",
    "coverage",
    "is_blank",
    "token_f1",
    "token_lists",
    "tokens",
    "uncached_tokens",
]
