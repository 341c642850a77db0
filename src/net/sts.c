/* sts.c: STS's query API: form bodies, the XML answers, and the call through the session's
 * transport.
 *
 * Issue 27: nothing that holds a secret is freed unwiped. A web identity token or an MFA code
 * goes into a form body built in one block of its final size; an answer holds the secret key and
 * the session token, and GMarkup frees its internal buffers (the text it grows by realloc, the
 * strings it recycles) without wiping them. So the answers are read by a small strict XML reader
 * of our own (xml-reader.c): it copies nothing but the text of the elements kept, into strings
 * that wipe themselves as they grow (net/hash.h) and are wiped before they are freed. */
#include "net/sts.h"

#include "net/credentials-private.h"
#include "net/hash.h"
#include "net/xml-reader.h"

#include <string.h>

/* ---- Form bodies ---- */

typedef struct {
  const char *name;
  const char *value; /* NULL: left out */
} FormField;

/* RFC 3986's unreserved characters stay; every other byte is %XX, as g_uri_escape_string
 * (value, NULL, FALSE) has it (and botocore). */
static gboolean
form_unreserved (guchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '.' || c == '_' || c == '~';
}

/* HEAD, then "&name=value" for each field that has a value, escaped. The body is sized up front
 * and never grows, so no partial copy of a token or code is left behind in freed memory; free
 * it with ddb_secret_free. */
static char *
form_body (const char *head, const FormField *fields, guint n_fields)
{
  static const char hex[] = "0123456789ABCDEF";
  gsize size = strlen (head);
  GString *body;

  for (guint i = 0; i < n_fields; i++)
    if (fields[i].value != NULL)
      {
        size += 2 + strlen (fields[i].name);
        for (const guchar *p = (const guchar *) fields[i].value; *p != '\0'; p++)
          size += form_unreserved (*p) ? 1 : 3;
      }
  body = ddb_secret_string_new (size);
  ddb_secret_string_append (body, head);
  for (guint i = 0; i < n_fields; i++)
    {
      if (fields[i].value == NULL)
        continue;
      ddb_secret_string_append_c (body, '&');
      ddb_secret_string_append (body, fields[i].name);
      ddb_secret_string_append_c (body, '=');
      for (const guchar *p = (const guchar *) fields[i].value; *p != '\0'; p++)
        if (form_unreserved (*p))
          ddb_secret_string_append_c (body, (char) *p);
        else
          {
            ddb_secret_string_append_c (body, '%');
            ddb_secret_string_append_c (body, hex[*p >> 4]);
            ddb_secret_string_append_c (body, hex[*p & 0xf]);
          }
    }
  g_assert (body->len == size);
  return g_string_free (body, FALSE);
}

char *
ddb_sts_assume_role_body (const char *role_arn, const char *session_name, const char *external_id,
                          gint64 duration_seconds, const char *serial_number,
                          const char *token_code)
{
  char duration[32];
  /* The members in the order of the AssumeRole input shape, as botocore serializes them. */
  FormField fields[] = {
    { "RoleArn", role_arn },
    { "RoleSessionName", session_name },
    { "DurationSeconds", NULL },
    { "ExternalId", external_id },
    { "SerialNumber", serial_number },
    { "TokenCode", token_code },
  };

  if (duration_seconds >= 0)
    {
      g_snprintf (duration, sizeof duration, "%" G_GINT64_FORMAT, duration_seconds);
      fields[2].value = duration;
    }
  return form_body ("Action=AssumeRole&Version=2011-06-15", fields, G_N_ELEMENTS (fields));
}

char *
ddb_sts_web_identity_body (const char *role_arn, const char *session_name,
                           const char *web_identity_token, gint64 duration_seconds)
{
  char duration[32];
  FormField fields[] = {
    { "RoleArn", role_arn },
    { "RoleSessionName", session_name },
    { "WebIdentityToken", web_identity_token },
    { "DurationSeconds", NULL },
  };

  if (duration_seconds >= 0)
    {
      g_snprintf (duration, sizeof duration, "%" G_GINT64_FORMAT, duration_seconds);
      fields[3].value = duration;
    }
  return form_body ("Action=AssumeRoleWithWebIdentity&Version=2011-06-15", fields,
                    G_N_ELEMENTS (fields));
}

/* ---- STS's answers ---- */

typedef struct {
  const char *result; /* "AssumeRoleResult", ... */
  /* The text of the innermost open element since its start or its last child's end, kept only
   * when it is one of the fields below (SLOT says which). */
  GString *text;
  GString **slot;
  GString *access_key_id, *secret_access_key, *session_token, *expiration;
  GString *arn, *account, *user_id;
  GString *code, *message;
} StsParse;

static gboolean
name_is (const DdbXmlName *name, const char *literal)
{
  return name->len == strlen (literal) && memcmp (name->str, literal, name->len) == 0;
}

/* Where the text of the innermost of the DEPTH open elements of STACK goes when it ends:
 * <Result>/Arn, Account, UserId; <Result>/Credentials/AccessKeyId, SecretAccessKey,
 * SessionToken, Expiration; Error/Code, Message at any depth. A later one replaces an earlier
 * one. */
static GString **
sts_slot (StsParse *st, const DdbXmlName *stack, guint depth)
{
  static const DdbXmlName none = { "", 0 };
  const DdbXmlName *name, *parent, *grandparent;

  if (depth == 0)
    return NULL;
  name = &stack[depth - 1];
  parent = depth >= 2 ? &stack[depth - 2] : &none;
  grandparent = depth >= 3 ? &stack[depth - 3] : &none;
  if (name_is (parent, st->result))
    {
      if (name_is (name, "Arn"))
        return &st->arn;
      if (name_is (name, "Account"))
        return &st->account;
      if (name_is (name, "UserId"))
        return &st->user_id;
    }
  else if (name_is (parent, "Credentials") && name_is (grandparent, st->result))
    {
      if (name_is (name, "AccessKeyId"))
        return &st->access_key_id;
      if (name_is (name, "SecretAccessKey"))
        return &st->secret_access_key;
      if (name_is (name, "SessionToken"))
        return &st->session_token;
      if (name_is (name, "Expiration"))
        return &st->expiration;
    }
  else if (name_is (parent, "Error"))
    {
      if (name_is (name, "Code"))
        return &st->code;
      if (name_is (name, "Message"))
        return &st->message;
    }
  return NULL;
}

static void
sts_clear_text (StsParse *st)
{
  ddb_secure_zero (st->text->str, st->text->len);
  g_string_truncate (st->text, 0);
}

static void
sts_start (gpointer data, const DdbXmlName *stack, guint depth)
{
  StsParse *st = data;

  sts_clear_text (st);
  st->slot = sts_slot (st, stack, depth);
}

static void
sts_end (gpointer data, const DdbXmlName *stack, guint depth)
{
  StsParse *st = data;

  if (st->slot != NULL)
    {
      /* The text moves to its field as it is: no copy. */
      ddb_secret_string_free (*st->slot);
      *st->slot = st->text;
      st->text = ddb_secret_string_new (0);
    }
  else
    sts_clear_text (st);
  /* What follows is the parent's text. */
  st->slot = sts_slot (st, stack, depth - 1);
}

static void
sts_text (gpointer data, const char *text, gsize len)
{
  StsParse *st = data;

  if (st->slot != NULL)
    ddb_secret_string_append_len (st->text, text, len);
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
  /* The tail the move left behind. */
  ddb_secure_zero (s->str + (end - start), s->len - (end - start));
  g_string_truncate (s, end - start);
}

/* Parses BODY into ST; FALSE (with ERROR) for an error answer. */
static gboolean
sts_parse (StsParse *st, const char *operation, guint status, const char *body, gsize len,
           GError **error)
{
  static const DdbXmlHandler handler = { sts_start, sts_end, sts_text };
  g_autofree char *result = g_strconcat (operation, "Result", NULL);
  const char *why = NULL;
  gsize at = 0;
  gboolean parsed;

  st->result = result;
  st->text = ddb_secret_string_new (0);
  parsed = ddb_xml_read (body, len, &handler, st, &why, &at);
  if (!parsed)
    g_debug ("The %s response from STS is not well-formed XML: %s at byte %" G_GSIZE_FORMAT,
             operation, why, at);
  st->result = NULL;
  st->slot = NULL;
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
