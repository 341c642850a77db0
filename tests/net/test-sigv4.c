/* test-sigv4.c: SigV4 signing against every case of AWS's test suite (tests/net/sigv4-suite, both
 * header and presigned signing, byte for byte), and the --auth verifier's acceptances and refusals
 * with DynamoDB's exception names and messages, for requests signed in an Authorization header
 * and presigned ones (the signature in the query). */
#include "core/error.h"
#include "net/sigv4.h"

#include <string.h>

/* ---- the AWS test suite ---- */

typedef struct {
  char *method;
  char *target; /* as in the request line: path and query, raw */
  char *path;
  char *query;    /* NULL when the target has no '?' */
  GPtrArray *raw; /* each header as written, folded lines included: "Name:value\n  more" */
  GPtrArray *names;
  GPtrArray *values;
  GString *body;
} RawRequest;

static void
raw_request_free (RawRequest *r)
{
  g_free (r->method);
  g_free (r->target);
  g_free (r->path);
  g_free (r->query);
  g_ptr_array_free (r->raw, TRUE);
  g_ptr_array_free (r->names, TRUE);
  g_ptr_array_free (r->values, TRUE);
  g_string_free (r->body, TRUE);
  g_free (r);
}

/* Parses a raw HTTP/1.1 request: the request target may hold spaces ("GET /a b/ HTTP/1.1"), a line
 * starting with a blank continues the previous header, the body follows the first empty line. */
static RawRequest *
parse_raw_request (const char *text, gsize len)
{
  RawRequest *r = g_new0 (RawRequest, 1);
  const char *p = text, *end = text + len;
  const char *eol, *sp1, *sp2;
  char *line;

  r->raw = g_ptr_array_new_with_free_func (g_free);
  r->names = g_ptr_array_new_with_free_func (g_free);
  r->values = g_ptr_array_new_with_free_func (g_free);
  r->body = g_string_new ("");

  eol = memchr (p, '\n', (gsize) (end - p));
  line = g_strndup (p, eol != NULL ? (gsize) (eol - p) : (gsize) (end - p));
  g_strchomp (line);
  sp1 = strchr (line, ' ');
  sp2 = strrchr (line, ' ');
  g_assert_nonnull (sp1);
  g_assert_true (sp2 > sp1);
  r->method = g_strndup (line, (gsize) (sp1 - line));
  r->target = g_strndup (sp1 + 1, (gsize) (sp2 - sp1 - 1));
  g_free (line);
  {
    const char *q = strchr (r->target, '?');

    r->path = q != NULL ? g_strndup (r->target, (gsize) (q - r->target)) : g_strdup (r->target);
    r->query = q != NULL ? g_strdup (q + 1) : NULL;
  }
  p = eol != NULL ? eol + 1 : end;

  while (p < end)
    {
      gsize n;

      eol = memchr (p, '\n', (gsize) (end - p));
      n = eol != NULL ? (gsize) (eol - p) : (gsize) (end - p);
      if (n > 0 && p[n - 1] == '\r')
        n--;
      if (n == 0)
        {
          p = eol != NULL ? eol + 1 : end;
          g_string_append_len (r->body, p, end - p);
          break;
        }
      line = g_strndup (p, n);
      if ((line[0] == ' ' || line[0] == '\t') && r->raw->len > 0)
        {
          char *prev = g_ptr_array_index (r->raw, r->raw->len - 1);
          char *pv = g_ptr_array_index (r->values, r->values->len - 1);

          r->raw->pdata[r->raw->len - 1] = g_strconcat (prev, "\n", line, NULL);
          r->values->pdata[r->values->len - 1] = g_strconcat (pv, "\n", line, NULL);
          g_free (prev);
          g_free (pv);
          g_free (line);
        }
      else
        {
          char *colon = strchr (line, ':');

          g_assert_nonnull (colon);
          g_ptr_array_add (r->names, g_strndup (line, (gsize) (colon - line)));
          g_ptr_array_add (r->values, g_strdup (colon + 1));
          g_ptr_array_add (r->raw, line);
        }
      p = eol != NULL ? eol + 1 : end;
    }
  return r;
}

/* Just enough JSON for context.json: the value of a unique key, a string without escapes or a
 * bare literal (true, false, a number). NULL when the key is absent. */
static char *
context_value (const char *json, const char *key)
{
  char *quoted = g_strdup_printf ("\"%s\"", key);
  const char *p = strstr (json, quoted);
  const char *e;

  g_free (quoted);
  if (p == NULL)
    return NULL;
  p = strchr (p + strlen (key) + 2, ':');
  g_assert_nonnull (p);
  p++;
  while (g_ascii_isspace (*p))
    p++;
  if (*p == '"')
    {
      e = strchr (p + 1, '"');
      g_assert_nonnull (e);
      return g_strndup (p + 1, (gsize) (e - p - 1));
    }
  e = p;
  while (*e != '\0' && *e != ',' && *e != '}' && !g_ascii_isspace (*e))
    e++;
  return g_strndup (p, (gsize) (e - p));
}

static gboolean
context_bool (const char *json, const char *key)
{
  char *v = context_value (json, key);
  gboolean b = v != NULL && strcmp (v, "true") == 0;

  g_free (v);
  return b;
}

static const char *
suite_dir (void)
{
  static char *dir = NULL;

  if (dir == NULL)
    {
      const char *src = g_getenv ("DYNOSCOPE_SOURCE_DIR");

      dir = g_build_filename (src != NULL ? src : ".", "tests", "net", "sigv4-suite", "v4", NULL);
    }
  return dir;
}

static char *
read_case_file (const char *name, const char *file, gsize *len)
{
  char *path = g_build_filename (suite_dir (), name, file, NULL);
  char *text = NULL;
  GError *error = NULL;

  if (!g_file_get_contents (path, &text, len, &error))
    g_error ("%s: %s", name, error->message);
  g_free (path);
  return text;
}

static void
assert_same (const char *case_name, const char *what, const char *expected, const char *actual)
{
  if (g_strcmp0 (expected, actual) != 0)
    {
      g_test_message ("case %s, %s differs.\n--- expected ---\n%s\n--- got ---\n%s", case_name,
                      what, expected, actual != NULL ? actual : "(null)");
      g_test_fail_printf ("case %s: %s differs", case_name, what);
    }
}

static void
run_suite_case (gconstpointer data, gboolean query_mode)
{
  const char *name = data;
  const char *prefix = query_mode ? "query-" : "header-";
  gsize req_len;
  char *req_text = read_case_file (name, "request.txt", &req_len);
  char *context = read_case_file (name, "context.json", NULL);
  RawRequest *raw = parse_raw_request (req_text, req_len);
  DdbHttpHeader *headers = g_new0 (DdbHttpHeader, raw->names->len + 1);
  DdbHttpRequest req = { 0 };
  DdbCredentials creds = { 0 };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  char *akid = context_value (context, "access_key_id");
  char *secret = context_value (context, "secret_access_key");
  char *token = context_value (context, "token");
  char *region = context_value (context, "region");
  char *service = context_value (context, "service");
  char *timestamp = context_value (context, "timestamp");
  char *expires = context_value (context, "expiration_in_seconds");
  GDateTime *dt;
  GError *error = NULL;
  GString *signed_request;
  const char *files[]
      = { "canonical-request.txt", "string-to-sign.txt", "signature.txt", "signed-request.txt" };
  char *expected[4];

  for (guint i = 0; i < raw->names->len; i++)
    {
      headers[i].name = g_ptr_array_index (raw->names, i);
      headers[i].value = g_ptr_array_index (raw->values, i);
    }
  req.method = raw->method;
  req.path = raw->path;
  req.query = raw->query;
  req.headers = headers;
  req.n_headers = raw->names->len;
  req.body = (const guint8 *) raw->body->str;
  req.body_len = raw->body->len;

  creds.access_key_id = akid;
  creds.secret_access_key = secret;
  creds.session_token = token;
  dt = g_date_time_new_from_iso8601 (timestamp, NULL);
  g_assert_nonnull (dt);
  params.time = g_date_time_to_unix (dt);
  g_date_time_unref (dt);
  params.region = region;
  params.service = service;
  params.normalize_path = context_bool (context, "normalize");
  params.sign_body = context_bool (context, "sign_body");
  params.omit_session_token = context_bool (context, "omit_session_token");
  params.expires_in = expires != NULL ? g_ascii_strtoll (expires, NULL, 10) : 0;

  if (query_mode)
    g_assert_true (ddb_sigv4_sign_query (&req, &creds, &params, &sig, &error));
  else
    g_assert_true (ddb_sigv4_sign_headers (&req, &creds, &params, &sig, &error));
  g_assert_no_error (error);

  /* The request as it would go on the wire, in the suite's layout: the request line and the
   * headers as they were given, then what the signer adds, then the body. */
  signed_request = g_string_new ("");
  if (query_mode)
    g_string_append_printf (signed_request, "%s %s?%s HTTP/1.1\n", raw->method, raw->path,
                            sig.query_string);
  else
    g_string_append_printf (signed_request, "%s %s HTTP/1.1\n", raw->method, raw->target);
  for (guint i = 0; i < raw->raw->len; i++)
    g_string_append_printf (signed_request, "%s\n", (char *) g_ptr_array_index (raw->raw, i));
  if (!query_mode)
    {
      g_assert_null (sig.query_string);
      for (char **h = sig.add_headers; h != NULL && h[0] != NULL; h += 2)
        {
          g_assert_nonnull (h[1]);
          g_string_append_printf (signed_request, "%s:%s\n", h[0], h[1]);
        }
    }
  else
    g_assert_null (sig.add_headers);
  g_string_append_c (signed_request, '\n');
  g_string_append_len (signed_request, raw->body->str, raw->body->len);

  for (int i = 0; i < 4; i++)
    {
      char *file = g_strconcat (prefix, files[i], NULL);

      expected[i] = read_case_file (name, file, NULL);
      g_free (file);
    }
  assert_same (name, "canonical request", expected[0], sig.canonical_request);
  assert_same (name, "string to sign", expected[1], sig.string_to_sign);
  assert_same (name, "signature", expected[2], sig.signature);
  assert_same (name, "signed request", expected[3], signed_request->str);
  for (int i = 0; i < 4; i++)
    g_free (expected[i]);

  g_string_free (signed_request, TRUE);
  ddb_signature_clear (&sig);
  g_assert_null (sig.signature);
  g_free (headers);
  raw_request_free (raw);
  g_free (req_text);
  g_free (context);
  g_free (akid);
  g_free (secret);
  g_free (token);
  g_free (region);
  g_free (service);
  g_free (timestamp);
  g_free (expires);
}

static void
test_suite_header (gconstpointer data)
{
  run_suite_case (data, FALSE);
}

static void
test_suite_query (gconstpointer data)
{
  run_suite_case (data, TRUE);
}

static GPtrArray *suite_cases;

/* The suite must be there: a missing copy would otherwise pass with nothing run. */
static void
test_suite_present (void)
{
  char *license = g_build_filename (suite_dir (), "..", "LICENSE", NULL);
  char *notice = g_build_filename (suite_dir (), "..", "NOTICE", NULL);

  g_assert_true (g_file_test (license, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (notice, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (suite_cases->len, >=, 38);
  g_free (license);
  g_free (notice);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
add_suite_tests (void)
{
  GDir *dir = g_dir_open (suite_dir (), 0, NULL);
  const char *entry;

  suite_cases = g_ptr_array_new_with_free_func (g_free);
  if (dir != NULL)
    {
      while ((entry = g_dir_read_name (dir)) != NULL)
        {
          char *req = g_build_filename (suite_dir (), entry, "request.txt", NULL);

          if (g_file_test (req, G_FILE_TEST_IS_REGULAR))
            g_ptr_array_add (suite_cases, g_strdup (entry));
          g_free (req);
        }
      g_dir_close (dir);
    }
  g_ptr_array_sort (suite_cases, compare_names);
  g_test_add_func ("/sigv4/suite/present", test_suite_present);
  for (guint i = 0; i < suite_cases->len; i++)
    {
      const char *name = g_ptr_array_index (suite_cases, i);
      char *hfile = g_build_filename (suite_dir (), name, "header-signature.txt", NULL);
      char *qfile = g_build_filename (suite_dir (), name, "query-signature.txt", NULL);
      char *path;

      if (g_file_test (hfile, G_FILE_TEST_IS_REGULAR))
        {
          path = g_strdup_printf ("/sigv4/suite/header/%s", name);
          g_test_add_data_func (path, name, test_suite_header);
          g_free (path);
        }
      if (g_file_test (qfile, G_FILE_TEST_IS_REGULAR))
        {
          path = g_strdup_printf ("/sigv4/suite/query/%s", name);
          g_test_add_data_func (path, name, test_suite_query);
          g_free (path);
        }
      g_free (hfile);
      g_free (qfile);
    }
}

/* ---- signing details ---- */

#define AKID "AKIDEXAMPLE"
#define SECRET "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
#define OTHER_AKID "AKIDOTHER"
#define OTHER_SECRET "0therSecretKeyForTestsOnly0000000000000000"
#define T0 G_GINT64_CONSTANT (1440938160) /* 2015-08-30T12:36:00Z */
#define BODY \
  "{\"TableName\":\"Music\",\"Key\":{\"Artist\":{\"S\":\"No One You Know\"}," \
  "\"SongTitle\":{\"S\":\"Call Me Today\"}}}"

static void
test_amz_date (void)
{
  gint64 t = 0;
  char *s = ddb_sigv4_format_amz_date (T0);

  g_assert_cmpstr (s, ==, "20150830T123600Z");
  g_free (s);
  g_assert_true (ddb_sigv4_parse_amz_date ("20150830T123600Z", &t));
  g_assert_cmpint (t, ==, T0);
  g_assert_false (ddb_sigv4_parse_amz_date ("2015-08-30T12:36:00Z", &t));
  g_assert_false (ddb_sigv4_parse_amz_date ("20150830T123600", &t));
  g_assert_false (ddb_sigv4_parse_amz_date ("20151330T123600Z", &t));
  g_assert_false (ddb_sigv4_parse_amz_date ("20150830T126000Z", &t));
  g_assert_false (ddb_sigv4_parse_amz_date ("2015083OT123600Z", &t));
  g_assert_false (ddb_sigv4_parse_amz_date ("", &t));
}

/* A DynamoDB request as botocore builds it; Content-Length and User-Agent are not signed by
 * botocore (it adds Content-Length after signing). */
typedef struct {
  GArray *headers; /* DdbHttpHeader, strings owned by strings */
  GPtrArray *strings;
  const char *body;
  const char *query; /* NULL, or owned by strings */
} TestRequest;

static TestRequest *
test_request_new (const char *body)
{
  TestRequest *t = g_new0 (TestRequest, 1);

  t->headers = g_array_new (FALSE, TRUE, sizeof (DdbHttpHeader));
  t->strings = g_ptr_array_new_with_free_func (g_free);
  t->body = body;
  return t;
}

static void
test_request_add (TestRequest *t, const char *name, const char *value)
{
  DdbHttpHeader h;

  h.name = g_strdup (name);
  h.value = g_strdup (value);
  g_ptr_array_add (t->strings, (char *) h.name);
  g_ptr_array_add (t->strings, (char *) h.value);
  g_array_append_val (t->headers, h);
}

static void
test_request_set (TestRequest *t, const char *name, const char *value)
{
  for (guint i = 0; i < t->headers->len; i++)
    {
      DdbHttpHeader *h = &g_array_index (t->headers, DdbHttpHeader, i);

      if (g_ascii_strcasecmp (h->name, name) == 0)
        {
          h->value = g_strdup (value);
          g_ptr_array_add (t->strings, (char *) h->value);
          return;
        }
    }
  test_request_add (t, name, value);
}

static void
test_request_remove (TestRequest *t, const char *name)
{
  for (guint i = 0; i < t->headers->len; i++)
    if (g_ascii_strcasecmp (g_array_index (t->headers, DdbHttpHeader, i).name, name) == 0)
      {
        g_array_remove_index (t->headers, i);
        return;
      }
}

static const char *
test_request_get (TestRequest *t, const char *name)
{
  for (guint i = 0; i < t->headers->len; i++)
    if (g_ascii_strcasecmp (g_array_index (t->headers, DdbHttpHeader, i).name, name) == 0)
      return g_array_index (t->headers, DdbHttpHeader, i).value;
  return NULL;
}

static void
test_request_free (TestRequest *t)
{
  g_array_free (t->headers, TRUE);
  g_ptr_array_free (t->strings, TRUE);
  g_free (t);
}

static DdbHttpRequest
as_http (TestRequest *t)
{
  DdbHttpRequest r = { 0 };

  r.method = "POST";
  r.path = "/";
  r.query = t->query;
  r.headers = (const DdbHttpHeader *) t->headers->data;
  r.n_headers = t->headers->len;
  r.body = (const guint8 *) t->body;
  r.body_len = t->body != NULL ? strlen (t->body) : 0;
  return r;
}

static TestRequest *
dynamodb_request (void)
{
  TestRequest *t = test_request_new (BODY);

  test_request_add (t, "Host", "localhost:8000");
  test_request_add (t, "X-Amz-Target", "DynamoDB_20120810.GetItem");
  test_request_add (t, "Content-Type", "application/x-amz-json-1.0");
  test_request_add (t, "User-Agent", "aws-cli/2.15.0 Python/3.11.2 Linux/6.1 botocore/1.43.11");
  return t;
}

/* Signs t in place (adds the signer's headers) with the given key, region and service. */
static void
sign_request (TestRequest *t, const char *akid, const char *secret, const char *token,
              const char *region, const char *service, gint64 when, gboolean sign_body)
{
  DdbCredentials creds = { akid, secret, token };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  DdbHttpRequest r = as_http (t);
  GError *error = NULL;

  params.region = region;
  params.service = service;
  params.time = when;
  params.normalize_path = TRUE;
  params.sign_body = sign_body;
  g_assert_true (ddb_sigv4_sign_headers (&r, &creds, &params, &sig, &error));
  g_assert_no_error (error);
  for (char **h = sig.add_headers; h[0] != NULL; h += 2)
    test_request_add (t, h[0], h[1]);
  ddb_signature_clear (&sig);
}

static const char *
lookup_secret (const char *akid, gpointer user_data)
{
  if (strcmp (akid, AKID) == 0)
    return SECRET;
  if (strcmp (akid, OTHER_AKID) == 0)
    return OTHER_SECRET;
  return NULL;
}

static DdbSigv4VerifyParams
verify_params (gint64 now)
{
  DdbSigv4VerifyParams p = { 0 };

  p.region = "us-east-1";
  p.service = "dynamodb";
  p.now = now;
  p.max_skew = 900;
  p.lookup = lookup_secret;
  return p;
}

static void
assert_verified (TestRequest *t, gint64 now, const char *expect_akid)
{
  DdbHttpRequest r = as_http (t);
  DdbSigv4VerifyParams p = verify_params (now);
  GError *error = NULL;
  char *akid = NULL;

  if (!ddb_sigv4_verify (&r, &p, &akid, &error))
    g_error ("refused: %s", error->message);
  g_assert_no_error (error);
  g_assert_cmpstr (akid, ==, expect_akid);
  g_free (akid);
}

/* Asserts a refusal with its code and its whole message (or only its beginning when prefix). */
static void
assert_refused_p (TestRequest *t, const DdbSigv4VerifyParams *p, DdbErrorCode code,
                  const char *message, gboolean prefix)
{
  DdbHttpRequest r = as_http (t);
  GError *error = NULL;
  char *akid = NULL;

  g_assert_false (ddb_sigv4_verify (&r, p, &akid, &error));
  g_assert_null (akid);
  g_assert_error (error, DDB_ERROR, (gint) code);
  if (prefix)
    {
      if (!g_str_has_prefix (error->message, message))
        g_error ("message '%s' does not start with '%s'", error->message, message);
    }
  else
    g_assert_cmpstr (error->message, ==, message);
  /* Whatever the refusal, no secret is echoed back. */
  g_assert_null (strstr (error->message, SECRET));
  g_assert_null (strstr (error->message, OTHER_SECRET));
  g_error_free (error);
}

static void
assert_refused (TestRequest *t, gint64 now, DdbErrorCode code, const char *message, gboolean prefix)
{
  DdbSigv4VerifyParams p = verify_params (now);

  assert_refused_p (t, &p, code, message, prefix);
}

#define MISMATCH \
  "The request signature we calculated does not match the signature you provided. Check your " \
  "AWS Secret Access Key and signing method. Consult the service documentation for details."

static void
test_sign_matches_botocore (void)
{
  TestRequest *t = dynamodb_request ();

  /* The Authorization botocore 1.43 computes for this very request (see the test's header). */
  sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  g_assert_cmpstr (test_request_get (t, "X-Amz-Date"), ==, "20150830T123600Z");
  g_assert_cmpstr (test_request_get (t, "Authorization"), ==,
                   "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/dynamodb/"
                   "aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
                   "Signature=a04ad3e181925de8781ef170a34406953f42ab715ffc595fe46dd187cff46f0c");
  test_request_free (t);
}

static void
test_sign_refuses_bad_requests (void)
{
  DdbCredentials creds = { AKID, SECRET, NULL };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  TestRequest *t = test_request_new ("");
  DdbHttpRequest r;
  GError *error = NULL;

  params.region = "us-east-1";
  params.service = "dynamodb";
  params.time = T0;
  test_request_add (t, "Content-Type", "application/x-amz-json-1.0");
  r = as_http (t);
  g_assert_false (ddb_sigv4_sign_headers (&r, &creds, &params, &sig, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_assert_null (sig.signature);
  g_clear_error (&error);

  test_request_add (t, "host", "localhost");
  test_request_add (t, "authorization", "AWS4-HMAC-SHA256 stale");
  r = as_http (t);
  g_assert_false (ddb_sigv4_sign_headers (&r, &creds, &params, &sig, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_clear_error (&error);
  /* A presigned URL does not touch the headers. */
  g_assert_true (ddb_sigv4_sign_query (&r, &creds, &params, &sig, &error));
  g_assert_no_error (error);
  ddb_signature_clear (&sig);
  test_request_free (t);
}

/* ---- the verifier ---- */

static void
test_verify_ok (void)
{
  TestRequest *t = dynamodb_request ();

  sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  assert_verified (t, T0, AKID);
  /* Headers the signer leaves out may change on the way. */
  test_request_set (t, "User-Agent", "something else");
  test_request_add (t, "Content-Length", "96");
  assert_verified (t, T0, AKID);
  test_request_free (t);

  /* Signed body hash, session token. */
  t = dynamodb_request ();
  sign_request (t, OTHER_AKID, OTHER_SECRET, "FQoGZXIvYXdzEXAMPLETOKEN", "us-east-1", "dynamodb",
                T0, TRUE);
  g_assert_nonnull (test_request_get (t, "x-amz-content-sha256"));
  g_assert_nonnull (test_request_get (t, "X-Amz-Security-Token"));
  assert_verified (t, T0, OTHER_AKID);
  test_request_free (t);

  /* Empty body. */
  t = test_request_new (NULL);
  test_request_add (t, "Host", "127.0.0.1:8000");
  test_request_add (t, "X-Amz-Target", "DynamoDB_20120810.ListTables");
  sign_request (t, AKID, SECRET, NULL, "eu-west-3", "dynamodb", T0, FALSE);
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "Credential should be scoped to a valid region, not 'eu-west-3'. ", FALSE);
  {
    DdbSigv4VerifyParams p = verify_params (T0);
    DdbHttpRequest r = as_http (t);
    GError *error = NULL;

    /* Without a required region, any region signs. */
    p.region = NULL;
    g_assert_true (ddb_sigv4_verify (&r, &p, NULL, &error));
    g_assert_no_error (error);
  }
  test_request_free (t);
}

/* The exact headers botocore 1.43 (AWS CLI v2's engine) sent for a GetItem at T0. */
static void
test_verify_botocore_request (void)
{
  TestRequest *t = test_request_new (BODY);

  test_request_add (t, "Host", "localhost:8000");
  test_request_add (t, "Accept-Encoding", "identity");
  test_request_add (t, "X-Amz-Target", "DynamoDB_20120810.GetItem");
  test_request_add (t, "Content-Type", "application/x-amz-json-1.0");
  test_request_add (t, "User-Agent", "aws-cli/2.15.0 Python/3.11.2 Linux/6.1 botocore/1.43.11");
  test_request_add (t, "X-Amz-Date", "20150830T123600Z");
  test_request_add (t, "Authorization",
                    "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/dynamodb/"
                    "aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
                    "Signature=a04ad3e181925de8781ef170a34406953f42ab715ffc595fe46dd187cff46f0c");
  test_request_add (t, "Content-Length", "96");
  assert_verified (t, T0 + 5, AKID);
  test_request_free (t);
}

static char *
replace (const char *s, const char *from, const char *to)
{
  char **parts = g_strsplit (s, from, -1);
  char *r = g_strjoinv (to, parts);

  g_assert_cmpuint (g_strv_length (parts), >, 1);
  g_strfreev (parts);
  return r;
}

/* Rewrites the Authorization header: a find/replace on its text. */
static void
edit_auth (TestRequest *t, const char *from, const char *to)
{
  char *a = replace (test_request_get (t, "Authorization"), from, to);

  test_request_set (t, "Authorization", a);
  g_free (a);
}

static TestRequest *
signed_request (void)
{
  TestRequest *t = dynamodb_request ();

  sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  return t;
}

static void
test_verify_authorization_layouts (void)
{
  TestRequest *t = signed_request ();
  char *orig = g_strdup (test_request_get (t, "Authorization"));
  const char *sig = strstr (orig, "Signature=") + strlen ("Signature=");
  char *v;

  /* No blanks after the commas. */
  edit_auth (t, ", ", ",");
  assert_verified (t, T0, AKID);
  /* Extra blanks everywhere, and around the header. */
  test_request_set (t, "Authorization", orig);
  edit_auth (t, ", ", "  ,   ");
  edit_auth (t, "AWS4-HMAC-SHA256 ", "AWS4-HMAC-SHA256   ");
  v = g_strdup_printf ("  %s  ", test_request_get (t, "Authorization"));
  test_request_set (t, "Authorization", v);
  g_free (v);
  assert_verified (t, T0, AKID);
  /* Another order. */
  v = g_strdup_printf ("AWS4-HMAC-SHA256 Signature=%s, SignedHeaders=content-type;host;"
                       "x-amz-date;x-amz-target, Credential=" AKID
                       "/20150830/us-east-1/dynamodb/aws4_request",
                       sig);
  test_request_set (t, "Authorization", v);
  g_free (v);
  assert_verified (t, T0, AKID);
  /* Header names in any case; the Host header name in lower case. */
  test_request_set (t, "Authorization", orig);
  test_request_remove (t, "Host");
  test_request_add (t, "host", "localhost:8000");
  test_request_remove (t, "X-Amz-Date");
  test_request_add (t, "x-amz-date", "20150830T123600Z");
  assert_verified (t, T0, AKID);
  g_free (orig);
  test_request_free (t);
}

static void
test_verify_tampered (void)
{
  TestRequest *t;

  /* The body. */
  t = signed_request ();
  t->body = "{\"TableName\":\"Music\",\"Key\":{\"Artist\":{\"S\":\"No One You Knew\"},"
            "\"SongTitle\":{\"S\":\"Call Me Today\"}}}";
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  MISMATCH "\n\nThe Canonical String for this request should have been\n'POST\n/\n"
                           "\ncontent-type:application/x-amz-json-1.0\nhost:localhost:8000\n"
                           "x-amz-date:20150830T123600Z\n"
                           "x-amz-target:DynamoDB_20120810.GetItem\n\n"
                           "content-type;host;x-amz-date;x-amz-target\n",
                  TRUE);
  test_request_free (t);

  /* A signed header. */
  t = signed_request ();
  test_request_set (t, "X-Amz-Target", "DynamoDB_20120810.DeleteItem");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH "\n\n", TRUE);
  test_request_free (t);

  /* A second value for a signed header. */
  t = signed_request ();
  test_request_add (t, "Content-Type", "text/plain");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);

  /* The date, within the skew and the same day. */
  t = signed_request ();
  test_request_set (t, "X-Amz-Date", "20150830T123601Z");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);

  /* The date, another day than the scope's. */
  t = signed_request ();
  test_request_set (t, "X-Amz-Date", "20150831T000100Z");
  assert_refused (t, T0 + 11 * 3600 + 25 * 60, DDB_ERROR_INVALID_SIGNATURE,
                  "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date "
                  "from HTTP: '20150830' != '20150831', from '20150831T000100Z'. ",
                  FALSE);
  test_request_free (t);

  /* The key id: unknown, or another key's. */
  t = signed_request ();
  edit_auth (t, "Credential=" AKID "/", "Credential=AKIDNOBODY/");
  assert_refused (t, T0, DDB_ERROR_UNRECOGNIZED_CLIENT,
                  "The security token included in the request is invalid.", FALSE);
  test_request_free (t);
  t = signed_request ();
  edit_auth (t, "Credential=" AKID "/", "Credential=" OTHER_AKID "/");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);

  /* The signature: one digit, shortened, lengthened, upper case. */
  {
    const char *edits[][2] = {
      { "0c", "0d" },
      { "f0c", "f0" },
      { "f0c", "f0c0" },
      { "a04ad", "A04AD" },
    };

    for (gsize i = 0; i < G_N_ELEMENTS (edits); i++)
      {
        t = signed_request ();
        edit_auth (t, edits[i][0], edits[i][1]);
        assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
        test_request_free (t);
      }
  }

  /* The scope: region, service, terminator, and all at once. */
  t = signed_request ();
  edit_auth (t, "/us-east-1/", "/us-west-2/");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "Credential should be scoped to a valid region, not 'us-west-2'. ", FALSE);
  test_request_free (t);
  t = dynamodb_request ();
  sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamo", T0, FALSE);
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "Credential should be scoped to correct service: 'dynamodb'. ", FALSE);
  test_request_free (t);
  t = signed_request ();
  edit_auth (t, "/aws4_request", "/aws4_requests");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "Credential should be scoped with a valid terminator: 'aws4_request', not "
                  "'aws4_requests'. ",
                  FALSE);
  test_request_free (t);
  t = signed_request ();
  edit_auth (t, AKID "/20150830/us-east-1/dynamodb/aws4_request", AKID "/b/c/d/e");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "Credential should be scoped to a valid region, not 'c'. "
                  "Credential should be scoped to correct service: 'dynamodb'. "
                  "Credential should be scoped with a valid terminator: 'aws4_request', not 'e'. "
                  "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date "
                  "from HTTP: 'b' != '20150830', from '20150830T123600Z'. ",
                  FALSE);
  test_request_free (t);

  /* A signed header list that drops a header the signer signed. */
  t = signed_request ();
  edit_auth (t, "SignedHeaders=content-type;", "SignedHeaders=");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);

  /* A wrong secret for the right key id. */
  t = dynamodb_request ();
  sign_request (t, AKID, OTHER_SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);
}

static void
test_verify_missing (void)
{
  TestRequest *t = dynamodb_request ();

  assert_refused (t, T0, DDB_ERROR_MISSING_AUTHENTICATION_TOKEN,
                  "Request is missing Authentication Token", FALSE);
  test_request_add (t, "Authorization", "Bearer abc");
  assert_refused (t, T0, DDB_ERROR_MISSING_AUTHENTICATION_TOKEN,
                  "Request is missing Authentication Token", FALSE);
  test_request_set (t, "Authorization", "");
  assert_refused (t, T0, DDB_ERROR_MISSING_AUTHENTICATION_TOKEN,
                  "Request is missing Authentication Token", FALSE);
  test_request_free (t);
}

static void
test_verify_malformed (void)
{
  TestRequest *t;

  /* Missing parameters, each named, then the header echoed. */
  t = signed_request ();
  test_request_set (t, "Authorization",
                    "AWS4-HMAC-SHA256 Credential=" AKID "/20150830/"
                    "us-east-1/dynamodb/aws4_request");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Authorization header requires 'Signature' parameter. Authorization header "
                  "requires 'SignedHeaders' parameter. Authorization=AWS4-HMAC-SHA256 "
                  "Credential=" AKID "/20150830/us-east-1/dynamodb/aws4_request",
                  FALSE);
  test_request_set (t, "Authorization", "AWS4-HMAC-SHA256");
  test_request_remove (t, "X-Amz-Date");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Authorization header requires 'Credential' parameter. Authorization header "
                  "requires 'Signature' parameter. Authorization header requires 'SignedHeaders' "
                  "parameter. Authorization header requires existence of either a 'X-Amz-Date' "
                  "or a 'Date' header. Authorization=AWS4-HMAC-SHA256",
                  FALSE);
  test_request_free (t);

  /* No date header at all. */
  t = signed_request ();
  test_request_remove (t, "X-Amz-Date");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' "
                  "header. Authorization=AWS4-HMAC-SHA256 Credential=",
                  TRUE);
  /* Date instead of X-Amz-Date, still in the basic format, is used (and here is not signed). */
  test_request_add (t, "Date", "20150830T123600Z");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_set (t, "Date", "Sun, 30 Aug 2015 12:36:00 GMT");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Date must be in ISO-8601 'basic format'. Got 'Sun, 30 Aug 2015 12:36:00 GMT'. "
                  "See http://en.wikipedia.org/wiki/ISO_8601",
                  FALSE);
  test_request_free (t);

  /* A date in another format. */
  t = signed_request ();
  test_request_set (t, "X-Amz-Date", "2015-08-30T12:36:00Z");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Date must be in ISO-8601 'basic format'. Got '2015-08-30T12:36:00Z'. See "
                  "http://en.wikipedia.org/wiki/ISO_8601",
                  FALSE);
  test_request_free (t);

  /* A parameter without '='. */
  t = signed_request ();
  test_request_set (t, "Authorization",
                    "AWS4-HMAC-SHA256 Signature=b,    Credential,    "
                    "SignedHeaders");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "'Credential' not a valid key=value pair (missing equal-sign) in Authorization "
                  "header: 'AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders'.",
                  FALSE);
  test_request_free (t);

  /* Host not signed (checked before the algorithm and the credential). */
  t = signed_request ();
  edit_auth (t, "content-type;host;", "content-type;");
  edit_auth (t, "AWS4-HMAC-SHA256 ", "AWS4-HMAC-SHA1 ");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "'Host' must be a 'SignedHeader' in the AWS Authorization.", FALSE);
  test_request_free (t);

  /* Another algorithm. */
  t = signed_request ();
  edit_auth (t, "AWS4-HMAC-SHA256 ", "AWS4-HMAC-SHA25 ");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA25' (only AWS4-HMAC-SHA256 for "
                  "now). ",
                  FALSE);
  test_request_free (t);

  /* A credential with too few parts; trailing slashes do not count. */
  t = signed_request ();
  edit_auth (t, AKID "/20150830/us-east-1/dynamodb/aws4_request", "a/b/c/d");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Credential must have exactly 5 slash-delimited elements, e.g. "
                  "keyid/date/region/service/term, got 'a/b/c/d'",
                  FALSE);
  test_request_free (t);
  t = signed_request ();
  edit_auth (t, "/aws4_request", "/aws4_request//");
  assert_verified (t, T0, AKID);
  test_request_free (t);
}

static void
test_verify_skew (void)
{
  TestRequest *t = signed_request ();

  /* Exactly 15 minutes either way is still accepted; one second more is not. */
  assert_verified (t, T0 + 900, AKID);
  assert_verified (t, T0 - 900, AKID);
  assert_refused (t, T0 + 901, DDB_ERROR_INVALID_SIGNATURE,
                  "Signature expired: 20150830T123600Z is now earlier than 20150830T123601Z "
                  "(20150830T125101Z - 15 min.)",
                  FALSE);
  assert_refused (t, T0 - 901, DDB_ERROR_INVALID_SIGNATURE,
                  "Signature not yet current: 20150830T123600Z is still later than "
                  "20150830T123559Z (20150830T122059Z + 15 min.)",
                  FALSE);
  /* The skew is checked before the key id. */
  edit_auth (t, "Credential=" AKID "/", "Credential=AKIDNOBODY/");
  assert_refused (t, T0 + 3600, DDB_ERROR_INVALID_SIGNATURE, "Signature expired: ", TRUE);
  test_request_free (t);
}

/* Messages quote the request's headers, which may hold any byte; serve answers them in a JSON
 * string, which jansson takes in UTF-8 only (it dropped the message): they are made UTF-8
 * (fuzz-sigv4 found it). */
static void
test_verify_message_utf8 (void)
{
  TestRequest *t = signed_request ();
  DdbSigv4VerifyParams p = verify_params (T0);
  DdbHttpRequest r;
  GError *error = NULL;

  /* Quoted in an IncompleteSignatureException. */
  edit_auth (t, "Credential=" AKID "/", "Credential=" AKID "\xff/");
  edit_auth (t, "Signature=", "Signature\xfe");
  r = as_http (t);
  g_assert_false (ddb_sigv4_verify (&r, &p, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_cmpstr (error->message, ==,
                   "'Signature\xef\xbf\xbd" /* U+FFFD */
                   "a04ad3e181925de8781ef170a34406953f42ab715ffc595fe46dd187cff46f0c' not a valid "
                   "key=value pair (missing equal-sign) in Authorization header: "
                   "'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\xef\xbf\xbd/20150830/us-east-1/"
                   "dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;"
                   "x-amz-target, Signature\xef\xbf\xbd"
                   "a04ad3e181925de8781ef170a34406953f42ab715ffc595fe46dd187cff46f0c'.");
  g_clear_error (&error);
  test_request_free (t);

  /* A signed header's value quoted in the canonical request of an InvalidSignatureException. */
  t = dynamodb_request ();
  test_request_add (t, "X-Odd", "caf\xc3\xa9 \xe9t\xe9");
  sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  test_request_set (t, "X-Amz-Target", "DynamoDB_20120810.DeleteItem");
  r = as_http (t);
  g_assert_false (ddb_sigv4_verify (&r, &p, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, "\nx-odd:caf\xc3\xa9 \xef\xbf\xbdt\xef\xbf\xbd\n"));
  g_clear_error (&error);
  /* The bytes as they came are what is signed: the request verifies unchanged. */
  test_request_set (t, "X-Amz-Target", "DynamoDB_20120810.GetItem");
  assert_verified (t, T0, AKID);
  test_request_free (t);
}

/* A name listed more than once in SignedHeaders counts once: the canonical request lists each
 * header once, and a request of a few kilobytes (names listed N times over M headers of that
 * name) made a canonical request, and a message quoting it, of N * M values: megabytes and
 * seconds for a 32 KB request (fuzz-sigv4's huge counts). */
static void
test_verify_repeated_signed_names (void)
{
  TestRequest *t = dynamodb_request ();
  GString *names = g_string_new ("SignedHeaders=content-type;host;host; HOST ;");
  DdbSigv4VerifyParams p = verify_params (T0);
  DdbHttpRequest r;
  GError *error = NULL;

  for (int i = 0; i < 400; i++)
    test_request_add (t, "X-Dup", "a");
  sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  assert_verified (t, T0, AKID);
  for (int i = 0; i < 400; i++)
    g_string_append (names, "x-dup;");
  edit_auth (t, "SignedHeaders=content-type;host;", names->str);
  assert_verified (t, T0, AKID);

  /* Refused, the canonical request quoted once: 400 values, not 160,000. */
  test_request_set (t, "X-Amz-Target", "DynamoDB_20120810.DeleteItem");
  r = as_http (t);
  g_assert_false (ddb_sigv4_verify (&r, &p, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE);
  g_assert_cmpuint (strlen (error->message), <, 4096);
  g_clear_error (&error);
  g_string_free (names, TRUE);
  test_request_free (t);
}

/* ---- presigned requests: the signature in the query ---- */

#define TOKEN "FQoGZXIvYXdzEXAMPLETOKEN/+=="
#define INCOMPLETE(name) "AWS query-string parameters must include '" name "'. "
#define REEXAMINE "Re-examine the query-string parameters."

/* The presigned GetItem botocore 1.29 (Debian 12's) computes for dynamodb_request at T0 with
 * SigV4QueryAuth (expires 3600; the body kept, its hash signed), and the same with a session token
 * and a query of the request's own. */
#define BOTOCORE_PRESIGNED \
  "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20150830%2Fus-east-1%2F" \
  "dynamodb%2Faws4_request&X-Amz-Date=20150830T123600Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=" \
  "content-type%3Bhost%3Bx-amz-target&X-Amz-Signature=" \
  "ad8e540c6704199e43626998d48c625ad9750ef96ce059943fccb75770a987a1"
#define BOTOCORE_PRESIGNED_TOKEN \
  "a=1&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20150830%2Fus-east-1%2F" \
  "dynamodb%2Faws4_request&X-Amz-Date=20150830T123600Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=" \
  "content-type%3Bhost%3Bx-amz-target&X-Amz-Security-Token=FQoGZXIvYXdzEXAMPLETOKEN%2F%2B%3D%3D" \
  "&X-Amz-Signature=b3978d38d674c96e939b95e3a30096bdecca576ef25eee017cf66ce86c0fffde"

static void
test_request_set_query (TestRequest *t, const char *query)
{
  char *q = g_strdup (query);

  g_ptr_array_add (t->strings, q);
  t->query = q;
}

/* Presigns t in place: its query becomes the presigned one (its own parameters, then the
 * signer's). */
static void
presign_request (TestRequest *t, const char *akid, const char *secret, const char *token,
                 const char *service, gint64 when, gint64 expires)
{
  DdbCredentials creds = { akid, secret, token };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  DdbHttpRequest r = as_http (t);
  GError *error = NULL;

  params.region = "us-east-1";
  params.service = service;
  params.time = when;
  params.normalize_path = TRUE;
  params.expires_in = expires;
  g_assert_true (ddb_sigv4_sign_query (&r, &creds, &params, &sig, &error));
  g_assert_no_error (error);
  g_assert_null (sig.add_headers);
  test_request_set_query (t, sig.query_string);
  ddb_signature_clear (&sig);
}

static TestRequest *
presigned_request (void)
{
  TestRequest *t = dynamodb_request ();

  presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 3600);
  return t;
}

/* Rewrites the query: a find/replace on its text. */
static void
edit_query (TestRequest *t, const char *from, const char *to)
{
  char *q = replace (t->query, from, to);

  test_request_set_query (t, q);
  g_free (q);
}

static void
test_presign_ok (void)
{
  TestRequest *t = presigned_request ();

  g_assert_null (test_request_get (t, "Authorization"));
  assert_verified (t, T0, AKID);
  /* Until X-Amz-Expires has passed, and the skew ahead of the server's clock. */
  assert_verified (t, T0 + 3600, AKID);
  assert_verified (t, T0 - 900, AKID);
  /* Headers the signer leaves out may change on the way; date headers are not read. */
  test_request_set (t, "User-Agent", "something else");
  test_request_add (t, "Content-Length", "96");
  test_request_add (t, "X-Amz-Date", "20000101T000000Z");
  test_request_add (t, "Date", "garbage");
  assert_verified (t, T0, AKID);
  /* The same parameters encoded otherwise, or in another order. */
  edit_query (t, "%2F20150830%2Fus-east-1%2Fdynamodb%2F", "/20150830/us-east-1/dynamodb/");
  edit_query (t, "X-Amz-Date=", "X-Amz-%44ate=");
  assert_verified (t, T0, AKID);
  {
    char **parts = g_strsplit (t->query, "&", -1);
    guint n = g_strv_length (parts);
    GString *q = g_string_new ("");

    for (guint i = n; i > 0; i--)
      g_string_append_printf (q, "%s%s", i < n ? "&" : "", parts[i - 1]);
    test_request_set_query (t, q->str);
    g_string_free (q, TRUE);
    g_strfreev (parts);
  }
  assert_verified (t, T0, AKID);
  test_request_free (t);

  /* A session token, the request's own parameters, a week's lifetime. */
  t = dynamodb_request ();
  test_request_set_query (t, "b=2&a=%2F&a=1&x-amz-date=lower&&");
  presign_request (t, OTHER_AKID, OTHER_SECRET, TOKEN, "dynamodb", T0, 604800);
  g_assert_true (g_str_has_prefix (t->query, "b=2&a=%2F&a=1&x-amz-date=lower&&&X-Amz-Algorithm="));
  assert_verified (t, T0 + 604800, OTHER_AKID);
  test_request_free (t);

  /* Empty body, a path. */
  t = test_request_new (NULL);
  test_request_add (t, "Host", "127.0.0.1:8000");
  test_request_add (t, "X-Amz-Target", "DynamoDB_20120810.ListTables");
  presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 60);
  assert_verified (t, T0 + 60, AKID);
  test_request_free (t);
}

/* Requests presigned by botocore verify; ddb_sigv4_sign_query signs them alike. */
static void
test_presign_botocore (void)
{
  const char *queries[][2] = {
    { NULL, BOTOCORE_PRESIGNED },
    { "a=1", BOTOCORE_PRESIGNED_TOKEN },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      TestRequest *t = dynamodb_request ();
      const char *sig = strstr (queries[i][1], "X-Amz-Signature=");

      test_request_set_query (t, queries[i][1]);
      assert_verified (t, T0 + 5, AKID);
      t->query = queries[i][0];
      presign_request (t, AKID, SECRET, i == 1 ? TOKEN : NULL, "dynamodb", T0, 3600);
      g_assert_true (g_str_has_suffix (t->query, sig));
      test_request_free (t);
    }
}

static void
test_presign_tampered (void)
{
  TestRequest *t;
  char *q;

  /* The signature: its last digit, upper case, shortened. */
  t = presigned_request ();
  q = g_strdup (t->query);
  q[strlen (q) - 1] = q[strlen (q) - 1] == '0' ? '1' : '0';
  test_request_set_query (t, q);
  g_free (q);
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);
  t = presigned_request ();
  {
    const char *sig = strstr (t->query, "X-Amz-Signature=") + strlen ("X-Amz-Signature=");
    char *upper = g_ascii_strup (sig, -1);

    g_assert_true (strcmp (sig, upper) != 0);
    q = g_strconcat ("X-Amz-Signature=", sig, NULL);
    edit_query (t, q, "X-Amz-Signature=");
    g_free (q);
    q = g_strconcat (t->query, upper, NULL);
    g_free (upper);
  }
  test_request_set_query (t, q);
  g_free (q);
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  edit_query (t, "X-Amz-Signature=", "X-Amz-Signature=0");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);

  /* A signed header. */
  t = presigned_request ();
  test_request_set (t, "X-Amz-Target", "DynamoDB_20120810.DeleteItem");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH "\n\n", TRUE);
  test_request_free (t);

  /* The body: the canonical request quoted has the presigned query, without the signature. */
  t = presigned_request ();
  t->body = "{\"TableName\":\"Music\",\"Key\":{\"Artist\":{\"S\":\"No One You Knew\"},"
            "\"SongTitle\":{\"S\":\"Call Me Today\"}}}";
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  MISMATCH "\n\nThe Canonical String for this request should have been\n'POST\n/\n"
                           "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F"
                           "20150830%2Fus-east-1%2Fdynamodb%2Faws4_request&X-Amz-Date="
                           "20150830T123600Z&X-Amz-Expires=3600&X-Amz-SignedHeaders="
                           "content-type%3Bhost%3Bx-amz-target\n"
                           "content-type:application/x-amz-json-1.0\nhost:localhost:8000\n"
                           "x-amz-target:DynamoDB_20120810.GetItem\n\n"
                           "content-type;host;x-amz-target\n",
                  TRUE);
  test_request_free (t);

  /* A query parameter: signed ones, the request's own, one added, one removed. */
  {
    const char *edits[][2] = {
      { "X-Amz-Expires=3600", "X-Amz-Expires=3601" },
      { "X-Amz-Expires=3600", "X-Amz-Expires=03600" },
      { "X-Amz-SignedHeaders=content-type%3B", "X-Amz-SignedHeaders=" },
      { "X-Amz-Date=20150830T123600Z", "X-Amz-Date=20150830T123601Z" },
      { "a=1", "a=2" },
      { "a=1&", "" },
      { "a=1", "a=1&a=1" },
      { "a=1", "a=1&b" },
      { "a=1", "a=1%2C" },
    };

    for (gsize i = 0; i < G_N_ELEMENTS (edits); i++)
      {
        t = dynamodb_request ();
        test_request_set_query (t, "a=1");
        presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 3600);
        assert_verified (t, T0, AKID);
        edit_query (t, edits[i][0], edits[i][1]);
        assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
        test_request_free (t);
      }
  }

  /* The session token: changed, or dropped. */
  t = dynamodb_request ();
  presign_request (t, AKID, SECRET, TOKEN, "dynamodb", T0, 3600);
  edit_query (t, "EXAMPLETOKEN", "EXAMPLET0KEN");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  edit_query (t, "X-Amz-Security-Token=", "X-Amz-Unsigned-Token=");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);

  /* The scope: region, service, terminator, date. */
  t = presigned_request ();
  edit_query (t, "%2Fus-east-1%2F", "%2Fus-west-2%2F");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "Credential should be scoped to a valid region, not 'us-west-2'. ", FALSE);
  test_request_free (t);
  t = dynamodb_request ();
  presign_request (t, AKID, SECRET, NULL, "dynamo", T0, 3600);
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "Credential should be scoped to correct service: 'dynamodb'. ", FALSE);
  test_request_free (t);
  t = presigned_request ();
  edit_query (t, "%2Faws4_request", "%2Faws4_requests");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "Credential should be scoped with a valid terminator: 'aws4_request', not "
                  "'aws4_requests'. ",
                  FALSE);
  test_request_free (t);
  t = presigned_request ();
  edit_query (t, "X-Amz-Date=20150830T123600Z", "X-Amz-Date=20150831T000100Z");
  assert_refused (t, T0 + 11 * 3600 + 25 * 60, DDB_ERROR_INVALID_SIGNATURE,
                  "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date "
                  "from HTTP: '20150830' != '20150831', from '20150831T000100Z'. ",
                  FALSE);
  test_request_free (t);

  /* The key id: unknown, or another key's; a wrong secret. */
  t = presigned_request ();
  edit_query (t, "Credential=" AKID "%2F", "Credential=AKIDNOBODY%2F");
  assert_refused (t, T0, DDB_ERROR_UNRECOGNIZED_CLIENT,
                  "The security token included in the request is invalid.", FALSE);
  test_request_free (t);
  t = presigned_request ();
  edit_query (t, "Credential=" AKID "%2F", "Credential=" OTHER_AKID "%2F");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);
  t = dynamodb_request ();
  presign_request (t, AKID, OTHER_SECRET, NULL, "dynamodb", T0, 3600);
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);

  /* UNSIGNED-PAYLOAD is S3's: DynamoDB hashes the body, whatever the request says. */
  t = dynamodb_request ();
  test_request_add (t, "X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD");
  presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 3600);
  assert_verified (t, T0, AKID);
  t->body = "{}";
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  test_request_free (t);
}

/* Accepted from X-Amz-Date minus the skew to X-Amz-Date plus X-Amz-Expires, both included. */
static void
test_presign_expiry (void)
{
  TestRequest *t = presigned_request ();

  assert_verified (t, T0 + 3600, AKID);
  assert_refused (t, T0 + 3601, DDB_ERROR_INVALID_SIGNATURE,
                  "Signature expired: 20150830T123600Z is now earlier than 20150830T123601Z "
                  "(20150830T133601Z - 3600 sec.)",
                  FALSE);
  assert_verified (t, T0 - 900, AKID);
  assert_refused (t, T0 - 901, DDB_ERROR_INVALID_SIGNATURE,
                  "Signature not yet current: 20150830T123600Z is still later than "
                  "20150830T123559Z (20150830T122059Z + 15 min.)",
                  FALSE);
  /* Checked before the key id. */
  edit_query (t, "Credential=" AKID "%2F", "Credential=AKIDNOBODY%2F");
  assert_refused (t, T0 + 7200, DDB_ERROR_INVALID_SIGNATURE, "Signature expired: ", TRUE);
  test_request_free (t);

  t = dynamodb_request ();
  presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 1);
  assert_verified (t, T0 + 1, AKID);
  assert_refused (t, T0 + 2, DDB_ERROR_INVALID_SIGNATURE, "Signature expired: ", TRUE);
  test_request_free (t);
}

static void
test_presign_bad_expires (void)
{
  const char *cases[][2] = {
    { "", INCOMPLETE ("X-Amz-Expires") REEXAMINE },
    { "abc", "X-Amz-Expires should be a number" },
    { "+5", "X-Amz-Expires should be a number" },
    { "%205", "X-Amz-Expires should be a number" },
    { "5%20", "X-Amz-Expires should be a number" },
    { "3600.0", "X-Amz-Expires should be a number" },
    { "0x10", "X-Amz-Expires should be a number" },
    { "-", "X-Amz-Expires should be a number" },
    { "-5", "X-Amz-Expires must be non-negative" },
    { "0", "X-Amz-Expires must be greater than 0" },
    { "000", "X-Amz-Expires must be greater than 0" },
    { "604801", "X-Amz-Expires must be less than a week (in seconds); that is, the given "
                "X-Amz-Expires must be less than 604800 seconds" },
    { "99999999999999999999999999999999", "X-Amz-Expires must be less than a week" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TestRequest *t = presigned_request ();
      char *to = g_strconcat ("X-Amz-Expires=", cases[i][0], NULL);

      edit_query (t, "X-Amz-Expires=3600", to);
      assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE, cases[i][1], i > 11);
      g_free (to);
      test_request_free (t);
    }

  /* Missing. */
  {
    TestRequest *t = presigned_request ();

    edit_query (t, "&X-Amz-Expires=3600", "");
    assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE, INCOMPLETE ("X-Amz-Expires") REEXAMINE,
                    FALSE);
    test_request_free (t);
  }
}

/* An Authorization header and X-Amz-Algorithm together are refused before anything else. */
static void
test_presign_both (void)
{
  const char *queries[] = { "X-Amz-Algorithm", "X-Amz-Algorithm=", "X-Amz-%41lgorithm=x&a=1" };
  TestRequest *t = presigned_request ();

  sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  g_assert_nonnull (test_request_get (t, "Authorization"));
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as "
                  "HTTP header.",
                  FALSE);
  test_request_set (t, "Authorization", "Bearer abc");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, "Found both ", TRUE);
  test_request_set (t, "Authorization", "");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, "Found both ", TRUE);
  test_request_free (t);

  for (gsize i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      t = signed_request ();
      test_request_set_query (t, queries[i]);
      assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, "Found both ", TRUE);
      test_request_free (t);
    }

  /* Other X-Amz- parameters beside an Authorization header are the request's own. */
  t = dynamodb_request ();
  test_request_set_query (t, "x-amz-algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=00&X-Amz-Date=1");
  sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  assert_verified (t, T0, AKID);
  test_request_free (t);
}

static void
test_presign_incomplete (void)
{
  TestRequest *t = dynamodb_request ();

  /* Each missing or empty parameter named, in DynamoDB's order. */
  test_request_set_query (t, "X-Amz-Algorithm");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  INCOMPLETE ("X-Amz-Algorithm") INCOMPLETE ("X-Amz-Credential")
                      INCOMPLETE ("X-Amz-Signature") INCOMPLETE ("X-Amz-SignedHeaders")
                          INCOMPLETE ("X-Amz-Date") INCOMPLETE ("X-Amz-Expires") REEXAMINE,
                  FALSE);
  test_request_set_query (t, "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=&X-Amz-Date=x"
                             "&X-Amz-Expires=abc&X-Amz-SignedHeaders=host&X-Amz-Signature");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  INCOMPLETE ("X-Amz-Credential") INCOMPLETE ("X-Amz-Signature") REEXAMINE, FALSE);
  test_request_free (t);

  /* A parameter given twice (even encoded otherwise, even the same value). */
  {
    const char *extra[][2] = {
      { "&X-Amz-Date=20150830T123600Z", "X-Amz-Date" },
      { "&X-Amz-Signature=00", "X-Amz-Signature" },
      { "&X-Amz-%53ignature=00", "X-Amz-Signature" },
      { "&X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Algorithm" },
      { "&X-Amz-Security-Token=a&X-Amz-Security-Token=b", "X-Amz-Security-Token" },
      { "&X-Amz-Expires=", "X-Amz-Expires" },
    };

    for (gsize i = 0; i < G_N_ELEMENTS (extra); i++)
      {
        char *q, *msg;

        t = presigned_request ();
        q = g_strconcat (t->query, extra[i][0], NULL);
        test_request_set_query (t, q);
        msg = g_strdup_printf (
            "AWS query-string parameters must include '%s' only once. " REEXAMINE, extra[i][1]);
        assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE, msg, FALSE);
        g_free (msg);
        g_free (q);
        test_request_free (t);
      }
  }

  /* Missing and repeated at once. */
  t = presigned_request ();
  edit_query (t, "X-Amz-Date=20150830T123600Z", "X-Amz-Date=&X-Amz-Date=20150830T123600Z");
  edit_query (t, "X-Amz-Expires=3600", "X-Amz-Expires=3600&X-Amz-Expires=3600");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  INCOMPLETE ("X-Amz-Date") "AWS query-string parameters must include "
                                            "'X-Amz-Expires' only once. " REEXAMINE,
                  FALSE);
  test_request_free (t);
}

/* The refusals the Authorization header has, in the same order, from query parameters. */
static void
test_presign_malformed (void)
{
  TestRequest *t;

  t = presigned_request ();
  edit_query (t, "X-Amz-Date=20150830T123600Z", "X-Amz-Date=2015-08-30T12%3A36%3A00Z");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Date must be in ISO-8601 'basic format'. Got '2015-08-30T12:36:00Z'. See "
                  "http://en.wikipedia.org/wiki/ISO_8601",
                  FALSE);
  test_request_free (t);
  /* Exactly the basic format: no blank around it. */
  t = presigned_request ();
  edit_query (t, "X-Amz-Date=20150830T123600Z", "X-Amz-Date=%2020150830T123600Z");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE, "Date must be in ISO-8601", TRUE);
  test_request_free (t);

  /* Host not signed (checked before the algorithm and the credential). */
  t = presigned_request ();
  edit_query (t, "content-type%3Bhost%3B", "content-type%3B");
  edit_query (t, "X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Algorithm=AWS4-HMAC-SHA1");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "'Host' must be a 'SignedHeader' in the AWS Authorization.", FALSE);
  test_request_free (t);

  t = presigned_request ();
  edit_query (t, "X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Algorithm=AWS4-HMAC-SHA1");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA1' (only AWS4-HMAC-SHA256 for "
                  "now). ",
                  FALSE);
  test_request_free (t);

  t = presigned_request ();
  edit_query (t, AKID "%2F20150830%2Fus-east-1%2Fdynamodb%2Faws4_request", "a%2Fb/c%2Fd");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Credential must have exactly 5 slash-delimited elements, e.g. "
                  "keyid/date/region/service/term, got 'a/b/c/d'",
                  FALSE);
  test_request_free (t);

  /* Escapes that are not: kept as they are, quoted. */
  t = presigned_request ();
  edit_query (t, AKID "%2F20150830%2Fus-east-1%2Fdynamodb%2Faws4_request", "%ZZ%2%%");
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "Credential must have exactly 5 slash-delimited elements, e.g. "
                  "keyid/date/region/service/term, got '%ZZ%2%%'",
                  FALSE);
  test_request_free (t);

  /* Bytes that are not UTF-8, decoded, are quoted as U+FFFD. */
  t = presigned_request ();
  edit_query (t, "%2Fus-east-1%2F", "%2Fus-east-%FF%2F");
  assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                  "Credential should be scoped to a valid region, not 'us-east-\xef\xbf\xbd'. ",
                  FALSE);
  test_request_free (t);
}

/* The session token serve compares with the one it knows: a presigned request's parameter. */
static void
test_presign_session_token (void)
{
  TestRequest *t = dynamodb_request ();
  DdbHttpRequest r;
  char *token;

  presign_request (t, AKID, SECRET, TOKEN, "dynamodb", T0, 3600);
  test_request_add (t, "X-Amz-Security-Token", "the header's");
  r = as_http (t);
  token = ddb_sigv4_session_token (&r);
  g_assert_cmpstr (token, ==, TOKEN);
  g_free (token);
  /* With an Authorization header too, it is not presigned: the header's. */
  test_request_add (t, "Authorization", "AWS4-HMAC-SHA256 x");
  r = as_http (t);
  token = ddb_sigv4_session_token (&r);
  g_assert_cmpstr (token, ==, "the header's");
  g_free (token);
  test_request_free (t);

  t = presigned_request ();
  r = as_http (t);
  g_assert_null (ddb_sigv4_session_token (&r));
  test_request_free (t);

  t = signed_request ();
  r = as_http (t);
  g_assert_null (ddb_sigv4_session_token (&r));
  test_request_free (t);
}

/* Queries of many parameters cost their length: 100,000 parameters of the request's own, or
 * 100,000 copies of one the signature is made of (named once in the refusal). */
static void
test_presign_many_params (void)
{
  TestRequest *t = dynamodb_request ();
  GString *q = g_string_new ("");
  gint64 start;

  for (int i = 0; i < 100000; i++)
    g_string_append_printf (q, "p%d=%d&", i % 977, i);
  g_string_truncate (q, q->len - 1);
  test_request_set_query (t, q->str);
  presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 3600);
  start = g_get_monotonic_time ();
  assert_verified (t, T0, AKID);
  g_test_message ("100,000 parameters verified in %" G_GINT64_FORMAT " ms",
                  (g_get_monotonic_time () - start) / 1000);
  test_request_free (t);

  t = presigned_request ();
  g_string_assign (q, t->query);
  for (int i = 0; i < 100000; i++)
    g_string_append (q, "&X-Amz-Date=20150830T123600Z");
  test_request_set_query (t, q->str);
  assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                  "AWS query-string parameters must include 'X-Amz-Date' only once. " REEXAMINE,
                  FALSE);
  test_request_free (t);
  g_string_free (q, TRUE);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);

  g_log_writer_default_set_use_stderr (TRUE);
  add_suite_tests ();
  g_test_add_func ("/sigv4/amz-date", test_amz_date);
  g_test_add_func ("/sigv4/sign/matches-botocore", test_sign_matches_botocore);
  g_test_add_func ("/sigv4/sign/refuses-bad-requests", test_sign_refuses_bad_requests);
  g_test_add_func ("/sigv4/verify/ok", test_verify_ok);
  g_test_add_func ("/sigv4/verify/botocore-request", test_verify_botocore_request);
  g_test_add_func ("/sigv4/verify/authorization-layouts", test_verify_authorization_layouts);
  g_test_add_func ("/sigv4/verify/tampered", test_verify_tampered);
  g_test_add_func ("/sigv4/verify/missing", test_verify_missing);
  g_test_add_func ("/sigv4/verify/malformed", test_verify_malformed);
  g_test_add_func ("/sigv4/verify/skew", test_verify_skew);
  g_test_add_func ("/sigv4/verify/message-utf8", test_verify_message_utf8);
  g_test_add_func ("/sigv4/verify/repeated-signed-names", test_verify_repeated_signed_names);
  g_test_add_func ("/sigv4/presign/ok", test_presign_ok);
  g_test_add_func ("/sigv4/presign/botocore", test_presign_botocore);
  g_test_add_func ("/sigv4/presign/tampered", test_presign_tampered);
  g_test_add_func ("/sigv4/presign/expiry", test_presign_expiry);
  g_test_add_func ("/sigv4/presign/bad-expires", test_presign_bad_expires);
  g_test_add_func ("/sigv4/presign/both", test_presign_both);
  g_test_add_func ("/sigv4/presign/incomplete", test_presign_incomplete);
  g_test_add_func ("/sigv4/presign/malformed", test_presign_malformed);
  g_test_add_func ("/sigv4/presign/session-token", test_presign_session_token);
  g_test_add_func ("/sigv4/presign/many-params", test_presign_many_params);
  rc = g_test_run ();
  g_ptr_array_free (suite_cases, TRUE);
  return rc;
}
