/* malloc-init.c: see malloc-init.h. */
#include <malloc.h>

#include "core/malloc-init.h"

void
ddb_malloc_init (void)
{
#ifdef M_MXFAST
  mallopt (M_MXFAST, 0);
#endif
}
