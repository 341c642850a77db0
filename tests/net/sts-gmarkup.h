/* sts-gmarkup.h: STS's answers read as net/sts.c read them with GMarkup before it had an XML
 * reader of its own (issue 27: GMarkup frees its buffers unwiped), kept as the reference that
 * tests/net/test-sts.c and fuzz/fuzz-sts.c compare the reader with. The same handlers, paths
 * and messages; two changes: G_MARKUP_TREAT_CDATA_AS_TEXT, since a CDATA section is text in XML
 * (the old code passed 0 and so dropped it), and the line ends normalized first, in CDATA
 * sections too.
 *
 * Both readings are turned into one string per (operation, status), for comparing:
 * "credentials" or "identity" with the fields (each as length:text, "-" for none), or "error"
 * with the GError's message. Static functions: include it once. */
#pragma once

#include <string.h>

#include "net/secret-json.h"
#include "net/sts.h"

typedef struct {
  const char *result;
  GPtrArray *stack;
  GString *text;
  GString *access_key_id, *secret_access_key, *session_token, *expiration;
  GString *arn, *account, *user_id;
  GString *code, *message;
  gboolean parsed;
} StsReference;

static const char *
sts_reference_stack_at (StsReference *st, guint from_top)
{
  if (st->stack->len <= from_top)
    return "";
  return g_ptr_array_index (st->stack, st->stack->len - 1 - from_top);
}

static void
sts_reference_start (GMarkupParseContext *ctx, const char *name, const char **attr_names,
                     const char **attr_values, gpointer data, GError **error)
{
  StsReference *st = data;

  g_ptr_array_add (st->stack, g_strdup (name));
  g_string_truncate (st->text, 0);
}

static void
sts_reference_store (GString **slot, GString *text)
{
  if (*slot != NULL)
    g_string_free (*slot, TRUE);
  *slot = g_string_new_len (text->str, (gssize) text->len);
}

static void
sts_reference_end (GMarkupParseContext *ctx, const char *name, gpointer data, GError **error)
{
  StsReference *st = data;

  if (strcmp (sts_reference_stack_at (st, 1), st->result) == 0)
    {
      if (strcmp (name, "Arn") == 0)
        sts_reference_store (&st->arn, st->text);
      else if (strcmp (name, "Account") == 0)
        sts_reference_store (&st->account, st->text);
      else if (strcmp (name, "UserId") == 0)
        sts_reference_store (&st->user_id, st->text);
    }
  else if (strcmp (sts_reference_stack_at (st, 1), "Credentials") == 0
           && strcmp (sts_reference_stack_at (st, 2), st->result) == 0)
    {
      if (strcmp (name, "AccessKeyId") == 0)
        sts_reference_store (&st->access_key_id, st->text);
      else if (strcmp (name, "SecretAccessKey") == 0)
        sts_reference_store (&st->secret_access_key, st->text);
      else if (strcmp (name, "SessionToken") == 0)
        sts_reference_store (&st->session_token, st->text);
      else if (strcmp (name, "Expiration") == 0)
        sts_reference_store (&st->expiration, st->text);
    }
  else if (strcmp (sts_reference_stack_at (st, 1), "Error") == 0)
    {
      if (strcmp (name, "Code") == 0)
        sts_reference_store (&st->code, st->text);
      else if (strcmp (name, "Message") == 0)
        sts_reference_store (&st->message, st->text);
    }
  g_ptr_array_set_size (st->stack, st->stack->len - 1);
  g_string_truncate (st->text, 0);
}

static void
sts_reference_text (GMarkupParseContext *ctx, const char *text, gsize len, gpointer data,
                    GError **error)
{
  StsReference *st = data;

  g_string_append_len (st->text, text, (gssize) len);
}

static void
sts_reference_trim (GString *s)
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

/* BODY with its line ends as XML reads them (2.11: each \r\n and lone \r as \n, before
 * parsing): GMarkup does so in text, but not in a CDATA section, which it hands over as it
 * is. A \r from "&#13;" stays: GMarkup makes it after this. */
static GString *
sts_reference_line_ends (const char *body, gsize len)
{
  GString *out = g_string_sized_new (len);

  for (gsize i = 0; i < len; i++)
    if (body[i] != '\r')
      g_string_append_c (out, body[i]);
    else
      {
        g_string_append_c (out, '\n');
        if (i + 1 < len && body[i + 1] == '\n')
          i++;
      }
  return out;
}

static void
sts_reference_parse (StsReference *st, const char *operation, const char *body, gsize len)
{
  GString *normalized = sts_reference_line_ends (body, len);
  static const GMarkupParser parser
      = { sts_reference_start, sts_reference_end, sts_reference_text, NULL, NULL };
  char *result = g_strconcat (operation, "Result", NULL);
  GMarkupParseContext *ctx;

  memset (st, 0, sizeof *st);
  st->result = result;
  st->stack = g_ptr_array_new_with_free_func (g_free);
  st->text = g_string_new (NULL);
  ctx = g_markup_parse_context_new (&parser, G_MARKUP_TREAT_CDATA_AS_TEXT, st, NULL);
  st->parsed = g_markup_parse_context_parse (ctx, normalized->str, (gssize) normalized->len, NULL)
               && g_markup_parse_context_end_parse (ctx, NULL);
  g_markup_parse_context_free (ctx);
  g_string_free (normalized, TRUE);
  st->result = NULL;
  g_free (result);
  sts_reference_trim (st->access_key_id);
  sts_reference_trim (st->secret_access_key);
  sts_reference_trim (st->session_token);
  sts_reference_trim (st->expiration);
  sts_reference_trim (st->arn);
  sts_reference_trim (st->account);
  sts_reference_trim (st->user_id);
}

static void
sts_reference_clear (StsReference *st)
{
  GString **all[]
      = { &st->text,       &st->access_key_id, &st->secret_access_key, &st->session_token,
          &st->expiration, &st->arn,           &st->account,           &st->user_id,
          &st->code,       &st->message };

  g_ptr_array_free (st->stack, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    if (*all[i] != NULL)
      g_string_free (*all[i], TRUE);
}

/* One field of an outcome: its length and text, or "-". */
static void
sts_outcome_add (GString *out, const char *field)
{
  if (field == NULL)
    {
      g_string_append (out, " -");
      return;
    }
  g_string_append_printf (out, " %" G_GSIZE_FORMAT ":%s", strlen (field), field);
}

static char *
sts_outcome_error (const char *message)
{
  return g_strconcat ("error ", message, NULL);
}

static char *
sts_outcome_credentials (const char *access_key_id, const char *secret_access_key,
                         const char *session_token, gint64 expiration)
{
  GString *out = g_string_new ("credentials");

  sts_outcome_add (out, access_key_id);
  sts_outcome_add (out, secret_access_key);
  sts_outcome_add (out, session_token);
  g_string_append_printf (out, " %" G_GINT64_FORMAT, expiration);
  return g_string_free (out, FALSE);
}

static char *
sts_outcome_identity (const char *arn, const char *account, const char *user_id)
{
  GString *out = g_string_new ("identity");

  sts_outcome_add (out, arn);
  sts_outcome_add (out, account);
  sts_outcome_add (out, user_id);
  return g_string_free (out, FALSE);
}

static const char *
sts_reference_str (GString *s)
{
  return s != NULL ? s->str : NULL;
}

/* OPERATION: "AssumeRole", "AssumeRoleWithWebIdentity" (credentials) or "GetCallerIdentity". */
static char *
sts_outcome_reference (const char *operation, guint status, const char *body, gsize len)
{
  StsReference st;
  char *out = NULL;
  gint64 expiration = 0;

  sts_reference_parse (&st, operation, body, len);
  char *message = NULL;

  if (status >= 200 && status <= 299 && !st.parsed)
    message = g_strdup_printf ("The %s response from STS is not XML", operation);
  else if (!(status >= 200 && status <= 299))
    message
        = st.parsed && st.code != NULL
              ? g_strdup_printf ("An error occurred (%s) when calling the %s operation: %s",
                                 st.code->str, operation, st.message != NULL ? st.message->str : "")
              : g_strdup_printf ("An error occurred (%u) when calling the %s operation", status,
                                 operation);
  else if (strcmp (operation, "GetCallerIdentity") == 0)
    {
      if (st.arn == NULL)
        message = g_strdup ("The GetCallerIdentity response from STS has no Arn");
      else
        out = sts_outcome_identity (st.arn->str, sts_reference_str (st.account),
                                    sts_reference_str (st.user_id));
    }
  else if (st.access_key_id == NULL || st.secret_access_key == NULL || st.session_token == NULL
           || st.expiration == NULL)
    message = g_strdup_printf ("The %s response from STS has no credentials", operation);
  else if (!ddb_aws_parse_timestamp (st.expiration->str, &expiration))
    message = g_strdup_printf ("The %s response from STS has an invalid Expiration", operation);
  else
    out = sts_outcome_credentials (st.access_key_id->str, st.secret_access_key->str,
                                   st.session_token->str, expiration);
  if (message != NULL)
    out = sts_outcome_error (message);
  g_free (message);
  sts_reference_clear (&st);
  return out;
}

static char *
sts_outcome_ours (const char *operation, guint status, const char *body, gsize len)
{
  GError *error = NULL;
  char *out;

  if (strcmp (operation, "GetCallerIdentity") == 0)
    {
      char *arn = NULL, *account = NULL, *user_id = NULL;

      if (ddb_sts_parse_caller_identity (status, body, len, &arn, &account, &user_id, &error))
        out = sts_outcome_identity (arn, account, user_id);
      else
        out = sts_outcome_error (error->message);
      g_free (arn);
      g_free (account);
      g_free (user_id);
    }
  else
    {
      DdbAwsCredentials *creds
          = ddb_sts_parse_credentials (operation, status, body, len, "test", &error);

      if (creds != NULL)
        out = sts_outcome_credentials (creds->creds.access_key_id, creds->creds.secret_access_key,
                                       creds->creds.session_token, creds->expiration);
      else
        out = sts_outcome_error (error->message);
      ddb_aws_credentials_free (creds);
    }
  g_clear_error (&error);
  return out;
}

static gboolean
sts_reference_accepts (const char *body, gsize len)
{
  StsReference st;
  gboolean parsed;

  sts_reference_parse (&st, "GetCallerIdentity", body, len);
  parsed = st.parsed;
  sts_reference_clear (&st);
  return parsed;
}

/* Whether net/sts.c's reader takes BODY for XML: only then is a 2xx answer more than "not
 * XML". */
static gboolean
sts_ours_accepts (const char *body, gsize len)
{
  char *out = sts_outcome_ours ("GetCallerIdentity", 200, body, len);
  gboolean accepted = strcmp (out, "error The GetCallerIdentity response from STS is not XML") != 0;

  g_free (out);
  return accepted;
}

/* GMarkup ends a comment at the first "--" and ">", even the "--" of "<!--" itself: "<!-->" and
 * "<!--->" close the comment they open (XML reads on to the next "-->"). With those in the body,
 * both may take it and read different text. */
static gboolean
sts_reference_misreads_comments (const char *body, gsize len)
{
  static const char *const patterns[] = { "<!-->", "<!--->" };

  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    {
      gsize n = strlen (patterns[i]);

      for (gsize at = 0; at + n <= len; at++)
        if (memcmp (body + at, patterns[i], n) == 0)
          return TRUE;
    }
  return FALSE;
}

/* When both readers take BODY: the outcomes of every operation at STATUS agree (NULL), or the
 * first that does not ("operation: ours | reference", to free). */
static char *
sts_outcome_compare (const char *body, gsize len, guint status)
{
  static const char *const operations[]
      = { "AssumeRole", "AssumeRoleWithWebIdentity", "GetCallerIdentity" };
  char *diff = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (operations); i++)
    {
      char *ours = sts_outcome_ours (operations[i], status, body, len);
      char *reference = sts_outcome_reference (operations[i], status, body, len);

      if (diff == NULL && strcmp (ours, reference) != 0)
        diff = g_strdup_printf ("%s at %u: %s | %s", operations[i], status, ours, reference);
      g_free (ours);
      g_free (reference);
    }
  return diff;
}
