/* container.c: container credentials. Not yet implemented. */
#include "net/credentials-private.h"

gboolean
ddb_container_source_new (DdbAwsSession *s, DdbCredSource **out, GError **error)
{
  *out = NULL;
  return TRUE;
}
