/* test-client.c: the DynamoDB client and its HTTP transport. Run by run-client-tests.py, which
 * starts the servers and names them in the environment: DYNOSCOPE_FAULT_URL (a fault-injecting
 * stand-in: POST /__script sets the answers to give, GET /__stats counts requests and
 * connections), DYNOSCOPE_TLS_URL + DYNOSCOPE_TLS_CA (the same over TLS with a self-signed
 * certificate) and DYNOSCOPE_LIVE_URL (dynalite or DynamoDB Local). Tests whose server is not
 * named are skipped; the rest need no server. */
#include <gio/gio.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "net/client.h"

static const char *const test_envp[] = {
  "AWS_ACCESS_KEY_ID=AKIAFAKECLIENTTESTS0",
  "AWS_SECRET_ACCESS_KEY=fake/secret/for/client/tests",
  "AWS_CONFIG_FILE=/dev/null",
  "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
  "AWS_REGION=us-east-1",
  NULL,
};

static const char *
server (const char *var)
{
  const char *url = g_getenv (var);

  if (url == NULL || *url == '\0')
    {
      g_test_skip_printf ("%s is not set: run through run-client-tests.py", var);
      return NULL;
    }
  return url;
}

static DdbClient *
client_for (const char *url, guint max_attempts, guint base_delay_ms)
{
  DdbClientOptions options = { 0 };
  GError *error = NULL;
  DdbClient *client;

  options.endpoint_url = url;
  options.envp = test_envp;
  options.max_attempts = max_attempts;
  options.base_delay_ms = base_delay_ms;
  options.connect_timeout_ms = 5000;
  options.timeout_ms = 20000;
  client = ddb_client_new (&options, &error);
  g_assert_no_error (error);
  return client;
}

static json_t *
parse (const char *text)
{
  json_error_t jerr;
  json_t *json = json_loads (text, JSON_ALLOW_NUL, &jerr);

  if (json == NULL)
    g_error ("bad test JSON: %s: %s", jerr.text, text);
  return json;
}

/* Sends a plain (unsigned) control request to the fault server; returns its JSON answer. */
static json_t *
control (const char *base, const char *path, const char *body)
{
  g_autoptr (DdbHttp) http = ddb_http_new (NULL, NULL);
  g_autofree char *url = g_strconcat (base, path, NULL);
  DdbHttpResponse resp = { 0 };
  GError *error = NULL;
  json_t *json;
  gsize len;
  const char *data;

  if (body == NULL)
    {
      /* GET through POST's sibling: the fault server answers /__stats to either. */
      body = "";
    }
  g_assert_true (ddb_http_post (http, url, NULL, 0, (const guint8 *) body, strlen (body), NULL,
                                &resp, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (resp.status, ==, 200);
  data = g_bytes_get_data (resp.body, &len);
  json = json_loadb (data, len, 0, NULL);
  g_assert_nonnull (json);
  ddb_http_response_clear (&resp);
  return json;
}

static void
script (const char *base, const char *json_script)
{
  json_decref (control (base, "/__script", json_script));
}

static json_int_t
stat_of (const char *base, const char *name)
{
  json_t *stats = control (base, "/__stats", NULL);
  json_int_t v = json_integer_value (json_object_get (stats, name));

  json_decref (stats);
  return v;
}

/* Calls OP with REQUEST text; returns the result and fills the outs. */
static gboolean
call (DdbClient *client, const char *op, const char *request, json_t **response,
      DdbClientCallInfo *info, GError **error)
{
  json_t *req = parse (request);
  gboolean ok = ddb_client_call (client, op, req, NULL, response, info, error);

  json_decref (req);
  return ok;
}

/* ---- No server ---- */

static void
test_crc32 (void)
{
  /* The check value of CRC-32/ISO-HDLC, and zlib.crc32(b'{}'). */
  g_assert_cmpuint (ddb_crc32 ((const guint8 *) "123456789", 9), ==, 0xCBF43926u);
  g_assert_cmpuint (ddb_crc32 ((const guint8 *) "{}", 2), ==, 2745614147u);
  g_assert_cmpuint (ddb_crc32 (NULL, 0), ==, 0);
}

static void
test_retryable_names (void)
{
  const char *yes[] = { "ProvisionedThroughputExceededException", "ThrottlingException",
                        "RequestLimitExceeded", "Throttling", "TransactionInProgressException" };
  const char *no[] = { "ValidationException", "ConditionalCheckFailedException",
                       "ResourceNotFoundException", "AccessDeniedException",
                       "TransactionCanceledException", "LimitExceededException",
                       "UnrecognizedClientException" };
  DdbErrorCode code;

  for (gsize i = 0; i < G_N_ELEMENTS (yes); i++)
    g_assert_true (ddb_client_error_is_retryable (yes[i], 400));
  for (gsize i = 0; i < G_N_ELEMENTS (no); i++)
    g_assert_false (ddb_client_error_is_retryable (no[i], 400));
  g_assert_true (ddb_client_error_is_retryable (NULL, 500));
  g_assert_true (ddb_client_error_is_retryable (NULL, 503));
  g_assert_false (ddb_client_error_is_retryable (NULL, 413));

  g_assert_true (ddb_client_error_code_from_name ("ConditionalCheckFailedException", &code));
  g_assert_cmpint (code, ==, DDB_ERROR_CONDITIONAL_CHECK_FAILED);
  g_assert_true (ddb_client_error_code_from_name ("IdempotentParameterMismatchException", &code));
  g_assert_cmpint (code, ==, DDB_ERROR_IDEMPOTENT_PARAMETER_MISMATCH);
  g_assert_false (ddb_client_error_code_from_name ("ThrottlingException", &code));
  g_assert_false (ddb_client_error_code_from_name ("", &code));
}

static void
test_host_header (void)
{
  const struct {
    const char *url, *host;
  } cases[] = {
    { "https://dynamodb.us-east-1.amazonaws.com", "dynamodb.us-east-1.amazonaws.com" },
    { "https://dynamodb.us-east-1.amazonaws.com:443/", "dynamodb.us-east-1.amazonaws.com" },
    { "http://localhost:8000", "localhost:8000" },
    { "http://127.0.0.1:80", "127.0.0.1" },
    { "HTTP://Example.COM:8443", "example.com:8443" },
    { "http://[::1]:8000/", "[::1]:8000" },
  };
  GError *error = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *host = ddb_http_host_header (cases[i].url, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (host, ==, cases[i].host);
    }
  g_assert_null (ddb_http_host_header ("ftp://example.com", &error));
  g_assert_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_INVALID_URL);
  g_clear_error (&error);
}

static void
test_no_region_refused (void)
{
  const char *const envp[] = { "AWS_ACCESS_KEY_ID=a", "AWS_SECRET_ACCESS_KEY=b",
                               "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
                               NULL };
  DdbClientOptions options = { 0 };
  GError *error = NULL;

  options.endpoint_url = "http://127.0.0.1:9";
  options.envp = envp;
  g_assert_null (ddb_client_new (&options, &error));
  g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION);
  g_clear_error (&error);

  /* The region's standard endpoint when none is given. */
  {
    g_autoptr (DdbClient) client = NULL;

    options.endpoint_url = NULL;
    options.region = "eu-west-3";
    client = ddb_client_new (&options, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (ddb_client_get_endpoint (client), ==,
                     "https://dynamodb.eu-west-3.amazonaws.com");
    g_assert_cmpstr (ddb_client_get_signing_region (client), ==, "eu-west-3");
  }
}

static void
test_missing_ca_bundle_refused (void)
{
  DdbClientOptions options = { 0 };
  GError *error = NULL;

  options.endpoint_url = "https://127.0.0.1:9";
  options.envp = test_envp;
  options.ca_bundle = "/nonexistent/ca.pem";
  g_assert_null (ddb_client_new (&options, &error));
  g_assert_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_TLS);
  g_clear_error (&error);
}

static void
test_connection_refused_retried (void)
{
  g_autoptr (DdbClient) client = NULL;
  g_autoptr (GError) error = NULL;
  DdbClientCallInfo info;
  json_t *response = NULL;
  int port;

  /* A port nothing listens on: bind one, note it, close it. */
  {
    g_autoptr (GSocket) sock = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                             G_SOCKET_PROTOCOL_TCP, NULL);
    g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
    g_autoptr (GSocketAddress) addr = g_inet_socket_address_new (lo, 0);
    g_autoptr (GSocketAddress) bound = NULL;

    g_assert_true (g_socket_bind (sock, addr, TRUE, NULL));
    bound = g_socket_get_local_address (sock, NULL);
    port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  }
  {
    g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%d", port);

    client = client_for (url, 3, 1);
    g_assert_false (call (client, "ListTables", "{}", &response, &info, &error));
  }
  g_assert_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_CONNECT);
  g_assert_null (response);
  g_assert_cmpuint (info.attempts, ==, 3);
  g_assert_cmpuint (info.last_status, ==, 0);
}

/* ---- The fault server ---- */

static void
test_success_signed_and_kept_alive (void)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  g_autoptr (DdbClient) client = NULL;
  DdbClientCallInfo info;
  json_t *response = NULL;
  json_t *stats;
  json_t *headers;
  GError *error = NULL;

  if (base == NULL)
    return;
  script (base, "{\"script\": [], \"answer\": {\"TableNames\": [\"a\", \"b\"]}}");
  client = client_for (base, 0, 1);
  for (int i = 0; i < 5; i++)
    {
      g_assert_true (call (client, "ListTables", "{\"Limit\": 5}", &response, &info, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (info.attempts, ==, 1);
      g_assert_cmpuint (info.last_status, ==, 200);
      g_assert_cmpuint (json_array_size (json_object_get (response, "TableNames")), ==, 2);
      json_decref (response);
    }
  stats = control (base, "/__stats", NULL);
  g_assert_cmpint (json_integer_value (json_object_get (stats, "requests")), ==, 5);
  /* One connection carried the five requests. */
  g_assert_cmpint (json_integer_value (json_object_get (stats, "connections")), ==, 1);
  headers = json_object_get (stats, "last_headers");
  g_assert_cmpstr (json_string_value (json_object_get (headers, "x-amz-target")), ==,
                   "DynamoDB_20120810.ListTables");
  g_assert_cmpstr (json_string_value (json_object_get (headers, "content-type")), ==,
                   "application/x-amz-json-1.0");
  g_assert_true (g_str_has_prefix (
      json_string_value (json_object_get (headers, "authorization")),
      "AWS4-HMAC-SHA256 Credential=AKIAFAKECLIENTTESTS0/"));
  g_assert_nonnull (strstr (json_string_value (json_object_get (headers, "authorization")),
                            "/us-east-1/dynamodb/aws4_request, SignedHeaders="
                            "content-type;host;x-amz-date;x-amz-target, Signature="));
  g_assert_nonnull (json_object_get (headers, "x-amz-date"));
  /* No secret on the wire. */
  {
    char *dump = json_dumps (headers, 0);

    g_assert_null (strstr (dump, "fake/secret"));
    free (dump);
  }
  json_decref (stats);
}

/* A 200 with no body at all (TagResource, UntagResource) is an empty answer, not an error. */
static void
test_empty_answer (void)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  g_autoptr (DdbClient) client = NULL;
  DdbClientCallInfo info;
  json_t *response = NULL;
  GError *error = NULL;

  if (base == NULL)
    return;
  script (base, "{\"script\": [\"empty\"]}");
  client = client_for (base, 0, 1);
  g_assert_true (call (client, "TagResource",
                       "{\"ResourceArn\": \"arn:aws:dynamodb:us-east-1:1:table/t\", \"Tags\": []}",
                       &response, &info, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (info.attempts, ==, 1);
  g_assert_true (json_is_object (response));
  g_assert_cmpuint (json_object_size (response), ==, 0);
  json_decref (response);
}

/* The S member of attribute `name` of the answer's Item, which must hold exactly `len` bytes. */
static void
assert_item_s (json_t *response, const char *name, const char *want, gsize len)
{
  json_t *s = json_object_get (json_object_get (json_object_get (response, "Item"), name), "S");

  g_assert_true (json_is_string (s));
  g_assert_cmpmem (json_string_value (s), json_string_length (s), want, len);
}

/* U+0000 is a valid DynamoDB string character: an answer holding one is taken whole. */
static void
test_nul_in_answer (void)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  g_autoptr (DdbClient) client = NULL;
  DdbClientCallInfo info;
  json_t *response = NULL;
  GError *error = NULL;

  if (base == NULL)
    return;
  script (base, "{\"script\": [], \"answer\": {\"Item\": {\"k\": {\"S\": \"a\\u0000b\"}, "
                "\"e\": {\"S\": \"\\u0000\"}}}}");
  client = client_for (base, 0, 1);
  g_assert_true (call (client, "GetItem",
                       "{\"TableName\": \"tbl\", \"Key\": {\"k\": {\"S\": \"a\\u0000b\"}}}",
                       &response, &info, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (info.attempts, ==, 1);
  assert_item_s (response, "k", "a\0b", 3);
  assert_item_s (response, "e", "\0", 1);
  json_decref (response);
  response = NULL;

  /* A name holding U+0000 (DynamoDB takes one through ExpressionAttributeNames) cannot be a
   * jansson key: the error says so, and is not retried. */
  script (base, "{\"script\": [], \"answer\": {\"Item\": {\"w\\u0000z\": {\"S\": \"1\"}}}}");
  g_assert_false (call (client, "GetItem", "{\"TableName\": \"tbl\", \"Key\": {}}", &response,
                        &info, &error));
  g_assert_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "holds an attribute name (or map key) with U+0000"));
  g_assert_cmpuint (info.attempts, ==, 1);
  g_assert_null (response);
  g_clear_error (&error);
}

static void
expect_retried_success (const char *json_script, guint attempts)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  g_autoptr (DdbClient) client = NULL;
  DdbClientCallInfo info;
  json_t *response = NULL;
  GError *error = NULL;

  if (base == NULL)
    return;
  script (base, json_script);
  client = client_for (base, 0, 1);
  g_assert_true (call (client, "ListTables", "{}", &response, &info, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (info.attempts, ==, attempts);
  g_assert_cmpint (stat_of (base, "requests"), ==, attempts);
  g_assert_nonnull (json_object_get (response, "TableNames"));
  json_decref (response);
}

static void
test_retry_5xx (void)
{
  expect_retried_success ("{\"script\": [\"500\", \"503-html\", \"500\"]}", 4);
}

static void
test_retry_throttling (void)
{
  expect_retried_success ("{\"script\": [\"throttle\", \"pte\", \"rle\", \"throttle\"]}", 5);
}

static void
test_retry_bad_crc32 (void)
{
  expect_retried_success ("{\"script\": [\"badcrc\", \"badcrc\"]}", 3);
}

static void
test_retry_dropped_connection (void)
{
  expect_retried_success ("{\"script\": [\"drop\", \"drop\"]}", 3);
}

/* An answer cut short (fewer bytes than its Content-Length) or reset in the middle is asked
 * again, as botocore retries its ConnectionClosedError. */
static void
test_retry_truncated_answer (void)
{
  expect_retried_success ("{\"script\": [\"truncated\", \"truncated\"]}", 3);
}

static void
test_retry_reset_answer (void)
{
  expect_retried_success ("{\"script\": [\"reset\", \"reset\"]}", 3);
}

/* An endpoint that never answers, or trickles its answer a byte a second, costs one attempt its
 * timeout and is asked again (botocore's read timeout); the answer that follows is taken. */
static void
test_retry_silent_and_trickling (void)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  const char *scripts[] = { "{\"script\": [\"silent\", \"ok\"]}",
                            "{\"script\": [\"trickle\", \"ok\"]}" };

  if (base == NULL)
    return;
  for (gsize i = 0; i < G_N_ELEMENTS (scripts); i++)
    {
      DdbClientOptions options = { 0 };
      g_autoptr (DdbClient) client = NULL;
      g_autoptr (GError) error = NULL;
      DdbClientCallInfo info;
      json_t *response = NULL;

      script (base, scripts[i]);
      options.endpoint_url = base;
      options.envp = test_envp;
      options.timeout_ms = 4000; /* an answer comes in ms; the trickle would take 18 s */
      options.max_attempts = 2;
      options.base_delay_ms = 1;
      client = ddb_client_new (&options, &error);
      g_assert_no_error (error);
      g_assert_true (call (client, "ListTables", "{}", &response, &info, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (info.attempts, ==, 2);
      g_assert_nonnull (json_object_get (response, "TableNames"));
      json_decref (response);
    }
}

static void
test_attempts_bounded (void)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  g_autoptr (DdbClient) client = NULL;
  g_autoptr (GError) error = NULL;
  DdbClientCallInfo info;
  json_t *response = NULL;

  if (base == NULL)
    return;
  /* The default bound (10, botocore's for DynamoDB). */
  script (base, "{\"script\": [\"500\", \"500\", \"500\", \"500\", \"500\", \"500\", \"500\", "
                "\"500\", \"500\", \"500\", \"500\", \"500\"]}");
  client = client_for (base, 0, 1);
  g_assert_false (call (client, "ListTables", "{}", &response, &info, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_assert_cmpstr (error->message, ==, "Internal server error");
  g_assert_cmpstr (ddb_client_error_name (error, response), ==, "InternalServerError");
  g_assert_cmpuint (info.attempts, ==, DDB_CLIENT_DEFAULT_MAX_ATTEMPTS);
  g_assert_cmpuint (info.last_status, ==, 500);
  g_assert_cmpint (stat_of (base, "requests"), ==, 10);
  json_decref (response);
  g_clear_error (&error);

  /* Throttled to the end: the last error, with its own name. */
  ddb_client_free (g_steal_pointer (&client));
  script (base, "{\"script\": [\"throttle\", \"throttle\", \"throttle\", \"throttle\"]}");
  client = client_for (base, 3, 1);
  g_assert_false (call (client, "ListTables", "{}", &response, &info, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_assert_cmpstr (ddb_client_error_name (error, response), ==, "ThrottlingException");
  g_assert_cmpstr (error->message, ==, "Rate exceeded");
  g_assert_cmpuint (info.attempts, ==, 3);
  g_assert_cmpint (stat_of (base, "requests"), ==, 3);
  json_decref (response);
}

static void
test_backoff_capped (void)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  DdbClientOptions options = { 0 };
  g_autoptr (DdbClient) client = NULL;
  DdbClientCallInfo info;
  json_t *response = NULL;
  GError *error = NULL;
  gint64 start;

  if (base == NULL)
    return;
  /* base 2 s but a cap of 50 ms: five retries stay well under a second. */
  script (base, "{\"script\": [\"500\", \"500\", \"500\", \"500\", \"500\"]}");
  options.endpoint_url = base;
  options.envp = test_envp;
  options.base_delay_ms = 2000;
  options.max_delay_ms = 50;
  client = ddb_client_new (&options, &error);
  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  g_assert_true (call (client, "ListTables", "{}", &response, &info, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (info.attempts, ==, 6);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 1500 * 1000);
  json_decref (response);
}

static void
expect_not_retried (const char *step, DdbErrorCode code, const char *name, const char *message)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  g_autoptr (DdbClient) client = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *json_script = NULL;
  DdbClientCallInfo info;
  json_t *response = NULL;

  if (base == NULL)
    return;
  json_script = g_strdup_printf ("{\"script\": [\"%s\", \"%s\"]}", step, step);
  script (base, json_script);
  client = client_for (base, 0, 1);
  g_assert_false (call (client, "ListTables", "{}", &response, &info, &error));
  g_assert_error (error, DDB_ERROR, (int) code);
  g_assert_cmpstr (ddb_client_error_name (error, response), ==, name);
  g_assert_cmpstr (error->message, ==, message);
  g_assert_cmpuint (info.attempts, ==, 1);
  g_assert_cmpuint (info.last_status, ==, 400);
  g_assert_cmpint (stat_of (base, "requests"), ==, 1);
  json_decref (response);
}

static void
test_validation_not_retried (void)
{
  expect_not_retried ("validation", DDB_ERROR_VALIDATION, "ValidationException",
                      "1 validation error detected: Value null at 'tableName' failed to satisfy "
                      "constraint: Member must not be null");
}

static void
test_unknown_exception_kept (void)
{
  expect_not_retried ("access", DDB_ERROR_INTERNAL, "AccessDeniedException",
                      "User: arn:aws:iam::123456789012:user/x is not authorized to perform: "
                      "dynamodb:ListTables");
}

static void
test_not_found_not_retried (void)
{
  expect_not_retried ("notfound", DDB_ERROR_RESOURCE_NOT_FOUND, "ResourceNotFoundException",
                      "Requested resource not found");
}

static void
test_error_extra_members (void)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  g_autoptr (DdbClient) client = NULL;
  g_autoptr (GError) error = NULL;
  DdbClientCallInfo info;
  json_t *response = NULL;
  json_t *reasons;

  if (base == NULL)
    return;
  script (base, "{\"script\": [\"canceled\"]}");
  client = client_for (base, 0, 1);
  g_assert_false (call (client, "TransactWriteItems", "{}", &response, &info, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_TRANSACTION_CANCELED);
  /* "Message" (capital M) is read too. */
  g_assert_true (g_str_has_prefix (error->message, "Transaction cancelled, please refer"));
  g_assert_cmpuint (info.attempts, ==, 1);
  g_assert_null (json_object_get (response, "__type"));
  g_assert_null (json_object_get (response, "Message"));
  reasons = json_object_get (response, "CancellationReasons");
  g_assert_cmpuint (json_array_size (reasons), ==, 2);
  g_assert_cmpstr (json_string_value (json_object_get (json_array_get (reasons, 1), "Code")), ==,
                   "ConditionalCheckFailed");
  json_decref (response);
}

typedef struct {
  GCancellable *cancellable;
  guint delay_ms;
} Canceller;

static gpointer
cancel_later (gpointer data)
{
  Canceller *c = data;

  g_usleep ((gulong) c->delay_ms * 1000);
  g_cancellable_cancel (c->cancellable);
  return NULL;
}

static void
expect_cancelled (const char *json_script, guint base_delay_ms, guint max_attempts)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  g_autoptr (DdbClient) client = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  DdbClientCallInfo info;
  Canceller c = { cancellable, 200 };
  json_t *response = NULL;
  json_t *req = parse ("{}");
  GThread *thread;
  gint64 start;

  if (base == NULL)
    {
      json_decref (req);
      return;
    }
  script (base, json_script);
  client = client_for (base, 0, base_delay_ms);
  start = g_get_monotonic_time ();
  thread = g_thread_new ("canceller", cancel_later, &c);
  g_assert_false (ddb_client_call (client, "ListTables", req, cancellable, &response, &info,
                                   &error));
  g_thread_join (thread);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (response);
  g_assert_cmpuint (info.attempts, >=, 1);
  g_assert_cmpuint (info.attempts, <=, max_attempts);
  /* Well before the server would have answered or the backoff ended. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 1500 * 1000);
  json_decref (req);
}

static void
test_cancel_during_request (void)
{
  expect_cancelled ("{\"script\": [\"slow:4\"]}", 1, 1);
}

static void
test_cancel_during_backoff (void)
{
  /* Full jitter may draw a first backoff shorter than the 200 ms before the cancel (1 in 100
   * with a 20 s base, the cap): then a second attempt, and a third only 1 in 10,000. */
  expect_cancelled ("{\"script\": [\"500\", \"500\", \"500\"]}", 20000, 2);
}

static void
test_timeout (void)
{
  const char *base = server ("DYNOSCOPE_FAULT_URL");
  DdbClientOptions options = { 0 };
  g_autoptr (DdbClient) client = NULL;
  g_autoptr (GError) error = NULL;
  DdbClientCallInfo info;
  json_t *response = NULL;

  if (base == NULL)
    return;
  script (base, "{\"script\": [\"slow:2\", \"slow:2\"]}");
  options.endpoint_url = base;
  options.envp = test_envp;
  options.timeout_ms = 300;
  options.max_attempts = 2;
  options.base_delay_ms = 1;
  client = ddb_client_new (&options, &error);
  g_assert_no_error (error);
  g_assert_false (call (client, "ListTables", "{}", &response, &info, &error));
  g_assert_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_TIMEOUT);
  g_assert_cmpuint (info.attempts, ==, 2);
}

/* ---- TLS ---- */

static void
test_tls_verified (void)
{
  const char *base = server ("DYNOSCOPE_TLS_URL");
  const char *ca = g_getenv ("DYNOSCOPE_TLS_CA");
  g_autoptr (DdbClient) client = NULL;
  g_autoptr (GError) error = NULL;
  DdbClientCallInfo info;
  DdbClientOptions options = { 0 };
  json_t *response = NULL;
  g_autofree char *env_ca = NULL;
  const char *envp[8];
  guint n = 0;

  if (base == NULL)
    return;
  g_assert_nonnull (ca);

  /* The system's CAs do not know the self-signed certificate: refused, and not retried. */
  client = client_for (base, 0, 1);
  g_assert_false (call (client, "ListTables", "{}", &response, &info, &error));
  g_assert_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_TLS);
  g_assert_cmpuint (info.attempts, ==, 1);
  g_assert_null (response);
  g_clear_error (&error);
  ddb_client_free (g_steal_pointer (&client));

  /* Given as the CA bundle: accepted. */
  options.endpoint_url = base;
  options.envp = test_envp;
  options.ca_bundle = ca;
  client = ddb_client_new (&options, &error);
  g_assert_no_error (error);
  g_assert_true (call (client, "ListTables", "{}", &response, &info, &error));
  g_assert_no_error (error);
  json_decref (response);
  ddb_client_free (g_steal_pointer (&client));

  /* Through AWS_CA_BUNDLE too. */
  for (guint i = 0; test_envp[i] != NULL; i++)
    envp[n++] = test_envp[i];
  env_ca = g_strconcat ("AWS_CA_BUNDLE=", ca, NULL);
  envp[n++] = env_ca;
  envp[n] = NULL;
  options.ca_bundle = NULL;
  options.envp = envp;
  client = ddb_client_new (&options, &error);
  g_assert_no_error (error);
  g_assert_true (call (client, "ListTables", "{}", &response, &info, &error));
  g_assert_no_error (error);
  json_decref (response);
  ddb_client_free (g_steal_pointer (&client));

  /* The right CA but another name than the certificate's (localhost): refused. */
  {
    g_autoptr (GUri) uri = g_uri_parse (base, G_URI_FLAGS_NONE, NULL);
    g_autofree char *other = g_strdup_printf ("https://127.0.0.1:%d", g_uri_get_port (uri));

    options.endpoint_url = other;
    options.envp = test_envp;
    options.ca_bundle = ca;
    client = ddb_client_new (&options, &error);
    g_assert_no_error (error);
    g_assert_false (call (client, "ListTables", "{}", &response, &info, &error));
    g_assert_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_TLS);
    g_assert_cmpuint (info.attempts, ==, 1);
  }
}

/* ---- A real DynamoDB implementation ---- */

static void
expect_ok (DdbClient *client, const char *op, const char *request, json_t **out)
{
  json_t *response = NULL;
  GError *error = NULL;

  if (!call (client, op, request, &response, NULL, &error))
    g_error ("%s failed: %s: %s", op, ddb_client_error_name (error, response), error->message);
  if (out != NULL)
    *out = response;
  else
    json_decref (response);
}

/* As a real client does: a new table serves requests once DescribeTable says ACTIVE (dynalite
 * and AWS answer CreateTable with CREATING). */
static void
wait_active (DdbClient *client, const char *table)
{
  g_autofree char *req = g_strdup_printf ("{\"TableName\": \"%s\"}", table);

  for (int attempt = 0; attempt < 200; attempt++)
    {
      json_t *response = NULL;
      const char *status;
      gboolean active;

      expect_ok (client, "DescribeTable", req, &response);
      status = json_string_value (
          json_object_get (json_object_get (response, "Table"), "TableStatus"));
      active = g_strcmp0 (status, "ACTIVE") == 0;
      json_decref (response);
      if (active)
        return;
      g_usleep (50 * 1000);
    }
  g_error ("table %s did not become ACTIVE within 10 s", table);
}

static void
test_live (void)
{
  const char *base = server ("DYNOSCOPE_LIVE_URL");
  g_autoptr (DdbClient) client = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *table = NULL;
  g_autofree char *req = NULL;
  json_t *response = NULL;
  json_t *items;

  if (base == NULL)
    return;
  client = client_for (base, 0, 10);
  table = g_strdup_printf ("client_test_%u", g_random_int ());
  req = g_strdup_printf (
      "{\"TableName\": \"%s\", \"BillingMode\": \"PAY_PER_REQUEST\", "
      "\"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}, "
      "{\"AttributeName\": \"sk\", \"AttributeType\": \"N\"}], "
      "\"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}, "
      "{\"AttributeName\": \"sk\", \"KeyType\": \"RANGE\"}]}",
      table);
  expect_ok (client, "CreateTable", req, &response);
  g_assert_cmpstr (json_string_value (json_object_get (
                       json_object_get (response, "TableDescription"), "TableName")),
                   ==, table);
  json_decref (response);
  wait_active (client, table);

  for (int i = 1; i <= 5; i++)
    {
      g_autofree char *put = g_strdup_printf (
          "{\"TableName\": \"%s\", \"Item\": {\"pk\": {\"S\": \"a\"}, \"sk\": {\"N\": \"%d\"}, "
          "\"big\": {\"N\": \"12345678901234567890123456789012345678\"}, "
          "\"txt\": {\"S\": \"h\\u00e9llo %d\"}}}",
          table, i, i);

      expect_ok (client, "PutItem", put, NULL);
    }
  g_free (req);
  req = g_strdup_printf ("{\"TableName\": \"%s\", \"Key\": {\"pk\": {\"S\": \"a\"}, "
                         "\"sk\": {\"N\": \"3\"}}}",
                         table);
  expect_ok (client, "GetItem", req, &response);
  g_assert_cmpstr (json_string_value (json_object_get (
                       json_object_get (json_object_get (response, "Item"), "big"), "N")),
                   ==, "12345678901234567890123456789012345678");
  g_assert_cmpstr (json_string_value (json_object_get (
                       json_object_get (json_object_get (response, "Item"), "txt"), "S")),
                   ==, "h\xc3\xa9llo 3");
  json_decref (response);

  g_free (req);
  req = g_strdup_printf ("{\"TableName\": \"%s\", \"KeyConditionExpression\": \"pk = :p AND sk "
                         "BETWEEN :a AND :b\", \"ExpressionAttributeValues\": {\":p\": {\"S\": "
                         "\"a\"}, \":a\": {\"N\": \"2\"}, \":b\": {\"N\": \"4\"}}, "
                         "\"ScanIndexForward\": false}",
                         table);
  expect_ok (client, "Query", req, &response);
  items = json_object_get (response, "Items");
  g_assert_cmpuint (json_array_size (items), ==, 3);
  g_assert_cmpstr (json_string_value (json_object_get (
                       json_object_get (json_array_get (items, 0), "sk"), "N")),
                   ==, "4");
  json_decref (response);

  /* U+0000 in a key and a value, there and back. */
  g_free (req);
  req = g_strdup_printf ("{\"TableName\": \"%s\", \"Item\": {\"pk\": {\"S\": \"n\\u0000\"}, "
                         "\"sk\": {\"N\": \"1\"}, \"txt\": {\"S\": \"x\\u0000y\\u0000\"}}}",
                         table);
  expect_ok (client, "PutItem", req, NULL);
  g_free (req);
  req = g_strdup_printf ("{\"TableName\": \"%s\", \"Key\": {\"pk\": {\"S\": \"n\\u0000\"}, "
                         "\"sk\": {\"N\": \"1\"}}}",
                         table);
  expect_ok (client, "GetItem", req, &response);
  assert_item_s (response, "pk", "n\0", 2);
  assert_item_s (response, "txt", "x\0y\0", 4);
  json_decref (response);

  /* Errors, mapped. */
  g_assert_false (call (client, "GetItem",
                        "{\"TableName\": \"client_test_missing\", \"Key\": {\"pk\": {\"S\": \"a\"}}}",
                        &response, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND);
  json_decref (g_steal_pointer (&response));
  g_clear_error (&error);

  g_free (req);
  req = g_strdup_printf ("{\"TableName\": \"%s\", \"Item\": {\"pk\": {\"S\": \"a\"}, \"sk\": "
                         "{\"N\": \"1\"}}, \"ConditionExpression\": \"attribute_not_exists(pk)\"}",
                         table);
  g_assert_false (call (client, "PutItem", req, &response, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_CONDITIONAL_CHECK_FAILED);
  g_assert_cmpstr (error->message, ==, "The conditional request failed");
  json_decref (g_steal_pointer (&response));
  g_clear_error (&error);

  g_free (req);
  req = g_strdup_printf ("{\"TableName\": \"%s\", \"Item\": {\"pk\": {\"S\": \"a\"}}}", table);
  g_assert_false (call (client, "PutItem", req, &response, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  json_decref (g_steal_pointer (&response));
  g_clear_error (&error);

  g_assert_false (call (client, "Frobnicate", "{}", &response, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_UNKNOWN_OPERATION);
  json_decref (g_steal_pointer (&response));
  g_clear_error (&error);

  g_free (req);
  req = g_strdup_printf ("{\"TableName\": \"%s\"}", table);
  expect_ok (client, "DeleteTable", req, NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_writer_default_set_use_stderr (TRUE);

  g_test_add_func ("/client/crc32", test_crc32);
  g_test_add_func ("/client/retryable-names", test_retryable_names);
  g_test_add_func ("/client/host-header", test_host_header);
  g_test_add_func ("/client/no-region-refused", test_no_region_refused);
  g_test_add_func ("/client/missing-ca-bundle-refused", test_missing_ca_bundle_refused);
  g_test_add_func ("/client/connection-refused-retried", test_connection_refused_retried);

  g_test_add_func ("/client/fault/success-signed-kept-alive", test_success_signed_and_kept_alive);
  g_test_add_func ("/client/fault/empty-answer", test_empty_answer);
  g_test_add_func ("/client/fault/retry-5xx", test_retry_5xx);
  g_test_add_func ("/client/fault/retry-throttling", test_retry_throttling);
  g_test_add_func ("/client/fault/retry-bad-crc32", test_retry_bad_crc32);
  g_test_add_func ("/client/fault/retry-dropped-connection", test_retry_dropped_connection);
  g_test_add_func ("/client/fault/retry-truncated-answer", test_retry_truncated_answer);
  g_test_add_func ("/client/fault/retry-reset-answer", test_retry_reset_answer);
  g_test_add_func ("/client/fault/retry-silent-and-trickling", test_retry_silent_and_trickling);
  g_test_add_func ("/client/fault/attempts-bounded", test_attempts_bounded);
  g_test_add_func ("/client/fault/backoff-capped", test_backoff_capped);
  g_test_add_func ("/client/fault/validation-not-retried", test_validation_not_retried);
  g_test_add_func ("/client/fault/unknown-exception-kept", test_unknown_exception_kept);
  g_test_add_func ("/client/fault/not-found-not-retried", test_not_found_not_retried);
  g_test_add_func ("/client/fault/error-extra-members", test_error_extra_members);
  g_test_add_func ("/client/fault/cancel-during-request", test_cancel_during_request);
  g_test_add_func ("/client/fault/cancel-during-backoff", test_cancel_during_backoff);
  g_test_add_func ("/client/fault/timeout", test_timeout);
  g_test_add_func ("/client/fault/nul-in-answer", test_nul_in_answer);

  g_test_add_func ("/client/tls/verified", test_tls_verified);

  g_test_add_func ("/client/live", test_live);
  return g_test_run ();
}
