/* sso-cmd.c: `dynoscope-cli sso login`: the profile's IAM Identity Center sign-in through the
 * device authorization flow (src/net/sso.h), printed as the AWS CLI prints it, the browser
 * opened on the verification URL unless --no-browser (BROWSER if set, else the desktop's
 * default), Ctrl-C cancelling the wait. */
#include "cli/sso-cmd.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli/interrupt.h"
#include "net/http.h"
#include "net/sso.h"

#define SSO_PREFIX "dynoscope-cli sso login: "
#define SSO_USAGE                                                                                \
  N_ ("Usage: dynoscope-cli [--profile NAME] sso login [--no-browser] [--sso-session NAME]")

static const char *
nonempty (const char *s)
{
  return s != NULL && *s != '\0' ? s : NULL;
}

/* Python's webbrowser honours BROWSER; otherwise the desktop's handler for https. Failing to
 * open is no error: the URL is printed. */
static void
open_browser (const char *url)
{
  const char *browser = nonempty (g_getenv ("BROWSER"));
  g_autoptr (GError) error = NULL;

  if (browser != NULL)
    {
      g_auto (GStrv) argv = NULL;
      g_autofree char *line = NULL;

      /* BROWSER may hold "%s" for the URL, as webbrowser allows. */
      if (strstr (browser, "%s") != NULL)
        {
          g_autofree char *quoted = g_shell_quote (url);
          g_auto (GStrv) parts = g_strsplit (browser, "%s", -1);

          line = g_strjoinv (quoted, parts);
        }
      else
        {
          g_autofree char *quoted = g_shell_quote (url);

          line = g_strdup_printf ("%s %s", browser, quoted);
        }
      if (g_shell_parse_argv (line, NULL, &argv, &error)
          && g_spawn_async (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, &error))
        return;
    }
  else if (g_app_info_launch_default_for_uri (url, NULL, &error))
    return;
  g_debug ("Could not open a browser: %s", error != NULL ? error->message : "");
}

static void
print_instructions (DdbSsoLogin *login, gboolean no_browser)
{
  const char *uri = ddb_sso_login_get_verification_uri (login);
  const char *code = ddb_sso_login_get_user_code (login);

  /* awscli's PrintOnlyHandler and OpenBrowserHandler, word for word. */
  if (no_browser)
    printf ("Browser will not be automatically opened.\nPlease visit the following URL:\n"
            "\n%s\n"
            "\nThen enter the code:\n\n%s\n"
            "\nAlternatively, you may visit the following URL which will autofill the code "
            "upon loading:\n%s\n",
            uri, code, ddb_sso_login_get_verification_uri_complete (login));
  else
    printf ("Attempting to open your default browser.\nIf the browser does not open or you "
            "wish to use a different device to authorize this request, open the following "
            "URL:\n\n%s\n\nThen enter the code:\n\n%s\n",
            uri, code);
  fflush (stdout);
}

/* The session as the DynamoDB client would make it, without needing a region (sso login
 * needs only the sso_region). */
static DdbAwsSession *
open_session (const CliTarget *target, DdbHttp **http, GError **error)
{
  DdbAwsSessionOptions options = { 0 };
  DdbAwsSession *session;
  const char *ca;

  *http = ddb_http_new (NULL, error);
  if (*http == NULL)
    return NULL;
  options.profile = target->profile;
  options.region = target->region;
  options.endpoint_url = target->endpoint_url;
  options.transport = ddb_http_aws_transport;
  options.transport_data = *http;
  session = ddb_aws_session_new (&options, error);
  if (session == NULL)
    return NULL;
  /* The AWS CLI's order: --ca-bundle, AWS_CA_BUNDLE, the profile's ca_bundle. */
  ca = nonempty (target->ca_bundle);
  if (ca == NULL)
    ca = nonempty (g_getenv ("AWS_CA_BUNDLE"));
  if (ca == NULL)
    ca = nonempty (ddb_aws_config_get (ddb_aws_session_get_config (session),
                                       ddb_aws_session_get_profile (session), "ca_bundle"));
  if (ca != NULL)
    {
      g_autofree char *path = ddb_aws_expand_path (ca, NULL);

      ddb_http_set_ca_bundle (*http, path);
    }
  return session;
}

int
cli_sso_main (const CliTarget *target, int argc, char **argv)
{
  gboolean no_browser = FALSE;
  g_autofree char *sso_session = NULL;
  g_auto (GStrv) rest = NULL;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbHttp) http = NULL;
  g_autoptr (DdbAwsSession) session = NULL;
  g_autoptr (DdbSsoLogin) login = NULL;
  g_autoptr (GCancellable) cancellable = NULL;
  DdbSsoLoginOptions options = { 0 };
  gboolean ok;
  GOptionEntry entries[] = {
    { "no-browser", 0, 0, G_OPTION_ARG_NONE, &no_browser,
      N_ ("Do not open the verification URL in the default browser: only print it"), NULL },
    { "sso-session", 0, 0, G_OPTION_ARG_STRING, &sso_session,
      N_ ("The [sso-session NAME] to sign in to (default: the profile's sso_session)"),
      N_ ("NAME") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL },
  };

  octx = g_option_context_new ("login");
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Signs in to IAM Identity Center (SSO) for the profile, as \"aws sso login "
               "--use-device-code\" does: prints a URL and a code to approve in a browser, "
               "waits for the approval, then caches the token in ~/.aws/sso/cache, where the "
               "AWS CLI and Dynoscope find it.\n\nExit status: 0 when signed in; 2 on a usage "
               "or configuration error; 3 when the sign-in failed; 130 when interrupted."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, SSO_PREFIX "%s\n", error->message);
      return 2;
    }
  if (rest == NULL || rest[0] == NULL || strcmp (rest[0], "login") != 0 || rest[1] != NULL)
    {
      fprintf (stderr, "dynoscope-cli sso: %s\n%s\n",
               rest == NULL || rest[0] == NULL ? _ ("which command? (login)")
               : strcmp (rest[0], "login") != 0 ? _ ("unknown command (only login)")
                                                 : _ ("too many arguments"),
               _ (SSO_USAGE));
      return 2;
    }
  if (!cli_target_is_remote (target))
    {
      fprintf (stderr, SSO_PREFIX "%s\n%s\n",
               _ ("signs in to an AWS profile (--profile NAME), not to a database"),
               _ (SSO_USAGE));
      return 2;
    }

  session = open_session (target, &http, &error);
  if (session == NULL)
    {
      fprintf (stderr, SSO_PREFIX "%s\n", error->message);
      return error->domain == DDB_AWS_ERROR ? 2 : 3;
    }
  cancellable = g_cancellable_new ();
  cli_interrupt_cancels (cancellable);
  options.sso_session = nonempty (sso_session);
  login = ddb_sso_login_start_full (session, &options, cancellable, &error);
  if (login != NULL)
    {
      print_instructions (login, no_browser);
      if (!no_browser)
        open_browser (ddb_sso_login_get_verification_uri_complete (login));
      ok = ddb_sso_login_finish (login, cancellable, &error);
    }
  else
    ok = FALSE;
  cli_interrupt_cancels (NULL);
  if (!ok)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          fprintf (stderr, SSO_PREFIX "%s\n", _ ("interrupted"));
          return 130;
        }
      fprintf (stderr, SSO_PREFIX "%s\n", error->message);
      return g_error_matches (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG) ? 2 : 3;
    }
  printf ("Successfully logged into Start URL: %s\n", ddb_sso_login_get_config (login)->start_url);
  return fflush (stdout) == 0 ? 0 : 3;
}
