"""The chained suite's own vocabulary, private to it: the handoff ablation (``ablation``). The
suite's ``__init__`` re-exports the public names."""
