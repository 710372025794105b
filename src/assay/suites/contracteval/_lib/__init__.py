"""ContractEval's own vocabulary, private to the suite: its rows from CUAD (``cuad_rows``) and
the mapping scorer that answers them from an extraction run (``mapping``). The suite's
``__init__`` re-exports the public names."""
