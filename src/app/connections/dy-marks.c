/* dy-marks.c: the production and read-only marks of connections, from the settings (a mark saved
 * for the connection, else patterns on its profile name and account id), kept on each
 * connection as the settings change. */
#define G_LOG_DOMAIN "dynoscope-connection"

#include <string.h>

#include "app/connections/dy-marks.h"

#define MARKS_KEY "connection-marks"
#define PRODUCTION_KEY "production-patterns"
#define READ_ONLY_KEY "read-only-patterns"

static const char *const mark_words[] = { "normal", "production", "read-only" };

const char *
dy_marks_to_string (DyConnectionMark mark)
{
  g_return_val_if_fail ((guint) mark < G_N_ELEMENTS (mark_words), "normal");
  return mark_words[mark];
}

gboolean
dy_marks_parse (const char *text, DyConnectionMark *mark)
{
  for (guint i = 0; i < G_N_ELEMENTS (mark_words); i++)
    if (g_strcmp0 (text, mark_words[i]) == 0)
      {
        *mark = (DyConnectionMark) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
dy_marks_patterns_match (const char *const *patterns, const char *const *names, guint n_names)
{
  for (guint p = 0; patterns != NULL && patterns[p] != NULL; p++)
    {
      g_autoptr (GPatternSpec) spec = NULL;

      if (*patterns[p] == '\0')
        continue;
      spec = g_pattern_spec_new (patterns[p]);
      for (guint n = 0; n < n_names; n++)
        if (names[n] != NULL && g_pattern_spec_match_string (spec, names[n]))
          return TRUE;
    }
  return FALSE;
}

void
dy_marks_connection_names (DyConnection *connection, const char *names[2])
{
  names[0] = dy_connection_get_profile (connection);
  names[1] = dy_connection_get_account (connection);
}

/* KEY up to its last tab: a profile's key without its region. */
static gboolean
same_profile (const char *key, const char *other)
{
  const char *tab = strrchr (key, '\t');

  return tab != NULL && strncmp (key, other, tab - key + 1) == 0
         && strchr (other + (tab - key + 1), '\t') == NULL;
}

gboolean
dy_marks_get_saved (GSettings *settings, DyConnection *connection, DyConnectionMark *mark)
{
  g_autoptr (GVariant) marks = g_settings_get_value (settings, MARKS_KEY);
  g_autofree char *key = dy_connection_dup_key (connection);
  const char *word = NULL;

  if (g_variant_lookup (marks, key, "&s", &word) && dy_marks_parse (word, mark))
    return TRUE;
  /* a profile opened in another region is the same account as the profile */
  if (dy_connection_get_kind (connection) == DY_CONNECTION_PROFILE
      && dy_connection_get_region_chosen (connection))
    {
      GVariantIter iter;
      const char *other;

      g_variant_iter_init (&iter, marks);
      while (g_variant_iter_next (&iter, "{&s&s}", &other, &word))
        if (same_profile (key, other) && dy_marks_parse (word, mark))
          return TRUE;
    }
  return FALSE;
}

DyConnectionMark
dy_marks_resolve (GSettings *settings, DyConnection *connection)
{
  DyConnectionMark mark;
  g_auto (GStrv) read_only = NULL;
  g_auto (GStrv) production = NULL;
  const char *names[2];

  if (dy_marks_get_saved (settings, connection, &mark))
    return mark;
  dy_marks_connection_names (connection, names);
  /* both match: the stricter one */
  read_only = g_settings_get_strv (settings, READ_ONLY_KEY);
  if (dy_marks_patterns_match ((const char *const *) read_only, names, G_N_ELEMENTS (names)))
    return DY_CONNECTION_MARK_READ_ONLY;
  production = g_settings_get_strv (settings, PRODUCTION_KEY);
  if (dy_marks_patterns_match ((const char *const *) production, names, G_N_ELEMENTS (names)))
    return DY_CONNECTION_MARK_PRODUCTION;
  return DY_CONNECTION_MARK_NORMAL;
}

void
dy_marks_apply (GSettings *settings, DyConnection *connection)
{
  dy_connection_set_mark (connection, dy_marks_resolve (settings, connection));
}

/* The saved marks with KEY's set to WORD (NULL: removed). */
static void
store_mark (GSettings *settings, const char *key, const char *word)
{
  g_autoptr (GVariant) marks = g_settings_get_value (settings, MARKS_KEY);
  GVariantBuilder builder;
  GVariantIter iter;
  const char *k, *v;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_variant_iter_init (&iter, marks);
  while (g_variant_iter_next (&iter, "{&s&s}", &k, &v))
    if (!g_str_equal (k, key))
      g_variant_builder_add (&builder, "{ss}", k, v);
  if (word != NULL)
    g_variant_builder_add (&builder, "{ss}", key, word);
  g_settings_set_value (settings, MARKS_KEY, g_variant_builder_end (&builder));
}

void
dy_marks_save (GSettings *settings, DyConnection *connection, DyConnectionMark mark)
{
  g_autofree char *key = dy_connection_dup_key (connection);

  store_mark (settings, key, dy_marks_to_string (mark));
  dy_marks_apply (settings, connection);
}

void
dy_marks_forget (GSettings *settings, DyConnection *connection)
{
  g_autofree char *key = dy_connection_dup_key (connection);

  store_mark (settings, key, NULL);
  dy_marks_apply (settings, connection);
}

GStrv
dy_marks_split_patterns (const char *text)
{
  g_auto (GStrv) parts = g_strsplit_set (text != NULL ? text : "", ", \t\n", -1);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    if (*parts[i] != '\0')
      g_strv_builder_add (builder, parts[i]);
  return g_strv_builder_end (builder);
}

char *
dy_marks_join_patterns (const char *const *patterns)
{
  return g_strjoinv (", ", (GStrv) patterns);
}

/* Watching. */

static void
identity_changed (DyConnection *connection, GParamSpec *pspec, GSettings *settings)
{
  dy_marks_apply (settings, connection);
}

static void
apply_all (GSettings *settings, GListModel *connections)
{
  for (guint i = 0; i < g_list_model_get_n_items (connections); i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (connections, i);

      dy_marks_apply (settings, c);
    }
}

static void
settings_changed (GSettings *settings, const char *key, GListModel *connections)
{
  if (g_str_equal (key, MARKS_KEY) || g_str_equal (key, PRODUCTION_KEY)
      || g_str_equal (key, READ_ONLY_KEY))
    apply_all (settings, connections);
}

static void
connections_changed (GListModel *connections, guint position, guint removed, guint added,
                     GSettings *settings)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (connections, i);

      dy_marks_apply (settings, c);
      /* the account id comes with the identity: an account's pattern applies then */
      g_signal_handlers_disconnect_by_func (c, identity_changed, settings);
      g_signal_connect_object (c, "notify::identity", G_CALLBACK (identity_changed), settings, 0);
    }
}

void
dy_marks_watch (GSettings *settings, GListModel *connections)
{
  g_signal_connect_object (connections, "items-changed", G_CALLBACK (connections_changed),
                           settings, 0);
  g_signal_connect_object (settings, "changed", G_CALLBACK (settings_changed), connections, 0);
  connections_changed (connections, 0, 0, g_list_model_get_n_items (connections), settings);
}
