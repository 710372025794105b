"""The translation suite's private vocabulary.

* :mod:`.entries` — seed 001's entry rules (blank references, blank predictions, error entries);
* :mod:`.inputs` — test reports, JSONL entries and plain-text lines read into records, and the
  report's JSON Schema (``report.schema.json``);
* :mod:`.comet` — COMET from unbabel-comet, attached to the prediction records;
* :mod:`.languages` — XLM-R's language coverage (COMET's low-resource warning);
* :mod:`.plugins` — per-entry plugin metrics as stats columns;
* :mod:`.statsrow` — an entry's statistics row over its batch's shared column names;
* :mod:`.segments` and :mod:`.api` — seed 001's Python API over entry dicts;
* :mod:`.systems` — sacrebleu's multi-system test on plain-text files (``assay mt sacrebleu``).

The suite's ``__init__`` exports what users and the command group call.
"""
