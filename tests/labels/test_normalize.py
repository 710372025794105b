"""normalize_label's per-label-set cache gives what deriving the keys on every call gives."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

import assay._labels.normalize as normalize_module
from assay._labels.normalize import label_key, normalize_label, normalized_labels

labels = st.lists(
    st.sampled_from(["spam", "ham", "Not Spam", "mixed-use", "a b", "x_y"]), max_size=5
)
outputs = st.sampled_from(
    ["spam", "HAM", "it is not spam", '"mixed use"', '{"label": "Ham"}', "a  b c", "none", ""]
)


def _uncached(value: str, valid: list[str]) -> str:
    """The rules with the keys derived on the call (what the cache must reproduce)."""
    text = value.strip().strip("\"'`“”‘’ \t\r\n").strip().lower()
    text = re.sub(r"\s+", " ", text)
    keys = sorted({label_key(v) for v in valid})
    if label_key(text) in keys:
        return label_key(text)
    best = None
    for key in keys:
        m = normalize_module._label_pattern(key).search(text)
        if m:
            cand = (-(m.end() - m.start()), m.start(), key)
            best = cand if best is None or cand < best else best
    return best[2] if best else label_key(text)


@settings(max_examples=200, deadline=None)
@given(
    valid=labels.filter(bool),
    values=st.lists(outputs.filter(lambda v: not v.startswith("{")), max_size=6),
)
def test_cached_label_set_gives_the_uncached_answer(valid: list[str], values: list[str]) -> None:
    for value in values:
        assert normalize_label(value, valid) == _uncached(value, valid)
    assert normalized_labels(valid) == {normalize_label(v) for v in valid}


def test_a_label_set_that_grew_is_derived_anew() -> None:
    valid = ["spam"]
    assert normalize_label("ham", valid) == "ham" and normalized_labels(valid) == {"spam"}
    valid.append("ham")
    assert normalized_labels(valid) == {"spam", "ham"}
    assert normalize_label("it's ham", valid) == "ham"
    # an equal but distinct set is its own entry; the cache stays bounded
    for k in range(3 * normalize_module._DERIVED_MAX):
        normalized_labels([f"l{k}"])
    assert len(normalize_module._DERIVED) <= normalize_module._DERIVED_MAX
