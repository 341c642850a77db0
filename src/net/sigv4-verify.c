/* sigv4-verify.c: the SigV4 verifier behind `serve --auth` (ddb_sigv4_verify), on the signer's
 * pieces (sigv4-private.h): the Authorization header read here, a presigned request's query in
 * sigv4-presign.c, and the checks both share. */
#include "net/sigv4.h"
#include "net/sigv4-private.h"

#include "core/error.h"

#include "net/hash.h"

#include <string.h>

/* ---- verifying ---- */

void
sigv4_auth_clear (SigV4Auth *a)
{
  g_free (a->algorithm);
  g_free (a->credential);
  g_free (a->signed_headers);
  g_free (a->signature);
  g_free (a->date);
  ddb_secret_free (a->query);
  memset (a, 0, sizeof *a);
}

/* Splits "Credential=..., SignedHeaders=..., Signature=..." (after the algorithm) as DynamoDB does:
 * comma-separated, blanks around each part ignored, the first '=' separating key and value. */
static gboolean
parse_auth_params (const char *auth, const char *rest, SigV4Auth *a, GError **error)
{
  char **parts = g_strsplit (rest, ",", -1);
  gboolean ok = TRUE;

  for (char **p = parts; *p != NULL && ok; p++)
    {
      char *part = g_strstrip (*p);
      char *eq;
      char **slot = NULL;

      if (*part == '\0')
        continue;
      eq = strchr (part, '=');
      if (eq == NULL)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE,
                       "'%s' not a valid key=value pair (missing equal-sign) in Authorization "
                       "header: '%s'.",
                       part, auth);
          ok = FALSE;
          break;
        }
      *eq = '\0';
      g_strchomp (part);
      if (strcmp (part, "Credential") == 0)
        slot = &a->credential;
      else if (strcmp (part, "SignedHeaders") == 0)
        slot = &a->signed_headers;
      else if (strcmp (part, "Signature") == 0)
        slot = &a->signature;
      if (slot != NULL)
        {
          g_free (*slot);
          *slot = g_strdup (g_strchug (eq + 1));
        }
    }
  g_strfreev (parts);
  return ok;
}

/* Reads the Authorization header (AUTH_HEADER, or NULL when there is none) and the date header
 * into A, with DynamoDB's refusals of a header that is missing, not AWS4-, or incomplete. */
static gboolean
parse_authorization (const DdbHttpRequest *req, const char *auth_header, SigV4Auth *a,
                     GError **error)
{
  char *auth = NULL;
  const char *rest, *date_header;
  GString *missing;
  gboolean ok = FALSE;

  if (auth_header == NULL
      || !g_str_has_prefix (auth = g_strstrip (g_strdup (auth_header)), "AWS4-"))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_MISSING_AUTHENTICATION_TOKEN,
                           "Request is missing Authentication Token");
      g_free (auth);
      return FALSE;
    }

  rest = auth;
  while (*rest != '\0' && *rest != ' ' && *rest != '\t')
    rest++;
  a->algorithm = g_strndup (auth, (gsize) (rest - auth));
  if (!parse_auth_params (auth, rest, a, error))
    goto out;

  date_header = sigv4_find_header (req, "x-amz-date");
  if (date_header == NULL)
    date_header = sigv4_find_header (req, "date");
  missing = g_string_new ("");
  if (a->credential == NULL || *a->credential == '\0')
    g_string_append (missing, "Authorization header requires 'Credential' parameter. ");
  if (a->signature == NULL || *a->signature == '\0')
    g_string_append (missing, "Authorization header requires 'Signature' parameter. ");
  if (a->signed_headers == NULL)
    g_string_append (missing, "Authorization header requires 'SignedHeaders' parameter. ");
  if (date_header == NULL)
    g_string_append (missing, "Authorization header requires existence of either a "
                              "'X-Amz-Date' or a 'Date' header. ");
  if (missing->len > 0)
    g_set_error (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE, "%sAuthorization=%s",
                 missing->str, auth);
  else
    {
      a->date = g_strstrip (g_strdup (date_header));
      ok = TRUE;
    }
  g_string_free (missing, TRUE);

out:
  g_free (auth);
  return ok;
}

static gboolean
signed_headers_contain (const char *list, const char *lname)
{
  char **names = g_strsplit (list, ";", -1);
  gboolean found = FALSE;

  for (char **n = names; *n != NULL && !found; n++)
    found = g_ascii_strcasecmp (g_strstrip (*n), lname) == 0;
  g_strfreev (names);
  return found;
}

/* Canonical headers for the names the client signed, each from every header of that name, in
 * the request's order. A name listed twice counts once (the canonical request lists each header
 * once, as every signer writes it): else a request of a few kilobytes could make the canonical
 * request, and the message that quotes it, the product of its header count and its name count.
 * The request's header names are lower-cased once, for a time linear in the request's size. */
static GPtrArray *
collect_named_headers (const DdbHttpRequest *req, const char *list)
{
  GPtrArray *set = g_ptr_array_new_with_free_func (sigv4_canon_header_free);
  /* Lower-case name -> the request's values of that name (GPtrArray of borrowed strings). */
  GHashTable *values
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  GHashTable *done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  char **names = g_strsplit (list, ";", -1);

  for (guint i = 0; i < req->n_headers; i++)
    {
      char *lname = sigv4_lower_trimmed_name (req->headers[i].name);
      GPtrArray *v = g_hash_table_lookup (values, lname);

      if (v == NULL)
        {
          v = g_ptr_array_new ();
          g_hash_table_insert (values, lname, v);
        }
      else
        g_free (lname);
      g_ptr_array_add (v, (gpointer) (req->headers[i].value != NULL ? req->headers[i].value : ""));
    }
  for (char **n = names; *n != NULL; n++)
    {
      char *want = sigv4_lower_trimmed_name (*n);
      GPtrArray *v;

      if (*want == '\0' || g_hash_table_contains (done, want))
        {
          g_free (want);
          continue;
        }
      v = g_hash_table_lookup (values, want);
      if (v == NULL)
        sigv4_canon_headers_add (set, want, "");
      else
        for (guint i = 0; i < v->len; i++)
          sigv4_canon_headers_add (set, want, g_ptr_array_index (v, i));
      g_hash_table_add (done, want);
    }
  g_strfreev (names);
  g_hash_table_unref (done);
  g_hash_table_unref (values);
  return set;
}

static gboolean
check_scope (char **scope, const char *date8, const char *amz_date,
             const DdbSigv4VerifyParams *params, GError **error)
{
  GString *msg = g_string_new ("");

  if (params->region != NULL && strcmp (scope[2], params->region) != 0)
    g_string_append_printf (msg, "Credential should be scoped to a valid region, not '%s'. ",
                            scope[2]);
  if (strcmp (scope[3], params->service) != 0)
    g_string_append_printf (msg, "Credential should be scoped to correct service: '%s'. ",
                            params->service);
  if (strcmp (scope[4], TERMINATOR) != 0)
    g_string_append_printf (
        msg, "Credential should be scoped with a valid terminator: '" TERMINATOR "', not '%s'. ",
        scope[4]);
  if (strcmp (scope[1], date8) != 0)
    g_string_append_printf (msg,
                            "Date in Credential scope does not match YYYYMMDD from ISO-8601 "
                            "version of date from HTTP: '%s' != '%s', from '%s'. ",
                            scope[1], date8, amz_date);
  if (msg->len > 0)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE, msg->str);
      g_string_free (msg, TRUE);
      return FALSE;
    }
  g_string_free (msg, TRUE);
  return TRUE;
}

/* The date must be no more than the skew ahead of now, nor more than MAX_AGE behind it: the skew
 * for the Authorization header, X-Amz-Expires for a presigned request. */
static gboolean
check_fresh (gint64 when, gint64 max_age, gboolean presigned, const DdbSigv4VerifyParams *params,
             GError **error)
{
  gint64 skew = params->max_skew > 0 ? params->max_skew : DEFAULT_MAX_SKEW;
  char *amz_date, *now_s, *bound_s;

  if (when >= params->now - max_age && when <= params->now + skew)
    return TRUE;
  amz_date = ddb_sigv4_format_amz_date (when);
  now_s = ddb_sigv4_format_amz_date (params->now);
  if (when < params->now - max_age)
    {
      bound_s = ddb_sigv4_format_amz_date (params->now - max_age);
      if (presigned)
        g_set_error (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE,
                     "Signature expired: %s is now earlier than %s (%s - %" G_GINT64_FORMAT
                     " sec.)",
                     amz_date, bound_s, now_s, max_age);
      else
        g_set_error (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE,
                     "Signature expired: %s is now earlier than %s (%s - %" G_GINT64_FORMAT
                     " min.)",
                     amz_date, bound_s, now_s, skew / 60);
    }
  else
    {
      bound_s = ddb_sigv4_format_amz_date (params->now + skew);
      g_set_error (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE,
                   "Signature not yet current: %s is still later than %s (%s + %" G_GINT64_FORMAT
                   " min.)",
                   amz_date, bound_s, now_s, skew / 60);
    }
  g_free (amz_date);
  g_free (now_s);
  g_free (bound_s);
  return FALSE;
}

static gboolean
check_date (const SigV4Auth *a, const DdbSigv4VerifyParams *params, gint64 *when, GError **error)
{
  gint64 skew = params->max_skew > 0 ? params->max_skew : DEFAULT_MAX_SKEW;

  if (!ddb_sigv4_parse_amz_date (a->date, when))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE,
                   "Date must be in ISO-8601 'basic format'. Got '%s'. See "
                   "http://en.wikipedia.org/wiki/ISO_8601",
                   a->date);
      return FALSE;
    }
  return check_fresh (*when, a->expires > 0 ? a->expires : skew, a->expires > 0, params, error);
}

/* The credential's five parts (trailing slashes do not count as empty ones), or NULL. */
static char **
split_credential (const char *credential, GError **error)
{
  char *cred = g_strdup (credential);
  gsize len = strlen (cred);
  char **scope;

  while (len > 0 && cred[len - 1] == '/')
    cred[--len] = '\0';
  scope = g_strsplit (cred, "/", -1);
  g_free (cred);
  if (g_strv_length (scope) == 5)
    return scope;
  g_set_error (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE,
               "Credential must have exactly 5 slash-delimited elements, e.g. "
               "keyid/date/region/service/term, got '%s'",
               credential);
  g_strfreev (scope);
  return NULL;
}

/* Compares the signature the request carries with the one its canonical request makes. */
static gboolean
check_signature (const DdbHttpRequest *req, const SigV4Auth *a, char **scope, gint64 when,
                 const char *secret, GError **error)
{
  GPtrArray *headers, *query;
  char *uri, *cquery, *names = NULL, *canonical, *sts, *amz_date, *scope_s;
  char payload[65], expected[65];
  gboolean ok;

  amz_date = ddb_sigv4_format_amz_date (when);
  scope_s = g_strdup_printf ("%s/%s/%s/%s", scope[1], scope[2], scope[3], scope[4]);
  headers = collect_named_headers (req, a->signed_headers);
  query = g_ptr_array_new_with_free_func (sigv4_query_param_free);
  sigv4_query_parse (query, a->expires > 0 ? a->query : req->query);
  uri = sigv4_canonical_uri (req->path, TRUE);
  cquery = sigv4_canonical_query (query);
  /* The body's hash, presigned or not: UNSIGNED-PAYLOAD is S3's alone. */
  sigv4_body_sha256_hex (req, payload);
  canonical = sigv4_build_canonical_request (req->method, uri, cquery, headers, payload, &names);
  sts = sigv4_build_string_to_sign (amz_date, scope_s, canonical);
  sigv4_compute_signature (secret, scope[1], scope[2], scope[3], sts, expected);

  /* The lengths are public (a signature is always 64 hex digits); only the bytes are compared
   * in constant time. */
  ok = strlen (a->signature) == 64 && ddb_memeq_const (expected, a->signature, 64);
  if (!ok)
    g_set_error (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE,
                 "The request signature we calculated does not match the signature you "
                 "provided. Check your AWS Secret Access Key and signing method. Consult the "
                 "service documentation for details.\n\nThe Canonical String for this request "
                 "should have been\n'%s'\n\nThe String-to-Sign should have been\n'%s'\n",
                 canonical, sts);

  ddb_secure_zero (expected, sizeof expected);
  g_ptr_array_free (headers, TRUE);
  g_ptr_array_free (query, TRUE);
  ddb_secret_free (uri);
  ddb_secret_free (cquery);
  g_free (names);
  ddb_secret_free (canonical);
  g_free (sts);
  g_free (amz_date);
  g_free (scope_s);
  return ok;
}

/* The checks after the parameters are read, in DynamoDB's order: the date and its freshness,
 * Host signed, the algorithm, the credential and its scope, the key, the signature. */
static gboolean
verify_auth (const DdbHttpRequest *req, const DdbSigv4VerifyParams *params, const SigV4Auth *a,
             char **out_access_key_id, GError **error)
{
  char **scope = NULL;
  const char *secret;
  gint64 when = 0;
  char date8[9];
  gboolean ok = FALSE;

  if (!check_date (a, params, &when, error))
    return FALSE;
  if (!signed_headers_contain (a->signed_headers, "host"))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE,
                           "'Host' must be a 'SignedHeader' in the AWS Authorization.");
      return FALSE;
    }
  if (strcmp (a->algorithm, ALGORITHM) != 0)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INCOMPLETE_SIGNATURE,
                   "Unsupported AWS 'algorithm': '%s' (only " ALGORITHM " for now). ",
                   a->algorithm);
      return FALSE;
    }
  if ((scope = split_credential (a->credential, error)) == NULL)
    return FALSE;

  {
    char *amz_date = ddb_sigv4_format_amz_date (when);
    gboolean in_scope;

    memcpy (date8, amz_date, 8);
    date8[8] = '\0';
    in_scope = check_scope (scope, date8, amz_date, params, error);
    g_free (amz_date);
    if (!in_scope)
      goto out;
  }

  secret = params->lookup (scope[0], params->user_data);
  if (secret == NULL)
    g_set_error_literal (error, DDB_ERROR, DDB_ERROR_UNRECOGNIZED_CLIENT,
                         "The security token included in the request is invalid.");
  else if (check_signature (req, a, scope, when, secret, error))
    {
      ok = TRUE;
      if (out_access_key_id != NULL)
        *out_access_key_id = g_strdup (scope[0]);
    }

out:
  g_strfreev (scope);
  return ok;
}

/* Reads the signature from the Authorization header or, when the query has X-Amz-Algorithm,
 * from the query (not both: DynamoDB refuses that first). */
static gboolean
read_auth (const DdbHttpRequest *req, SigV4Auth *a, GError **error)
{
  const char *auth_header = sigv4_find_header (req, "authorization");

  if (!sigv4_query_has_algorithm (req->query))
    return parse_authorization (req, auth_header, a, error);
  if (auth_header != NULL)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INVALID_SIGNATURE,
                           "Found both 'X-Amz-Algorithm' as a query-string param and "
                           "'Authorization' as HTTP header.");
      return FALSE;
    }
  return sigv4_presigned_parse (req->query, a, error);
}

static gboolean
verify_request (const DdbHttpRequest *req, const DdbSigv4VerifyParams *params,
                char **out_access_key_id, GError **error)
{
  SigV4Auth a = { 0 };
  gboolean ok;

  g_return_val_if_fail (
      req != NULL && params != NULL && params->service != NULL && params->lookup != NULL, FALSE);

  ok = read_auth (req, &a, error) && verify_auth (req, params, &a, out_access_key_id, error);
  sigv4_auth_clear (&a);
  return ok;
}

gboolean
ddb_sigv4_verify (const DdbHttpRequest *req, const DdbSigv4VerifyParams *params,
                  char **out_access_key_id, GError **error)
{
  GError *local = NULL;

  if (verify_request (req, params, out_access_key_id, &local))
    return TRUE;
  if (local == NULL)
    return FALSE;
  /* The messages quote the request's headers and query parameters, which may hold any byte;
   * serve answers them in a JSON string, which must be UTF-8 (jansson drops a member that is
   * not). */
  if (!g_utf8_validate (local->message, -1, NULL))
    {
      char *valid = g_utf8_make_valid (local->message, -1);

      g_free (local->message);
      local->message = valid;
    }
  g_propagate_error (error, local);
  return FALSE;
}
