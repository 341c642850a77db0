/* sigv4-presign.c: the verifier's reading of a presigned request (SigV4 in the query string):
 * which of its query parameters carry the signature, whether they are all there once each, how
 * long the request lives, and the query it signed (every parameter but X-Amz-Signature). The
 * checks both kinds of request share are sigv4-verify.c's. */
#include "net/sigv4.h"
#include "net/sigv4-private.h"

#include "core/error.h"

#include "net/hash.h"

#include <string.h>

/* The parameters of a presigned request, in the order DynamoDB names the missing ones. */
enum {
  PARAM_ALGORITHM,
  PARAM_CREDENTIAL,
  PARAM_SIGNATURE,
  PARAM_SIGNED_HEADERS,
  PARAM_DATE,
  PARAM_EXPIRES,
  PARAM_SECURITY_TOKEN,
  N_PARAMS
};

static const char *const param_names[N_PARAMS] = {
  "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature",      "X-Amz-SignedHeaders",
  "X-Amz-Date",      "X-Amz-Expires",    "X-Amz-Security-Token",
};

/* The parameters a presigned request must have, with a value. */
#define N_REQUIRED PARAM_SECURITY_TOKEN

typedef struct {
  char *value[N_PARAMS]; /* decoded, of the first occurrence; NULL when absent */
  guint count[N_PARAMS];
  GString *to_sign; /* the query as sent without X-Amz-Signature (NULL: not wanted) */
} QueryAuth;

static void
query_auth_clear (QueryAuth *q)
{
  for (int i = 0; i < N_PARAMS; i++)
    ddb_secret_free (q->value[i]);
  ddb_secret_string_free (q->to_sign);
  memset (q, 0, sizeof *q);
}

/* Decodes %XX escapes as the canonical query does (sigv4.c): a '%' not followed by two hex
 * digits stays as it is, '+' is a '+'. The result is read as a C string, so that a value is what
 * the canonical query signs of it (which ends at an encoded NUL too). */
static char *
param_decode (const char *s, gsize len)
{
  GString *out = ddb_secret_string_new (len + 1);

  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '%' && i + 2 < len && g_ascii_isxdigit (s[i + 1]) && g_ascii_isxdigit (s[i + 2]))
        {
          ddb_secret_string_append_c (out, (char) ((g_ascii_xdigit_value (s[i + 1]) << 4)
                                                   | g_ascii_xdigit_value (s[i + 2])));
          i += 2;
        }
      else
        ddb_secret_string_append_c (out, s[i]);
    }
  return g_string_free (out, FALSE);
}

static int
param_index (const char *key)
{
  /* Each name starts so: a quick way past the request's own parameters. */
  if (strncmp (key, "X-Amz-", 6) != 0)
    return -1;
  for (int i = 0; i < N_PARAMS; i++)
    if (strcmp (key, param_names[i]) == 0)
      return i;
  return -1;
}

/* One pass over the raw query, each parameter's key decoded once: a time linear in its length
 * whatever it holds. Empty parameters ("a&&b") are skipped, as the canonical query skips them. */
static void
query_auth_scan (QueryAuth *q, const char *query)
{
  const char *p = query;

  if (query == NULL)
    return;
  while (*p != '\0')
    {
      const char *end = strchr (p, '&');
      gsize len = end != NULL ? (gsize) (end - p) : strlen (p);
      const char *eq = memchr (p, '=', len);
      char *key;
      int i;

      if (len == 0)
        {
          p = end + 1;
          continue;
        }
      key = param_decode (p, eq != NULL ? (gsize) (eq - p) : len);
      i = param_index (key);
      ddb_secret_free (key);
      if (i >= 0 && q->count[i]++ == 0)
        q->value[i]
            = eq != NULL ? param_decode (eq + 1, len - (gsize) (eq - p) - 1) : g_strdup ("");
      if (q->to_sign != NULL && i != PARAM_SIGNATURE)
        {
          if (q->to_sign->len > 0)
            ddb_secret_string_append_c (q->to_sign, '&');
          ddb_secret_string_append_len (q->to_sign, p, len);
        }
      if (end == NULL)
        break;
      p = end + 1;
    }
}

gboolean
sigv4_query_has_algorithm (const char *query)
{
  QueryAuth q = { 0 };
  gboolean found;

  query_auth_scan (&q, query);
  found = q.count[PARAM_ALGORITHM] > 0;
  query_auth_clear (&q);
  return found;
}

/* Each parameter that is missing (or empty), or given more than once, named in one message. */
static gboolean
check_params_present (const QueryAuth *q, GError **error)
{
  GString *msg = g_string_new ("");

  for (int i = 0; i < N_PARAMS; i++)
    {
      if (i < N_REQUIRED && (q->value[i] == NULL || *q->value[i] == '\0'))
        g_string_append_printf (msg, "AWS query-string parameters must include '%s'. ",
                                param_names[i]);
      else if (q->count[i] > 1)
        g_string_append_printf (msg, "AWS query-string parameters must include '%s' only once. ",
                                param_names[i]);
    }
  if (msg->len == 0)
    {
      g_string_free (msg, TRUE);
      return TRUE;
    }
  g_string_append (msg, "Re-examine the query-string parameters.");
  g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE, msg->str);
  g_string_free (msg, TRUE);
  return FALSE;
}

/* X-Amz-Expires: a number of seconds, 1 to a week. Digits only (no sign, no blank); leading
 * zeros allowed; any count of digits read without overflow. */
static gboolean
parse_expires (const char *text, gint64 *out, GError **error)
{
  const char *p = text;
  gint64 value = 0;

  if (*p == '-' && g_ascii_isdigit (p[1]))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE,
                           "X-Amz-Expires must be non-negative");
      return FALSE;
    }
  for (; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE,
                               "X-Amz-Expires should be a number");
          return FALSE;
        }
      if (value <= SIGV4_MAX_EXPIRES)
        value = value * 10 + (*p - '0');
    }
  if (value == 0)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE,
                           "X-Amz-Expires must be greater than 0");
      return FALSE;
    }
  if (value > SIGV4_MAX_EXPIRES)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE,
                   "X-Amz-Expires must be less than a week (in seconds); that is, the given "
                   "X-Amz-Expires must be less than %d seconds",
                   SIGV4_MAX_EXPIRES);
      return FALSE;
    }
  *out = value;
  return TRUE;
}

gboolean
sigv4_presigned_parse (const char *query, SigV4Auth *a, GError **error)
{
  QueryAuth q = { 0 };
  gint64 expires = 0;
  gboolean ok;

  q.to_sign = ddb_secret_string_new (query != NULL ? strlen (query) + 1 : 1);
  query_auth_scan (&q, query);
  ok = check_params_present (&q, error) && parse_expires (q.value[PARAM_EXPIRES], &expires, error);
  if (ok)
    {
      a->algorithm = g_steal_pointer (&q.value[PARAM_ALGORITHM]);
      a->credential = g_steal_pointer (&q.value[PARAM_CREDENTIAL]);
      a->signature = g_steal_pointer (&q.value[PARAM_SIGNATURE]);
      a->signed_headers = g_steal_pointer (&q.value[PARAM_SIGNED_HEADERS]);
      a->date = g_steal_pointer (&q.value[PARAM_DATE]);
      a->expires = expires;
      a->query = g_string_free (g_steal_pointer (&q.to_sign), FALSE);
    }
  query_auth_clear (&q);
  return ok;
}

char *
ddb_sigv4_session_token (const DdbHttpRequest *req)
{
  QueryAuth q = { 0 };
  char *token;

  g_return_val_if_fail (req != NULL, NULL);
  query_auth_scan (&q, req->query);
  if (q.count[PARAM_ALGORITHM] > 0 && sigv4_find_header (req, "authorization") == NULL)
    token = g_steal_pointer (&q.value[PARAM_SECURITY_TOKEN]);
  else
    token = g_strdup (sigv4_find_header (req, "x-amz-security-token"));
  query_auth_clear (&q);
  return token;
}
