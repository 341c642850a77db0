/* test-credentials.c: the shared config files, the credential chain, credential_process,
 * AssumeRole through a fake STS, and region and endpoint resolution, against the AWS CLI v2's
 * rules. Each test writes its files into a fresh temporary directory and resolves against an
 * environment array of its own, so the process environment is never touched (one test does use
 * it, in a subprocess). */
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/awsconfig.h"
#include "net/credentials.h"
#include "net/endpoints.h"
#include "net/sts.h"

/* Every secret in the fixtures contains this, so a leak into a message is easy to spot. */
#define SECRET_MARK "SeCrEt"

typedef struct {
  char *dir;
  GPtrArray *env; /* "NAME=value", NULL-terminated */
} Fixture;

static void
fixture_setup (Fixture *fx, gconstpointer data)
{
  GError *error = NULL;

  fx->dir = g_dir_make_tmp ("dynoscope-cred-XXXXXX", &error);
  g_assert_no_error (error);
  fx->env = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (fx->env, g_strdup_printf ("HOME=%s", fx->dir));
  /* No region or credentials from instance metadata: the fake transport is not IMDS. */
  g_ptr_array_add (fx->env, g_strdup ("AWS_EC2_METADATA_DISABLED=true"));
  g_ptr_array_add (fx->env, g_strdup_printf ("PATH=%s", g_getenv ("PATH")));
  g_ptr_array_add (fx->env, g_strdup_printf ("AWS_CONFIG_FILE=%s/config", fx->dir));
  g_ptr_array_add (fx->env,
                   g_strdup_printf ("AWS_SHARED_CREDENTIALS_FILE=%s/credentials", fx->dir));
  g_ptr_array_add (fx->env, g_strdup_printf ("TESTDIR=%s", fx->dir));
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
  g_ptr_array_free (fx->env, TRUE);
}

/* Sets NAME in the fixture's environment (replacing it), or unsets it when VALUE is NULL. */
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

static const char *const *
fx_env (Fixture *fx)
{
  return (const char *const *) fx->env->pdata;
}

static void
fx_write (Fixture *fx, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (fx->dir, name, NULL);
  GError *error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static char *
fx_path (Fixture *fx, const char *name)
{
  return g_build_filename (fx->dir, name, NULL);
}

/* ---- A fake STS ---- */

typedef struct {
  GPtrArray *bodies;  /* request bodies received */
  GPtrArray *key_ids; /* access key ids they were signed with */
  GPtrArray *urls;
  GPtrArray *regions;
  guint status; /* to answer with */
  guint calls;
  const char *expiration;
  gboolean fail_transport;
} FakeSts;

static void
fake_sts_init (FakeSts *sts)
{
  memset (sts, 0, sizeof *sts);
  sts->bodies = g_ptr_array_new_with_free_func (g_free);
  sts->key_ids = g_ptr_array_new_with_free_func (g_free);
  sts->urls = g_ptr_array_new_with_free_func (g_free);
  sts->regions = g_ptr_array_new_with_free_func (g_free);
  sts->status = 200;
  sts->expiration = "2030-01-01T01:00:00Z";
}

static void
fake_sts_clear (FakeSts *sts)
{
  g_ptr_array_free (sts->bodies, TRUE);
  g_ptr_array_free (sts->key_ids, TRUE);
  g_ptr_array_free (sts->urls, TRUE);
  g_ptr_array_free (sts->regions, TRUE);
}

static gboolean
fake_sts (const DdbAwsRequest *req, guint *status, GBytes **body, gpointer user_data,
          GCancellable *cancellable, GError **error)
{
  FakeSts *sts = user_data;
  char *xml;

  sts->calls++;
  g_ptr_array_add (sts->bodies, g_strndup ((const char *) req->body, req->body_len));
  g_ptr_array_add (sts->key_ids, g_strdup (req->sign_credentials->access_key_id));
  g_ptr_array_add (sts->urls, g_strdup (req->url));
  g_ptr_array_add (sts->regions, g_strdup (req->sign_region));
  g_assert_cmpstr (req->method, ==, "POST");
  g_assert_cmpstr (req->sign_service, ==, "sts");
  g_assert_cmpuint (req->n_headers, ==, 1);
  g_assert_cmpstr (req->headers[0].name, ==, "Content-Type");
  g_assert_cmpstr (req->headers[0].value, ==, "application/x-www-form-urlencoded; charset=utf-8");
  g_assert_nonnull (req->sign_credentials->secret_access_key);
  if (sts->fail_transport)
    {
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "Connection timed out");
      return FALSE;
    }
  *status = sts->status;
  if (sts->status == 200)
    xml = g_strdup_printf (
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
        "  <AssumeRoleResult>\n"
        "    <SourceIdentity>someone</SourceIdentity>\n"
        "    <AssumedRoleUser>\n"
        "      <Arn>arn:aws:sts::123456789012:assumed-role/demo/s</Arn>\n"
        "      <AssumedRoleId>ARO123EXAMPLE123:s</AssumedRoleId>\n"
        "    </AssumedRoleUser>\n"
        "    <Credentials>\n"
        "      <AccessKeyId>ASIAROLE%u</AccessKeyId>\n"
        "      <SecretAccessKey>role" SECRET_MARK "%u&amp;x</SecretAccessKey>\n"
        "      <SessionToken>TOKEN%u</SessionToken>\n"
        "      <Expiration>%s</Expiration>\n"
        "    </Credentials>\n"
        "    <PackedPolicySize>6</PackedPolicySize>\n"
        "  </AssumeRoleResult>\n"
        "  <ResponseMetadata><RequestId>c6104cbe</RequestId></ResponseMetadata>\n"
        "</AssumeRoleResponse>\n",
        sts->calls, sts->calls, sts->calls, sts->expiration);
  else
    xml = g_strdup (
        "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
        "  <Error>\n    <Type>Sender</Type>\n    <Code>AccessDenied</Code>\n"
        "    <Message>User: arn:aws:iam::123456789012:user/u is not authorized to perform: "
        "sts:AssumeRole</Message>\n  </Error>\n  <RequestId>f00</RequestId>\n"
        "</ErrorResponse>\n");
  *body = g_bytes_new_take (xml, strlen (xml));
  return TRUE;
}

/* ---- Helpers ---- */

static DdbAwsSession *
session_new (Fixture *fx, const char *profile, const char *region, const char *endpoint,
             FakeSts *sts, GError **error)
{
  DdbAwsSessionOptions opts = { 0 };

  opts.profile = profile;
  opts.region = region;
  opts.endpoint_url = endpoint;
  opts.envp = fx_env (fx);
  opts.transport = sts != NULL ? fake_sts : NULL;
  opts.transport_data = sts;
  return ddb_aws_session_new (&opts, error);
}

static DdbAwsSession *
session_ok (Fixture *fx, const char *profile, FakeSts *sts)
{
  GError *error = NULL;
  DdbAwsSession *s = session_new (fx, profile, NULL, NULL, sts, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

/* Asserts the error's code and message, and that the message leaks no secret. */
static void
assert_error (GError *error, int code, const char *message)
{
  g_assert_nonnull (error);
  g_assert_null (strstr (error->message, SECRET_MARK));
  g_assert_error (error, DDB_AWS_ERROR, code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
}

static void
assert_session_error (Fixture *fx, const char *profile, int code, const char *message)
{
  GError *error = NULL;
  DdbAwsSession *s = session_new (fx, profile, NULL, NULL, NULL, &error);

  g_assert_null (s);
  assert_error (error, code, message);
  g_error_free (error);
}

/* Resolves the credentials at NOW and checks the access key id and method. */
static void
assert_creds (DdbAwsSession *s, gint64 now, const char *key_id, const char *token,
              const char *method)
{
  GError *error = NULL;
  g_autoptr (DdbAwsCredentials) c = ddb_aws_session_get_credentials (s, now, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->creds.access_key_id, ==, key_id);
  g_assert_nonnull (strstr (c->creds.secret_access_key, SECRET_MARK));
  g_assert_cmpstr (c->creds.session_token, ==, token);
  g_assert_cmpstr (c->method, ==, method);
}

static void
assert_creds_error (DdbAwsSession *s, gint64 now, int code, const char *message)
{
  GError *error = NULL;
  DdbAwsCredentials *c = ddb_aws_session_get_credentials (s, now, NULL, &error);

  g_assert_null (c);
  assert_error (error, code, message);
  g_error_free (error);
}

#define NOW 1893456000 /* 2030-01-01T00:00:00Z */

/* ---- The INI parser ---- */

static DdbIniFile *
ini (const char *text)
{
  GError *error = NULL;
  DdbIniFile *f = ddb_ini_file_parse (text, -1, "/x/config", &error);

  g_assert_no_error (error);
  return f;
}

static void
test_ini_syntax (void)
{
  g_autoptr (DdbIniFile) f = ini ("# leading comment\n"
                                  "; another\n"
                                  "[default]\n"
                                  "region = us-west-2\n"
                                  "Output:json\n"
                                  "  # an indented comment line is a comment\n"
                                  "name  =  spaced value  \n"
                                  "inline = value # not a comment\n"
                                  "empty =\n"
                                  "eq = a=b:c\n"
                                  "[profile dev]  trailing text after the last bracket is ignored\n"
                                  "multi = first\n"
                                  "  second\n"
                                  "\n"
                                  "  third\n"
                                  "\n"
                                  "after = x\n"
                                  "[we]ird]\n"
                                  "k = v\n");

  g_assert_cmpstr (ddb_ini_file_get (f, "default", "region"), ==, "us-west-2");
  g_assert_cmpstr (ddb_ini_file_get (f, "default", "output"), ==, "json");
  g_assert_null (ddb_ini_file_get (f, "default", "Output"));
  g_assert_cmpstr (ddb_ini_file_get (f, "default", "name"), ==, "spaced value");
  g_assert_cmpstr (ddb_ini_file_get (f, "default", "inline"), ==, "value # not a comment");
  g_assert_cmpstr (ddb_ini_file_get (f, "default", "empty"), ==, "");
  g_assert_cmpstr (ddb_ini_file_get (f, "default", "eq"), ==, "a=b:c");
  g_assert_true (ddb_ini_file_has_section (f, "profile dev"));
  /* Continuation lines join with newlines, blank lines inside kept, trailing ones dropped. */
  g_assert_cmpstr (ddb_ini_file_get (f, "profile dev", "multi"), ==, "first\nsecond\n\nthird");
  g_assert_cmpstr (ddb_ini_file_get (f, "profile dev", "after"), ==, "x");
  g_assert_cmpstr (ddb_ini_file_get (f, "we]ird", "k"), ==, "v");
  g_assert_cmpstr (ddb_ini_file_get_sections (f)[0], ==, "default");
  g_assert_cmpstr (ddb_ini_file_get_sections (f)[1], ==, "profile dev");
  g_assert_cmpstr (ddb_ini_file_get_sections (f)[2], ==, "we]ird");
  g_assert_null (ddb_ini_file_get_sections (f)[3]);
}

static void
test_ini_nested (void)
{
  g_autoptr (DdbIniFile) f = ini ("[services local]\r\n"
                                  "dynamodb =\r\n"
                                  "  endpoint_url = http://localhost:8000\r\n"
                                  "  Other_Key=  a = b \r\n"
                                  "\r\n"
                                  "s3 =\r\n"
                                  "\tendpoint_url = http://s3\r\n"
                                  "plain = 1\r\n");

  g_assert_true (ddb_ini_file_has_key (f, "services local", "dynamodb"));
  g_assert_null (ddb_ini_file_get (f, "services local", "dynamodb"));
  g_assert_cmpstr (ddb_ini_file_get_nested (f, "services local", "dynamodb", "endpoint_url"), ==,
                   "http://localhost:8000");
  /* Nested keys keep their case; the value is split at the first '=' only. */
  g_assert_cmpstr (ddb_ini_file_get_nested (f, "services local", "dynamodb", "Other_Key"), ==,
                   "a = b");
  g_assert_null (ddb_ini_file_get_nested (f, "services local", "dynamodb", "other_key"));
  g_assert_cmpstr (ddb_ini_file_get_nested (f, "services local", "s3", "endpoint_url"), ==,
                   "http://s3");
  g_assert_cmpstr (ddb_ini_file_get (f, "services local", "plain"), ==, "1");
}

static void
test_ini_default_section (void)
{
  /* configparser's [DEFAULT] is not a section: its keys show through everywhere. */
  g_autoptr (DdbIniFile) f = ini ("[DEFAULT]\nregion = eu-west-1\n[a]\n[b]\nregion = us-east-2\n");

  g_assert_false (ddb_ini_file_has_section (f, "DEFAULT"));
  g_assert_cmpstr (ddb_ini_file_get (f, "a", "region"), ==, "eu-west-1");
  g_assert_cmpstr (ddb_ini_file_get (f, "b", "region"), ==, "us-east-2");
}

static void
test_ini_errors (void)
{
  static const struct {
    const char *text;
    const char *message;
  } cases[] = {
    { "aws_secret_access_key = " SECRET_MARK "\n",
      "Unable to parse config file: /x/config (line 1: a setting before any [section] header)" },
    { "[a]\nx = 1\n[a]\n", "Unable to parse config file: /x/config (line 3: section [a] appears "
                           "twice)" },
    { "[a]\nX = 1\nx = 2\n",
      "Unable to parse config file: /x/config (line 3: setting x appears twice in [a])" },
    { "[a]\nx = 1\n" SECRET_MARK "\n",
      "Unable to parse config file: /x/config (line 3: expected `name = value`)" },
    { "[a]\n= 1\n", "Unable to parse config file: /x/config (line 2: a setting without a name)" },
    { "[]\n", "Unable to parse config file: /x/config (line 1: a setting before any [section] "
              "header)" },
    { "[a]\n[]\n", "Unable to parse config file: /x/config (line 2: expected `name = value`)" },
    { "[a]\nx =\n  " SECRET_MARK "\n",
      "Unable to parse config file: /x/config (a nested setting without `=`)" },
    { "[a]\nx = \xff\n", "Unable to parse config file: /x/config (not valid UTF-8 text)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GError *error = NULL;
      DdbIniFile *f = ddb_ini_file_parse (cases[i].text, -1, "/x/config", &error);

      g_assert_null (f);
      assert_error (error, DDB_AWS_ERROR_CONFIG_PARSE, cases[i].message);
      g_error_free (error);
    }
}

static void
test_shell_split (void)
{
  static const struct {
    const char *line;
    const char *words; /* joined with '|' */
  } cases[] = {
    { "cmd a b", "cmd|a|b" },   { "  cmd\t 'a b'  \"c d\" ", "cmd|a b|c d" },
    { "a\\ b", "a b" },         { "\"x\\\"y\\\\z\\n\"", "x\"y\\z\\n" },
    { "'it''s' \"\"", "its|" }, { "pre'quoted'post", "prequotedpost" },
    { "'a\\b'", "a\\b" },       { "# not a comment", "#|not|a|comment" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GError *error = NULL;
      g_auto (GStrv) words = ddb_aws_shell_split (cases[i].line, &error);
      g_autofree char *joined = NULL;

      g_assert_no_error (error);
      joined = g_strjoinv ("|", words);
      g_assert_cmpstr (joined, ==, cases[i].words);
    }
  {
    GError *error = NULL;
    char **words = ddb_aws_shell_split ("a 'b", &error);

    g_assert_null (words);
    g_assert_error (error, G_SHELL_ERROR, G_SHELL_ERROR_BAD_QUOTING);
    g_assert_cmpstr (error->message, ==, "No closing quotation");
    g_clear_error (&error);
    words = ddb_aws_shell_split ("a\\", &error);
    g_assert_null (words);
    g_assert_cmpstr (error->message, ==, "No escaped character");
    g_clear_error (&error);
  }
}

static void
test_expand_path (void)
{
  const char *env[] = { "HOME=/home/u/", "X=abc", NULL };
  g_autofree char *a = ddb_aws_expand_path ("~/.aws/$X/${X}/$NOPE/${NOPE}/$", env);
  g_autofree char *b = ddb_aws_expand_path ("~", env);
  g_autofree char *c = ddb_aws_expand_path ("/a/~/b", env);
  g_autofree char *d = ddb_aws_expand_path ("~other/x", env);
  const char *env2[] = { "AWS_CONFIG_FILE=$HOME/cfg", "HOME=/h", NULL };
  g_autofree char *e = ddb_aws_config_file_path (env2);
  g_autofree char *f = ddb_aws_credentials_file_path (env2);

  g_assert_cmpstr (a, ==, "/home/u/.aws/abc/abc/$NOPE/${NOPE}/$");
  g_assert_cmpstr (b, ==, "/home/u");
  g_assert_cmpstr (c, ==, "/a/~/b");
  g_assert_cmpstr (d, ==, "~other/x");
  g_assert_cmpstr (e, ==, "/h/cfg");
  g_assert_cmpstr (f, ==, "/h/.aws/credentials");
}

/* ---- The profile map ---- */

static void
test_profile_map (Fixture *fx, gconstpointer data)
{
  GError *error = NULL;
  g_autofree char *cfg_path = fx_path (fx, "config");
  g_autofree char *cred_path = fx_path (fx, "credentials");
  g_autoptr (DdbAwsConfig) cfg = NULL;
  g_auto (GStrv) names = NULL;
  g_autofree char *joined = NULL;

  fx_write (fx, "config",
            "[default]\nregion = us-east-1\noutput = json\n"
            "[profile dev]\nregion = eu-west-1\naws_access_key_id = CONFIGKEY\n"
            "[bare]\nregion = ap-south-1\n"
            "[profile \"with space\"]\nregion = ca-central-1\n"
            "[profile a b]\nregion = sa-east-1\n"
            "[profile default]\nregion = us-west-1\n"
            "[services local]\ndynamodb =\n  endpoint_url = http://localhost:8000\n");
  fx_write (fx, "credentials",
            "[dev]\naws_access_key_id = CREDKEY\n"
            "[profile prod]\nregion = eu-north-1\n");
  cfg = ddb_aws_config_load (fx_env (fx), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ddb_aws_config_get_config_path (cfg), ==, cfg_path);
  g_assert_cmpstr (ddb_aws_config_get_credentials_path (cfg), ==, cred_path);

  /* [profile default] came later and replaced [default] as a whole. */
  g_assert_cmpstr (ddb_aws_config_get (cfg, "default", "region"), ==, "us-west-1");
  g_assert_null (ddb_aws_config_get (cfg, "default", "output"));
  /* In the config file, [bare] is not a profile; in the credentials file, [profile prod] is the
   * profile named "profile prod". */
  g_assert_false (ddb_aws_config_has_profile (cfg, "bare"));
  g_assert_false (ddb_aws_config_has_profile (cfg, "prod"));
  g_assert_true (ddb_aws_config_has_profile (cfg, "profile prod"));
  g_assert_cmpstr (ddb_aws_config_get (cfg, "with space", "region"), ==, "ca-central-1");
  g_assert_false (ddb_aws_config_has_profile (cfg, "a"));
  /* The credentials file's values win over the config file's. */
  g_assert_cmpstr (ddb_aws_config_get (cfg, "dev", "aws_access_key_id"), ==, "CREDKEY");
  g_assert_cmpstr (ddb_aws_config_file_get (cfg, DDB_AWS_FILE_CONFIG, "dev", "aws_access_key_id"),
                   ==, "CONFIGKEY");
  g_assert_cmpstr (ddb_aws_config_get (cfg, "dev", "region"), ==, "eu-west-1");
  g_assert_true (ddb_aws_config_has_services (cfg, "local"));
  g_assert_cmpstr (ddb_aws_config_get_service (cfg, "local", "dynamodb", "endpoint_url"), ==,
                   "http://localhost:8000");
  names = ddb_aws_config_list_profiles (cfg);
  joined = g_strjoinv ("|", names);
  g_assert_cmpstr (joined, ==, "default|dev|profile prod|with space");
}

static void
test_missing_and_bad_files (Fixture *fx, gconstpointer data)
{
  GError *error = NULL;
  g_autofree char *sub = fx_path (fx, "adir");
  g_autoptr (DdbAwsConfig) cfg = NULL;

  /* Missing files (and directories in their place) are empty, not errors. */
  g_mkdir (sub, 0700);
  fx_setenv (fx, "AWS_CONFIG_FILE", sub);
  cfg = ddb_aws_config_load (fx_env (fx), &error);
  g_assert_no_error (error);
  g_assert_false (ddb_aws_config_has_profile (cfg, "default"));

  fx_write (fx, "credentials", "[default]\naws_secret_access_key " SECRET_MARK "\n");
  {
    g_autofree char *path = fx_path (fx, "credentials");
    g_autofree char *msg = g_strdup_printf (
        "Unable to parse config file: %s (line 2: expected `name = value`)", path);

    assert_session_error (fx, NULL, DDB_AWS_ERROR_CONFIG_PARSE, msg);
  }
}

/* ---- Credentials precedence ---- */

static const char *const two_files_config
    = "[default]\nregion = us-east-1\n"
      "aws_access_key_id = CONFIGDEFAULT\naws_secret_access_key = c" SECRET_MARK "\n"
      "[profile dev]\nregion = eu-west-1\n"
      "aws_access_key_id = CONFIGDEV\naws_secret_access_key = c" SECRET_MARK "\n"
      "[profile cfgonly]\n"
      "aws_access_key_id = CONFIGONLY\naws_secret_access_key = c" SECRET_MARK "\n"
      "aws_session_token = CFGTOKEN\n";
static const char *const two_files_credentials
    = "[default]\naws_access_key_id = CREDDEFAULT\naws_secret_access_key = d" SECRET_MARK "\n"
      "[dev]\naws_access_key_id = CREDDEV\naws_secret_access_key = d" SECRET_MARK "\n"
      "aws_session_token = DEVTOKEN\naws_security_token = LEGACYTOKEN\n";

static void
test_env_first (Fixture *fx, gconstpointer data)
{
  fx_write (fx, "config", two_files_config);
  fx_write (fx, "credentials", two_files_credentials);
  fx_setenv (fx, "AWS_ACCESS_KEY_ID", "ENVKEY");
  fx_setenv (fx, "AWS_SECRET_ACCESS_KEY", "e" SECRET_MARK);
  fx_setenv (fx, "AWS_SESSION_TOKEN", "ENVTOKEN");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    assert_creds (s, NOW, "ENVKEY", "ENVTOKEN", "env");
    g_assert_cmpstr (ddb_aws_session_get_profile (s), ==, "default");
  }
  /* AWS_PROFILE chooses the profile but the environment's keys still come first. */
  fx_setenv (fx, "AWS_PROFILE", "dev");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    assert_creds (s, NOW, "ENVKEY", "ENVTOKEN", "env");
    g_assert_cmpstr (ddb_aws_session_get_profile (s), ==, "dev");
    g_assert_cmpstr (ddb_aws_session_get_region (s), ==, "eu-west-1");
  }
  /* --profile switches the environment's keys off. */
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "dev", NULL);

    /* The credentials file before the config file; aws_security_token before
     * aws_session_token, as botocore reads them. */
    assert_creds (s, NOW, "CREDDEV", "LEGACYTOKEN", "shared-credentials-file");
  }
  /* AWS_DEFAULT_PROFILE is read before AWS_PROFILE (botocore's order). */
  fx_setenv (fx, "AWS_DEFAULT_PROFILE", "cfgonly");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    g_assert_cmpstr (ddb_aws_session_get_profile (s), ==, "cfgonly");
  }
  /* An empty AWS_ACCESS_KEY_ID is no key at all. */
  fx_setenv (fx, "AWS_DEFAULT_PROFILE", NULL);
  fx_setenv (fx, "AWS_PROFILE", NULL);
  fx_setenv (fx, "AWS_ACCESS_KEY_ID", "");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    assert_creds (s, NOW, "CREDDEFAULT", NULL, "shared-credentials-file");
  }
}

static void
test_env_partial (Fixture *fx, gconstpointer data)
{
  fx_setenv (fx, "AWS_ACCESS_KEY_ID", "ENVKEY");
  assert_session_error (fx, NULL, DDB_AWS_ERROR_PARTIAL_CREDENTIALS,
                        "Partial credentials found in env, missing: AWS_SECRET_ACCESS_KEY");
  fx_setenv (fx, "AWS_SECRET_ACCESS_KEY", "e" SECRET_MARK);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    assert_creds (s, NOW, "ENVKEY", NULL, "env");
  }
  fx_setenv (fx, "AWS_SECURITY_TOKEN", "OLDSTYLE");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    assert_creds (s, NOW, "ENVKEY", "OLDSTYLE", "env");
  }
}

static void
test_files_order (Fixture *fx, gconstpointer data)
{
  fx_write (fx, "config", two_files_config);
  fx_write (fx, "credentials", two_files_credentials);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    assert_creds (s, NOW, "CREDDEFAULT", NULL, "shared-credentials-file");
  }
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "cfgonly", NULL);

    assert_creds (s, NOW, "CONFIGONLY", "CFGTOKEN", "config-file");
  }
  fx_write (fx, "credentials", "[dev]\naws_access_key_id = X\n");
  assert_session_error (fx, "dev", DDB_AWS_ERROR_PARTIAL_CREDENTIALS,
                        "Partial credentials found in shared-credentials-file, missing: "
                        "aws_secret_access_key");
  fx_write (fx, "credentials", "");
  fx_write (fx, "config", "[profile dev]\naws_access_key_id = X\n");
  assert_session_error (fx, "dev", DDB_AWS_ERROR_PARTIAL_CREDENTIALS,
                        "Partial credentials found in config-file, missing: "
                        "aws_secret_access_key");
}

static void
test_profile_not_found (Fixture *fx, gconstpointer data)
{
  fx_write (fx, "config", "[profile dev]\nregion = eu-west-1\n");
  assert_session_error (fx, "nope", DDB_AWS_ERROR_PROFILE_NOT_FOUND,
                        "The config profile (nope) could not be found");
  fx_setenv (fx, "AWS_PROFILE", "also-nope");
  assert_session_error (fx, NULL, DDB_AWS_ERROR_PROFILE_NOT_FOUND,
                        "The config profile (also-nope) could not be found");
  /* A default profile that is not there is only an error when named. */
  fx_setenv (fx, "AWS_PROFILE", NULL);
  assert_session_error (fx, "default", DDB_AWS_ERROR_PROFILE_NOT_FOUND,
                        "The config profile (default) could not be found");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);
    g_autofree char *cfg = fx_path (fx, "config");
    g_autofree char *cred = fx_path (fx, "credentials");
    g_autofree char *msg = g_strdup_printf (
        "Unable to locate credentials. You can configure credentials by running \"aws "
        "configure\" (keys), \"aws configure sso\" (IAM Identity Center) or \"aws login\". "
        "Looked for profile \"default\" in the environment (AWS_ACCESS_KEY_ID, "
        "AWS_SECRET_ACCESS_KEY), in %s and %s.",
        cred, cfg);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_NO_CREDENTIALS, msg);
  }
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "dev", NULL);
    g_autofree char *cfg = fx_path (fx, "config");
    g_autofree char *cred = fx_path (fx, "credentials");
    g_autofree char *msg = g_strdup_printf (
        "Unable to locate credentials. You can configure credentials by running \"aws "
        "configure\" (keys), \"aws configure sso\" (IAM Identity Center) or \"aws login\". "
        "Looked for profile \"dev\" in %s and %s.",
        cred, cfg);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_NO_CREDENTIALS, msg);
  }
}

static void
test_invalid_roles (Fixture *fx, gconstpointer data)
{
  fx_write (fx, "config",
            "[profile sso]\nsso_session = corp\nsso_account_id = 1\n"
            "[profile web]\nrole_arn = arn:aws:iam::1:role/r\nweb_identity_token_file = /t\n"
            "[profile mfa]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = base\n"
            "mfa_serial = arn:aws:iam::1:mfa/u\n"
            "[profile base]\naws_access_key_id = B\naws_secret_access_key = b" SECRET_MARK "\n"
            "[profile imds]\nrole_arn = arn:aws:iam::1:role/r\n"
            "credential_source = Ec2InstanceMetadata\n"
            "[profile bogus]\nrole_arn = arn:aws:iam::1:role/r\ncredential_source = Magic\n"
            "[profile both]\nrole_arn = arn:aws:iam::1:role/r\ncredential_source = Environment\n"
            "source_profile = base\n"
            "[profile neither]\nrole_arn = arn:aws:iam::1:role/r\n");
  {
    /* Configured but not reachable: an MFA role with no prompt, instance metadata with no
     * transport. */
    g_autoptr (DdbAwsSession) s = session_ok (fx, "mfa", NULL);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_UNSUPPORTED, NULL);
  }
  assert_session_error (fx, "bogus", DDB_AWS_ERROR_INVALID_CONFIG,
                        "The credential source \"Magic\" referenced in profile \"bogus\" is not "
                        "valid.");
  assert_session_error (fx, "both", DDB_AWS_ERROR_INVALID_CONFIG,
                        "The profile \"both\" contains both source_profile and "
                        "credential_source.");
  assert_session_error (fx, "neither", DDB_AWS_ERROR_PARTIAL_CREDENTIALS,
                        "Partial credentials found in assume-role, missing: source_profile or "
                        "credential_source");
}

/* ---- credential_process ---- */

/* A script that counts its runs in $TESTDIR/count and prints credentials numbered by run,
 * expiring at its first argument ("none" for no Expiration). */
static void
write_process_script (Fixture *fx)
{
  fx_write (fx, "proc.sh",
            "n=$(cat \"$TESTDIR/count\" 2>/dev/null || echo 0)\n"
            "n=$((n + 1))\n"
            "echo $n > \"$TESTDIR/count\"\n"
            "if [ -e \"$TESTDIR/fail\" ]; then echo \"token service down\" >&2; exit 3; fi\n"
            "if [ \"$1\" = none ]; then\n"
            "  printf '{\"Version\": 1, \"AccessKeyId\": \"PROC%s\", \"SecretAccessKey\": "
            "\"p" SECRET_MARK "%s\"}' $n $n\n"
            "else\n"
            "  printf '{\"Version\": 1, \"AccessKeyId\": \"PROC%s\", \"SecretAccessKey\": "
            "\"p" SECRET_MARK "%s\", \"SessionToken\": \"PTOK%s\", \"Expiration\": \"%s\", "
            "\"Extra\": [1, {\"a\": null}]}' $n $n $n \"$1\"\n"
            "fi\n");
}

static int
process_runs (Fixture *fx)
{
  g_autofree char *path = fx_path (fx, "count");
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  return atoi (text);
}

static void
test_process_basic (Fixture *fx, gconstpointer data)
{
  g_autofree char *config = NULL;

  write_process_script (fx);
  config
      = g_strdup_printf ("[default]\ncredential_process = sh '%s/proc.sh' none\n"
                         "[profile withfile]\ncredential_process = sh '%s/proc.sh' none\n"
                         "[profile cfgkeys]\ncredential_process = sh '%s/proc.sh' none\n"
                         "aws_access_key_id = CFGKEY\naws_secret_access_key = c" SECRET_MARK "\n",
                         fx->dir, fx->dir, fx->dir);
  fx_write (fx, "config", config);
  fx_write (fx, "credentials",
            "[withfile]\naws_access_key_id = CREDKEY\naws_secret_access_key = d" SECRET_MARK "\n");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    /* Nothing runs until credentials are asked for; without Expiration they never expire. */
    g_assert_cmpint (process_runs (fx), ==, 0);
    assert_creds (s, NOW, "PROC1", NULL, "custom-process");
    assert_creds (s, NOW + (gint64) 10 * 365 * 86400, "PROC1", NULL, "custom-process");
    g_assert_cmpint (process_runs (fx), ==, 1);
  }
  {
    /* The credentials file comes before credential_process... */
    g_autoptr (DdbAwsSession) s = session_ok (fx, "withfile", NULL);

    assert_creds (s, NOW, "CREDKEY", NULL, "shared-credentials-file");
  }
  {
    /* ...and credential_process before the config file's keys. */
    g_autoptr (DdbAwsSession) s = session_ok (fx, "cfgkeys", NULL);

    assert_creds (s, NOW, "PROC2", NULL, "custom-process");
  }
}

static void
test_process_expiry (Fixture *fx, gconstpointer data)
{
  g_autofree char *config = NULL;
  g_autofree char *fail = fx_path (fx, "fail");
  const gint64 exp = NOW + 3600; /* 2030-01-01T01:00:00Z */

  write_process_script (fx);
  config = g_strdup_printf ("[default]\ncredential_process = sh %s/proc.sh "
                            "2030-01-01T01:00:00Z\n",
                            fx->dir);
  fx_write (fx, "config", config);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);
    GError *error = NULL;
    g_autoptr (DdbAwsCredentials) c = ddb_aws_session_get_credentials (s, NOW, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpint (c->expiration, ==, exp);
    g_assert_cmpstr (c->creds.session_token, ==, "PTOK1");
    /* Cached while more than 15 minutes remain. */
    assert_creds (s, exp - 15 * 60, "PROC1", "PTOK1", "custom-process");
    g_assert_cmpint (process_runs (fx), ==, 1);
    /* Advisory window: the refresh is tried; when it fails the current ones serve on. */
    fx_write (fx, "fail", "");
    assert_creds (s, exp - 15 * 60 + 1, "PROC1", "PTOK1", "custom-process");
    g_assert_cmpint (process_runs (fx), ==, 2);
    /* Mandatory window: a failure is an error, with the process's standard error. */
    assert_creds_error (s, exp - 10 * 60 + 1, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "Error when retrieving credentials from custom-process: token service "
                        "down");
    g_assert_cmpint (process_runs (fx), ==, 3);
    /* Refreshed credentials that expire at the same time, in 10 minutes, serve (botocore
     * refuses only refreshed credentials that have expired already)... */
    g_unlink (fail);
    assert_creds (s, exp - 10 * 60 + 1, "PROC4", "PTOK4", "custom-process");
    /* ... but once that time has passed they are still expired. */
    assert_creds_error (s, exp + 1, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "Credentials were refreshed, but the refreshed credentials are still "
                        "expired.");
  }
  /* A refresh that succeeds replaces the cached credentials. */
  config = (g_free (config), g_strdup_printf ("[default]\ncredential_process = sh %s/proc.sh "
                                              "2030-01-01T05:00:00+00:00\n",
                                              fx->dir));
  fx_write (fx, "config", config);
  g_unlink (fail);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);
    int run = process_runs (fx) + 1;
    g_autofree char *key = g_strdup_printf ("PROC%d", run);
    g_autofree char *token = g_strdup_printf ("PTOK%d", run);

    g_assert_cmpint (run, ==, 6);
    assert_creds (s, NOW, key, token, "custom-process");
  }
}

static void
test_process_failures (Fixture *fx, gconstpointer data)
{
  static const struct {
    const char *output;
    const char *message;
  } outputs[] = {
    { "not json " SECRET_MARK, "its output is not a JSON object" },
    { "{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"" SECRET_MARK "\"} x",
      "its output is not a JSON object" },
    { "[1]", "its output is not a JSON object" },
    { "{\"AccessKeyId\": \"A\", \"SecretAccessKey\": \"" SECRET_MARK "\"}",
      "Unsupported version '<Version key not provided>' for credential process provider, "
      "supported versions: 1" },
    { "{\"Version\": 2, \"AccessKeyId\": \"A\"}",
      "Unsupported version '2' for credential process provider, supported versions: 1" },
    { "{\"Version\": 1, \"SecretAccessKey\": \"" SECRET_MARK "\"}",
      "Missing required key in response: 'AccessKeyId'" },
    { "{\"Version\": 1.0, \"AccessKeyId\": \"A\"}",
      "Missing required key in response: 'SecretAccessKey'" },
    { "{\"Version\": 1, \"AccessKeyId\": 5, \"SecretAccessKey\": \"" SECRET_MARK "\"}",
      "AccessKeyId, SecretAccessKey and SessionToken must be strings" },
    { "{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"" SECRET_MARK "\", "
      "\"Expiration\": \"tomorrow\"}",
      "Expiration is not an ISO 8601 date and time" },
    { "{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"\\ud800\"}",
      "its output is not a JSON object" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      GError *error = NULL;
      g_autofree char *expected = g_strconcat (
          "Error when retrieving credentials from custom-process: ", outputs[i].message, NULL);
      DdbAwsCredentials *c
          = ddb_aws_parse_process_output (outputs[i].output, strlen (outputs[i].output), &error);

      g_assert_null (c);
      assert_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, expected);
      g_error_free (error);
    }
  {
    const char *ok = " {\"SessionToken\": null, \"Version\": 1, \"AccessKeyId\": \"A\\u00e9\\n\","
                     " \"SecretAccessKey\": \"x\", \"SecretAccessKey\": \"y\\ud83d\\ude00\","
                     " \"Expiration\": null, \"Nested\": {\"a\": [true, false, -1.5e3]}} ";
    GError *error = NULL;
    g_autoptr (DdbAwsCredentials) c = ddb_aws_parse_process_output (ok, strlen (ok), &error);

    g_assert_no_error (error);
    g_assert_cmpstr (c->creds.access_key_id, ==, "A\xc3\xa9\n");
    g_assert_cmpstr (c->creds.secret_access_key, ==, "y\xf0\x9f\x98\x80");
    g_assert_null (c->creds.session_token);
    g_assert_cmpint (c->expiration, ==, 0);
  }

  /* The process itself failing. */
  fx_write (fx, "config",
            "[default]\ncredential_process = sh -c 'exit 7'\n"
            "[profile missing]\ncredential_process = /nonexistent/helper --x\n"
            "[profile quoting]\ncredential_process = helper 'unclosed\n"
            "[profile leaky]\ncredential_process = sh -c "
            "'echo \"{\\\"Version\\\": 3, \\\"S\\\": \\\"" SECRET_MARK "\\\"}\"'\n");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "Error when retrieving credentials from custom-process: sh exited with "
                        "status 7");
  }
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "missing", NULL);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, NULL);
  }
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "quoting", NULL);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "Error when retrieving credentials from custom-process: No closing "
                        "quotation");
  }
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "leaky", NULL);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "Error when retrieving credentials from custom-process: Unsupported "
                        "version '3' for credential process provider, supported versions: 1");
  }
}

/* ---- AssumeRole ---- */

static void
test_assume_role_body (void)
{
  g_autofree char *a
      = ddb_sts_assume_role_body ("arn:aws:iam::123456789012:role/demo", "s 1/2", NULL, -1, NULL,
                                  NULL);
  g_autofree char *b = ddb_sts_assume_role_body ("arn:aws:iam::1:role/r", "n", "ext+id=&", 3600, NULL, NULL);

  g_assert_cmpstr (a, ==,
                   "Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A"
                   "123456789012%3Arole%2Fdemo&RoleSessionName=s%201%2F2");
  g_assert_cmpstr (b, ==,
                   "Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A1%3Arole"
                   "%2Fr&RoleSessionName=n&DurationSeconds=3600&ExternalId=ext%2Bid%3D%26");
}

static void
test_assume_role_response (void)
{
  const char *bad = "<AssumeRoleResponse><AssumeRoleResult><Credentials>"
                    "<AccessKeyId>A</AccessKeyId><SecretAccessKey>" SECRET_MARK
                    "</SecretAccessKey></Credentials></AssumeRoleResult></AssumeRoleResponse>";
  const char *broken = "<AssumeRoleResponse><SecretAccessKey>" SECRET_MARK "</Oops>";
  GError *error = NULL;
  DdbAwsCredentials *c = ddb_sts_parse_credentials ("AssumeRole", 200, bad, strlen (bad), "assume-role", &error);

  g_assert_null (c);
  assert_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                "The AssumeRole response from STS has no credentials");
  g_clear_error (&error);
  c = ddb_sts_parse_credentials ("AssumeRole", 200, broken, strlen (broken), "assume-role", &error);
  g_assert_null (c);
  assert_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, NULL);
  g_clear_error (&error);
  c = ddb_sts_parse_credentials ("AssumeRole", 503, "oops", 4, "assume-role", &error);
  g_assert_null (c);
  assert_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                "An error occurred (503) when calling the AssumeRole operation");
  g_clear_error (&error);
}

static const char *const role_config
    = "[default]\nregion = us-west-2\n"
      "[profile base]\naws_access_key_id = BASEKEY\naws_secret_access_key = b" SECRET_MARK "\n"
      "[profile admin]\nrole_arn = arn:aws:iam::123456789012:role/admin\n"
      "source_profile = base\nrole_session_name = me\nexternal_id = ext-1\n"
      "duration_seconds = 1800\nregion = eu-central-1\n"
      "[profile chained]\nrole_arn = arn:aws:iam::210987654321:role/reader\n"
      "source_profile = admin\n"
      "[profile self]\nrole_arn = arn:aws:iam::1:role/self\nsource_profile = self\n"
      "aws_access_key_id = SELFKEY\naws_secret_access_key = s" SECRET_MARK "\n"
      "[profile loop-a]\nrole_arn = arn:aws:iam::1:role/a\nsource_profile = loop-b\n"
      "[profile loop-b]\nrole_arn = arn:aws:iam::1:role/b\nsource_profile = loop-a\n"
      "[profile selfnokeys]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = selfnokeys\n"
      "[profile dangling]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = ghost\n"
      "[profile empty]\nregion = us-east-1\n"
      "[profile fromempty]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = empty\n"
      "[profile fromenv]\nrole_arn = arn:aws:iam::1:role/e\ncredential_source = Environment\n"
      "[profile badduration]\nrole_arn = arn:aws:iam::1:role/d\nsource_profile = base\n"
      "duration_seconds = 15m\n";

static void
test_assume_role (Fixture *fx, gconstpointer data)
{
  FakeSts sts;

  fake_sts_init (&sts);
  fx_write (fx, "config", role_config);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "admin", &sts);

    g_assert_cmpuint (sts.calls, ==, 0);
    assert_creds (s, NOW, "ASIAROLE1", "TOKEN1", "assume-role");
    g_assert_cmpuint (sts.calls, ==, 1);
    g_assert_cmpstr (g_ptr_array_index (sts.bodies, 0), ==,
                     "Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A"
                     "123456789012%3Arole%2Fadmin&RoleSessionName=me&DurationSeconds=1800"
                     "&ExternalId=ext-1");
    g_assert_cmpstr (g_ptr_array_index (sts.key_ids, 0), ==, "BASEKEY");
    g_assert_cmpstr (g_ptr_array_index (sts.urls, 0), ==, "https://sts.eu-central-1.amazonaws.com");
    g_assert_cmpstr (g_ptr_array_index (sts.regions, 0), ==, "eu-central-1");
    {
      GError *error = NULL;
      g_autoptr (DdbAwsCredentials) c = ddb_aws_session_get_credentials (s, NOW, NULL, &error);

      /* XML entities decoded; cached until the advisory window. */
      g_assert_cmpstr (c->creds.secret_access_key, ==, "role" SECRET_MARK "1&x");
      g_assert_cmpint (c->expiration, ==, NOW + 3600);
    }
    assert_creds (s, NOW + 3600 - 15 * 60, "ASIAROLE1", "TOKEN1", "assume-role");
    g_assert_cmpuint (sts.calls, ==, 1);
    /* Refreshed in the advisory window: STS is called again. */
    sts.expiration = "2030-01-01T02:00:00Z";
    assert_creds (s, NOW + 3600 - 14 * 60, "ASIAROLE2", "TOKEN2", "assume-role");
    g_assert_cmpuint (sts.calls, ==, 2);
  }
  fake_sts_clear (&sts);

  /* Chained: base's keys assume admin, whose credentials assume reader. The first block left
   * admin's credentials in the AWS CLI's cache (~/.aws/cli/cache): start without them. */
  {
    g_autofree char *aws_dir = g_build_filename (fx->dir, ".aws", NULL);

    remove_tree (aws_dir);
  }
  fake_sts_init (&sts);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "chained", &sts);
    const char *body1, *body2;

    assert_creds (s, NOW, "ASIAROLE2", "TOKEN2", "assume-role");
    g_assert_cmpuint (sts.calls, ==, 2);
    body1 = g_ptr_array_index (sts.bodies, 0);
    body2 = g_ptr_array_index (sts.bodies, 1);
    g_assert_nonnull (strstr (body1, "RoleArn=arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2Fadmin"));
    g_assert_cmpstr (g_ptr_array_index (sts.key_ids, 0), ==, "BASEKEY");
    g_assert_cmpstr (body2, ==,
                     "Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A"
                     "210987654321%3Arole%2Freader&RoleSessionName=dynoscope-session-1893456000");
    g_assert_cmpstr (g_ptr_array_index (sts.key_ids, 1), ==, "ASIAROLE1");
    /* The session's region (the named profile's, here none: [default]'s region is not
     * inherited) is used for STS throughout; without one, the global endpoint. */
    g_assert_cmpstr (g_ptr_array_index (sts.urls, 0), ==, "https://sts.amazonaws.com");
    g_assert_cmpstr (g_ptr_array_index (sts.urls, 1), ==, "https://sts.amazonaws.com");
    g_assert_cmpstr (g_ptr_array_index (sts.regions, 1), ==, "us-east-1");
  }
  fake_sts_clear (&sts);

  /* A profile may take static keys from itself. */
  fake_sts_init (&sts);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "self", &sts);

    assert_creds (s, NOW, "ASIAROLE1", "TOKEN1", "assume-role");
    g_assert_cmpstr (g_ptr_array_index (sts.key_ids, 0), ==, "SELFKEY");
  }
  fake_sts_clear (&sts);

  /* credential_source = Environment takes the environment's keys even with --profile. */
  fake_sts_init (&sts);
  fx_setenv (fx, "AWS_ACCESS_KEY_ID", "ENVKEY");
  fx_setenv (fx, "AWS_SECRET_ACCESS_KEY", "e" SECRET_MARK);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "fromenv", &sts);

    assert_creds (s, NOW, "ASIAROLE1", "TOKEN1", "assume-role");
    g_assert_cmpstr (g_ptr_array_index (sts.key_ids, 0), ==, "ENVKEY");
  }
  /* Without --profile, AWS_PROFILE=admin still loses to the environment's keys. */
  fx_setenv (fx, "AWS_PROFILE", "admin");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, &sts);

    assert_creds (s, NOW, "ENVKEY", NULL, "env");
  }
  fx_setenv (fx, "AWS_PROFILE", NULL);
  fx_setenv (fx, "AWS_ACCESS_KEY_ID", NULL);
  {
    GError *error = NULL;
    DdbAwsSession *s = session_new (fx, "fromenv", NULL, NULL, &sts, &error);

    g_assert_null (s);
    assert_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                  "Error when retrieving credentials from Environment: No credentials found in "
                  "credential_source referenced in profile fromenv");
    g_error_free (error);
  }
  /* An unusable duration_seconds is left out, as the CLI does. */
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "badduration", &sts);

    assert_creds (s, NOW, "ASIAROLE2", "TOKEN2", "assume-role");
    g_assert_null (strstr (g_ptr_array_index (sts.bodies, 1), "DurationSeconds"));
  }
  fake_sts_clear (&sts);
}

static void
test_assume_role_errors (Fixture *fx, gconstpointer data)
{
  FakeSts sts;

  fx_write (fx, "config", role_config);
  assert_session_error (fx, "loop-a", DDB_AWS_ERROR_INVALID_CONFIG,
                        "Infinite loop in credential configuration detected. Attempting to load "
                        "from profile loop-a which has already been visited. Visited profiles: "
                        "['loop-a', 'loop-b']");
  assert_session_error (fx, "selfnokeys", DDB_AWS_ERROR_INVALID_CONFIG,
                        "Infinite loop in credential configuration detected. Attempting to load "
                        "from profile selfnokeys which has already been visited. Visited "
                        "profiles: ['selfnokeys']");
  assert_session_error (fx, "dangling", DDB_AWS_ERROR_INVALID_CONFIG,
                        "The source_profile \"ghost\" referenced in the profile \"dangling\" does "
                        "not exist.");
  assert_session_error (fx, "fromempty", DDB_AWS_ERROR_INVALID_CONFIG,
                        "The source profile \"empty\" must have credentials.");

  fake_sts_init (&sts);
  sts.status = 403;
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "admin", &sts);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "An error occurred (AccessDenied) when calling the AssumeRole operation: "
                        "User: arn:aws:iam::123456789012:user/u is not authorized to perform: "
                        "sts:AssumeRole");
  }
  sts.status = 200;
  sts.fail_transport = TRUE;
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "admin", &sts);
    GError *error = NULL;

    g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
    g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED);
    g_error_free (error);
  }
  /* STS answering with credentials that have expired already (a clock far off). */
  sts.fail_transport = FALSE;
  sts.expiration = "2029-12-31T23:59:00Z";
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "admin", &sts);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                        "Credentials were refreshed, but the refreshed credentials are still "
                        "expired.");
  }
  fake_sts_clear (&sts);
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "admin", NULL);

    assert_creds_error (s, NOW, DDB_AWS_ERROR_UNSUPPORTED,
                        "The profile \"admin\" needs a network call to get credentials, but no way to "
                        "make one was given");
  }
  /* Configured endpoints apply to STS too. */
  fake_sts_init (&sts);
  fx_setenv (fx, "AWS_ENDPOINT_URL_STS", "http://localhost:4566");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "admin", &sts);

    assert_creds (s, NOW, "ASIAROLE1", "TOKEN1", "assume-role");
    g_assert_cmpstr (g_ptr_array_index (sts.urls, 0), ==, "http://localhost:4566");
  }
  fake_sts_clear (&sts);
}

/* ---- Region and endpoints ---- */

static void
assert_endpoint (DdbAwsSession *s, const char *url, const char *region)
{
  const char *got_url = NULL, *got_region = NULL;
  GError *error = NULL;

  g_assert_true (ddb_aws_session_get_endpoint (s, &got_url, &got_region, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (got_url, ==, url);
  g_assert_cmpstr (got_region, ==, region);
}

static void
test_region (Fixture *fx, gconstpointer data)
{
  GError *error = NULL;

  fx_write (fx, "config",
            "[default]\nregion = eu-west-1\n[profile bad]\nregion = not_valid\n"
            "[profile none]\noutput = json\n");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    g_assert_cmpstr (ddb_aws_session_get_region (s), ==, "eu-west-1");
  }
  fx_setenv (fx, "AWS_DEFAULT_REGION", "us-east-2");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    g_assert_cmpstr (ddb_aws_session_get_region (s), ==, "us-east-2");
  }
  fx_setenv (fx, "AWS_REGION", "ap-southeast-2");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    g_assert_cmpstr (ddb_aws_session_get_region (s), ==, "ap-southeast-2");
  }
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, NULL, "sa-east-1", NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (ddb_aws_session_get_region (s), ==, "sa-east-1");
  }
  {
    DdbAwsSession *s = session_new (fx, NULL, "us east 1", NULL, NULL, &error);

    g_assert_null (s);
    assert_error (error, DDB_AWS_ERROR_INVALID_REGION,
                  "Provided region_name 'us east 1' doesn't match a supported format.");
    g_clear_error (&error);
  }
  fx_setenv (fx, "AWS_REGION", NULL);
  fx_setenv (fx, "AWS_DEFAULT_REGION", "");
  assert_session_error (fx, "bad", DDB_AWS_ERROR_INVALID_REGION,
                        "Provided region_name 'not_valid' doesn't match a supported format.");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "none", NULL);

    g_assert_null (ddb_aws_session_get_region (s));
    g_assert_false (ddb_aws_session_get_endpoint (s, NULL, NULL, &error));
    assert_error (error, DDB_AWS_ERROR_NO_REGION,
                  "You must specify a region. You can also configure your region by running "
                  "\"aws configure\".");
    g_clear_error (&error);
  }
  g_assert_true (ddb_aws_region_is_valid ("us-east-1"));
  g_assert_false (ddb_aws_region_is_valid ("-us"));
  g_assert_false (ddb_aws_region_is_valid ("us-"));
  g_assert_false (ddb_aws_region_is_valid ("123"));
  g_assert_false (ddb_aws_region_is_valid (""));
  g_assert_false (ddb_aws_region_is_valid ("a.b"));
}

static void
test_standard_endpoints (void)
{
  static const struct {
    const char *region;
    const char *url;
  } cases[] = {
    { "us-east-1", "https://dynamodb.us-east-1.amazonaws.com" },
    { "eu-west-3", "https://dynamodb.eu-west-3.amazonaws.com" },
    { "cn-north-1", "https://dynamodb.cn-north-1.amazonaws.com.cn" },
    { "cn-northwest-1", "https://dynamodb.cn-northwest-1.amazonaws.com.cn" },
    { "us-gov-west-1", "https://dynamodb.us-gov-west-1.amazonaws.com" },
    { "us-iso-east-1", "https://dynamodb.us-iso-east-1.c2s.ic.gov" },
    { "us-isob-east-1", "https://dynamodb.us-isob-east-1.sc2s.sgov.gov" },
    { "eu-isoe-west-1", "https://dynamodb.eu-isoe-west-1.cloud.adc-e.uk" },
    { "us-isof-south-1", "https://dynamodb.us-isof-south-1.csp.hci.ic.gov" },
    { "mars-central-1", "https://dynamodb.mars-central-1.amazonaws.com" },
    { "cnx-north-1", "https://dynamodb.cnx-north-1.amazonaws.com" },
    { "local", "http://localhost:8000" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *url = ddb_aws_standard_endpoint ("dynamodb", cases[i].region);

      g_assert_cmpstr (url, ==, cases[i].url);
    }
  g_assert_cmpstr (ddb_aws_signing_region ("dynamodb", "local"), ==, "us-east-1");
  g_assert_cmpstr (ddb_aws_signing_region ("dynamodb", "cn-north-1"), ==, "cn-north-1");
  {
    g_autofree char *a = ddb_aws_sts_endpoint (NULL);
    g_autofree char *b = ddb_aws_sts_endpoint ("cn-north-1");

    g_assert_cmpstr (a, ==, "https://sts.amazonaws.com");
    g_assert_cmpstr (b, ==, "https://sts.cn-north-1.amazonaws.com.cn");
  }
}

/* AWS answers the Streams API on a host of its own; any other endpoint answers both. */
static void
test_streams_endpoints (void)
{
  static const struct {
    const char *url, *region, *streams;
  } cases[] = {
    { "https://dynamodb.us-east-1.amazonaws.com", "us-east-1",
      "https://streams.dynamodb.us-east-1.amazonaws.com" },
    { "https://dynamodb.cn-north-1.amazonaws.com.cn/", "cn-north-1",
      "https://streams.dynamodb.cn-north-1.amazonaws.com.cn" },
    { "https://dynamodb.eu-west-1.amazonaws.com", "us-east-1",
      "https://dynamodb.eu-west-1.amazonaws.com" },
    { "http://127.0.0.1:8000", "us-east-1", "http://127.0.0.1:8000" },
    { "http://localhost:8000", "local", "http://localhost:8000" },
    { "https://vpce-1.dynamodb.us-east-1.vpce.amazonaws.com", "us-east-1",
      "https://vpce-1.dynamodb.us-east-1.vpce.amazonaws.com" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *url = ddb_aws_streams_endpoint (cases[i].url, cases[i].region);

      g_assert_cmpstr (url, ==, cases[i].streams);
    }
}

static void
test_endpoint_precedence (Fixture *fx, gconstpointer data)
{
  GError *error = NULL;

  fx_write (fx, "config",
            "[default]\nregion = cn-north-1\n"
            "[profile full]\nregion = us-west-2\nendpoint_url = http://profile:1\n"
            "services = mine\n"
            "[profile global]\nregion = us-west-2\nendpoint_url = https://global.example\n"
            "[profile other]\nregion = us-west-2\nservices = mine-s3-only\n"
            "[profile dangling]\nregion = us-west-2\nservices = ghost\n"
            "[profile ignoring]\nregion = us-west-2\nendpoint_url = http://profile:1\n"
            "ignore_configured_endpoint_urls = TRUE\n"
            "[profile badurl]\nregion = us-west-2\nendpoint_url = localhost:8000\n"
            "[services mine]\ndynamodb =\n  endpoint_url = http://services:2\n"
            "[services mine-s3-only]\ns3 =\n  endpoint_url = http://s3:3\n");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, NULL, NULL);

    assert_endpoint (s, "https://dynamodb.cn-north-1.amazonaws.com.cn", "cn-north-1");
    g_assert_false (ddb_aws_session_endpoint_is_custom (s));
  }
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "full", NULL);

    assert_endpoint (s, "http://services:2", "us-west-2");
    g_assert_true (ddb_aws_session_endpoint_is_custom (s));
  }
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "global", NULL);

    assert_endpoint (s, "https://global.example", "us-west-2");
  }
  {
    /* A services section with nothing for DynamoDB falls through to the default. */
    g_autoptr (DdbAwsSession) s = session_ok (fx, "other", NULL);

    assert_endpoint (s, "https://dynamodb.us-west-2.amazonaws.com", "us-west-2");
  }
  assert_session_error (fx, "dangling", DDB_AWS_ERROR_INVALID_CONFIG,
                        "The profile is configured to use the services section but the \"ghost\" "
                        "services configuration does not exist.");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "ignoring", NULL);

    assert_endpoint (s, "https://dynamodb.us-west-2.amazonaws.com", "us-west-2");
  }
  assert_session_error (fx, "badurl", DDB_AWS_ERROR_INVALID_ENDPOINT,
                        "Invalid endpoint: localhost:8000");

  fx_setenv (fx, "AWS_ENDPOINT_URL", "http://env-global:4");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "full", NULL);

    assert_endpoint (s, "http://env-global:4", "us-west-2");
  }
  fx_setenv (fx, "AWS_ENDPOINT_URL_DYNAMODB", "http://env-ddb:5");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "full", NULL);

    assert_endpoint (s, "http://env-ddb:5", "us-west-2");
  }
  {
    g_autoptr (DdbAwsSession) s
        = session_new (fx, "full", NULL, "http://[::1]:8000/", NULL, &error);

    g_assert_no_error (error);
    assert_endpoint (s, "http://[::1]:8000/", "us-west-2");
  }
  /* The environment's switch beats the profile's, either way. */
  fx_setenv (fx, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "full", NULL);

    assert_endpoint (s, "https://dynamodb.us-west-2.amazonaws.com", "us-west-2");
  }
  {
    /* --endpoint-url is never ignored. */
    g_autoptr (DdbAwsSession) s = session_new (fx, "full", "local", "http://cli:6", NULL, &error);

    g_assert_no_error (error);
    assert_endpoint (s, "http://cli:6", "local");
  }
  fx_setenv (fx, "AWS_ENDPOINT_URL", NULL);
  fx_setenv (fx, "AWS_ENDPOINT_URL_DYNAMODB", NULL);
  fx_setenv (fx, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "false");
  {
    g_autoptr (DdbAwsSession) s = session_ok (fx, "ignoring", NULL);

    assert_endpoint (s, "http://profile:1", "us-west-2");
  }
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, NULL, "local", NULL, NULL, &error);

    g_assert_no_error (error);
    assert_endpoint (s, "http://localhost:8000", "us-east-1");
  }
  {
    DdbAwsSession *s = session_new (fx, NULL, NULL, "ftp://x", NULL, &error);

    g_assert_null (s);
    assert_error (error, DDB_AWS_ERROR_INVALID_ENDPOINT, "Invalid endpoint: ftp://x");
    g_clear_error (&error);
  }
}

/* ---- The process environment ---- */

static void
test_process_environment (void)
{
  if (g_test_subprocess ())
    {
      GError *error = NULL;
      g_autofree char *dir = g_dir_make_tmp ("dynoscope-home-XXXXXX", &error);
      g_autofree char *aws = g_build_filename (dir, ".aws", NULL);
      g_autofree char *config = g_build_filename (aws, "config", NULL);
      g_autofree char *creds = g_build_filename (aws, "credentials", NULL);
      DdbAwsSessionOptions opts = { 0 };
      DdbAwsSession *s;
      DdbAwsCredentials *c;

      g_mkdir (aws, 0700);
      g_file_set_contents (config, "[profile work]\nregion = eu-west-2\n", -1, &error);
      g_file_set_contents (creds,
                           "[work]\naws_access_key_id = HOMEKEY\n"
                           "aws_secret_access_key = h" SECRET_MARK "\n",
                           -1, &error);
      g_assert_no_error (error);
      g_setenv ("HOME", dir, TRUE);
      g_unsetenv ("AWS_CONFIG_FILE");
      g_unsetenv ("AWS_SHARED_CREDENTIALS_FILE");
      g_unsetenv ("AWS_ACCESS_KEY_ID");
      g_unsetenv ("AWS_REGION");
      g_unsetenv ("AWS_DEFAULT_REGION");
      g_unsetenv ("AWS_DEFAULT_PROFILE");
      g_unsetenv ("AWS_ENDPOINT_URL");
      g_unsetenv ("AWS_ENDPOINT_URL_DYNAMODB");
      g_setenv ("AWS_PROFILE", "work", TRUE);
      s = ddb_aws_session_new (&opts, &error);
      g_assert_no_error (error);
      c = ddb_aws_session_get_credentials (s, NOW, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (c->creds.access_key_id, ==, "HOMEKEY");
      g_assert_cmpstr (ddb_aws_session_get_region (s), ==, "eu-west-2");
      ddb_aws_credentials_free (c);
      ddb_aws_session_free (s);
      g_unlink (config);
      g_unlink (creds);
      g_rmdir (aws);
      g_rmdir (dir);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_writer_default_set_use_stderr (TRUE);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  g_test_add_func ("/net/config/ini-syntax", test_ini_syntax);
  g_test_add_func ("/net/config/ini-nested", test_ini_nested);
  g_test_add_func ("/net/config/ini-default-section", test_ini_default_section);
  g_test_add_func ("/net/config/ini-errors", test_ini_errors);
  g_test_add_func ("/net/config/shell-split", test_shell_split);
  g_test_add_func ("/net/config/expand-path", test_expand_path);
  ADD ("/net/config/profile-map", test_profile_map);
  ADD ("/net/config/missing-and-bad-files", test_missing_and_bad_files);
  ADD ("/net/credentials/env-first", test_env_first);
  ADD ("/net/credentials/env-partial", test_env_partial);
  ADD ("/net/credentials/files-order", test_files_order);
  ADD ("/net/credentials/profile-not-found", test_profile_not_found);
  ADD ("/net/credentials/invalid-roles", test_invalid_roles);
  ADD ("/net/credentials/process-basic", test_process_basic);
  ADD ("/net/credentials/process-expiry", test_process_expiry);
  ADD ("/net/credentials/process-failures", test_process_failures);
  g_test_add_func ("/net/credentials/assume-role-body", test_assume_role_body);
  g_test_add_func ("/net/credentials/assume-role-response", test_assume_role_response);
  ADD ("/net/credentials/assume-role", test_assume_role);
  ADD ("/net/credentials/assume-role-errors", test_assume_role_errors);
  ADD ("/net/endpoints/region", test_region);
  g_test_add_func ("/net/endpoints/standard", test_standard_endpoints);
  g_test_add_func ("/net/endpoints/streams", test_streams_endpoints);
  ADD ("/net/endpoints/precedence", test_endpoint_precedence);
  g_test_add_func ("/net/credentials/process-environment", test_process_environment);
#undef ADD

  return g_test_run ();
}
