/* test-sigv4-presign.c: the --auth verifier (ddb_sigv4_verify) on presigned requests, the
 * signature in the query as ddb_sigv4_sign_query writes it: acceptances, botocore's presigned
 * requests, expiry, and the refusals with DynamoDB's exception names and messages (tampered, bad
 * X-Amz-Expires, both kinds of signature, incomplete, malformed, the session token, many
 * parameters). The tests /sigv4/presign/...; the requests and assertions they use are
 * test-sigv4.c's (test-sigv4-private.h). */
#include "core/error.h"
#include "net/sigv4.h"

#include "test-sigv4-private.h"

#include <string.h>

#define TOKEN "FQoGZXIvYXdzEXAMPLETOKEN/+=="
#define INCOMPLETE(name) "AWS query-string parameters must include '" name "'. "
#define REEXAMINE "Re-examine the query-string parameters."

/* The presigned GetItem botocore 1.29 (Debian 12's) computes for tsv_dynamodb_request at T0 with
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
  DdbHttpRequest r = tsv_as_http (t);
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
  TestRequest *t = tsv_dynamodb_request ();

  presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 3600);
  return t;
}

/* Rewrites the query: a find/replace on its text. */
static void
edit_query (TestRequest *t, const char *from, const char *to)
{
  char *q = tsv_replace (t->query, from, to);

  test_request_set_query (t, q);
  g_free (q);
}

static void
test_presign_ok (void)
{
  TestRequest *t = presigned_request ();

  g_assert_null (tsv_test_request_get (t, "Authorization"));
  tsv_assert_verified (t, T0, AKID);
  /* Until X-Amz-Expires has passed, and the skew ahead of the server's clock. */
  tsv_assert_verified (t, T0 + 3600, AKID);
  tsv_assert_verified (t, T0 - 900, AKID);
  /* Headers the signer leaves out may change on the way; date headers are not read. */
  tsv_test_request_set (t, "User-Agent", "something else");
  tsv_test_request_add (t, "Content-Length", "96");
  tsv_test_request_add (t, "X-Amz-Date", "20000101T000000Z");
  tsv_test_request_add (t, "Date", "garbage");
  tsv_assert_verified (t, T0, AKID);
  /* The same parameters encoded otherwise, or in another order. */
  edit_query (t, "%2F20150830%2Fus-east-1%2Fdynamodb%2F", "/20150830/us-east-1/dynamodb/");
  edit_query (t, "X-Amz-Date=", "X-Amz-%44ate=");
  tsv_assert_verified (t, T0, AKID);
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
  tsv_assert_verified (t, T0, AKID);
  tsv_test_request_free (t);

  /* A session token, the request's own parameters, a week's lifetime. */
  t = tsv_dynamodb_request ();
  test_request_set_query (t, "b=2&a=%2F&a=1&x-amz-date=lower&&");
  presign_request (t, OTHER_AKID, OTHER_SECRET, TOKEN, "dynamodb", T0, 604800);
  g_assert_true (g_str_has_prefix (t->query, "b=2&a=%2F&a=1&x-amz-date=lower&&&X-Amz-Algorithm="));
  tsv_assert_verified (t, T0 + 604800, OTHER_AKID);
  tsv_test_request_free (t);

  /* Empty body, a path. */
  t = tsv_test_request_new (NULL);
  tsv_test_request_add (t, "Host", "127.0.0.1:8000");
  tsv_test_request_add (t, "X-Amz-Target", "DynamoDB_20120810.ListTables");
  presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 60);
  tsv_assert_verified (t, T0 + 60, AKID);
  tsv_test_request_free (t);
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
      TestRequest *t = tsv_dynamodb_request ();
      const char *sig = strstr (queries[i][1], "X-Amz-Signature=");

      test_request_set_query (t, queries[i][1]);
      tsv_assert_verified (t, T0 + 5, AKID);
      t->query = queries[i][0];
      presign_request (t, AKID, SECRET, i == 1 ? TOKEN : NULL, "dynamodb", T0, 3600);
      g_assert_true (g_str_has_suffix (t->query, sig));
      tsv_test_request_free (t);
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
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);
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
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  edit_query (t, "X-Amz-Signature=", "X-Amz-Signature=0");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);

  /* A signed header. */
  t = presigned_request ();
  tsv_test_request_set (t, "X-Amz-Target", "DynamoDB_20120810.DeleteItem");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH "\n\n", TRUE);
  tsv_test_request_free (t);

  /* The body: the canonical request quoted has the presigned query, without the signature. */
  t = presigned_request ();
  t->body = "{\"TableName\":\"Music\",\"Key\":{\"Artist\":{\"S\":\"No One You Knew\"},"
            "\"SongTitle\":{\"S\":\"Call Me Today\"}}}";
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      MISMATCH
                      "\n\nThe Canonical String for this request should have been\n'POST\n/\n"
                      "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F"
                      "20150830%2Fus-east-1%2Fdynamodb%2Faws4_request&X-Amz-Date="
                      "20150830T123600Z&X-Amz-Expires=3600&X-Amz-SignedHeaders="
                      "content-type%3Bhost%3Bx-amz-target\n"
                      "content-type:application/x-amz-json-1.0\nhost:localhost:8000\n"
                      "x-amz-target:DynamoDB_20120810.GetItem\n\n"
                      "content-type;host;x-amz-target\n",
                      TRUE);
  tsv_test_request_free (t);

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
        t = tsv_dynamodb_request ();
        test_request_set_query (t, "a=1");
        presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 3600);
        tsv_assert_verified (t, T0, AKID);
        edit_query (t, edits[i][0], edits[i][1]);
        tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
        tsv_test_request_free (t);
      }
  }

  /* The session token: changed, or dropped. */
  t = tsv_dynamodb_request ();
  presign_request (t, AKID, SECRET, TOKEN, "dynamodb", T0, 3600);
  edit_query (t, "EXAMPLETOKEN", "EXAMPLET0KEN");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  edit_query (t, "X-Amz-Security-Token=", "X-Amz-Unsigned-Token=");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);

  /* The scope: region, service, terminator, date. */
  t = presigned_request ();
  edit_query (t, "%2Fus-east-1%2F", "%2Fus-west-2%2F");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "Credential should be scoped to a valid region, not 'us-west-2'. ", FALSE);
  tsv_test_request_free (t);
  t = tsv_dynamodb_request ();
  presign_request (t, AKID, SECRET, NULL, "dynamo", T0, 3600);
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "Credential should be scoped to correct service: 'dynamodb'. ", FALSE);
  tsv_test_request_free (t);
  t = presigned_request ();
  edit_query (t, "%2Faws4_request", "%2Faws4_requests");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "Credential should be scoped with a valid terminator: 'aws4_request', not "
                      "'aws4_requests'. ",
                      FALSE);
  tsv_test_request_free (t);
  t = presigned_request ();
  edit_query (t, "X-Amz-Date=20150830T123600Z", "X-Amz-Date=20150831T000100Z");
  tsv_assert_refused (
      t, T0 + 11 * 3600 + 25 * 60, DDB_ERROR_INVALID_SIGNATURE,
      "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date "
      "from HTTP: '20150830' != '20150831', from '20150831T000100Z'. ",
      FALSE);
  tsv_test_request_free (t);

  /* The key id: unknown, or another key's; a wrong secret. */
  t = presigned_request ();
  edit_query (t, "Credential=" AKID "%2F", "Credential=AKIDNOBODY%2F");
  tsv_assert_refused (t, T0, DDB_ERROR_UNRECOGNIZED_CLIENT,
                      "The security token included in the request is invalid.", FALSE);
  tsv_test_request_free (t);
  t = presigned_request ();
  edit_query (t, "Credential=" AKID "%2F", "Credential=" OTHER_AKID "%2F");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);
  t = tsv_dynamodb_request ();
  presign_request (t, AKID, OTHER_SECRET, NULL, "dynamodb", T0, 3600);
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);

  /* UNSIGNED-PAYLOAD is S3's: DynamoDB hashes the body, whatever the request says. */
  t = tsv_dynamodb_request ();
  tsv_test_request_add (t, "X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD");
  presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 3600);
  tsv_assert_verified (t, T0, AKID);
  t->body = "{}";
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);
}

/* Accepted from X-Amz-Date minus the skew to X-Amz-Date plus X-Amz-Expires, both included. */
static void
test_presign_expiry (void)
{
  TestRequest *t = presigned_request ();

  tsv_assert_verified (t, T0 + 3600, AKID);
  tsv_assert_refused (t, T0 + 3601, DDB_ERROR_INVALID_SIGNATURE,
                      "Signature expired: 20150830T123600Z is now earlier than 20150830T123601Z "
                      "(20150830T133601Z - 3600 sec.)",
                      FALSE);
  tsv_assert_verified (t, T0 - 900, AKID);
  tsv_assert_refused (t, T0 - 901, DDB_ERROR_INVALID_SIGNATURE,
                      "Signature not yet current: 20150830T123600Z is still later than "
                      "20150830T123559Z (20150830T122059Z + 15 min.)",
                      FALSE);
  /* Checked before the key id. */
  edit_query (t, "Credential=" AKID "%2F", "Credential=AKIDNOBODY%2F");
  tsv_assert_refused (t, T0 + 7200, DDB_ERROR_INVALID_SIGNATURE, "Signature expired: ", TRUE);
  tsv_test_request_free (t);

  t = tsv_dynamodb_request ();
  presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 1);
  tsv_assert_verified (t, T0 + 1, AKID);
  tsv_assert_refused (t, T0 + 2, DDB_ERROR_INVALID_SIGNATURE, "Signature expired: ", TRUE);
  tsv_test_request_free (t);
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
      tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE, cases[i][1], i > 11);
      g_free (to);
      tsv_test_request_free (t);
    }

  /* Missing. */
  {
    TestRequest *t = presigned_request ();

    edit_query (t, "&X-Amz-Expires=3600", "");
    tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                        INCOMPLETE ("X-Amz-Expires") REEXAMINE, FALSE);
    tsv_test_request_free (t);
  }
}

/* An Authorization header and X-Amz-Algorithm together are refused before anything else. */
static void
test_presign_both (void)
{
  const char *queries[] = { "X-Amz-Algorithm", "X-Amz-Algorithm=", "X-Amz-%41lgorithm=x&a=1" };
  TestRequest *t = presigned_request ();

  tsv_sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  g_assert_nonnull (tsv_test_request_get (t, "Authorization"));
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as "
                      "HTTP header.",
                      FALSE);
  tsv_test_request_set (t, "Authorization", "Bearer abc");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, "Found both ", TRUE);
  tsv_test_request_set (t, "Authorization", "");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, "Found both ", TRUE);
  tsv_test_request_free (t);

  for (gsize i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      t = tsv_signed_request ();
      test_request_set_query (t, queries[i]);
      tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, "Found both ", TRUE);
      tsv_test_request_free (t);
    }

  /* Other X-Amz- parameters beside an Authorization header are the request's own. */
  t = tsv_dynamodb_request ();
  test_request_set_query (t, "x-amz-algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=00&X-Amz-Date=1");
  tsv_sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  tsv_assert_verified (t, T0, AKID);
  tsv_test_request_free (t);
}

static void
test_presign_incomplete (void)
{
  TestRequest *t = tsv_dynamodb_request ();

  /* Each missing or empty parameter named, in DynamoDB's order. */
  test_request_set_query (t, "X-Amz-Algorithm");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      INCOMPLETE ("X-Amz-Algorithm") INCOMPLETE ("X-Amz-Credential")
                          INCOMPLETE ("X-Amz-Signature") INCOMPLETE ("X-Amz-SignedHeaders")
                              INCOMPLETE ("X-Amz-Date") INCOMPLETE ("X-Amz-Expires") REEXAMINE,
                      FALSE);
  test_request_set_query (t, "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=&X-Amz-Date=x"
                             "&X-Amz-Expires=abc&X-Amz-SignedHeaders=host&X-Amz-Signature");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      INCOMPLETE ("X-Amz-Credential") INCOMPLETE ("X-Amz-Signature") REEXAMINE,
                      FALSE);
  tsv_test_request_free (t);

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
        tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE, msg, FALSE);
        g_free (msg);
        g_free (q);
        tsv_test_request_free (t);
      }
  }

  /* Missing and repeated at once. */
  t = presigned_request ();
  edit_query (t, "X-Amz-Date=20150830T123600Z", "X-Amz-Date=&X-Amz-Date=20150830T123600Z");
  edit_query (t, "X-Amz-Expires=3600", "X-Amz-Expires=3600&X-Amz-Expires=3600");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      INCOMPLETE ("X-Amz-Date") "AWS query-string parameters must include "
                                                "'X-Amz-Expires' only once. " REEXAMINE,
                      FALSE);
  tsv_test_request_free (t);
}

/* The refusals the Authorization header has, in the same order, from query parameters. */
static void
test_presign_malformed (void)
{
  TestRequest *t;

  t = presigned_request ();
  edit_query (t, "X-Amz-Date=20150830T123600Z", "X-Amz-Date=2015-08-30T12%3A36%3A00Z");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      "Date must be in ISO-8601 'basic format'. Got '2015-08-30T12:36:00Z'. See "
                      "http://en.wikipedia.org/wiki/ISO_8601",
                      FALSE);
  tsv_test_request_free (t);
  /* Exactly the basic format: no blank around it. */
  t = presigned_request ();
  edit_query (t, "X-Amz-Date=20150830T123600Z", "X-Amz-Date=%2020150830T123600Z");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE, "Date must be in ISO-8601", TRUE);
  tsv_test_request_free (t);

  /* Host not signed (checked before the algorithm and the credential). */
  t = presigned_request ();
  edit_query (t, "content-type%3Bhost%3B", "content-type%3B");
  edit_query (t, "X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Algorithm=AWS4-HMAC-SHA1");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "'Host' must be a 'SignedHeader' in the AWS Authorization.", FALSE);
  tsv_test_request_free (t);

  t = presigned_request ();
  edit_query (t, "X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Algorithm=AWS4-HMAC-SHA1");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA1' (only AWS4-HMAC-SHA256 for "
                      "now). ",
                      FALSE);
  tsv_test_request_free (t);

  t = presigned_request ();
  edit_query (t, AKID "%2F20150830%2Fus-east-1%2Fdynamodb%2Faws4_request", "a%2Fb/c%2Fd");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      "Credential must have exactly 5 slash-delimited elements, e.g. "
                      "keyid/date/region/service/term, got 'a/b/c/d'",
                      FALSE);
  tsv_test_request_free (t);

  /* Escapes that are not: kept as they are, quoted. */
  t = presigned_request ();
  edit_query (t, AKID "%2F20150830%2Fus-east-1%2Fdynamodb%2Faws4_request", "%ZZ%2%%");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      "Credential must have exactly 5 slash-delimited elements, e.g. "
                      "keyid/date/region/service/term, got '%ZZ%2%%'",
                      FALSE);
  tsv_test_request_free (t);

  /* Bytes that are not UTF-8, decoded, are quoted as U+FFFD. */
  t = presigned_request ();
  edit_query (t, "%2Fus-east-1%2F", "%2Fus-east-%FF%2F");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "Credential should be scoped to a valid region, not 'us-east-\xef\xbf\xbd'. ",
                      FALSE);
  tsv_test_request_free (t);
}

/* The session token serve compares with the one it knows: a presigned request's parameter. */
static void
test_presign_session_token (void)
{
  TestRequest *t = tsv_dynamodb_request ();
  DdbHttpRequest r;
  char *token;

  presign_request (t, AKID, SECRET, TOKEN, "dynamodb", T0, 3600);
  tsv_test_request_add (t, "X-Amz-Security-Token", "the header's");
  r = tsv_as_http (t);
  token = ddb_sigv4_session_token (&r);
  g_assert_cmpstr (token, ==, TOKEN);
  g_free (token);
  /* With an Authorization header too, it is not presigned: the header's. */
  tsv_test_request_add (t, "Authorization", "AWS4-HMAC-SHA256 x");
  r = tsv_as_http (t);
  token = ddb_sigv4_session_token (&r);
  g_assert_cmpstr (token, ==, "the header's");
  g_free (token);
  tsv_test_request_free (t);

  t = presigned_request ();
  r = tsv_as_http (t);
  g_assert_null (ddb_sigv4_session_token (&r));
  tsv_test_request_free (t);

  t = tsv_signed_request ();
  r = tsv_as_http (t);
  g_assert_null (ddb_sigv4_session_token (&r));
  tsv_test_request_free (t);
}

/* Queries of many parameters cost their length: 100,000 parameters of the request's own, or
 * 100,000 copies of one the signature is made of (named once in the refusal). */
static void
test_presign_many_params (void)
{
  TestRequest *t = tsv_dynamodb_request ();
  GString *q = g_string_new ("");
  gint64 start;

  for (int i = 0; i < 100000; i++)
    g_string_append_printf (q, "p%d=%d&", i % 977, i);
  g_string_truncate (q, q->len - 1);
  test_request_set_query (t, q->str);
  presign_request (t, AKID, SECRET, NULL, "dynamodb", T0, 3600);
  start = g_get_monotonic_time ();
  tsv_assert_verified (t, T0, AKID);
  g_test_message ("100,000 parameters verified in %" G_GINT64_FORMAT " ms",
                  (g_get_monotonic_time () - start) / 1000);
  tsv_test_request_free (t);

  t = presigned_request ();
  g_string_assign (q, t->query);
  for (int i = 0; i < 100000; i++)
    g_string_append (q, "&X-Amz-Date=20150830T123600Z");
  test_request_set_query (t, q->str);
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      "AWS query-string parameters must include 'X-Amz-Date' only once. " REEXAMINE,
                      FALSE);
  tsv_test_request_free (t);
  g_string_free (q, TRUE);
}

void
tsv_add_presign_tests (void)
{
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
}
