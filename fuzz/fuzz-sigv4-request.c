/* fuzz-sigv4-request.c: how fuzz-sigv4 reads its input (fuzz-sigv4-private.h): the raw HTTP/1.1
 * request in the layout of AWS's SigV4 test suite (request line, header lines, continuations,
 * an empty line, the body), header names as the signer and the verifier compare them, the query
 * read independently of the verifier (the presigned request's parameters), and the requests
 * fuzz-sigv4 builds from the input to sign and verify. */
#include <string.h>

#include "fuzz-sigv4-private.h"

/* Headers parsed from the input at most: more are dropped (the verifier's cost is the number
 * of signed names times the number of headers). */
#define MAX_HEADERS 512

void
fsv_raw_request_free (RawRequest *r)
{
  g_free (r->method);
  g_free (r->path);
  g_free (r->query);
  g_ptr_array_unref (r->names);
  g_ptr_array_unref (r->values);
  g_free (r);
}

/* One line of TEXT from *P (without its '\n' and a '\r' before it); *P moves past it. */
static char *
next_line (const char **p, const char *end)
{
  const char *eol = memchr (*p, '\n', (gsize) (end - *p));
  gsize n = eol != NULL ? (gsize) (eol - *p) : (gsize) (end - *p);
  char *line;

  if (n > 0 && (*p)[n - 1] == '\r')
    line = g_strndup (*p, n - 1);
  else
    line = g_strndup (*p, n);
  *p = eol != NULL ? eol + 1 : end;
  return line;
}

RawRequest *
fsv_parse_raw_request (const char *text, gsize len)
{
  RawRequest *r = g_new0 (RawRequest, 1);
  const char *p = text, *end = text + len;
  char *line = next_line (&p, end);
  const char *sp1 = strchr (line, ' '), *sp2 = strrchr (line, ' ');
  g_autofree char *target = NULL;
  const char *q;

  r->names = g_ptr_array_new_with_free_func (g_free);
  r->values = g_ptr_array_new_with_free_func (g_free);
  if (sp1 == NULL)
    {
      r->method = g_strdup (line);
      target = g_strdup ("/");
    }
  else
    {
      r->method = g_strndup (line, (gsize) (sp1 - line));
      target = sp2 > sp1 ? g_strndup (sp1 + 1, (gsize) (sp2 - sp1 - 1)) : g_strdup (sp1 + 1);
    }
  g_free (line);
  q = strchr (target, '?');
  r->path = q != NULL ? g_strndup (target, (gsize) (q - target)) : g_strdup (target);
  r->query = q != NULL ? g_strdup (q + 1) : NULL;

  while (p < end)
    {
      const char *start = p;

      line = next_line (&p, end);
      /* A NUL in a line ends it for the C strings; an empty line (even "\0") ends the head. */
      if (start[0] == '\n' || (start[0] == '\r' && start + 1 < end && start[1] == '\n'))
        {
          g_free (line);
          break;
        }
      if ((line[0] == ' ' || line[0] == '\t') && r->values->len > 0)
        {
          char *prev = g_ptr_array_index (r->values, r->values->len - 1);

          r->values->pdata[r->values->len - 1] = g_strconcat (prev, "\n", line, NULL);
          g_free (prev);
          g_free (line);
          continue;
        }
      if (r->names->len < MAX_HEADERS)
        {
          char *colon = strchr (line, ':');

          g_ptr_array_add (r->names, colon != NULL ? g_strndup (line, (gsize) (colon - line))
                                                   : g_strdup (line));
          g_ptr_array_add (r->values, g_strdup (colon != NULL ? colon + 1 : ""));
        }
      g_free (line);
    }
  r->body = (const guint8 *) p;
  r->body_len = (gsize) (end - p);
  return r;
}

/* A header name as the signer and the verifier compare it: ASCII lower case, blanks around
 * dropped. */
char *
fsv_lname (const char *name)
{
  return g_strstrip (g_ascii_strdown (name, -1));
}

gboolean
fsv_is_named (const char *name, const char *want)
{
  g_autofree char *l = fsv_lname (name);

  return strcmp (l, want) == 0;
}

/* ---- the query, read independently of the verifier ---- */

/* The parameters a presigned request's signature is made of. */
const char *const fsv_presign_names[] = {
  "X-Amz-Algorithm",     "X-Amz-Credential",     "X-Amz-Date",      "X-Amz-Expires",
  "X-Amz-SignedHeaders", "X-Amz-Security-Token", "X-Amz-Signature",
};

/* %XX decoded; any other '%' kept; read as a C string (the canonical query ends a value at an
 * encoded NUL too). */
static char *
pct_decode (const char *s, gsize len)
{
  GString *out = g_string_sized_new (len);

  for (gsize i = 0; i < len; i++)
    if (s[i] == '%' && i + 2 < len && g_ascii_isxdigit (s[i + 1]) && g_ascii_isxdigit (s[i + 2]))
      {
        g_string_append_c (
            out, (char) (g_ascii_xdigit_value (s[i + 1]) * 16 + g_ascii_xdigit_value (s[i + 2])));
        i += 2;
      }
    else
      g_string_append_c (out, s[i]);
  return g_string_free (out, FALSE);
}

void
fsv_query_parse (Query *q, const char *query)
{
  g_auto (GStrv) parts = g_strsplit (query != NULL ? query : "", "&", -1);

  q->raw = g_ptr_array_new_with_free_func (g_free);
  q->keys = g_ptr_array_new_with_free_func (g_free);
  q->values = g_ptr_array_new_with_free_func (g_free);
  for (char **p = parts; *p != NULL; p++)
    {
      const char *eq = strchr (*p, '=');

      if (**p == '\0')
        continue;
      g_ptr_array_add (q->raw, g_strdup (*p));
      g_ptr_array_add (q->keys, pct_decode (*p, eq != NULL ? (gsize) (eq - *p) : strlen (*p)));
      g_ptr_array_add (q->values,
                       eq != NULL ? pct_decode (eq + 1, strlen (eq + 1)) : g_strdup (""));
    }
}

void
fsv_query_clear (Query *q)
{
  g_ptr_array_unref (q->raw);
  g_ptr_array_unref (q->keys);
  g_ptr_array_unref (q->values);
}

/* The first value of KEY (NULL if none); *COUNT (if not NULL) gets how many there are. */
const char *
fsv_query_get (const Query *q, const char *key, guint *count)
{
  const char *first = NULL;
  guint n = 0;

  for (guint i = 0; i < q->keys->len; i++)
    if (strcmp (g_ptr_array_index (q->keys, i), key) == 0 && n++ == 0)
      first = g_ptr_array_index (q->values, i);
  if (count != NULL)
    *count = n;
  return first;
}

static gboolean
is_presign_name (const char *key)
{
  for (gsize i = 0; i < G_N_ELEMENTS (fsv_presign_names); i++)
    if (strcmp (key, fsv_presign_names[i]) == 0)
      return TRUE;
  return FALSE;
}

/* The query as sent without the presigned request's parameters, or NULL when it had none. */
char *
fsv_query_without_presign (const Query *q, gboolean had_query)
{
  GString *out = g_string_new ("");

  for (guint i = 0; i < q->keys->len; i++)
    if (!is_presign_name (g_ptr_array_index (q->keys, i)))
      g_string_append_printf (out, "%s%s", out->len > 0 ? "&" : "",
                              (char *) g_ptr_array_index (q->raw, i));
  if (out->len == 0 && !had_query)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

gboolean
fsv_query_has (const char *query, const char *key)
{
  Query q;
  guint n;

  fsv_query_parse (&q, query);
  (void) fsv_query_get (&q, key, &n);
  fsv_query_clear (&q);
  return n > 0;
}

void
fsv_headers_init (Headers *h)
{
  h->headers = g_array_new (FALSE, TRUE, sizeof (DdbHttpHeader));
  h->strings = g_ptr_array_new_with_free_func (g_free);
}

void
fsv_headers_clear (Headers *h)
{
  g_array_unref (h->headers);
  g_ptr_array_unref (h->strings);
}

void
fsv_headers_add (Headers *h, const char *name, const char *value)
{
  DdbHttpHeader header;

  header.name = g_strdup (name);
  header.value = g_strdup (value);
  g_ptr_array_add (h->strings, (char *) header.name);
  g_ptr_array_add (h->strings, (char *) header.value);
  g_array_append_val (h->headers, header);
}

void
fsv_headers_copy (Headers *to, const Headers *from)
{
  for (guint i = 0; i < from->headers->len; i++)
    {
      const DdbHttpHeader *header = &g_array_index (from->headers, DdbHttpHeader, i);

      fsv_headers_add (to, header->name, header->value);
    }
}

DdbHttpRequest
fsv_as_http (const RawRequest *raw, const char *query, const Headers *h)
{
  DdbHttpRequest r = { 0 };

  r.method = raw->method;
  r.path = raw->path;
  r.query = query;
  r.headers = (const DdbHttpHeader *) (gpointer) h->headers->data;
  r.n_headers = h->headers->len;
  r.body = raw->body;
  r.body_len = raw->body_len;
  return r;
}
