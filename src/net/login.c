/* login.c: `aws login` console credentials. Not yet implemented: refused clearly. */
#include "net/credentials-private.h"

gboolean
ddb_login_source_new (DdbAwsSession *s, const char *profile, DdbCredSource **out, GError **error)
{
  *out = NULL;
  if (ddb_aws_config_has (ddb_aws_session_get_config (s), profile, "login_session"))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_UNSUPPORTED,
                   "The profile \"%s\" uses `aws login` (login_session), which Dynoscope does "
                   "not support yet",
                   profile);
      return FALSE;
    }
  return TRUE;
}
