/* server.c: the local endpoint: HTTP requests (libmicrohttpd, one thread per connection: an
 * operation that waits, for the write lock or an fsync, holds up no other client; a thread pool
 * over epoll measured no better within this machine's noise) carrying
 * DynamoDB's JSON 1.0 protocol, answered by the engine with DynamoDB's headers, checks and errors
 * in DynamoDB's order (method and content type, JSON, target, signature, operation). How many
 * connections it takes, how long each has for a request and the bodies held at once are
 * server-guard.c's. */
#include "server/server.h"
#include "server/server-guard.h"
#include "server/server-private.h"

#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include "core/error.h"
#include "net/hash.h"
#include "net/sigv4.h"

/* DynamoDB refuses bodies over 16 MiB with 413 (a BatchWriteItem tops out well below). */
#define MAX_REQUEST_BYTES (16 * 1024 * 1024)
#define API_VERSION "DynamoDB_20120810"
#define HEALTH_BODY "healthy: dynamodb.us-east-1.amazonaws.com "
#define NOT_FOUND_BODY "<UnknownOperationException/>\n"
/* Each connection's memory (libmicrohttpd's pool): its request's headers, its read buffer. */
#define CONNECTION_POOL_BYTES (36 * 1024)

static char empty_body[1];

struct _DdbServer {
  DdbEngine *engine;
  GHashTable *keys; /* access key id -> secret; immutable once started */
  GHashTable *tokens; /* access key id -> the session token it must come with */
  struct MHD_Daemon *daemon;
  DdbGuard *guard; /* while the daemon runs */
  int listen_fd; /* after quiescing; closed after the daemon stops */
  guint16 port;

  GMutex lock; /* with `idle`: the shutdown waiting for in_flight to drop to 0 */
  GCond idle;
  gint in_flight; /* atomic: requests begun (request line read) and not yet completed */
  gint stopping;  /* atomic */
};

typedef struct {
  char *uri; /* the request target exactly as received */
  GByteArray *body;
  gsize kept; /* of the body, the bytes counted by the guard */
  gboolean started;
  gboolean too_large;
  gboolean over_budget; /* the bodies held at once would have passed the guard's budget */
} Request;

/* Every operation of DynamoDB's 2012-08-10 API, sorted for bsearch. A target naming anything
 * else is refused before authentication, as DynamoDB does; one named here that the engine lacks
 * gets the engine's UnknownOperationException. */
static const char *const api_operations[] = {
  "BatchExecuteStatement",
  "BatchGetItem",
  "BatchWriteItem",
  "CreateBackup",
  "CreateGlobalTable",
  "CreateTable",
  "DeleteBackup",
  "DeleteItem",
  "DeleteResourcePolicy",
  "DeleteTable",
  "DescribeBackup",
  "DescribeContinuousBackups",
  "DescribeContributorInsights",
  "DescribeEndpoints",
  "DescribeExport",
  "DescribeGlobalTable",
  "DescribeGlobalTableSettings",
  "DescribeImport",
  "DescribeKinesisStreamingDestination",
  "DescribeLimits",
  "DescribeTable",
  "DescribeTableReplicaAutoScaling",
  "DescribeTimeToLive",
  "DisableKinesisStreamingDestination",
  "EnableKinesisStreamingDestination",
  "ExecuteStatement",
  "ExecuteTransaction",
  "ExportTableToPointInTime",
  "GetItem",
  "GetResourcePolicy",
  "ImportTable",
  "ListBackups",
  "ListContributorInsights",
  "ListExports",
  "ListGlobalTables",
  "ListImports",
  "ListTables",
  "ListTagsOfResource",
  "PutItem",
  "PutResourcePolicy",
  "Query",
  "RestoreTableFromBackup",
  "RestoreTableToPointInTime",
  "Scan",
  "TagResource",
  "TransactGetItems",
  "TransactWriteItems",
  "UntagResource",
  "UpdateContinuousBackups",
  "UpdateContributorInsights",
  "UpdateGlobalTable",
  "UpdateGlobalTableSettings",
  "UpdateItem",
  "UpdateKinesisStreamingDestination",
  "UpdateTable",
  "UpdateTableReplicaAutoScaling",
  "UpdateTimeToLive",
};

const char *const *
ddb_server_operations (gsize *n_operations)
{
  *n_operations = G_N_ELEMENTS (api_operations);
  return api_operations;
}

/* The DynamoDB Streams API (its own target prefix), sorted; the engine knows these under the
 * whole target ("DynamoDBStreams_20120810.GetRecords"). */
#define STREAMS_API_VERSION "DynamoDBStreams_20120810"
static const char *const streams_operations[] = {
  "DescribeStream",
  "GetRecords",
  "GetShardIterator",
  "ListStreams",
};

static int
compare_name (const void *key, const void *elem)
{
  return strcmp (key, *(const char *const *) elem);
}

static gboolean
is_api_operation (const char *name)
{
  return bsearch (name, api_operations, G_N_ELEMENTS (api_operations), sizeof api_operations[0],
                  compare_name)
         != NULL;
}

/* DynamoDB's request ids: 52 characters of [0-9A-Z]. They only need to differ, not to be
 * unpredictable: a generator per connection thread (xorshift64*, seeded once from GLib's) spares
 * every answer 52 trips through GLib's one locked generator, which all threads contend for. */
static void
make_request_id (char out[53])
{
  static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  static __thread guint64 state;

  if (state == 0)
    state = ((guint64) g_random_int () << 32 | g_random_int ()) | 1;
  for (int i = 0; i < 52;)
    {
      guint64 r;

      state ^= state >> 12;
      state ^= state << 25;
      state ^= state >> 27;
      r = state * G_GUINT64_CONSTANT (2685821657736338717);
      /* 12 base-36 digits from each 64-bit draw (36^12 < 2^64). */
      for (int k = 0; k < 12 && i < 52; k++, i++, r /= 36)
        out[i] = alphabet[r % 36];
    }
  out[52] = '\0';
}

/* The guard's record of CONNECTION (NULL before it is known). */
static DdbGuardConn *
guard_conn (struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info
      = MHD_get_connection_info (connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

  return info != NULL ? info->socket_context : NULL;
}

/* Frees the body read so far (nothing more will be kept). */
static void
request_drop_body (Request *req, DdbGuardConn *conn)
{
  if (req->kept > 0 && conn != NULL)
    ddb_guard_drop_body (conn, req->kept);
  req->kept = 0;
  g_clear_pointer (&req->body, g_byte_array_unref);
}

static void
request_free (Request *req, DdbGuardConn *conn)
{
  if (req == NULL)
    return;
  ddb_secret_free (req->uri); /* a presigned request's may hold a session token */
  request_drop_body (req, conn);
  g_free (req);
}

static void
on_connection (void *cls, struct MHD_Connection *connection, void **socket_context,
               enum MHD_ConnectionNotificationCode toe)
{
  DdbServer *server = cls;

  if (toe == MHD_CONNECTION_NOTIFY_STARTED)
    {
      const union MHD_ConnectionInfo *info
          = MHD_get_connection_info (connection, MHD_CONNECTION_INFO_CONNECTION_FD);

      *socket_context = ddb_guard_open (server->guard, info->connect_fd);
    }
  else
    {
      /* Before libmicrohttpd closes the socket. */
      ddb_guard_close (*socket_context);
      *socket_context = NULL;
    }
}

static void *
on_uri (void *cls, const char *uri, struct MHD_Connection *connection)
{
  DdbServer *server = cls;
  Request *req = g_new0 (Request, 1);

  req->uri = g_strdup (uri);
  g_atomic_int_inc (&server->in_flight);
  return req;
}

static void
on_completed (void *cls, struct MHD_Connection *connection, void **req_cls,
              enum MHD_RequestTerminationCode toe)
{
  DdbServer *server = cls;
  DdbGuardConn *conn = guard_conn (connection);

  if (conn != NULL)
    ddb_guard_ready (conn);
  if (*req_cls == NULL)
    return;
  request_free (*req_cls, conn);
  *req_cls = NULL;
  /* Only a shutdown waits for the count (it sets `stopping` before it looks at the count), so
   * requests take no lock while the server runs. */
  if (g_atomic_int_dec_and_test (&server->in_flight) && g_atomic_int_get (&server->stopping))
    {
      g_mutex_lock (&server->lock);
      g_cond_broadcast (&server->idle);
      g_mutex_unlock (&server->lock);
    }
}

static void on_mhd_log (void *cls, const char *fmt, va_list ap) G_GNUC_PRINTF (2, 0);

static void
on_mhd_log (void *cls, const char *fmt, va_list ap)
{
  char *text = g_strdup_vprintf (fmt, ap);

  /* libmicrohttpd's own messages (a client hanging up, out of sockets): never request contents. */
  g_debug ("libmicrohttpd: %s", g_strchomp (text));
  g_free (text);
}

static void
add_header (struct MHD_Response *response, const char *name, const char *value)
{
  if (MHD_add_response_header (response, name, value) == MHD_NO)
    g_warning ("could not add the response header %s", name);
}

/* Sends `body` (taken, g_malloc'd) with the headers every answer carries. */
static enum MHD_Result
send_body (struct MHD_Connection *connection, guint status, char *body, gsize len,
           const char *content_type, const char *error_type)
{
  DdbGuardConn *conn = guard_conn (connection);
  struct MHD_Response *response;
  enum MHD_Result ret;
  char request_id[53];
  char crc[16];

  if (body != NULL)
    response = MHD_create_response_from_buffer_with_free_callback (len, body, g_free);
  else
    response = MHD_create_response_from_buffer (0, empty_body, MHD_RESPMEM_PERSISTENT);
  if (response == NULL)
    {
      g_free (body);
      return MHD_NO;
    }
  make_request_id (request_id);
  add_header (response, "x-amzn-RequestId", request_id);
  if (body != NULL)
    {
      g_snprintf (crc, sizeof crc, "%lu", crc32 (0L, (const Bytef *) body, (uInt) len));
      add_header (response, "x-amz-crc32", crc);
    }
  if (content_type != NULL)
    add_header (response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
  if (error_type != NULL)
    add_header (response, "x-amzn-ErrorType", error_type);
  if (MHD_lookup_connection_value (connection, MHD_HEADER_KIND, "Origin") != NULL)
    add_header (response, "Access-Control-Allow-Origin", "*");
  /* A refusal answers before the body is read. */
  if (status == MHD_HTTP_CONTENT_TOO_LARGE || status == MHD_HTTP_SERVICE_UNAVAILABLE)
    add_header (response, MHD_HTTP_HEADER_CONNECTION, "close");
  if (conn != NULL)
    ddb_guard_sending (conn, len);
  ret = MHD_queue_response (connection, status, response);
  MHD_destroy_response (response);
  return ret;
}

/* JSON text exactly as json_dumps (…, JSON_COMPACT) writes it, into one growing buffer: jansson's
 * dumper goes through a callback per fragment and escapes character by character, which made it
 * the largest cost of answering a 100-item Query. */
static void
dump_string (GString *out, const char *str, gsize len)
{
  const char *end = str + len;
  const char *run = str;

  g_string_append_c (out, '"');
  for (const char *p = str; p < end; p++)
    {
      guchar c = (guchar) *p;
      char seq[8];
      const char *text;

      if (c >= 0x20 && c != '"' && c != '\\')
        continue;
      g_string_append_len (out, run, p - run);
      run = p + 1;
      switch (c)
        {
        case '"': text = "\\\""; break;
        case '\\': text = "\\\\"; break;
        case '\b': text = "\\b"; break;
        case '\f': text = "\\f"; break;
        case '\n': text = "\\n"; break;
        case '\r': text = "\\r"; break;
        case '\t': text = "\\t"; break;
        default:
          g_snprintf (seq, sizeof seq, "\\u%04X", (guint) c);
          text = seq;
          break;
        }
      g_string_append (out, text);
    }
  g_string_append_len (out, run, end - run);
  g_string_append_c (out, '"');
}

static gboolean
dump_json (GString *out, json_t *json)
{
  switch (json_typeof (json))
    {
    case JSON_OBJECT:
      {
        const char *key;
        json_t *value;
        gboolean first = TRUE;

        g_string_append_c (out, '{');
        json_object_foreach (json, key, value)
          {
            if (!first)
              g_string_append_c (out, ',');
            first = FALSE;
            dump_string (out, key, strlen (key));
            g_string_append_c (out, ':');
            if (!dump_json (out, value))
              return FALSE;
          }
        g_string_append_c (out, '}');
        return TRUE;
      }
    case JSON_ARRAY:
      g_string_append_c (out, '[');
      for (gsize i = 0; i < json_array_size (json); i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          if (!dump_json (out, json_array_get (json, i)))
            return FALSE;
        }
      g_string_append_c (out, ']');
      return TRUE;
    case JSON_STRING:
      dump_string (out, json_string_value (json), json_string_length (json));
      return TRUE;
    case JSON_INTEGER:
      g_string_append_printf (out, "%" JSON_INTEGER_FORMAT, json_integer_value (json));
      return TRUE;
    case JSON_TRUE:
      g_string_append (out, "true");
      return TRUE;
    case JSON_FALSE:
      g_string_append (out, "false");
      return TRUE;
    case JSON_NULL:
      g_string_append (out, "null");
      return TRUE;
    case JSON_REAL:
    default:
      {
        /* Rare (consumed capacity): jansson's own formatting of doubles. */
        char *text = json_dumps (json, JSON_COMPACT | JSON_ENCODE_ANY);

        if (text == NULL)
          return FALSE;
        g_string_append (out, text);
        free (text);
        return TRUE;
      }
    }
}

static void
reply_json (DdbServerReply *reply, guint status, json_t *json, const char *content_type,
            const char *error_type)
{
  GString *text = g_string_sized_new (256);

  if (!dump_json (text, json))
    {
      g_string_free (text, TRUE);
      reply->status = 0;
      return;
    }
  reply->status = status;
  reply->body_len = text->len;
  reply->body = g_string_free (text, FALSE);
  reply->content_type = content_type;
  reply->error_type = error_type;
}

/* An error DynamoDB sends without a message: {"__type": "..."}. */
static void
reply_bare_error (DdbServerReply *reply, DdbErrorCode code, const char *content_type)
{
  json_t *body = json_pack ("{ss}", "__type", ddb_error_type_full (code));

  reply_json (reply, MHD_HTTP_BAD_REQUEST, body, content_type, ddb_error_type_name (code));
  json_decref (body);
}

static void
reply_error (DdbServerReply *reply, const GError *error, json_t *extra, const char *content_type)
{
  DdbErrorCode code = error->domain == DDB_ERROR ? (DdbErrorCode) error->code : DDB_ERROR_INTERNAL;
  json_t *body = ddb_engine_error_body (error, extra);
  guint status = code == DDB_ERROR_INTERNAL ? MHD_HTTP_INTERNAL_SERVER_ERROR : MHD_HTTP_BAD_REQUEST;

  reply_json (reply, status, body, content_type, ddb_error_type_name (code));
  json_decref (body);
}

static void
reply_text (DdbServerReply *reply, guint status, const char *text)
{
  reply->status = status;
  reply->body = g_strdup (text);
  reply->body_len = strlen (text);
}

void
ddb_server_reply_clear (DdbServerReply *reply)
{
  g_clear_pointer (&reply->body, g_free);
  memset (reply, 0, sizeof *reply);
}

static enum MHD_Result
send_cors_preflight (struct MHD_Connection *connection)
{
  DdbGuardConn *conn = guard_conn (connection);
  struct MHD_Response *response
      = MHD_create_response_from_buffer (0, empty_body, MHD_RESPMEM_PERSISTENT);
  const char *headers = MHD_lookup_connection_value (connection, MHD_HEADER_KIND,
                                                     "Access-Control-Request-Headers");
  const char *methods = MHD_lookup_connection_value (connection, MHD_HEADER_KIND,
                                                     "Access-Control-Request-Method");
  char request_id[53];
  enum MHD_Result ret;

  if (response == NULL)
    return MHD_NO;
  make_request_id (request_id);
  add_header (response, "x-amzn-RequestId", request_id);
  add_header (response, "Access-Control-Allow-Origin", "*");
  if (headers != NULL)
    add_header (response, "Access-Control-Allow-Headers", headers);
  if (methods != NULL)
    add_header (response, "Access-Control-Allow-Methods", methods);
  add_header (response, "Access-Control-Max-Age", "172800");
  if (conn != NULL)
    ddb_guard_sending (conn, 0);
  ret = MHD_queue_response (connection, MHD_HTTP_OK, response);
  MHD_destroy_response (response);
  return ret;
}

/* The media type without parameters or blanks, compared as media types are: case-insensitively. */
static gboolean
media_type_is (const char *content_type, const char *wanted)
{
  const char *start = content_type;
  const char *end;

  while (*start == ' ' || *start == '\t')
    start++;
  end = start + strcspn (start, ";");
  while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  return (gsize) (end - start) == strlen (wanted)
         && g_ascii_strncasecmp (start, wanted, end - start) == 0;
}

static enum MHD_Result
collect_header (void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
  GArray *headers = cls;
  DdbHttpHeader header = { key, value != NULL ? value : "" };

  g_array_append_val (headers, header);
  return MHD_YES;
}

static const char *
lookup_secret (const char *access_key_id, gpointer user_data)
{
  DdbServer *server = user_data;

  return g_hash_table_lookup (server->keys, access_key_id);
}

/* A == B, in a time that does not depend on where they differ. */
static gboolean
same_secret (const char *a, const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  guchar diff = la != lb;

  for (gsize i = 0; i < la; i++)
    diff |= (guchar) a[i] ^ (guchar) b[i % (lb > 0 ? lb : 1)];
  return diff == 0 && la == lb;
}

static gboolean
verify_signature (DdbServer *server, struct MHD_Connection *connection, const char *method,
                  Request *req, GError **error)
{
  GArray *headers = g_array_new (FALSE, FALSE, sizeof (DdbHttpHeader));
  const char *query = strchr (req->uri, '?');
  char *path = g_strndup (req->uri, query != NULL ? (gsize) (query - req->uri) : strlen (req->uri));
  DdbHttpRequest http = { 0 };
  DdbSigv4VerifyParams params = { 0 };
  char *signer = NULL;
  gboolean ok;

  MHD_get_connection_values (connection, MHD_HEADER_KIND, collect_header, headers);
  http.method = method;
  http.path = path;
  http.query = query != NULL ? query + 1 : NULL;
  http.headers = (const DdbHttpHeader *) (gpointer) headers->data;
  http.n_headers = headers->len;
  http.body = req->body != NULL ? req->body->data : NULL;
  http.body_len = req->body != NULL ? req->body->len : 0;
  params.region = NULL;
  params.service = "dynamodb";
  params.now = g_get_real_time () / G_USEC_PER_SEC;
  params.max_skew = 900;
  params.lookup = lookup_secret;
  params.user_data = server;
  ok = ddb_sigv4_verify (&http, &params, &signer, error);
  if (ok)
    {
      const char *wanted = g_hash_table_lookup (server->tokens, signer);
      /* The header's, or a presigned request's query parameter. */
      char *given = ddb_sigv4_session_token (&http);

      if (wanted != NULL && (given == NULL || !same_secret (wanted, given)))
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_UNRECOGNIZED_CLIENT,
                               "The security token included in the request is invalid.");
          ok = FALSE;
        }
      ddb_secret_free (given);
    }
  g_free (signer);
  g_free (path);
  g_array_unref (headers);
  return ok;
}

void
ddb_server_handle (DdbEngine *engine, const DdbServerRequest *in, DdbServerReply *reply)
{
  const char *content_type = in->content_type;
  const char *target = in->target;
  const char *reply_type;
  const char *operation = NULL;
  gsize body_len = in->body_len;
  json_t *request = NULL;
  json_t *response = NULL;
  GError *error = NULL;

  memset (reply, 0, sizeof *reply);
  if (strcmp (in->method, MHD_HTTP_METHOD_GET) == 0)
    {
      reply_text (reply, MHD_HTTP_OK, HEALTH_BODY);
      return;
    }
  if (strcmp (in->method, MHD_HTTP_METHOD_POST) != 0
      || (body_len > 0
          && (content_type == NULL
              || (!media_type_is (content_type, "application/json")
                  && !media_type_is (content_type, "application/x-amz-json-1.0")))))
    {
      reply_text (reply, MHD_HTTP_NOT_FOUND, NOT_FOUND_BODY);
      return;
    }

  /* Answers come in the flavour of JSON asked in. */
  reply_type = content_type != NULL && media_type_is (content_type, "application/x-amz-json-1.0")
                   ? "application/x-amz-json-1.0"
                   : "application/json";

  if (body_len > 0)
    {
      json_error_t jerr;

      request = json_loadb ((const char *) in->body, body_len,
                            JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
      if (request == NULL)
        {
          reply_bare_error (reply, DDB_ERROR_SERIALIZATION, reply_type);
          return;
        }
    }

  if (target != NULL && g_str_has_prefix (target, API_VERSION ".")
      && is_api_operation (target + strlen (API_VERSION ".")))
    operation = target + strlen (API_VERSION ".");
  if (target != NULL && g_str_has_prefix (target, STREAMS_API_VERSION ".")
      && bsearch (target + strlen (STREAMS_API_VERSION "."), streams_operations,
                  G_N_ELEMENTS (streams_operations), sizeof streams_operations[0], compare_name)
             != NULL)
    operation = target;
  if (operation == NULL)
    {
      reply_bare_error (reply, DDB_ERROR_UNKNOWN_OPERATION, reply_type);
      goto out;
    }

  if (in->verify != NULL && !in->verify (in->verify_data, &error))
    {
      reply_error (reply, error, NULL, reply_type);
      goto out;
    }

  if (request == NULL)
    {
      reply_bare_error (reply, DDB_ERROR_SERIALIZATION, reply_type);
      goto out;
    }

  /* The endpoint is the one the client reached, under the Host it gave; AWS keeps its
   * answer for a day (CachePeriodInMinutes 1440). The engine knows no address, so serve
   * answers this one itself. */
  if (strcmp (operation, "DescribeEndpoints") == 0)
    {
      response = json_pack ("{s[{sssi}]}", "Endpoints", "Address",
                            in->host != NULL && in->host[0] != '\0' ? in->host : "localhost",
                            "CachePeriodInMinutes", 1440);
      reply_json (reply, MHD_HTTP_OK, response, reply_type, NULL);
    }
  else if (ddb_engine_call (engine, operation, request, &response, &error))
    {
      /* As AWS answers them: 200 and no body at all. */
      if (strcmp (operation, "TagResource") == 0 || strcmp (operation, "UntagResource") == 0)
        {
          reply->status = MHD_HTTP_OK;
          reply->body = g_strdup ("");
          reply->content_type = reply_type;
        }
      else
        reply_json (reply, MHD_HTTP_OK, response, reply_type, NULL);
    }
  else
    reply_error (reply, error, response, reply_type);

out:
  g_clear_error (&error);
  g_clear_pointer (&response, json_decref);
  g_clear_pointer (&request, json_decref);
}

typedef struct {
  DdbServer *server;
  struct MHD_Connection *connection;
  const char *method;
  Request *req;
} Signed;

static gboolean
verify_connection (gpointer user_data, GError **error)
{
  Signed *s = user_data;

  return verify_signature (s->server, s->connection, s->method, s->req, error);
}

static enum MHD_Result
answer (DdbServer *server, struct MHD_Connection *connection, const char *method, Request *req)
{
  Signed signed_by = { server, connection, method, req };
  DdbServerRequest in = { 0 };
  DdbServerReply reply;
  enum MHD_Result ret;

  if (strcmp (method, MHD_HTTP_METHOD_OPTIONS) == 0
      && MHD_lookup_connection_value (connection, MHD_HEADER_KIND, "Origin") != NULL)
    return send_cors_preflight (connection);
  in.method = method;
  in.content_type
      = MHD_lookup_connection_value (connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
  in.target = MHD_lookup_connection_value (connection, MHD_HEADER_KIND, "X-Amz-Target");
  in.host = MHD_lookup_connection_value (connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
  in.body = req->body != NULL ? req->body->data : NULL;
  in.body_len = req->body != NULL ? req->body->len : 0;
  if (g_hash_table_size (server->keys) > 0)
    {
      in.verify = verify_connection;
      in.verify_data = &signed_by;
    }
  ddb_server_handle (server->engine, &in, &reply);
  if (reply.status == 0)
    return MHD_NO;
  ret = send_body (connection, reply.status, g_steal_pointer (&reply.body), reply.body_len,
                   reply.content_type, reply.error_type);
  ddb_server_reply_clear (&reply);
  return ret;
}

static enum MHD_Result
on_request (void *cls, struct MHD_Connection *connection, const char *url, const char *method,
            const char *version, const char *upload_data, size_t *upload_data_size,
            void **req_cls)
{
  DdbServer *server = cls;
  DdbGuardConn *conn = guard_conn (connection);
  Request *req = *req_cls;

  if (req == NULL || conn == NULL)
    return MHD_NO;
  if (!req->started)
    {
      const char *length = MHD_lookup_connection_value (connection, MHD_HEADER_KIND,
                                                        MHD_HTTP_HEADER_CONTENT_LENGTH);
      guint64 declared = length != NULL ? g_ascii_strtoull (length, NULL, 10) : 0;

      req->started = TRUE;
      /* Shutting down: requests begun before are answered, later ones are not taken (the
       * connection closes without an answer, so nothing is acknowledged). */
      if (g_atomic_int_get (&server->stopping))
        return MHD_NO;
      if (declared > MAX_REQUEST_BYTES)
        return send_body (connection, MHD_HTTP_CONTENT_TOO_LARGE, NULL, 0, NULL, NULL);
      /* A body that would not fit beside the ones held now is refused before it is sent (503:
       * SDKs try again). */
      if (!ddb_guard_body_fits (conn, declared))
        return send_body (connection, MHD_HTTP_SERVICE_UNAVAILABLE, NULL, 0, NULL, NULL);
      return MHD_YES;
    }
  if (*upload_data_size > 0)
    {
      gsize n = *upload_data_size;
      gboolean keep = !req->too_large && !req->over_budget;

      if (keep && req->kept + n > MAX_REQUEST_BYTES)
        {
          req->too_large = TRUE;
          keep = FALSE;
        }
      /* Counted even when dropped: the body's bytes extend its deadline. */
      if (!ddb_guard_body (conn, n, keep) && keep)
        {
          req->over_budget = TRUE;
          keep = FALSE;
        }
      if (keep)
        {
          if (req->body == NULL)
            req->body = g_byte_array_new ();
          g_byte_array_append (req->body, (const guint8 *) upload_data, (guint) n);
          req->kept += n;
        }
      else
        request_drop_body (req, conn);
      *upload_data_size = 0;
      return MHD_YES;
    }
  if (req->too_large)
    return send_body (connection, MHD_HTTP_CONTENT_TOO_LARGE, NULL, 0, NULL, NULL);
  if (req->over_budget)
    return send_body (connection, MHD_HTTP_SERVICE_UNAVAILABLE, NULL, 0, NULL, NULL);
  ddb_guard_answering (conn);
  return answer (server, connection, method, req);
}

static void
wipe_free (gpointer secret)
{
  explicit_bzero (secret, strlen (secret));
  g_free (secret);
}

DdbServer *
ddb_server_new (DdbEngine *engine)
{
  DdbServer *server = g_new0 (DdbServer, 1);

  server->engine = engine;
  server->listen_fd = -1;
  server->keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  server->tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, wipe_free);
  g_mutex_init (&server->lock);
  g_cond_init (&server->idle);
  return server;
}

void
ddb_server_add_key (DdbServer *server, const char *access_key_id, const char *secret)
{
  char *old;

  g_return_if_fail (server->daemon == NULL);
  old = g_hash_table_lookup (server->keys, access_key_id);
  if (old != NULL)
    explicit_bzero (old, strlen (old));
  g_hash_table_insert (server->keys, g_strdup (access_key_id), g_strdup (secret));
  g_hash_table_remove (server->tokens, access_key_id);
}

void
ddb_server_add_temporary_key (DdbServer *server, const char *access_key_id, const char *secret,
                              const char *session_token)
{
  ddb_server_add_key (server, access_key_id, secret);
  if (session_token != NULL)
    g_hash_table_insert (server->tokens, g_strdup (access_key_id), g_strdup (session_token));
}

static gboolean
resolve_host (const char *host, guint16 port, struct sockaddr_storage *addr, socklen_t *addr_len,
              GError **error)
{
  struct addrinfo hints = { 0 };
  struct addrinfo *res = NULL;
  char service[8];
  int rc;

  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  g_snprintf (service, sizeof service, "%u", (guint) port);
  rc = getaddrinfo (host, service, &hints, &res);
  if (rc != 0 || res == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "cannot resolve host “%s”: %s",
                   host, gai_strerror (rc));
      return FALSE;
    }
  memcpy (addr, res->ai_addr, res->ai_addrlen);
  *addr_len = res->ai_addrlen;
  freeaddrinfo (res);
  return TRUE;
}

gboolean
ddb_server_start (DdbServer *server, const char *host, guint16 port, GError **error)
{
  struct sockaddr_storage addr = { 0 };
  socklen_t addr_len = 0;
  const union MHD_DaemonInfo *info;
  guint max_connections;
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION
                       | MHD_USE_POLL | MHD_USE_ITC;

  g_return_val_if_fail (server->daemon == NULL, FALSE);
  if (!resolve_host (host != NULL ? host : "127.0.0.1", port, &addr, &addr_len, error))
    return FALSE;
  if (addr.ss_family == AF_INET6)
    flags |= MHD_USE_IPv6;
  /* Past it libmicrohttpd closes a connection as soon as it has accepted it. Below the file
   * descriptor limit: at EMFILE, with a thread per connection, it would poll the listening
   * socket in a busy loop. */
  max_connections = ddb_guard_connection_limit ();
  server->guard = ddb_guard_new ();
  /* The connection timeout closes a connection that has sent or read nothing for that long;
   * the guard, one that sends its request or reads its answer too slowly. A request's headers
   * must fit in the connection's memory pool, else libmicrohttpd answers 431. A pool of 32 KiB
   * (the default) comes from malloc, whose heap kept most of a thousand closed connections'
   * (30 MB); a larger one is mapped of its own and given back whole. */
  server->daemon = MHD_start_daemon (
      flags, port, NULL, NULL, on_request, server, MHD_OPTION_SOCK_ADDR, &addr,
      MHD_OPTION_URI_LOG_CALLBACK, on_uri, server, MHD_OPTION_NOTIFY_COMPLETED, on_completed,
      server, MHD_OPTION_NOTIFY_CONNECTION, on_connection, server,
      MHD_OPTION_CONNECTION_LIMIT, (unsigned int) max_connections,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) CONNECTION_POOL_BYTES,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) DDB_GUARD_TIMEOUT_S,
      MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, NULL, MHD_OPTION_END);
  if (server->daemon == NULL)
    {
      int saved = errno;

      g_clear_pointer (&server->guard, ddb_guard_free);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "cannot listen on %s port %u: %s",
                   host != NULL ? host : "127.0.0.1", (guint) port,
                   saved != 0 ? g_strerror (saved) : "libmicrohttpd failed to start");
      return FALSE;
    }
  info = MHD_get_daemon_info (server->daemon, MHD_DAEMON_INFO_BIND_PORT);
  server->port = info != NULL ? info->port : port;
  return TRUE;
}

guint16
ddb_server_get_port (DdbServer *server)
{
  return server->port;
}

void
ddb_server_shutdown (DdbServer *server, guint wait_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) wait_ms * 1000;
  MHD_socket fd;

  if (server->daemon == NULL)
    return;
  g_atomic_int_set (&server->stopping, 1);
  fd = MHD_quiesce_daemon (server->daemon);
  if (fd != MHD_INVALID_SOCKET)
    server->listen_fd = fd;

  g_mutex_lock (&server->lock);
  while (g_atomic_int_get (&server->in_flight) > 0)
    if (!g_cond_wait_until (&server->idle, &server->lock, deadline))
      break;
  g_mutex_unlock (&server->lock);

  /* Joins every connection thread: an operation still running finishes (and commits) first. */
  MHD_stop_daemon (server->daemon);
  server->daemon = NULL;
  g_clear_pointer (&server->guard, ddb_guard_free);
  if (server->listen_fd >= 0)
    close (server->listen_fd);
  server->listen_fd = -1;
}

static void
wipe_secret (gpointer key, gpointer value, gpointer user_data)
{
  explicit_bzero (value, strlen (value));
  g_free (value);
}

void
ddb_server_free (DdbServer *server)
{
  if (server == NULL)
    return;
  ddb_server_shutdown (server, 10000);
  g_hash_table_foreach (server->keys, wipe_secret, NULL);
  g_hash_table_unref (server->keys);
  g_hash_table_unref (server->tokens);
  g_mutex_clear (&server->lock);
  g_cond_clear (&server->idle);
  g_free (server);
}
