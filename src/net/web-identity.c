/* web-identity.c: AssumeRoleWithWebIdentity. Not yet implemented: refused clearly. */
#include "net/credentials-private.h"

gboolean
ddb_web_identity_source_new (DdbAwsSession *s, const char *profile, gboolean disable_env,
                             DdbCredSource **out, GError **error)
{
  const char *token_file = NULL, *role_arn = NULL;

  *out = NULL;
  if (!disable_env)
    {
      token_file = ddb_aws_session_getenv (s, "AWS_WEB_IDENTITY_TOKEN_FILE");
      role_arn = ddb_aws_session_getenv (s, "AWS_ROLE_ARN");
    }
  if (token_file == NULL || token_file[0] == '\0')
    token_file = ddb_aws_session_config (s, profile, "web_identity_token_file");
  if (role_arn == NULL || role_arn[0] == '\0')
    role_arn = ddb_aws_session_config (s, profile, "role_arn");
  if (token_file != NULL && role_arn != NULL)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_UNSUPPORTED,
                   "The profile \"%s\" uses web identity, which Dynoscope does not support yet",
                   profile);
      return FALSE;
    }
  return TRUE;
}
