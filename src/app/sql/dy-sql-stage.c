/* dy-sql-stage.c: which table's items a SQL result's rows are (its key columns, found on the
 * worker that runs the statement), and the "Stage update…" dialog staging one guarded update
 * per row through ddb_sql_stage on a worker. */
#define G_LOG_DOMAIN "dynoscope-sql"

#include <glib/gi18n.h>
#include <string.h>

#include "app/common/dy-format.h"
#include "app/sql/dy-sql-stage.h"
#include "app/sql/dy-sql-view-private.h"
#include "app/staging/dy-staging-private.h"
#include "staging/sqlstage.h"

/* The result's key. */

void
dy_sql_target_free (DySqlTarget *target)
{
  g_free (target->table);
  g_strfreev (target->key_names);
  g_strfreev (target->key_columns);
  g_strfreev (target->attributes);
  g_free (target);
}

DySqlTarget *
dy_sql_target_find (DdbSqlQuery *query, GPtrArray *columns)
{
  guint n = columns->len;
  g_autofree DdbSqlColumnOrigin *origins = g_new0 (DdbSqlColumnOrigin, n);

  /* each column shown is the first result column of its name */
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < ddb_sql_query_n_columns (query); j++)
      if (g_str_equal (ddb_sql_query_column_name (query, j), columns->pdata[i]))
        {
          ddb_sql_query_column_origin (query, j, &origins[i]);
          break;
        }
  for (guint i = 0; i < n; i++)
    {
      const DdbSqlColumnOrigin *base = &origins[i];
      const char *key_names[3] = { base->table_pk, base->table_sk, NULL };
      int key_columns[2] = { -1, -1 };
      DySqlTarget *target;

      if (base->table == NULL)
        continue;
      for (guint k = 0; k < 2 && key_names[k] != NULL; k++)
        for (guint c = 0; c < n && key_columns[k] < 0; c++)
          if (g_strcmp0 (origins[c].table, base->table) == 0
              && g_str_equal (origins[c].attribute, key_names[k]))
            key_columns[k] = (int) c;
      if (key_columns[0] < 0 || (base->table_sk != NULL && key_columns[1] < 0))
        continue;
      target = g_new0 (DySqlTarget, 1);
      target->table = g_strdup (base->table);
      target->key_names = g_strdupv ((char **) key_names);
      target->key_columns = g_new0 (char *, 3);
      for (guint k = 0; k < 2 && key_names[k] != NULL; k++)
        target->key_columns[k] = g_strdup (columns->pdata[key_columns[k]]);
      target->attributes = g_new0 (char *, n + 1);
      for (guint c = 0; c < n; c++)
        target->attributes[c]
            = g_strdup (g_strcmp0 (origins[c].table, base->table) == 0 ? origins[c].attribute : "");
      return target;
    }
  return NULL;
}

/* The dialog. */

struct _DySqlStageDialog {
  AdwWindow parent_instance;

  AdwWindowTitle *window_title;
  AdwPreferencesGroup *rows_group;
  AdwEntryRow *attribute_row;
  AdwComboRow *value_row;
  AdwComboRow *guard_row;
  AdwActionRow *report_row;
  GtkSpinner *spinner;
  GtkLabel *failures_label;
  GtkButton *close_button;

  DySqlView *view; /* weak: the dialog may outlive it */
  DyConnection *connection;
  DySqlTarget *target;
  GStrv columns;
  DyRowsSnapshot *snapshot; /* the rows the dialog opened on, until staged */
  guint n_rows;
  gboolean busy;
  gboolean disposed;
  char *report;
};

G_DEFINE_FINAL_TYPE (DySqlStageDialog, dy_sql_stage_dialog, ADW_TYPE_WINDOW)

#define DIALOG_KEY "dy-sql-stage-dialog"

static const char *
selected_column (DySqlStageDialog *self, AdwComboRow *row)
{
  guint i = adw_combo_row_get_selected (row);

  return i < g_strv_length (self->columns) ? self->columns[i] : NULL;
}

static void
update_actions (DySqlStageDialog *self)
{
  const char *attribute = gtk_editable_get_text (GTK_EDITABLE (self->attribute_row));
  gboolean key = self->target != NULL
                 && g_strv_contains ((const char *const *) self->target->key_names, attribute);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "stage.stage",
                                 !self->busy && self->snapshot != NULL && *attribute != '\0' && !key
                                     && selected_column (self, self->value_row) != NULL
                                     && selected_column (self, self->guard_row) != NULL);
  if (key)
    adw_action_row_set_subtitle (self->report_row, _ ("A key attribute cannot be set: pick "
                                                      "another attribute"));
}

static void
inputs_changed (DySqlStageDialog *self)
{
  guint n = self->n_rows;
  const char *attribute = gtk_editable_get_text (GTK_EDITABLE (self->attribute_row));
  const char *value = selected_column (self, self->value_row);
  const char *guard = selected_column (self, self->guard_row);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  if (self->busy || self->snapshot == NULL)
    return;
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u row: one guarded update each",
                                        "%u rows: one guarded update each", n),
                           n);
  /* TRANSLATORS: what Stage does to each row's item: attribute = column, if guard holds */
  subtitle = g_strdup_printf (_ ("%s = the row’s %s, if the item’s %s still equals the row’s %s"),
                              *attribute != '\0' ? attribute : "…", value != NULL ? value : "…",
                              *attribute != '\0' ? attribute : "…", guard != NULL ? guard : "…");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->report_row), title);
  adw_action_row_set_subtitle (self->report_row, subtitle);
  update_actions (self);
}

/* Staging, on a worker. */

typedef struct {
  DyStaging *staging;
  DyConnection *connection;
  char *id;
  char *table;
  GStrv key_names, key_columns;
  char *attribute, *value_column, *guard_column;
  DyRowsSnapshot *snapshot;
  DdbSqlStageReport report;
  guint n_rows;
} StageData;

static void
stage_data_free (StageData *d)
{
  g_object_unref (d->staging);
  g_object_unref (d->connection);
  g_free (d->id);
  g_free (d->table);
  g_strfreev (d->key_names);
  g_strfreev (d->key_columns);
  g_free (d->attribute);
  g_free (d->value_column);
  g_free (d->guard_column);
  g_clear_pointer (&d->snapshot, dy_rows_snapshot_free);
  ddb_sql_stage_report_clear (&d->report);
  g_free (d);
}

static DdbValue *
copy_or_null (const DdbValue *value)
{
  return value != NULL ? ddb_value_copy (value) : NULL;
}

static void
stage_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  StageData *d = task_data;
  DdbSqlStageSpec spec = { d->id, d->table, (const char *const *) d->key_names, d->attribute };
  g_autoptr (GPtrArray) rows
      = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_sql_stage_row_free);
  GError *error = NULL;
  DdbBackend *backend = dy_staging_connection_backend (d->connection, &error);

  if (backend == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  d->n_rows = dy_rows_snapshot_get_n (d->snapshot);
  for (guint i = 0; i < d->n_rows; i++)
    {
      g_autoptr (DdbValue) item = dy_rows_snapshot_read (d->snapshot, i, &error);
      DdbSqlStageRow *row;

      if (item == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      row = g_new0 (DdbSqlStageRow, 1);
      row->key = ddb_value_new_m ();
      for (guint k = 0; d->key_names[k] != NULL; k++)
        {
          const DdbValue *v = ddb_value_map_get (item, d->key_columns[k]);

          /* a row without its key is reported as failed by ddb_sql_stage */
          if (v != NULL)
            ddb_value_map_set (row->key, d->key_names[k], ddb_value_copy (v));
        }
      row->shown = copy_or_null (ddb_value_map_get (item, d->guard_column));
      row->value = copy_or_null (ddb_value_map_get (item, d->value_column));
      g_ptr_array_add (rows, row);
    }
  if (ddb_sql_stage (d->staging->store, backend, &spec, rows, cancellable, &d->report, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static char *
key_text (const DdbValue *key)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; key != NULL && i < ddb_value_map_size (key); i++)
    {
      g_autofree char *value = dy_format_key (ddb_value_map_nth (key, i)->value);

      if (text->len > 0)
        g_string_append (text, " · ");
      g_string_append (text, value);
    }
  return g_string_free (text, FALSE);
}

/* The main window's staging panel shows what was staged. */
static void
show_staging_panel (DySqlStageDialog *self)
{
  GtkRoot *root = self->view != NULL ? gtk_widget_get_root (GTK_WIDGET (self->view)) : NULL;

  if (DY_IS_WINDOW (root)
      && !gtk_widget_get_mapped (GTK_WIDGET (dy_window_get_staging_panel (DY_WINDOW (root)))))
    gtk_widget_activate_action (GTK_WIDGET (root), "win.toggle-staging", NULL);
}

static void
staged (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DySqlStageDialog) self = user_data;
  StageData *d = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);
  GString *failures = g_string_new (NULL);
  const DdbSqlStageReport *r = &d->report;

  if (ok && r->n_staged > 0)
    dy_staging_emit_changed (d->staging);
  if (self->disposed)
    {
      g_string_free (failures, TRUE);
      return;
    }
  self->busy = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  g_free (self->report);
  if (!ok)
    {
      /* nothing was staged: the rows are there to try again */
      self->snapshot = g_steal_pointer (&d->snapshot);
      self->report = dy_connection_describe_error (d->connection, error, NULL);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->report_row), _ ("Not staged"));
      adw_action_row_set_subtitle (self->report_row, self->report);
    }
  else
    {
      /* TRANSLATORS: Stage update's report */
      self->report = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE,
                       "Staged %u of %u row: %u unchanged, %u conflicts, %u failed",
                       "Staged %u of %u rows: %u unchanged, %u conflicts, %u failed", d->n_rows),
          r->n_staged, d->n_rows, r->n_unchanged, r->n_conflicts, r->n_failed);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->report_row), self->report);
      adw_action_row_set_subtitle (
          self->report_row, r->n_staged > 0 ? _ ("Review and commit them in the staging panel")
                                            : _ ("Nothing was staged"));
      for (guint i = 0; r->failures != NULL && i < r->failures->len && i < 20; i++)
        {
          DdbExprStageFailure *f = r->failures->pdata[i];
          g_autofree char *key = key_text (f->key);

          g_string_append_printf (failures, "%s%s: %s", failures->len > 0 ? "\n" : "",
                                  *key != '\0' ? key : _ ("(no key)"), f->message);
        }
      if (r->failures != NULL && r->failures->len > 20)
        g_string_append_printf (failures, _ ("\n… and %u more"), r->failures->len - 20);
      gtk_button_set_label (self->close_button, _ ("_Close"));
      if (r->n_staged > 0)
        show_staging_panel (self);
    }
  gtk_label_set_text (self->failures_label, failures->str);
  gtk_widget_set_visible (GTK_WIDGET (self->failures_label), failures->len > 0);
  g_string_free (failures, TRUE);
  update_actions (self);
}

static void
stage_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlStageDialog *self = DY_SQL_STAGE_DIALOG (widget);
  DyStaging *staging = dy_staging_get_default ();
  g_autoptr (GTask) task = NULL;
  g_autoptr (GError) error = NULL;
  const char *id;
  StageData *d;

  if (self->busy)
    return;
  if (!dy_staging_check_open (staging, &error)
      || (id = dy_staging_require_id (self->connection, &error)) == NULL)
    {
      dy_staging_prepare (staging, self->connection);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->report_row), _ ("Not staged"));
      adw_action_row_set_subtitle (self->report_row, error->message);
      g_free (self->report);
      self->report = g_strdup (error->message);
      return;
    }
  d = g_new0 (StageData, 1);
  d->staging = g_object_ref (staging);
  d->connection = g_object_ref (self->connection);
  d->id = g_strdup (id);
  d->table = g_strdup (self->target->table);
  d->key_names = g_strdupv (self->target->key_names);
  d->key_columns = g_strdupv (self->target->key_columns);
  d->attribute = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->attribute_row)));
  d->value_column = g_strdup (selected_column (self, self->value_row));
  d->guard_column = g_strdup (selected_column (self, self->guard_row));
  /* the rows as the dialog was opened on them, staged once */
  d->snapshot = g_steal_pointer (&self->snapshot);
  self->busy = TRUE;
  g_clear_pointer (&self->report, g_free);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->report_row), _ ("Staging…"));
  adw_action_row_set_subtitle (self->report_row, _ ("Each item is read to check it still holds "
                                                    "the value its row showed"));
  update_actions (self);
  task = g_task_new (self, NULL, staged, g_object_ref (self));
  g_task_set_source_tag (task, stage_action);
  g_task_set_task_data (task, d, (GDestroyNotify) stage_data_free);
  g_task_run_in_thread (task, stage_thread);
}

/* GObject. */

static void
dy_sql_stage_dialog_dispose (GObject *object)
{
  DySqlStageDialog *self = DY_SQL_STAGE_DIALOG (object);

  self->disposed = TRUE;
  if (self->view != NULL)
    {
      if (g_object_get_data (G_OBJECT (self->view), DIALOG_KEY) == self)
        g_object_set_data (G_OBJECT (self->view), DIALOG_KEY, NULL);
      g_object_remove_weak_pointer (G_OBJECT (self->view), (gpointer *) &self->view);
      self->view = NULL;
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_SQL_STAGE_DIALOG);
  G_OBJECT_CLASS (dy_sql_stage_dialog_parent_class)->dispose (object);
}

static void
dy_sql_stage_dialog_finalize (GObject *object)
{
  DySqlStageDialog *self = DY_SQL_STAGE_DIALOG (object);

  g_clear_object (&self->connection);
  g_clear_pointer (&self->target, dy_sql_target_free);
  g_strfreev (self->columns);
  g_clear_pointer (&self->snapshot, dy_rows_snapshot_free);
  g_free (self->report);
  G_OBJECT_CLASS (dy_sql_stage_dialog_parent_class)->finalize (object);
}

static void
dy_sql_stage_dialog_class_init (DySqlStageDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = dy_sql_stage_dialog_dispose;
  G_OBJECT_CLASS (klass)->finalize = dy_sql_stage_dialog_finalize;
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/dynoscope/Dynoscope/dy-sql-stage-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DySqlStageDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, DySqlStageDialog, rows_group);
  gtk_widget_class_bind_template_child (widget_class, DySqlStageDialog, attribute_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlStageDialog, value_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlStageDialog, guard_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlStageDialog, report_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlStageDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, DySqlStageDialog, failures_label);
  gtk_widget_class_bind_template_child (widget_class, DySqlStageDialog, close_button);
  gtk_widget_class_install_action (widget_class, "stage.stage", NULL, stage_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dy_sql_stage_dialog_init (DySqlStageDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->attribute_row, "changed", G_CALLBACK (inputs_changed), self);
  g_signal_connect_swapped (self->value_row, "notify::selected", G_CALLBACK (inputs_changed), self);
  g_signal_connect_swapped (self->guard_row, "notify::selected", G_CALLBACK (inputs_changed), self);
}

static guint
column_index (DySqlStageDialog *self, const char *name)
{
  for (guint i = 0; self->columns[i] != NULL; i++)
    if (g_str_equal (self->columns[i], name))
      return i;
  return GTK_INVALID_LIST_POSITION;
}

/* The guard: the first column of the table that is not a key (its attribute is the one to
 * set); the value: the next column that is neither a key nor the guard. */
static void
prefill (DySqlStageDialog *self)
{
  int guard = -1, value = -1;

  for (guint i = 0; self->columns[i] != NULL; i++)
    {
      gboolean key
          = g_strv_contains ((const char *const *) self->target->key_columns, self->columns[i]);

      if (key)
        continue;
      if (guard < 0 && *self->target->attributes[i] != '\0')
        guard = (int) i;
      else if (guard >= 0 && value < 0)
        value = (int) i;
    }
  if (guard >= 0)
    dy_sql_stage_dialog_set (self, self->target->attributes[guard],
                             value >= 0 ? self->columns[value] : NULL, self->columns[guard]);
}

DySqlStageDialog *
dy_sql_stage_dialog_new (DySqlView *view)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (view));
  DySqlStageDialog *self;
  g_autoptr (GtkStringList) names = NULL;
  g_autofree char *keys = NULL;
  g_autofree char *description = NULL;
  g_autofree char *subtitle = NULL;

  if (view->target == NULL)
    return NULL;
  self = g_object_new (DY_TYPE_SQL_STAGE_DIALOG, "transient-for",
                       GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, NULL);
  self->view = view;
  g_object_add_weak_pointer (G_OBJECT (view), (gpointer *) &self->view);
  self->connection = g_object_ref (view->connection);
  self->target = g_new0 (DySqlTarget, 1);
  self->target->table = g_strdup (view->target->table);
  self->target->key_names = g_strdupv (view->target->key_names);
  self->target->key_columns = g_strdupv (view->target->key_columns);
  self->target->attributes = g_strdupv (view->target->attributes);
  self->columns = g_strdupv ((char **) dy_sql_view_get_columns (view));
  self->snapshot = dy_rows_snapshot (view->rows);
  self->n_rows = dy_rows_snapshot_get_n (self->snapshot);
  names = gtk_string_list_new ((const char *const *) self->columns);
  adw_combo_row_set_model (self->value_row, G_LIST_MODEL (names));
  adw_combo_row_set_model (self->guard_row, G_LIST_MODEL (names));
  subtitle = g_strdup_printf ("%s · %s", self->target->table,
                              dy_connection_get_title (self->connection));
  adw_window_title_set_subtitle (self->window_title, subtitle);
  keys = g_strjoinv (", ", self->target->key_columns);
  /* TRANSLATORS: %1$s the table, %2$s the result's key columns */
  description = g_strdup_printf (_ ("Each row is an item of %1$s, by its key in the columns %2$s. "
                                    "An item that no longer holds the value its row shows is a "
                                    "conflict and is left alone; a row without a value removes "
                                    "the attribute. Nothing is written until you commit."),
                                 self->target->table, keys);
  adw_preferences_group_set_description (self->rows_group, description);
  prefill (self);
  inputs_changed (self);
  g_object_set_data (G_OBJECT (view), DIALOG_KEY, self);
  return self;
}

DySqlStageDialog *
dy_sql_view_get_stage_dialog (DySqlView *view)
{
  return g_object_get_data (G_OBJECT (view), DIALOG_KEY);
}

void
dy_sql_stage_dialog_set (DySqlStageDialog *self, const char *attribute, const char *value_column,
                         const char *guard_column)
{
  guint i;

  if (attribute != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->attribute_row), attribute);
  if (value_column != NULL && (i = column_index (self, value_column)) != GTK_INVALID_LIST_POSITION)
    adw_combo_row_set_selected (self->value_row, i);
  if (guard_column != NULL && (i = column_index (self, guard_column)) != GTK_INVALID_LIST_POSITION)
    adw_combo_row_set_selected (self->guard_row, i);
}

const char *
dy_sql_stage_dialog_get_attribute (DySqlStageDialog *self)
{
  return gtk_editable_get_text (GTK_EDITABLE (self->attribute_row));
}

const char *
dy_sql_stage_dialog_get_value_column (DySqlStageDialog *self)
{
  return selected_column (self, self->value_row);
}

const char *
dy_sql_stage_dialog_get_guard_column (DySqlStageDialog *self)
{
  return selected_column (self, self->guard_row);
}

gboolean
dy_sql_stage_dialog_get_busy (DySqlStageDialog *self)
{
  return self->busy;
}

const char *
dy_sql_stage_dialog_get_report (DySqlStageDialog *self)
{
  return self->report;
}

/* view.stage-update */
static void
stage_update_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlView *view = DY_SQL_VIEW (widget);
  DySqlStageDialog *dialog = dy_sql_view_get_stage_dialog (view);

  if (dialog == NULL)
    dialog = dy_sql_stage_dialog_new (view);
  if (dialog != NULL)
    gtk_window_present (GTK_WINDOW (dialog));
}

void
dy_sql_stage_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.stage-update", NULL, stage_update_action);
}
