/* dy-identity.c: who a connection is signed in as (GetCallerIdentity), and its wording. */
#define G_LOG_DOMAIN "dynoscope-identity"

#include <glib/gi18n.h>
#include <string.h>

#include "app/connections/dy-identity.h"
#include "net/sts.h"

void
dy_identity_free (DyIdentity *identity)
{
  if (identity == NULL)
    return;
  g_free (identity->arn);
  g_free (identity->account);
  g_free (identity->method);
  g_free (identity);
}

DyIdentity *
dy_identity_fetch (DdbBackend *backend, GCancellable *cancellable, GError **error)
{
  DdbClient *client = ddb_backend_get_client (backend);
  DdbAwsSession *session;
  g_autoptr (DdbAwsCredentials) creds = NULL;
  g_autoptr (GError) sts_error = NULL;
  DyIdentity *identity;

  if (client == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "A database file has no AWS identity");
      return NULL;
    }
  session = ddb_client_get_session (client);
  creds = ddb_aws_session_get_credentials (session, g_get_real_time () / G_USEC_PER_SEC,
                                           cancellable, error);
  if (creds == NULL)
    return NULL;
  identity = g_new0 (DyIdentity, 1);
  identity->method = g_strdup (creds->method != NULL ? creds->method
                                                     : ddb_aws_session_get_method (session));
  identity->expiration = creds->expiration;
  if (!ddb_sts_get_caller_identity (session, &creds->creds, &identity->arn, &identity->account,
                                    cancellable, &sts_error))
    {
      g_clear_pointer (&identity->arn, g_free);
      g_clear_pointer (&identity->account, g_free);
      g_debug ("GetCallerIdentity failed: %s", sts_error->message);
      if (g_error_matches (sts_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          dy_identity_free (identity);
          g_propagate_error (error, g_steal_pointer (&sts_error));
          return NULL;
        }
    }
  return identity;
}

char *
dy_identity_short_arn (const char *arn)
{
  g_auto (GStrv) fields = NULL;
  const char *resource;

  if (arn == NULL)
    return NULL;
  /* arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE, the resource possibly with colons. */
  fields = g_strsplit (arn, ":", 6);
  if (g_strv_length (fields) < 6)
    return g_strdup (arn);
  resource = fields[5];
  if (g_str_has_prefix (resource, "assumed-role/"))
    {
      const char *role = resource + strlen ("assumed-role/");
      const char *slash = strchr (role, '/');
      const char *last = slash != NULL ? g_strrstr_len (role, slash - role, "_") : NULL;

      /* IAM Identity Center's roles are AWSReservedSSO_<permission set>_<16 hex digits>: the
       * permission set is the name people know. */
      if (g_str_has_prefix (role, "AWSReservedSSO_") && last != NULL
          && last > role + strlen ("AWSReservedSSO_") && slash - last == 17)
        return g_strdup_printf ("%.*s%s", (int) (last - role - strlen ("AWSReservedSSO_")),
                                role + strlen ("AWSReservedSSO_"), slash);
      return g_strdup (role);
    }
  if (g_str_has_prefix (resource, "federated-user/"))
    return g_strdup (resource + strlen ("federated-user/"));
  if (g_str_has_prefix (resource, "user/"))
    {
      /* A user's path ("user/admins/alice") says less than its name. */
      const char *name = strrchr (resource, '/');

      return g_strdup (name + 1);
    }
  return g_strdup (resource);
}

const char *
dy_identity_provider_label (const char *method)
{
  static const struct { const char *method; const char *label; } labels[] = {
    /* TRANSLATORS: where a connection's AWS credentials came from (shown after its identity) */
    { "env", N_("environment") },
    { "shared-credentials-file", N_("credentials file") },
    { "config-file", N_("config file") },
    { "custom-process", N_("credential process") },
    { "assume-role", N_("assumed role") },
    { "sso", N_("IAM Identity Center") },
    { "login", N_("aws login") },
    { "assume-role-with-web-identity", N_("web identity") },
    { "container-role", N_("container role") },
    { "iam-role", N_("instance role") },
  };

  if (method == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (strcmp (labels[i].method, method) == 0)
      return _(labels[i].label);
  return method;
}

char *
dy_identity_describe (const DyIdentity *identity)
{
  GString *text = g_string_new (NULL);
  g_autofree char *name = dy_identity_short_arn (identity->arn);
  const char *provider = dy_identity_provider_label (identity->method);

  if (name != NULL)
    /* TRANSLATORS: who a connection is signed in as, e.g. "as ReadOnly/alice" */
    g_string_append_printf (text, _("as %s"), name);
  else
    /* TRANSLATORS: STS did not say who the connection's credentials belong to */
    g_string_append (text, _("identity unknown"));
  if (identity->expiration > 0)
    {
      g_autoptr (GDateTime) when = g_date_time_new_from_unix_local (identity->expiration);
      g_autoptr (GDateTime) now = g_date_time_new_now_local ();
      g_autofree char *time = NULL;

      /* A date too when they outlast today. */
      if (g_date_time_get_day_of_year (when) == g_date_time_get_day_of_year (now)
          && g_date_time_get_year (when) == g_date_time_get_year (now))
        time = g_date_time_format (when, "%H:%M");
      else
        time = g_date_time_format (when, "%e %b %H:%M");
      /* TRANSLATORS: when a connection's credentials expire; %s is a local time like 17:45 */
      g_string_append_printf (text, " · ");
      g_string_append_printf (text, _("until %s"), g_strstrip (time));
    }
  if (provider != NULL)
    g_string_append_printf (text, " · %s", provider);
  return g_string_free (text, FALSE);
}
