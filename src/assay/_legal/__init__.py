"""Shared legal-benchmark pieces (not a registered suite): the ContractEval rubric, answer
normalization for LegalBench and MAUD, the label-suite base, the chained composite and the
task-aware dispatcher (seed 000 §5, §8, §12, §17)."""
