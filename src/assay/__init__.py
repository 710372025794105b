"""assay."""
