/* sigv4.c: AWS Signature Version 4: canonical request, string to sign, signing key derivation and
 * signature for header and presigned (query) signing; the verifier behind `serve --auth` is
 * sigv4-verify.c, on the pieces sigv4-private.h shares. */
#include "net/sigv4.h"
#include "net/sigv4-private.h"

#include "core/error.h"

#include "net/hash.h"

#include <string.h>

/* ---- small helpers ---- */

static gboolean
is_unreserved (guchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '.' || c == '_' || c == '~';
}

/* Signing handles the session token (a header, or a query parameter of a presigned URL): every
 * string that may hold it grows with ddb_secret_string_append* and is wiped when freed. */

/* Percent-encodes every byte outside the unreserved set (and '/' unless keep_slash), upper-case
 * hex, as SigV4 requires for paths and query components. */
static void
uri_encode (GString *out, const char *s, gsize len, gboolean keep_slash)
{
  static const char hex[] = "0123456789ABCDEF";

  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) s[i];

      if (is_unreserved (c) || (keep_slash && c == '/'))
        ddb_secret_string_append_c (out, (char) c);
      else
        {
          char escape[3] = { '%', hex[c >> 4], hex[c & 0xf] };

          ddb_secret_string_append_len (out, escape, 3);
        }
    }
}

static char *
uri_encode_str (const char *s, gsize len)
{
  GString *out = ddb_secret_string_new (3 * len + 1);

  uri_encode (out, s, len, FALSE);
  return g_string_free (out, FALSE);
}

/* Decodes %XX escapes; a '%' not followed by two hex digits stays as it is. */
static char *
uri_decode (const char *s, gsize len)
{
  GString *out = g_string_sized_new (len);

  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '%' && i + 2 < len && g_ascii_isxdigit (s[i + 1]) && g_ascii_isxdigit (s[i + 2]))
        {
          g_string_append_c (out, (char) ((g_ascii_xdigit_value (s[i + 1]) << 4)
                                          | g_ascii_xdigit_value (s[i + 2])));
          i += 2;
        }
      else
        g_string_append_c (out, s[i]);
    }
  return g_string_free (out, FALSE);
}

static void
hex_encode (const guint8 *bytes, gsize len, char *out)
{
  static const char hex[] = "0123456789abcdef";

  for (gsize i = 0; i < len; i++)
    {
      out[2 * i] = hex[bytes[i] >> 4];
      out[2 * i + 1] = hex[bytes[i] & 0xf];
    }
  out[2 * len] = '\0';
}

/* Lower-case hex SHA-256 of data into out (65 bytes). */
static void
sha256_hex (const void *data, gsize len, char out[65])
{
  guint8 md[DDB_SHA256_LEN];

  ddb_sha256 (data, len, md);
  hex_encode (md, sizeof md, out);
}

/* signature = hex(HMAC(kSigning, string_to_sign)), with kSigning derived from the secret through
 * the date, region and service. Every intermediate key is wiped before returning. */
void
sigv4_compute_signature (const char *secret, const char *date8, const char *region, const char *service,
                   const char *string_to_sign, char out[65])
{
  gsize secret_len = strlen (secret);
  gsize k0_len = secret_len + 4;
  char *k0 = g_malloc (k0_len + 1);
  guint8 k1[DDB_SHA256_LEN], k2[DDB_SHA256_LEN], k3[DDB_SHA256_LEN], k4[DDB_SHA256_LEN];
  guint8 sig[DDB_SHA256_LEN];

  memcpy (k0, "AWS4", 4);
  memcpy (k0 + 4, secret, secret_len);
  k0[k0_len] = '\0';

  ddb_hmac_sha256 (k0, k0_len, date8, strlen (date8), k1);
  ddb_hmac_sha256 (k1, sizeof k1, region, strlen (region), k2);
  ddb_hmac_sha256 (k2, sizeof k2, service, strlen (service), k3);
  ddb_hmac_sha256 (k3, sizeof k3, TERMINATOR, strlen (TERMINATOR), k4);
  ddb_hmac_sha256 (k4, sizeof k4, string_to_sign, strlen (string_to_sign), sig);
  hex_encode (sig, sizeof sig, out);

  ddb_secure_zero (k0, k0_len);
  g_free (k0);
  ddb_secure_zero (k1, sizeof k1);
  ddb_secure_zero (k2, sizeof k2);
  ddb_secure_zero (k3, sizeof k3);
  ddb_secure_zero (k4, sizeof k4);
  ddb_secure_zero (sig, sizeof sig);
}

char *
ddb_sigv4_format_amz_date (gint64 time)
{
  GDateTime *dt = g_date_time_new_from_unix_utc (time);
  char *s;

  if (dt == NULL)
    return g_strdup ("19700101T000000Z");
  s = g_date_time_format (dt, "%Y%m%dT%H%M%SZ");
  g_date_time_unref (dt);
  return s;
}

gboolean
ddb_sigv4_parse_amz_date (const char *text, gint64 *out_time)
{
  int f[6];
  static const int widths[6] = { 4, 2, 2, 2, 2, 2 };
  static const int offsets[6] = { 0, 4, 6, 9, 11, 13 };
  GDateTime *dt;

  if (text == NULL || strlen (text) != 16 || text[8] != 'T' || text[15] != 'Z')
    return FALSE;
  for (int i = 0; i < 6; i++)
    {
      f[i] = 0;
      for (int j = 0; j < widths[i]; j++)
        {
          char c = text[offsets[i] + j];

          if (!g_ascii_isdigit (c))
            return FALSE;
          f[i] = f[i] * 10 + (c - '0');
        }
    }
  if (f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > 31 || f[3] > 23 || f[4] > 59 || f[5] > 59)
    return FALSE;
  dt = g_date_time_new_utc (f[0], f[1], f[2], f[3], f[4], f[5]);
  if (dt == NULL)
    return FALSE;
  if (out_time != NULL)
    *out_time = g_date_time_to_unix (dt);
  g_date_time_unref (dt);
  return TRUE;
}

/* ---- canonical request pieces ---- */

/* Removes "." and ".." segments and empty segments ("//"), keeping a trailing slash, as botocore
 * normalizes paths for every service but S3. */
static char *
normalize_path (const char *path)
{
  char **parts = g_strsplit (path, "/", -1);
  GPtrArray *stack = g_ptr_array_new ();
  GString *out = g_string_new ("");
  gsize len = strlen (path);

  for (char **p = parts; *p != NULL; p++)
    {
      if (**p == '\0' || strcmp (*p, ".") == 0)
        continue;
      if (strcmp (*p, "..") == 0)
        {
          if (stack->len > 0)
            g_ptr_array_remove_index (stack, stack->len - 1);
          continue;
        }
      g_ptr_array_add (stack, *p);
    }
  for (guint i = 0; i < stack->len; i++)
    {
      g_string_append_c (out, '/');
      g_string_append (out, g_ptr_array_index (stack, i));
    }
  if (out->len == 0)
    g_string_append_c (out, '/');
  else if (len > 0 && path[len - 1] == '/')
    g_string_append_c (out, '/');

  g_ptr_array_free (stack, TRUE);
  g_strfreev (parts);
  return g_string_free (out, FALSE);
}

char *
sigv4_canonical_uri (const char *path, gboolean normalize)
{
  GString *out = g_string_new ("");
  char *norm;

  if (path == NULL || *path == '\0')
    path = "/";
  norm = normalize ? normalize_path (path) : g_strdup (path);
  uri_encode (out, norm, strlen (norm), TRUE);
  g_free (norm);
  return g_string_free (out, FALSE);
}

typedef struct {
  char *key;   /* encoded */
  char *value; /* encoded */
} QueryParam;

void
sigv4_query_param_free (gpointer p)
{
  QueryParam *qp = p;

  ddb_secret_free (qp->key);
  ddb_secret_free (qp->value);
  g_free (qp);
}

static void
query_add_encoded (GPtrArray *params, const char *key, const char *value)
{
  QueryParam *qp = g_new (QueryParam, 1);

  qp->key = uri_encode_str (key, strlen (key));
  qp->value = uri_encode_str (value, strlen (value));
  g_ptr_array_add (params, qp);
}

/* Each raw parameter is decoded then encoded again, so "ሴ=bar" and "%E1%88%B4=bar" sign alike. */
void
sigv4_query_parse (GPtrArray *params, const char *query)
{
  const char *p = query;

  if (query == NULL)
    return;
  while (*p != '\0')
    {
      const char *end = strchr (p, '&');
      const char *eq;
      gsize len = end != NULL ? (gsize) (end - p) : strlen (p);

      if (len > 0)
        {
          QueryParam *qp = g_new (QueryParam, 1);
          char *k, *v;

          eq = memchr (p, '=', len);
          k = uri_decode (p, eq != NULL ? (gsize) (eq - p) : len);
          v = eq != NULL ? uri_decode (eq + 1, len - (gsize) (eq - p) - 1) : g_strdup ("");
          qp->key = uri_encode_str (k, strlen (k));
          qp->value = uri_encode_str (v, strlen (v));
          ddb_secret_free (k);
          ddb_secret_free (v);
          g_ptr_array_add (params, qp);
        }
      if (end == NULL)
        break;
      p = end + 1;
    }
}

static gint
query_param_cmp (gconstpointer a, gconstpointer b)
{
  const QueryParam *x = *(QueryParam *const *) a;
  const QueryParam *y = *(QueryParam *const *) b;
  int c = strcmp (x->key, y->key);

  return c != 0 ? c : strcmp (x->value, y->value);
}

char *
sigv4_canonical_query (GPtrArray *params)
{
  GString *out = ddb_secret_string_new (0);

  g_ptr_array_sort (params, query_param_cmp);
  for (guint i = 0; i < params->len; i++)
    {
      QueryParam *qp = g_ptr_array_index (params, i);

      if (i > 0)
        ddb_secret_string_append_c (out, '&');
      ddb_secret_string_append (out, qp->key);
      ddb_secret_string_append_c (out, '=');
      ddb_secret_string_append (out, qp->value);
    }
  return g_string_free (out, FALSE);
}

/* Trims the value and collapses every run of blanks (including folded lines) into one space. */
static void
append_canonical_value (GString *out, const char *value)
{
  gboolean pending_space = FALSE;
  gboolean started = FALSE;

  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        {
          pending_space = started;
          continue;
        }
      if (pending_space)
        ddb_secret_string_append_c (out, ' ');
      pending_space = FALSE;
      started = TRUE;
      ddb_secret_string_append_c (out, *p);
    }
}

char *
sigv4_lower_trimmed_name (const char *name)
{
  char *s = g_ascii_strdown (name, -1);

  return g_strstrip (s);
}

typedef struct {
  char *name;     /* lower case */
  GString *value; /* canonical: values joined with ',' */
} CanonHeader;

void
sigv4_canon_header_free (gpointer p)
{
  CanonHeader *h = p;

  g_free (h->name);
  ddb_secret_string_free (h->value);
  g_free (h);
}

static gint
canon_header_cmp (gconstpointer a, gconstpointer b)
{
  const CanonHeader *x = *(CanonHeader *const *) a;
  const CanonHeader *y = *(CanonHeader *const *) b;

  return strcmp (x->name, y->name);
}

/* Adds a header to the set, joining with ',' an already present name (in arrival order). */
void
sigv4_canon_headers_add (GPtrArray *set, const char *lname, const char *value)
{
  CanonHeader *h = NULL;

  for (guint i = 0; i < set->len; i++)
    {
      CanonHeader *c = g_ptr_array_index (set, i);

      if (strcmp (c->name, lname) == 0)
        {
          h = c;
          break;
        }
    }
  if (h == NULL)
    {
      h = g_new (CanonHeader, 1);
      h->name = g_strdup (lname);
      h->value = ddb_secret_string_new (value != NULL ? strlen (value) + 1 : 0);
      g_ptr_array_add (set, h);
    }
  else
    ddb_secret_string_append_c (h->value, ',');
  append_canonical_value (h->value, value != NULL ? value : "");
}

static const char *const unsigned_headers[] = {
  "user-agent", "expect", "connection", "transfer-encoding", "x-amzn-trace-id",
};

static gboolean
is_unsigned_header (const char *lname)
{
  for (gsize i = 0; i < G_N_ELEMENTS (unsigned_headers); i++)
    if (strcmp (lname, unsigned_headers[i]) == 0)
      return TRUE;
  return FALSE;
}

const char *
sigv4_find_header (const DdbHttpRequest *req, const char *lname)
{
  for (guint i = 0; i < req->n_headers; i++)
    {
      char *n = sigv4_lower_trimmed_name (req->headers[i].name);
      gboolean match = strcmp (n, lname) == 0;

      g_free (n);
      if (match)
        return req->headers[i].value != NULL ? req->headers[i].value : "";
    }
  return NULL;
}

/* The "a;b;c" line of the signed header names, after sorting the headers by name. */
static char *
signed_header_names (GPtrArray *headers)
{
  GString *names = g_string_new ("");

  g_ptr_array_sort (headers, canon_header_cmp);
  for (guint i = 0; i < headers->len; i++)
    {
      if (i > 0)
        g_string_append_c (names, ';');
      g_string_append (names, ((CanonHeader *) g_ptr_array_index (headers, i))->name);
    }
  return g_string_free (names, FALSE);
}

/* "METHOD\nURI\nQUERY\nheaders...\n\nsigned;headers\npayloadhash"; signed_names gets the
 * "a;b;c" line. The headers are sorted by name. */
char *
sigv4_build_canonical_request (const char *method, const char *uri, const char *query, GPtrArray *headers,
                         const char *payload_hash, char **signed_names)
{
  GString *out = ddb_secret_string_new (0);

  *signed_names = signed_header_names (headers);
  ddb_secret_string_append (out, method);
  ddb_secret_string_append_c (out, '\n');
  ddb_secret_string_append (out, uri);
  ddb_secret_string_append_c (out, '\n');
  ddb_secret_string_append (out, query);
  ddb_secret_string_append_c (out, '\n');
  for (guint i = 0; i < headers->len; i++)
    {
      CanonHeader *h = g_ptr_array_index (headers, i);

      ddb_secret_string_append (out, h->name);
      ddb_secret_string_append_c (out, ':');
      ddb_secret_string_append_len (out, h->value->str, h->value->len);
      ddb_secret_string_append_c (out, '\n');
    }
  ddb_secret_string_append_c (out, '\n');
  ddb_secret_string_append (out, *signed_names);
  ddb_secret_string_append_c (out, '\n');
  ddb_secret_string_append (out, payload_hash);
  return g_string_free (out, FALSE);
}

/* The hex SHA-256 of the request's body (empty when it has none). */
void
sigv4_body_sha256_hex (const DdbHttpRequest *req, char out[65])
{
  sha256_hex (req->body != NULL ? (const void *) req->body : "", req->body_len, out);
}

char *
sigv4_build_string_to_sign (const char *amz_date, const char *scope, const char *canonical_request)
{
  char hash[65];

  sha256_hex (canonical_request, strlen (canonical_request), hash);
  return g_strdup_printf (ALGORITHM "\n%s\n%s\n%s", amz_date, scope, hash);
}

/* ---- signing ---- */

void
ddb_signature_clear (DdbSignature *sig)
{
  if (sig == NULL)
    return;
  ddb_secret_free (sig->canonical_request);
  g_free (sig->string_to_sign);
  g_free (sig->signature);
  for (char **h = sig->add_headers; h != NULL && *h != NULL; h++)
    ddb_secure_zero (*h, strlen (*h));
  g_strfreev (sig->add_headers);
  ddb_secret_free (sig->query_string);
  memset (sig, 0, sizeof *sig);
}

static gboolean
check_sign_inputs (const DdbHttpRequest *req, const DdbCredentials *creds,
                   const DdbSigningParams *params, gboolean query_mode, GError **error)
{
  static const char *const reserved[] = {
    "authorization",
    "x-amz-date",
    "x-amz-security-token",
    "x-amz-content-sha256",
  };

  if (creds->access_key_id == NULL || *creds->access_key_id == '\0'
      || creds->secret_access_key == NULL)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                           "Cannot sign the request: no credentials");
      return FALSE;
    }
  if (sigv4_find_header (req, "host") == NULL)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                           "Cannot sign the request: it has no Host header");
      return FALSE;
    }
  if (query_mode)
    return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (reserved); i++)
    if (sigv4_find_header (req, reserved[i]) != NULL)
      {
        g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                     "Cannot sign the request: it already has a %s header", reserved[i]);
        return FALSE;
      }
  return TRUE;
}

static GPtrArray *
collect_signed_headers (const DdbHttpRequest *req)
{
  GPtrArray *set = g_ptr_array_new_with_free_func (sigv4_canon_header_free);

  for (guint i = 0; i < req->n_headers; i++)
    {
      char *lname = sigv4_lower_trimmed_name (req->headers[i].name);

      if (!is_unsigned_header (lname))
        sigv4_canon_headers_add (set, lname, req->headers[i].value);
      g_free (lname);
    }
  return set;
}

static void
finish_signature (const DdbCredentials *creds, const DdbSigningParams *params, const char *amz_date,
                  const char *scope, DdbSignature *out)
{
  char sig[65];
  char date8[9];

  memcpy (date8, amz_date, 8);
  date8[8] = '\0';
  out->string_to_sign = sigv4_build_string_to_sign (amz_date, scope, out->canonical_request);
  sigv4_compute_signature (creds->secret_access_key, date8, params->region, params->service,
                     out->string_to_sign, sig);
  out->signature = g_strdup (sig);
}

/* What signing in a header and signing in the query share: the date, scope and payload hash,
 * the signed headers and the query parameters (each side adds its own), and after
 * signing_finish the signed header names. */
typedef struct {
  char *amz_date;
  char *scope;
  char payload[65];
  gboolean has_token;
  GPtrArray *headers; /* CanonHeader */
  GPtrArray *query;   /* QueryParam */
  char *names;
} Signing;

static void
signing_clear (Signing *s)
{
  g_clear_pointer (&s->headers, g_ptr_array_unref);
  g_clear_pointer (&s->query, g_ptr_array_unref);
  g_clear_pointer (&s->names, g_free);
  g_clear_pointer (&s->amz_date, g_free);
  g_clear_pointer (&s->scope, g_free);
}

static gboolean
signing_begin (Signing *s, const DdbHttpRequest *req, const DdbCredentials *creds,
               const DdbSigningParams *params, gboolean query_mode, DdbSignature *out,
               GError **error)
{
  memset (s, 0, sizeof *s);
  memset (out, 0, sizeof *out);
  if (!check_sign_inputs (req, creds, params, query_mode, error))
    return FALSE;
  sigv4_body_sha256_hex (req, s->payload);
  s->has_token = creds->session_token != NULL && *creds->session_token != '\0';
  s->amz_date = ddb_sigv4_format_amz_date (params->time);
  s->scope = g_strdup_printf ("%.8s/%s/%s/" TERMINATOR, s->amz_date, params->region,
                              params->service);
  s->headers = collect_signed_headers (req);
  s->query = g_ptr_array_new_with_free_func (sigv4_query_param_free);
  sigv4_query_parse (s->query, req->query);
  return TRUE;
}

/* The canonical request of what was collected, and its signature in `out`. */
static void
signing_finish (Signing *s, const DdbHttpRequest *req, const DdbCredentials *creds,
                const DdbSigningParams *params, DdbSignature *out)
{
  char *uri = sigv4_canonical_uri (req->path, params->normalize_path);
  char *cquery = sigv4_canonical_query (s->query);

  g_clear_pointer (&s->names, g_free);
  out->canonical_request
      = sigv4_build_canonical_request (req->method, uri, cquery, s->headers, s->payload, &s->names);
  ddb_secret_free (uri);
  ddb_secret_free (cquery);
  finish_signature (creds, params, s->amz_date, s->scope, out);
}

gboolean
ddb_sigv4_sign_headers (const DdbHttpRequest *req, const DdbCredentials *creds,
                        const DdbSigningParams *params, DdbSignature *out, GError **error)
{
  Signing s;
  GPtrArray *add;

  g_return_val_if_fail (req != NULL && creds != NULL && params != NULL && out != NULL, FALSE);
  g_return_val_if_fail (params->region != NULL && params->service != NULL, FALSE);
  if (!signing_begin (&s, req, creds, params, FALSE, out, error))
    {
      signing_clear (&s);
      return FALSE;
    }

  sigv4_canon_headers_add (s.headers, "x-amz-date", s.amz_date);
  if (s.has_token && !params->omit_session_token)
    sigv4_canon_headers_add (s.headers, "x-amz-security-token", creds->session_token);
  if (params->sign_body)
    sigv4_canon_headers_add (s.headers, "x-amz-content-sha256", s.payload);
  signing_finish (&s, req, creds, params, out);

  add = g_ptr_array_new ();
  if (s.has_token)
    {
      g_ptr_array_add (add, g_strdup ("X-Amz-Security-Token"));
      g_ptr_array_add (add, g_strdup (creds->session_token));
    }
  g_ptr_array_add (add, g_strdup ("X-Amz-Date"));
  g_ptr_array_add (add, g_strdup (s.amz_date));
  if (params->sign_body)
    {
      g_ptr_array_add (add, g_strdup ("x-amz-content-sha256"));
      g_ptr_array_add (add, g_strdup (s.payload));
    }
  g_ptr_array_add (add, g_strdup ("Authorization"));
  g_ptr_array_add (add, g_strdup_printf (ALGORITHM " Credential=%s/%s, SignedHeaders=%s, "
                                                   "Signature=%s",
                                         creds->access_key_id, s.scope, s.names, out->signature));
  g_ptr_array_add (add, NULL);
  out->add_headers = (char **) g_ptr_array_free (add, FALSE);
  signing_clear (&s);
  return TRUE;
}

gboolean
ddb_sigv4_sign_query (const DdbHttpRequest *req, const DdbCredentials *creds,
                      const DdbSigningParams *params, DdbSignature *out, GError **error)
{
  Signing s;
  char *credential, *expires, *names;
  GString *q;

  g_return_val_if_fail (req != NULL && creds != NULL && params != NULL && out != NULL, FALSE);
  g_return_val_if_fail (params->region != NULL && params->service != NULL, FALSE);
  if (!signing_begin (&s, req, creds, params, TRUE, out, error))
    {
      signing_clear (&s);
      return FALSE;
    }

  credential = g_strdup_printf ("%s/%s", creds->access_key_id, s.scope);
  expires = g_strdup_printf ("%" G_GINT64_FORMAT, params->expires_in);
  names = signed_header_names (s.headers);
  query_add_encoded (s.query, "X-Amz-Algorithm", ALGORITHM);
  query_add_encoded (s.query, "X-Amz-Credential", credential);
  query_add_encoded (s.query, "X-Amz-Date", s.amz_date);
  query_add_encoded (s.query, "X-Amz-SignedHeaders", names);
  query_add_encoded (s.query, "X-Amz-Expires", expires);
  if (s.has_token && !params->omit_session_token)
    query_add_encoded (s.query, "X-Amz-Security-Token", creds->session_token);
  g_free (names);
  signing_finish (&s, req, creds, params, out);

  q = ddb_secret_string_new (0);
  if (req->query != NULL && *req->query != '\0')
    {
      ddb_secret_string_append (q, req->query);
      ddb_secret_string_append_c (q, '&');
    }
  ddb_secret_string_append (q, "X-Amz-Algorithm=" ALGORITHM "&X-Amz-Credential=");
  uri_encode (q, credential, strlen (credential), FALSE);
  ddb_secret_string_append (q, "&X-Amz-Date=");
  ddb_secret_string_append (q, s.amz_date);
  ddb_secret_string_append (q, "&X-Amz-SignedHeaders=");
  uri_encode (q, s.names, strlen (s.names), FALSE);
  ddb_secret_string_append (q, "&X-Amz-Expires=");
  ddb_secret_string_append (q, expires);
  if (s.has_token)
    {
      ddb_secret_string_append (q, "&X-Amz-Security-Token=");
      uri_encode (q, creds->session_token, strlen (creds->session_token), FALSE);
    }
  ddb_secret_string_append (q, "&X-Amz-Signature=");
  ddb_secret_string_append (q, out->signature);
  out->query_string = g_string_free (q, FALSE);
  g_free (credential);
  g_free (expires);
  signing_clear (&s);
  return TRUE;
}
