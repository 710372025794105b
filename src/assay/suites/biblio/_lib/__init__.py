"""The biblio suite's own vocabulary, private to it: the export schema and its dialects, the
front-matter, reference and section scorers, names and normalizers, the seed-shaped report,
bibr's writer, and the TEI, JATS and GROBID converters."""
