/* fuzz-answer.c: libFuzzer target for the DynamoDB client's reading of an HTTP answer
 * (ddb_client_read_answer, net/client-private.h): everything the client does once the answer
 * came, without a transport. Each input is a raw HTTP/1.1 answer: a status line ("HTTP/1.1 400
 * Bad Request": the status is the digits after the first blank), header lines kept as the
 * transport keeps them (name lower-cased and stripped, value stripped, the last of a name wins,
 * a line without ':' dropped, a new status line starts afresh), an empty line, the body. An
 * x-amz-crc32 of "@" is replaced by the body's CRC32, so that answers with a matching checksum
 * are reached.
 *
 * The answer must end as exactly one of (anything else aborts):
 * - a retry with DDB_HTTP_ERROR_IO when x-amz-crc32 is there and is not the body's CRC32 (as
 *   Python's int() reads it: an optional sign, decimal digits with single '_' between them),
 *   whatever the status;
 * - for a 200 with a matching (or no) checksum: success with a JSON object (the body as jansson
 *   reads it, an empty object for no body), or, when the body is not a JSON object, a final
 *   DDB_HTTP_ERROR_FAILED (the client's "not a JSON object" and "U+0000 in a key" failures);
 * - for any other status: a DynamoDB error (DDB_ERROR) with a non-empty UTF-8 message and a
 *   JSON object of the error's other members, retried exactly when the SDKs retry its name at
 *   that status, the name being the one the client reports for it (ddb_client_error_name).
 * Never a success without a JSON object, never an error with a success, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "net/client-private.h"
#include "net/client.h"

#include "fuzz-gslice.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define ENDPOINT "https://dynamodb.us-east-1.amazonaws.com"

static char *
next_line (const char **p, const char *end)
{
  const char *eol = memchr (*p, '\n', (gsize) (end - *p));
  gsize n = eol != NULL ? (gsize) (eol - *p) : (gsize) (end - *p);
  char *line = g_strndup (*p, n > 0 && (*p)[n - 1] == '\r' ? n - 1 : n);

  *p = eol != NULL ? eol + 1 : end;
  return line;
}

/* The status: the digits after the status line's first blank, 0 if none; saturated. */
static guint
parse_status (const char *line)
{
  const char *p = strchr (line, ' ');
  guint64 v = 0;

  if (p == NULL)
    return 0;
  while (*p == ' ')
    p++;
  for (; g_ascii_isdigit (*p); p++)
    v = MIN (v * 10 + (guint64) (*p - '0'), (guint64) G_MAXUINT);
  return (guint) v;
}

static void
parse_answer (const char *text, gsize len, DdbHttpResponse *resp)
{
  const char *p = text, *end = text + len;
  char *line = next_line (&p, end);

  resp->status = parse_status (line);
  g_free (line);
  resp->headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  while (p < end)
    {
      const char *start = p;
      char *colon;

      line = next_line (&p, end);
      if (start[0] == '\n' || (start[0] == '\r' && start + 1 < end && start[1] == '\n'))
        {
          g_free (line);
          break;
        }
      /* As http.c's on_header: a new status line (100 Continue) starts afresh. */
      if (g_str_has_prefix (line, "HTTP/"))
        {
          g_hash_table_remove_all (resp->headers);
          resp->status = parse_status (line);
        }
      else if ((colon = strchr (line, ':')) != NULL)
        {
          char *name = g_ascii_strdown (line, colon - line);
          char *value = g_strdup (colon + 1);

          g_strstrip (name);
          g_strstrip (value);
          g_hash_table_replace (resp->headers, name, value);
        }
      g_free (line);
    }
  resp->body = g_bytes_new (p, (gsize) (end - p));
  {
    const char *crc = g_hash_table_lookup (resp->headers, "x-amz-crc32");
    gsize blen = 0;
    const guint8 *b = g_bytes_get_data (resp->body, &blen);

    if (crc != NULL && strcmp (crc, "@") == 0)
      g_hash_table_replace (resp->headers, g_strdup ("x-amz-crc32"),
                            g_strdup_printf ("%u", ddb_crc32 (b, blen)));
  }
}

/* Whether the x-amz-crc32 header (absent: yes) is CRC, as botocore's int() reads it: a sign,
 * then decimal digits that a single '_' may separate; a negative value is only ever -0. */
static gboolean
crc_matches (const char *header, guint32 crc)
{
  GString *digits;
  gboolean minus, same;
  guint64 v = 0;
  const char *p;

  if (header == NULL)
    return TRUE;
  minus = header[0] == '-';
  p = header[0] == '+' || header[0] == '-' ? header + 1 : header;
  digits = g_string_new (NULL);
  for (gsize i = 0; p[i] != '\0'; i++)
    if (p[i] != '_')
      g_string_append_c (digits, p[i]);
    else if (i == 0 || !g_ascii_isdigit (p[i - 1]) || !g_ascii_isdigit (p[i + 1]))
      {
        g_string_free (digits, TRUE);
        return FALSE;
      }
  same = digits->len > 0;
  for (gsize i = 0; same && i < digits->len; i++)
    {
      same = g_ascii_isdigit (digits->str[i]);
      v = v * 10 + (guint64) (digits->str[i] - '0');
      if (v > G_MAXUINT32)
        same = FALSE;
    }
  g_string_free (digits, TRUE);
  return same && (minus ? v == 0 : TRUE) && v == crc;
}

G_GNUC_NORETURN static void
finding (const char *what, const DdbHttpResponse *resp, DdbClientAnswer r, gboolean ok,
         json_t *response, const GError *error)
{
  gsize len = 0;
  const char *body = g_bytes_get_data (resp->body, &len);
  char *dump = response != NULL ? json_dumps (response, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;

  fprintf (stderr, "fuzz-answer: %s\nstatus %u, %zu body bytes: %.*s\n", what, resp->status, len,
           (int) MIN (len, 2000), body != NULL ? body : "");
  fprintf (stderr, "-> %s, ok %d, response %s, error %s/%d: %s\n",
           r == DDB_CLIENT_ANSWER_RETRY ? "retry" : "done", ok, dump != NULL ? dump : "(null)",
           error != NULL ? g_quark_to_string (error->domain) : "(none)",
           error != NULL ? error->code : 0,
           error != NULL && error->message != NULL ? error->message : "(null)");
  free (dump);
  abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  DdbHttpResponse resp = { 0 };
  json_t *response = NULL;
  GError *error = NULL;
  gboolean ok = TRUE;
  DdbClientAnswer r;
  gsize len = 0;
  const guint8 *body;

  parse_answer ((const char *) data, size, &resp);
  body = g_bytes_get_data (resp.body, &len);
  r = ddb_client_read_answer (&resp, ENDPOINT, &response, NULL, &ok, &error);

  if (r != DDB_CLIENT_ANSWER_DONE && r != DDB_CLIENT_ANSWER_RETRY)
    finding ("neither done nor retry", &resp, r, ok, response, error);
  if (ok != (error == NULL))
    finding ("a success with an error, or a failure without one", &resp, r, ok, response, error);
  if (error != NULL && (error->message == NULL || !g_utf8_validate (error->message, -1, NULL)))
    finding ("an error whose message is not UTF-8", &resp, r, ok, response, error);

  if (!crc_matches (ddb_http_response_header (&resp, "x-amz-crc32"), ddb_crc32 (body, len)))
    {
      if (r != DDB_CLIENT_ANSWER_RETRY
          || !g_error_matches (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_IO) || response != NULL)
        finding ("a damaged answer not retried", &resp, r, ok, response, error);
    }
  else if (resp.status == 200)
    {
      json_t *expected
          = len == 0 ? json_object () : json_loadb ((const char *) body, len, JSON_ALLOW_NUL, NULL);

      if (r != DDB_CLIENT_ANSWER_DONE)
        finding ("a 200 retried", &resp, r, ok, response, error);
      if (json_is_object (expected))
        {
          if (!ok || !json_is_object (response) || !json_equal (expected, response))
            finding ("a 200 with a JSON object not read as that object", &resp, r, ok, response,
                     error);
        }
      else if (ok || response != NULL
               || !g_error_matches (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED))
        finding ("a 200 without a JSON object not a failure", &resp, r, ok, response, error);
      json_decref (expected);
    }
  else
    {
      const char *name;

      if (ok || error == NULL || error->domain != DDB_ERROR)
        finding ("an error answer that is not a DynamoDB error", &resp, r, ok, response, error);
      if (error->message[0] == '\0')
        finding ("a DynamoDB error without a message", &resp, r, ok, response, error);
      if (!json_is_object (response))
        finding ("a DynamoDB error without its members", &resp, r, ok, response, error);
      name = ddb_client_error_name (error, response);
      if (name == NULL || name[0] == '\0')
        finding ("a DynamoDB error without a name", &resp, r, ok, response, error);
      if ((r == DDB_CLIENT_ANSWER_RETRY) != ddb_client_error_is_retryable (name, resp.status))
        finding ("retried where the SDKs do not retry what the client reports, or the other way",
                 &resp, r, ok, response, error);
    }

  json_decref (response);
  g_clear_error (&error);
  ddb_http_response_clear (&resp);
  return 0;
}
