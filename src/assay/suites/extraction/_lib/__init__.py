"""The extraction suite's own vocabulary, private to it: the canonical records, the document
row (``rows``), the factuality audit, the batched list matrices, the chunk merge, the schema
check, the source documents, the run-level diagnostics, miss attribution, the judge pass and
the rescue study."""
