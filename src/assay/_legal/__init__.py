"""The legal suites' shared library (not a suite): what two or more of the seven legal suites,
or a suite and the task-aware dispatcher, use alike (seed 000 §5–§8, §12, §17).

- ``records``: reading a suite's inputs (one combined file, or gold and predictions apart);
- ``labelscore``, ``labelsuite``: the label-classification base (LegalBench, multiclass, the
  dispatcher's label kinds): per-row statistics, metrics and summaries;
- ``hierarchical``: the doc_type + subclass base (docclass, MAUD);
- ``answers``: LegalBench's and MAUD's answer normalization;
- ``contracteval``: the ContractEval rubric and its ``fixed_denominator`` metric kind;
- ``dispatch``: the task-aware dispatcher ``task_kind`` / ``score_task`` /
  ``normalize_task_answer``;
- ``demo``: the synthetic corpus the legal suites' example data is drawn from.

What one suite alone uses lives in that suite (ContractEval's CUAD rows and mapping scorer, the
chained composite and the handoff ablation).
"""
