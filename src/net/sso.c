/* sso.c: IAM Identity Center (SSO) credentials. Not yet implemented: a profile that uses it is
 * refused clearly. */
#include "net/credentials-private.h"

gboolean
ddb_sso_source_new (DdbAwsSession *s, const char *profile, DdbCredSource **out, GError **error)
{
  static const char *const keys[]
      = { "sso_session", "sso_start_url", "sso_region", "sso_account_id", "sso_role_name" };

  *out = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (ddb_aws_config_has (ddb_aws_session_get_config (s), profile, keys[i]))
      {
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_UNSUPPORTED,
                     "The profile \"%s\" uses IAM Identity Center (SSO), which Dynoscope does "
                     "not support yet",
                     profile);
        return FALSE;
      }
  return TRUE;
}
