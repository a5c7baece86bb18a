#!/usr/bin/python3
"""gen_types.py DEF_DIR [OUT]: the type tables adapters need, as JSON,
generated from include/tfs/*.def (never retyped):

  ggml_types          id -> name, block size (elements), bytes per block
                      (removed ids: name null, sizes 0)
  gguf_value_types    id -> name, bytes of a scalar (0: string, array)
  safetensors_dtypes  name -> bits per element

OUT defaults to standard output.  conformance/adapters/types/tfs-types.json
is this output, committed so that an adapter in any language can read it from
a clone without a build; ctest test_adapter_types_json fails when it differs
from what the .def files give."""
import json
import re
import sys

inc = sys.argv[1]  # include/tfs


def rows(name, pattern):
    with open(f"{inc}/{name}") as f:
        return [m.groups() for m in re.finditer(pattern, f.read(), re.M)]


def cstr(s):
    return None if s == "NULL" else json.loads(s)


doc = {
    "generated_from": ["include/tfs/gg_types.def", "include/tfs/gg_vtypes.def", "include/tfs/st_dtypes.def"],
    "ggml_types": [{"id": int(i), "name": cstr(n), "block_size": int(b), "type_size": int(t)}
                   for i, n, b, t in rows("gg_types.def", r'^TFS_GG_TYPE\((\d+),\s*(NULL|"[^"]*"),\s*(\d+),\s*(\d+)\)', )],
    "gguf_value_types": [{"id": int(i), "name": cstr(n), "size": int(s)}
                         for _, i, n, s in rows("gg_vtypes.def", r'^TFS_GG_VTYPE\((\w+),\s*(\d+),\s*("[^"]*"),\s*(\d+)\)')],
    "safetensors_dtypes": [{"name": cstr(n), "bits": int(b)}
                           for _, n, b in rows("st_dtypes.def", r'^TFS_ST_DTYPE\((\w+),\s*("[^"]*"),\s*(\d+)\)')],
}
text = json.dumps(doc, indent=1) + "\n"
if len(sys.argv) > 2:
    open(sys.argv[2], "w").write(text)
else:
    sys.stdout.write(text)
