"""Label tools shared by the label-classification suites: normalization, equivalent families,
confusion tables and the failure-mode taxonomy (seed 000 §1, §6, §7, §15).

A layer below ``tasks``: suites share these without importing one another.
"""

from assay._labels.confusion import confusion, per_class, top_confusions
from assay._labels.equivalences import (
    DOC_SUBCLASS_EQUIVALENCES,
    SUBTYPE_EQUIVALENCES,
    equivalence_set,
    equivalent,
)
from assay._labels.failure_modes import (
    DOCCLASS_FAILURE_MODES,
    SORTER_FAILURE_MODES,
    classify_docclass_failure,
    classify_failure,
    summarize_failures,
)
from assay._labels.normalize import (
    ERROR_PREFIX,
    is_blank,
    is_error_output,
    label_key,
    normalize_label,
)
from assay._labels.subtypes import (
    CONTRACT_SUBTYPE_KEYS,
    CUAD_FOLDERS,
    normalize_subtype,
)

__all__ = [
    "CONTRACT_SUBTYPE_KEYS",
    "CUAD_FOLDERS",
    "DOCCLASS_FAILURE_MODES",
    "DOC_SUBCLASS_EQUIVALENCES",
    "ERROR_PREFIX",
    "SORTER_FAILURE_MODES",
    "SUBTYPE_EQUIVALENCES",
    "classify_docclass_failure",
    "classify_failure",
    "confusion",
    "equivalence_set",
    "equivalent",
    "is_blank",
    "is_error_output",
    "label_key",
    "normalize_label",
    "normalize_subtype",
    "per_class",
    "summarize_failures",
    "top_confusions",
]
