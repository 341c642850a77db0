/* test-sigv4.c: SigV4 signing against every case of AWS's test suite (tests/net/sigv4-suite, both
 * header and presigned signing, byte for byte), the signer's details, the requests the tests sign
 * and verify and the assertions on the verifier's answers (test-sigv4-private.h), and the test
 * program's main. The --auth verifier's acceptances and refusals, with DynamoDB's exception names
 * and messages, are in test-sigv4-verify.c for requests signed in an Authorization header and in
 * test-sigv4-presign.c for presigned ones (the signature in the query). */
#include "core/error.h"
#include "net/sigv4.h"

#include "test-sigv4-private.h"

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

TestRequest *
tsv_test_request_new (const char *body)
{
  TestRequest *t = g_new0 (TestRequest, 1);

  t->headers = g_array_new (FALSE, TRUE, sizeof (DdbHttpHeader));
  t->strings = g_ptr_array_new_with_free_func (g_free);
  t->body = body;
  return t;
}

void
tsv_test_request_add (TestRequest *t, const char *name, const char *value)
{
  DdbHttpHeader h;

  h.name = g_strdup (name);
  h.value = g_strdup (value);
  g_ptr_array_add (t->strings, (char *) h.name);
  g_ptr_array_add (t->strings, (char *) h.value);
  g_array_append_val (t->headers, h);
}

void
tsv_test_request_set (TestRequest *t, const char *name, const char *value)
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
  tsv_test_request_add (t, name, value);
}

void
tsv_test_request_remove (TestRequest *t, const char *name)
{
  for (guint i = 0; i < t->headers->len; i++)
    if (g_ascii_strcasecmp (g_array_index (t->headers, DdbHttpHeader, i).name, name) == 0)
      {
        g_array_remove_index (t->headers, i);
        return;
      }
}

const char *
tsv_test_request_get (TestRequest *t, const char *name)
{
  for (guint i = 0; i < t->headers->len; i++)
    if (g_ascii_strcasecmp (g_array_index (t->headers, DdbHttpHeader, i).name, name) == 0)
      return g_array_index (t->headers, DdbHttpHeader, i).value;
  return NULL;
}

void
tsv_test_request_free (TestRequest *t)
{
  g_array_free (t->headers, TRUE);
  g_ptr_array_free (t->strings, TRUE);
  g_free (t);
}

DdbHttpRequest
tsv_as_http (TestRequest *t)
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

TestRequest *
tsv_dynamodb_request (void)
{
  TestRequest *t = tsv_test_request_new (BODY);

  tsv_test_request_add (t, "Host", "localhost:8000");
  tsv_test_request_add (t, "X-Amz-Target", "DynamoDB_20120810.GetItem");
  tsv_test_request_add (t, "Content-Type", "application/x-amz-json-1.0");
  tsv_test_request_add (t, "User-Agent", "aws-cli/2.15.0 Python/3.11.2 Linux/6.1 botocore/1.43.11");
  return t;
}

/* Signs t in place (adds the signer's headers) with the given key, region and service. */
void
tsv_sign_request (TestRequest *t, const char *akid, const char *secret, const char *token,
                  const char *region, const char *service, gint64 when, gboolean sign_body)
{
  DdbCredentials creds = { akid, secret, token };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  DdbHttpRequest r = tsv_as_http (t);
  GError *error = NULL;

  params.region = region;
  params.service = service;
  params.time = when;
  params.normalize_path = TRUE;
  params.sign_body = sign_body;
  g_assert_true (ddb_sigv4_sign_headers (&r, &creds, &params, &sig, &error));
  g_assert_no_error (error);
  for (char **h = sig.add_headers; h[0] != NULL; h += 2)
    tsv_test_request_add (t, h[0], h[1]);
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

DdbSigv4VerifyParams
tsv_verify_params (gint64 now)
{
  DdbSigv4VerifyParams p = { 0 };

  p.region = "us-east-1";
  p.service = "dynamodb";
  p.now = now;
  p.max_skew = 900;
  p.lookup = lookup_secret;
  return p;
}

void
tsv_assert_verified (TestRequest *t, gint64 now, const char *expect_akid)
{
  DdbHttpRequest r = tsv_as_http (t);
  DdbSigv4VerifyParams p = tsv_verify_params (now);
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
  DdbHttpRequest r = tsv_as_http (t);
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

void
tsv_assert_refused (TestRequest *t, gint64 now, DdbErrorCode code, const char *message,
                    gboolean prefix)
{
  DdbSigv4VerifyParams p = tsv_verify_params (now);

  assert_refused_p (t, &p, code, message, prefix);
}

char *
tsv_replace (const char *s, const char *from, const char *to)
{
  char **parts = g_strsplit (s, from, -1);
  char *r = g_strjoinv (to, parts);

  g_assert_cmpuint (g_strv_length (parts), >, 1);
  g_strfreev (parts);
  return r;
}

TestRequest *
tsv_signed_request (void)
{
  TestRequest *t = tsv_dynamodb_request ();

  tsv_sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  return t;
}

static void
test_sign_matches_botocore (void)
{
  TestRequest *t = tsv_dynamodb_request ();

  /* The Authorization botocore 1.43 computes for this very request (see the test's header). */
  tsv_sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  g_assert_cmpstr (tsv_test_request_get (t, "X-Amz-Date"), ==, "20150830T123600Z");
  g_assert_cmpstr (tsv_test_request_get (t, "Authorization"), ==,
                   "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/dynamodb/"
                   "aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
                   "Signature=a04ad3e181925de8781ef170a34406953f42ab715ffc595fe46dd187cff46f0c");
  tsv_test_request_free (t);
}

static void
test_sign_refuses_bad_requests (void)
{
  DdbCredentials creds = { AKID, SECRET, NULL };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  TestRequest *t = tsv_test_request_new ("");
  DdbHttpRequest r;
  GError *error = NULL;

  params.region = "us-east-1";
  params.service = "dynamodb";
  params.time = T0;
  tsv_test_request_add (t, "Content-Type", "application/x-amz-json-1.0");
  r = tsv_as_http (t);
  g_assert_false (ddb_sigv4_sign_headers (&r, &creds, &params, &sig, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_assert_null (sig.signature);
  g_clear_error (&error);

  tsv_test_request_add (t, "host", "localhost");
  tsv_test_request_add (t, "authorization", "AWS4-HMAC-SHA256 stale");
  r = tsv_as_http (t);
  g_assert_false (ddb_sigv4_sign_headers (&r, &creds, &params, &sig, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_clear_error (&error);
  /* A presigned URL does not touch the headers. */
  g_assert_true (ddb_sigv4_sign_query (&r, &creds, &params, &sig, &error));
  g_assert_no_error (error);
  ddb_signature_clear (&sig);
  tsv_test_request_free (t);
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
  tsv_add_verify_tests ();
  tsv_add_presign_tests ();
  rc = g_test_run ();
  g_ptr_array_free (suite_cases, TRUE);
  return rc;
}
