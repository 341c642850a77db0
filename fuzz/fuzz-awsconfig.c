/* fuzz-awsconfig.c: libFuzzer target for the AWS shared config and credentials files
 * (net/awsconfig.h) and the session that resolves a profile from them (net/credentials.h).
 * Each input is parsed as one INI file and read back through every accessor, with the keys
 * and subkeys its own lines name and the ones botocore knows; its values are split as
 * credential_process command lines. Then the input is written to a temp file that serves as
 * both the config and the credentials file, loaded as a profile map, and a session is resolved
 * for each of its profiles (no transport: no network I/O can happen; credentials are never
 * asked for, so no credential_process runs). Aborts when accessors disagree, when a value is
 * not stripped UTF-8, when the file loads differently from the text, when split words do not
 * survive quoting and splitting again, or when a failure is not a GError. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "net/awsconfig.h"
#include "net/credentials-private.h"

#include "fuzz-gslice.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Sessions resolved per input at most (each loads and parses the files again). */
#define MAX_SESSIONS 12

static const char *const known_keys[] = {
  "aws_access_key_id", "aws_secret_access_key", "aws_session_token", "region", "output",
  "endpoint_url", "services", "dynamodb", "sts", "sso", "s3", "credential_process",
  "credential_source", "source_profile", "role_arn", "role_session_name", "external_id",
  "mfa_serial", "duration_seconds", "web_identity_token_file", "sso_session", "sso_start_url",
  "sso_region", "sso_account_id", "sso_role_name", "sso_registration_scopes", "login_session",
  "use_fips_endpoint", "use_dualstack_endpoint", "ignore_configured_endpoint_urls",
  "sts_regional_endpoints", "ca_bundle", "metadata_service_timeout",
  "metadata_service_num_attempts", "ec2_metadata_service_endpoint",
  "ec2_metadata_service_endpoint_mode", "ec2_metadata_v1_disabled", "cli_pager", "",
};

static char *tmp_dir;
static char *file_name;
static char **envp;

static void
remove_tmp (void)
{
  g_autofree char *home = g_build_filename (tmp_dir, "home", NULL);

  g_unlink (file_name);
  g_rmdir (home);
  g_rmdir (tmp_dir);
}

static void
init_once (void)
{
  g_autofree char *home = NULL;

  if (tmp_dir != NULL)
    return;
  tmp_dir = g_dir_make_tmp ("fuzz-awsconfig-XXXXXX", NULL);
  if (tmp_dir == NULL)
    abort ();
  home = g_build_filename (tmp_dir, "home", NULL);
  if (g_mkdir (home, 0700) != 0)
    abort ();
  file_name = g_build_filename (tmp_dir, "config", NULL);
  envp = g_new0 (char *, 4);
  envp[0] = g_strconcat ("HOME=", home, NULL);
  envp[1] = g_strconcat ("AWS_CONFIG_FILE=", file_name, NULL);
  envp[2] = g_strconcat ("AWS_SHARED_CREDENTIALS_FILE=", file_name, NULL);
  atexit (remove_tmp);
}

static gboolean
is_py_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
         || (c >= '\x1c' && c <= '\x1f');
}

static void
check_stripped (const char *value)
{
  size_t n = strlen (value);

  if (!g_utf8_validate (value, -1, NULL))
    abort ();
  if (n > 0 && (is_py_space (value[0]) || is_py_space (value[n - 1])))
    abort ();
}

/* The names before '=' or ':' on each line of TEXT (and before '=' only, as nested blocks
 * split), stripped: as keys (lower-cased) and as subkeys (as written), each once. */
static void
collect_names (const char *text, gsize len, GPtrArray *keys, GPtrArray *subkeys)
{
  g_autoptr (GHashTable) seen_keys = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) seen_subkeys = g_hash_table_new (g_str_hash, g_str_equal);
  const char *p = text, *end = text + len;

  for (guint i = 0; i < G_N_ELEMENTS (known_keys); i++)
    {
      g_ptr_array_add (keys, g_strdup (known_keys[i]));
      g_ptr_array_add (subkeys, g_strdup (known_keys[i]));
    }
  for (guint n = 0; p < end && n < 256; n++)
    {
      const char *le = p, *delims[2];

      while (le < end && *le != '\n' && *le != '\r')
        le++;
      delims[0] = memchr (p, '=', le - p);
      delims[1] = NULL;
      for (const char *q = p; q < le; q++)
        if (*q == '=' || *q == ':')
          {
            delims[1] = q;
            break;
          }
      for (guint d = 0; d < 2; d++)
        {
          char *name;

          if (delims[d] == NULL)
            continue;
          name = g_strstrip (g_strndup (p, delims[d] - p));
          if (g_hash_table_contains (seen_subkeys, name))
            g_free (name);
          else
            {
              g_ptr_array_add (subkeys, name);
              g_hash_table_add (seen_subkeys, name);
            }
          name = g_utf8_strdown (g_ptr_array_index (subkeys, subkeys->len - 1), -1);
          if (g_hash_table_contains (seen_keys, name))
            g_free (name);
          else
            {
              g_ptr_array_add (keys, name);
              g_hash_table_add (seen_keys, name);
            }
        }
      p = le < end ? le + 1 : le;
    }
}

/* shlex.split's words survive g_shell_quote (POSIX single quotes) and splitting again. */
static void
check_split (const char *line)
{
  GError *error = NULL;
  g_auto (GStrv) words = ddb_aws_shell_split (line, &error);
  g_autoptr (GString) quoted = g_string_new (NULL);
  g_auto (GStrv) again = NULL;

  if (words == NULL)
    {
      if (error == NULL || error->domain != G_SHELL_ERROR)
        abort ();
      g_error_free (error);
      return;
    }
  if (error != NULL)
    abort ();
  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree char *q = g_shell_quote (words[i]);

      if (i > 0)
        g_string_append_c (quoted, ' ');
      g_string_append (quoted, q);
    }
  again = ddb_aws_shell_split (quoted->str, NULL);
  if (again == NULL || !g_strv_equal ((const char *const *) words, (const char *const *) again))
    abort ();
}

static void
check_ini (DdbIniFile *ini, GPtrArray *keys, GPtrArray *subkeys)
{
  const char *const *sections = ddb_ini_file_get_sections (ini);

  for (guint i = 0; sections[i] != NULL; i++)
    {
      const char *section = sections[i];

      if (!ddb_ini_file_has_section (ini, section) || strcmp (section, "DEFAULT") == 0)
        abort ();
      check_split (section);
      for (guint k = 0; k < keys->len; k++)
        {
          const char *key = g_ptr_array_index (keys, k);
          gboolean has = ddb_ini_file_has_key (ini, section, key);
          const char *value = ddb_ini_file_get (ini, section, key);

          if (value != NULL)
            {
              if (!has)
                abort ();
              check_stripped (value);
              check_split (value);
            }
          /* A nested block has no plain value; a plain value no subkeys. */
          if (!has || value != NULL)
            {
              if (ddb_ini_file_get_nested (ini, section, key, "endpoint_url") != NULL)
                abort ();
              continue;
            }
          for (guint j = 0; j < subkeys->len; j++)
            {
              const char *sub
                  = ddb_ini_file_get_nested (ini, section, key, g_ptr_array_index (subkeys, j));

              if (sub != NULL)
                check_stripped (sub);
            }
        }
    }
  if (ddb_ini_file_has_section (ini, "DEFAULT"))
    abort ();
}

static void
write_file (const uint8_t *data, size_t size)
{
  FILE *f = fopen (file_name, "wb");

  if (f == NULL || (size > 0 && fwrite (data, 1, size, f) != size) || fclose (f) != 0)
    abort ();
}

static void
check_session (const char *profile)
{
  DdbAwsSessionOptions options = { 0 };
  GError *error = NULL;
  DdbAwsSession *s;
  const char *url = NULL, *signing_region = NULL;
  char *command = NULL, *sts_url;

  options.profile = profile;
  options.envp = (const char *const *) envp;
  s = ddb_aws_session_new (&options, &error);
  if (s == NULL)
    {
      if (error == NULL || error->message == NULL || !g_utf8_validate (error->message, -1, NULL))
        abort ();
      g_error_free (error);
      return;
    }
  if (error != NULL || ddb_aws_session_get_profile (s) == NULL)
    abort ();
  if (profile != NULL && profile[0] != '\0'
      && strcmp (ddb_aws_session_get_profile (s), profile) != 0)
    abort ();
  if (ddb_aws_session_get_endpoint (s, &url, &signing_region, &error))
    {
      if (ddb_aws_session_get_region (s) == NULL || url == NULL || signing_region == NULL)
        abort ();
    }
  else
    {
      if (ddb_aws_session_get_region (s) != NULL)
        abort ();
      g_clear_error (&error);
    }
  (void) ddb_aws_session_endpoint_is_custom (s);
  (void) ddb_aws_session_get_method (s);
  if (ddb_aws_session_get_sign_in (s, &command) == DDB_AWS_SIGN_IN_NONE ? command != NULL
                                                                         : command == NULL)
    abort ();
  g_free (command);
  sts_url = ddb_aws_session_service_url (s, "STS", "sts", ddb_aws_session_get_region (s),
                                         &error);
  if (sts_url == NULL)
    g_clear_error (&error);
  g_free (sts_url);
  if (ddb_aws_session_files_changed (s))
    abort ();
  ddb_aws_session_free (s);
}

static void
check_config (DdbIniFile *ini, GPtrArray *keys)
{
  GError *error = NULL;
  DdbAwsConfig *cfg = ddb_aws_config_load_files (file_name, file_name, &error);
  char **profiles;

  /* The file loads as its text parses. */
  if ((cfg != NULL) != (ini != NULL))
    abort ();
  if (cfg == NULL)
    {
      if (error == NULL || error->domain != DDB_AWS_ERROR)
        abort ();
      g_error_free (error);
      return;
    }
  profiles = ddb_aws_config_list_profiles (cfg);
  for (guint i = 0; profiles[i] != NULL; i++)
    {
      if (!ddb_aws_config_has_profile (cfg, profiles[i]))
        abort ();
      if (i > 0 && strcmp (profiles[i - 1], profiles[i]) >= 0)
        abort ();
      for (guint k = 0; k < keys->len; k++)
        {
          const char *key = g_ptr_array_index (keys, k);
          const char *v = ddb_aws_config_get (cfg, profiles[i], key);

          if (v != NULL && !ddb_aws_config_has (cfg, profiles[i], key))
            abort ();
        }
    }
  /* [services NAME] as the sections name them. */
  for (const char *const *sec = ddb_ini_file_get_sections (ini); *sec != NULL; sec++)
    {
      g_auto (GStrv) words = ddb_aws_shell_split (*sec, NULL);

      if (words == NULL || g_strv_length (words) != 2)
        continue;
      if (ddb_aws_config_has_services (cfg, words[1]))
        for (guint k = 0; k < keys->len; k++)
          (void) ddb_aws_config_get_service (cfg, words[1], g_ptr_array_index (keys, k),
                                             "endpoint_url");
    }
  for (guint i = 0; profiles[i] != NULL && i < MAX_SESSIONS; i++)
    check_session (profiles[i]);
  check_session (NULL);
  g_strfreev (profiles);
  ddb_aws_config_unref (cfg);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *text = size > 0 ? (const char *) data : "";
  GError *error = NULL;
  DdbIniFile *ini;
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) subkeys = g_ptr_array_new_with_free_func (g_free);

  init_once ();
  ini = ddb_ini_file_parse (text, (gssize) size, "fuzz", &error);
  if (ini == NULL)
    {
      if (error == NULL || error->domain != DDB_AWS_ERROR
          || error->code != DDB_AWS_ERROR_CONFIG_PARSE)
        abort ();
      g_clear_error (&error);
    }
  else
    {
      if (error != NULL)
        abort ();
      collect_names (text, size, keys, subkeys);
      check_ini (ini, keys, subkeys);
    }

  write_file (data, size);
  check_config (ini, keys);
  ddb_ini_file_free (ini);
  return 0;
}
