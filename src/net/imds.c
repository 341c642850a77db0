/* imds.c: EC2 instance metadata credentials. Not yet implemented. */
#include "net/credentials-private.h"

gboolean
ddb_imds_source_new (DdbAwsSession *s, DdbCredSource **out, GError **error)
{
  *out = NULL;
  return TRUE;
}
