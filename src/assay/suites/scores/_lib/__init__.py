"""The scores suite's own vocabulary: reading a tool's file into records, and the lines that
set the tool's own figures beside assay's."""
