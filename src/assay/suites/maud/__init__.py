"""The MAUD suite (seed 000 §8)."""

from assay._legal.answers import (
    MAUD_CONSIDERATION_ALIASES,
    MAUD_CONSIDERATION_KEYS,
    normalize_maud_consideration,
)
from assay.suites.maud.settings import MaudSettings
from assay.suites.maud.task import MaudTask

task = MaudTask()

__all__ = [
    "MAUD_CONSIDERATION_ALIASES",
    "MAUD_CONSIDERATION_KEYS",
    "MaudSettings",
    "MaudTask",
    "normalize_maud_consideration",
    "task",
]
