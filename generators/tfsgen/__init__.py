"""tfsgen: the one Python package of tfs that writes model files (design.md,
"The library as a platform").

    tables       type and rule tables, read from include/tfs/*.def at import
    gguf         GGUF model, parser and writer (field map, knobs for malformed output)
    safetensors  safetensors model and writer (raw-token JSON header, knobs)
    manifest     the fixture manifest format of docs/fixtures.md, corpus syncing
    strategies   hypothesis strategies of valid models (needs python3-hypothesis)

Every script that writes a GGUF or safetensors file (generators/*.py,
conformance/ggml/*.py, tools/*.py) imports it; none carries its own encoder
or type table.  Standard library only (strategies: python3-hypothesis).
"""
