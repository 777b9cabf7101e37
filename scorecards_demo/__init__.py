"""A synthetic TDQS corpus and the deterministic stand-in model that scores it.

The site needs a registry-sized corpus to be developed, tested and demonstrated against, and real
scores need a language model. `generate.generate_demo` writes synthetic MCP servers in the TDQS
data-directory format, scored by the real `tdqs.score_server` with `standin.StandInLlm` in the
model's place, so every number past the model call (gates, caps, smells, TDQS, rollups, shadowing
checks) is tdqs's own arithmetic and only the six dimension judgements are synthetic.
"""
