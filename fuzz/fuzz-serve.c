/* fuzz-serve.c: libFuzzer target for serve's request handling (server-private.h), the function
 * that turns a request's method, content type, X-Amz-Target and body into serve's answer, with
 * no sockets. The input is three selector bytes and then the body:
 *
 *   byte 0: the method (mostly POST; GET, OPTIONS, PUT, ... otherwise), and in its high bit
 *           whether a signature check runs, refusing (bit 6 set) or accepting
 *   byte 1: the Content-Type (none, the two JSON types DynamoDB takes, with parameters, odd
 *           case and blanks, and types it refuses)
 *   byte 2: the X-Amz-Target: below the number of operations serve knows, "DynamoDB_20120810."
 *           and that operation; then unknown and malformed targets; 255 takes the target from
 *           the body, up to its first newline (a header cannot hold U+0000: cut there)
 *
 * Each input runs on a fresh in-memory database holding a table with a sort key, a GSI and an
 * LSI, and a few items (fuzz-blog.c). Findings: crashes, leaks, undefined behaviour, any HTTP
 * 500 or InternalServerError, no answer at all, and an answer that is not what serve promises
 * (a JSON object body of the type asked in, and an x-amzn-ErrorType beside every 400). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <jansson.h>

#include "core/error.h"
#include "fuzz-blog.h"
#include "server/server-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define TARGET_FROM_BODY 255

static const char *const methods[] = {
  "POST", "POST",    "POST", "POST",   "POST", "POST",  "POST", "POST",
  "GET",  "OPTIONS", "PUT",  "DELETE", "HEAD", "PATCH", "post", "",
};

static const char *const content_types[] = {
  "application/x-amz-json-1.0",
  "application/json",
  NULL,
  "application/x-amz-json-1.0; charset=utf-8",
  "Application/JSON",
  " application/json ; x=y",
  "application/x-amz-json-1.1",
  "application/jsonx",
  "text/plain",
  "",
  ";",
  "application/x-amz-cbor-1.1",
};

/* After the operations serve knows. */
static const char *const odd_targets[] = {
  NULL,
  "",
  "DynamoDB_20120810",
  "DynamoDB_20120810.",
  "DynamoDB_20120810.NoSuchOperation",
  "DynamoDB_20120810.getitem",
  "DynamoDB_20120810.GetItem ",
  "DynamoDB_20120810.GetItem.Extra",
  "DynamoDB_20120810..GetItem",
  "DynamoDB_20120809.GetItem",
  "dynamodb_20120810.GetItem",
  "GetItem",
  "DynamoDBStreams_20120810.GetRecords",
  "DynamoDB_20120810.BatchGetItem\t",
  "DynamoDBStreams_20120810.ListStreams",
  "DynamoDBStreams_20120810.DescribeStream",
  "DynamoDBStreams_20120810.GetShardIterator",
  "DynamoDBStreams_20120810.NoSuchOperation",
};

static gboolean
refuse_all (gpointer user_data, GError **error)
{
  g_set_error_literal (error, DDB_ERROR, DDB_ERROR_UNRECOGNIZED_CLIENT,
                       "The security token included in the request is invalid.");
  return FALSE;
}

static gboolean
accept_all (gpointer user_data, GError **error)
{
  return TRUE;
}

G_GNUC_NORETURN static void
finding (const char *what, const DdbServerRequest *in, const DdbServerReply *reply)
{
  fprintf (stderr, "fuzz-serve: %s: %s %s target %s, %zu body bytes -> %u %s\n%.*s\n", what,
           in->method, in->content_type != NULL ? in->content_type : "(no type)",
           in->target != NULL ? in->target : "(none)", (size_t) in->body_len, reply->status,
           reply->error_type != NULL ? reply->error_type : "", (int) MIN (reply->body_len, 2000),
           reply->body != NULL ? reply->body : "");
  abort ();
}

/* What every answer must be, whatever was asked. */
static void
check_reply (const DdbServerRequest *in, const DdbServerReply *reply)
{
  json_t *body;

  if (reply->status == 0)
    finding ("no answer", in, reply);
  if (reply->status >= 500
      || g_strcmp0 (reply->error_type, ddb_error_type_name (DDB_ERROR_INTERNAL)) == 0)
    finding ("internal error", in, reply);
  if (reply->content_type == NULL)
    {
      /* The health check and the 404 for what is not DynamoDB's protocol: text. */
      if (reply->status != 200 && reply->status != 404)
        finding ("an answer without a type", in, reply);
      return;
    }
  if (strcmp (reply->content_type, "application/json") != 0
      && strcmp (reply->content_type, "application/x-amz-json-1.0") != 0)
    finding ("an answer of another type", in, reply);
  if (reply->status != 200 && reply->status != 400)
    finding ("an unexpected status", in, reply);
  if ((reply->status == 400) != (reply->error_type != NULL))
    finding ("x-amzn-ErrorType on a success, or missing on an error", in, reply);
  if (reply->body == NULL)
    finding ("a JSON answer without a body", in, reply);
  /* TagResource and UntagResource answer 200 with an empty body, as AWS does. */
  if (reply->status == 200 && reply->body_len == 0)
    return;
  body = json_loadb (reply->body, reply->body_len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, NULL);
  if (!json_is_object (body))
    finding ("a body that is not a JSON object", in, reply);
  if (reply->status == 400 && !json_is_string (json_object_get (body, "__type")))
    finding ("an error without __type", in, reply);
  json_decref (body);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *target = NULL;
  gsize n_operations;
  const char *const *operations = ddb_server_operations (&n_operations);
  DdbServerRequest in = { 0 };
  DdbServerReply reply;
  DdbEngine *engine;
  guint selector;

  if (size < 3)
    return 0;
  in.method = methods[data[0] % G_N_ELEMENTS (methods)];
  if (data[0] & 0x80)
    in.verify = data[0] & 0x40 ? refuse_all : accept_all;
  in.content_type = content_types[data[1] % G_N_ELEMENTS (content_types)];
  in.body = data + 3;
  in.body_len = size - 3;
  selector = data[2];
  if (selector == TARGET_FROM_BODY)
    {
      const guint8 *nl = memchr (in.body, '\n', in.body_len);
      gsize len = nl != NULL ? (gsize) (nl - in.body) : in.body_len;

      target = g_strndup ((const char *) in.body, len);
      in.body += nl != NULL ? len + 1 : len;
      in.body_len -= nl != NULL ? len + 1 : len;
    }
  else if (selector < n_operations)
    target = g_strconcat ("DynamoDB_20120810.", operations[selector], NULL);
  else
    target = g_strdup (odd_targets[(selector - n_operations) % G_N_ELEMENTS (odd_targets)]);
  in.target = target;

  engine = fuzz_blog_engine_new ();
  ddb_server_handle (engine, &in, &reply);
  check_reply (&in, &reply);
  ddb_server_reply_clear (&reply);
  ddb_engine_free (engine);
  return 0;
}
