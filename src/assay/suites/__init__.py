"""Task suites: one package each, registered under the ``assay.tasks`` entry-point group.

``BUILTIN_TASKS`` names the suites assay ships as pyproject.toml's entry points do. The engine's
task registry sits below the suites and names none of them: ``assay/__init__.py`` hands it this
table at start-up, so a built-in suite is found without reading any distribution's metadata.
"""

from __future__ import annotations

#: the built-in suites: name → ``module:attribute`` of the suite's task (the same values as
#: their ``assay.tasks`` entry points; tests/engine/test_registry.py checks they agree)
BUILTIN_TASKS: dict[str, str] = {
    "classification": "assay.suites.classification:task",
    "translation": "assay.suites.translation:task",
    "extraction": "assay.suites.extraction:task",
    "biblio": "assay.suites.biblio:task",
    "claims": "assay.suites.claims:task",
    "contracteval": "assay.suites.contracteval:task",
    "legalbench": "assay.suites.legalbench:task",
    "subtype": "assay.suites.subtype:task",
    "docclass": "assay.suites.docclass:task",
    "maud": "assay.suites.maud:task",
    "multiclass": "assay.suites.multiclass:task",
    "chained": "assay.suites.chained:task",
    "scores": "assay.suites.scores:task",
}
