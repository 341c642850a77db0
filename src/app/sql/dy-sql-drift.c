/* dy-sql-drift.c: the "Find drift…" dialog: the inputs of a DdbSqlDriftSpec, the JOIN they
 * make shown live, and Find, which puts it in the editor and runs it. */
#define G_LOG_DOMAIN "dynoscope-sql"

#include <glib/gi18n.h>

#include "app/sql/dy-sql-drift.h"
#include "app/sql/dy-sql-view-private.h"
#include "core/number.h"

struct _DySqlDriftDialog {
  AdwWindow parent_instance;

  AdwWindowTitle *window_title;
  AdwEntryRow *source_table_row;
  AdwEntryRow *source_key_row;
  AdwEntryRow *source_sort_row;
  AdwEntryRow *source_sort_value_row;
  AdwComboRow *source_sort_type_row;
  AdwEntryRow *source_attr_row;
  AdwEntryRow *copy_table_row;
  AdwEntryRow *copy_attr_row;
  AdwEntryRow *copy_ref_row;
  AdwEntryRow *copy_key_row;
  GtkLabel *query_label;
  GtkLabel *error_label;

  DySqlView *view; /* weak */
};

G_DEFINE_FINAL_TYPE (DySqlDriftDialog, dy_sql_drift_dialog, ADW_TYPE_WINDOW)

#define DIALOG_KEY "dy-sql-drift-dialog"

static char *
row_text (AdwEntryRow *row)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
}

static gboolean
require (AdwEntryRow *row, const char *what, char **out, GError **error)
{
  *out = row_text (row);
  if (**out != '\0')
    return TRUE;
  /* TRANSLATORS: %s names the input, e.g. "the source's table" */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _ ("Name %s"), what);
  return FALSE;
}

char *
dy_sql_drift_dialog_dup_query (DySqlDriftDialog *self, GError **error)
{
  g_autofree char *source_table = NULL, *source_key = NULL, *source_attr = NULL;
  g_autofree char *copy_table = NULL, *copy_attr = NULL, *copy_ref = NULL, *copy_keys = NULL;
  g_autofree char *sort = row_text (self->source_sort_row);
  g_autofree char *sort_text = row_text (self->source_sort_value_row);
  g_auto (GStrv) keys = NULL;
  g_autoptr (GStrvBuilder) key_list = g_strv_builder_new ();
  g_auto (GStrv) copy_key = NULL;
  g_autoptr (DdbValue) sort_value = NULL;
  DdbSqlDriftSpec spec = { 0 };

  if (!require (self->source_table_row, _ ("the source’s table"), &source_table, error)
      || !require (self->source_key_row, _ ("the source’s attribute the copies point at"),
                   &source_key, error)
      || !require (self->source_attr_row, _ ("the source’s attribute"), &source_attr, error)
      || !require (self->copy_table_row, _ ("the copies’ table or index"), &copy_table, error)
      || !require (self->copy_attr_row, _ ("the attribute holding the copy"), &copy_attr, error)
      || !require (self->copy_ref_row, _ ("the copies’ attribute pointing at the source"),
                   &copy_ref, error)
      || !require (self->copy_key_row, _ ("the copy table’s key attributes"), &copy_keys, error))
    return NULL;
  keys = g_strsplit (copy_keys, ",", -1);
  for (guint i = 0; keys[i] != NULL; i++)
    if (*g_strstrip (keys[i]) != '\0')
      g_strv_builder_add (key_list, keys[i]);
  copy_key = g_strv_builder_end (key_list);
  if (*sort != '\0')
    {
      if (adw_combo_row_get_selected (self->source_sort_type_row) == 1)
        {
          DdbNumber number;
          g_autoptr (GError) local = NULL;

          if (!ddb_number_parse (&number, sort_text, -1, &local))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _ ("The sort key value is not a number: %s"), local->message);
              return NULL;
            }
          sort_value = ddb_value_new_n (&number);
        }
      else
        sort_value = ddb_value_new_s (sort_text, -1);
    }
  spec.source_table = source_table;
  spec.source_key = source_key;
  spec.source_sort_key = *sort != '\0' ? sort : NULL;
  spec.source_sort_value = sort_value;
  spec.source_attr = source_attr;
  spec.copy_table = copy_table;
  spec.copy_ref = copy_ref;
  spec.copy_attr = copy_attr;
  spec.copy_key = (const char *const *) copy_key;
  return ddb_sql_drift_query (&spec);
}

static void
inputs_changed (DySqlDriftDialog *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *query = dy_sql_drift_dialog_dup_query (self, &error);

  gtk_label_set_text (self->query_label, query != NULL ? query : "");
  gtk_widget_set_visible (GTK_WIDGET (self->query_label), query != NULL);
  gtk_label_set_text (self->error_label, error != NULL ? error->message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "drift.find",
                                 query != NULL && self->view != NULL);
}

static void
find_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlDriftDialog *self = DY_SQL_DRIFT_DIALOG (widget);
  g_autofree char *query = dy_sql_drift_dialog_dup_query (self, NULL);
  DySqlView *view = self->view;

  if (query == NULL || view == NULL)
    return;
  if (dy_sql_view_get_running (view))
    dy_sql_view_cancel (view);
  dy_sql_view_set_text (view, query);
  gtk_window_close (GTK_WINDOW (self));
  dy_sql_view_run (view);
}

static void
entry_activated (DySqlDriftDialog *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "drift.find", NULL);
}

/* GObject. */

static void
dy_sql_drift_dialog_dispose (GObject *object)
{
  DySqlDriftDialog *self = DY_SQL_DRIFT_DIALOG (object);

  if (self->view != NULL)
    {
      if (g_object_get_data (G_OBJECT (self->view), DIALOG_KEY) == self)
        g_object_set_data (G_OBJECT (self->view), DIALOG_KEY, NULL);
      g_object_remove_weak_pointer (G_OBJECT (self->view), (gpointer *) &self->view);
      self->view = NULL;
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_SQL_DRIFT_DIALOG);
  G_OBJECT_CLASS (dy_sql_drift_dialog_parent_class)->dispose (object);
}

static void
dy_sql_drift_dialog_class_init (DySqlDriftDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = dy_sql_drift_dialog_dispose;
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/dynoscope/Dynoscope/dy-sql-drift-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, source_table_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, source_key_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, source_sort_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, source_sort_value_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, source_sort_type_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, source_attr_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, copy_table_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, copy_attr_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, copy_ref_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, copy_key_row);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, query_label);
  gtk_widget_class_bind_template_child (widget_class, DySqlDriftDialog, error_label);
  gtk_widget_class_install_action (widget_class, "drift.find", NULL, find_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dy_sql_drift_dialog_init (DySqlDriftDialog *self)
{
  AdwEntryRow *rows[9];

  gtk_widget_init_template (GTK_WIDGET (self));
  rows[0] = self->source_table_row;
  rows[1] = self->source_key_row;
  rows[2] = self->source_sort_row;
  rows[3] = self->source_sort_value_row;
  rows[4] = self->source_attr_row;
  rows[5] = self->copy_table_row;
  rows[6] = self->copy_attr_row;
  rows[7] = self->copy_ref_row;
  rows[8] = self->copy_key_row;
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_signal_connect_swapped (rows[i], "changed", G_CALLBACK (inputs_changed), self);
      g_signal_connect_swapped (rows[i], "entry-activated", G_CALLBACK (entry_activated), self);
    }
  g_signal_connect_swapped (self->source_sort_type_row, "notify::selected",
                            G_CALLBACK (inputs_changed), self);
}

static gboolean
has_table (DyConnection *connection, const char *name)
{
  GListModel *tables = dy_connection_get_tables (connection);

  for (guint i = 0; i < g_list_model_get_n_items (tables); i++)
    {
      g_autoptr (GtkStringObject) table = g_list_model_get_item (tables, i);

      if (g_str_equal (gtk_string_object_get_string (table), name))
        return TRUE;
    }
  return FALSE;
}

static void
set_text (AdwEntryRow *row, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (row), text);
}

DySqlDriftDialog *
dy_sql_drift_dialog_new (DySqlView *view)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (view));
  DyConnection *connection = dy_sql_view_get_connection (view);
  DySqlDriftDialog *self = g_object_new (DY_TYPE_SQL_DRIFT_DIALOG, "transient-for",
                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, NULL);

  self->view = view;
  g_object_add_weak_pointer (G_OBJECT (view), (gpointer *) &self->view);
  g_object_set_data (G_OBJECT (view), DIALOG_KEY, self);
  adw_window_title_set_subtitle (self->window_title, dy_connection_get_title (connection));
  /* The demo blog (data/demo/blog.jsonl): posts copy their author's name (authorName, with
   * authorId = the user's userId) from the user's META item; ByAuthor holds only posts. */
  if (has_table (connection, "Blog"))
    {
      set_text (self->source_table_row, "Blog");
      set_text (self->source_key_row, "userId");
      set_text (self->source_sort_row, "SK");
      set_text (self->source_sort_value_row, "META");
      set_text (self->source_attr_row, "name");
      set_text (self->copy_table_row, "Blog.ByAuthor");
      set_text (self->copy_attr_row, "authorName");
      set_text (self->copy_ref_row, "authorId");
      set_text (self->copy_key_row, "PK, SK");
    }
  inputs_changed (self);
  return self;
}

DySqlDriftDialog *
dy_sql_view_get_drift_dialog (DySqlView *view)
{
  return g_object_get_data (G_OBJECT (view), DIALOG_KEY);
}

/* view.find-drift */
static void
find_drift_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlView *view = DY_SQL_VIEW (widget);
  DySqlDriftDialog *dialog = dy_sql_view_get_drift_dialog (view);

  if (dialog == NULL)
    dialog = dy_sql_drift_dialog_new (view);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
dy_sql_drift_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.find-drift", NULL, find_drift_action);
}
