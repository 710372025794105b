"""sacrebleu's corpus metrics (BLEU, chrF/chrF++, TER) on its own per-segment sufficient
statistics, extracted without importing sacrebleu and registered as metric kinds."""
