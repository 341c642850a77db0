/* dy-window-tables.c: the window's table management actions: win.new-table (Ctrl+N), and
 * win.edit-table, win.delete-table and win.table-exports for the current tab's table or the
 * table selected in the sidebar (dy-table-dialog.h, dy-exports-dialog.h). */
#define G_LOG_DOMAIN "dynoscope-window"

#include <glib/gi18n.h>

#include "app/tables/dy-exports-dialog.h"
#include "app/tables/dy-import.h"
#include "app/tables/dy-table-dialog.h"
#include "app/browser/dy-table-view.h"
#include "app/window/dy-window-private.h"

static void
created (DyTableDialog *dialog, const char *table, DyWindow *self)
{
  g_autofree char *text = g_strdup_printf (_ ("Table “%s” created"), table);

  dy_window_toast (self, text);
}

static void
updated (DyTableDialog *dialog, const char *table, DyWindow *self)
{
  g_autofree char *text = g_strdup_printf (_ ("Table “%s” updated"), table);

  dy_window_toast (self, text);
}

/* The table's tabs close with it. */
static void
deleted (DyTableDialog *dialog, const char *table, DyWindow *self)
{
  g_autofree char *text = g_strdup_printf (_ ("Table “%s” deleted"), table);
  DyConnection *connection = dy_table_dialog_get_connection (dialog);

  for (int i = adw_tab_view_get_n_pages (self->tab_view) - 1; i >= 0; i--)
    {
      AdwTabPage *page = adw_tab_view_get_nth_page (self->tab_view, i);
      GtkWidget *child = adw_tab_page_get_child (page);

      if (DY_IS_TABLE_VIEW (child)
          && dy_table_view_get_connection (DY_TABLE_VIEW (child)) == connection
          && g_strcmp0 (dy_table_view_get_table_name (DY_TABLE_VIEW (child)), table) == 0)
        adw_tab_view_close_page (self->tab_view, page);
    }
  dy_window_toast (self, text);
}

/* A read-only connection's tables are not changed: the toast says why. TRUE when refused. */
static gboolean
refuse_read_only (DyWindow *self, DyConnection *connection)
{
  g_autofree char *reason = NULL;

  if (!dy_connection_get_read_only (connection))
    return FALSE;
  reason = dy_connection_dup_read_only_reason (connection);
  dy_window_toast (self, reason);
  return TRUE;
}

static void
new_table_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  DyTableView *view = dy_window_get_current_view (self);
  const char *table;
  DyConnection *connection
      = view != NULL ? dy_table_view_get_connection (view) : dy_window_sidebar_selection (self, &table);
  g_autoptr (DyConnection) first = NULL;
  GtkWidget *dialog;

  if (connection == NULL && g_list_model_get_n_items (G_LIST_MODEL (self->connections)) > 0)
    connection = first = g_list_model_get_item (G_LIST_MODEL (self->connections), 0);
  if (connection == NULL)
    {
      dy_window_toast (self, _ ("Open a database or add an endpoint first"));
      return;
    }
  if (refuse_read_only (self, connection))
    return;
  dialog = dy_table_dialog_new_create (GTK_WINDOW (self), connection);
  g_signal_connect_object (dialog, "done", G_CALLBACK (created), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The table the actions act on: the current tab's, else the one selected in the sidebar; FALSE
 * (with a toast saying so) when there is none. */
static gboolean
acted_table (DyWindow *self, DyConnection **connection, const char **table)
{
  DyTableView *view = dy_window_get_current_view (self);

  *table = NULL;
  if (view != NULL)
    {
      *connection = dy_table_view_get_connection (view);
      *table = dy_table_view_get_table_name (view);
    }
  else
    *connection = dy_window_sidebar_selection (self, table);
  if (*connection == NULL || *table == NULL)
    {
      dy_window_toast (self, _ ("Open or select a table first"));
      return FALSE;
    }
  return TRUE;
}

static void
table_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  const char *table;
  DyConnection *connection;
  GtkWidget *dialog;
  gboolean edit = g_str_equal (action_name, "win.edit-table");

  if (!acted_table (self, &connection, &table) || refuse_read_only (self, connection))
    return;
  if (edit)
    dialog = dy_table_dialog_new_edit (GTK_WINDOW (self), connection, table);
  else
    dialog = dy_table_dialog_new_delete (GTK_WINDOW (self), connection, table);
  g_signal_connect_object (dialog, "done", G_CALLBACK (edit ? updated : deleted), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* A completed export opened as a snapshot (with INCREMENTALS on top, may be NULL): the import
 * dialog, into a database. */
static void
open_export (DyExportsDialog *dialog, const char *url, const char *key_spec,
             const char *const *incrementals, DyWindow *self)
{
  DyImportDialog *import = dy_import_dialog_new_for_export (
      self, url, dy_exports_dialog_get_connection (dialog), key_spec);

  dy_import_dialog_set_incrementals (import, incrementals);
}

static void
exports_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  const char *table;
  DyConnection *connection;
  DyExportsDialog *dialog;

  if (!acted_table (self, &connection, &table))
    return;
  dialog = dy_exports_dialog_new (GTK_WINDOW (self), connection, table,
                                  dy_window_get_settings (self));
  g_signal_connect_object (dialog, "open", G_CALLBACK (open_export), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  /* Open as Snapshot…: the same dialog, exporting at once and opening the export when done */
  if (g_str_equal (action_name, "win.open-as-snapshot"))
    dy_exports_dialog_export_and_open (dialog);
}

void
dy_window_tables_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.new-table", NULL, new_table_action);
  gtk_widget_class_install_action (widget_class, "win.edit-table", NULL, table_action);
  gtk_widget_class_install_action (widget_class, "win.delete-table", NULL, table_action);
  gtk_widget_class_install_action (widget_class, "win.table-exports", NULL, exports_action);
  gtk_widget_class_install_action (widget_class, "win.open-as-snapshot", NULL, exports_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-table",
                                       NULL);
}
