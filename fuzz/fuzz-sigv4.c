/* fuzz-sigv4.c: libFuzzer target for SigV4 (net/sigv4.h): the verifier behind `serve --auth`
 * and the signers it must agree with. Each input is a raw HTTP/1.1 request, in the layout of
 * AWS's SigV4 test suite (tests/net/sigv4-suite): a request line "METHOD TARGET HTTP/1.1" (the
 * target's path and query as sent; blanks inside the target allowed), header lines "Name:value"
 * (a line starting with a blank continues the previous value; a line without ':' is a header
 * named by the whole line with an empty value), an empty line, the body.
 *
 * Every input:
 * - is verified as it is, for the services "dynamodb" and "service" (the suite's), at the
 *   suite's time (or at its X-Amz-Date's): a refusal must be a DDB_ERROR of the four codes the
 *   verifier documents, with a non-empty UTF-8 message that quotes no secret; a success must
 *   name a key the lookup knows, and the same request verified with a lookup that knows no key
 *   must be refused as UnrecognizedClientException;
 * - is signed in an Authorization header (ddb_sigv4_sign_headers, with and without a session
 *   token and a signed body hash, from the input's hash), its Authorization, X-Amz-Date,
 *   X-Amz-Security-Token and x-amz-content-sha256 left out first (the signer refuses requests
 *   that carry them), at its X-Amz-Date's time or the suite's: when signing succeeds, the signed
 *   request must verify as signed by the key used; with one hex digit of the signature changed,
 *   or one non-blank byte of a signed header's value, it must be refused; signed by a key the
 *   lookup does not know, or verified with a lookup that knows none, it must be refused as
 *   UnrecognizedClientException (all this when every header name is an HTTP token: see
 *   names_are_tokens);
 * - is signed as a presigned URL (ddb_sigv4_sign_query): the verifier reads only the
 *   Authorization header (sigv4.h), so the presigned request as it is must be refused as
 *   MissingAuthenticationTokenException; and the same signature, carried in an
 *   Authorization header over the presigned query string without X-Amz-Signature (the very
 *   canonical request the query signer signed), must verify: the two signers and the verifier
 *   build the same canonical request.
 * A disagreement prints the signer's canonical request and the verifier's answer (which quotes
 * its own). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "net/sigv4.h"

#include "fuzz-gslice.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The suite's key and time. */
#define AKID "AKIDEXAMPLE"
#define SECRET "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
#define OTHER_AKID "AKIDOTHER"
#define OTHER_SECRET "0therSecretKeyForTestsOnly0000000000000000"
#define UNKNOWN_AKID "AKIDNOBODY"
#define TOKEN "FQoGZXIvYXdzEXAMPLETOKEN/+=="
#define T0 G_GINT64_CONSTANT (1440938160) /* 2015-08-30T12:36:00Z */

/* Headers parsed from the input at most: more are dropped (the verifier's cost is the number
 * of signed names times the number of headers). */
#define MAX_HEADERS 512

typedef struct {
  char *method;
  char *path;
  char *query; /* NULL: no '?' */
  GPtrArray *names;
  GPtrArray *values;
  const guint8 *body;
  gsize body_len;
} RawRequest;

static void
raw_request_free (RawRequest *r)
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

static RawRequest *
parse_raw_request (const char *text, gsize len)
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
static char *
lname (const char *name)
{
  return g_strstrip (g_ascii_strdown (name, -1));
}

static gboolean
is_named (const char *name, const char *want)
{
  g_autofree char *l = lname (name);

  return strcmp (l, want) == 0;
}

/* A request under construction: the headers point into strings it owns or the raw request's. */
typedef struct {
  GArray *headers; /* DdbHttpHeader */
  GPtrArray *strings;
} Headers;

static void
headers_init (Headers *h)
{
  h->headers = g_array_new (FALSE, TRUE, sizeof (DdbHttpHeader));
  h->strings = g_ptr_array_new_with_free_func (g_free);
}

static void
headers_clear (Headers *h)
{
  g_array_unref (h->headers);
  g_ptr_array_unref (h->strings);
}

static void
headers_add (Headers *h, const char *name, const char *value)
{
  DdbHttpHeader header;

  header.name = g_strdup (name);
  header.value = g_strdup (value);
  g_ptr_array_add (h->strings, (char *) header.name);
  g_ptr_array_add (h->strings, (char *) header.value);
  g_array_append_val (h->headers, header);
}

static void
headers_copy (Headers *to, const Headers *from)
{
  for (guint i = 0; i < from->headers->len; i++)
    {
      const DdbHttpHeader *header = &g_array_index (from->headers, DdbHttpHeader, i);

      headers_add (to, header->name, header->value);
    }
}

static DdbHttpRequest
as_http (const RawRequest *raw, const char *query, const Headers *h)
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

static const char *
lookup_known (const char *akid, gpointer user_data)
{
  (void) user_data;
  if (strcmp (akid, AKID) == 0)
    return SECRET;
  if (strcmp (akid, OTHER_AKID) == 0)
    return OTHER_SECRET;
  return NULL;
}

static const char *
lookup_none (const char *akid, gpointer user_data)
{
  (void) akid;
  (void) user_data;
  return NULL;
}

/* Whether the request (its text) holds a secret: then a message may quote it. */
static gboolean quotes_secret_allowed;

G_GNUC_NORETURN static void
finding (const char *what, const char *canonical, const GError *error)
{
  fprintf (stderr, "fuzz-sigv4: %s\n", what);
  if (canonical != NULL)
    fprintf (stderr, "--- the signer's canonical request ---\n%s\n", canonical);
  if (error != NULL)
    fprintf (stderr, "--- the verifier's answer (%s, code %d) ---\n%s\n",
             g_quark_to_string (error->domain), error->code,
             error->message != NULL ? error->message : "(null)");
  abort ();
}

/* Verifies REQ with the given lookup at NOW for SERVICE (any region); checks what every
 * answer must be. Returns whether it verified; *CODE gets the refusal's code. */
static gboolean
verify (const DdbHttpRequest *req, DdbSecretLookupFunc lookup, gint64 now, const char *service,
        int *code, const char *canonical)
{
  DdbSigv4VerifyParams p = { 0 };
  GError *error = NULL;
  char *akid = NULL;
  gboolean ok;

  p.region = NULL;
  p.service = service;
  p.now = now;
  p.max_skew = 900;
  p.lookup = lookup;
  ok = ddb_sigv4_verify (req, &p, &akid, &error);
  *code = -1;
  if (ok)
    {
      if (error != NULL)
        finding ("a success with an error", canonical, error);
      if (akid == NULL || lookup (akid, NULL) == NULL)
        finding ("a success for a key the lookup does not know", canonical, NULL);
      g_free (akid);
      return TRUE;
    }
  if (akid != NULL)
    finding ("a refusal that names a key", canonical, error);
  if (error == NULL || error->domain != DDB_ERROR)
    finding ("a refusal without a DynamoDB error", canonical, error);
  if (error->code != DDB_ERROR_MISSING_AUTHENTICATION_TOKEN
      && error->code != DDB_ERROR_INCOMPLETE_SIGNATURE && error->code != DDB_ERROR_INVALID_SIGNATURE
      && error->code != DDB_ERROR_UNRECOGNIZED_CLIENT)
    finding ("a refusal with another code", canonical, error);
  if (error->message == NULL || error->message[0] == '\0')
    finding ("a refusal without a message", canonical, error);
  /* serve puts the message in a JSON string: jansson takes UTF-8 only. */
  if (!g_utf8_validate (error->message, -1, NULL))
    finding ("a refusal whose message is not UTF-8", canonical, error);
  if (!quotes_secret_allowed
      && (strstr (error->message, SECRET) != NULL || strstr (error->message, OTHER_SECRET) != NULL))
    finding ("a refusal that quotes a secret", canonical, error);
  *code = error->code;
  g_error_free (error);
  return FALSE;
}

static gint64
request_time (const RawRequest *raw)
{
  gint64 t;

  for (guint i = 0; i < raw->names->len; i++)
    if (is_named (g_ptr_array_index (raw->names, i), "x-amz-date"))
      {
        g_autofree char *v = g_strstrip (g_strdup (g_ptr_array_index (raw->values, i)));

        /* Years 1000 to 9999: the date has its 16 characters. */
        if (ddb_sigv4_parse_amz_date (v, &t) && v[0] != '0')
          return t;
        break;
      }
  return T0;
}

/* The input as it is. */
static void
check_as_is (const RawRequest *raw, gint64 now)
{
  static const char *const services[] = { "dynamodb", "service" };
  Headers h;
  DdbHttpRequest req;

  headers_init (&h);
  for (guint i = 0; i < raw->names->len; i++)
    headers_add (&h, g_ptr_array_index (raw->names, i), g_ptr_array_index (raw->values, i));
  req = as_http (raw, raw->query, &h);
  for (gsize s = 0; s < G_N_ELEMENTS (services); s++)
    {
      int code;

      if (verify (&req, lookup_known, now, services[s], &code, NULL))
        {
          if (verify (&req, lookup_none, now, services[s], &code, NULL)
              || code != DDB_ERROR_UNRECOGNIZED_CLIENT)
            finding ("verified with a lookup that knows no key", NULL, NULL);
        }
      else
        (void) verify (&req, lookup_none, now, services[s], &code, NULL);
    }
  headers_clear (&h);
}

static const char *const reserved[] = {
  "authorization",
  "x-amz-date",
  "x-amz-security-token",
  "x-amz-content-sha256",
};

/* The input's headers without the ones the header signer refuses. */
static void
signable_headers (const RawRequest *raw, Headers *h)
{
  headers_init (h);
  for (guint i = 0; i < raw->names->len; i++)
    {
      const char *name = g_ptr_array_index (raw->names, i);
      gboolean skip = FALSE;

      for (gsize k = 0; k < G_N_ELEMENTS (reserved) && !skip; k++)
        skip = is_named (name, reserved[k]);
      if (!skip)
        headers_add (h, name, g_ptr_array_index (raw->values, i));
    }
}

static gboolean
has_host (const Headers *h)
{
  for (guint i = 0; i < h->headers->len; i++)
    if (is_named (g_array_index (h->headers, DdbHttpHeader, i).name, "host"))
      return TRUE;
  return FALSE;
}

/* Whether every header name (blanks around it dropped) is an HTTP token (RFC 9110 5.1,
 * tchar), as in any request an HTTP server parses. Other names cannot be listed in
 * SignedHeaders unambiguously: the signers list them as they are (botocore does the same:
 * "a;b", "a, b", ""), the verifier splits the list at ';' and the Authorization header at
 * ','. Such requests are only checked for what every answer must be. */
static gboolean
names_are_tokens (const Headers *h)
{
  for (guint i = 0; i < h->headers->len; i++)
    {
      g_autofree char *name
          = g_strstrip (g_strdup (g_array_index (h->headers, DdbHttpHeader, i).name));

      if (name[0] == '\0')
        return FALSE;
      for (const char *p = name; *p != '\0'; p++)
        if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
          return FALSE;
    }
  return TRUE;
}

/* The signed header names of a canonical request: its line before the last. */
static char *
canonical_signed_names (const char *canonical)
{
  const char *last = strrchr (canonical, '\n');
  const char *prev = last;

  if (last == NULL)
    return g_strdup ("");
  while (prev > canonical && prev[-1] != '\n')
    prev--;
  return g_strndup (prev, (gsize) (last - prev));
}

static gboolean
name_listed (const char *names, const char *name)
{
  g_auto (GStrv) list = g_strsplit (names, ";", -1);
  g_autofree char *l = lname (name);

  return g_strv_contains ((const char *const *) list, l);
}

static gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Changes the K-th non-blank byte (modulo their count) of VALUE to another non-blank byte;
 * FALSE if VALUE is all blanks. */
static gboolean
change_non_blank (char *value, guint64 k)
{
  guint n = 0;

  for (const char *p = value; *p != '\0'; p++)
    n += !is_blank (*p);
  if (n == 0)
    return FALSE;
  k %= n;
  for (char *p = value; *p != '\0'; p++)
    if (!is_blank (*p) && k-- == 0)
      {
        *p = *p == 'x' ? 'y' : 'x';
        break;
      }
  return TRUE;
}

/* Signed in an Authorization header: verifies, and tampering is caught. */
static void
check_header_signing (const RawRequest *raw, gint64 when, guint64 hash)
{
  DdbCredentials creds = { AKID, SECRET, hash & 1 ? TOKEN : NULL };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  GError *error = NULL;
  Headers base, signed_h;
  DdbHttpRequest req;
  g_autofree char *names = NULL;
  int code;

  signable_headers (raw, &base);
  req = as_http (raw, raw->query, &base);
  params.region = "us-east-1";
  params.service = "dynamodb";
  params.time = when;
  params.normalize_path = TRUE;
  params.sign_body = (hash & 2) != 0;
  if (!ddb_sigv4_sign_headers (&req, &creds, &params, &sig, &error))
    {
      if (error == NULL || !g_error_matches (error, DDB_ERROR, DDB_ERROR_INTERNAL)
          || has_host (&base))
        finding ("the header signer refused a request with a Host header", NULL, error);
      g_error_free (error);
      headers_clear (&base);
      return;
    }

  headers_init (&signed_h);
  headers_copy (&signed_h, &base);
  for (char **a = sig.add_headers; a[0] != NULL; a += 2)
    headers_add (&signed_h, a[0], a[1]);
  req = as_http (raw, raw->query, &signed_h);
  if (!names_are_tokens (&base))
    {
      (void) verify (&req, lookup_known, when, "dynamodb", &code, sig.canonical_request);
      ddb_signature_clear (&sig);
      headers_clear (&signed_h);
      headers_clear (&base);
      return;
    }

  /* (a) The request as signed verifies, as signed by AKID. */
  {
    DdbSigv4VerifyParams p = { 0 };
    char *akid = NULL;

    p.service = "dynamodb";
    p.region = "us-east-1";
    p.now = when;
    p.lookup = lookup_known;
    if (!ddb_sigv4_verify (&req, &p, &akid, &error))
      finding ("a request signed in a header does not verify", sig.canonical_request, error);
    if (g_strcmp0 (akid, AKID) != 0)
      finding ("a request signed by " AKID " verified as signed by another key",
               sig.canonical_request, NULL);
    g_free (akid);
  }

  /* (c) A lookup that knows no key refuses it. */
  if (verify (&req, lookup_none, when, "dynamodb", &code, sig.canonical_request)
      || code != DDB_ERROR_UNRECOGNIZED_CLIENT)
    finding ("a signed request verified, or was refused for another reason, by a lookup that "
             "knows no key",
             sig.canonical_request, NULL);

  /* (b) One hex digit of the signature changed. */
  {
    guint auth = signed_h.headers->len - 1;
    DdbHttpHeader *header = &g_array_index (signed_h.headers, DdbHttpHeader, auth);
    char *value = g_strdup (header->value);
    char *digit = value + strlen (value) - 1 - (hash >> 8) % 64;
    const char *orig = header->value;

    if (strcmp (header->name, "Authorization") != 0 || !g_ascii_isxdigit (*digit))
      finding ("the signer's Authorization header is not last, or does not end with the "
               "signature",
               sig.canonical_request, NULL);
    *digit = *digit == '0' ? '1' : '0';
    header->value = value;
    if (verify (&req, lookup_known, when, "dynamodb", &code, sig.canonical_request)
        || code != DDB_ERROR_INVALID_SIGNATURE)
      finding ("a signature with a digit changed verified (or was refused for another reason)",
               sig.canonical_request, NULL);
    header->value = orig;
    g_free (value);
  }

  /* (b) One non-blank byte of a signed header's value changed. */
  names = canonical_signed_names (sig.canonical_request);
  {
    GArray *candidates = g_array_new (FALSE, FALSE, sizeof (guint));

    for (guint i = 0; i < signed_h.headers->len; i++)
      {
        const DdbHttpHeader *header = &g_array_index (signed_h.headers, DdbHttpHeader, i);

        if (name_listed (names, header->name))
          g_array_append_val (candidates, i);
      }
    if (candidates->len > 0)
      {
        guint i = g_array_index (candidates, guint, (hash >> 16) % candidates->len);
        DdbHttpHeader *header = &g_array_index (signed_h.headers, DdbHttpHeader, i);
        char *value = g_strdup (header->value);
        const char *orig = header->value;

        if (change_non_blank (value, hash >> 24))
          {
            header->value = value;
            if (verify (&req, lookup_known, when, "dynamodb", &code, sig.canonical_request))
              finding ("a request verified with a signed header's value changed",
                       sig.canonical_request, NULL);
            header->value = orig;
          }
        g_free (value);
      }
    g_array_unref (candidates);
  }
  ddb_signature_clear (&sig);
  headers_clear (&signed_h);

  /* (c) Signed by a key the lookup does not know. */
  creds.access_key_id = UNKNOWN_AKID;
  req = as_http (raw, raw->query, &base);
  if (ddb_sigv4_sign_headers (&req, &creds, &params, &sig, &error))
    {
      headers_init (&signed_h);
      headers_copy (&signed_h, &base);
      for (char **a = sig.add_headers; a[0] != NULL; a += 2)
        headers_add (&signed_h, a[0], a[1]);
      req = as_http (raw, raw->query, &signed_h);
      if (verify (&req, lookup_known, when, "dynamodb", &code, sig.canonical_request)
          || code != DDB_ERROR_UNRECOGNIZED_CLIENT)
        finding ("a request signed by an unknown key verified, or was refused for another "
                 "reason",
                 sig.canonical_request, NULL);
      headers_clear (&signed_h);
      ddb_signature_clear (&sig);
    }
  else
    finding ("the header signer refused with a key id what it signed with another", NULL, error);
  headers_clear (&base);
}

/* Signed as a presigned URL. */
static void
check_query_signing (const RawRequest *raw, gint64 when, guint64 hash)
{
  DdbCredentials creds = { AKID, SECRET, hash & 4 ? TOKEN : NULL };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  GError *error = NULL;
  Headers base, auth_h;
  DdbHttpRequest req;
  g_autofree char *suffix = NULL;
  g_autofree char *query = NULL;
  g_autofree char *names = NULL;
  g_autofree char *amz_date = NULL;
  g_autofree char *authorization = NULL;
  gsize qlen, slen;
  int code;

  signable_headers (raw, &base);
  req = as_http (raw, raw->query, &base);
  params.region = "us-east-1";
  params.service = "dynamodb";
  params.time = when;
  params.normalize_path = TRUE;
  params.expires_in = (gint64) ((hash >> 8) % 604801);
  if (!ddb_sigv4_sign_query (&req, &creds, &params, &sig, &error))
    {
      if (error == NULL || !g_error_matches (error, DDB_ERROR, DDB_ERROR_INTERNAL)
          || has_host (&base))
        finding ("the query signer refused a request with a Host header", NULL, error);
      g_error_free (error);
      headers_clear (&base);
      return;
    }

  /* As it is: no Authorization header, nothing to verify. */
  req = as_http (raw, sig.query_string, &base);
  if (verify (&req, lookup_known, when, "dynamodb", &code, sig.canonical_request)
      || code != DDB_ERROR_MISSING_AUTHENTICATION_TOKEN)
    finding ("a presigned request was not refused as missing its Authorization header",
             sig.canonical_request, NULL);

  if (!names_are_tokens (&base))
    {
      headers_clear (&base);
      ddb_signature_clear (&sig);
      return;
    }

  /* The same signature in an Authorization header, over the query it signed. */
  suffix = g_strconcat ("X-Amz-Signature=", sig.signature, NULL);
  qlen = strlen (sig.query_string);
  slen = strlen (suffix);
  if (qlen < slen || strcmp (sig.query_string + qlen - slen, suffix) != 0)
    finding ("the presigned query does not end with its signature", sig.canonical_request, NULL);
  query = g_strndup (sig.query_string, qlen - slen);
  if (qlen > slen)
    query[qlen - slen - 1] = '\0'; /* the '&' before X-Amz-Signature */
  names = canonical_signed_names (sig.canonical_request);
  amz_date = ddb_sigv4_format_amz_date (when);
  authorization = g_strdup_printf ("AWS4-HMAC-SHA256 Credential=" AKID
                                   "/%.8s/us-east-1/dynamodb/aws4_request, SignedHeaders=%s, "
                                   "Signature=%s",
                                   amz_date, names, sig.signature);
  headers_init (&auth_h);
  headers_copy (&auth_h, &base);
  headers_add (&auth_h, "X-Amz-Date", amz_date);
  headers_add (&auth_h, "Authorization", authorization);
  req = as_http (raw, query, &auth_h);
  {
    DdbSigv4VerifyParams p = { 0 };

    p.service = "dynamodb";
    p.now = when;
    p.lookup = lookup_known;
    if (!ddb_sigv4_verify (&req, &p, NULL, &error))
      finding ("a presigned request's canonical request is not the verifier's",
               sig.canonical_request, error);
  }
  headers_clear (&auth_h);
  headers_clear (&base);
  ddb_signature_clear (&sig);
}

static gboolean
contains (const uint8_t *data, size_t size, const char *needle)
{
  size_t n = strlen (needle);

  for (size_t i = 0; i + n <= size; i++)
    if (memcmp (data + i, needle, n) == 0)
      return TRUE;
  return FALSE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  RawRequest *raw = parse_raw_request ((const char *) data, size);
  gint64 when = request_time (raw);
  guint64 hash = 14695981039346656037u;

  for (size_t i = 0; i < size; i++)
    hash = (hash ^ data[i]) * 1099511628211u;
  quotes_secret_allowed = contains (data, size, SECRET) || contains (data, size, OTHER_SECRET);

  check_as_is (raw, when);
  check_header_signing (raw, when, hash);
  check_query_signing (raw, when, hash);
  raw_request_free (raw);
  return 0;
}
