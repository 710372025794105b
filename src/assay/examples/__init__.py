"""Example data assay writes itself (the demo, tests and benchmarks use it); no third-party data."""

from assay.examples.doc_classification import DemoFiles, write_classification_demo

__all__ = ["DemoFiles", "write_classification_demo"]
