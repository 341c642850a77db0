/* test-sigv4-verify.c: the --auth verifier (ddb_sigv4_verify) on requests signed in an
 * Authorization header: its acceptances, botocore's request, the header's layouts, and its
 * refusals with DynamoDB's exception names and messages (tampered, missing, malformed, out of
 * the skew, non-UTF-8 bytes quoted, names listed twice). The tests /sigv4/verify/...; the
 * requests and assertions they use are test-sigv4.c's (test-sigv4-private.h). */
#include "core/error.h"
#include "net/sigv4.h"

#include "test-sigv4-private.h"

#include <string.h>

static void
test_verify_ok (void)
{
  TestRequest *t = tsv_dynamodb_request ();

  tsv_sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  tsv_assert_verified (t, T0, AKID);
  /* Headers the signer leaves out may change on the way. */
  tsv_test_request_set (t, "User-Agent", "something else");
  tsv_test_request_add (t, "Content-Length", "96");
  tsv_assert_verified (t, T0, AKID);
  tsv_test_request_free (t);

  /* Signed body hash, session token. */
  t = tsv_dynamodb_request ();
  tsv_sign_request (t, OTHER_AKID, OTHER_SECRET, "FQoGZXIvYXdzEXAMPLETOKEN", "us-east-1",
                    "dynamodb", T0, TRUE);
  g_assert_nonnull (tsv_test_request_get (t, "x-amz-content-sha256"));
  g_assert_nonnull (tsv_test_request_get (t, "X-Amz-Security-Token"));
  tsv_assert_verified (t, T0, OTHER_AKID);
  tsv_test_request_free (t);

  /* Empty body. */
  t = tsv_test_request_new (NULL);
  tsv_test_request_add (t, "Host", "127.0.0.1:8000");
  tsv_test_request_add (t, "X-Amz-Target", "DynamoDB_20120810.ListTables");
  tsv_sign_request (t, AKID, SECRET, NULL, "eu-west-3", "dynamodb", T0, FALSE);
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "Credential should be scoped to a valid region, not 'eu-west-3'. ", FALSE);
  {
    DdbSigv4VerifyParams p = tsv_verify_params (T0);
    DdbHttpRequest r = tsv_as_http (t);
    GError *error = NULL;

    /* Without a required region, any region signs. */
    p.region = NULL;
    g_assert_true (ddb_sigv4_verify (&r, &p, NULL, &error));
    g_assert_no_error (error);
  }
  tsv_test_request_free (t);
}

/* The exact headers botocore 1.43 (AWS CLI v2's engine) sent for a GetItem at T0. */
static void
test_verify_botocore_request (void)
{
  TestRequest *t = tsv_test_request_new (BODY);

  tsv_test_request_add (t, "Host", "localhost:8000");
  tsv_test_request_add (t, "Accept-Encoding", "identity");
  tsv_test_request_add (t, "X-Amz-Target", "DynamoDB_20120810.GetItem");
  tsv_test_request_add (t, "Content-Type", "application/x-amz-json-1.0");
  tsv_test_request_add (t, "User-Agent", "aws-cli/2.15.0 Python/3.11.2 Linux/6.1 botocore/1.43.11");
  tsv_test_request_add (t, "X-Amz-Date", "20150830T123600Z");
  tsv_test_request_add (
      t, "Authorization",
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/dynamodb/"
      "aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
      "Signature=a04ad3e181925de8781ef170a34406953f42ab715ffc595fe46dd187cff46f0c");
  tsv_test_request_add (t, "Content-Length", "96");
  tsv_assert_verified (t, T0 + 5, AKID);
  tsv_test_request_free (t);
}

/* Rewrites the Authorization header: a find/replace on its text. */
static void
edit_auth (TestRequest *t, const char *from, const char *to)
{
  char *a = tsv_replace (tsv_test_request_get (t, "Authorization"), from, to);

  tsv_test_request_set (t, "Authorization", a);
  g_free (a);
}

static void
test_verify_authorization_layouts (void)
{
  TestRequest *t = tsv_signed_request ();
  char *orig = g_strdup (tsv_test_request_get (t, "Authorization"));
  const char *sig = strstr (orig, "Signature=") + strlen ("Signature=");
  char *v;

  /* No blanks after the commas. */
  edit_auth (t, ", ", ",");
  tsv_assert_verified (t, T0, AKID);
  /* Extra blanks everywhere, and around the header. */
  tsv_test_request_set (t, "Authorization", orig);
  edit_auth (t, ", ", "  ,   ");
  edit_auth (t, "AWS4-HMAC-SHA256 ", "AWS4-HMAC-SHA256   ");
  v = g_strdup_printf ("  %s  ", tsv_test_request_get (t, "Authorization"));
  tsv_test_request_set (t, "Authorization", v);
  g_free (v);
  tsv_assert_verified (t, T0, AKID);
  /* Another order. */
  v = g_strdup_printf ("AWS4-HMAC-SHA256 Signature=%s, SignedHeaders=content-type;host;"
                       "x-amz-date;x-amz-target, Credential=" AKID
                       "/20150830/us-east-1/dynamodb/aws4_request",
                       sig);
  tsv_test_request_set (t, "Authorization", v);
  g_free (v);
  tsv_assert_verified (t, T0, AKID);
  /* Header names in any case; the Host header name in lower case. */
  tsv_test_request_set (t, "Authorization", orig);
  tsv_test_request_remove (t, "Host");
  tsv_test_request_add (t, "host", "localhost:8000");
  tsv_test_request_remove (t, "X-Amz-Date");
  tsv_test_request_add (t, "x-amz-date", "20150830T123600Z");
  tsv_assert_verified (t, T0, AKID);
  g_free (orig);
  tsv_test_request_free (t);
}

static void
test_verify_tampered (void)
{
  TestRequest *t;

  /* The body. */
  t = tsv_signed_request ();
  t->body = "{\"TableName\":\"Music\",\"Key\":{\"Artist\":{\"S\":\"No One You Knew\"},"
            "\"SongTitle\":{\"S\":\"Call Me Today\"}}}";
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      MISMATCH
                      "\n\nThe Canonical String for this request should have been\n'POST\n/\n"
                      "\ncontent-type:application/x-amz-json-1.0\nhost:localhost:8000\n"
                      "x-amz-date:20150830T123600Z\n"
                      "x-amz-target:DynamoDB_20120810.GetItem\n\n"
                      "content-type;host;x-amz-date;x-amz-target\n",
                      TRUE);
  tsv_test_request_free (t);

  /* A signed header. */
  t = tsv_signed_request ();
  tsv_test_request_set (t, "X-Amz-Target", "DynamoDB_20120810.DeleteItem");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH "\n\n", TRUE);
  tsv_test_request_free (t);

  /* A second value for a signed header. */
  t = tsv_signed_request ();
  tsv_test_request_add (t, "Content-Type", "text/plain");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);

  /* The date, within the skew and the same day. */
  t = tsv_signed_request ();
  tsv_test_request_set (t, "X-Amz-Date", "20150830T123601Z");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);

  /* The date, another day than the scope's. */
  t = tsv_signed_request ();
  tsv_test_request_set (t, "X-Amz-Date", "20150831T000100Z");
  tsv_assert_refused (
      t, T0 + 11 * 3600 + 25 * 60, DDB_ERROR_INVALID_SIGNATURE,
      "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date "
      "from HTTP: '20150830' != '20150831', from '20150831T000100Z'. ",
      FALSE);
  tsv_test_request_free (t);

  /* The key id: unknown, or another key's. */
  t = tsv_signed_request ();
  edit_auth (t, "Credential=" AKID "/", "Credential=AKIDNOBODY/");
  tsv_assert_refused (t, T0, DDB_ERROR_UNRECOGNIZED_CLIENT,
                      "The security token included in the request is invalid.", FALSE);
  tsv_test_request_free (t);
  t = tsv_signed_request ();
  edit_auth (t, "Credential=" AKID "/", "Credential=" OTHER_AKID "/");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);

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
        t = tsv_signed_request ();
        edit_auth (t, edits[i][0], edits[i][1]);
        tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
        tsv_test_request_free (t);
      }
  }

  /* The scope: region, service, terminator, and all at once. */
  t = tsv_signed_request ();
  edit_auth (t, "/us-east-1/", "/us-west-2/");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "Credential should be scoped to a valid region, not 'us-west-2'. ", FALSE);
  tsv_test_request_free (t);
  t = tsv_dynamodb_request ();
  tsv_sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamo", T0, FALSE);
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "Credential should be scoped to correct service: 'dynamodb'. ", FALSE);
  tsv_test_request_free (t);
  t = tsv_signed_request ();
  edit_auth (t, "/aws4_request", "/aws4_requests");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "Credential should be scoped with a valid terminator: 'aws4_request', not "
                      "'aws4_requests'. ",
                      FALSE);
  tsv_test_request_free (t);
  t = tsv_signed_request ();
  edit_auth (t, AKID "/20150830/us-east-1/dynamodb/aws4_request", AKID "/b/c/d/e");
  tsv_assert_refused (
      t, T0, DDB_ERROR_INVALID_SIGNATURE,
      "Credential should be scoped to a valid region, not 'c'. "
      "Credential should be scoped to correct service: 'dynamodb'. "
      "Credential should be scoped with a valid terminator: 'aws4_request', not 'e'. "
      "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date "
      "from HTTP: 'b' != '20150830', from '20150830T123600Z'. ",
      FALSE);
  tsv_test_request_free (t);

  /* A signed header list that drops a header the signer signed. */
  t = tsv_signed_request ();
  edit_auth (t, "SignedHeaders=content-type;", "SignedHeaders=");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);

  /* A wrong secret for the right key id. */
  t = tsv_dynamodb_request ();
  tsv_sign_request (t, AKID, OTHER_SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_free (t);
}

static void
test_verify_missing (void)
{
  TestRequest *t = tsv_dynamodb_request ();

  tsv_assert_refused (t, T0, DDB_ERROR_MISSING_AUTHENTICATION_TOKEN,
                      "Request is missing Authentication Token", FALSE);
  tsv_test_request_add (t, "Authorization", "Bearer abc");
  tsv_assert_refused (t, T0, DDB_ERROR_MISSING_AUTHENTICATION_TOKEN,
                      "Request is missing Authentication Token", FALSE);
  tsv_test_request_set (t, "Authorization", "");
  tsv_assert_refused (t, T0, DDB_ERROR_MISSING_AUTHENTICATION_TOKEN,
                      "Request is missing Authentication Token", FALSE);
  tsv_test_request_free (t);
}

static void
test_verify_malformed (void)
{
  TestRequest *t;

  /* Missing parameters, each named, then the header echoed. */
  t = tsv_signed_request ();
  tsv_test_request_set (t, "Authorization",
                        "AWS4-HMAC-SHA256 Credential=" AKID "/20150830/"
                        "us-east-1/dynamodb/aws4_request");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      "Authorization header requires 'Signature' parameter. Authorization header "
                      "requires 'SignedHeaders' parameter. Authorization=AWS4-HMAC-SHA256 "
                      "Credential=" AKID "/20150830/us-east-1/dynamodb/aws4_request",
                      FALSE);
  tsv_test_request_set (t, "Authorization", "AWS4-HMAC-SHA256");
  tsv_test_request_remove (t, "X-Amz-Date");
  tsv_assert_refused (
      t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
      "Authorization header requires 'Credential' parameter. Authorization header "
      "requires 'Signature' parameter. Authorization header requires 'SignedHeaders' "
      "parameter. Authorization header requires existence of either a 'X-Amz-Date' "
      "or a 'Date' header. Authorization=AWS4-HMAC-SHA256",
      FALSE);
  tsv_test_request_free (t);

  /* No date header at all. */
  t = tsv_signed_request ();
  tsv_test_request_remove (t, "X-Amz-Date");
  tsv_assert_refused (
      t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
      "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' "
      "header. Authorization=AWS4-HMAC-SHA256 Credential=",
      TRUE);
  /* Date instead of X-Amz-Date, still in the basic format, is used (and here is not signed). */
  tsv_test_request_add (t, "Date", "20150830T123600Z");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE, MISMATCH, TRUE);
  tsv_test_request_set (t, "Date", "Sun, 30 Aug 2015 12:36:00 GMT");
  tsv_assert_refused (
      t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
      "Date must be in ISO-8601 'basic format'. Got 'Sun, 30 Aug 2015 12:36:00 GMT'. "
      "See http://en.wikipedia.org/wiki/ISO_8601",
      FALSE);
  tsv_test_request_free (t);

  /* A date in another format. */
  t = tsv_signed_request ();
  tsv_test_request_set (t, "X-Amz-Date", "2015-08-30T12:36:00Z");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      "Date must be in ISO-8601 'basic format'. Got '2015-08-30T12:36:00Z'. See "
                      "http://en.wikipedia.org/wiki/ISO_8601",
                      FALSE);
  tsv_test_request_free (t);

  /* A parameter without '='. */
  t = tsv_signed_request ();
  tsv_test_request_set (t, "Authorization",
                        "AWS4-HMAC-SHA256 Signature=b,    Credential,    "
                        "SignedHeaders");
  tsv_assert_refused (
      t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
      "'Credential' not a valid key=value pair (missing equal-sign) in Authorization "
      "header: 'AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders'.",
      FALSE);
  tsv_test_request_free (t);

  /* Host not signed (checked before the algorithm and the credential). */
  t = tsv_signed_request ();
  edit_auth (t, "content-type;host;", "content-type;");
  edit_auth (t, "AWS4-HMAC-SHA256 ", "AWS4-HMAC-SHA1 ");
  tsv_assert_refused (t, T0, DDB_ERROR_INVALID_SIGNATURE,
                      "'Host' must be a 'SignedHeader' in the AWS Authorization.", FALSE);
  tsv_test_request_free (t);

  /* Another algorithm. */
  t = tsv_signed_request ();
  edit_auth (t, "AWS4-HMAC-SHA256 ", "AWS4-HMAC-SHA25 ");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA25' (only AWS4-HMAC-SHA256 for "
                      "now). ",
                      FALSE);
  tsv_test_request_free (t);

  /* A credential with too few parts; trailing slashes do not count. */
  t = tsv_signed_request ();
  edit_auth (t, AKID "/20150830/us-east-1/dynamodb/aws4_request", "a/b/c/d");
  tsv_assert_refused (t, T0, DDB_ERROR_INCOMPLETE_SIGNATURE,
                      "Credential must have exactly 5 slash-delimited elements, e.g. "
                      "keyid/date/region/service/term, got 'a/b/c/d'",
                      FALSE);
  tsv_test_request_free (t);
  t = tsv_signed_request ();
  edit_auth (t, "/aws4_request", "/aws4_request//");
  tsv_assert_verified (t, T0, AKID);
  tsv_test_request_free (t);
}

static void
test_verify_skew (void)
{
  TestRequest *t = tsv_signed_request ();

  /* Exactly 15 minutes either way is still accepted; one second more is not. */
  tsv_assert_verified (t, T0 + 900, AKID);
  tsv_assert_verified (t, T0 - 900, AKID);
  tsv_assert_refused (t, T0 + 901, DDB_ERROR_INVALID_SIGNATURE,
                      "Signature expired: 20150830T123600Z is now earlier than 20150830T123601Z "
                      "(20150830T125101Z - 15 min.)",
                      FALSE);
  tsv_assert_refused (t, T0 - 901, DDB_ERROR_INVALID_SIGNATURE,
                      "Signature not yet current: 20150830T123600Z is still later than "
                      "20150830T123559Z (20150830T122059Z + 15 min.)",
                      FALSE);
  /* The skew is checked before the key id. */
  edit_auth (t, "Credential=" AKID "/", "Credential=AKIDNOBODY/");
  tsv_assert_refused (t, T0 + 3600, DDB_ERROR_INVALID_SIGNATURE, "Signature expired: ", TRUE);
  tsv_test_request_free (t);
}

/* Messages quote the request's headers, which may hold any byte; serve answers them in a JSON
 * string, which jansson takes in UTF-8 only (it dropped the message): they are made UTF-8
 * (fuzz-sigv4 found it). */
static void
test_verify_message_utf8 (void)
{
  TestRequest *t = tsv_signed_request ();
  DdbSigv4VerifyParams p = tsv_verify_params (T0);
  DdbHttpRequest r;
  GError *error = NULL;

  /* Quoted in an IncompleteSignatureException. */
  edit_auth (t, "Credential=" AKID "/", "Credential=" AKID "\xff/");
  edit_auth (t, "Signature=", "Signature\xfe");
  r = tsv_as_http (t);
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
  tsv_test_request_free (t);

  /* A signed header's value quoted in the canonical request of an InvalidSignatureException. */
  t = tsv_dynamodb_request ();
  tsv_test_request_add (t, "X-Odd", "caf\xc3\xa9 \xe9t\xe9");
  tsv_sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  tsv_test_request_set (t, "X-Amz-Target", "DynamoDB_20120810.DeleteItem");
  r = tsv_as_http (t);
  g_assert_false (ddb_sigv4_verify (&r, &p, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, "\nx-odd:caf\xc3\xa9 \xef\xbf\xbdt\xef\xbf\xbd\n"));
  g_clear_error (&error);
  /* The bytes as they came are what is signed: the request verifies unchanged. */
  tsv_test_request_set (t, "X-Amz-Target", "DynamoDB_20120810.GetItem");
  tsv_assert_verified (t, T0, AKID);
  tsv_test_request_free (t);
}

/* A name listed more than once in SignedHeaders counts once: the canonical request lists each
 * header once, and a request of a few kilobytes (names listed N times over M headers of that
 * name) made a canonical request, and a message quoting it, of N * M values: megabytes and
 * seconds for a 32 KB request (fuzz-sigv4's huge counts). */
static void
test_verify_repeated_signed_names (void)
{
  TestRequest *t = tsv_dynamodb_request ();
  GString *names = g_string_new ("SignedHeaders=content-type;host;host; HOST ;");
  DdbSigv4VerifyParams p = tsv_verify_params (T0);
  DdbHttpRequest r;
  GError *error = NULL;

  for (int i = 0; i < 400; i++)
    tsv_test_request_add (t, "X-Dup", "a");
  tsv_sign_request (t, AKID, SECRET, NULL, "us-east-1", "dynamodb", T0, FALSE);
  tsv_assert_verified (t, T0, AKID);
  for (int i = 0; i < 400; i++)
    g_string_append (names, "x-dup;");
  edit_auth (t, "SignedHeaders=content-type;host;", names->str);
  tsv_assert_verified (t, T0, AKID);

  /* Refused, the canonical request quoted once: 400 values, not 160,000. */
  tsv_test_request_set (t, "X-Amz-Target", "DynamoDB_20120810.DeleteItem");
  r = tsv_as_http (t);
  g_assert_false (ddb_sigv4_verify (&r, &p, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE);
  g_assert_cmpuint (strlen (error->message), <, 4096);
  g_clear_error (&error);
  g_string_free (names, TRUE);
  tsv_test_request_free (t);
}

void
tsv_add_verify_tests (void)
{
  g_test_add_func ("/sigv4/verify/ok", test_verify_ok);
  g_test_add_func ("/sigv4/verify/botocore-request", test_verify_botocore_request);
  g_test_add_func ("/sigv4/verify/authorization-layouts", test_verify_authorization_layouts);
  g_test_add_func ("/sigv4/verify/tampered", test_verify_tampered);
  g_test_add_func ("/sigv4/verify/missing", test_verify_missing);
  g_test_add_func ("/sigv4/verify/malformed", test_verify_malformed);
  g_test_add_func ("/sigv4/verify/skew", test_verify_skew);
  g_test_add_func ("/sigv4/verify/message-utf8", test_verify_message_utf8);
  g_test_add_func ("/sigv4/verify/repeated-signed-names", test_verify_repeated_signed_names);
}
