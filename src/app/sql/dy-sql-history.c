/* dy-sql-history.c: the SQL history and saved queries, kept in sql-history.json:
 *   {"history": ["SELECT …", …], "saved": [{"name": "…", "text": "…"}, …]}
 * read once, written in the background after each change (the last change wins). */
#define G_LOG_DOMAIN "dynoscope-sql"

#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "app/sql/dy-sql-history.h"

struct _DySqlHistory {
  GObject parent_instance;

  char *path;            /* NULL: in memory */
  GPtrArray *statements; /* char*, newest first */
  GArray *modes;         /* DySqlMode per statement */
  GHashTable *saved;     /* name -> text */
  gboolean saving;       /* a write is under way */
  gboolean dirty;        /* changed since that write began */
};

G_DEFINE_FINAL_TYPE (DySqlHistory, dy_sql_history, G_TYPE_OBJECT)

enum { SIGNAL_CHANGED, N_SIGNALS };

static guint signals[N_SIGNALS];

static void
dy_sql_history_finalize (GObject *object)
{
  DySqlHistory *self = DY_SQL_HISTORY (object);

  g_free (self->path);
  g_ptr_array_unref (self->statements);
  g_array_unref (self->modes);
  g_hash_table_unref (self->saved);
  G_OBJECT_CLASS (dy_sql_history_parent_class)->finalize (object);
}

static void
dy_sql_history_class_init (DySqlHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_sql_history_finalize;
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
dy_sql_history_init (DySqlHistory *self)
{
  self->statements = g_ptr_array_new_with_free_func (g_free);
  self->modes = g_array_new (FALSE, FALSE, sizeof (DySqlMode));
  self->saved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/* Reading. A file that cannot be read or parsed starts an empty history (and is replaced at
 * the next change): the history is a convenience, never a reason to fail. */
static void
load (DySqlHistory *self)
{
  g_autofree char *contents = NULL;
  json_auto_t *root = NULL;
  json_t *value;
  size_t i;

  if (self->path == NULL || !g_file_get_contents (self->path, &contents, NULL, NULL))
    return;
  root = json_loads (contents, 0, NULL);
  if (!json_is_object (root))
    {
      g_debug ("%s: not a history file, starting afresh", self->path);
      return;
    }
  /* a SQL statement is a string, a PartiQL one {"text": …, "mode": "partiql"} */
  json_array_foreach (json_object_get (root, "history"), i, value)
    {
      const char *text = json_is_string (value)
                             ? json_string_value (value)
                             : json_string_value (json_object_get (value, "text"));
      DySqlMode mode
          = g_strcmp0 (json_string_value (json_object_get (value, "mode")), "partiql") == 0
                ? DY_SQL_MODE_PARTIQL
                : DY_SQL_MODE_SQL;

      if (text != NULL && self->statements->len < DY_SQL_HISTORY_MAX)
        {
          g_ptr_array_add (self->statements, g_strdup (text));
          g_array_append_val (self->modes, mode);
        }
    }
  json_array_foreach (json_object_get (root, "saved"), i, value)
    {
      const char *name = json_string_value (json_object_get (value, "name"));
      const char *text = json_string_value (json_object_get (value, "text"));

      if (name != NULL && text != NULL)
        g_hash_table_replace (self->saved, g_strdup (name), g_strdup (text));
    }
}

DySqlHistory *
dy_sql_history_new (const char *path)
{
  DySqlHistory *self = g_object_new (DY_TYPE_SQL_HISTORY, NULL);

  self->path = g_strdup (path);
  load (self);
  return self;
}

DySqlHistory *
dy_sql_history_get_default (void)
{
  static DySqlHistory *history;

  if (history == NULL)
    {
      g_autofree char *path
          = g_build_filename (g_get_user_data_dir (), "dynoscope", "sql-history.json", NULL);

      history = dy_sql_history_new (path);
    }
  return history;
}

const char *
dy_sql_history_get_path (DySqlHistory *self)
{
  return self->path;
}

/* Writing. */

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_utf8_collate (*(const char **) a, *(const char **) b);
}

GStrv
dy_sql_history_list_queries (DySqlHistory *self)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer name;
  GStrv out;

  g_hash_table_iter_init (&iter, self->saved);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    g_ptr_array_add (names, name);
  g_ptr_array_sort (names, compare_names);
  out = g_new0 (char *, names->len + 1);
  for (guint i = 0; i < names->len; i++)
    out[i] = g_strdup (names->pdata[i]);
  return out;
}

static char *
serialize (DySqlHistory *self)
{
  json_auto_t *root = json_object ();
  json_t *history = json_array ();
  json_t *saved = json_array ();
  g_auto (GStrv) names = dy_sql_history_list_queries (self);

  for (guint i = 0; i < self->statements->len; i++)
    if (g_array_index (self->modes, DySqlMode, i) == DY_SQL_MODE_PARTIQL)
      json_array_append_new (
          history, json_pack ("{ssss}", "text", self->statements->pdata[i], "mode", "partiql"));
    else
      json_array_append_new (history, json_string (self->statements->pdata[i]));
  for (guint i = 0; names[i] != NULL; i++)
    json_array_append_new (saved,
                           json_pack ("{ssss}", "name", names[i], "text",
                                      (const char *) g_hash_table_lookup (self->saved, names[i])));
  json_object_set_new (root, "history", history);
  json_object_set_new (root, "saved", saved);
  return json_dumps (root, JSON_INDENT (1));
}

static void
save_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  const char *path = g_object_get_data (G_OBJECT (task), "path");
  g_autofree char *dir = g_path_get_dirname (path);
  GError *error = NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (errno), "%s: %s", dir,
                             g_strerror (errno));
  else if (!g_file_set_contents_full (path, task_data, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600,
                                      &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void save (DySqlHistory *self);

static void
saved (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DySqlHistory *self = DY_SQL_HISTORY (source);
  g_autoptr (GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_warning ("The SQL history could not be kept: %s", error->message);
  self->saving = FALSE;
  if (self->dirty)
    save (self);
}

/* One write at a time, each of the whole state as it is when it starts: a change made during
 * a write is written again after it. */
static void
save (DySqlHistory *self)
{
  g_autoptr (GTask) task = NULL;

  self->dirty = self->saving;
  if (self->path == NULL || self->saving)
    return;
  self->saving = TRUE;
  task = g_task_new (self, NULL, saved, NULL);
  g_task_set_source_tag (task, save);
  g_task_set_task_data (task, serialize (self), free);
  g_object_set_data_full (G_OBJECT (task), "path", g_strdup (self->path), g_free);
  g_task_run_in_thread (task, save_thread);
}

static void
changed (DySqlHistory *self)
{
  save (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

void
dy_sql_history_add (DySqlHistory *self, const char *text)
{
  dy_sql_history_add_in_mode (self, text, DY_SQL_MODE_SQL);
}

void
dy_sql_history_add_in_mode (DySqlHistory *self, const char *text, DySqlMode mode)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  if (*stripped == '\0')
    return;
  for (guint i = 0; i < self->statements->len; i++)
    if (g_str_equal (self->statements->pdata[i], stripped)
        && g_array_index (self->modes, DySqlMode, i) == mode)
      {
        if (i == 0)
          return;
        g_ptr_array_remove_index (self->statements, i);
        g_array_remove_index (self->modes, i);
        break;
      }
  g_ptr_array_insert (self->statements, 0, g_steal_pointer (&stripped));
  g_array_prepend_val (self->modes, mode);
  if (self->statements->len > DY_SQL_HISTORY_MAX)
    {
      g_ptr_array_set_size (self->statements, DY_SQL_HISTORY_MAX);
      g_array_set_size (self->modes, DY_SQL_HISTORY_MAX);
    }
  changed (self);
}

DySqlMode
dy_sql_history_get_mode (DySqlHistory *self, guint i)
{
  return i < self->modes->len ? g_array_index (self->modes, DySqlMode, i) : DY_SQL_MODE_SQL;
}

guint
dy_sql_history_get_n_statements (DySqlHistory *self)
{
  return self->statements->len;
}

const char *
dy_sql_history_get_statement (DySqlHistory *self, guint i)
{
  return i < self->statements->len ? self->statements->pdata[i] : NULL;
}

void
dy_sql_history_save_query (DySqlHistory *self, const char *name, const char *text)
{
  g_autofree char *key = g_strstrip (g_strdup (name));

  if (*key == '\0')
    return;
  g_hash_table_replace (self->saved, g_steal_pointer (&key), g_strdup (text));
  changed (self);
}

gboolean
dy_sql_history_remove_query (DySqlHistory *self, const char *name)
{
  if (!g_hash_table_remove (self->saved, name))
    return FALSE;
  changed (self);
  return TRUE;
}

const char *
dy_sql_history_get_query (DySqlHistory *self, const char *name)
{
  return g_hash_table_lookup (self->saved, name);
}

gboolean
dy_sql_history_get_saving (DySqlHistory *self)
{
  return self->saving;
}

char *
dy_sql_history_summary (const char *text, guint max_chars)
{
  GString *out = g_string_new (NULL);
  gboolean space = FALSE;
  guint n = 0;
  const char *p;

  for (p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c))
        {
          space = out->len > 0;
          continue;
        }
      if (n >= max_chars)
        {
          g_string_append (out, "…");
          break;
        }
      if (space)
        {
          g_string_append_c (out, ' ');
          n++;
          space = FALSE;
        }
      g_string_append_unichar (out, c);
      n++;
    }
  return g_string_free (out, FALSE);
}
