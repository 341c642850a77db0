/* whoami-cmd.c: `whoami`: the session's credentials (fetched as any command fetches them: SSO,
 * roles with the MFA prompt, processes ...), then GetCallerIdentity with them. */
#include <glib/gi18n.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/interrupt.h"
#include "cli/mfa-prompt.h"
#include "cli/whoami-cmd.h"
#include "net/client.h"
#include "net/sts.h"

#define WHOAMI_PREFIX "dynoscope-cli whoami: "

/* "2026-12-05T10:00:00Z". */
static char *
format_utc (gint64 when)
{
  g_autoptr (GDateTime) dt = g_date_time_new_from_unix_utc (when);

  return dt != NULL ? g_date_time_format (dt, "%Y-%m-%dT%H:%M:%SZ") : g_strdup ("?");
}

/* "in 42 minutes", "in 3 hours 5 minutes", "expired 2 minutes ago". */
static char *
format_remaining (gint64 seconds)
{
  gint64 minutes = (ABS (seconds) + 59) / 60;
  g_autofree char *span = NULL;

  if (seconds < 0)
    minutes = ABS (seconds) / 60;
  if (minutes >= 120)
    span = g_strdup_printf (ngettext ("%u hour", "%u hours", (gulong) (minutes / 60)),
                            (guint) MIN (minutes / 60, G_MAXUINT));
  else
    span = g_strdup_printf (ngettext ("%u minute", "%u minutes", (gulong) minutes),
                            (guint) minutes);
  return seconds >= 0 ? g_strdup_printf (_ ("in %s"), span)
                      : g_strdup_printf (_ ("expired %s ago"), span);
}

/* Without a region there is no DynamoDB client to make, but STS has its global endpoint: a
 * session of its own over a transport of its own. */
static DdbAwsSession *
session_without_region (const CliTarget *target, DdbHttp **http, GError **error)
{
  DdbAwsSessionOptions options = { 0 };
  DdbAwsSession *session;
  const char *ca = target->ca_bundle;

  *http = ddb_http_new (NULL, error);
  if (*http == NULL)
    return NULL;
  ddb_http_set_proxy_env (*http, NULL);
  options.profile = target->profile;
  options.endpoint_url = target->endpoint_url;
  options.transport = ddb_http_aws_transport;
  options.transport_data = *http;
  options.mfa_prompt = cli_mfa_prompt;
  session = ddb_aws_session_new (&options, error);
  if (session == NULL)
    return NULL;
  /* The AWS CLI's order: --ca-bundle, AWS_CA_BUNDLE, the profile's ca_bundle. */
  if (ca == NULL || *ca == '\0')
    ca = g_getenv ("AWS_CA_BUNDLE");
  if (ca == NULL || *ca == '\0')
    ca = ddb_aws_config_get (ddb_aws_session_get_config (session),
                             ddb_aws_session_get_profile (session), "ca_bundle");
  if (ca != NULL && *ca != '\0')
    {
      g_autofree char *path = ddb_aws_expand_path (ca, NULL);

      ddb_http_set_ca_bundle (*http, path);
    }
  return session;
}

int
cli_whoami_main (const CliTarget *target, int argc, char **argv)
{
  gboolean as_json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json,
      N_ ("Print a JSON object (Arn, Account, Provider, Profile, Region, Expiration, "
          "ExpiresInSeconds)"),
      NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (DdbClient) client = NULL;
  g_autoptr (DdbHttp) own_http = NULL;
  g_autoptr (DdbAwsSession) own_session = NULL;
  g_autoptr (DdbAwsCredentials) creds = NULL;
  g_autofree char *arn = NULL;
  g_autofree char *account = NULL;
  DdbClientOptions options = { 0 };
  DdbAwsSession *session;
  gint64 now;
  int status = 0;

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Show who the profile's credentials belong to (STS GetCallerIdentity): the ARN, "
               "the account, the provider that gave them (env, sso, assume-role, ...) and when "
               "they expire. Credentials are fetched as any command fetches them: an SSO "
               "session, a role (asking for its MFA code on the terminal), a process ... "
               "Nothing secret is printed."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, WHOAMI_PREFIX "%s\n", error->message);
      return 2;
    }
  if (argc > 1)
    {
      fprintf (stderr, WHOAMI_PREFIX "%s\n", _ ("too many arguments"));
      return 2;
    }
  if (target->db_path != NULL)
    {
      fprintf (stderr, WHOAMI_PREFIX "%s\n",
               _ ("a database has no identity: whoami works on a profile (--profile, --region)"));
      return 2;
    }

  options.profile = target->profile;
  options.region = target->region;
  options.endpoint_url = target->endpoint_url;
  options.ca_bundle = target->ca_bundle;
  options.mfa_prompt = cli_mfa_prompt;
  client = ddb_client_new (&options, &error);
  if (client == NULL && g_error_matches (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION))
    {
      g_clear_error (&error);
      own_session = session_without_region (target, &own_http, &error);
    }
  if (client == NULL && own_session == NULL)
    {
      fprintf (stderr, WHOAMI_PREFIX "%s\n", error->message);
      return error->domain == DDB_AWS_ERROR ? 2 : 1;
    }
  session = client != NULL ? ddb_client_get_session (client) : own_session;

  cli_interrupt_cancels (cancellable);
  now = g_get_real_time () / G_USEC_PER_SEC;
  creds = ddb_aws_session_get_credentials (session, now, cancellable, &error);
  if (creds == NULL
      || !ddb_sts_get_caller_identity (session, &creds->creds, &arn, &account, cancellable,
                                       &error))
    {
      fprintf (stderr, WHOAMI_PREFIX "%s\n", error->message);
      status = 1;
      goto out;
    }

  now = g_get_real_time () / G_USEC_PER_SEC;
  if (as_json)
    {
      json_t *o = json_object ();
      char *text;

      json_object_set_new (o, "Arn", json_string (arn));
      json_object_set_new (o, "Account", account != NULL ? json_string (account) : json_null ());
      json_object_set_new (o, "Provider",
                           creds->method != NULL ? json_string (creds->method) : json_null ());
      json_object_set_new (o, "Profile", json_string (ddb_aws_session_get_profile (session)));
      json_object_set_new (o, "Region",
                           ddb_aws_session_get_region (session) != NULL
                               ? json_string (ddb_aws_session_get_region (session))
                               : json_null ());
      if (creds->expiration != 0)
        {
          g_autofree char *when = format_utc (creds->expiration);

          json_object_set_new (o, "Expiration", json_string (when));
          json_object_set_new (o, "ExpiresInSeconds",
                               json_integer ((json_int_t) (creds->expiration - now)));
        }
      else
        {
          json_object_set_new (o, "Expiration", json_null ());
          json_object_set_new (o, "ExpiresInSeconds", json_null ());
        }
      text = json_dumps (o, JSON_INDENT (2) | JSON_PRESERVE_ORDER);
      printf ("%s\n", text);
      free (text);
      json_decref (o);
    }
  else
    {
      printf ("%-9s %s\n", "Arn:", arn);
      printf ("%-9s %s\n", "Account:", account != NULL ? account : "?");
      printf ("%-9s %s\n", "Provider:", creds->method != NULL ? creds->method : "?");
      printf ("%-9s %s\n", "Profile:", ddb_aws_session_get_profile (session));
      if (creds->expiration != 0)
        {
          g_autofree char *when = format_utc (creds->expiration);
          g_autofree char *left = format_remaining (creds->expiration - now);

          printf ("%-9s %s (%s)\n", "Expires:", when, left);
        }
      else
        printf ("%-9s %s\n", "Expires:", _ ("never (long-term keys)"));
    }

out:
  cli_interrupt_cancels (NULL);
  return status;
}
