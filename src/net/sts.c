/* sts.c: STS's query API: form bodies, the XML answers (GMarkup, every text buffer wiped),
 * and the call through the session's transport. */
#include "net/sts.h"

#include "net/credentials-private.h"
#include "net/hash.h"

#include <string.h>

static void
wipe_string (GString *s)
{
  if (s != NULL)
    ddb_secure_zero (s->str, s->allocated_len);
}


static void
form_add (GString *body, const char *name, const char *value)
{
  g_autofree char *escaped = g_uri_escape_string (value, NULL, FALSE);

  g_string_append_printf (body, "&%s=%s", name, escaped);
}

static void
form_add_duration (GString *body, gint64 duration_seconds)
{
  char n[32];

  if (duration_seconds < 0)
    return;
  g_snprintf (n, sizeof n, "%" G_GINT64_FORMAT, duration_seconds);
  form_add (body, "DurationSeconds", n);
}

char *
ddb_sts_assume_role_body (const char *role_arn, const char *session_name, const char *external_id,
                          gint64 duration_seconds, const char *serial_number,
                          const char *token_code)
{
  GString *body = g_string_new ("Action=AssumeRole&Version=2011-06-15");

  /* The members in the order of the AssumeRole input shape, as botocore serializes them. */
  form_add (body, "RoleArn", role_arn);
  form_add (body, "RoleSessionName", session_name);
  form_add_duration (body, duration_seconds);
  if (external_id != NULL)
    form_add (body, "ExternalId", external_id);
  if (serial_number != NULL)
    form_add (body, "SerialNumber", serial_number);
  if (token_code != NULL)
    form_add (body, "TokenCode", token_code);
  return g_string_free (body, FALSE);
}

char *
ddb_sts_web_identity_body (const char *role_arn, const char *session_name,
                           const char *web_identity_token, gint64 duration_seconds)
{
  GString *body = g_string_new ("Action=AssumeRoleWithWebIdentity&Version=2011-06-15");

  form_add (body, "RoleArn", role_arn);
  form_add (body, "RoleSessionName", session_name);
  form_add (body, "WebIdentityToken", web_identity_token);
  form_add_duration (body, duration_seconds);
  return g_string_free (body, FALSE);
}

typedef struct {
  const char *result; /* "AssumeRoleResult", ... */
  GPtrArray *stack;   /* element names */
  GString *text;
  GString *access_key_id, *secret_access_key, *session_token, *expiration;
  GString *arn, *account, *user_id;
  GString *code, *message;
} StsParse;

static const char *
stack_at (StsParse *st, guint from_top)
{
  if (st->stack->len <= from_top)
    return "";
  return g_ptr_array_index (st->stack, st->stack->len - 1 - from_top);
}

static void
sts_start (GMarkupParseContext *ctx, const char *name, const char **attr_names,
           const char **attr_values, gpointer data, GError **error)
{
  StsParse *st = data;

  g_ptr_array_add (st->stack, g_strdup (name));
  wipe_string (st->text);
  g_string_truncate (st->text, 0);
}

static void
sts_store (GString **slot, GString *text)
{
  ddb_secret_string_free (*slot);
  *slot = g_string_new_len (text->str, text->len);
}

static void
sts_end (GMarkupParseContext *ctx, const char *name, gpointer data, GError **error)
{
  StsParse *st = data;

  if (strcmp (stack_at (st, 1), st->result) == 0)
    {
      if (strcmp (name, "Arn") == 0)
        sts_store (&st->arn, st->text);
      else if (strcmp (name, "Account") == 0)
        sts_store (&st->account, st->text);
      else if (strcmp (name, "UserId") == 0)
        sts_store (&st->user_id, st->text);
    }
  else if (strcmp (stack_at (st, 1), "Credentials") == 0
           && strcmp (stack_at (st, 2), st->result) == 0)
    {
      if (strcmp (name, "AccessKeyId") == 0)
        sts_store (&st->access_key_id, st->text);
      else if (strcmp (name, "SecretAccessKey") == 0)
        sts_store (&st->secret_access_key, st->text);
      else if (strcmp (name, "SessionToken") == 0)
        sts_store (&st->session_token, st->text);
      else if (strcmp (name, "Expiration") == 0)
        sts_store (&st->expiration, st->text);
    }
  else if (strcmp (stack_at (st, 1), "Error") == 0)
    {
      if (strcmp (name, "Code") == 0)
        sts_store (&st->code, st->text);
      else if (strcmp (name, "Message") == 0)
        sts_store (&st->message, st->text);
    }
  g_ptr_array_set_size (st->stack, st->stack->len - 1);
  wipe_string (st->text);
  g_string_truncate (st->text, 0);
}

static void
sts_text (GMarkupParseContext *ctx, const char *text, gsize len, gpointer data, GError **error)
{
  StsParse *st = data;

  g_string_append_len (st->text, text, len);
}

static void
trim_string (GString *s)
{
  gsize start = 0, end;

  if (s == NULL)
    return;
  end = s->len;
  while (start < end && g_ascii_isspace (s->str[start]))
    start++;
  while (end > start && g_ascii_isspace (s->str[end - 1]))
    end--;
  memmove (s->str, s->str + start, end - start);
  g_string_truncate (s, end - start);
}

/* Parses BODY into ST; FALSE (with ERROR) for an error answer. */
static gboolean
sts_parse (StsParse *st, const char *operation, guint status, const char *body, gsize len,
           GError **error)
{
  static const GMarkupParser parser = { sts_start, sts_end, sts_text, NULL, NULL };
  g_autofree char *result = g_strconcat (operation, "Result", NULL);
  GMarkupParseContext *ctx;
  gboolean parsed;

  st->result = result;
  st->stack = g_ptr_array_new_with_free_func (g_free);
  st->text = g_string_new (NULL);
  ctx = g_markup_parse_context_new (&parser, 0, st, NULL);
  parsed = g_markup_parse_context_parse (ctx, body, len, NULL)
           && g_markup_parse_context_end_parse (ctx, NULL);
  g_markup_parse_context_free (ctx);
  st->result = NULL;
  trim_string (st->access_key_id);
  trim_string (st->secret_access_key);
  trim_string (st->session_token);
  trim_string (st->expiration);
  trim_string (st->arn);
  trim_string (st->account);
  trim_string (st->user_id);

  if (status >= 200 && status <= 299)
    {
      if (parsed)
        return TRUE;
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                   "The %s response from STS is not XML", operation);
      return FALSE;
    }
  if (parsed && st->code != NULL)
    g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                 "An error occurred (%s) when calling the %s operation: %s", st->code->str,
                 operation, st->message != NULL ? st->message->str : "");
  else
    g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                 "An error occurred (%u) when calling the %s operation", status, operation);
  return FALSE;
}

static void
sts_clear (StsParse *st)
{
  g_ptr_array_free (st->stack, TRUE);
  ddb_secret_string_free (st->text);
  ddb_secret_string_free (st->access_key_id);
  ddb_secret_string_free (st->secret_access_key);
  ddb_secret_string_free (st->session_token);
  ddb_secret_string_free (st->expiration);
  ddb_secret_string_free (st->arn);
  ddb_secret_string_free (st->account);
  ddb_secret_string_free (st->user_id);
  ddb_secret_string_free (st->code);
  ddb_secret_string_free (st->message);
}

DdbAwsCredentials *
ddb_sts_parse_credentials (const char *operation, guint status, const char *body, gsize len,
                           const char *method, GError **error)
{
  StsParse st = { 0 };
  DdbAwsCredentials *creds = NULL;
  gint64 expiration = 0;

  if (!sts_parse (&st, operation, status, body, len, error))
    ;
  else if (st.access_key_id == NULL || st.secret_access_key == NULL || st.session_token == NULL
           || st.expiration == NULL)
    g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                 "The %s response from STS has no credentials", operation);
  else if (!ddb_aws_parse_timestamp (st.expiration->str, &expiration))
    g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                 "The %s response from STS has an invalid Expiration", operation);
  else
    creds = ddb_aws_credentials_new (st.access_key_id->str, st.secret_access_key->str,
                                     st.session_token->str, expiration, method);
  sts_clear (&st);
  return creds;
}

gboolean
ddb_sts_parse_caller_identity (guint status, const char *body, gsize len, char **arn,
                               char **account, char **user_id, GError **error)
{
  StsParse st = { 0 };
  gboolean ok = FALSE;

  if (!sts_parse (&st, "GetCallerIdentity", status, body, len, error))
    ;
  else if (st.arn == NULL)
    g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                         "The GetCallerIdentity response from STS has no Arn");
  else
    {
      if (arn != NULL)
        *arn = g_strdup (st.arn->str);
      if (account != NULL)
        *account = st.account != NULL ? g_strdup (st.account->str) : NULL;
      if (user_id != NULL)
        *user_id = st.user_id != NULL ? g_strdup (st.user_id->str) : NULL;
      ok = TRUE;
    }
  sts_clear (&st);
  return ok;
}

gboolean
ddb_sts_call (DdbAwsSession *session, const char *body, const DdbCredentials *credentials,
              guint *status, GBytes **answer, GCancellable *cancellable, GError **error)
{
  const char *region = ddb_aws_session_get_region (session);
  g_autofree char *url = NULL;
  DdbHttpHeader headers[] = {
    { "Content-Type", "application/x-www-form-urlencoded; charset=utf-8" },
  };
  DdbAwsRequest req = { 0 };

  /* STS is a client of the same session, so its configured endpoints apply to it too. */
  url = ddb_aws_session_service_url (session, "STS", "sts", region, error);
  if (url == NULL)
    return FALSE;
  req.method = "POST";
  req.url = url;
  req.headers = headers;
  req.n_headers = G_N_ELEMENTS (headers);
  req.body = (const guint8 *) body;
  req.body_len = strlen (body);
  req.sign_credentials = credentials;
  req.sign_region = region != NULL ? region : "us-east-1";
  req.sign_service = "sts";
  return ddb_aws_session_send (session, &req, status, answer, cancellable, error);
}

gboolean
ddb_sts_get_caller_identity (DdbAwsSession *session, const DdbCredentials *credentials,
                             char **arn, char **account, GCancellable *cancellable,
                             GError **error)
{
  g_autoptr (GBytes) answer = NULL;
  guint status = 0;
  gsize len;
  const char *data;

  if (!ddb_sts_call (session, DDB_STS_GET_CALLER_IDENTITY_BODY, credentials, &status, &answer,
                     cancellable, error))
    return FALSE;
  data = g_bytes_get_data (answer, &len);
  return ddb_sts_parse_caller_identity (status, data, len, arn, account, NULL, error);
}
