/* test-sso.c: IAM Identity Center (src/net/sso*.c) against the AWS CLI v2's behaviour: the
 * cache files' names and format, GetRoleCredentials through a fake portal, the refresh of an
 * sso-session token through a fake SSO-OIDC (and the cache file rewritten), the errors that
 * ask for a new sign-in, malformed cache files, and the device authorization flow with a test
 * clock (pending, slow_down, expiry, cancellation) so nothing sleeps for real. Each test has a
 * temporary HOME of its own; secrets in the fixtures carry a mark that no message may hold. */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "net/credentials.h"
#include "net/sso.h"

#define SECRET_MARK "SeCrEt"
#define START_URL "https://corp.awsapps.com/start"
#define SESSION_KEY "0ad374308c5a4e22f723adf10145eafad7c4031c" /* sha1 of "my-sso" */
#define LEGACY_KEY "a51746d4aa793ae07b25e90c3a5db96fc7832bd7"  /* sha1 of START_URL */
#define NOW ((gint64) 1900000000)                             /* 2030-03-17T17:46:40Z */

#define SESSION_CONFIG                                                                           \
  "[profile dev]\nsso_session = my-sso\nsso_account_id = 123456789012\n"                        \
  "sso_role_name = Read Only\nregion = us-east-2\n"                                             \
  "[sso-session my-sso]\nsso_start_url = " START_URL "\nsso_region = eu-west-1\n"              \
  "sso_registration_scopes = sso:account:access\n"

#define LEGACY_CONFIG                                                                            \
  "[profile old]\nsso_start_url = " START_URL "\nsso_region = eu-west-1\n"                     \
  "sso_account_id = 123456789012\nsso_role_name = Admin\n"

/* ---- Fixture ---- */

typedef struct {
  char *dir;
  char *cache_dir;
  GPtrArray *env;
} Fixture;

static void
fixture_setup (Fixture *fx, gconstpointer data)
{
  GError *error = NULL;

  fx->dir = g_dir_make_tmp ("dynoscope-sso-XXXXXX", &error);
  g_assert_no_error (error);
  fx->cache_dir = g_build_filename (fx->dir, ".aws", "sso", "cache", NULL);
  fx->env = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (fx->env, g_strdup_printf ("HOME=%s", fx->dir));
  g_ptr_array_add (fx->env, g_strdup_printf ("AWS_CONFIG_FILE=%s/config", fx->dir));
  g_ptr_array_add (fx->env,
                   g_strdup_printf ("AWS_SHARED_CREDENTIALS_FILE=%s/credentials", fx->dir));
  /* No region lookup (nor credentials) from instance metadata: no request but SSO's. */
  g_ptr_array_add (fx->env, g_strdup ("AWS_EC2_METADATA_DISABLED=true"));
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

      if (g_file_test (p, G_FILE_TEST_IS_DIR))
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
  g_free (fx->cache_dir);
  g_ptr_array_free (fx->env, TRUE);
}

static void
write_file (const char *path, const char *text)
{
  GError *error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
fx_config (Fixture *fx, const char *text)
{
  g_autofree char *p = g_build_filename (fx->dir, "config", NULL);

  write_file (p, text);
}

static char *
cache_file (Fixture *fx, const char *key)
{
  g_autofree char *name = g_strconcat (key, ".json", NULL);

  return g_build_filename (fx->cache_dir, name, NULL);
}

static void
fx_cache (Fixture *fx, const char *key, const char *text)
{
  g_autofree char *p = cache_file (fx, key);

  write_file (p, text);
}

static char *
read_cache (Fixture *fx, const char *key)
{
  g_autofree char *p = cache_file (fx, key);
  char *text = NULL;

  if (!g_file_get_contents (p, &text, NULL, NULL))
    return NULL;
  return text;
}

/* A token cache entry as the CLI writes it; EXPIRES and REG_EXPIRES are times. */
static char *
token_json (gint64 expires, gboolean refresh, gint64 reg_expires)
{
  g_autoptr (GDateTime) e = g_date_time_new_from_unix_utc (expires);
  g_autoptr (GDateTime) r = g_date_time_new_from_unix_utc (reg_expires);
  g_autofree char *es = g_date_time_format (e, "%Y-%m-%dT%H:%M:%SZ");
  g_autofree char *rs = g_date_time_format (r, "%Y-%m-%dT%H:%M:%SZ");

  if (!refresh)
    return g_strdup_printf ("{\"startUrl\": \"" START_URL "\", \"region\": \"eu-west-1\", "
                            "\"accessToken\": \"at-old-" SECRET_MARK "\", \"expiresAt\": \"%s\"}",
                            es);
  return g_strdup_printf ("{\"startUrl\": \"" START_URL "\", \"region\": \"eu-west-1\", "
                          "\"accessToken\": \"at-old-" SECRET_MARK "\", \"expiresAt\": \"%s\", "
                          "\"clientId\": \"cid-1\", \"clientSecret\": \"cs-" SECRET_MARK "\", "
                          "\"registrationExpiresAt\": \"%s\", \"refreshToken\": \"rt-old-"
                          SECRET_MARK "\"}",
                          es, rs);
}

/* ---- Fake SSO portal and SSO-OIDC ---- */

typedef struct {
  guint status;
  const char *body;
} Answer;

typedef struct {
  GPtrArray *methods, *urls, *bodies, *bearers;
  guint portal_calls, register_calls, device_calls, token_calls;
  guint portal_status;
  const char *portal_body;
  const Answer *token_answers; /* CreateToken's answers in turn (the last repeats); NULL: ok */
  guint n_token_answers;
  const char *device_answer; /* NULL: the standard one */
  gboolean fail_transport;
} Fake;

static void
fake_init (Fake *f)
{
  memset (f, 0, sizeof *f);
  f->methods = g_ptr_array_new_with_free_func (g_free);
  f->urls = g_ptr_array_new_with_free_func (g_free);
  f->bodies = g_ptr_array_new_with_free_func (g_free);
  f->bearers = g_ptr_array_new_with_free_func (g_free);
  f->portal_status = 200;
}

static void
fake_clear (Fake *f)
{
  g_ptr_array_free (f->methods, TRUE);
  g_ptr_array_free (f->urls, TRUE);
  g_ptr_array_free (f->bodies, TRUE);
  g_ptr_array_free (f->bearers, TRUE);
}

static gboolean
fake_transport (const DdbAwsRequest *req, guint *status, GBytes **body, gpointer user_data,
                GCancellable *cancellable, GError **error)
{
  Fake *f = user_data;
  const char *bearer = NULL;
  char *answer;

  for (guint i = 0; i < req->n_headers; i++)
    if (strcmp (req->headers[i].name, "x-amz-sso_bearer_token") == 0)
      bearer = req->headers[i].value;
  g_assert_null (req->sign_credentials);
  g_ptr_array_add (f->methods, g_strdup (req->method));
  g_ptr_array_add (f->urls, g_strdup (req->url));
  g_ptr_array_add (f->bodies, g_strndup ((const char *) req->body, req->body_len));
  g_ptr_array_add (f->bearers, g_strdup (bearer));
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (f->fail_transport)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "Connection timed out");
      return FALSE;
    }
  *status = 200;
  if (g_str_has_prefix (req->url, "https://portal.sso.eu-west-1.amazonaws.com/"))
    {
      f->portal_calls++;
      g_assert_cmpstr (req->method, ==, "GET");
      g_assert_nonnull (bearer);
      *status = f->portal_status;
      answer = g_strdup (f->portal_body != NULL
                             ? f->portal_body
                             : "{\"roleCredentials\": {\"accessKeyId\": \"ASIASSO\", "
                               "\"secretAccessKey\": \"sk-" SECRET_MARK "\", \"sessionToken\": "
                               "\"st-" SECRET_MARK "\", \"expiration\": 1900003600123}}");
    }
  else if (strcmp (req->url, "https://oidc.eu-west-1.amazonaws.com/client/register") == 0)
    {
      f->register_calls++;
      answer = g_strdup_printf ("{\"clientId\": \"cid-%u\", \"clientSecret\": \"cs-" SECRET_MARK
                                "\", \"clientIdIssuedAt\": 1899990000, "
                                "\"clientSecretExpiresAt\": %" G_GINT64_FORMAT "}",
                                f->register_calls, NOW + 90 * 86400);
    }
  else if (strcmp (req->url, "https://oidc.eu-west-1.amazonaws.com/device_authorization") == 0)
    {
      f->device_calls++;
      answer = g_strdup (f->device_answer != NULL
                             ? f->device_answer
                             : "{\"deviceCode\": \"dc-" SECRET_MARK "\", \"userCode\": "
                               "\"WDDD-HRQV\", \"verificationUri\": "
                               "\"https://device.sso.eu-west-1.amazonaws.com/\", "
                               "\"verificationUriComplete\": \"https://device.sso.eu-west-1."
                               "amazonaws.com/?user_code=WDDD-HRQV\", \"expiresIn\": 600, "
                               "\"interval\": 1}");
    }
  else if (strcmp (req->url, "https://oidc.eu-west-1.amazonaws.com/token") == 0)
    {
      f->token_calls++;
      if (f->token_answers != NULL)
        {
          const Answer *a = &f->token_answers[MIN (f->token_calls, f->n_token_answers) - 1];

          *status = a->status;
          answer = g_strdup (a->body);
        }
      else
        answer = g_strdup ("{\"accessToken\": \"at-new-" SECRET_MARK "\", \"tokenType\": "
                           "\"Bearer\", \"expiresIn\": 28800, \"refreshToken\": \"rt-new-"
                           SECRET_MARK "\"}");
    }
  else
    g_error ("unexpected request to %s", req->url);
  *body = g_bytes_new_take (answer, strlen (answer));
  return TRUE;
}

static DdbAwsSession *
session_new (Fixture *fx, const char *profile, Fake *fake)
{
  DdbAwsSessionOptions opts = { 0 };
  GError *error = NULL;
  DdbAwsSession *s;

  opts.profile = profile;
  opts.envp = (const char *const *) fx->env->pdata;
  opts.transport = fake != NULL ? fake_transport : NULL;
  opts.transport_data = fake;
  s = ddb_aws_session_new (&opts, &error);
  g_assert_no_error (error);
  return s;
}

static void
assert_error (GError *error, int code, const char *message)
{
  g_assert_nonnull (error);
  g_assert_null (strstr (error->message, SECRET_MARK));
  g_assert_error (error, DDB_AWS_ERROR, code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
}

#define SIGN_IN_HINT(profile)                                                                    \
  " To refresh this SSO session run aws sso login with the corresponding profile (\"aws sso "    \
  "login --profile " profile "\")."
#define EXPIRED_MESSAGE(profile)                                                                 \
  "The SSO session associated with this profile has expired or is otherwise invalid."           \
  SIGN_IN_HINT (profile)

/* ---- Names ---- */

static void
test_cache_names (void)
{
  static const char *const scopes[] = { "sso:account:access", NULL };
  g_autofree char *a = ddb_sso_token_cache_key (START_URL, "my-sso");
  g_autofree char *b = ddb_sso_token_cache_key (START_URL, NULL);
  /* Python: hashlib.sha1(json.dumps(args, sort_keys=True).encode()).hexdigest() */
  g_autofree char *c
      = ddb_sso_registration_cache_key (START_URL, "eu-west-1", scopes, "my-sso");
  g_autofree char *d = ddb_sso_registration_cache_key (START_URL, "eu-west-1", NULL, NULL);
  const char *env[] = { "HOME=/home/someone/", NULL };
  g_autofree char *dir = ddb_sso_cache_dir (env);

  g_assert_cmpstr (a, ==, SESSION_KEY);
  g_assert_cmpstr (b, ==, LEGACY_KEY);
  g_assert_cmpstr (c, ==, "9b8f1c0a6d005ed0f3dcdae1a3fc5f2758bc59c0");
  g_assert_cmpstr (d, ==, "3a62fc7fd3ab838419eccab5b58d0124a95b510d");
  g_assert_cmpstr (dir, ==, "/home/someone/.aws/sso/cache");
}

/* ---- Credentials from a cached token ---- */

static void
test_valid_token (Fixture *fx, gconstpointer data)
{
  g_autoptr (DdbAwsSession) s = NULL;
  g_autoptr (DdbAwsCredentials) creds = NULL;
  g_autofree char *token = token_json (NOW + 3600, TRUE, NOW + 86400);
  g_autofree char *before = NULL, *after = NULL, *command = NULL;
  GError *error = NULL;
  Fake fake;

  fake_init (&fake);
  fx_config (fx, SESSION_CONFIG);
  fx_cache (fx, SESSION_KEY, token);
  s = session_new (fx, "dev", &fake);
  g_assert_cmpstr (ddb_aws_session_get_method (s), ==, "sso");
  g_assert_cmpint (ddb_aws_session_get_sign_in (s, &command), ==, DDB_AWS_SIGN_IN_SSO);
  g_assert_cmpstr (command, ==, "aws sso login --profile dev");
  before = read_cache (fx, SESSION_KEY);
  creds = ddb_aws_session_get_credentials (s, NOW, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->creds.access_key_id, ==, "ASIASSO");
  g_assert_cmpstr (creds->creds.secret_access_key, ==, "sk-" SECRET_MARK);
  g_assert_cmpstr (creds->creds.session_token, ==, "st-" SECRET_MARK);
  g_assert_cmpint (creds->expiration, ==, 1900003600);
  g_assert_cmpstr (creds->method, ==, "sso");
  g_assert_cmpuint (fake.portal_calls, ==, 1);
  g_assert_cmpuint (fake.token_calls, ==, 0);
  g_assert_cmpstr (g_ptr_array_index (fake.methods, 0), ==, "GET");
  g_assert_cmpstr (g_ptr_array_index (fake.urls, 0), ==,
                   "https://portal.sso.eu-west-1.amazonaws.com/federation/credentials"
                   "?role_name=Read%20Only&account_id=123456789012");
  g_assert_cmpstr (g_ptr_array_index (fake.bearers, 0), ==, "at-old-" SECRET_MARK);
  /* Not due for a refresh: the cache is left alone. */
  after = read_cache (fx, SESSION_KEY);
  g_assert_cmpstr (before, ==, after);
  fake_clear (&fake);
}

static void
assert_no_temp_files (Fixture *fx)
{
  GDir *d = g_dir_open (fx->cache_dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_assert_true (g_str_has_suffix (name, ".json") && strlen (name) == 45);
  g_dir_close (d);
}

static void
assert_mode_0600 (Fixture *fx, const char *key)
{
  g_autofree char *p = cache_file (fx, key);
  GStatBuf st;

  g_assert_cmpint (g_stat (p, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
}

static void
test_refresh (Fixture *fx, gconstpointer data)
{
  /* Expired, and (second round) within the 15-minute window: refreshed either way. */
  static const gint64 left[] = { -60, 5 * 60 };

  for (guint round = 0; round < G_N_ELEMENTS (left); round++)
    {
      g_autoptr (DdbAwsSession) s = NULL;
      g_autoptr (DdbAwsCredentials) creds = NULL;
      g_autofree char *token = token_json (NOW + left[round], TRUE, NOW + 86400);
      g_autofree char *after = NULL;
      GError *error = NULL;
      Fake fake;

      fake_init (&fake);
      fx_config (fx, SESSION_CONFIG);
      fx_cache (fx, SESSION_KEY, token);
      s = session_new (fx, "dev", &fake);
      creds = ddb_aws_session_get_credentials (s, NOW, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (fake.token_calls, ==, 1);
      g_assert_cmpstr (g_ptr_array_index (fake.methods, 0), ==, "POST");
      g_assert_cmpstr (g_ptr_array_index (fake.bodies, 0), ==,
                       "{\"clientId\": \"cid-1\", \"clientSecret\": \"cs-" SECRET_MARK "\", "
                       "\"grantType\": \"refresh_token\", \"refreshToken\": \"rt-old-"
                       SECRET_MARK "\"}");
      /* The portal gets the new token. */
      g_assert_cmpstr (g_ptr_array_index (fake.bearers, 1), ==, "at-new-" SECRET_MARK);
      /* The cache as botocore's SSOTokenProvider writes it: NOW + 28800 s. */
      after = read_cache (fx, SESSION_KEY);
      g_assert_cmpstr (after, ==,
                       "{\"startUrl\": \"" START_URL "\", \"region\": \"eu-west-1\", "
                       "\"accessToken\": \"at-new-" SECRET_MARK "\", \"expiresAt\": "
                       "\"2030-03-18T01:46:40Z\", \"clientId\": \"cid-1\", \"clientSecret\": "
                       "\"cs-" SECRET_MARK "\", \"registrationExpiresAt\": "
                       "\"2030-03-18T17:46:40Z\", \"refreshToken\": \"rt-new-" SECRET_MARK
                       "\"}");
      assert_mode_0600 (fx, SESSION_KEY);
      assert_no_temp_files (fx);
      fake_clear (&fake);
    }
}

static void
test_refresh_refused (Fixture *fx, gconstpointer data)
{
  static const Answer refused[]
      = { { 400, "{\"error\": \"invalid_grant\", \"error_description\": \"Invalid refresh token "
                 "provided\"}" } };
  GError *error = NULL;
  Fake fake;

  /* Expired and refused: sign in again; the cache is left as it was. */
  {
    g_autofree char *token = token_json (NOW - 60, TRUE, NOW + 86400);
    g_autofree char *after = NULL;
    g_autoptr (DdbAwsSession) s = NULL;

    fake_init (&fake);
    fake.token_answers = refused;
    fake.n_token_answers = 1;
    fx_config (fx, SESSION_CONFIG);
    fx_cache (fx, SESSION_KEY, token);
    s = session_new (fx, "dev", &fake);
    g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
    assert_error (error, DDB_AWS_ERROR_SIGN_IN_REQUIRED, EXPIRED_MESSAGE ("dev"));
    g_clear_error (&error);
    g_assert_cmpuint (fake.token_calls, ==, 1);
    g_assert_cmpuint (fake.portal_calls, ==, 0);
    after = read_cache (fx, SESSION_KEY);
    g_assert_cmpstr (after, ==, token);
    fake_clear (&fake);
  }
  /* Within the window but still valid: refused, the old token is used. */
  {
    g_autofree char *token = token_json (NOW + 300, TRUE, NOW + 86400);
    g_autoptr (DdbAwsSession) s = NULL;
    g_autoptr (DdbAwsCredentials) creds = NULL;

    fake_init (&fake);
    fake.token_answers = refused;
    fake.n_token_answers = 1;
    fx_cache (fx, SESSION_KEY, token);
    s = session_new (fx, "dev", &fake);
    creds = ddb_aws_session_get_credentials (s, NOW, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (fake.token_calls, ==, 1);
    g_assert_cmpstr (g_ptr_array_index (fake.bearers, 1), ==, "at-old-" SECRET_MARK);
    fake_clear (&fake);
  }
  /* No refresh token, or an expired registration: no CreateToken at all. */
  for (guint round = 0; round < 2; round++)
    {
      g_autofree char *token = round == 0 ? token_json (NOW - 60, FALSE, 0)
                                          : token_json (NOW - 60, TRUE, NOW - 1);
      g_autoptr (DdbAwsSession) s = NULL;

      fake_init (&fake);
      fx_cache (fx, SESSION_KEY, token);
      s = session_new (fx, "dev", &fake);
      g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
      assert_error (error, DDB_AWS_ERROR_SIGN_IN_REQUIRED, EXPIRED_MESSAGE ("dev"));
      g_clear_error (&error);
      g_assert_cmpuint (fake.token_calls, ==, 0);
      fake_clear (&fake);
    }
  /* No answer at all: the transport's error, not a sign-in. */
  {
    g_autofree char *token = token_json (NOW - 60, TRUE, NOW + 86400);
    g_autoptr (DdbAwsSession) s = NULL;

    fake_init (&fake);
    fake.fail_transport = TRUE;
    fx_cache (fx, SESSION_KEY, token);
    s = session_new (fx, "dev", &fake);
    g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
    g_clear_error (&error);
    fake_clear (&fake);
  }
}

static void
test_portal_errors (Fixture *fx, gconstpointer data)
{
  g_autofree char *token = token_json (NOW + 3600, TRUE, NOW + 86400);
  GError *error = NULL;
  Fake fake;

  fx_config (fx, SESSION_CONFIG);
  fx_cache (fx, SESSION_KEY, token);
  {
    g_autoptr (DdbAwsSession) s = NULL;

    fake_init (&fake);
    fake.portal_status = 401;
    fake.portal_body = "{\"message\": \"Session token not found or invalid\"}";
    s = session_new (fx, "dev", &fake);
    g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
    assert_error (error, DDB_AWS_ERROR_SIGN_IN_REQUIRED, EXPIRED_MESSAGE ("dev"));
    g_clear_error (&error);
    fake_clear (&fake);
  }
  {
    g_autoptr (DdbAwsSession) s = NULL;

    fake_init (&fake);
    fake.portal_status = 403;
    fake.portal_body = "{\"message\": \"No access\"}";
    s = session_new (fx, "dev", &fake);
    g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
    assert_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                  "An error occurred (ForbiddenException) when calling the GetRoleCredentials "
                  "operation: No access");
    g_clear_error (&error);
    fake_clear (&fake);
  }
  {
    g_autoptr (DdbAwsSession) s = NULL;

    fake_init (&fake);
    fake.portal_body = "{\"roleCredentials\": {\"accessKeyId\": \"A\"}}";
    s = session_new (fx, "dev", &fake);
    g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
    assert_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, NULL);
    g_clear_error (&error);
    fake_clear (&fake);
  }
}

static void
test_legacy (Fixture *fx, gconstpointer data)
{
  GError *error = NULL;
  Fake fake;

  fx_config (fx, LEGACY_CONFIG);
  {
    g_autofree char *token = token_json (NOW + 600, TRUE, NOW + 86400);
    g_autoptr (DdbAwsSession) s = NULL;
    g_autoptr (DdbAwsCredentials) creds = NULL;
    g_autofree char *after = NULL;

    fake_init (&fake);
    fx_cache (fx, LEGACY_KEY, token);
    s = session_new (fx, "old", &fake);
    creds = ddb_aws_session_get_credentials (s, NOW, NULL, &error);
    g_assert_no_error (error);
    /* Legacy tokens are never refreshed, even within the window. */
    g_assert_cmpuint (fake.token_calls, ==, 0);
    g_assert_cmpstr (g_ptr_array_index (fake.urls, 0), ==,
                     "https://portal.sso.eu-west-1.amazonaws.com/federation/credentials"
                     "?role_name=Admin&account_id=123456789012");
    after = read_cache (fx, LEGACY_KEY);
    g_assert_cmpstr (after, ==, token);
    fake_clear (&fake);
  }
  {
    g_autofree char *token = token_json (NOW, TRUE, NOW + 86400);
    g_autoptr (DdbAwsSession) s = NULL;

    fake_init (&fake);
    fx_cache (fx, LEGACY_KEY, token);
    s = session_new (fx, "old", &fake);
    g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
    assert_error (error, DDB_AWS_ERROR_SIGN_IN_REQUIRED, EXPIRED_MESSAGE ("old"));
    g_clear_error (&error);
    g_assert_cmpuint (fake.token_calls + fake.portal_calls, ==, 0);
    fake_clear (&fake);
  }
}

static void
test_malformed_cache (Fixture *fx, gconstpointer data)
{
  static const struct {
    const char *text;
    const char *message; /* NULL: only that it names the file */
  } cases[] = {
    { NULL, "Error loading SSO Token: Token for my-sso does not exist." SIGN_IN_HINT ("dev") },
    { "{\"accessToken\": \"at-" SECRET_MARK "\", ", NULL },
    { "[\"at-" SECRET_MARK "\"]", NULL },
    { "{\"accessToken\": \"at-" SECRET_MARK "\"}",
      "Error loading SSO Token: Token for " START_URL " is invalid." SIGN_IN_HINT ("dev") },
    { "{\"expiresAt\": \"2030-01-01T00:00:00Z\"}",
      "Error loading SSO Token: Token for " START_URL " is invalid." SIGN_IN_HINT ("dev") },
    { "{\"accessToken\": \"at-" SECRET_MARK "\", \"expiresAt\": \"soon " SECRET_MARK "\"}",
      NULL },
    { "{\"accessToken\": \"at-" SECRET_MARK "\", \"expiresAt\": 1900000000}", NULL },
  };
  g_autofree char *path = cache_file (fx, SESSION_KEY);

  fx_config (fx, SESSION_CONFIG);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DdbAwsSession) s = NULL;
      GError *error = NULL;
      Fake fake;

      fake_init (&fake);
      g_unlink (path);
      if (cases[i].text != NULL)
        fx_cache (fx, SESSION_KEY, cases[i].text);
      s = session_new (fx, "dev", &fake);
      g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
      assert_error (error, DDB_AWS_ERROR_SIGN_IN_REQUIRED, cases[i].message);
      if (cases[i].message == NULL)
        g_assert_nonnull (strstr (error->message, path));
      g_assert_cmpuint (fake.portal_calls + fake.token_calls, ==, 0);
      g_clear_error (&error);
      fake_clear (&fake);
    }

  /* The first CLIs wrote "...UTC": still read. */
  {
    g_autoptr (DdbAwsSession) s = NULL;
    g_autoptr (DdbAwsCredentials) creds = NULL;
    GError *error = NULL;
    Fake fake;

    fake_init (&fake);
    fx_cache (fx, SESSION_KEY,
              "{\"accessToken\": \"at-" SECRET_MARK "\", \"expiresAt\": \"2030-06-01T00:00:00UTC\"}");
    s = session_new (fx, "dev", &fake);
    creds = ddb_aws_session_get_credentials (s, NOW, NULL, &error);
    g_assert_no_error (error);
    fake_clear (&fake);
  }
}

static void
test_config_errors (Fixture *fx, gconstpointer data)
{
  static const struct {
    const char *config;
    const char *message;
  } cases[] = {
    { "[profile p]\nsso_session = nope\nsso_account_id = 1\nsso_role_name = r\n",
      "The specified sso-session does not exist: \"nope\"" },
    { "[profile p]\nsso_session = s\nsso_account_id = 1\nsso_role_name = r\n"
      "sso_region = us-east-1\n[sso-session s]\nsso_start_url = https://x\nsso_region = "
      "eu-west-1\n",
      "The value for sso_region is inconsistent between profile (us-east-1) and sso-session "
      "(eu-west-1)." },
    { "[profile p]\nsso_session = s\nsso_account_id = 1\n[sso-session s]\nsso_region = r\n",
      "The profile \"p\" is configured to use SSO but is missing required configuration: "
      "sso_role_name, sso_start_url" },
    { "[profile p]\nsso_account_id = 1\nsso_start_url = https://x\n",
      "The profile \"p\" is configured to use SSO but is missing required configuration: "
      "sso_role_name, sso_region" },
    { "[profile p]\nsso_session = s\nsso_account_id = 1\nsso_role_name = r\n"
      "sso_start_url = https://x\n[sso-session s]\nsso_region = r\n",
      "The profile \"p\" is configured to use the SSO token provider but is missing the "
      "following configuration: ['sso_start_url']." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DdbAwsSessionOptions opts = { 0 };
      GError *error = NULL;

      fx_config (fx, cases[i].config);
      opts.profile = "p";
      opts.envp = (const char *const *) fx->env->pdata;
      g_assert_null (ddb_aws_session_new (&opts, &error));
      assert_error (error, DDB_AWS_ERROR_INVALID_CONFIG, cases[i].message);
      g_clear_error (&error);
    }
}

static void
test_login_config (Fixture *fx, gconstpointer data)
{
  GError *error = NULL;
  char *url = NULL, *name = NULL;

  fx_config (fx, SESSION_CONFIG LEGACY_CONFIG
             "[profile tokenonly]\nsso_session = my-sso\n"
             "[profile broken]\nsso_start_url = https://x\n"
             "[profile keys]\naws_access_key_id = A\naws_secret_access_key = B\n");
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, "tokenonly", NULL);
    g_autoptr (DdbSsoConfig) cfg = ddb_sso_config_for_login (s, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (cfg->session_name, ==, "my-sso");
    g_assert_cmpstr (cfg->start_url, ==, START_URL);
    g_assert_cmpstr (cfg->region, ==, "eu-west-1");
    g_assert_cmpstr (cfg->scopes[0], ==, "sso:account:access");
    g_assert_null (cfg->scopes[1]);
    g_assert_null (cfg->account_id);
    /* Not an SSO credential source (no account or role), but SSO to sign in to. */
    g_assert_cmpint (g_strcmp0 (ddb_aws_session_get_method (s), "sso"), !=, 0);
    g_assert_true (ddb_sso_profile_info (s, &url, &name));
    g_assert_cmpstr (url, ==, START_URL);
    g_assert_cmpstr (name, ==, "my-sso");
    g_clear_pointer (&url, g_free);
    g_clear_pointer (&name, g_free);
  }
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, "old", NULL);
    g_autoptr (DdbSsoConfig) cfg = ddb_sso_config_for_login (s, NULL, &error);

    g_assert_no_error (error);
    g_assert_null (cfg->session_name);
    g_assert_null (cfg->scopes);
    g_assert_cmpstr (cfg->role_name, ==, "Admin");
    g_assert_true (ddb_sso_profile_info (s, &url, &name));
    g_assert_cmpstr (url, ==, START_URL);
    g_assert_null (name);
    g_clear_pointer (&url, g_free);
  }
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, "broken", NULL);

    g_assert_null (ddb_sso_config_for_login (s, NULL, &error));
    assert_error (error, DDB_AWS_ERROR_INVALID_CONFIG,
                  "Missing the following required SSO configuration values: sso_region. To "
                  "make sure this profile is properly configured to use SSO, please run: aws "
                  "configure sso");
    g_clear_error (&error);
    g_assert_null (ddb_sso_config_for_login (s, "other", &error));
    assert_error (error, DDB_AWS_ERROR_INVALID_CONFIG,
                  "The specified sso-session does not exist: \"other\"");
    g_clear_error (&error);
  }
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, "keys", NULL);

    g_assert_false (ddb_sso_profile_info (s, &url, &name));
    g_assert_null (url);
    g_assert_null (name);
  }
}

/* ---- The device flow ---- */

typedef struct {
  gint64 now;
  GArray *waits; /* guint seconds */
  guint cancel_at_wait; /* 1-based; 0: never */
  GCancellable *cancellable;
} TestClock;

static gint64
test_now (gpointer user_data)
{
  return ((TestClock *) user_data)->now;
}

static gboolean
test_wait (guint seconds, GCancellable *cancellable, gpointer user_data, GError **error)
{
  TestClock *c = user_data;

  g_array_append_val (c->waits, seconds);
  if (c->waits->len == c->cancel_at_wait)
    g_cancellable_cancel (c->cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  c->now += seconds;
  return TRUE;
}

#define PENDING { 400, "{\"error\": \"authorization_pending\", \"error_description\": \"x\"}" }
#define SLOW_DOWN { 400, "{\"error\": \"slow_down\"}" }
#define EXPIRED { 400, "{\"error\": \"expired_token\", \"error_description\": \"gone\"}" }
#define DENIED { 400, "{\"error\": \"access_denied\", \"error_description\": \"denied\"}" }
#define GRANTED                                                                                  \
  { 200, "{\"accessToken\": \"at-new-" SECRET_MARK "\", \"tokenType\": \"Bearer\", "            \
         "\"expiresIn\": 28800, \"refreshToken\": \"rt-new-" SECRET_MARK "\"}" }

static DdbSsoLogin *
login_start (DdbAwsSession *s, TestClock *clock, DdbSsoClock *sc, GError **error)
{
  DdbSsoLoginOptions options = { 0 };

  sc->now = test_now;
  sc->wait = test_wait;
  sc->user_data = clock;
  options.clock = sc;
  return ddb_sso_login_start_full (s, &options, clock->cancellable, error);
}

static void
test_device_flow (Fixture *fx, gconstpointer data)
{
  static const Answer answers[] = { PENDING, PENDING, SLOW_DOWN, PENDING, GRANTED };
  TestClock clock = { NOW, g_array_new (FALSE, FALSE, sizeof (guint)), 0, NULL };
  DdbSsoClock sc;
  GError *error = NULL;
  g_autofree char *text = NULL, *reg = NULL, *reg_path = NULL;
  Fake fake;

  fake_init (&fake);
  fake.token_answers = answers;
  fake.n_token_answers = G_N_ELEMENTS (answers);
  fx_config (fx, SESSION_CONFIG);
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, "dev", &fake);
    g_autoptr (DdbSsoLogin) login = login_start (s, &clock, &sc, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (ddb_sso_login_get_user_code (login), ==, "WDDD-HRQV");
    g_assert_cmpstr (ddb_sso_login_get_verification_uri (login), ==,
                     "https://device.sso.eu-west-1.amazonaws.com/");
    g_assert_cmpstr (ddb_sso_login_get_verification_uri_complete (login), ==,
                     "https://device.sso.eu-west-1.amazonaws.com/?user_code=WDDD-HRQV");
    g_assert_cmpint (ddb_sso_login_get_expires_in (login), ==, 600);
    g_assert_cmpuint (ddb_sso_login_get_interval (login), ==, 1);
    g_assert_cmpstr (g_ptr_array_index (fake.bodies, 0), ==,
                     "{\"clientName\": \"botocore-client-my-sso\", \"clientType\": \"public\", "
                     "\"scopes\": [\"sso:account:access\"]}");
    g_assert_cmpstr (g_ptr_array_index (fake.bodies, 1), ==,
                     "{\"clientId\": \"cid-1\", \"clientSecret\": \"cs-" SECRET_MARK "\", "
                     "\"startUrl\": \"" START_URL "\"}");
    g_assert_true (ddb_sso_login_finish (login, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (g_ptr_array_index (fake.bodies, 2), ==,
                     "{\"clientId\": \"cid-1\", \"clientSecret\": \"cs-" SECRET_MARK "\", "
                     "\"grantType\": \"urn:ietf:params:oauth:grant-type:device_code\", "
                     "\"deviceCode\": \"dc-" SECRET_MARK "\"}");
    g_assert_cmpuint (fake.token_calls, ==, 5);
    /* Pending twice at the interval, then 5 s more after slow_down. */
    g_assert_cmpuint (clock.waits->len, ==, 4);
    g_assert_cmpuint (g_array_index (clock.waits, guint, 0), ==, 1);
    g_assert_cmpuint (g_array_index (clock.waits, guint, 1), ==, 1);
    g_assert_cmpuint (g_array_index (clock.waits, guint, 2), ==, 6);
    g_assert_cmpuint (g_array_index (clock.waits, guint, 3), ==, 6);
    g_assert_true (g_str_has_suffix (ddb_sso_login_get_cache_path (login),
                                     "/.aws/sso/cache/" SESSION_KEY ".json"));
  }
  /* The token file as `aws sso login` writes it: NOW + 14 s of waiting + 28800 s. */
  text = read_cache (fx, SESSION_KEY);
  g_assert_cmpstr (text, ==,
                   "{\"startUrl\": \"" START_URL "\", \"region\": \"eu-west-1\", "
                   "\"accessToken\": \"at-new-" SECRET_MARK "\", \"expiresAt\": "
                   "\"2030-03-18T01:46:54Z\", \"clientId\": \"cid-1\", \"clientSecret\": "
                   "\"cs-" SECRET_MARK "\", \"registrationExpiresAt\": \"2030-06-15T17:46:40Z\", "
                   "\"refreshToken\": \"rt-new-" SECRET_MARK "\"}");
  assert_mode_0600 (fx, SESSION_KEY);
  reg = read_cache (fx, "9b8f1c0a6d005ed0f3dcdae1a3fc5f2758bc59c0");
  g_assert_cmpstr (reg, ==,
                   "{\"clientId\": \"cid-1\", \"clientSecret\": \"cs-" SECRET_MARK "\", "
                   "\"expiresAt\": \"2030-06-15T17:46:40Z\", \"scopes\": "
                   "[\"sso:account:access\"]}");
  assert_mode_0600 (fx, "9b8f1c0a6d005ed0f3dcdae1a3fc5f2758bc59c0");
  assert_no_temp_files (fx);

  /* The credentials now come from it. */
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, "dev", &fake);
    g_autoptr (DdbAwsCredentials) creds = ddb_aws_session_get_credentials (s, clock.now, NULL,
                                                                           &error);

    g_assert_no_error (error);
    g_assert_cmpstr (g_ptr_array_index (fake.bearers, fake.bearers->len - 1), ==,
                     "at-new-" SECRET_MARK);
  }

  /* A second login reuses the cached registration. */
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, "dev", &fake);
    g_autoptr (DdbSsoLogin) login = NULL;

    fake.token_calls = 0;
    login = login_start (s, &clock, &sc, &error);
    g_assert_no_error (error);
    g_assert_true (ddb_sso_login_finish (login, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (fake.register_calls, ==, 1);
    g_assert_cmpuint (fake.device_calls, ==, 2);
  }
  /* ... unless it expires within 15 minutes. */
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, "dev", &fake);
    g_autoptr (DdbSsoLogin) login = NULL;

    clock.now = NOW + 90 * 86400 - 14 * 60;
    login = login_start (s, &clock, &sc, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (fake.register_calls, ==, 2);
  }
  g_array_free (clock.waits, TRUE);
  fake_clear (&fake);
}

static void
test_device_flow_legacy (Fixture *fx, gconstpointer data)
{
  TestClock clock = { NOW, g_array_new (FALSE, FALSE, sizeof (guint)), 0, NULL };
  DdbSsoClock sc;
  GError *error = NULL;
  g_autofree char *text = NULL;
  Fake fake;

  fake_init (&fake);
  fx_config (fx, LEGACY_CONFIG);
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, "old", &fake);
    g_autoptr (DdbSsoLogin) login = login_start (s, &clock, &sc, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (g_ptr_array_index (fake.bodies, 0), ==,
                     "{\"clientName\": \"botocore-client-1900000000\", \"clientType\": "
                     "\"public\"}");
    g_assert_true (ddb_sso_login_finish (login, NULL, &error));
    g_assert_no_error (error);
  }
  text = read_cache (fx, LEGACY_KEY);
  g_assert_nonnull (text);
  g_assert_true (g_str_has_prefix (text, "{\"startUrl\": \"" START_URL "\""));
  g_free (text);
  text = read_cache (fx, "3a62fc7fd3ab838419eccab5b58d0124a95b510d");
  g_assert_nonnull (text);
  /* The writer made the missing directory, 0700. */
  {
    GStatBuf st;

    g_assert_cmpint (g_stat (fx->cache_dir, &st), ==, 0);
    g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  }
  g_array_free (clock.waits, TRUE);
  fake_clear (&fake);
}

static void
test_device_flow_failures (Fixture *fx, gconstpointer data)
{
  static const Answer expired[] = { PENDING, EXPIRED };
  static const Answer denied[] = { DENIED };
  static const Answer pending[] = { PENDING };
  GError *error = NULL;
  DdbSsoClock sc;
  Fake fake;

  fx_config (fx, SESSION_CONFIG);

  /* The service says the code expired. */
  {
    TestClock clock = { NOW, g_array_new (FALSE, FALSE, sizeof (guint)), 0, NULL };
    g_autoptr (DdbAwsSession) s = NULL;
    g_autoptr (DdbSsoLogin) login = NULL;

    fake_init (&fake);
    fake.token_answers = expired;
    fake.n_token_answers = G_N_ELEMENTS (expired);
    s = session_new (fx, "dev", &fake);
    login = login_start (s, &clock, &sc, &error);
    g_assert_no_error (error);
    g_assert_false (ddb_sso_login_finish (login, NULL, &error));
    assert_error (error, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
                  "The pending authorization to retrieve an SSO token has expired. The login "
                  "flow to retrieve an SSO token must be restarted.");
    g_clear_error (&error);
    g_assert_cmpuint (fake.token_calls, ==, 2);
    {
      g_autofree char *path = cache_file (fx, SESSION_KEY);

      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }
    g_array_free (clock.waits, TRUE);
    fake_clear (&fake);
  }
  /* The code's own lifetime runs out while pending. */
  {
    TestClock clock = { NOW, g_array_new (FALSE, FALSE, sizeof (guint)), 0, NULL };
    g_autoptr (DdbAwsSession) s = NULL;
    g_autoptr (DdbSsoLogin) login = NULL;

    fake_init (&fake);
    fake.token_answers = pending;
    fake.n_token_answers = 1;
    fake.device_answer = "{\"deviceCode\": \"dc\", \"userCode\": \"U\", \"verificationUri\": "
                         "\"https://v/\", \"verificationUriComplete\": \"https://v/?u\", "
                         "\"expiresIn\": 20, \"interval\": 5}";
    s = session_new (fx, "dev", &fake);
    login = login_start (s, &clock, &sc, &error);
    g_assert_no_error (error);
    g_assert_false (ddb_sso_login_finish (login, NULL, &error));
    assert_error (error, DDB_AWS_ERROR_SIGN_IN_REQUIRED, NULL);
    g_clear_error (&error);
    g_assert_cmpuint (fake.token_calls, ==, 4);
    g_array_free (clock.waits, TRUE);
    fake_clear (&fake);
  }
  /* Refused in the browser. */
  {
    TestClock clock = { NOW, g_array_new (FALSE, FALSE, sizeof (guint)), 0, NULL };
    g_autoptr (DdbAwsSession) s = NULL;
    g_autoptr (DdbSsoLogin) login = NULL;

    fake_init (&fake);
    fake.token_answers = denied;
    fake.n_token_answers = 1;
    s = session_new (fx, "dev", &fake);
    login = login_start (s, &clock, &sc, &error);
    g_assert_false (ddb_sso_login_finish (login, NULL, &error));
    assert_error (error, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
                  "An error occurred (AccessDeniedException) when calling the CreateToken "
                  "operation: denied");
    g_clear_error (&error);
    g_array_free (clock.waits, TRUE);
    fake_clear (&fake);
  }
  /* Cancelled during the second wait: stops there, no more polls. */
  {
    g_autoptr (GCancellable) cancellable = g_cancellable_new ();
    TestClock clock = { NOW, g_array_new (FALSE, FALSE, sizeof (guint)), 2, cancellable };
    g_autoptr (DdbAwsSession) s = NULL;
    g_autoptr (DdbSsoLogin) login = NULL;

    fake_init (&fake);
    fake.token_answers = pending;
    fake.n_token_answers = 1;
    s = session_new (fx, "dev", &fake);
    login = login_start (s, &clock, &sc, &error);
    g_assert_no_error (error);
    g_assert_false (ddb_sso_login_finish (login, cancellable, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
    g_assert_cmpuint (fake.token_calls, ==, 2);
    g_array_free (clock.waits, TRUE);
    fake_clear (&fake);
  }
}

static gpointer
cancel_soon (gpointer data)
{
  g_usleep (50000);
  g_cancellable_cancel (data);
  return NULL;
}

/* The real wait: a cancel from another thread ends a 60-second interval at once. */
static void
test_device_flow_cancel_real_wait (Fixture *fx, gconstpointer data)
{
  static const Answer pending[] = { PENDING };
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (DdbAwsSession) s = NULL;
  g_autoptr (DdbSsoLogin) login = NULL;
  GError *error = NULL;
  GThread *thread;
  gint64 start;
  Fake fake;

  fake_init (&fake);
  fake.token_answers = pending;
  fake.n_token_answers = 1;
  fake.device_answer = "{\"deviceCode\": \"dc\", \"userCode\": \"U\", \"verificationUri\": "
                       "\"https://v/\", \"verificationUriComplete\": \"https://v/?u\", "
                       "\"expiresIn\": 600, \"interval\": 60}";
  fx_config (fx, SESSION_CONFIG);
  s = session_new (fx, "dev", &fake);
  login = ddb_sso_login_start (s, NULL, &error);
  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  thread = g_thread_new ("cancel", cancel_soon, cancellable);
  g_assert_false (ddb_sso_login_finish (login, cancellable, &error));
  g_thread_join (thread);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 30 * G_USEC_PER_SEC);
  g_assert_cmpuint (fake.token_calls, ==, 1);
  fake_clear (&fake);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_writer_default_set_use_stderr (TRUE);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  g_test_add_func ("/net/sso/cache-names", test_cache_names);
  ADD ("/net/sso/valid-token", test_valid_token);
  ADD ("/net/sso/refresh", test_refresh);
  ADD ("/net/sso/refresh-refused", test_refresh_refused);
  ADD ("/net/sso/portal-errors", test_portal_errors);
  ADD ("/net/sso/legacy", test_legacy);
  ADD ("/net/sso/malformed-cache", test_malformed_cache);
  ADD ("/net/sso/config-errors", test_config_errors);
  ADD ("/net/sso/login-config", test_login_config);
  ADD ("/net/sso/device-flow", test_device_flow);
  ADD ("/net/sso/device-flow-legacy", test_device_flow_legacy);
  ADD ("/net/sso/device-flow-failures", test_device_flow_failures);
  ADD ("/net/sso/device-flow-cancel", test_device_flow_cancel_real_wait);
#undef ADD
  return g_test_run ();
}
