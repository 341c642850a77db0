/* test-endpoints.c: the standard endpoints of every service Dynoscope calls, in every variant
 * (FIPS, dual-stack) and partition, as botocore 1.43's endpoint rule sets give them; the
 * variants from the environment and the profile; and the real client through a local CONNECT
 * proxy taken from its envp: the host it tunnels to, NO_PROXY, and no proxy password in an
 * error message. */
#include <gio/gio.h>
#include <string.h>

#include "net/client.h"
#include "net/endpoints.h"

#include <glib/gstdio.h>

typedef struct {
  const char *prefix;
  const char *region;
  gboolean fips;
  gboolean dualstack;
  const char *expected;
} Case;

static void
test_variants (void)
{
  /* Expected values from botocore 1.43.11's endpoint-rule-set-1.json of each service. */
  static const Case cases[] = {
    { "dynamodb", "us-east-1", FALSE, FALSE, "https://dynamodb.us-east-1.amazonaws.com" },
    { "dynamodb", "us-east-1", TRUE, FALSE, "https://dynamodb-fips.us-east-1.amazonaws.com" },
    { "dynamodb", "us-east-1", FALSE, TRUE, "https://dynamodb.us-east-1.api.aws" },
    { "dynamodb", "us-east-1", TRUE, TRUE, "https://dynamodb-fips.us-east-1.api.aws" },
    { "dynamodb", "us-gov-west-1", TRUE, FALSE, "https://dynamodb.us-gov-west-1.amazonaws.com" },
    { "dynamodb", "us-gov-west-1", TRUE, TRUE, "https://dynamodb-fips.us-gov-west-1.api.aws" },
    { "dynamodb", "cn-north-1", FALSE, TRUE,
      "https://dynamodb.cn-north-1.api.amazonwebservices.com.cn" },
    { "dynamodb", "cn-north-1", TRUE, FALSE, "https://dynamodb-fips.cn-north-1.amazonaws.com.cn" },
    { "dynamodb", "us-iso-east-1", FALSE, TRUE, "https://dynamodb.us-iso-east-1.api.aws.ic.gov" },
    { "dynamodb", "us-isob-east-1", TRUE, FALSE,
      "https://dynamodb-fips.us-isob-east-1.sc2s.sgov.gov" },
    { "dynamodb", "eu-isoe-west-1", FALSE, TRUE,
      "https://dynamodb.eu-isoe-west-1.api.cloud-aws.adc-e.uk" },
    { "dynamodb", "us-isof-south-1", FALSE, TRUE,
      "https://dynamodb.us-isof-south-1.api.aws.hci.ic.gov" },
    { "dynamodb", "eusc-de-east-1", FALSE, TRUE,
      "https://dynamodb.eusc-de-east-1.api.amazonwebservices.eu" },
    { "dynamodb", "local", FALSE, FALSE, "http://localhost:8000" },
    { "streams.dynamodb", "eu-west-1", FALSE, FALSE,
      "https://streams.dynamodb.eu-west-1.amazonaws.com" },
    { "streams.dynamodb", "eu-west-1", TRUE, FALSE,
      "https://streams.dynamodb-fips.eu-west-1.amazonaws.com" },
    { "streams.dynamodb", "eu-west-1", FALSE, TRUE,
      "https://streams-dynamodb.eu-west-1.api.aws" },
    { "streams.dynamodb", "eu-west-1", TRUE, TRUE,
      "https://streams-dynamodb-fips.eu-west-1.api.aws" },
    { "streams.dynamodb", "us-gov-east-1", TRUE, FALSE,
      "https://streams.dynamodb.us-gov-east-1.amazonaws.com" },
    { "streams.dynamodb", "cn-northwest-1", FALSE, TRUE,
      "https://streams-dynamodb.cn-northwest-1.api.amazonwebservices.com.cn" },
    { "streams.dynamodb", "us-iso-east-1", TRUE, TRUE,
      "https://streams.dynamodb-fips.us-iso-east-1.api.aws.ic.gov" },
    { "sts", NULL, FALSE, FALSE, "https://sts.amazonaws.com" },
    { "sts", "aws-global", FALSE, FALSE, "https://sts.amazonaws.com" },
    { "sts", "eu-west-1", FALSE, FALSE, "https://sts.eu-west-1.amazonaws.com" },
    { "sts", "eu-west-1", TRUE, FALSE, "https://sts-fips.eu-west-1.amazonaws.com" },
    { "sts", "eu-west-1", FALSE, TRUE, "https://sts.eu-west-1.api.aws" },
    { "sts", "eu-west-1", TRUE, TRUE, "https://sts-fips.eu-west-1.api.aws" },
    { "sts", "us-gov-west-1", TRUE, FALSE, "https://sts.us-gov-west-1.amazonaws.com" },
    { "sts", "cn-north-1", FALSE, FALSE, "https://sts.cn-north-1.amazonaws.com.cn" },
    { "portal.sso", "eu-west-1", FALSE, FALSE, "https://portal.sso.eu-west-1.amazonaws.com" },
    { "portal.sso", "eu-west-1", TRUE, FALSE, "https://portal.sso-fips.eu-west-1.amazonaws.com" },
    { "portal.sso", "eu-west-1", FALSE, TRUE, "https://portal.sso.eu-west-1.api.aws" },
    { "portal.sso", "eu-west-1", TRUE, TRUE, "https://portal.sso-fips.eu-west-1.api.aws" },
    { "portal.sso", "us-gov-west-1", TRUE, FALSE,
      "https://portal.sso.us-gov-west-1.amazonaws.com" },
    { "oidc", "ap-south-1", FALSE, FALSE, "https://oidc.ap-south-1.amazonaws.com" },
    { "oidc", "ap-south-1", TRUE, FALSE, "https://oidc-fips.ap-south-1.amazonaws.com" },
    { "oidc", "ap-south-1", TRUE, TRUE, "https://oidc-fips.ap-south-1.api.aws" },
    { "oidc", "us-gov-east-1", TRUE, FALSE, "https://oidc.us-gov-east-1.amazonaws.com" },
    { "signin", "us-east-1", FALSE, FALSE, "https://us-east-1.signin.aws.amazon.com" },
    { "signin", "cn-north-1", FALSE, FALSE, "https://cn-north-1.signin.amazonaws.cn" },
    { "signin", "us-gov-west-1", FALSE, FALSE,
      "https://us-gov-west-1.signin.amazonaws-us-gov.com" },
    { "signin", "us-east-1", TRUE, FALSE, "https://signin-fips.us-east-1.amazonaws.com" },
    { "signin", "us-east-1", FALSE, TRUE, "https://signin.us-east-1.api.aws" },
    { "signin", "us-east-1", TRUE, TRUE, "https://signin-fips.us-east-1.api.aws" },
    { "signin", "us-gov-west-1", TRUE, FALSE, "https://signin-fips.us-gov-west-1.amazonaws.com" },
    { "signin", "us-iso-east-1", FALSE, FALSE, "https://signin.us-iso-east-1.c2s.ic.gov" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *url = ddb_aws_variant_endpoint (cases[i].prefix, cases[i].region,
                                                       cases[i].fips, cases[i].dualstack, &error);

      g_test_message ("%s %s fips=%d dualstack=%d", cases[i].prefix, cases[i].region,
                      cases[i].fips, cases[i].dualstack);
      g_assert_no_error (error);
      g_assert_cmpstr (url, ==, cases[i].expected);
    }
}

static void
test_variant_errors (void)
{
  g_autoptr (GError) error = NULL;
  char *url = ddb_aws_variant_endpoint ("dynamodb", "local", TRUE, FALSE, &error);

  g_assert_null (url);
  g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG);
  g_clear_error (&error);
  url = ddb_aws_variant_endpoint ("dynamodb", "local", FALSE, TRUE, &error);
  g_assert_null (url);
  g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG);
  g_clear_error (&error);
  url = ddb_aws_variant_endpoint ("sts", NULL, TRUE, FALSE, &error);
  g_assert_null (url);
  g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG);
  g_clear_error (&error);
  url = ddb_aws_variant_endpoint ("oidc", NULL, FALSE, FALSE, &error);
  g_assert_null (url);
  g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION);
}

/* A temporary HOME with ~/.aws/config holding CONFIG. */
static char *
make_home (const char *config)
{
  g_autoptr (GError) error = NULL;
  char *home = g_dir_make_tmp ("test-endpoints-XXXXXX", &error);
  g_autofree char *aws = NULL;
  g_autofree char *path = NULL;

  g_assert_no_error (error);
  aws = g_build_filename (home, ".aws", NULL);
  g_assert_cmpint (g_mkdir (aws, 0700), ==, 0);
  path = g_build_filename (aws, "config", NULL);
  g_assert_true (g_file_set_contents (path, config, -1, &error));
  return home;
}

static void
remove_home (const char *home)
{
  g_autofree char *config = g_build_filename (home, ".aws", "config", NULL);
  g_autofree char *aws = g_build_filename (home, ".aws", NULL);

  g_remove (config);
  g_rmdir (aws);
  g_rmdir (home);
}

static void
test_variants_from_config (void)
{
  g_autofree char *home = make_home ("[default]\nuse_fips_endpoint = true\n"
                                     "[profile ds]\nuse_dualstack_endpoint = TRUE\n"
                                     "use_fips_endpoint = false\n");
  g_autofree char *home_env = g_strconcat ("HOME=", home, NULL);
  const char *envp_profile[] = { home_env, NULL };
  const char *envp_override[] = { home_env, "AWS_USE_FIPS_ENDPOINT=false",
                                  "AWS_USE_DUALSTACK_ENDPOINT=true", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbAwsConfig) config = ddb_aws_config_load (envp_profile, &error);
  gboolean fips, dualstack;
  g_autofree char *a = NULL, *b = NULL, *c = NULL;

  g_assert_no_error (error);
  ddb_aws_endpoint_variants (config, "default", envp_profile, &fips, &dualstack);
  g_assert_true (fips);
  g_assert_false (dualstack);
  ddb_aws_endpoint_variants (config, "ds", envp_profile, &fips, &dualstack);
  g_assert_false (fips);
  g_assert_true (dualstack);
  /* The environment, when set, wins over the profile. */
  ddb_aws_endpoint_variants (config, "default", envp_override, &fips, &dualstack);
  g_assert_false (fips);
  g_assert_true (dualstack);

  a = ddb_aws_service_endpoint (config, "default", envp_profile, "sts", "eu-west-1", &error);
  g_assert_cmpstr (a, ==, "https://sts-fips.eu-west-1.amazonaws.com");
  b = ddb_aws_service_endpoint (config, "ds", envp_profile, "dynamodb", "eu-west-1", &error);
  g_assert_cmpstr (b, ==, "https://dynamodb.eu-west-1.api.aws");
  c = ddb_aws_service_endpoint (NULL, NULL, envp_override, "oidc", "eu-west-1", &error);
  g_assert_cmpstr (c, ==, "https://oidc.eu-west-1.api.aws");
  g_assert_no_error (error);
  remove_home (home);
}

/* ---- A CONNECT proxy that records the first request line of each connection and refuses
 * it (403), so that no request goes anywhere. ---- */

typedef struct {
  GSocketListener *listener;
  guint16 port;
  GMutex lock;
  GPtrArray *lines;    /* request lines received */
  GPtrArray *authorizations; /* Proxy-Authorization values received */
  GCancellable *stop;
  GThread *thread;
} Proxy;

static gpointer
proxy_thread (gpointer data)
{
  Proxy *p = data;

  for (;;)
    {
      g_autoptr (GSocketConnection) conn
          = g_socket_listener_accept (p->listener, NULL, p->stop, NULL);
      g_autoptr (GDataInputStream) in = NULL;
      GOutputStream *out;
      gboolean first = TRUE;

      if (conn == NULL)
        break;
      in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (conn)));
      g_data_input_stream_set_newline_type (in, G_DATA_STREAM_NEWLINE_TYPE_CR_LF);
      for (;;)
        {
          g_autofree char *line = g_data_input_stream_read_line (in, NULL, p->stop, NULL);

          if (line == NULL || *line == '\0')
            break;
          g_mutex_lock (&p->lock);
          if (first)
            g_ptr_array_add (p->lines, g_strdup (line));
          else if (g_ascii_strncasecmp (line, "Proxy-Authorization:", 20) == 0)
            g_ptr_array_add (p->authorizations, g_strstrip (g_strdup (line + 20)));
          g_mutex_unlock (&p->lock);
          first = FALSE;
        }
      out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
      g_output_stream_write_all (out,
                                 "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n"
                                 "Connection: close\r\n\r\n",
                                 strlen ("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n"
                                         "Connection: close\r\n\r\n"),
                                 NULL, NULL, NULL);
      g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
    }
  return NULL;
}

static Proxy *
proxy_start (void)
{
  Proxy *p = g_new0 (Proxy, 1);
  g_autoptr (GError) error = NULL;

  g_mutex_init (&p->lock);
  p->lines = g_ptr_array_new_with_free_func (g_free);
  p->authorizations = g_ptr_array_new_with_free_func (g_free);
  p->stop = g_cancellable_new ();
  p->listener = g_socket_listener_new ();
  {
    g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
    g_autoptr (GSocketAddress) addr = g_inet_socket_address_new (lo, 0);
    g_autoptr (GSocketAddress) effective = NULL;

    g_assert_true (g_socket_listener_add_address (p->listener, addr, G_SOCKET_TYPE_STREAM,
                                                  G_SOCKET_PROTOCOL_TCP, NULL, &effective,
                                                  &error));
    g_assert_no_error (error);
    p->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective));
  }
  p->thread = g_thread_new ("proxy", proxy_thread, p);
  return p;
}

static void
proxy_stop (Proxy *p)
{
  g_cancellable_cancel (p->stop);
  g_thread_join (p->thread);
  g_socket_listener_close (p->listener);
  g_object_unref (p->listener);
  g_object_unref (p->stop);
  g_ptr_array_unref (p->lines);
  g_ptr_array_unref (p->authorizations);
  g_mutex_clear (&p->lock);
  g_free (p);
}

/* The request lines the proxy has seen, joined by "|". */
static char *
proxy_lines (Proxy *p)
{
  GString *s = g_string_new (NULL);

  g_mutex_lock (&p->lock);
  for (guint i = 0; i < p->lines->len; i++)
    g_string_append_printf (s, "%s%s", i > 0 ? "|" : "", (char *) p->lines->pdata[i]);
  g_mutex_unlock (&p->lock);
  return g_string_free (s, FALSE);
}

/* One ListTables through a client made with ENVP (no retries); returns its error. */
static GError *
call_through (const char *const *envp)
{
  DdbClientOptions options = { 0 };
  g_autoptr (DdbClient) client = NULL;
  json_t *request = json_object ();
  json_t *response = NULL;
  GError *error = NULL;

  options.envp = envp;
  options.max_attempts = 1;
  options.connect_timeout_ms = 30000;
  options.timeout_ms = 60000;
  client = ddb_client_new (&options, &error);
  g_assert_no_error (error);
  g_assert_false (ddb_client_call (client, "ListTables", request, NULL, &response, NULL, &error));
  json_decref (request);
  g_assert_null (response);
  g_assert_nonnull (error);
  return error;
}

static void
test_proxy_connect_hosts (void)
{
  static const struct {
    const char *fips;
    const char *dualstack;
    const char *connect;
  } cases[] = {
    { "false", "false", "CONNECT dynamodb.eu-west-1.amazonaws.com:443 HTTP/1.1" },
    { "true", "false", "CONNECT dynamodb-fips.eu-west-1.amazonaws.com:443 HTTP/1.1" },
    { "false", "true", "CONNECT dynamodb.eu-west-1.api.aws:443 HTTP/1.1" },
    { "true", "true", "CONNECT dynamodb-fips.eu-west-1.api.aws:443 HTTP/1.1" },
  };
  g_autofree char *home = make_home ("[default]\nregion = eu-west-1\n");
  g_autofree char *home_env = g_strconcat ("HOME=", home, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Proxy *p = proxy_start ();
      /* The lower case name wins, as in urllib: the upper case one points nowhere. */
      g_autofree char *proxy_env
          = g_strdup_printf ("https_proxy=http://user:pr0xy-s3cret@127.0.0.1:%u", p->port);
      g_autofree char *fips_env = g_strconcat ("AWS_USE_FIPS_ENDPOINT=", cases[i].fips, NULL);
      g_autofree char *ds_env
          = g_strconcat ("AWS_USE_DUALSTACK_ENDPOINT=", cases[i].dualstack, NULL);
      const char *envp[] = { home_env,
                             proxy_env,
                             "HTTPS_PROXY=http://127.0.0.1:9",
                             fips_env,
                             ds_env,
                             "AWS_ACCESS_KEY_ID=AKIDEXAMPLE",
                             "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                             "AWS_EC2_METADATA_DISABLED=true",
                             NULL };
      g_autoptr (GError) error = call_through (envp);
      g_autofree char *lines = proxy_lines (p);

      g_test_message ("fips=%s dualstack=%s: %s", cases[i].fips, cases[i].dualstack,
                      error->message);
      g_assert_cmpstr (lines, ==, cases[i].connect);
      /* The proxy got the credentials; no message shows them. */
      g_assert_cmpuint (p->authorizations->len, ==, 1);
      g_assert_null (strstr (error->message, "pr0xy-s3cret"));
      g_assert_null (strstr (error->message, "wJalrXUtnFEMI"));
      proxy_stop (p);
    }
  remove_home (home);
}

static void
test_proxy_no_proxy_and_unreachable (void)
{
  g_autofree char *home = make_home ("[default]\nregion = eu-west-1\n");
  g_autofree char *home_env = g_strconcat ("HOME=", home, NULL);
  Proxy *p = proxy_start ();
  g_autofree char *proxy_env
      = g_strdup_printf ("HTTPS_PROXY=http://127.0.0.1:%u", p->port);
  g_autofree char *lines = NULL;
  const char *keys[] = { "AWS_ACCESS_KEY_ID=AKIDEXAMPLE",
                         "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

  /* NO_PROXY names the endpoint (an unresolvable one, so the direct attempt fails fast): the
   * proxy sees nothing. */
  {
    const char *envp[] = { home_env, proxy_env, "NO_PROXY=localhost,.invalid", keys[0], keys[1],
                           "AWS_ENDPOINT_URL=https://dynamodb.test.invalid", NULL };
    g_autoptr (GError) error = call_through (envp);

    lines = proxy_lines (p);
    g_assert_cmpstr (lines, ==, "");
  }
  proxy_stop (p);

  /* A proxy that refuses connections: the error names neither its user nor its password. */
  {
    const char *envp[] = { home_env, "HTTPS_PROXY=http://pr0xy-user:pr0xy-s3cret@127.0.0.1:9",
                           keys[0], keys[1], NULL };
    g_autoptr (GError) error = call_through (envp);

    g_test_message ("%s", error->message);
    g_assert_true (g_error_matches (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_CONNECT));
    g_assert_null (strstr (error->message, "pr0xy-s3cret"));
    g_assert_null (strstr (error->message, "pr0xy-user"));
  }
  remove_home (home);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_writer_default_set_use_stderr (TRUE);
  g_test_add_func ("/net/endpoints/variants", test_variants);
  g_test_add_func ("/net/endpoints/variant-errors", test_variant_errors);
  g_test_add_func ("/net/endpoints/variants-from-config", test_variants_from_config);
  g_test_add_func ("/net/endpoints/proxy-connect-hosts", test_proxy_connect_hosts);
  g_test_add_func ("/net/endpoints/proxy-no-proxy", test_proxy_no_proxy_and_unreachable);
  return g_test_run ();
}
