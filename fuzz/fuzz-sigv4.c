/* fuzz-sigv4.c: libFuzzer target for SigV4 (net/sigv4.h): the verifier behind `serve --auth`
 * and the signers it must agree with. Each input is a raw HTTP/1.1 request, in the layout of
 * AWS's SigV4 test suite (tests/net/sigv4-suite): a request line "METHOD TARGET HTTP/1.1" (the
 * target's path and query as sent; blanks inside the target allowed), header lines "Name:value"
 * (a line starting with a blank continues the previous value; a line without ':' is a header
 * named by the whole line with an empty value), an empty line, the body.
 *
 * Every input:
 * - is verified as it is, for the services "dynamodb" and "service" (the suite's), at the
 *   suite's time (or at its X-Amz-Date's, header or query parameter), and at another time drawn
 *   from the input a week either way: a refusal must be a DDB_ERROR of the four codes the
 *   verifier documents, with a non-empty UTF-8 message that quotes no secret; a success must
 *   name a key the lookup knows, and the same request verified with a lookup that knows no key
 *   must be refused as UnrecognizedClientException; the session token serve compares
 *   (ddb_sigv4_session_token) must be the X-Amz-Security-Token query parameter of a presigned
 *   request, else the header. A presigned request that verifies (its signature in the query) is
 *   signed again by ddb_sigv4_sign_query from what it carries (the key, the token, the scope,
 *   X-Amz-Date, X-Amz-Expires, the headers it signed, its query without the signer's
 *   parameters): the request signed again must verify, and when its parameters were written as
 *   the signer writes them, the signature must be the same;
 * - is signed in an Authorization header (ddb_sigv4_sign_headers, with and without a session
 *   token and a signed body hash, from the input's hash), its Authorization, X-Amz-Date,
 *   X-Amz-Security-Token and x-amz-content-sha256 left out first (the signer refuses requests
 *   that carry them), at its X-Amz-Date's time or the suite's: when signing succeeds, the signed
 *   request must verify as signed by the key used (or, when its query has X-Amz-Algorithm, be
 *   refused as having both kinds of signature); with one hex digit of the signature changed,
 *   or one non-blank byte of a signed header's value, it must be refused; signed by a key the
 *   lookup does not know, or verified with a lookup that knows none, it must be refused as
 *   UnrecognizedClientException (all this when every header name is an HTTP token: see
 *   names_are_tokens);
 * - is signed as a presigned URL (ddb_sigv4_sign_query, with and without a session token, for
 *   1 to 604800 seconds): the presigned request must verify as signed by the key used, at the
 *   signing time, at its last second and the skew before it, and be refused one second after
 *   the end and one second before the skew; with one hex digit of X-Amz-Signature changed, one
 *   non-blank byte of a signed header's value, a parameter added, a byte added to the body, or an
 *   Authorization header added, it must be refused; signed by an unknown key, or verified with a
 *   lookup that knows none, it must be refused as UnrecognizedClientException. When the input's
 *   query already has a parameter the signer adds, or one of the presigned request's parameters
 *   twice, it must be refused as IncompleteSignatureException (a parameter given twice).
 * A disagreement prints the signer's canonical request and the verifier's answer (which quotes
 * its own). The input is read as a request, its query independently of the verifier, and the
 * requests to verify are built, by fuzz-sigv4-request.c (fuzz-sigv4-private.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "net/sigv4.h"

#include "fuzz-gslice.h"
#include "fuzz-sigv4-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The suite's key and time. */
#define AKID "AKIDEXAMPLE"
#define SECRET "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
#define OTHER_AKID "AKIDOTHER"
#define OTHER_SECRET "0therSecretKeyForTestsOnly0000000000000000"
#define UNKNOWN_AKID "AKIDNOBODY"
#define TOKEN "FQoGZXIvYXdzEXAMPLETOKEN/+=="
#define T0 G_GINT64_CONSTANT (1440938160) /* 2015-08-30T12:36:00Z */

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

/* Years 1000 to 9999: the date has its 16 characters. */
static gboolean
parse_date (const char *text, gint64 *t)
{
  return ddb_sigv4_parse_amz_date (text, t) && text[0] != '0';
}

static gint64
request_time (const RawRequest *raw)
{
  gint64 t;

  for (guint i = 0; i < raw->names->len; i++)
    if (fsv_is_named (g_ptr_array_index (raw->names, i), "x-amz-date"))
      {
        g_autofree char *v = g_strstrip (g_strdup (g_ptr_array_index (raw->values, i)));

        if (parse_date (v, &t))
          return t;
        break;
      }
  {
    Query q;
    const char *v;
    gboolean found;

    fsv_query_parse (&q, raw->query);
    v = fsv_query_get (&q, "X-Amz-Date", NULL);
    found = v != NULL && parse_date (v, &t);
    fsv_query_clear (&q);
    if (found)
      return t;
  }
  return T0;
}

static void check_presigned_resign (const RawRequest *raw, const Headers *as_is, gint64 now,
                                    const char *service);

/* The session token serve compares with a key's: a presigned request's X-Amz-Security-Token
 * parameter (no Authorization header), else the first X-Amz-Security-Token header. */
static void
check_session_token (const RawRequest *raw, const DdbHttpRequest *req, gboolean presigned)
{
  g_autofree char *token = ddb_sigv4_session_token (req);
  const char *want = NULL;
  gboolean authorization = FALSE;

  for (guint i = 0; i < raw->names->len; i++)
    authorization
        = authorization || fsv_is_named (g_ptr_array_index (raw->names, i), "authorization");
  if (presigned && !authorization)
    {
      Query q;

      fsv_query_parse (&q, raw->query);
      if (g_strcmp0 (token, fsv_query_get (&q, "X-Amz-Security-Token", NULL)) != 0)
        finding ("the session token is not the presigned request's parameter", NULL, NULL);
      fsv_query_clear (&q);
      return;
    }
  for (guint i = 0; i < raw->names->len && want == NULL; i++)
    if (fsv_is_named (g_ptr_array_index (raw->names, i), "x-amz-security-token"))
      want = g_ptr_array_index (raw->values, i);
  if (g_strcmp0 (token, want) != 0)
    finding ("the session token is not the X-Amz-Security-Token header", NULL, NULL);
}

/* The input as it is, at NOW and at another time a week either way. */
static void
check_as_is (const RawRequest *raw, gint64 now, guint64 hash)
{
  static const char *const services[] = { "dynamodb", "service" };
  const gint64 times[] = { now, now + (gint64) ((hash >> 32) % 1209601) - 604800 };
  Headers h;
  DdbHttpRequest req;
  gboolean presigned;

  fsv_headers_init (&h);
  for (guint i = 0; i < raw->names->len; i++)
    fsv_headers_add (&h, g_ptr_array_index (raw->names, i), g_ptr_array_index (raw->values, i));
  req = fsv_as_http (raw, raw->query, &h);
  presigned = fsv_query_has (raw->query, "X-Amz-Algorithm");
  check_session_token (raw, &req, presigned);
  for (gsize t = 0; t < G_N_ELEMENTS (times); t++)
    for (gsize s = 0; s < G_N_ELEMENTS (services); s++)
      {
        int code;

        if (verify (&req, lookup_known, times[t], services[s], &code, NULL))
          {
            if (verify (&req, lookup_none, times[t], services[s], &code, NULL)
                || code != DDB_ERROR_UNRECOGNIZED_CLIENT)
              finding ("verified with a lookup that knows no key", NULL, NULL);
            if (presigned)
              check_presigned_resign (raw, &h, times[t], services[s]);
          }
        else
          (void) verify (&req, lookup_none, times[t], services[s], &code, NULL);
      }
  fsv_headers_clear (&h);
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
  fsv_headers_init (h);
  for (guint i = 0; i < raw->names->len; i++)
    {
      const char *name = g_ptr_array_index (raw->names, i);
      gboolean skip = FALSE;

      for (gsize k = 0; k < G_N_ELEMENTS (reserved) && !skip; k++)
        skip = fsv_is_named (name, reserved[k]);
      if (!skip)
        fsv_headers_add (h, name, g_ptr_array_index (raw->values, i));
    }
}

static gboolean
has_host (const Headers *h)
{
  for (guint i = 0; i < h->headers->len; i++)
    if (fsv_is_named (g_array_index (h->headers, DdbHttpHeader, i).name, "host"))
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
  g_autofree char *l = fsv_lname (name);

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
  req = fsv_as_http (raw, raw->query, &base);
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
      fsv_headers_clear (&base);
      return;
    }

  fsv_headers_init (&signed_h);
  fsv_headers_copy (&signed_h, &base);
  for (char **a = sig.add_headers; a[0] != NULL; a += 2)
    fsv_headers_add (&signed_h, a[0], a[1]);
  req = fsv_as_http (raw, raw->query, &signed_h);
  if (!names_are_tokens (&base))
    {
      (void) verify (&req, lookup_known, when, "dynamodb", &code, sig.canonical_request);
      ddb_signature_clear (&sig);
      fsv_headers_clear (&signed_h);
      fsv_headers_clear (&base);
      return;
    }

  /* With X-Amz-Algorithm in the query too, it has both kinds of signature. */
  if (fsv_query_has (raw->query, "X-Amz-Algorithm"))
    {
      if (verify (&req, lookup_known, when, "dynamodb", &code, sig.canonical_request)
          || code != DDB_ERROR_INVALID_SIGNATURE)
        finding ("a request signed in a header with X-Amz-Algorithm in its query was not refused "
                 "as having both",
                 sig.canonical_request, NULL);
      ddb_signature_clear (&sig);
      fsv_headers_clear (&signed_h);
      fsv_headers_clear (&base);
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
  fsv_headers_clear (&signed_h);

  /* (c) Signed by a key the lookup does not know. */
  creds.access_key_id = UNKNOWN_AKID;
  req = fsv_as_http (raw, raw->query, &base);
  if (ddb_sigv4_sign_headers (&req, &creds, &params, &sig, &error))
    {
      fsv_headers_init (&signed_h);
      fsv_headers_copy (&signed_h, &base);
      for (char **a = sig.add_headers; a[0] != NULL; a += 2)
        fsv_headers_add (&signed_h, a[0], a[1]);
      req = fsv_as_http (raw, raw->query, &signed_h);
      if (verify (&req, lookup_known, when, "dynamodb", &code, sig.canonical_request)
          || code != DDB_ERROR_UNRECOGNIZED_CLIENT)
        finding ("a request signed by an unknown key verified, or was refused for another "
                 "reason",
                 sig.canonical_request, NULL);
      fsv_headers_clear (&signed_h);
      ddb_signature_clear (&sig);
    }
  else
    finding ("the header signer refused with a key id what it signed with another", NULL, error);
  fsv_headers_clear (&base);
}

/* Verifies REQ as it must be refused, with CODE, at NOW. */
static void
expect_refused (const DdbHttpRequest *req, gint64 now, int want, const char *what,
                const char *canonical)
{
  int code;

  if (verify (req, lookup_known, now, "dynamodb", &code, canonical) || code != want)
    finding (what, canonical, NULL);
}

static void
expect_verified (const DdbHttpRequest *req, gint64 now, const char *what, const char *canonical)
{
  DdbSigv4VerifyParams p = { 0 };
  GError *error = NULL;
  char *akid = NULL;

  p.service = "dynamodb";
  p.now = now;
  p.max_skew = 900;
  p.lookup = lookup_known;
  if (!ddb_sigv4_verify (req, &p, &akid, &error))
    finding (what, canonical, error);
  if (g_strcmp0 (akid, AKID) != 0)
    finding ("a request signed by " AKID " verified as signed by another key", canonical, NULL);
  g_free (akid);
}

/* Whether the presigned query gives one of the presigned request's parameters twice: the input's
 * query has one the query signer adds (the token only when it signs with one), or has one twice
 * itself. */
static gboolean
gives_param_twice (const char *query, gboolean token)
{
  Query q;
  gboolean twice = FALSE;

  fsv_query_parse (&q, query);
  for (gsize i = 0; i < G_N_ELEMENTS (fsv_presign_names) && !twice; i++)
    {
      gboolean added = token || strcmp (fsv_presign_names[i], "X-Amz-Security-Token") != 0;
      guint n;

      (void) fsv_query_get (&q, fsv_presign_names[i], &n);
      twice = n + (added ? 1 : 0) > 1;
    }
  fsv_query_clear (&q);
  return twice;
}

/* The presigned request tampered with: each must be refused. */
static void
check_presigned_tampered (const RawRequest *raw, const DdbSignature *sig, Headers *base,
                          gint64 when, guint64 hash)
{
  const char *canonical = sig->canonical_request;
  DdbHttpRequest req = fsv_as_http (raw, sig->query_string, base);
  g_autofree char *query = g_strdup (sig->query_string);
  g_autofree char *added = g_strconcat (sig->query_string, "&X-Fuzz=1", NULL);
  g_autofree char *names = canonical_signed_names (canonical);
  g_autofree guint8 *body = g_malloc (raw->body_len + 1);
  char *digit = query + strlen (query) - 1 - (hash >> 8) % 64;
  int code;

  /* One hex digit of X-Amz-Signature (the query's last 64 characters). */
  if (!g_ascii_isxdigit (*digit))
    finding ("the presigned query does not end with its signature", canonical, NULL);
  *digit = *digit == '0' ? '1' : '0';
  req.query = query;
  expect_refused (&req, when, DDB_ERROR_INVALID_SIGNATURE,
                  "a presigned request with a digit of its signature changed verified (or was "
                  "refused for another reason)",
                  canonical);
  /* A parameter added. */
  req.query = added;
  expect_refused (&req, when, DDB_ERROR_INVALID_SIGNATURE,
                  "a presigned request with a parameter added verified (or was refused for "
                  "another reason)",
                  canonical);
  req.query = sig->query_string;
  /* A byte added to the body. */
  if (raw->body_len > 0)
    memcpy (body, raw->body, raw->body_len);
  body[raw->body_len] = (guint8) hash;
  req.body = body;
  req.body_len = raw->body_len + 1;
  expect_refused (&req, when, DDB_ERROR_INVALID_SIGNATURE,
                  "a presigned request with its body changed verified (or was refused for "
                  "another reason)",
                  canonical);
  req.body = raw->body;
  req.body_len = raw->body_len;
  /* One non-blank byte of a signed header's value. */
  for (guint n = 0, pick = (guint) (hash >> 16); n < base->headers->len; n++)
    {
      guint i = (pick + n) % base->headers->len;
      DdbHttpHeader *header = &g_array_index (base->headers, DdbHttpHeader, i);
      g_autofree char *value = g_strdup (header->value);
      const char *orig = header->value;

      if (!name_listed (names, header->name) || !change_non_blank (value, hash >> 24))
        continue;
      header->value = value;
      req = fsv_as_http (raw, sig->query_string, base);
      if (verify (&req, lookup_known, when, "dynamodb", &code, canonical))
        finding ("a presigned request verified with a signed header's value changed", canonical,
                 NULL);
      header->value = orig;
      break;
    }
  /* An Authorization header besides: both kinds of signature. */
  {
    Headers h;

    fsv_headers_init (&h);
    fsv_headers_copy (&h, base);
    fsv_headers_add (&h, "Authorization", "AWS4-HMAC-SHA256 Credential=x");
    req = fsv_as_http (raw, sig->query_string, &h);
    expect_refused (&req, when, DDB_ERROR_INVALID_SIGNATURE,
                    "a presigned request with an Authorization header was not refused as having "
                    "both",
                    canonical);
    fsv_headers_clear (&h);
  }
}

/* Signed as a presigned URL. */
static void
check_query_signing (const RawRequest *raw, gint64 when, guint64 hash)
{
  DdbCredentials creds = { AKID, SECRET, hash & 4 ? TOKEN : NULL };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  GError *error = NULL;
  Headers base;
  DdbHttpRequest req;
  int code;

  signable_headers (raw, &base);
  req = fsv_as_http (raw, raw->query, &base);
  params.region = "us-east-1";
  params.service = "dynamodb";
  params.time = when;
  params.normalize_path = TRUE;
  params.expires_in = 1 + (gint64) ((hash >> 8) % 604800);
  if (!ddb_sigv4_sign_query (&req, &creds, &params, &sig, &error))
    {
      if (error == NULL || !g_error_matches (error, DDB_ERROR, DDB_ERROR_INTERNAL)
          || has_host (&base))
        finding ("the query signer refused a request with a Host header", NULL, error);
      g_error_free (error);
      fsv_headers_clear (&base);
      return;
    }

  req = fsv_as_http (raw, sig.query_string, &base);
  if (!names_are_tokens (&base))
    (void) verify (&req, lookup_known, when, "dynamodb", &code, sig.canonical_request);
  else if (gives_param_twice (raw->query, creds.session_token != NULL))
    expect_refused (&req, when, DDB_ERROR_INCOMPLETE_SIGNATURE,
                    "a presigned request with a parameter given twice was not refused as "
                    "incomplete",
                    sig.canonical_request);
  else
    {
      const char *canonical = sig.canonical_request;

      /* (a) It verifies, as signed by AKID, from the skew before its date to its end. */
      expect_verified (&req, when, "a presigned request does not verify", canonical);
      expect_verified (&req, when + params.expires_in,
                       "a presigned request does not verify at its last second", canonical);
      expect_verified (&req, when - 900, "a presigned request does not verify the skew before it",
                       canonical);
      expect_refused (&req, when + params.expires_in + 1, DDB_ERROR_INVALID_SIGNATURE,
                      "a presigned request verified after its end (or was refused for another "
                      "reason)",
                      canonical);
      expect_refused (&req, when - 901, DDB_ERROR_INVALID_SIGNATURE,
                      "a presigned request verified before the skew (or was refused for another "
                      "reason)",
                      canonical);
      /* (c) A lookup that knows no key refuses it. */
      if (verify (&req, lookup_none, when, "dynamodb", &code, canonical)
          || code != DDB_ERROR_UNRECOGNIZED_CLIENT)
        finding ("a presigned request verified, or was refused for another reason, by a lookup "
                 "that knows no key",
                 canonical, NULL);
      /* (b) Tampered with. */
      check_presigned_tampered (raw, &sig, &base, when, hash);
      /* (c) Signed by a key the lookup does not know. */
      ddb_signature_clear (&sig);
      creds.access_key_id = UNKNOWN_AKID;
      req = fsv_as_http (raw, raw->query, &base);
      if (!ddb_sigv4_sign_query (&req, &creds, &params, &sig, &error))
        finding ("the query signer refused with a key id what it signed with another", NULL, error);
      req = fsv_as_http (raw, sig.query_string, &base);
      expect_refused (&req, when, DDB_ERROR_UNRECOGNIZED_CLIENT,
                      "a request presigned by an unknown key verified, or was refused for "
                      "another reason",
                      sig.canonical_request);
    }
  fsv_headers_clear (&base);
  ddb_signature_clear (&sig);
}

static const char *const unsigned_names[] = {
  "user-agent", "expect", "connection", "transfer-encoding", "x-amzn-trace-id",
};

/* Whether the headers the presigned request signed are the ones the query signer would sign of
 * the same headers: each listed name is present, none is one the signer leaves out. */
static gboolean
listed_names_signable (const char *list, const Headers *signed_h)
{
  g_auto (GStrv) names = g_strsplit (list, ";", -1);

  for (char **n = names; *n != NULL; n++)
    {
      g_autofree char *want = fsv_lname (*n);
      gboolean present = FALSE;

      for (gsize k = 0; k < G_N_ELEMENTS (unsigned_names); k++)
        if (strcmp (want, unsigned_names[k]) == 0)
          return FALSE;
      for (guint i = 0; i < signed_h->headers->len && !present; i++)
        present = fsv_is_named (g_array_index (signed_h->headers, DdbHttpHeader, i).name, want);
      if (!present)
        return FALSE;
    }
  return TRUE;
}

/* A presigned request the verifier accepted (at NOW, for SERVICE, any region), signed again from
 * what it carries. */
static void
check_presigned_resign (const RawRequest *raw, const Headers *as_is, gint64 now,
                        const char *service)
{
  Query q;
  const char *credential, *date, *expires, *names, *signature, *token;
  g_auto (GStrv) scope = NULL;
  g_autofree char *cred = NULL;
  g_autofree char *query = NULL;
  g_autofree char *expires_s = NULL;
  g_autofree char *date_s = NULL;
  g_autofree char *scoped = NULL;
  g_autofree char *signer_names = NULL;
  DdbCredentials creds = { 0 };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  DdbHttpRequest req;
  GError *error = NULL;
  Headers signed_h;
  gint64 time;
  gboolean exact;

  if (!names_are_tokens (as_is))
    return;
  fsv_query_parse (&q, raw->query);
  credential = fsv_query_get (&q, "X-Amz-Credential", NULL);
  date = fsv_query_get (&q, "X-Amz-Date", NULL);
  expires = fsv_query_get (&q, "X-Amz-Expires", NULL);
  names = fsv_query_get (&q, "X-Amz-SignedHeaders", NULL);
  signature = fsv_query_get (&q, "X-Amz-Signature", NULL);
  token = fsv_query_get (&q, "X-Amz-Security-Token", NULL);
  if (credential == NULL || date == NULL || expires == NULL || names == NULL || signature == NULL
      || !ddb_sigv4_parse_amz_date (date, &time))
    finding ("a presigned request verified without its parameters", NULL, NULL);
  if (!parse_date (date, &time))
    {
      fsv_query_clear (&q);
      return;
    }

  cred = g_strdup (credential);
  while (*cred != '\0' && cred[strlen (cred) - 1] == '/')
    cred[strlen (cred) - 1] = '\0';
  scope = g_strsplit (cred, "/", -1);
  if (g_strv_length (scope) != 5 || strcmp (scope[3], service) != 0
      || lookup_known (scope[0], NULL) == NULL)
    finding ("a presigned request verified with a credential out of scope", NULL, NULL);

  /* The headers it signed, in their order; its query without the signer's parameters. */
  fsv_headers_init (&signed_h);
  for (guint i = 0; i < as_is->headers->len; i++)
    {
      const DdbHttpHeader *header = &g_array_index (as_is->headers, DdbHttpHeader, i);

      if (name_listed (names, header->name))
        fsv_headers_add (&signed_h, header->name, header->value);
    }
  query = fsv_query_without_presign (&q, raw->query != NULL);
  creds.access_key_id = scope[0];
  creds.secret_access_key = lookup_known (scope[0], NULL);
  creds.session_token = token;
  params.region = scope[2];
  params.service = scope[3];
  params.time = time;
  params.normalize_path = TRUE;
  params.expires_in = g_ascii_strtoll (expires, NULL, 10);
  req = fsv_as_http (raw, query, &signed_h);
  if (ddb_sigv4_sign_query (&req, &creds, &params, &sig, &error))
    {
      /* Signed again, it verifies. */
      DdbSigv4VerifyParams p = { 0 };

      req = fsv_as_http (raw, sig.query_string, &signed_h);
      p.service = service;
      p.now = now;
      p.max_skew = 900;
      p.lookup = lookup_known;
      if (!ddb_sigv4_verify (&req, &p, NULL, &error))
        finding ("a verified presigned request, signed again, does not verify",
                 sig.canonical_request, error);

      /* Written as the signer writes it: the same signature. */
      expires_s = g_strdup_printf ("%" G_GINT64_FORMAT, params.expires_in);
      date_s = ddb_sigv4_format_amz_date (time);
      scoped = g_strjoinv ("/", scope);
      signer_names = canonical_signed_names (sig.canonical_request);
      exact = strcmp (expires, expires_s) == 0 && strcmp (date, date_s) == 0
              && strcmp (credential, scoped) == 0 && strcmp (names, signer_names) == 0
              && (token == NULL || *token != '\0') && listed_names_signable (names, &signed_h);
      if (exact && strcmp (sig.signature, signature) != 0)
        finding ("a verified presigned request, signed again, has another signature",
                 sig.canonical_request, NULL);
      ddb_signature_clear (&sig);
    }
  else if (listed_names_signable (names, &signed_h))
    finding ("the query signer refused a verified presigned request", NULL, error);
  else
    g_clear_error (&error);
  fsv_headers_clear (&signed_h);
  fsv_query_clear (&q);
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
  RawRequest *raw = fsv_parse_raw_request ((const char *) data, size);
  gint64 when = request_time (raw);
  guint64 hash = 14695981039346656037u;

  for (size_t i = 0; i < size; i++)
    hash = (hash ^ data[i]) * 1099511628211u;
  quotes_secret_allowed = contains (data, size, SECRET) || contains (data, size, OTHER_SECRET);

  check_as_is (raw, when, hash);
  check_header_signing (raw, when, hash);
  check_query_signing (raw, when, hash);
  fsv_raw_request_free (raw);
  return 0;
}
