/* test-login.c: `aws login` console credentials (login_session, src/net/login.c and
 * login-dpop.c) against an in-process fake of the sign-in service: the cache file found where
 * botocore looks for it, its credentials used while valid, the refresh (CreateOAuth2Token with a
 * DPoP proof that is verified here with OpenSSL), the cache written back as botocore writes it
 * (and read by botocore's LoginTokenLoader when a botocore that has it is on PATH), the sign-in
 * required errors, malformed files, and no secret in any message.
 *
 * The refresh request is the one botocore 1.43.11 sends, observed by running its LoginProvider
 * against a local HTTP fake (AWS_ENDPOINT_URL_SIGNIN=http://127.0.0.1:PORT):
 *   POST /v1/token
 *   Content-Type: application/json
 *   DPoP: <JWT>   (plus Host, Accept-Encoding, User-Agent, amz-sdk-* and Content-Length)
 *   {"clientId": "arn:aws:signin:::devtools/same-device", "refreshToken": "...",
 *    "grantType": "refresh_token"}
 * the JWT's header {"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","x":"...","y":"...",
 * "crv":"P-256"}}, its payload {"htm":"POST","htu":"http://127.0.0.1:PORT/v1/token",
 * "iat":<seconds>,"jti":"<uuid4>"}, its signature r || s, base64url without padding. The cache it
 * wrote back: json.dumps of the token with accessToken replaced (accessKeyId, secretAccessKey,
 * sessionToken, accountId, expiresAt "%Y-%m-%dT%H:%M:%SZ" = now + expiresIn) and refreshToken
 * replaced, every other key kept in place, mode 0600. */
#include <glib/gstdio.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <string.h>
#include <sys/stat.h>

#include "net/credentials.h"
#include "net/secret-json.h"

/* Every secret in the fixtures contains this, so a leak into a message is easy to spot. */
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EVP_PKEY, EVP_PKEY_free)

#define SECRET_MARK "SeCrEt"
#define SESSION "arn:aws:iam::123456789012:user/me"
/* sha256(SESSION), as botocore's generate_login_cache_key computed it. */
#define CACHE_NAME "286187707741fc2ccb93cf9e56dbd0ee0a16208feed5fbc8ae1baa86d44c283f.json"
#define CLIENT_ID "arn:aws:signin:::devtools/same-device"
#define NOW ((gint64) 1796460000) /* 2026-12-05T08:40:00Z */

/* ---- Keys ---- */

static EVP_PKEY *
key_new (const char *group)
{
  EVP_PKEY *pkey = EVP_PKEY_Q_keygen (NULL, NULL, "EC", group);

  g_assert_nonnull (pkey);
  return pkey;
}

/* The key as PEM: SEC1 "EC PRIVATE KEY" (what `aws login` writes) or PKCS#8. */
static char *
key_pem (EVP_PKEY *pkey, gboolean pkcs8)
{
  BIO *bio = BIO_new (BIO_s_mem ());
  char *data;
  long len;
  char *pem;

  if (pkcs8)
    g_assert_true (PEM_write_bio_PrivateKey (bio, pkey, NULL, NULL, 0, NULL, NULL));
  else
    g_assert_true (PEM_write_bio_PrivateKey_traditional (bio, pkey, NULL, NULL, 0, NULL, NULL));
  len = BIO_get_mem_data (bio, &data);
  pem = g_strndup (data, len);
  BIO_free (bio);
  return pem;
}

static char *
b64url (const guint8 *data, gsize len)
{
  char *s = g_base64_encode (data, len);
  char *pad = strchr (s, '=');

  g_strdelimit (s, "+", '-');
  g_strdelimit (s, "/", '_');
  if (pad != NULL)
    *pad = '\0';
  return s;
}

static guint8 *
b64url_decode (const char *s, gsize *len)
{
  g_autoptr (GString) t = g_string_new (s);

  g_assert_cmpuint (strspn (s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
                    ==, strlen (s));
  g_strdelimit (t->str, "-", '+');
  g_strdelimit (t->str, "_", '/');
  while (t->len % 4 != 0)
    g_string_append_c (t, '=');
  return g_base64_decode (t->str, len);
}

static char *
coord (EVP_PKEY *pkey, const char *param)
{
  BIGNUM *bn = NULL;
  guint8 buf[32];

  g_assert_true (EVP_PKEY_get_bn_param (pkey, param, &bn));
  g_assert_cmpint (BN_bn2binpad (bn, buf, 32), ==, 32);
  BN_free (bn);
  return b64url (buf, 32);
}

/* ---- The fixture: a temporary HOME, an environment, a fake sign-in service ---- */

typedef struct {
  guint calls;
  char *method;
  char *url;
  char *content_type;
  char *dpop;
  char *body;
  guint n_headers;
  gboolean signed_request;
  guint status;       /* to answer with */
  const char *answer; /* NULL: a good token answer */
  gboolean fail;      /* no answer at all */
} FakeSignin;

typedef struct {
  char *dir;
  GPtrArray *env;
  EVP_PKEY *key;
  char *pem;
  FakeSignin fake;
} Fixture;

static void
fake_reset (FakeSignin *f)
{
  g_clear_pointer (&f->method, g_free);
  g_clear_pointer (&f->url, g_free);
  g_clear_pointer (&f->content_type, g_free);
  g_clear_pointer (&f->dpop, g_free);
  g_clear_pointer (&f->body, g_free);
  memset (f, 0, sizeof *f);
  f->status = 200;
}

#define GOOD_ANSWER \
  "{\"accessToken\": {\"accessKeyId\": \"ASIANEW\", \"secretAccessKey\": \"new" SECRET_MARK \
  "key\", \"sessionToken\": \"new" SECRET_MARK "token\"}, \"tokenType\": \"aws_sigv4\", " \
  "\"expiresIn\": 900, \"refreshToken\": \"new" SECRET_MARK "refresh\"}"

static gboolean
fake_signin (const DdbAwsRequest *req, guint *status, GBytes **body, gpointer user_data,
             GCancellable *cancellable, GError **error)
{
  FakeSignin *f = user_data;
  const char *answer = f->answer != NULL ? f->answer : GOOD_ANSWER;

  f->calls++;
  g_free (f->method);
  f->method = g_strdup (req->method);
  g_free (f->url);
  f->url = g_strdup (req->url);
  g_free (f->body);
  f->body = g_strndup ((const char *) req->body, req->body_len);
  f->n_headers = req->n_headers;
  f->signed_request = req->sign_credentials != NULL;
  g_clear_pointer (&f->content_type, g_free);
  g_clear_pointer (&f->dpop, g_free);
  for (guint i = 0; i < req->n_headers; i++)
    if (g_ascii_strcasecmp (req->headers[i].name, "Content-Type") == 0)
      f->content_type = g_strdup (req->headers[i].value);
    else if (strcmp (req->headers[i].name, "DPoP") == 0)
      f->dpop = g_strdup (req->headers[i].value);
  if (f->fail)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED, "refused");
      return FALSE;
    }
  *status = f->status;
  *body = g_bytes_new (answer, strlen (answer));
  return TRUE;
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

static void
fx_write (Fixture *fx, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (fx->dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  GError *error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static char *
fx_read (Fixture *fx, const char *name)
{
  g_autofree char *path = g_build_filename (fx->dir, name, NULL);
  char *text = NULL;
  GError *error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

#define CONFIG "[profile dev]\nregion = us-east-1\nlogin_session = " SESSION "\n"
#define CACHE_FILE ".aws/login/cache/" CACHE_NAME

static void
fixture_setup (Fixture *fx, gconstpointer data)
{
  GError *error = NULL;

  fx->dir = g_dir_make_tmp ("dynoscope-login-XXXXXX", &error);
  g_assert_no_error (error);
  fx->env = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (fx->env, g_strdup_printf ("HOME=%s", fx->dir));
  /* No region or credentials from instance metadata: the fake transport is not IMDS. */
  g_ptr_array_add (fx->env, g_strdup ("AWS_EC2_METADATA_DISABLED=true"));
  g_ptr_array_add (fx->env, g_strdup_printf ("AWS_CONFIG_FILE=%s/config", fx->dir));
  g_ptr_array_add (fx->env,
                   g_strdup_printf ("AWS_SHARED_CREDENTIALS_FILE=%s/credentials", fx->dir));
  g_ptr_array_add (fx->env, g_strdup_printf ("TESTDIR=%s", fx->dir));
  g_ptr_array_add (fx->env, NULL);
  fx->key = key_new ("P-256");
  fx->pem = key_pem (fx->key, FALSE);
  fake_reset (&fx->fake);
  fx_write (fx, "config", CONFIG);
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
  EVP_PKEY_free (fx->key);
  g_free (fx->pem);
  fake_reset (&fx->fake);
}

/* The cache file as botocore's JSONFileCache (json.dumps) writes it; EXTRA (raw JSON members)
 * goes after clientId. */
static char *
cache_text (const char *key_id, const char *secret, const char *token, const char *expires_at,
            const char *refresh, const char *pem, const char *extra)
{
  GString *s = g_string_new ("{\"accessToken\": {\"accessKeyId\": ");

  ddb_secret_json_append_string (s, key_id);
  g_string_append (s, ", \"secretAccessKey\": ");
  ddb_secret_json_append_string (s, secret);
  g_string_append (s, ", \"sessionToken\": ");
  ddb_secret_json_append_string (s, token);
  g_string_append (s, ", \"accountId\": \"123456789012\", \"expiresAt\": ");
  ddb_secret_json_append_string (s, expires_at);
  g_string_append (s, "}, \"tokenType\": \"aws_sigv4\", \"refreshToken\": ");
  ddb_secret_json_append_string (s, refresh);
  g_string_append (s, ", \"identityToken\": \"eyJ.id.token\", \"clientId\": \"" CLIENT_ID "\"");
  if (extra != NULL)
    g_string_append_printf (s, ", %s", extra);
  g_string_append (s, ", \"dpopKey\": ");
  ddb_secret_json_append_string (s, pem);
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

/* An old session in the default cache, its credentials valid until NOW + EXPIRES_IN. */
static char *
write_old_cache (Fixture *fx, gint64 expires_in, const char *extra)
{
  g_autofree char *at = ddb_aws_format_timestamp (NOW + expires_in);
  char *text = cache_text ("ASIAOLD", "old" SECRET_MARK "key", "old" SECRET_MARK "token", at,
                           "old" SECRET_MARK "refresh", fx->pem, extra);

  fx_write (fx, CACHE_FILE, text);
  return text;
}

static DdbAwsSession *
session_new (Fixture *fx, const char *profile)
{
  DdbAwsSessionOptions opts = { 0 };
  GError *error = NULL;
  DdbAwsSession *s;

  opts.profile = profile;
  opts.envp = (const char *const *) fx->env->pdata;
  opts.transport = fake_signin;
  opts.transport_data = &fx->fake;
  s = ddb_aws_session_new (&opts, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

static DdbAwsCredentials *
get_ok (Fixture *fx, gint64 now)
{
  g_autoptr (DdbAwsSession) s = session_new (fx, "dev");
  GError *error = NULL;
  DdbAwsCredentials *c = ddb_aws_session_get_credentials (s, now, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->method, ==, "login");
  return c;
}

/* The error, checked for its code and that it quotes no secret (nor the private key). */
static GError *
get_error (Fixture *fx, gint64 now, int code)
{
  g_autoptr (DdbAwsSession) s = session_new (fx, "dev");
  GError *error = NULL;
  DdbAwsCredentials *c = ddb_aws_session_get_credentials (s, now, NULL, &error);
  g_auto (GStrv) pem_lines = g_strsplit (fx->pem, "\n", -1);

  g_assert_null (c);
  g_assert_error (error, DDB_AWS_ERROR, code);
  g_assert_null (strstr (error->message, SECRET_MARK));
  g_assert_null (strstr (error->message, "PRIVATE KEY"));
  g_assert_null (strstr (error->message, pem_lines[1]));
  return error;
}

/* ---- The DPoP proof, verified ---- */

static void
assert_dpop (Fixture *fx, const char *proof, const char *url, gint64 iat, char **jti_out)
{
  g_auto (GStrv) parts = g_strsplit (proof, ".", -1);
  g_autofree char *x = coord (fx->key, OSSL_PKEY_PARAM_EC_PUB_X);
  g_autofree char *y = coord (fx->key, OSSL_PKEY_PARAM_EC_PUB_Y);
  g_autofree char *want_header = NULL;
  g_autofree char *want_payload = NULL;
  g_autofree guint8 *header = NULL;
  g_autofree guint8 *payload = NULL;
  g_autofree guint8 *sig = NULL;
  g_autofree char *input = NULL;
  g_autoptr (DdbSecretJson) claims = NULL;
  gsize header_len, payload_len, sig_len, der_len;
  const char *jti;
  BIGNUM *r, *s;
  ECDSA_SIG *esig;
  unsigned char *der = NULL;
  EVP_MD_CTX *ctx;

  g_assert_cmpuint (g_strv_length (parts), ==, 3);
  header = b64url_decode (parts[0], &header_len);
  payload = b64url_decode (parts[1], &payload_len);
  sig = b64url_decode (parts[2], &sig_len);

  want_header = g_strdup_printf ("{\"typ\":\"dpop+jwt\",\"alg\":\"ES256\",\"jwk\":{\"kty\":\"EC\","
                                 "\"x\":\"%s\",\"y\":\"%s\",\"crv\":\"P-256\"}}",
                                 x, y);
  g_assert_cmpmem (header, header_len, want_header, strlen (want_header));

  claims = ddb_secret_json_parse ((const char *) payload, payload_len, NULL);
  g_assert_nonnull (claims);
  jti = ddb_secret_json_get_string (claims, "jti");
  g_assert_nonnull (jti);
  g_assert_true (g_uuid_string_is_valid (jti));
  g_assert_cmpint (jti[14], ==, '4'); /* uuid4 */
  want_payload = g_strdup_printf ("{\"htm\":\"POST\",\"htu\":\"%s\",\"iat\":%" G_GINT64_FORMAT
                                  ",\"jti\":\"%s\"}",
                                  url, iat, jti);
  g_assert_cmpmem (payload, payload_len, want_payload, strlen (want_payload));

  /* ES256: r || s over SHA-256 of "header.payload". */
  g_assert_cmpuint (sig_len, ==, 64);
  r = BN_bin2bn (sig, 32, NULL);
  s = BN_bin2bn (sig + 32, 32, NULL);
  esig = ECDSA_SIG_new ();
  g_assert_true (ECDSA_SIG_set0 (esig, r, s));
  der_len = i2d_ECDSA_SIG (esig, &der);
  g_assert_cmpint ((int) der_len, >, 0);
  input = g_strconcat (parts[0], ".", parts[1], NULL);
  ctx = EVP_MD_CTX_new ();
  g_assert_cmpint (EVP_DigestVerifyInit (ctx, NULL, EVP_sha256 (), NULL, fx->key), ==, 1);
  g_assert_cmpint (EVP_DigestVerify (ctx, der, der_len, (const guint8 *) input, strlen (input)), ==,
                   1);
  /* A proof for other bytes does not verify: the check above can fail. */
  input[0] ^= 1;
  g_assert_cmpint (EVP_DigestVerifyInit (ctx, NULL, EVP_sha256 (), NULL, fx->key), ==, 1);
  g_assert_cmpint (EVP_DigestVerify (ctx, der, der_len, (const guint8 *) input, strlen (input)), ==,
                   0);
  EVP_MD_CTX_free (ctx);
  OPENSSL_free (der);
  ECDSA_SIG_free (esig);
  if (jti_out != NULL)
    *jti_out = g_strdup (jti);
}

/* The request botocore sends (see the top of this file). */
static void
assert_refresh_request (Fixture *fx, const char *url, const char *refresh_token, gint64 iat,
                        char **jti)
{
  g_autofree char *body = g_strdup_printf ("{\"clientId\": \"" CLIENT_ID "\", \"refreshToken\": "
                                           "\"%s\", \"grantType\": \"refresh_token\"}",
                                           refresh_token);

  g_assert_cmpstr (fx->fake.method, ==, "POST");
  g_assert_cmpstr (fx->fake.url, ==, url);
  g_assert_cmpstr (fx->fake.content_type, ==, "application/json");
  g_assert_cmpuint (fx->fake.n_headers, ==, 2);
  g_assert_false (fx->fake.signed_request);
  g_assert_cmpstr (fx->fake.body, ==, body);
  g_assert_nonnull (fx->fake.dpop);
  assert_dpop (fx, fx->fake.dpop, url, iat, jti);
}

/* ---- Tests ---- */

static void
test_cached (Fixture *fx, gconstpointer data)
{
  g_autoptr (DdbAwsCredentials) c = NULL;
  g_autoptr (DdbAwsSession) s = NULL;
  g_autofree char *command = NULL;
  g_autofree char *before = write_old_cache (fx, 3600, NULL);
  g_autofree char *after = NULL;
  gint64 at;

  c = get_ok (fx, NOW);
  g_assert_cmpstr (c->creds.access_key_id, ==, "ASIAOLD");
  g_assert_cmpstr (c->creds.secret_access_key, ==, "old" SECRET_MARK "key");
  g_assert_cmpstr (c->creds.session_token, ==, "old" SECRET_MARK "token");
  g_assert_cmpint (c->expiration, ==, NOW + 3600);
  g_assert_cmpuint (fx->fake.calls, ==, 0);
  after = fx_read (fx, CACHE_FILE);
  g_assert_cmpstr (after, ==, before);

  s = session_new (fx, "dev");
  g_assert_cmpstr (ddb_aws_session_get_method (s), ==, "login");
  g_assert_cmpint (ddb_aws_session_get_sign_in (s, &command), ==, DDB_AWS_SIGN_IN_LOGIN);
  g_assert_cmpstr (command, ==, "aws login --profile dev");

  /* Valid for 11 minutes: still no refresh. */
  g_clear_pointer (&c, ddb_aws_credentials_free);
  c = get_ok (fx, NOW + 3600 - 11 * 60);
  g_assert_cmpstr (c->creds.access_key_id, ==, "ASIAOLD");
  g_assert_cmpuint (fx->fake.calls, ==, 0);
  g_assert_true (ddb_aws_parse_timestamp ("2026-12-05T09:40:00Z", &at));
  g_assert_cmpint (at, ==, NOW + 3600);
}

static void
test_cache_directory (Fixture *fx, gconstpointer data)
{
  g_autofree char *text = write_old_cache (fx, 3600, NULL);
  g_autoptr (DdbAwsCredentials) c = NULL;
  GError *error;

  /* AWS_LOGIN_CACHE_DIRECTORY with $VARS expanded; the default one is then not read. */
  fx_write (fx, "elsewhere/" CACHE_NAME, text);
  fx_setenv (fx, "AWS_LOGIN_CACHE_DIRECTORY", "$TESTDIR/elsewhere");
  {
    g_autofree char *default_path = g_build_filename (fx->dir, CACHE_FILE, NULL);

    g_assert_cmpint (g_unlink (default_path), ==, 0);
  }
  c = get_ok (fx, NOW);
  g_assert_cmpstr (c->creds.access_key_id, ==, "ASIAOLD");
  g_clear_pointer (&c, ddb_aws_credentials_free);

  /* ... and ~. */
  fx_setenv (fx, "AWS_LOGIN_CACHE_DIRECTORY", "~/elsewhere");
  c = get_ok (fx, NOW);
  g_assert_cmpstr (c->creds.access_key_id, ==, "ASIAOLD");

  fx_setenv (fx, "AWS_LOGIN_CACHE_DIRECTORY", NULL);
  error = get_error (fx, NOW, DDB_AWS_ERROR_SIGN_IN_REQUIRED);
  g_assert_nonnull (strstr (error->message, "profile \"dev\""));
  g_assert_nonnull (strstr (error->message, SESSION));
  g_assert_nonnull (strstr (error->message, "'aws login --profile dev'"));
  g_error_free (error);
}

static void
assert_no_temp_files (Fixture *fx, const char *subdir)
{
  g_autofree char *dir = g_build_filename (fx->dir, subdir, NULL);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_assert_cmpstr (name, ==, CACHE_NAME);
      n++;
    }
  g_dir_close (d);
  g_assert_cmpuint (n, ==, 1);
}

static void
refresh_and_check (Fixture *fx, const char *extra)
{
  g_autofree char *old = write_old_cache (fx, -60, extra);
  g_autofree char *path = g_build_filename (fx->dir, CACHE_FILE, NULL);
  g_autofree char *at = ddb_aws_format_timestamp (NOW + 900);
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;
  g_autofree char *jti1 = NULL;
  g_autofree char *jti2 = NULL;
  g_autoptr (DdbAwsCredentials) c = NULL;
  const char *url = "https://us-east-1.signin.aws.amazon.com/v1/token";
  struct stat st;

  c = get_ok (fx, NOW);
  g_assert_cmpuint (fx->fake.calls, ==, 1);
  assert_refresh_request (fx, url, "old" SECRET_MARK "refresh", NOW, &jti1);
  g_assert_cmpstr (c->creds.access_key_id, ==, "ASIANEW");
  g_assert_cmpstr (c->creds.secret_access_key, ==, "new" SECRET_MARK "key");
  g_assert_cmpstr (c->creds.session_token, ==, "new" SECRET_MARK "token");
  g_assert_cmpint (c->expiration, ==, NOW + 900);

  /* The cache as botocore writes it back. */
  want = cache_text ("ASIANEW", "new" SECRET_MARK "key", "new" SECRET_MARK "token", at,
                     "new" SECRET_MARK "refresh", fx->pem, extra);
  got = fx_read (fx, CACHE_FILE);
  g_assert_cmpstr (got, ==, want);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  assert_no_temp_files (fx, ".aws/login/cache");

  /* Valid now: read from the file, no call. */
  g_clear_pointer (&c, ddb_aws_credentials_free);
  c = get_ok (fx, NOW + 60);
  g_assert_cmpuint (fx->fake.calls, ==, 1);
  g_assert_cmpstr (c->creds.access_key_id, ==, "ASIANEW");

  /* Five minutes left: refreshed again, with the new refresh token and a new proof. */
  g_clear_pointer (&c, ddb_aws_credentials_free);
  c = get_ok (fx, NOW + 600);
  g_assert_cmpuint (fx->fake.calls, ==, 2);
  assert_refresh_request (fx, url, "new" SECRET_MARK "refresh", NOW + 600, &jti2);
  g_assert_cmpstr (jti1, !=, jti2);
  g_assert_cmpint (c->expiration, ==, NOW + 1500);
}

static void
test_refresh (Fixture *fx, gconstpointer data)
{
  refresh_and_check (fx, NULL);
}

/* Keys that botocore does not know are kept where they were, as json.dumps writes them. */
static void
test_refresh_keeps_fields (Fixture *fx, gconstpointer data)
{
  refresh_and_check (fx, "\"future\": {\"list\": [1, 2.5, true, false, null, \"caf\\u00e9\", "
                         "{\"a\": []}, []], \"empty\": {}, \"n\": -3}, \"z\": \"\\\"q\\\\\"");
}

static void
test_refresh_pkcs8 (Fixture *fx, gconstpointer data)
{
  g_free (fx->pem);
  fx->pem = key_pem (fx->key, TRUE);
  g_assert_nonnull (strstr (fx->pem, "-----BEGIN PRIVATE KEY-----"));
  refresh_and_check (fx, NULL);
}

static void
endpoint_case (Fixture *fx, const char *config, const char *url)
{
  g_autofree char *old = write_old_cache (fx, 0, NULL);
  g_autoptr (DdbAwsCredentials) c = NULL;

  fx_write (fx, "config", config);
  fake_reset (&fx->fake);
  c = get_ok (fx, NOW);
  g_assert_cmpuint (fx->fake.calls, ==, 1);
  assert_refresh_request (fx, url, "old" SECRET_MARK "refresh", NOW, NULL);
}

/* The signin service's endpoint rules. */
static void
test_endpoints (Fixture *fx, gconstpointer data)
{
  GError *error;

  endpoint_case (fx, "[profile dev]\nregion = eu-west-1\nlogin_session = " SESSION "\n",
                 "https://eu-west-1.signin.aws.amazon.com/v1/token");
  endpoint_case (fx, "[profile dev]\nregion = cn-north-1\nlogin_session = " SESSION "\n",
                 "https://cn-north-1.signin.amazonaws.cn/v1/token");
  endpoint_case (fx, "[profile dev]\nregion = us-gov-west-1\nlogin_session = " SESSION "\n",
                 "https://us-gov-west-1.signin.amazonaws-us-gov.com/v1/token");
  endpoint_case (
      fx,
      "[profile dev]\nregion = us-east-1\nuse_fips_endpoint = true\nlogin_session = " SESSION "\n",
      "https://signin-fips.us-east-1.amazonaws.com/v1/token");
  endpoint_case (fx,
                 "[profile dev]\nregion = us-east-1\nuse_dualstack_endpoint = true\n"
                 "login_session = " SESSION "\n",
                 "https://signin.us-east-1.api.aws/v1/token");
  endpoint_case (fx,
                 "[profile dev]\nregion = us-east-1\nservices = s\nlogin_session = " SESSION
                 "\n[services s]\nsignin =\n  endpoint_url = http://127.0.0.1:8123\n",
                 "http://127.0.0.1:8123/v1/token");
  fx_setenv (fx, "AWS_ENDPOINT_URL_SIGNIN", "http://localhost:9000/");
  endpoint_case (fx, CONFIG, "http://localhost:9000/v1/token");
  fx_setenv (fx, "AWS_ENDPOINT_URL_SIGNIN", NULL);

  /* No region: no refresh (valid cached credentials need none). */
  fx_write (fx, "config", "[profile dev]\nlogin_session = " SESSION "\n");
  g_free (write_old_cache (fx, 0, NULL));
  fake_reset (&fx->fake);
  error = get_error (fx, NOW, DDB_AWS_ERROR_NO_REGION);
  g_assert_cmpuint (fx->fake.calls, ==, 0);
  g_error_free (error);
  g_free (write_old_cache (fx, 3600, NULL));
  ddb_aws_credentials_free (get_ok (fx, NOW));
  g_assert_cmpuint (fx->fake.calls, ==, 0);
}

/* The service's refusals, and answers that are not a token: the cache is left as it was. */
static void
test_refused (Fixture *fx, gconstpointer data)
{
  static const struct {
    guint status;
    const char *answer;
    int code;
    const char *in_message;
  } cases[] = {
    { 401, "{\"error\": \"TOKEN_EXPIRED\", \"message\": \"old" SECRET_MARK "refresh expired\"}",
      DDB_AWS_ERROR_SIGN_IN_REQUIRED, "Please reauthenticate using 'aws login --profile dev'" },
    { 403, "{\"error\": \"USER_CREDENTIALS_CHANGED\", \"message\": \"changed\"}",
      DDB_AWS_ERROR_SIGN_IN_REQUIRED, "has expired or its credentials have changed" },
    { 403, "{\"error\": \"INSUFFICIENT_PERMISSIONS\", \"message\": \"no\"}",
      DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, "'signin:CreateOAuth2Token'" },
    { 400, "{\"error\": \"INVALID_REQUEST\", \"message\": \"bad\"}",
      DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, "HTTP 400 INVALID_REQUEST" },
    { 500, "<html>" SECRET_MARK "</html>", DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, "HTTP 500" },
    { 200,
      "{\"accessToken\": {\"accessKeyId\": \"ASIANEW\"}, \"expiresIn\": 900, "
      "\"refreshToken\": \"x" SECRET_MARK "\"}",
      DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, "invalid service response" },
    { 200, GOOD_ANSWER "x", DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, "invalid service response" },
    { 200,
      "{\"accessToken\": {\"accessKeyId\": \"A\", \"secretAccessKey\": \"" SECRET_MARK "\", "
      "\"sessionToken\": \"" SECRET_MARK "\"}, \"expiresIn\": \"900\", \"refreshToken\": "
      "\"x\"}",
      DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, "invalid service response" },
  };
  g_autofree char *old = write_old_cache (fx, -3600, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *after = NULL;
      GError *error;

      fake_reset (&fx->fake);
      fx->fake.status = cases[i].status;
      fx->fake.answer = cases[i].answer;
      error = get_error (fx, NOW, cases[i].code);
      g_assert_cmpuint (fx->fake.calls, ==, 1);
      g_assert_nonnull (strstr (error->message, cases[i].in_message));
      g_assert_nonnull (strstr (error->message, "\"dev\""));
      g_error_free (error);
      after = fx_read (fx, CACHE_FILE);
      g_assert_cmpstr (after, ==, old);
    }

  /* No answer at all. */
  fake_reset (&fx->fake);
  fx->fake.fail = TRUE;
  {
    g_autoptr (DdbAwsSession) s = session_new (fx, "dev");
    GError *error = NULL;

    g_assert_null (ddb_aws_session_get_credentials (s, NOW, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
    g_error_free (error);
  }
}

/* Cache files that are missing, malformed or incomplete: sign in again, no network call. */
static void
test_malformed (Fixture *fx, gconstpointer data)
{
  g_autofree char *at = ddb_aws_format_timestamp (NOW + 3600);
  g_autoptr (EVP_PKEY) p384 = key_new ("P-384");
  g_autofree char *p384_pem = key_pem (p384, FALSE);
  g_autofree char *good = cache_text ("ASIAOLD", "old" SECRET_MARK "key", "old" SECRET_MARK "token",
                                      at, "old" SECRET_MARK "refresh", fx->pem, NULL);
  g_autofree char *expired = ddb_aws_format_timestamp (NOW - 60);
  struct {
    char *text;
    gint64 now;
    const char *in_message;
  } cases[] = {
    { g_strdup ("{\"accessToken\": {\"accessKeyId\": \"" SECRET_MARK), NOW,
      "is not a JSON object (at byte" },
    { g_strdup ("[1, 2]"), NOW, "is not a JSON object" },
    { g_strdup (""), NOW, "is not a JSON object" },
    { g_strdup ("{}"), NOW,
      "missing required fields: accessToken, refreshToken, dpopKey, clientId" },
    { g_strdup ("{\"accessToken\": {\"accessKeyId\": \"A\", \"secretAccessKey\": \"" SECRET_MARK
                "\"}, \"refreshToken\": \"" SECRET_MARK "\", \"dpopKey\": \"k\", \"clientId\": "
                "\"c\"}"),
      NOW,
      "missing required fields: accessToken.sessionToken, accessToken.accountId, "
      "accessToken.expiresAt." },
    { g_strdup ("{\"accessToken\": {\"accessKeyId\": \"A\", \"secretAccessKey\": \"" SECRET_MARK
                "\", \"sessionToken\": \"" SECRET_MARK "\", \"accountId\": \"1\", \"expiresAt\": "
                "\"2026-12-05T10:00:00Z\"}, \"refreshToken\": 5, \"dpopKey\": \"k\", "
                "\"clientId\": \"c\"}"),
      NOW, "missing required fields: refreshToken." },
    { g_strdup ("{\"accessToken\": {\"accessKeyId\": \"A\", \"secretAccessKey\": \"" SECRET_MARK
                "\", \"sessionToken\": \"" SECRET_MARK "\", \"accountId\": \"1\", \"expiresAt\": "
                "\"tomorrow\"}, \"refreshToken\": \"" SECRET_MARK "\", \"dpopKey\": \"k\", "
                "\"clientId\": \"c\"}"),
      NOW, "expiresAt is not a date and time" },
    /* The key only matters for a refresh. */
    { cache_text ("ASIAOLD", "old" SECRET_MARK "key", "old" SECRET_MARK "token", expired,
                  "old" SECRET_MARK "refresh",
                  "-----BEGIN EC PRIVATE KEY-----\nnot base64!\n"
                  "-----END EC PRIVATE KEY-----\n",
                  NULL),
      NOW, "Unable to load private key from cached token" },
    { cache_text ("ASIAOLD", "old" SECRET_MARK "key", "old" SECRET_MARK "token", expired,
                  "old" SECRET_MARK "refresh", "AAAA", NULL),
      NOW, "Unable to load private key from cached token" },
    { cache_text ("ASIAOLD", "old" SECRET_MARK "key", "old" SECRET_MARK "token", expired,
                  "old" SECRET_MARK "refresh", p384_pem, NULL),
      NOW, "not a P-256 private key" },
  };
  g_autoptr (DdbAwsCredentials) c = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GError *error;

      fx_write (fx, CACHE_FILE, cases[i].text);
      error = get_error (fx, cases[i].now, DDB_AWS_ERROR_SIGN_IN_REQUIRED);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, cases[i].in_message));
      g_assert_nonnull (strstr (error->message, "'aws login --profile dev'"));
      g_assert_cmpuint (fx->fake.calls, ==, 0);
      g_error_free (error);
      g_free (cases[i].text);
    }

  /* The same P-384 key file with valid credentials: used, the key is not looked at. */
  fx_write (fx, CACHE_FILE, good);
  c = get_ok (fx, NOW);
  g_assert_cmpstr (c->creds.access_key_id, ==, "ASIAOLD");
}

/* botocore's own LoginTokenLoader reads the file we wrote, and json.dumps of what it read is
 * the file byte for byte. Needs a python3 with botocore >= 1.42 on PATH (pyenv's here). */
static void
test_botocore_reads_cache (Fixture *fx, gconstpointer data)
{
  static const char script[]
      = "import sys, json\n"
        "from botocore.utils import LoginTokenLoader, JSONFileCache\n"
        "t = LoginTokenLoader(JSONFileCache(sys.argv[1])).load_token(sys.argv[2])\n"
        "raw = open(sys.argv[3]).read()\n"
        "assert json.dumps(t) == raw, 'not as json.dumps writes it'\n"
        "print(t['accessToken']['accessKeyId'], t['accessToken']['expiresAt'],\n"
        "      t['identityToken'], t['future']['list'][4])\n";
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *dir = g_build_filename (fx->dir, ".aws/login/cache", NULL);
  g_autofree char *path = g_build_filename (dir, CACHE_NAME, NULL);
  g_autofree char *at = ddb_aws_format_timestamp (NOW + 900);
  g_autofree char *want = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *old = write_old_cache (fx, 10,
                                          "\"future\": {\"list\": [1, 2.5, true, null, "
                                          "\"x\", \"caf\\u00e9\"]}");
  g_autoptr (DdbAwsCredentials) c = NULL;
  const char *probe[] = { NULL, "-c", "from botocore.utils import LoginTokenLoader", NULL };
  const char *argv[] = { NULL, "-c", script, dir, SESSION, path, NULL };
  GError *error = NULL;
  int wait_status = 0;

  if (python == NULL)
    {
      g_test_skip ("no python3 on PATH");
      return;
    }
  probe[0] = argv[0] = python;
  if (!g_spawn_sync (NULL, (char **) probe, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL,
                     NULL, &wait_status, NULL)
      || !g_spawn_check_wait_status (wait_status, NULL))
    {
      g_test_skip ("the python3 on PATH has no botocore with LoginTokenLoader");
      return;
    }
  c = get_ok (fx, NOW);
  g_assert_cmpuint (fx->fake.calls, ==, 1);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &wait_status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (wait_status, NULL))
    g_error ("botocore could not read the cache: %s", err);
  want = g_strdup_printf ("ASIANEW %s eyJ.id.token x\n", at);
  g_assert_cmpstr (out, ==, want);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_writer_default_set_use_stderr (TRUE);
#define ADD(name, fn) \
  g_test_add ("/net/login/" name, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("cached", test_cached);
  ADD ("cache-directory", test_cache_directory);
  ADD ("refresh", test_refresh);
  ADD ("refresh-keeps-fields", test_refresh_keeps_fields);
  ADD ("refresh-pkcs8", test_refresh_pkcs8);
  ADD ("endpoints", test_endpoints);
  ADD ("refused", test_refused);
  ADD ("malformed", test_malformed);
  ADD ("botocore-reads-cache", test_botocore_reads_cache);
  return g_test_run ();
}
