/* awsconfig.c: the AWS shared config and credentials files, parsed with the rules of Python's
 * configparser.RawConfigParser (which the AWS CLI uses) and mapped into profiles as botocore's
 * configloader does. Every value is wiped when freed: any of them may be a secret. */
#include "net/awsconfig.h"

#include "net/hash.h"

#include <errno.h>
#include <string.h>

G_DEFINE_QUARK (ddb-aws-error-quark, ddb_aws_error)

/* ---- shlex.split ---- */

static gboolean
is_shlex_space (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

char **
ddb_aws_shell_split (const char *line, GError **error)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  GString *token = NULL;
  const char *p = line;

  /* The states of shlex's read_token in POSIX mode with whitespace_split: between words, in a
   * word, in a quote, after a backslash. */
  while (*p != '\0')
    {
      char c = *p;

      if (token == NULL)
        {
          if (is_shlex_space (c))
            {
              p++;
              continue;
            }
          token = g_string_new (NULL);
        }

      if (is_shlex_space (c))
        {
          g_ptr_array_add (words, g_string_free (token, FALSE));
          token = NULL;
          p++;
        }
      else if (c == '\\')
        {
          if (p[1] == '\0')
            goto no_escaped;
          g_string_append_c (token, p[1]);
          p += 2;
        }
      else if (c == '\'' || c == '"')
        {
          char quote = c;

          p++;
          for (;;)
            {
              if (*p == '\0')
                {
                  g_set_error_literal (error, G_SHELL_ERROR, G_SHELL_ERROR_BAD_QUOTING,
                                       "No closing quotation");
                  goto fail;
                }
              if (*p == quote)
                {
                  p++;
                  break;
                }
              /* Inside double quotes a backslash escapes only a double quote or a backslash. */
              if (quote == '"' && *p == '\\')
                {
                  if (p[1] == '\0')
                    goto no_escaped;
                  if (p[1] != '"' && p[1] != '\\')
                    g_string_append_c (token, '\\');
                  g_string_append_c (token, p[1]);
                  p += 2;
                  continue;
                }
              g_string_append_c (token, *p);
              p++;
            }
        }
      else
        {
          g_string_append_c (token, c);
          p++;
        }
    }
  if (token != NULL)
    g_ptr_array_add (words, g_string_free (token, FALSE));
  g_ptr_array_add (words, NULL);
  return (char **) g_ptr_array_free (words, FALSE);

no_escaped:
  g_set_error_literal (error, G_SHELL_ERROR, G_SHELL_ERROR_BAD_QUOTING, "No escaped character");
fail:
  if (token != NULL)
    g_string_free (token, TRUE);
  g_ptr_array_free (words, TRUE);
  return NULL;
}

/* ---- INI files ---- */

typedef struct {
  char *text;         /* plain value, or NULL for a nested block */
  GHashTable *nested; /* subkey -> value (both wiped on free) */
} IniValue;

struct _DdbIniFile {
  char *path;
  GHashTable *sections; /* name -> GHashTable (key -> IniValue) */
  GPtrArray *order;     /* section names in file order, NULL-terminated */
};

static void
ini_value_free (gpointer data)
{
  IniValue *v = data;

  ddb_secret_free (v->text);
  if (v->nested != NULL)
    g_hash_table_unref (v->nested);
  g_free (v);
}

static void
wiped_free (gpointer p)
{
  ddb_secret_free (p);
}

static GHashTable *
new_section (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, ini_value_free);
}

static GHashTable *
new_nested (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, wiped_free, wiped_free);
}

void
ddb_ini_file_free (DdbIniFile *ini)
{
  if (ini == NULL)
    return;
  g_free (ini->path);
  g_hash_table_unref (ini->sections);
  g_ptr_array_free (ini->order, TRUE);
  g_free (ini);
}

/* Python's str.strip() without arguments, for the ASCII whitespace a config file holds. */
static gboolean
is_py_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\x1c'
         || c == '\x1d' || c == '\x1e' || c == '\x1f';
}

static void
strip_span (const char **start, const char **end)
{
  while (*start < *end && is_py_space (**start))
    (*start)++;
  while (*end > *start && is_py_space ((*end)[-1]))
    (*end)--;
}

static gboolean
parse_error (GError **error, const char *path, guint lineno, const char *why)
{
  /* The line itself is never quoted: it may hold a secret key. */
  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CONFIG_PARSE,
               "Unable to parse config file: %s (line %u: %s)", path, lineno, why);
  return FALSE;
}

/* A value whose first line was empty (`s3 =` followed by indented lines) is a nested block of
 * `key = value` lines, as botocore's _parse_nested reads it: split at the first '=' only. */
static gboolean
parse_nested (const char *joined, IniValue *out)
{
  g_auto (GStrv) lines = g_strsplit (joined, "\n", -1);
  GHashTable *nested = new_nested ();
  gboolean ok = TRUE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *s = lines[i], *e = lines[i] + strlen (lines[i]);
      const char *eq;
      const char *ks, *ke, *vs, *ve;

      strip_span (&s, &e);
      if (s == e)
        continue;
      eq = memchr (s, '=', e - s);
      if (eq == NULL)
        {
          ok = FALSE;
          break;
        }
      ks = s, ke = eq, vs = eq + 1, ve = e;
      strip_span (&ks, &ke);
      strip_span (&vs, &ve);
      g_hash_table_replace (nested, g_strndup (ks, ke - ks), g_strndup (vs, ve - vs));
    }
  for (guint i = 0; lines[i] != NULL; i++)
    ddb_secure_zero (lines[i], strlen (lines[i]));
  if (!ok)
    {
      g_hash_table_unref (nested);
      return FALSE;
    }
  out->nested = nested;
  return TRUE;
}

typedef struct {
  char *name;
  GPtrArray *lines; /* of char*, joined with '\n' at the end */
} PendingOption;

static void
pending_free (gpointer data)
{
  PendingOption *o = data;

  g_free (o->name);
  g_ptr_array_free (o->lines, TRUE);
  g_free (o);
}

typedef struct {
  char *name;
  GPtrArray *options; /* PendingOption, in order */
  GHashTable *seen;   /* option names */
} PendingSection;

static void
pending_section_free (gpointer data)
{
  PendingSection *s = data;

  g_free (s->name);
  g_ptr_array_free (s->options, TRUE);
  g_hash_table_unref (s->seen);
  g_free (s);
}

static PendingSection *
pending_section_new (const char *name)
{
  PendingSection *s = g_new0 (PendingSection, 1);

  s->name = g_strdup (name);
  s->options = g_ptr_array_new_with_free_func (pending_free);
  s->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return s;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PendingSection, pending_section_free)

/* Turns the collected lines of each option into values: joined with newlines, trailing
 * whitespace dropped, and nested blocks parsed. */
static gboolean
finish_section (PendingSection *ps, GHashTable *section, const char *path)
{
  for (guint i = 0; i < ps->options->len; i++)
    {
      PendingOption *o = g_ptr_array_index (ps->options, i);
      GString *joined = g_string_new (NULL);
      IniValue *v = g_new0 (IniValue, 1);
      gsize n;

      for (guint j = 0; j < o->lines->len; j++)
        {
          if (j > 0)
            g_string_append_c (joined, '\n');
          g_string_append (joined, g_ptr_array_index (o->lines, j));
        }
      n = joined->len;
      while (n > 0 && is_py_space (joined->str[n - 1]))
        n--;
      g_string_truncate (joined, n);
      if (joined->str[0] == '\n')
        {
          if (!parse_nested (joined->str, v))
            {
              ddb_secret_string_free (joined);
              g_free (v);
              return FALSE;
            }
        }
      else
        v->text = g_strdup (joined->str);
      ddb_secret_string_free (joined);
      g_hash_table_replace (section, g_strdup (o->name), v);
    }
  return TRUE;
}

static IniValue *
ini_value_copy (const IniValue *v)
{
  IniValue *c = g_new0 (IniValue, 1);

  c->text = g_strdup (v->text);
  if (v->nested != NULL)
    {
      GHashTableIter it;
      gpointer k, val;

      c->nested = new_nested ();
      g_hash_table_iter_init (&it, v->nested);
      while (g_hash_table_iter_next (&it, &k, &val))
        g_hash_table_replace (c->nested, g_strdup (k), g_strdup (val));
    }
  return c;
}

DdbIniFile *
ddb_ini_file_parse (const char *text, gssize len, const char *path, GError **error)
{
  g_autoptr (GPtrArray) sections = g_ptr_array_new_with_free_func (pending_section_free);
  g_autoptr (GHashTable) seen_sections = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (PendingSection) defaults = NULL;
  PendingSection *cur = NULL;
  PendingOption *opt = NULL;
  gsize indent_level = 0;
  guint lineno = 0;
  const char *p, *end;
  DdbIniFile *ini;

  if (path == NULL)
    path = "<string>";
  if (len < 0)
    len = strlen (text);
  if (!g_utf8_validate_len (text, len, NULL))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CONFIG_PARSE,
                   "Unable to parse config file: %s (not valid UTF-8 text)", path);
      return NULL;
    }

  p = text;
  end = text + len;
  while (p < end)
    {
      /* Universal newlines, as Python reads text files: \n, \r\n and \r all end a line. */
      const char *ls = p, *le = p;
      const char *s, *e;
      gboolean comment;

      while (le < end && *le != '\n' && *le != '\r')
        le++;
      p = le;
      if (p < end && *p == '\r')
        {
          p++;
          if (p < end && *p == '\n')
            p++;
        }
      else if (p < end)
        p++;
      lineno++;

      s = ls, e = le;
      strip_span (&s, &e);
      comment = s < e && (*s == '#' || *s == ';');
      if (comment || s == e)
        {
          /* Blank lines inside a value are kept (trailing ones are dropped at the end); comment
           * lines are skipped and do not end a value. */
          if (!comment && cur != NULL && opt != NULL)
            g_ptr_array_add (opt->lines, g_strdup (""));
          continue;
        }

      if (cur != NULL && opt != NULL && (gsize) (s - ls) > indent_level)
        {
          g_ptr_array_add (opt->lines, g_strndup (s, e - s));
          continue;
        }
      indent_level = s - ls;

      /* A section header: '[' then the longest run up to the last ']' on the line (Python's
       * "very permissive" \[(?P<header>.+)\] matched at the start only). */
      if (*s == '[')
        {
          const char *close = NULL;

          for (const char *q = s + 1; q < e; q++)
            if (*q == ']')
              close = q;
          if (close != NULL && close > s + 1)
            {
              g_autofree char *name = g_strndup (s + 1, close - s - 1);

              if (strcmp (name, "DEFAULT") == 0)
                {
                  if (defaults == NULL)
                    defaults = pending_section_new (name);
                  cur = defaults;
                }
              else
                {
                  if (g_hash_table_contains (seen_sections, name))
                    {
                      g_autofree char *why = g_strdup_printf ("section [%s] appears twice", name);
                      return (parse_error (error, path, lineno, why), NULL);
                    }
                  cur = pending_section_new (name);
                  g_ptr_array_add (sections, cur);
                  g_hash_table_add (seen_sections, cur->name);
                }
              opt = NULL;
              continue;
            }
        }

      if (cur == NULL)
        return (parse_error (error, path, lineno, "a setting before any [section] header"), NULL);

      {
        const char *delim = NULL;
        const char *ks = s, *ke, *vs, *ve = e;
        g_autofree char *raw = NULL;
        char *name;

        for (const char *q = s; q < e; q++)
          if (*q == '=' || *q == ':')
            {
              delim = q;
              break;
            }
        if (delim == NULL)
          return (parse_error (error, path, lineno, "expected `name = value`"), NULL);
        ke = delim;
        vs = delim + 1;
        strip_span (&ks, &ke);
        strip_span (&vs, &ve);
        if (ks == ke)
          return (parse_error (error, path, lineno, "a setting without a name"), NULL);
        raw = g_strndup (ks, ke - ks);
        name = g_utf8_strdown (raw, -1);
        if (g_hash_table_contains (cur->seen, name))
          {
            g_autofree char *why
                = g_strdup_printf ("setting %s appears twice in [%s]", name, cur->name);
            g_free (name);
            return (parse_error (error, path, lineno, why), NULL);
          }
        opt = g_new0 (PendingOption, 1);
        opt->name = name;
        opt->lines = g_ptr_array_new_with_free_func (wiped_free);
        g_ptr_array_add (opt->lines, g_strndup (vs, ve - vs));
        g_ptr_array_add (cur->options, opt);
        g_hash_table_add (cur->seen, g_strdup (name));
      }
    }

  ini = g_new0 (DdbIniFile, 1);
  ini->path = g_strdup (path);
  ini->sections = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) g_hash_table_unref);
  ini->order = g_ptr_array_new_with_free_func (g_free);
  {
    g_autoptr (GHashTable) defvals = new_section ();
    gboolean ok = TRUE;

    if (defaults != NULL)
      ok = finish_section (defaults, defvals, path);
    for (guint i = 0; ok && i < sections->len; i++)
      {
        PendingSection *ps = g_ptr_array_index (sections, i);
        GHashTable *section = new_section ();
        GHashTableIter it;
        gpointer k, v;

        g_hash_table_insert (ini->sections, g_strdup (ps->name), section);
        g_ptr_array_add (ini->order, g_strdup (ps->name));
        ok = finish_section (ps, section, path);
        /* configparser's [DEFAULT] keys show through in every section that lacks them. */
        g_hash_table_iter_init (&it, defvals);
        while (ok && g_hash_table_iter_next (&it, &k, &v))
          if (!g_hash_table_contains (section, k))
            g_hash_table_insert (section, g_strdup (k), ini_value_copy (v));
      }
    if (!ok)
      {
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CONFIG_PARSE,
                     "Unable to parse config file: %s (a nested setting without `=`)", path);
        ddb_ini_file_free (ini);
        return NULL;
      }
  }
  g_ptr_array_add (ini->order, NULL);
  return ini;
}

DdbIniFile *
ddb_ini_file_load (const char *path, GError **error)
{
  char *contents = NULL;
  gsize len = 0;
  GError *local = NULL;
  DdbIniFile *ini;

  if (path == NULL || path[0] == '\0' || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   "The specified config file (%s) could not be found.", path ? path : "");
      return NULL;
    }
  if (!g_file_get_contents (path, &contents, &len, &local))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CONFIG_PARSE,
                   "Unable to parse config file: %s (%s)", path, local->message);
      g_error_free (local);
      return NULL;
    }
  ini = ddb_ini_file_parse (contents, len, path, error);
  ddb_secure_zero (contents, len);
  g_free (contents);
  return ini;
}

const char *const *
ddb_ini_file_get_sections (DdbIniFile *ini)
{
  return (const char *const *) ini->order->pdata;
}

gboolean
ddb_ini_file_has_section (DdbIniFile *ini, const char *section)
{
  return ini != NULL && g_hash_table_contains (ini->sections, section);
}

static IniValue *
ini_lookup (DdbIniFile *ini, const char *section, const char *key)
{
  GHashTable *s;

  if (ini == NULL)
    return NULL;
  s = g_hash_table_lookup (ini->sections, section);
  return s != NULL ? g_hash_table_lookup (s, key) : NULL;
}

gboolean
ddb_ini_file_has_key (DdbIniFile *ini, const char *section, const char *key)
{
  return ini_lookup (ini, section, key) != NULL;
}

const char *
ddb_ini_file_get (DdbIniFile *ini, const char *section, const char *key)
{
  IniValue *v = ini_lookup (ini, section, key);

  return v != NULL ? v->text : NULL;
}

const char *
ddb_ini_file_get_nested (DdbIniFile *ini, const char *section, const char *key, const char *subkey)
{
  IniValue *v = ini_lookup (ini, section, key);

  return v != NULL && v->nested != NULL ? g_hash_table_lookup (v->nested, subkey) : NULL;
}

/* ---- Environment and paths ---- */

const char *
ddb_aws_getenv (const char *const *envp, const char *name)
{
  if (envp == NULL)
    return ddb_environ_getenv (name);
  return g_environ_getenv ((char **) envp, name);
}

char *
ddb_aws_expand_path (const char *path, const char *const *envp)
{
  GString *out = g_string_new (NULL);
  const char *p = path;

  /* os.path.expandvars: $name and ${name}; unknown variables stay as written. */
  while (*p != '\0')
    {
      if (*p == '$')
        {
          const char *ns, *ne, *after;

          if (p[1] == '{')
            {
              ns = p + 2;
              ne = strchr (ns, '}');
              after = ne != NULL ? ne + 1 : NULL;
            }
          else
            {
              ns = p + 1;
              ne = ns;
              while (g_ascii_isalnum (*ne) || *ne == '_')
                ne++;
              after = ne;
            }
          if (ne != NULL && ne > ns)
            {
              g_autofree char *name = g_strndup (ns, ne - ns);
              const char *val = ddb_aws_getenv (envp, name);

              if (val != NULL)
                {
                  g_string_append (out, val);
                  p = after;
                  continue;
                }
            }
        }
      g_string_append_c (out, *p);
      p++;
    }

  /* os.path.expanduser: a leading "~" or "~/" is HOME (or the password database's home). */
  if (out->str[0] == '~' && (out->str[1] == '\0' || out->str[1] == '/'))
    {
      const char *home = ddb_aws_getenv (envp, "HOME");
      g_autofree char *h = NULL;
      gsize n;

      if (home == NULL)
        home = g_get_home_dir ();
      h = g_strdup (home);
      n = strlen (h);
      while (n > 0 && h[n - 1] == '/')
        h[--n] = '\0';
      g_string_erase (out, 0, 1);
      g_string_prepend (out, h);
      if (out->len == 0)
        g_string_assign (out, "/");
    }
  return g_string_free (out, FALSE);
}

static char *
file_path (const char *const *envp, const char *var, const char *fallback)
{
  const char *v = ddb_aws_getenv (envp, var);

  return ddb_aws_expand_path (v != NULL ? v : fallback, envp);
}

char *
ddb_aws_config_file_path (const char *const *envp)
{
  return file_path (envp, "AWS_CONFIG_FILE", "~/.aws/config");
}

char *
ddb_aws_credentials_file_path (const char *const *envp)
{
  return file_path (envp, "AWS_SHARED_CREDENTIALS_FILE", "~/.aws/credentials");
}

/* ---- The profile map ---- */

struct _DdbAwsConfig {
  gint ref;
  char *config_path;
  char *credentials_path;
  DdbIniFile *config;
  DdbIniFile *credentials;
  GHashTable *profiles; /* profile name -> config file section name */
  GHashTable *services; /* services name -> config file section name */
};

/* "[profile x]" -> "x" as botocore's _parse_section: shlex-split, exactly two words, whatever
 * the first one is (only its prefix was checked). */
static char *
section_suffix (const char *section)
{
  g_auto (GStrv) words = ddb_aws_shell_split (section, NULL);

  if (words == NULL || g_strv_length (words) != 2)
    return NULL;
  return g_strdup (words[1]);
}

static gboolean
load_one (const char *path, DdbIniFile **out, GError **error)
{
  GError *local = NULL;

  *out = NULL;
  if (path == NULL)
    return TRUE;
  *out = ddb_ini_file_load (path, &local);
  if (*out == NULL)
    {
      if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_error_free (local);
          return TRUE;
        }
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

DdbAwsConfig *
ddb_aws_config_load_files (const char *config_path, const char *credentials_path, GError **error)
{
  DdbAwsConfig *cfg = g_new0 (DdbAwsConfig, 1);

  cfg->ref = 1;
  cfg->config_path = g_strdup (config_path);
  cfg->credentials_path = g_strdup (credentials_path);
  cfg->profiles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  cfg->services = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!load_one (config_path, &cfg->config, error)
      || !load_one (credentials_path, &cfg->credentials, error))
    {
      ddb_aws_config_unref (cfg);
      return NULL;
    }
  if (cfg->config != NULL)
    {
      const char *const *names = ddb_ini_file_get_sections (cfg->config);

      /* In file order, a later section replaces an earlier one of the same profile, so
       * [profile default] after [default] wins, as in botocore's build_profile_map. */
      for (guint i = 0; names[i] != NULL; i++)
        {
          const char *name = names[i];
          char *suffix;

          if (g_str_has_prefix (name, "profile"))
            {
              if ((suffix = section_suffix (name)) != NULL)
                g_hash_table_replace (cfg->profiles, suffix, g_strdup (name));
            }
          else if (g_str_has_prefix (name, "sso-session"))
            continue;
          else if (g_str_has_prefix (name, "services"))
            {
              if ((suffix = section_suffix (name)) != NULL)
                g_hash_table_replace (cfg->services, suffix, g_strdup (name));
            }
          else if (strcmp (name, "default") == 0)
            g_hash_table_replace (cfg->profiles, g_strdup (name), g_strdup (name));
        }
    }
  return cfg;
}

DdbAwsConfig *
ddb_aws_config_load (const char *const *envp, GError **error)
{
  g_autofree char *config_path = ddb_aws_config_file_path (envp);
  g_autofree char *credentials_path = ddb_aws_credentials_file_path (envp);

  return ddb_aws_config_load_files (config_path, credentials_path, error);
}

DdbAwsConfig *
ddb_aws_config_ref (DdbAwsConfig *config)
{
  g_atomic_int_inc (&config->ref);
  return config;
}

void
ddb_aws_config_unref (DdbAwsConfig *config)
{
  if (config == NULL || !g_atomic_int_dec_and_test (&config->ref))
    return;
  g_free (config->config_path);
  g_free (config->credentials_path);
  ddb_ini_file_free (config->config);
  ddb_ini_file_free (config->credentials);
  g_hash_table_unref (config->profiles);
  g_hash_table_unref (config->services);
  g_free (config);
}

const char *
ddb_aws_config_get_config_path (DdbAwsConfig *config)
{
  return config->config_path;
}

const char *
ddb_aws_config_get_credentials_path (DdbAwsConfig *config)
{
  return config->credentials_path;
}

gboolean
ddb_aws_config_has_profile (DdbAwsConfig *config, const char *profile)
{
  return g_hash_table_contains (config->profiles, profile)
         || ddb_ini_file_has_section (config->credentials, profile);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  /* g_ptr_array_sort passes pointers to the elements. */
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

char **
ddb_aws_config_list_profiles (DdbAwsConfig *config)
{
  g_autoptr (GHashTable) all = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer k;
  GPtrArray *out = g_ptr_array_new ();

  g_hash_table_iter_init (&it, config->profiles);
  while (g_hash_table_iter_next (&it, &k, NULL))
    g_hash_table_add (all, k);
  if (config->credentials != NULL)
    for (const char *const *s = ddb_ini_file_get_sections (config->credentials); *s; s++)
      g_hash_table_add (all, (gpointer) *s);
  g_hash_table_iter_init (&it, all);
  while (g_hash_table_iter_next (&it, &k, NULL))
    g_ptr_array_add (out, g_strdup (k));
  g_ptr_array_sort (out, compare_names);
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

gboolean
ddb_aws_config_file_has (DdbAwsConfig *config, DdbAwsFile file, const char *profile,
                         const char *key)
{
  if (file == DDB_AWS_FILE_CREDENTIALS)
    return ddb_ini_file_has_key (config->credentials, profile, key);
  else
    {
      const char *section = g_hash_table_lookup (config->profiles, profile);

      return section != NULL && ddb_ini_file_has_key (config->config, section, key);
    }
}

const char *
ddb_aws_config_file_get (DdbAwsConfig *config, DdbAwsFile file, const char *profile,
                         const char *key)
{
  if (file == DDB_AWS_FILE_CREDENTIALS)
    return ddb_ini_file_get (config->credentials, profile, key);
  else
    {
      const char *section = g_hash_table_lookup (config->profiles, profile);

      return section != NULL ? ddb_ini_file_get (config->config, section, key) : NULL;
    }
}

gboolean
ddb_aws_config_has (DdbAwsConfig *config, const char *profile, const char *key)
{
  return ddb_aws_config_file_has (config, DDB_AWS_FILE_CREDENTIALS, profile, key)
         || ddb_aws_config_file_has (config, DDB_AWS_FILE_CONFIG, profile, key);
}

const char *
ddb_aws_config_get (DdbAwsConfig *config, const char *profile, const char *key)
{
  /* The credentials file's values are merged over the config file's, key by key. */
  if (ddb_aws_config_file_has (config, DDB_AWS_FILE_CREDENTIALS, profile, key))
    return ddb_aws_config_file_get (config, DDB_AWS_FILE_CREDENTIALS, profile, key);
  return ddb_aws_config_file_get (config, DDB_AWS_FILE_CONFIG, profile, key);
}

const char *
ddb_aws_config_get_nested (DdbAwsConfig *config, const char *profile, const char *key,
                           const char *subkey)
{
  const char *section = g_hash_table_lookup (config->profiles, profile);

  if (ddb_ini_file_has_key (config->credentials, profile, key))
    return ddb_ini_file_get_nested (config->credentials, profile, key, subkey);
  return section != NULL ? ddb_ini_file_get_nested (config->config, section, key, subkey) : NULL;
}

gboolean
ddb_aws_config_has_services (DdbAwsConfig *config, const char *name)
{
  return g_hash_table_contains (config->services, name);
}

const char *
ddb_aws_config_get_service (DdbAwsConfig *config, const char *name, const char *service,
                            const char *key)
{
  const char *section = g_hash_table_lookup (config->services, name);

  return section != NULL ? ddb_ini_file_get_nested (config->config, section, service, key) : NULL;
}

GHashTable *
ddb_aws_config_get_sso_session (DdbAwsConfig *config, const char *name)
{
  const char *found = NULL;
  GHashTable *section, *out;
  GHashTableIter it;
  gpointer k, v;

  if (config->config == NULL)
    return NULL;
  for (const char *const *s = ddb_ini_file_get_sections (config->config); *s != NULL; s++)
    if (g_str_has_prefix (*s, "sso-session"))
      {
        g_autofree char *suffix = section_suffix (*s);

        if (suffix != NULL && strcmp (suffix, name) == 0)
          found = *s;
      }
  if (found == NULL)
    return NULL;
  section = g_hash_table_lookup (config->config->sections, found);
  out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, wiped_free);
  g_hash_table_iter_init (&it, section);
  while (g_hash_table_iter_next (&it, &k, &v))
    if (((IniValue *) v)->text != NULL)
      g_hash_table_replace (out, g_strdup (k), g_strdup (((IniValue *) v)->text));
  return out;
}
