/* role-cache.c: the AWS CLI's JSON file cache of assumed-role credentials (role-cache.h): the
 * key as botocore derives it, reading an entry (its buffers wiped) and writing one atomically. */
#include "net/role-cache.h"

#include "net/cache-file.h"

#include "net/hash.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

/* CachedCredentialFetcher.DEFAULT_EXPIRY_WINDOW_SECONDS */
#define EXPIRY_WINDOW (15 * 60)

static void
key_add (GString *json, const char *name, const char *value)
{
  if (value == NULL)
    return;
  if (json->len > 1)
    g_string_append (json, ", ");
  ddb_secret_json_append_string (json, name);
  g_string_append (json, ": ");
  ddb_secret_json_append_string (json, value);
}

char *
ddb_role_cache_key (const DdbRoleCacheArgs *args)
{
  g_autoptr (GString) json = g_string_new ("{");
  char n[32];

  /* json.dumps (args, sort_keys=True): the members in code point order, ", " and ": " as
   * separators, DurationSeconds a number. */
  if (args->duration_seconds >= 0)
    {
      g_snprintf (n, sizeof n, "%" G_GINT64_FORMAT, args->duration_seconds);
      ddb_secret_json_append_string (json, "DurationSeconds");
      g_string_append_printf (json, ": %s", n);
    }
  key_add (json, "ExternalId", args->external_id);
  key_add (json, "RoleArn", args->role_arn);
  key_add (json, "RoleSessionName", args->role_session_name);
  key_add (json, "SerialNumber", args->serial_number);
  g_string_append_c (json, '}');
  /* A hex digest needs none of _make_file_safe's replacements. */
  return g_compute_checksum_for_string (G_CHECKSUM_SHA1, json->str, json->len);
}

char *
ddb_role_cache_dir (DdbAwsSession *session)
{
  return ddb_aws_expand_path ("~/.aws/cli/cache", ddb_aws_session_envp (session));
}

gboolean
ddb_role_cache_parse_time (const char *text, gint64 *out)
{
  gsize len;
  g_autofree char *iso = NULL;

  if (text == NULL)
    return FALSE;
  len = strlen (text);
  /* datetime.strftime ('%Y-%m-%dT%H:%M:%S%Z') with botocore's tzutc writes "UTC". */
  if (len > 3 && strcmp (text + len - 3, "UTC") == 0)
    {
      iso = g_strdup_printf ("%.*sZ", (int) (len - 3), text);
      return ddb_aws_parse_timestamp (iso, out);
    }
  return ddb_aws_parse_timestamp (text, out);
}

/* Reads PATH into a buffer that is wiped when freed. */
static GString *
read_secret_file (const char *path)
{
  GString *text;
  char buf[4096];
  ssize_t n;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0)
    return NULL;
  text = g_string_sized_new (8192);
  while ((n = read (fd, buf, sizeof buf)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 || text->len > 1024 * 1024)
        {
          ddb_secret_string_free (text);
          text = NULL;
          break;
        }
      ddb_secret_string_append_len (text, buf, n);
    }
  ddb_secure_zero (buf, sizeof buf);
  close (fd);
  return text;
}

DdbAwsCredentials *
ddb_role_cache_load (const char *dir, const char *key, gint64 now, const char *method)
{
  g_autofree char *name = g_strconcat (key, ".json", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (DdbSecretJson) json = NULL;
  GString *text = read_secret_file (path);
  const char *id, *secret, *token;
  gint64 expiration;

  if (text == NULL)
    return NULL;
  json = ddb_secret_json_parse (text->str, text->len, NULL);
  ddb_secret_string_free (text);
  if (json == NULL)
    {
      g_debug ("Ignoring %s: not JSON", path);
      return NULL;
    }
  id = ddb_secret_json_get_string (json, "Credentials.AccessKeyId");
  secret = ddb_secret_json_get_string (json, "Credentials.SecretAccessKey");
  token = ddb_secret_json_get_string (json, "Credentials.SessionToken");
  if (id == NULL || secret == NULL || token == NULL
      || !ddb_role_cache_parse_time (ddb_secret_json_get_string (json, "Credentials.Expiration"),
                                     &expiration))
    {
      g_debug ("Ignoring %s: no credentials in it", path);
      return NULL;
    }
  if (expiration - now < EXPIRY_WINDOW)
    {
      g_debug ("Credentials were found in the cache %s, but they are expired", path);
      return NULL;
    }
  return ddb_aws_credentials_new (id, secret, token, expiration, method);
}

/* The account of an ARN (arn:PARTITION:SERVICE:REGION:ACCOUNT:...), or NULL. */
static char *
arn_account (const char *arn)
{
  g_auto (GStrv) parts = NULL;

  if (arn == NULL || !g_str_has_prefix (arn, "arn:"))
    return NULL;
  parts = g_strsplit (arn, ":", 6);
  if (g_strv_length (parts) < 6 || parts[4][0] == '\0')
    return NULL;
  return g_strdup (parts[4]);
}

static void
member (GString *out, const char *name, const char *value, gboolean first)
{
  if (!first)
    ddb_secret_string_append (out, ", ");
  ddb_secret_json_append_string (out, name);
  ddb_secret_string_append (out, ": ");
  ddb_secret_json_append_string (out, value);
}

gboolean
ddb_role_cache_store (const char *dir, const char *key, const DdbAwsCredentials *creds,
                      const char *role_arn, GError **error)
{
  g_autofree char *name = g_strconcat (key, ".json", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *account = arn_account (role_arn);
  g_autoptr (GDateTime) dt = g_date_time_new_from_unix_utc (creds->expiration);
  g_autofree char *expiration = NULL;
  GString *out;
  gboolean ok;

  if (dt == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "The credentials have no usable expiration");
      return FALSE;
    }
  expiration = g_date_time_format (dt, "%Y-%m-%dT%H:%M:%SUTC");

  /* json.dumps of the STS response, of which the CLI reads back only "Credentials". */
  out = g_string_sized_new (2048);
  ddb_secret_string_append (out, "{\"Credentials\": {");
  member (out, "AccessKeyId", creds->creds.access_key_id, TRUE);
  member (out, "SecretAccessKey", creds->creds.secret_access_key, FALSE);
  member (out, "SessionToken", creds->creds.session_token, FALSE);
  member (out, "Expiration", expiration, FALSE);
  if (account != NULL)
    member (out, "AccountId", account, FALSE);
  ddb_secret_string_append (out, "}}");

  ok = ddb_aws_cache_file_write (path, out->str, out->len, error);
  ddb_secret_string_free (out);
  return ok;
}
