/* test-providers.c: the web identity, container and EC2 instance metadata credential providers,
 * credential_source for roles, the chain's order with many providers configured at once, and
 * the AWS CLI's role cache (~/.aws/cli/cache), through an in-process fake transport that
 * records every request. Each test has its own temporary HOME and environment array. The
 * expected cache file names were computed once with botocore 1.43.11 (see the comments). */
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "net/credentials.h"
#include "net/imds.h"
#include "net/role-cache.h"

#define SECRET_MARK "SeCrEt"
#define NOW 1893456000 /* 2030-01-01T00:00:00Z */
#define IMDS "http://169.254.169.254/"

/* ---- Fixture: a temporary HOME and an environment array ---- */

typedef struct {
  char *dir;
  GPtrArray *env;
} Fixture;

static void
fixture_setup (Fixture *fx, gconstpointer data)
{
  GError *error = NULL;

  fx->dir = g_dir_make_tmp ("dynoscope-prov-XXXXXX", &error);
  g_assert_no_error (error);
  fx->env = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (fx->env, g_strdup_printf ("HOME=%s", fx->dir));
  /* Instance metadata off but in the tests of it (enable_imds), so that a session with no
   * region does not ask the fake transport for one. */
  g_ptr_array_add (fx->env, g_strdup ("AWS_EC2_METADATA_DISABLED=true"));
  g_ptr_array_add (fx->env, g_strdup_printf ("PATH=%s", g_getenv ("PATH")));
  g_ptr_array_add (fx->env, g_strdup_printf ("AWS_CONFIG_FILE=%s/config", fx->dir));
  g_ptr_array_add (fx->env,
                   g_strdup_printf ("AWS_SHARED_CREDENTIALS_FILE=%s/credentials", fx->dir));
  g_ptr_array_add (fx->env, NULL);
}

static void
remove_tree (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);

      if (g_file_test (p, G_FILE_TEST_IS_DIR) && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
        remove_tree (p);
      else
        g_unlink (p);
    }
  g_dir_close (d);
  g_rmdir (dir);
}

static void
fixture_teardown (Fixture *fx, gconstpointer data)
{
  remove_tree (fx->dir);
  g_free (fx->dir);
  g_ptr_array_free (fx->env, TRUE);
}

static void
fx_setenv (Fixture *fx, const char *name, const char *value)
{
  gsize n = strlen (name);

  g_ptr_array_remove_index (fx->env, fx->env->len - 1);
  for (guint i = 0; i < fx->env->len; i++)
    {
      const char *e = g_ptr_array_index (fx->env, i);

      if (strncmp (e, name, n) == 0 && e[n] == '=')
        {
          g_ptr_array_remove_index (fx->env, i);
          break;
        }
    }
  if (value != NULL)
    g_ptr_array_add (fx->env, g_strdup_printf ("%s=%s", name, value));
  g_ptr_array_add (fx->env, NULL);
}

static char *
fx_path (Fixture *fx, const char *name)
{
  return g_build_filename (fx->dir, name, NULL);
}

static void
fx_write (Fixture *fx, const char *name, const char *text)
{
  g_autofree char *path = fx_path (fx, name);
  GError *error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* ---- The fake transport ---- */

typedef struct {
  char *method, *url, *headers, *body, *key_id;
  guint connect_timeout_ms, timeout_ms;
} Request;

static void
request_free (gpointer data)
{
  Request *r = data;

  g_free (r->method);
  g_free (r->url);
  g_free (r->headers);
  g_free (r->body);
  g_free (r->key_id);
  g_free (r);
}

typedef struct {
  guint status; /* 0: the transport fails */
  char *body;
} Answer;

typedef struct {
  GPtrArray *requests;
  GHashTable *routes; /* "METHOD URL" -> GPtrArray of Answer: the first is used up while more
                       * than one remain */
  /* STS: answered for any POST to an sts URL */
  guint sts_calls;
  guint sts_status;
  const char *sts_error_code;
  const char *sts_expiration;
  const char *sts_key_prefix;
} Fake;

static void
answer_free (gpointer data)
{
  Answer *a = data;

  g_free (a->body);
  g_free (a);
}

static void
fake_init (Fake *f)
{
  memset (f, 0, sizeof *f);
  f->requests = g_ptr_array_new_with_free_func (request_free);
  f->routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) g_ptr_array_unref);
  f->sts_status = 200;
  f->sts_expiration = "2030-01-01T01:00:00Z";
  f->sts_key_prefix = "ASIAROLE";
}

static void
fake_clear (Fake *f)
{
  g_ptr_array_free (f->requests, TRUE);
  g_hash_table_destroy (f->routes);
}

/* Adds an answer to METHOD URL (appended to the ones already there). */
static void
fake_route (Fake *f, const char *method, const char *url, guint status, const char *body)
{
  g_autofree char *key = g_strdup_printf ("%s %s", method, url);
  GPtrArray *answers = g_hash_table_lookup (f->routes, key);
  Answer *a = g_new0 (Answer, 1);

  if (answers == NULL)
    {
      answers = g_ptr_array_new_with_free_func (answer_free);
      g_hash_table_insert (f->routes, g_steal_pointer (&key), answers);
    }
  a->status = status;
  a->body = g_strdup (body);
  g_ptr_array_add (answers, a);
}

static Request *
fake_request (Fake *f, guint i)
{
  g_assert_cmpuint (i, <, f->requests->len);
  return g_ptr_array_index (f->requests, i);
}

static char *
sts_answer (Fake *f, const char *body, guint *status)
{
  const char *op = strstr (body, "Action=AssumeRoleWithWebIdentity") != NULL
                       ? "AssumeRoleWithWebIdentity"
                       : "AssumeRole";

  f->sts_calls++;
  *status = f->sts_status;
  if (f->sts_status != 200)
    return g_strdup_printf ("<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                            "<Error><Type>Sender</Type><Code>%s</Code><Message>Denied "
                            "by the fake</Message></Error><RequestId>x</RequestId>"
                            "</ErrorResponse>",
                            f->sts_error_code);
  return g_strdup_printf (
      "<%sResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><%sResult>"
      "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/r/s</Arn>"
      "<AssumedRoleId>AROA:s</AssumedRoleId></AssumedRoleUser><Credentials>"
      "<AccessKeyId>%s%u</AccessKeyId><SecretAccessKey>r" SECRET_MARK "%u</SecretAccessKey>"
      "<SessionToken>TOKEN%u</SessionToken><Expiration>%s</Expiration></Credentials>"
      "</%sResult></%sResponse>",
      op, op, f->sts_key_prefix, f->sts_calls, f->sts_calls, f->sts_calls, f->sts_expiration, op,
      op);
}

static gboolean
fake_send (const DdbAwsRequest *req, guint *status, GBytes **body, gpointer user_data,
           GCancellable *cancellable, GError **error)
{
  Fake *f = user_data;
  Request *r = g_new0 (Request, 1);
  GString *headers = g_string_new (NULL);
  g_autofree char *key = g_strdup_printf ("%s %s", req->method, req->url);
  GPtrArray *answers;
  Answer *a;
  char *text;

  for (guint i = 0; i < req->n_headers; i++)
    g_string_append_printf (headers, "%s: %s\n", req->headers[i].name, req->headers[i].value);
  r->method = g_strdup (req->method);
  r->url = g_strdup (req->url);
  r->headers = g_string_free (headers, FALSE);
  r->body = g_strndup ((const char *) req->body, req->body_len);
  r->key_id = req->sign_credentials != NULL ? g_strdup (req->sign_credentials->access_key_id)
                                            : NULL;
  r->connect_timeout_ms = req->connect_timeout_ms;
  r->timeout_ms = req->timeout_ms;
  g_ptr_array_add (f->requests, r);

  if (strcmp (req->method, "POST") == 0 && strstr (req->url, "sts") != NULL)
    {
      text = sts_answer (f, r->body, status);
      *body = g_bytes_new_take (text, strlen (text));
      return TRUE;
    }
  answers = g_hash_table_lookup (f->routes, key);
  if (answers == NULL)
    {
      *status = 404;
      *body = g_bytes_new_take (g_strdup ("not found"), 9);
      return TRUE;
    }
  a = g_ptr_array_index (answers, 0);
  if (a->status == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "Connection timed out");
      if (answers->len > 1)
        g_ptr_array_remove_index (answers, 0);
      return FALSE;
    }
  *status = a->status;
  text = g_strdup (a->body != NULL ? a->body : "");
  *body = g_bytes_new_take (text, strlen (text));
  if (answers->len > 1)
    g_ptr_array_remove_index (answers, 0);
  return TRUE;
}

/* ---- Sessions ---- */

typedef struct {
  guint calls;
} Prompt;

static char *
prompt_mfa (const char *profile, const char *serial, gpointer data, GCancellable *c, GError **e)
{
  ((Prompt *) data)->calls++;
  return g_strdup ("123456");
}

static DdbAwsSession *
session_new (Fixture *fx, const char *profile, Fake *f, Prompt *prompt, GError **error)
{
  DdbAwsSessionOptions opts = { 0 };

  opts.profile = profile;
  opts.envp = (const char *const *) fx->env->pdata;
  opts.transport = fake_send;
  opts.transport_data = f;
  opts.mfa_prompt = prompt != NULL ? prompt_mfa : NULL;
  opts.mfa_prompt_data = prompt;
  return ddb_aws_session_new (&opts, error);
}

static DdbAwsSession *
session_ok (Fixture *fx, const char *profile, Fake *f)
{
  GError *error = NULL;
  DdbAwsSession *s = session_new (fx, profile, f, NULL, &error);

  g_assert_no_error (error);
  return s;
}

static DdbAwsCredentials *
creds_ok (DdbAwsSession *s, gint64 now, const char *key_id, const char *method)
{
  GError *error = NULL;
  DdbAwsCredentials *c = ddb_aws_session_get_credentials (s, now, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (c->creds.access_key_id, ==, key_id);
  g_assert_nonnull (strstr (c->creds.secret_access_key, SECRET_MARK));
  g_assert_cmpstr (c->method, ==, method);
  return c;
}

static void
assert_creds (DdbAwsSession *s, gint64 now, const char *key_id, const char *method)
{
  ddb_aws_credentials_free (creds_ok (s, now, key_id, method));
}

/* The error's code, that its message contains PART, and that it leaks no secret. */
static void
assert_creds_error (DdbAwsSession *s, gint64 now, int code, const char *part)
{
  GError *error = NULL;
  DdbAwsCredentials *c = ddb_aws_session_get_credentials (s, now, NULL, &error);

  g_assert_null (c);
  g_assert_error (error, DDB_AWS_ERROR, code);
  g_assert_null (strstr (error->message, SECRET_MARK));
  if (strstr (error->message, part) == NULL)
    g_error ("\"%s\" is not in the error \"%s\"", part, error->message);
  g_error_free (error);
}

/* ---- Web identity ---- */

static void
test_web_identity_profile (Fixture *fx, gconstpointer data)
{
  g_autofree char *config = NULL;
  g_autofree char *token = fx_path (fx, "token");
  Fake f;

  config = g_strdup_printf ("[profile web]\nrole_arn = arn:aws:iam::123456789012:role/web\n"
                            "web_identity_token_file = %s\nrole_session_name = sess\n"
                            "duration_seconds = 900\n",
                            token);
  fx_write (fx, "config", config);
  fx_write (fx, "token", "tok-1");
  fake_init (&f);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "web", &f);
    Request *r;

    g_assert_cmpstr (ddb_aws_session_get_method (s), ==, "assume-role-with-web-identity");
    assert_creds (s, NOW, "ASIAROLE1", "assume-role-with-web-identity");
    r = fake_request (&f, 0);
    /* Unsigned, to the global endpoint; no DurationSeconds (botocore sends none). */
    g_assert_null (r->key_id);
    g_assert_cmpstr (r->url, ==, "https://sts.amazonaws.com");
    g_assert_cmpstr (r->body, ==,
                     "Action=AssumeRoleWithWebIdentity&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam"
                     "%3A%3A123456789012%3Arole%2Fweb&RoleSessionName=sess&WebIdentityToken=tok-1");
    /* The token rotates: read again at the next fetch. */
    fx_write (fx, "token", "tok-2");
    assert_creds (s, NOW + 3600 - 14 * 60, "ASIAROLE2", "assume-role-with-web-identity");
    g_assert_nonnull (strstr (fake_request (&f, 1)->body, "&WebIdentityToken=tok-2"));
    g_assert_cmpuint (f.sts_calls, ==, 2);
  }
  fake_clear (&f);
}

static void
test_web_identity_env (Fixture *fx, gconstpointer data)
{
  g_autofree char *token = fx_path (fx, "token");
  Fake f;

  fx_write (fx, "config", "[profile keys]\naws_access_key_id = CFGKEY\n"
                          "aws_secret_access_key = c" SECRET_MARK "\n");
  fx_write (fx, "token", "tok-env");
  fx_setenv (fx, "AWS_WEB_IDENTITY_TOKEN_FILE", token);
  fx_setenv (fx, "AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/env");
  fx_setenv (fx, "AWS_ROLE_SESSION_NAME", "envsess");
  fake_init (&f);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds (s, NOW, "ASIAROLE1", "assume-role-with-web-identity");
    g_assert_nonnull (strstr (fake_request (&f, 0)->body, "RoleSessionName=envsess"));
  }
  /* AWS_PROFILE does not turn the environment off... */
  fx_setenv (fx, "AWS_PROFILE", "keys");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    g_assert_cmpstr (ddb_aws_session_get_method (s), ==, "assume-role-with-web-identity");
  }
  /* ... --profile does. */
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "keys", &f);

    assert_creds (s, NOW, "CFGKEY", "config-file");
  }
  fake_clear (&f);
}

static void
test_web_identity_errors (Fixture *fx, gconstpointer data)
{
  g_autofree char *token = fx_path (fx, "token");
  g_autofree char *config = NULL;
  Fake f;

  config = g_strdup_printf ("[profile web]\nrole_arn = arn:aws:iam::1:role/w\n"
                            "web_identity_token_file = %s\n"
                            "[profile norole]\nweb_identity_token_file = %s\n"
                            "[profile chained]\nrole_arn = arn:aws:iam::1:role/next\n"
                            "source_profile = web\n",
                            token, token);
  fx_write (fx, "config", config);
  fake_init (&f);
  {
    GError *error = NULL;

    g_assert_null (session_new (fx, "norole", &f, NULL, &error));
    g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG);
    g_assert_nonnull (strstr (error->message, "has no role ARN configured"));
    g_error_free (error);
  }
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "web", &f);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "cannot read the web identity token file");
    fx_write (fx, "token", "");
    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, "is empty");
    g_assert_cmpuint (f.requests->len, ==, 0);

    fx_write (fx, "token", "tok");
    f.sts_status = 400;
    f.sts_error_code = "InvalidIdentityToken";
    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "An error occurred (InvalidIdentityToken) when calling the "
                        "AssumeRoleWithWebIdentity operation: Denied by the fake");
    g_assert_cmpuint (f.sts_calls, ==, 1);
    /* The identity provider unreachable: retried as the standard retry mode does. */
    f.sts_error_code = "IDPCommunicationError";
    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, "(IDPCommunicationError)");
    g_assert_cmpuint (f.sts_calls, ==, 4);
  }
  /* As a role's source_profile: the web identity's credentials sign the AssumeRole. */
  f.sts_status = 200;
  f.sts_calls = 0;
  g_ptr_array_set_size (f.requests, 0);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "chained", &f);

    assert_creds (s, NOW, "ASIAROLE2", "assume-role");
    g_assert_null (fake_request (&f, 0)->key_id);
    g_assert_true (g_str_has_prefix (fake_request (&f, 0)->body,
                                     "Action=AssumeRoleWithWebIdentity"));
    g_assert_cmpstr (fake_request (&f, 1)->key_id, ==, "ASIAROLE1");
    g_assert_true (g_str_has_prefix (fake_request (&f, 1)->body, "Action=AssumeRole&"));
  }
  fake_clear (&f);
}

/* ---- Container ---- */

#define CONTAINER_JSON                                                                             \
  "{\"AccessKeyId\": \"ECSKEY\", \"SecretAccessKey\": \"e" SECRET_MARK "\", \"Token\": "          \
  "\"ECSTOKEN\", \"Expiration\": \"2030-01-01T06:00:00Z\", \"RoleArn\": \"arn:x\"}"

static void
test_container (Fixture *fx, gconstpointer data)
{
  g_autofree char *token_file = fx_path (fx, "ctoken");
  Fake f;

  fake_init (&f);
  fx_setenv (fx, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/abc?x=1");
  fake_route (&f, "GET", "http://169.254.170.2/v2/credentials/abc?x=1", 200, CONTAINER_JSON);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);
    g_autoptr (DdbAwsCredentials) c = creds_ok (s, NOW, "ECSKEY", "container-role");
    Request *r = fake_request (&f, 0);

    g_assert_cmpstr (c->creds.session_token, ==, "ECSTOKEN");
    g_assert_cmpint (c->expiration, ==, NOW + 6 * 3600);
    g_assert_cmpstr (r->headers, ==, "Accept: application/json\n");
    g_assert_cmpuint (r->connect_timeout_ms, ==, 2000);
    g_assert_cmpuint (r->timeout_ms, >=, 2000);
  }
  /* The relative URI wins over the full one. */
  fx_setenv (fx, "AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://localhost:8080/full");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds (s, NOW, "ECSKEY", "container-role");
    g_assert_cmpstr (fake_request (&f, 1)->url, ==,
                     "http://169.254.170.2/v2/credentials/abc?x=1");
  }
  fx_setenv (fx, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", NULL);

  /* The token file wins over the token, and is read at every fetch. */
  fake_route (&f, "GET", "http://localhost:8080/full", 200, CONTAINER_JSON);
  fx_setenv (fx, "AWS_CONTAINER_AUTHORIZATION_TOKEN", "from-env");
  fx_setenv (fx, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", token_file);
  fx_write (fx, "ctoken", "from-file-1");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds (s, NOW, "ECSKEY", "container-role");
    g_assert_cmpstr (fake_request (&f, 2)->headers, ==,
                     "Accept: application/json\nAuthorization: from-file-1\n");
    fx_write (fx, "ctoken", "from-file-2");
    assert_creds (s, NOW + 6 * 3600 - 14 * 60, "ECSKEY", "container-role");
    g_assert_cmpstr (fake_request (&f, 3)->headers, ==,
                     "Accept: application/json\nAuthorization: from-file-2\n");
  }
  fx_setenv (fx, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", NULL);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds (s, NOW, "ECSKEY", "container-role");
    g_assert_cmpstr (fake_request (&f, 4)->headers, ==,
                     "Accept: application/json\nAuthorization: from-env\n");
  }
  /* A header value cannot hold CR or LF: refused before any request. */
  fx_setenv (fx, "AWS_CONTAINER_AUTHORIZATION_TOKEN", "a\r\nX-Injected: 1");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_INVALID_CONFIG,
                        "Auth token value is not a legal header value");
    g_assert_cmpuint (f.requests->len, ==, 5);
  }
  fx_setenv (fx, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", token_file);
  fx_write (fx, "ctoken", "line\n");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_INVALID_CONFIG,
                        "Auth token value is not a legal header value");
    g_assert_cmpuint (f.requests->len, ==, 5);
  }
  fake_clear (&f);
}

static void
test_container_hosts (Fixture *fx, gconstpointer data)
{
  static const char *const allowed[] = {
    "https://creds.example.com/x", "http://127.0.0.1:51679/x", "http://127.1.2.3/x",
    "http://[::1]:8080/x",          "http://169.254.170.2/x",   "http://169.254.170.23/v1/x",
    "http://[fd00:ec2::23]/v1/x",   "http://localhost/x",       "HTTP://LOCALHOST/x",
  };
  static const char *const refused[] = {
    "http://creds.example.com/x", "http://169.254.169.254/x", "http://10.0.0.1/x",
    "http://[fd00:ec2::254]/x",
  };
  Fake f;

  fake_init (&f);
  for (guint i = 0; i < G_N_ELEMENTS (allowed); i++)
    {
      g_autoptr (DdbAwsSession) s = NULL;

      fake_route (&f, "GET", allowed[i], 200, CONTAINER_JSON);
      fx_setenv (fx, "AWS_CONTAINER_CREDENTIALS_FULL_URI", allowed[i]);
      s = session_ok (fx, NULL, &f);
      assert_creds (s, NOW, "ECSKEY", "container-role");
      g_assert_cmpuint (f.requests->len, ==, i + 1);
    }
  g_ptr_array_set_size (f.requests, 0);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr (DdbAwsSession) s = NULL;

      fx_setenv (fx, "AWS_CONTAINER_CREDENTIALS_FULL_URI", refused[i]);
      s = session_ok (fx, NULL, &f);
      assert_creds_error (s, NOW, DDB_AWS_ERROR_INVALID_CONFIG,
                          "Can only retrieve metadata from a loopback address or one of these "
                          "hosts: 169.254.170.2, 169.254.170.23, fd00:ec2::23, localhost");
    }
  g_assert_cmpuint (f.requests->len, ==, 0);
  fake_clear (&f);
}

static void
test_container_errors (Fixture *fx, gconstpointer data)
{
  Fake f;

  fake_init (&f);
  fx_setenv (fx, "AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://localhost/c");
  fake_route (&f, "GET", "http://localhost/c", 401, "{\"message\": \"no\"}");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "Error when retrieving credentials from container-role: Received non "
                        "200 response 401 from container metadata");
    g_assert_cmpuint (f.requests->len, ==, 1); /* a 4xx is not retried */
  }
  /* A server error, then an answer: retried. */
  g_hash_table_remove_all (f.routes);
  fake_route (&f, "GET", "http://localhost/c", 503, "busy");
  fake_route (&f, "GET", "http://localhost/c", 200, CONTAINER_JSON);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds (s, NOW, "ECSKEY", "container-role");
    g_assert_cmpuint (f.requests->len, ==, 3);
  }
  g_hash_table_remove_all (f.routes);
  fake_route (&f, "GET", "http://localhost/c", 200, "{\"AccessKeyId\": \"K\"}");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "the container metadata has no SecretAccessKey");
  }
  fake_clear (&f);
}

/* ---- Instance metadata ---- */

#define IMDS_JSON(expiration)                                                                      \
  "{\"Code\": \"Success\", \"LastUpdated\": \"2029-12-31T23:00:00Z\", \"Type\": "                 \
  "\"AWS-HMAC\", \"AccessKeyId\": \"IMDSKEY\", \"SecretAccessKey\": \"i" SECRET_MARK "\", "       \
  "\"Token\": \"IMDSTOKEN\", \"Expiration\": \"" expiration "\"}"

static void
imds_routes (Fake *f, const char *base, const char *expiration_json)
{
  g_autofree char *token = g_strconcat (base, "latest/api/token", NULL);
  g_autofree char *roles = g_strconcat (base, "latest/meta-data/iam/security-credentials/",
                                        NULL);
  g_autofree char *role = g_strconcat (roles, "my-role", NULL);

  fake_route (f, "PUT", token, 200, "AQAEAimds-session");
  fake_route (f, "GET", roles, 200, "my-role");
  fake_route (f, "GET", role, 200, expiration_json);
}

/* Instance metadata on, and a region configured (the region from instance metadata has a test
 * of its own). */
static void
enable_imds (Fixture *fx)
{
  fx_setenv (fx, "AWS_EC2_METADATA_DISABLED", NULL);
  fx_setenv (fx, "AWS_REGION", "us-east-1");
}

static void
test_imds (Fixture *fx, gconstpointer data)
{
  Fake f;

  enable_imds (fx);
  fake_init (&f);
  imds_routes (&f, IMDS, IMDS_JSON ("2030-01-01T06:00:00Z"));
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);
    g_autoptr (DdbAwsCredentials) c = NULL;
    Request *r;

    g_assert_cmpstr (ddb_aws_session_get_method (s), ==, "iam-role");
    c = creds_ok (s, NOW, "IMDSKEY", "iam-role");
    g_assert_cmpstr (c->creds.session_token, ==, "IMDSTOKEN");
    g_assert_cmpint (c->expiration, ==, NOW + 6 * 3600);
    g_assert_cmpuint (f.requests->len, ==, 3);
    r = fake_request (&f, 0);
    g_assert_cmpstr (r->method, ==, "PUT");
    g_assert_cmpstr (r->url, ==, IMDS "latest/api/token");
    g_assert_cmpstr (r->headers, ==, "x-aws-ec2-metadata-token-ttl-seconds: 21600\n");
    g_assert_cmpuint (r->connect_timeout_ms, ==, 1000);
    g_assert_cmpuint (r->timeout_ms, ==, 2000);
    r = fake_request (&f, 1);
    g_assert_cmpstr (r->method, ==, "GET");
    g_assert_cmpstr (r->url, ==, IMDS "latest/meta-data/iam/security-credentials/");
    g_assert_cmpstr (r->headers, ==, "x-aws-ec2-metadata-token: AQAEAimds-session\n");
    g_assert_cmpuint (r->connect_timeout_ms, ==, 1000);
    r = fake_request (&f, 2);
    g_assert_cmpstr (r->url, ==, IMDS "latest/meta-data/iam/security-credentials/my-role");
    g_assert_cmpstr (r->headers, ==, "x-aws-ec2-metadata-token: AQAEAimds-session\n");
  }
  /* The region. */
  fake_route (&f, "GET", IMDS "latest/meta-data/placement/region", 200, "eu-west-3");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);
    GError *error = NULL;
    g_autofree char *region = ddb_imds_region (s, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (region, ==, "eu-west-3");
  }
  /* Disabled: nothing is asked, no credentials. */
  fx_setenv (fx, "AWS_EC2_METADATA_DISABLED", "TRUE");
  g_ptr_array_set_size (f.requests, 0);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);
    GError *error = NULL;

    g_assert_null (ddb_aws_session_get_method (s));
    g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
    g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_CREDENTIALS);
    g_clear_error (&error);
    g_assert_null (ddb_imds_region (s, NULL, &error));
    g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION);
    g_clear_error (&error);
    g_assert_cmpuint (f.requests->len, ==, 0);
  }
  fake_clear (&f);
}

static void
test_imds_settings (Fixture *fx, gconstpointer data)
{
  Fake f;

  enable_imds (fx);
  fake_init (&f);
  /* Timeouts and attempts passed down; a silent service: PUT tried twice, then given up. */
  fx_setenv (fx, "AWS_METADATA_SERVICE_TIMEOUT", "3");
  fx_setenv (fx, "AWS_METADATA_SERVICE_NUM_ATTEMPTS", "2");
  fake_route (&f, "PUT", IMDS "latest/api/token", 0, NULL);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_NO_CREDENTIALS, "did not answer");
    g_assert_cmpuint (f.requests->len, ==, 2);
    g_assert_cmpuint (fake_request (&f, 1)->connect_timeout_ms, ==, 3000);
    g_assert_cmpuint (fake_request (&f, 1)->timeout_ms, ==, 6000);
  }
  /* The token refused: no IMDSv1 fallback, nothing else asked. */
  g_hash_table_remove_all (f.routes);
  g_ptr_array_set_size (f.requests, 0);
  fake_route (&f, "PUT", IMDS "latest/api/token", 403, "Forbidden");
  fake_route (&f, "GET", IMDS "latest/meta-data/iam/security-credentials/", 200, "my-role");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_NO_CREDENTIALS,
                        "refused an IMDSv2 session token (HTTP 403); Dynoscope does not fall "
                        "back to IMDSv1");
    g_assert_cmpuint (f.requests->len, ==, 1);
  }
  fx_setenv (fx, "AWS_METADATA_SERVICE_TIMEOUT", NULL);
  fx_setenv (fx, "AWS_METADATA_SERVICE_NUM_ATTEMPTS", NULL);

  /* IPv6 from the profile; a custom endpoint wins over the mode. */
  g_hash_table_remove_all (f.routes);
  g_ptr_array_set_size (f.requests, 0);
  imds_routes (&f, "http://[fd00:ec2::254]/", IMDS_JSON ("2030-01-01T06:00:00Z"));
  imds_routes (&f, "http://imds.test:1338/", IMDS_JSON ("2030-01-01T06:00:00Z"));
  fx_write (fx, "config", "[default]\nec2_metadata_service_endpoint_mode = IPv6\n"
                          "[profile custom]\nec2_metadata_service_endpoint = http://imds.test:1338\n"
                          "ec2_metadata_service_endpoint_mode = ipv6\n"
                          "[profile bad]\nec2_metadata_service_endpoint_mode = ipv5\n");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds (s, NOW, "IMDSKEY", "iam-role");
    g_assert_cmpstr (fake_request (&f, 0)->url, ==, "http://[fd00:ec2::254]/latest/api/token");
  }
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "custom", &f);

    assert_creds (s, NOW, "IMDSKEY", "iam-role");
    g_assert_cmpstr (fake_request (&f, 3)->url, ==, "http://imds.test:1338/latest/api/token");
  }
  {
    GError *error = NULL;

    g_assert_null (session_new (fx, "bad", &f, NULL, &error));
    g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG);
    g_assert_nonnull (strstr (error->message, "Invalid EC2 Instance Metadata endpoint mode: ipv5"));
    g_error_free (error);
  }
  fake_clear (&f);
}

static void
test_imds_expiring (Fixture *fx, gconstpointer data)
{
  Fake f;

  enable_imds (fx);
  fake_init (&f);
  /* Credentials that expire in 5 minutes are used a little longer, and not fetched again at
   * every call. */
  imds_routes (&f, IMDS, IMDS_JSON ("2030-01-01T00:05:00Z"));
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);
    g_autoptr (DdbAwsCredentials) c = creds_ok (s, NOW, "IMDSKEY", "iam-role");

    g_assert_cmpint (c->expiration, >=, NOW + 17 * 60);
    g_assert_cmpint (c->expiration, <=, NOW + 25 * 60);
    g_assert_cmpuint (f.requests->len, ==, 3);
    assert_creds (s, NOW + 60, "IMDSKEY", "iam-role");
    assert_creds (s, NOW + 119, "IMDSKEY", "iam-role");
    g_assert_cmpuint (f.requests->len, ==, 3);
  }
  /* No credentials for the role: IMDS's error code is given. */
  g_hash_table_remove_all (f.routes);
  imds_routes (&f, IMDS, "{\"Code\": \"AssumeRoleUnauthorizedAccess\", \"Message\": \"no\"}");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &f);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_NO_CREDENTIALS,
                        "has no credentials for the role my-role: AssumeRoleUnauthorizedAccess");
  }
  fake_clear (&f);
}

/* ---- credential_source ---- */

static void
test_credential_source (Fixture *fx, gconstpointer data)
{
  Fake f;

  enable_imds (fx);
  fake_init (&f);
  fx_write (fx, "config", "[profile ec2]\nrole_arn = arn:aws:iam::1:role/a\n"
                          "credential_source = Ec2InstanceMetadata\n"
                          "[profile ecs]\nrole_arn = arn:aws:iam::1:role/b\n"
                          "credential_source = EcsContainer\n"
                          "[profile env]\nrole_arn = arn:aws:iam::1:role/c\n"
                          "credential_source = Environment\n");
  imds_routes (&f, IMDS, IMDS_JSON ("2030-01-01T06:00:00Z"));
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "ec2", &f);

    assert_creds (s, NOW, "ASIAROLE1", "assume-role");
    g_assert_cmpuint (f.requests->len, ==, 4);
    g_assert_cmpstr (fake_request (&f, 3)->key_id, ==, "IMDSKEY");
  }
  {
    GError *error = NULL;

    g_assert_null (session_new (fx, "ecs", &f, NULL, &error));
    g_assert_nonnull (strstr (error->message, "EcsContainer"));
    g_error_free (error);
  }
  fx_setenv (fx, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/c");
  fake_route (&f, "GET", "http://169.254.170.2/c", 200, CONTAINER_JSON);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "ecs", &f);

    assert_creds (s, NOW, "ASIAROLE2", "assume-role");
    g_assert_cmpstr (fake_request (&f, 4)->url, ==, "http://169.254.170.2/c");
    g_assert_cmpstr (fake_request (&f, 5)->key_id, ==, "ECSKEY");
  }
  fx_setenv (fx, "AWS_ACCESS_KEY_ID", "ENVKEY");
  fx_setenv (fx, "AWS_SECRET_ACCESS_KEY", "x" SECRET_MARK);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "env", &f);

    assert_creds (s, NOW, "ASIAROLE3", "assume-role");
    g_assert_cmpstr (fake_request (&f, 6)->key_id, ==, "ENVKEY");
  }
  fx_setenv (fx, "AWS_EC2_METADATA_DISABLED", "true");
  {
    GError *error = NULL;

    g_assert_null (session_new (fx, "ec2", &f, NULL, &error));
    g_assert_cmpstr (error->message, ==,
                     "Error when retrieving credentials from Ec2InstanceMetadata: No credentials "
                     "found in credential_source referenced in profile ec2");
    g_error_free (error);
  }
  fake_clear (&f);
}

/* ---- The chain's order ---- */

static void
assert_method (Fixture *fx, const char *profile, const char *method)
{
  Fake f;
  g_autoptr (DdbAwsSession) s = NULL;

  fake_init (&f);
  s = session_ok (fx, profile, &f);
  g_assert_cmpstr (ddb_aws_session_get_method (s), ==, method);
  fake_clear (&f);
}

static void
test_chain_order (Fixture *fx, gconstpointer data)
{
  g_autofree char *token = fx_path (fx, "token");
  const char *role = "role_arn = arn:aws:iam::1:role/r\nsource_profile = base\n";
  const char *process = "credential_process = /bin/echo '{\"Version\": 1}'\n";
  const char *keys = "aws_access_key_id = K\naws_secret_access_key = s\n";
  const char *base = "[profile base]\naws_access_key_id = B\naws_secret_access_key = b\n";
  g_autofree char *cfg = NULL;

  enable_imds (fx);
  fx_write (fx, "token", "tok");
  /* Everything at once. */
  fx_setenv (fx, "AWS_ACCESS_KEY_ID", "ENVKEY");
  fx_setenv (fx, "AWS_SECRET_ACCESS_KEY", "e");
  fx_setenv (fx, "AWS_WEB_IDENTITY_TOKEN_FILE", token);
  fx_setenv (fx, "AWS_ROLE_ARN", "arn:aws:iam::1:role/w");
  fx_setenv (fx, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/c");
  cfg = g_strconcat ("[default]\n", role, process, keys, base, NULL);
  fx_write (fx, "config", cfg);
  fx_write (fx, "credentials", "[default]\naws_access_key_id = C\naws_secret_access_key = c\n");
  assert_method (fx, NULL, "env");
  fx_setenv (fx, "AWS_ACCESS_KEY_ID", NULL);
  assert_method (fx, NULL, "assume-role");
  g_free (cfg);
  cfg = g_strconcat ("[default]\n", process, keys, base, NULL);
  fx_write (fx, "config", cfg);
  assert_method (fx, NULL, "assume-role-with-web-identity");
  fx_setenv (fx, "AWS_WEB_IDENTITY_TOKEN_FILE", NULL);
  assert_method (fx, NULL, "shared-credentials-file");
  fx_write (fx, "credentials", "");
  assert_method (fx, NULL, "custom-process");
  g_free (cfg);
  cfg = g_strconcat ("[default]\n", keys, base, NULL);
  fx_write (fx, "config", cfg);
  assert_method (fx, NULL, "config-file");
  fx_write (fx, "config", base);
  assert_method (fx, NULL, "container-role");
  fx_setenv (fx, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", NULL);
  assert_method (fx, NULL, "iam-role");
}

/* ---- The AWS CLI's role cache ---- */

/* Computed with botocore 1.43.11 (AssumeRoleProvider with the CLI's JSONFileCache, STS faked
 * at the HTTP level) for these profiles:
 *   admin: role_arn arn:aws:iam::123456789012:role/admin, role_session_name me, external_id
 *          ext-1, duration_seconds 1800, mfa_serial arn:aws:iam::123456789012:mfa/me
 *   plain: role_arn arn:aws:iam::123456789012:role/plain (no session name)
 *   webid: web identity, role_arn arn:aws:iam::123456789012:role/web (no session name) */
#define KEY_ADMIN "b8907c7d73fa173585fb0ee041c31c003da6b8d9"
#define KEY_PLAIN "75223f58fd24f68279da2bfd1bd9e84c0b0bf9b2"
#define KEY_WEBID "995ef64306d209e21474b69558c0b71b44774efb"

/* What botocore wrote for them (JSONFileCache: json.dumps of the STS response). */
#define BOTOCORE_FILE                                                                              \
  "{\"Credentials\": {\"AccessKeyId\": \"ASIABOTO\", \"SecretAccessKey\": \"boto" SECRET_MARK    \
  "\", \"SessionToken\": \"BOTOTOKEN\", \"Expiration\": \"2030-01-01T01:00:00UTC\", "             \
  "\"AccountId\": \"123456789012\"}, \"AssumedRoleUser\": {\"AssumedRoleId\": \"AROA:me\", "      \
  "\"Arn\": \"arn:aws:sts::123456789012:assumed-role/admin/me\"}, \"ResponseMetadata\": "         \
  "{\"RequestId\": \"r1\", \"HTTPStatusCode\": 200, \"HTTPHeaders\": {}, \"RetryAttempts\": 0}}"

static const char *const cache_config
    = "[profile base]\naws_access_key_id = BASEKEY\naws_secret_access_key = b" SECRET_MARK "\n"
      "[profile admin]\nrole_arn = arn:aws:iam::123456789012:role/admin\nsource_profile = base\n"
      "role_session_name = me\nexternal_id = ext-1\nduration_seconds = 1800\n"
      "mfa_serial = arn:aws:iam::123456789012:mfa/me\n"
      "[profile plain]\nrole_arn = arn:aws:iam::123456789012:role/plain\nsource_profile = base\n";

static void
test_role_cache_key (void)
{
  g_autofree char *admin = NULL, *plain = NULL, *web = NULL, *escaped = NULL;
  gint64 t = 0;

  admin = ddb_role_cache_key (&(DdbRoleCacheArgs){
      .role_arn = "arn:aws:iam::123456789012:role/admin",
      .role_session_name = "me",
      .external_id = "ext-1",
      .serial_number = "arn:aws:iam::123456789012:mfa/me",
      .duration_seconds = 1800,
  });
  plain = ddb_role_cache_key (&(DdbRoleCacheArgs){
      .role_arn = "arn:aws:iam::123456789012:role/plain", .duration_seconds = -1 });
  web = ddb_role_cache_key (&(DdbRoleCacheArgs){
      .role_arn = "arn:aws:iam::123456789012:role/web", .duration_seconds = -1 });
  g_assert_cmpstr (admin, ==, KEY_ADMIN);
  g_assert_cmpstr (plain, ==, KEY_PLAIN);
  g_assert_cmpstr (web, ==, KEY_WEBID);
  /* json.dumps escapes: sha1 of {"RoleArn": "a\"\u00e9"} (Python: ensure_ascii). */
  escaped = ddb_role_cache_key (&(DdbRoleCacheArgs){ .role_arn = "a\"\xc3\xa9",
                                                      .duration_seconds = -1 });
  g_assert_cmpstr (escaped, ==, "56d558890466988c745e05a4c12e0fc69026adce");

  g_assert_true (ddb_role_cache_parse_time ("2030-01-01T01:00:00UTC", &t));
  g_assert_cmpint (t, ==, NOW + 3600);
  g_assert_true (ddb_role_cache_parse_time ("2030-01-01T01:00:00+00:00", &t));
  g_assert_cmpint (t, ==, NOW + 3600);
  g_assert_true (ddb_role_cache_parse_time ("2030-01-01T01:00:00Z", &t));
  g_assert_false (ddb_role_cache_parse_time ("soon", &t));
}

static char *
cache_path (Fixture *fx, const char *key)
{
  g_autofree char *name = g_strconcat (key, ".json", NULL);

  return g_build_filename (fx->dir, ".aws", "cli", "cache", name, NULL);
}

static void
write_cache (Fixture *fx, const char *key, const char *text)
{
  g_autofree char *dir = g_build_filename (fx->dir, ".aws", "cli", "cache", NULL);
  g_autofree char *path = cache_path (fx, key);
  GError *error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
test_role_cache_read (Fixture *fx, gconstpointer data)
{
  Prompt prompt = { 0 };
  Fake f;

  fx_write (fx, "config", cache_config);
  write_cache (fx, KEY_ADMIN, BOTOCORE_FILE);
  fake_init (&f);
  /* Valid: no STS call, no MFA prompt. */
  {
    GError *error = NULL;
    g_autoptr (DdbAwsSession) s = session_new (fx, "admin", &f, &prompt, &error);
    g_autoptr (DdbAwsCredentials) c = NULL;

    g_assert_no_error (error);
    c = creds_ok (s, NOW, "ASIABOTO", "assume-role");
    g_assert_cmpstr (c->creds.session_token, ==, "BOTOTOKEN");
    g_assert_cmpint (c->expiration, ==, NOW + 3600);
    g_assert_cmpuint (f.sts_calls, ==, 0);
    g_assert_cmpuint (prompt.calls, ==, 0);
  }
  /* Within botocore's 15 minutes: STS (and the prompt), and the cache rewritten. */
  {
    GError *error = NULL;
    g_autoptr (DdbAwsSession) s = session_new (fx, "admin", &f, &prompt, &error);
    g_autofree char *text = NULL;
    g_autofree char *path = cache_path (fx, KEY_ADMIN);

    f.sts_expiration = "2030-01-01T02:00:00Z";
    assert_creds (s, NOW + 46 * 60, "ASIAROLE1", "assume-role");
    g_assert_cmpuint (f.sts_calls, ==, 1);
    g_assert_cmpuint (prompt.calls, ==, 1);
    g_assert_nonnull (strstr (fake_request (&f, 0)->body, "&TokenCode=123456"));
    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "\"AccessKeyId\": \"ASIAROLE1\""));
    g_assert_nonnull (strstr (text, "\"Expiration\": \"2030-01-01T02:00:00UTC\""));
  }
  /* A malformed or foreign file is ignored. */
  write_cache (fx, KEY_ADMIN, "{\"Credentials\": 3}");
  {
    GError *error = NULL;
    g_autoptr (DdbAwsSession) s = session_new (fx, "admin", &f, &prompt, &error);

    assert_creds (s, NOW, "ASIAROLE2", "assume-role");
    g_assert_cmpuint (f.sts_calls, ==, 2);
  }
  fake_clear (&f);
}

static void
test_role_cache_write (Fixture *fx, gconstpointer data)
{
  g_autofree char *path = cache_path (fx, KEY_PLAIN);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *text = NULL;
  g_autofree char *token = fx_path (fx, "token");
  g_autofree char *config = NULL;
  GStatBuf st;
  Fake f;

  fx_write (fx, "config", cache_config);
  fake_init (&f);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "plain", &f);

    assert_creds (s, NOW, "ASIAROLE1", "assume-role");
  }
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==,
                   "{\"Credentials\": {\"AccessKeyId\": \"ASIAROLE1\", \"SecretAccessKey\": \"r"
                   SECRET_MARK "1\", \"SessionToken\": \"TOKEN1\", \"Expiration\": "
                   "\"2030-01-01T01:00:00UTC\", \"AccountId\": \"123456789012\"}}");
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (g_stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  /* A second session (another process, as the CLI would be) reuses them. */
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "plain", &f);

    assert_creds (s, NOW + 60, "ASIAROLE1", "assume-role");
    g_assert_cmpuint (f.sts_calls, ==, 1);
  }

  /* Web identity shares the cache, under botocore's key. */
  config = g_strdup_printf ("[profile webid]\nrole_arn = arn:aws:iam::123456789012:role/web\n"
                            "web_identity_token_file = %s\n",
                            token);
  fx_write (fx, "config", config);
  fx_write (fx, "token", "tok");
  write_cache (fx, KEY_WEBID, BOTOCORE_FILE);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "webid", &f);

    assert_creds (s, NOW, "ASIABOTO", "assume-role-with-web-identity");
    g_assert_cmpuint (f.sts_calls, ==, 1);
    assert_creds (s, NOW + 50 * 60, "ASIAROLE2", "assume-role-with-web-identity");
    g_assert_cmpuint (f.sts_calls, ==, 2);
  }
  g_free (text);
  g_free (path);
  path = cache_path (fx, KEY_WEBID);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"AccessKeyId\": \"ASIAROLE2\""));
  fake_clear (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_writer_default_set_use_stderr (TRUE);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/net/providers/web-identity/profile", test_web_identity_profile);
  ADD ("/net/providers/web-identity/env", test_web_identity_env);
  ADD ("/net/providers/web-identity/errors", test_web_identity_errors);
  ADD ("/net/providers/container/basic", test_container);
  ADD ("/net/providers/container/hosts", test_container_hosts);
  ADD ("/net/providers/container/errors", test_container_errors);
  ADD ("/net/providers/imds/basic", test_imds);
  ADD ("/net/providers/imds/settings", test_imds_settings);
  ADD ("/net/providers/imds/expiring", test_imds_expiring);
  ADD ("/net/providers/credential-source", test_credential_source);
  ADD ("/net/providers/chain-order", test_chain_order);
  g_test_add_func ("/net/providers/role-cache/key", test_role_cache_key);
  ADD ("/net/providers/role-cache/read", test_role_cache_read);
  ADD ("/net/providers/role-cache/write", test_role_cache_write);
#undef ADD
  return g_test_run ();
}
