/* credentials.c: the AWS CLI v2 credential chain (botocore's create_credential_resolver,
 * AssumeRoleProvider, ProcessProvider, RefreshableCredentials) for one profile, plus the region
 * and endpoint the session uses. The chain is decided up front from the configuration alone,
 * as botocore's providers only ever decline for lack of configuration; fetching (running the
 * process, calling STS) happens when credentials are first asked for. */
#include "net/credentials.h"

#include "net/hash.h"

#include <string.h>

/* botocore's RefreshableCredentials windows. */
#define ADVISORY_REFRESH (15 * 60)
#define MANDATORY_REFRESH (10 * 60)

/* ---- DdbAwsCredentials ---- */

DdbAwsCredentials *
ddb_aws_credentials_new (const char *access_key_id, const char *secret_access_key,
                         const char *session_token, gint64 expiration, const char *method)
{
  DdbAwsCredentials *c = g_new0 (DdbAwsCredentials, 1);

  c->creds.access_key_id = g_strdup (access_key_id);
  c->creds.secret_access_key = g_strdup (secret_access_key);
  c->creds.session_token = g_strdup (session_token);
  c->expiration = expiration;
  c->method = method;
  return c;
}

DdbAwsCredentials *
ddb_aws_credentials_copy (const DdbAwsCredentials *creds)
{
  return ddb_aws_credentials_new (creds->creds.access_key_id, creds->creds.secret_access_key,
                                  creds->creds.session_token, creds->expiration, creds->method);
}

void
ddb_aws_credentials_free (DdbAwsCredentials *creds)
{
  if (creds == NULL)
    return;
  ddb_secret_free ((char *) creds->creds.access_key_id);
  ddb_secret_free ((char *) creds->creds.secret_access_key);
  ddb_secret_free ((char *) creds->creds.session_token);
  g_free (creds);
}

static const char *
nonempty (const char *s)
{
  return s != NULL && s[0] != '\0' ? s : NULL;
}

static void
wipe_string (GString *s)
{
  if (s != NULL)
    ddb_secure_zero (s->str, s->allocated_len);
}

static void
secret_string_free (GString *s)
{
  if (s == NULL)
    return;
  wipe_string (s);
  g_string_free (s, TRUE);
}

static gboolean
parse_timestamp (const char *text, gint64 *out)
{
  g_autoptr (GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr (GDateTime) dt = g_date_time_new_from_iso8601 (text, utc);

  if (dt == NULL)
    return FALSE;
  *out = g_date_time_to_unix (dt);
  return TRUE;
}

/* ---- credential_process output: a small strict JSON reader ----
 * Only one flat object is wanted, and its buffers must be wiped, which a general JSON library's
 * allocations would not be. */

typedef struct {
  const char *p;
  const char *end;
} JsonReader;

static void
json_ws (JsonReader *r)
{
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
    r->p++;
}

static int
hex4 (const char *p)
{
  int v = 0;

  for (int i = 0; i < 4; i++)
    {
      int d = g_ascii_xdigit_value (p[i]);

      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
  return v;
}

static gboolean
json_string (JsonReader *r, GString *out)
{
  if (r->p >= r->end || *r->p != '"')
    return FALSE;
  r->p++;
  while (r->p < r->end)
    {
      unsigned char c = *r->p;

      if (c == '"')
        {
          r->p++;
          return TRUE;
        }
      if (c < 0x20)
        return FALSE;
      if (c != '\\')
        {
          if (out)
            g_string_append_c (out, c);
          r->p++;
          continue;
        }
      if (r->end - r->p < 2)
        return FALSE;
      switch (r->p[1])
        {
        case '"':
        case '\\':
        case '/':
          if (out)
            g_string_append_c (out, r->p[1]);
          r->p += 2;
          break;
        case 'b':
          if (out)
            g_string_append_c (out, '\b');
          r->p += 2;
          break;
        case 'f':
          if (out)
            g_string_append_c (out, '\f');
          r->p += 2;
          break;
        case 'n':
          if (out)
            g_string_append_c (out, '\n');
          r->p += 2;
          break;
        case 'r':
          if (out)
            g_string_append_c (out, '\r');
          r->p += 2;
          break;
        case 't':
          if (out)
            g_string_append_c (out, '\t');
          r->p += 2;
          break;
          case 'u': {
            int u, lo;

            if (r->end - r->p < 6 || (u = hex4 (r->p + 2)) < 0)
              return FALSE;
            r->p += 6;
            if (u >= 0xD800 && u < 0xDC00)
              {
                if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u'
                    || (lo = hex4 (r->p + 2)) < 0xDC00 || lo > 0xDFFF)
                  return FALSE;
                r->p += 6;
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
              }
            else if (u >= 0xDC00 && u < 0xE000)
              return FALSE;
            if (out)
              g_string_append_unichar (out, u);
            break;
          }
        default:
          return FALSE;
        }
    }
  return FALSE;
}

static gboolean
json_number (JsonReader *r)
{
  const char *p = r->p;

  if (p < r->end && *p == '-')
    p++;
  if (p >= r->end || !g_ascii_isdigit (*p))
    return FALSE;
  if (*p == '0')
    p++;
  else
    while (p < r->end && g_ascii_isdigit (*p))
      p++;
  if (p < r->end && *p == '.')
    {
      p++;
      if (p >= r->end || !g_ascii_isdigit (*p))
        return FALSE;
      while (p < r->end && g_ascii_isdigit (*p))
        p++;
    }
  if (p < r->end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < r->end && (*p == '+' || *p == '-'))
        p++;
      if (p >= r->end || !g_ascii_isdigit (*p))
        return FALSE;
      while (p < r->end && g_ascii_isdigit (*p))
        p++;
    }
  r->p = p;
  return TRUE;
}

static gboolean
json_literal (JsonReader *r, const char *word)
{
  gsize n = strlen (word);

  if ((gsize) (r->end - r->p) < n || memcmp (r->p, word, n) != 0)
    return FALSE;
  r->p += n;
  return TRUE;
}

/* Skips any value. */
static gboolean
json_skip (JsonReader *r, guint depth)
{
  char open;

  if (depth > 64)
    return FALSE;
  json_ws (r);
  if (r->p >= r->end)
    return FALSE;
  switch (*r->p)
    {
    case '"':
      return json_string (r, NULL);
    case 't':
      return json_literal (r, "true");
    case 'f':
      return json_literal (r, "false");
    case 'n':
      return json_literal (r, "null");
    case '{':
    case '[':
      open = *r->p++;
      json_ws (r);
      if (r->p < r->end && *r->p == (open == '{' ? '}' : ']'))
        {
          r->p++;
          return TRUE;
        }
      for (;;)
        {
          if (open == '{')
            {
              json_ws (r);
              if (!json_string (r, NULL))
                return FALSE;
              json_ws (r);
              if (r->p >= r->end || *r->p++ != ':')
                return FALSE;
            }
          if (!json_skip (r, depth + 1))
            return FALSE;
          json_ws (r);
          if (r->p >= r->end)
            return FALSE;
          if (*r->p == ',')
            {
              r->p++;
              continue;
            }
          if (*r->p++ != (open == '{' ? '}' : ']'))
            return FALSE;
          return TRUE;
        }
    default:
      return json_number (r);
    }
}

typedef enum {
  JV_ABSENT,
  JV_STRING,
  JV_NULL,
  JV_OTHER,
} JsonKind;

typedef struct {
  const char *name;
  JsonKind kind;
  GString *text; /* the string, or a number's literal text */
} JsonField;

static gboolean
process_error (GError **error, const char *msg)
{
  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
               "Error when retrieving credentials from custom-process: %s", msg);
  return FALSE;
}

/* Version must equal 1, as Python compares it: 1, 1.0, 1e0 ... */
static gboolean
version_is_one (JsonField *f)
{
  const char *s;

  if (f->kind != JV_OTHER || f->text == NULL)
    return FALSE;
  s = f->text->str;
  if (*s++ != '1')
    return FALSE;
  if (*s == '.')
    for (s++; *s == '0'; s++)
      ;
  if (*s == 'e' || *s == 'E')
    {
      s++;
      if (*s == '+' || *s == '-')
        s++;
      for (; *s == '0'; s++)
        ;
    }
  return *s == '\0';
}

DdbAwsCredentials *
ddb_aws_parse_process_output (const char *text, gsize len, GError **error)
{
  JsonField fields[] = {
    { "Version" }, { "AccessKeyId" }, { "SecretAccessKey" }, { "SessionToken" }, { "Expiration" },
  };
  JsonReader r = { text, text + len };
  gboolean ok = FALSE;
  DdbAwsCredentials *creds = NULL;
  gint64 expiration = 0;
  g_autoptr (GString) key = g_string_new (NULL);

  json_ws (&r);
  if (r.p < r.end && *r.p == '{')
    {
      r.p++;
      json_ws (&r);
      if (r.p < r.end && *r.p == '}')
        {
          r.p++;
          ok = TRUE;
        }
      else
        for (;;)
          {
            JsonField *f = NULL;

            json_ws (&r);
            g_string_truncate (key, 0);
            if (!json_string (&r, key))
              break;
            json_ws (&r);
            if (r.p >= r.end || *r.p++ != ':')
              break;
            json_ws (&r);
            for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
              if (strcmp (key->str, fields[i].name) == 0)
                f = &fields[i];
            if (f == NULL)
              {
                if (!json_skip (&r, 0))
                  break;
              }
            else
              {
                const char *start = r.p;

                /* A repeated key: the last one wins, as in Python's json. */
                secret_string_free (f->text);
                f->text = NULL;
                if (r.p < r.end && *r.p == '"')
                  {
                    f->kind = JV_STRING;
                    f->text = g_string_new (NULL);
                    if (!json_string (&r, f->text))
                      break;
                  }
                else if (r.p < r.end && *r.p == 'n')
                  {
                    f->kind = JV_NULL;
                    if (!json_literal (&r, "null"))
                      break;
                  }
                else
                  {
                    f->kind = JV_OTHER;
                    if (!json_skip (&r, 0))
                      break;
                    f->text = g_string_new_len (start, r.p - start);
                  }
              }
            json_ws (&r);
            if (r.p < r.end && *r.p == ',')
              {
                r.p++;
                continue;
              }
            if (r.p < r.end && *r.p == '}')
              {
                r.p++;
                ok = TRUE;
              }
            break;
          }
      json_ws (&r);
      if (r.p != r.end)
        ok = FALSE;
    }

  /* The output is never quoted in errors: it holds the secret. */
  if (!ok)
    process_error (error, "its output is not a JSON object");
  else if (fields[0].kind == JV_ABSENT)
    process_error (error, "Unsupported version '<Version key not provided>' for credential "
                          "process provider, supported versions: 1");
  else if (!version_is_one (&fields[0]))
    {
      g_autofree char *msg = g_strdup_printf (
          "Unsupported version '%s' for credential process provider, supported versions: 1",
          fields[0].kind == JV_NULL ? "None" : fields[0].text->str);
      process_error (error, msg);
    }
  else if (fields[1].kind == JV_ABSENT)
    process_error (error, "Missing required key in response: 'AccessKeyId'");
  else if (fields[2].kind == JV_ABSENT)
    process_error (error, "Missing required key in response: 'SecretAccessKey'");
  else if (fields[1].kind != JV_STRING || fields[2].kind != JV_STRING
           || (fields[3].kind != JV_ABSENT && fields[3].kind != JV_NULL
               && fields[3].kind != JV_STRING))
    process_error (error, "AccessKeyId, SecretAccessKey and SessionToken must be strings");
  else if (fields[4].kind != JV_ABSENT && fields[4].kind != JV_NULL
           && (fields[4].kind != JV_STRING || !parse_timestamp (fields[4].text->str, &expiration)))
    process_error (error, "Expiration is not an ISO 8601 date and time");
  else
    creds = ddb_aws_credentials_new (fields[1].text->str, fields[2].text->str,
                                     fields[3].kind == JV_STRING ? fields[3].text->str : NULL,
                                     expiration, "custom-process");

  wipe_string (key);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    secret_string_free (fields[i].text);
  return creds;
}

/* ---- STS AssumeRole ---- */

static void
form_add (GString *body, const char *name, const char *value)
{
  g_autofree char *escaped = g_uri_escape_string (value, NULL, FALSE);

  g_string_append_printf (body, "&%s=%s", name, escaped);
}

char *
ddb_aws_assume_role_body (const char *role_arn, const char *session_name, const char *external_id,
                          gint64 duration_seconds)
{
  GString *body = g_string_new ("Action=AssumeRole&Version=2011-06-15");

  /* The members in the order of the AssumeRole input shape, as botocore serializes them. */
  form_add (body, "RoleArn", role_arn);
  form_add (body, "RoleSessionName", session_name);
  if (duration_seconds >= 0)
    {
      char n[32];

      g_snprintf (n, sizeof n, "%" G_GINT64_FORMAT, duration_seconds);
      form_add (body, "DurationSeconds", n);
    }
  if (external_id != NULL)
    form_add (body, "ExternalId", external_id);
  return g_string_free (body, FALSE);
}

typedef struct {
  GPtrArray *stack; /* element names */
  GString *text;
  GString *access_key_id, *secret_access_key, *session_token, *expiration;
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
  secret_string_free (*slot);
  *slot = g_string_new_len (text->str, text->len);
}

static void
sts_end (GMarkupParseContext *ctx, const char *name, gpointer data, GError **error)
{
  StsParse *st = data;

  if (strcmp (stack_at (st, 1), "Credentials") == 0
      && strcmp (stack_at (st, 2), "AssumeRoleResult") == 0)
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

DdbAwsCredentials *
ddb_aws_parse_assume_role_response (guint status, const char *body, gsize len, GError **error)
{
  static const GMarkupParser parser = { sts_start, sts_end, sts_text, NULL, NULL };
  StsParse st = { 0 };
  GMarkupParseContext *ctx;
  gboolean parsed;
  DdbAwsCredentials *creds = NULL;
  gint64 expiration = 0;

  st.stack = g_ptr_array_new_with_free_func (g_free);
  st.text = g_string_new (NULL);
  ctx = g_markup_parse_context_new (&parser, 0, &st, NULL);
  parsed = g_markup_parse_context_parse (ctx, body, len, NULL)
           && g_markup_parse_context_end_parse (ctx, NULL);
  g_markup_parse_context_free (ctx);
  trim_string (st.access_key_id);
  trim_string (st.secret_access_key);
  trim_string (st.session_token);
  trim_string (st.expiration);

  if (status < 200 || status > 299)
    {
      if (parsed && st.code != NULL)
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                     "An error occurred (%s) when calling the AssumeRole operation: %s",
                     st.code->str, st.message != NULL ? st.message->str : "");
      else
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                     "An error occurred (%u) when calling the AssumeRole operation", status);
    }
  else if (!parsed || st.access_key_id == NULL || st.secret_access_key == NULL
           || st.session_token == NULL || st.expiration == NULL)
    /* The body is never quoted: it may hold the secret. */
    g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                         "The AssumeRole response from STS has no credentials");
  else if (!parse_timestamp (st.expiration->str, &expiration))
    g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                         "The AssumeRole response from STS has an invalid Expiration");
  else
    creds = ddb_aws_credentials_new (st.access_key_id->str, st.secret_access_key->str,
                                     st.session_token->str, expiration, "assume-role");

  g_ptr_array_free (st.stack, TRUE);
  secret_string_free (st.text);
  secret_string_free (st.access_key_id);
  secret_string_free (st.secret_access_key);
  secret_string_free (st.session_token);
  secret_string_free (st.expiration);
  secret_string_free (st.code);
  secret_string_free (st.message);
  return creds;
}

/* ---- The chain ---- */

typedef enum {
  SOURCE_STATIC,
  SOURCE_PROCESS,
  SOURCE_ASSUME_ROLE,
} SourceKind;

typedef struct _Source Source;
struct _Source {
  SourceKind kind;
  char *profile;
  DdbAwsCredentials *cached;
  char *command;      /* credential_process */
  char *role_arn;     /* assume role */
  char *session_name; /* or NULL: one is made up per call */
  char *external_id;
  gint64 duration_seconds;
  Source *source;
};

static void
source_free (Source *src)
{
  if (src == NULL)
    return;
  g_free (src->profile);
  ddb_aws_credentials_free (src->cached);
  ddb_secret_free (src->command);
  g_free (src->role_arn);
  g_free (src->session_name);
  g_free (src->external_id);
  source_free (src->source);
  g_free (src);
}

struct _DdbAwsSession {
  GStrv envp; /* NULL: the process environment */
  DdbAwsConfig *config;
  char *profile;
  gboolean profile_explicit;
  char *region;
  char *endpoint_url;
  const char *signing_region;
  gboolean endpoint_custom;
  DdbStsTransport sts_transport;
  gpointer sts_user_data;
  Source *chain; /* NULL: no credentials configured */
  GMutex lock;
};

static const char *const *
session_env (DdbAwsSession *s)
{
  return (const char *const *) s->envp;
}

static Source *
static_source (const char *profile, const char *id, const char *secret, const char *token,
               const char *method)
{
  Source *src = g_new0 (Source, 1);

  src->kind = SOURCE_STATIC;
  src->profile = g_strdup (profile);
  src->cached = ddb_aws_credentials_new (id, secret, token, 0, method);
  return src;
}

static gboolean
partial (GError **error, const char *provider, const char *missing)
{
  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_PARTIAL_CREDENTIALS,
               "Partial credentials found in %s, missing: %s", provider, missing);
  return FALSE;
}

/* botocore's EnvProvider: AWS_ACCESS_KEY_ID (non-empty) makes the others required. */
static gboolean
env_source (DdbAwsSession *s, Source **out, GError **error)
{
  const char *id = nonempty (ddb_aws_getenv (session_env (s), "AWS_ACCESS_KEY_ID"));
  const char *secret, *token;

  *out = NULL;
  if (id == NULL)
    return TRUE;
  secret = nonempty (ddb_aws_getenv (session_env (s), "AWS_SECRET_ACCESS_KEY"));
  if (secret == NULL)
    return partial (error, "env", "AWS_SECRET_ACCESS_KEY");
  token = nonempty (ddb_aws_getenv (session_env (s), "AWS_SECURITY_TOKEN"));
  if (token == NULL)
    token = nonempty (ddb_aws_getenv (session_env (s), "AWS_SESSION_TOKEN"));
  *out = static_source (NULL, id, secret, token, "env");
  return TRUE;
}

/* Static keys from one file's profile (SharedCredentialProvider / ConfigProvider). */
static gboolean
file_source (DdbAwsSession *s, DdbAwsFile file, const char *profile, Source **out, GError **error)
{
  const char *method = file == DDB_AWS_FILE_CREDENTIALS ? "shared-credentials-file" : "config-file";
  const char *id, *secret, *token;

  *out = NULL;
  if (!ddb_aws_config_file_has (s->config, file, profile, "aws_access_key_id"))
    return TRUE;
  id = ddb_aws_config_file_get (s->config, file, profile, "aws_access_key_id");
  secret = ddb_aws_config_file_get (s->config, file, profile, "aws_secret_access_key");
  if (id == NULL)
    return partial (error, method, "aws_access_key_id");
  if (secret == NULL)
    return partial (error, method, "aws_secret_access_key");
  token = ddb_aws_config_file_get (s->config, file, profile, "aws_security_token");
  if (token == NULL)
    token = ddb_aws_config_file_get (s->config, file, profile, "aws_session_token");
  *out = static_source (profile, id, secret, token, method);
  return TRUE;
}

static gboolean
unsupported (GError **error, const char *profile, const char *what)
{
  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_UNSUPPORTED,
               "The profile \"%s\" uses %s, which Dynoscope does not support; a "
               "credential_process such as `aws configure export-credentials --profile %s "
               "--format process` can stand in for it",
               profile, what, profile);
  return FALSE;
}

/* botocore's ProfileProviderBuilder.providers: web identity, SSO, the credentials file,
 * credential_process, the config file. */
static gboolean
profile_sources (DdbAwsSession *s, const char *profile, gboolean disable_env, Source **out,
                 GError **error)
{
  static const char *const sso_keys[]
      = { "sso_session", "sso_start_url", "sso_region", "sso_account_id", "sso_role_name" };
  const char *token_file = NULL, *role_arn = NULL, *process;

  *out = NULL;
  if (!disable_env)
    {
      token_file = nonempty (ddb_aws_getenv (session_env (s), "AWS_WEB_IDENTITY_TOKEN_FILE"));
      role_arn = nonempty (ddb_aws_getenv (session_env (s), "AWS_ROLE_ARN"));
    }
  if (token_file == NULL)
    token_file = ddb_aws_config_get (s->config, profile, "web_identity_token_file");
  if (role_arn == NULL)
    role_arn = ddb_aws_config_get (s->config, profile, "role_arn");
  if (token_file != NULL && role_arn != NULL)
    return unsupported (error, profile, "web identity (web_identity_token_file)");
  for (guint i = 0; i < G_N_ELEMENTS (sso_keys); i++)
    if (ddb_aws_config_has (s->config, profile, sso_keys[i]))
      return unsupported (error, profile, "IAM Identity Center (SSO)");

  if (!file_source (s, DDB_AWS_FILE_CREDENTIALS, profile, out, error))
    return FALSE;
  if (*out != NULL)
    return TRUE;
  process = ddb_aws_config_get (s->config, profile, "credential_process");
  if (process != NULL)
    {
      Source *src = g_new0 (Source, 1);

      src->kind = SOURCE_PROCESS;
      src->profile = g_strdup (profile);
      src->command = g_strdup (process);
      *out = src;
      return TRUE;
    }
  return file_source (s, DDB_AWS_FILE_CONFIG, profile, out, error);
}

static gboolean
has_static_credentials (DdbAwsSession *s, const char *profile)
{
  return ddb_aws_config_has (s->config, profile, "aws_access_key_id")
         || ddb_aws_config_has (s->config, profile, "aws_secret_access_key");
}

static gboolean
has_assume_role_vars (DdbAwsSession *s, const char *profile)
{
  return ddb_aws_config_has (s->config, profile, "role_arn")
         && !ddb_aws_config_has (s->config, profile, "web_identity_token_file");
}

static char *
visited_list (GPtrArray *visited)
{
  GString *out = g_string_new ("[");

  for (guint i = 0; i < visited->len; i++)
    g_string_append_printf (out, "%s'%s'", i ? ", " : "", (char *) g_ptr_array_index (visited, i));
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

static gboolean assume_role_source (DdbAwsSession *s, const char *profile, GPtrArray *visited,
                                    Source **out, GError **error);

static gboolean
validate_source_profile (DdbAwsSession *s, const char *parent, const char *source,
                         GPtrArray *visited, GError **error)
{
  gboolean seen = FALSE;

  if (!ddb_aws_config_has_profile (s->config, source))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                   "The source_profile \"%s\" referenced in the profile \"%s\" does not exist.",
                   source, parent);
      return FALSE;
    }
  for (guint i = 0; i < visited->len; i++)
    if (strcmp (g_ptr_array_index (visited, i), source) == 0)
      seen = TRUE;
  /* A profile may name itself to take static keys from its own section. */
  if (seen && (strcmp (source, parent) != 0 || !has_static_credentials (s, source)))
    {
      g_autofree char *list = visited_list (visited);

      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                   "Infinite loop in credential configuration detected. Attempting to load "
                   "from profile %s which has already been visited. Visited profiles: %s",
                   source, list);
      return FALSE;
    }
  return TRUE;
}

static gboolean
assume_role_source (DdbAwsSession *s, const char *profile, GPtrArray *visited, Source **out,
                    GError **error)
{
  const char *source_profile = ddb_aws_config_get (s->config, profile, "source_profile");
  const char *credential_source = ddb_aws_config_get (s->config, profile, "credential_source");
  const char *duration = ddb_aws_config_get (s->config, profile, "duration_seconds");
  Source *src, *inner = NULL;

  *out = NULL;
  if (credential_source != NULL && source_profile != NULL)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                   "The profile \"%s\" contains both source_profile and credential_source.",
                   profile);
      return FALSE;
    }
  if (credential_source == NULL && source_profile == NULL)
    return partial (error, "assume-role", "source_profile or credential_source");
  if (ddb_aws_config_has (s->config, profile, "mfa_serial"))
    return unsupported (error, profile, "mfa_serial (an MFA code prompt)");

  if (credential_source != NULL)
    {
      if (strcmp (credential_source, "Environment") == 0)
        {
          if (!env_source (s, &inner, error))
            return FALSE;
          if (inner == NULL)
            {
              g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                           "Error when retrieving credentials from Environment: No credentials "
                           "found in credential_source referenced in profile %s",
                           profile);
              return FALSE;
            }
        }
      else if (strcmp (credential_source, "Ec2InstanceMetadata") == 0
               || strcmp (credential_source, "EcsContainer") == 0)
        return unsupported (error, profile,
                            "credential_source = Ec2InstanceMetadata or "
                            "EcsContainer");
      else
        {
          g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                       "The credential source \"%s\" referenced in profile \"%s\" is not valid.",
                       credential_source, profile);
          return FALSE;
        }
    }
  else
    {
      if (!validate_source_profile (s, profile, source_profile, visited, error))
        return FALSE;
      g_ptr_array_add (visited, g_strdup (source_profile));
      /* Static keys (or no role of its own) end the chain at the source profile. */
      if (has_static_credentials (s, source_profile) || !has_assume_role_vars (s, source_profile))
        {
          if (!profile_sources (s, source_profile, TRUE, &inner, error))
            return FALSE;
          if (inner == NULL)
            {
              g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                           "The source profile \"%s\" must have credentials.", source_profile);
              return FALSE;
            }
        }
      else if (!assume_role_source (s, source_profile, visited, &inner, error))
        return FALSE;
    }

  src = g_new0 (Source, 1);
  src->kind = SOURCE_ASSUME_ROLE;
  src->profile = g_strdup (profile);
  src->role_arn = g_strdup (ddb_aws_config_get (s->config, profile, "role_arn"));
  src->session_name = g_strdup (ddb_aws_config_get (s->config, profile, "role_session_name"));
  src->external_id = g_strdup (ddb_aws_config_get (s->config, profile, "external_id"));
  src->duration_seconds = -1;
  if (duration != NULL)
    {
      g_autofree char *d = g_strstrip (g_strdup (duration));
      guint64 n;

      /* Python's int() or nothing: an unusable value is ignored, as the CLI does. */
      if (g_ascii_string_to_unsigned (d, 10, 0, G_MAXINT32, &n, NULL))
        src->duration_seconds = n;
    }
  src->source = inner;
  *out = src;
  return TRUE;
}

/* botocore's create_credential_resolver order: env (unless --profile named one), assume role,
 * then the profile's own providers. */
static gboolean
build_chain (DdbAwsSession *s, GError **error)
{
  g_autoptr (GPtrArray) visited = g_ptr_array_new_with_free_func (g_free);

  if (!s->profile_explicit)
    {
      if (!env_source (s, &s->chain, error))
        return FALSE;
      if (s->chain != NULL)
        return TRUE;
    }
  if (has_assume_role_vars (s, s->profile))
    {
      g_ptr_array_add (visited, g_strdup (s->profile));
      return assume_role_source (s, s->profile, visited, &s->chain, error);
    }
  return profile_sources (s, s->profile, s->profile_explicit, &s->chain, error);
}

/* ---- Fetching ---- */

static DdbAwsCredentials *
run_process (DdbAwsSession *s, Source *src, GError **error)
{
  g_auto (GStrv) argv = NULL;
  g_autofree char *err_text = NULL;
  char *out_text = NULL;
  gint wait_status = 0;
  GError *local = NULL;
  DdbAwsCredentials *creds;
  GSpawnFlags flags = G_SPAWN_SEARCH_PATH;

  argv = ddb_aws_shell_split (src->command, &local);
  if (argv == NULL || argv[0] == NULL)
    {
      process_error (error, local != NULL ? local->message : "credential_process is empty");
      g_clear_error (&local);
      return NULL;
    }
  if (s->envp != NULL)
    flags |= G_SPAWN_SEARCH_PATH_FROM_ENVP;
  if (!g_spawn_sync (NULL, argv, s->envp, flags, NULL, NULL, &out_text, &err_text, &wait_status,
                     &local))
    {
      process_error (error, local->message);
      g_error_free (local);
      return NULL;
    }
  if (!g_spawn_check_wait_status (wait_status, &local))
    {
      /* The CLI reports the process's standard error; its standard output is never shown. */
      g_autofree char *msg = g_utf8_make_valid (err_text, MIN (strlen (err_text), 4096));

      g_strstrip (msg);
      process_error (error, msg[0] != '\0' ? msg : local->message);
      g_error_free (local);
      ddb_secret_free (out_text);
      return NULL;
    }
  creds = ddb_aws_parse_process_output (out_text, strlen (out_text), error);
  ddb_secret_free (out_text);
  return creds;
}

static DdbAwsCredentials *fetch (DdbAwsSession *s, Source *src, gint64 now, GError **error);

static DdbAwsCredentials *
assume_role (DdbAwsSession *s, Source *src, gint64 now, GError **error)
{
  g_autoptr (DdbAwsCredentials) source_creds = NULL;
  g_autofree char *session_name = NULL;
  g_autofree char *body = NULL;
  g_autofree char *url = NULL;
  GBytes *response = NULL;
  guint status = 0;
  DdbStsRequest req = { 0 };
  DdbAwsCredentials *creds;
  gsize len;
  char *data;

  if (s->sts_transport == NULL)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_UNSUPPORTED,
                   "The profile \"%s\" assumes a role, but no way to call STS was given",
                   src->profile);
      return NULL;
    }
  source_creds = fetch (s, src->source, now, error);
  if (source_creds == NULL)
    return NULL;
  session_name = src->session_name != NULL
                     ? g_strdup (src->session_name)
                     : g_strdup_printf ("dynoscope-session-%" G_GINT64_FORMAT, now);
  body = ddb_aws_assume_role_body (src->role_arn, session_name, src->external_id,
                                   src->duration_seconds);
  /* STS is a client of the same session, so the configured endpoints apply to it too. */
  if (!ddb_aws_configured_endpoint (s->config, s->profile, "STS", session_env (s), &url, error))
    return NULL;
  if (url == NULL)
    url = ddb_aws_sts_endpoint (s->region);
  req.url = url;
  req.region = s->region != NULL ? s->region : "us-east-1";
  req.service = "sts";
  req.content_type = "application/x-www-form-urlencoded; charset=utf-8";
  req.body = body;
  req.credentials = &source_creds->creds;
  if (!s->sts_transport (&req, &status, &response, s->sts_user_data, error))
    return NULL;
  if (response == NULL)
    response = g_bytes_new (NULL, 0);
  data = g_bytes_unref_to_data (response, &len);
  creds = ddb_aws_parse_assume_role_response (status, data, len, error);
  ddb_secure_zero (data, len);
  g_free (data);
  return creds;
}

static gboolean
needs_refresh (const DdbAwsCredentials *c, gint64 now, gint64 window)
{
  return c->expiration != 0 && c->expiration - now < window;
}

/* RefreshableCredentials: refresh when less than 15 minutes remain but keep the old ones if
 * that fails; below 10 minutes a refresh must succeed. */
static DdbAwsCredentials *
fetch (DdbAwsSession *s, Source *src, gint64 now, GError **error)
{
  DdbAwsCredentials *fresh;
  GError *local = NULL;

  if (src->cached != NULL && !needs_refresh (src->cached, now, ADVISORY_REFRESH))
    return ddb_aws_credentials_copy (src->cached);
  if (src->kind == SOURCE_STATIC)
    return ddb_aws_credentials_copy (src->cached);

  fresh = src->kind == SOURCE_PROCESS ? run_process (s, src, &local)
                                      : assume_role (s, src, now, &local);
  if (fresh == NULL)
    {
      if (src->cached != NULL && !needs_refresh (src->cached, now, MANDATORY_REFRESH))
        {
          g_info ("Refreshing the credentials of profile %s failed; using the current ones "
                  "until they expire: %s",
                  src->profile, local->message);
          g_error_free (local);
          return ddb_aws_credentials_copy (src->cached);
        }
      g_propagate_error (error, local);
      return NULL;
    }
  if (needs_refresh (fresh, now, MANDATORY_REFRESH))
    {
      ddb_aws_credentials_free (fresh);
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                   "Credentials were refreshed, but the refreshed credentials are still "
                   "expired.");
      return NULL;
    }
  ddb_aws_credentials_free (src->cached);
  src->cached = fresh;
  return ddb_aws_credentials_copy (fresh);
}

DdbAwsCredentials *
ddb_aws_session_get_credentials (DdbAwsSession *session, gint64 now, GError **error)
{
  DdbAwsCredentials *creds;

  if (session->chain == NULL)
    {
      const char *cfg = ddb_aws_config_get_config_path (session->config);
      const char *cred = ddb_aws_config_get_credentials_path (session->config);

      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_CREDENTIALS,
                   "Unable to locate credentials. You can configure credentials by running "
                   "\"aws configure\". Looked for profile \"%s\" %sin %s and %s.",
                   session->profile,
                   session->profile_explicit
                       ? ""
                       : "in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), ",
                   cred != NULL ? cred : "(no credentials file)",
                   cfg != NULL ? cfg : "(no config file)");
      return NULL;
    }
  g_mutex_lock (&session->lock);
  creds = fetch (session, session->chain, now, error);
  g_mutex_unlock (&session->lock);
  return creds;
}

/* ---- The session ---- */

DdbAwsSession *
ddb_aws_session_new (const DdbAwsSessionOptions *options, GError **error)
{
  g_autoptr (DdbAwsSession) s = g_new0 (DdbAwsSession, 1);
  const char *profile = nonempty (options->profile);
  g_autofree char *configured = NULL;

  g_mutex_init (&s->lock);
  if (options->envp != NULL)
    s->envp = g_strdupv ((char **) options->envp);
  s->sts_transport = options->sts_transport;
  s->sts_user_data = options->sts_user_data;

  s->config = ddb_aws_config_load (session_env (s), error);
  if (s->config == NULL)
    return NULL;

  /* --profile is "explicit" (it switches the environment's keys off); AWS_PROFILE is not. */
  s->profile_explicit = profile != NULL;
  if (profile == NULL)
    profile = nonempty (ddb_aws_getenv (session_env (s), "AWS_DEFAULT_PROFILE"));
  if (profile == NULL)
    profile = nonempty (ddb_aws_getenv (session_env (s), "AWS_PROFILE"));
  if (profile != NULL && !ddb_aws_config_has_profile (s->config, profile))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_PROFILE_NOT_FOUND,
                   "The config profile (%s) could not be found", profile);
      return NULL;
    }
  s->profile = g_strdup (profile != NULL ? profile : "default");

  if (!ddb_aws_resolve_region (s->config, s->profile, options->region, session_env (s), &s->region,
                               error))
    return NULL;

  if (nonempty (options->endpoint_url) != NULL)
    {
      if (!ddb_aws_check_endpoint_url (options->endpoint_url, error))
        return NULL;
      s->endpoint_url = g_strdup (options->endpoint_url);
      s->endpoint_custom = TRUE;
    }
  else
    {
      if (!ddb_aws_configured_endpoint (s->config, s->profile, "DynamoDB", session_env (s),
                                        &configured, error))
        return NULL;
      if (configured != NULL)
        {
          s->endpoint_url = g_steal_pointer (&configured);
          s->endpoint_custom = TRUE;
        }
      else if (s->region != NULL)
        s->endpoint_url = ddb_aws_standard_endpoint ("dynamodb", s->region);
    }
  if (s->region != NULL)
    s->signing_region
        = s->endpoint_custom ? s->region : ddb_aws_signing_region ("dynamodb", s->region);

  if (!build_chain (s, error))
    return NULL;
  return g_steal_pointer (&s);
}

void
ddb_aws_session_free (DdbAwsSession *session)
{
  if (session == NULL)
    return;
  g_strfreev (session->envp);
  if (session->config != NULL)
    ddb_aws_config_unref (session->config);
  g_free (session->profile);
  g_free (session->region);
  g_free (session->endpoint_url);
  source_free (session->chain);
  g_mutex_clear (&session->lock);
  g_free (session);
}

const char *
ddb_aws_session_get_profile (DdbAwsSession *session)
{
  return session->profile;
}

const char *
ddb_aws_session_get_region (DdbAwsSession *session)
{
  return session->region;
}

DdbAwsConfig *
ddb_aws_session_get_config (DdbAwsSession *session)
{
  return session->config;
}

gboolean
ddb_aws_session_get_endpoint (DdbAwsSession *session, const char **url, const char **signing_region,
                              GError **error)
{
  if (session->region == NULL)
    {
      g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION,
                           "You must specify a region. You can also configure your region by "
                           "running \"aws configure\".");
      return FALSE;
    }
  if (url != NULL)
    *url = session->endpoint_url;
  if (signing_region != NULL)
    *signing_region = session->signing_region;
  return TRUE;
}

gboolean
ddb_aws_session_endpoint_is_custom (DdbAwsSession *session)
{
  return session->endpoint_custom;
}
