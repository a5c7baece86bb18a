/* tfs_mutate.h: the mutators' sources include the public header by this
 * name (kept so that `#include "tfs_mutate.h"` inside mutators/ stays valid). */
#include "tfs/mutate.h"
