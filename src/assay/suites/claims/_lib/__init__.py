"""The claims suite's own vocabulary, private to it: papers and claims (``model``, ``loading``),
the deterministic and LLM matchers, panels and roles, pairing and alignment, the scorecard
diff and the round-trip benchmark."""
