/* eb-alias.c: readable placeholder aliases (the rules are in exprbuild.h). */
#include "exprbuild/eb-private.h"

#include <string.h>

#include "core/ddbjson.h"

static gboolean
is_word_byte (char c)
{
  /* Bytes of non-ASCII characters belong to words but give no initial: an alias must stay
   * within the letters a placeholder may hold. */
  return g_ascii_isalnum (c) || (guchar) c >= 0x80;
}

char *
ddb_eb_initials (const char *name)
{
  GString *out = g_string_new (NULL);
  gsize len = strlen (name);

  for (gsize i = 0; i < len; i++)
    {
      char c = name[i];
      char prev = i > 0 ? name[i - 1] : '\0';
      char next = i + 1 < len ? name[i + 1] : '\0';
      gboolean starts;

      if (!is_word_byte (c))
        continue;
      if (i == 0 || !is_word_byte (prev))
        starts = TRUE;
      else if (g_ascii_isupper (c))
        /* authorName: a hump after a lower-case letter or digit; HTTPStatus: the last capital
         * of a run that a lower-case letter follows. */
        starts = g_ascii_islower (prev) || g_ascii_isdigit (prev)
                 || (g_ascii_isupper (prev) && g_ascii_islower (next));
      else
        starts = FALSE;
      if (starts && g_ascii_isalpha (c))
        g_string_append_c (out, g_ascii_tolower (c));
    }
  if (out->len == 0)
    g_string_append_c (out, 'a');
  return g_string_free (out, FALSE);
}

/* What the lexer reads as one name token: a letter, then letters, digits and '_'. */
static gboolean
is_plain_identifier (const char *name)
{
  if (!g_ascii_isalpha (name[0]))
    return FALSE;
  for (const char *p = name + 1; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return TRUE;
}

void
eb_aliases_init (EbAliases *a, gboolean bare)
{
  a->bare = bare;
  a->name_alias = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  a->names = json_object ();
  a->values = json_object ();
  a->value_tab
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ddb_value_free);
  a->value_text = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  a->families
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  a->guarded = g_ptr_array_new ();
  a->bad_name = FALSE;
}

void
eb_aliases_clear (EbAliases *a)
{
  g_clear_pointer (&a->families, g_hash_table_unref);
  g_clear_pointer (&a->value_text, g_hash_table_unref);
  g_clear_pointer (&a->value_tab, g_hash_table_unref);
  g_clear_pointer (&a->name_alias, g_hash_table_unref);
  g_clear_pointer (&a->names, json_decref);
  g_clear_pointer (&a->values, json_decref);
  g_clear_pointer (&a->guarded, g_ptr_array_unref);
}

const char *
eb_alias_name (EbAliases *a, const char *name)
{
  const char *alias = g_hash_table_lookup (a->name_alias, name);
  g_autofree char *base = NULL;
  char *made;

  if (alias != NULL)
    return alias;
  if (name[0] == '\0' || !g_utf8_validate (name, -1, NULL))
    {
      /* DynamoDB refuses such a name in ExpressionAttributeNames; the caller reports it. */
      a->bad_name = TRUE;
      name = "?";
    }
  if (a->bare && is_plain_identifier (name) && !ddb_is_reserved_word (name, strlen (name)))
    return NULL;
  base = ddb_eb_initials (name);
  made = g_strconcat ("#", base, NULL);
  for (guint n = 2; json_object_get (a->names, made) != NULL; n++)
    {
      g_free (made);
      made = g_strdup_printf ("#%s%u", base, n);
    }
  json_object_set_new (a->names, made, json_string (name));
  g_hash_table_insert (a->name_alias, g_strdup (name), made);
  return made;
}

char *
eb_path_base (EbAliases *a, const DdbPath *path)
{
  for (guint i = path->n; i > 0; i--)
    {
      const char *name = path->elems[i - 1].name;
      const char *alias;

      if (name == NULL)
        continue;
      alias = eb_alias_name (a, name);
      return alias != NULL ? g_strdup (alias + 1) : ddb_eb_initials (name);
    }
  return g_strdup ("v");
}

const char *
eb_alias_value (EbAliases *a, const char *base, const DdbValue *value)
{
  g_autofree char *text = ddb_json_format_value (value);
  GPtrArray *family = g_hash_table_lookup (a->families, base);
  char *made;

  if (family == NULL)
    {
      family = g_ptr_array_new ();
      g_hash_table_insert (a->families, g_strdup (base), family);
    }
  for (guint i = 0; i < family->len; i++)
    {
      const char *alias = g_ptr_array_index (family, i);

      if (strcmp (g_hash_table_lookup (a->value_text, alias), text) == 0)
        return alias;
    }
  made = g_strconcat (":", base, NULL);
  for (guint n = 2; g_hash_table_contains (a->value_tab, made); n++)
    {
      g_free (made);
      made = g_strdup_printf (":%s%u", base, n);
    }
  g_hash_table_insert (a->value_tab, made, ddb_value_copy (value));
  json_object_set_new (a->values, made, ddb_value_to_json (value));
  g_hash_table_insert (a->value_text, made, g_steal_pointer (&text));
  g_ptr_array_add (family, made);
  return made;
}

GHashTable *
eb_aliases_name_table (EbAliases *a)
{
  GHashTable *tab = g_hash_table_new (g_str_hash, g_str_equal);
  const char *key;
  json_t *name;

  json_object_foreach (a->names, key, name)
    g_hash_table_insert (tab, (gpointer) key, (gpointer) json_string_value (name));
  return tab;
}
