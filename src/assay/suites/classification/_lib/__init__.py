"""The classification suite's private helpers: reading label records, and the fast paths of its
scoring and summaries, each beside the plain definition it must equal.

* :mod:`.reading` — the label records as columns, checked and their gold labels noted as they
  are read (``ClassificationTask.load``);
* :mod:`.block` — a block of items scored at once (``ClassificationTask.score_batch``), equal
  to ``scorer.score_item`` item by item;
* :mod:`.groups` — alike items counted once in a block's summary part
  (``summaries.summarize_block``).

The figures quoted in the docstrings are CPU seconds of ``benchmarks/bench_throughput.py --suite
classification`` (10⁵ items, 4 labels) or of the in-process measurement named beside them; the
history of each is in benchmarks/README.md ("Classification") and in the commit named.
"""
