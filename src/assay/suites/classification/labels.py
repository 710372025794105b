"""Label normalization (seed 000 §1), re-exported from ``assay._labels`` where every
label-classification suite shares it."""

from assay._labels.normalize import ERROR_PREFIX, is_error_output, normalize_label

__all__ = ["ERROR_PREFIX", "is_error_output", "normalize_label"]
