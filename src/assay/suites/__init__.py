"""Task suites: one package each, registered under the ``assay.tasks`` entry-point group."""
