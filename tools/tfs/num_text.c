/* num_text.c: the text of a float from a file, one function for every
 * place that prints one: `tfs dump` (kv_show.c), its JSON (dump_json.c)
 * and the browser inspector, which gets the text from tfs.wasm
 * (web/wasm/tfs_web.c) instead of formatting numbers itself. */
#include <stdio.h>

#include "cli.h"

/* %.9g / %.17g: enough significant digits that every f32 / f64 reads back
 * to the same bits (FLT_DECIMAL_DIG, DBL_DECIMAL_DIG). */
void put_float_text(FILE *out, double v, int is_f32) { fprintf(out, is_f32 ? "%.9g" : "%.17g", v); }
