/* dy-window-actions.c: the main window's actions on its tabs and the current table: the SQL,
 * Changes and key-distribution tabs and windows, the Compare window, the Model window, the
 * staging panel and the fan-out dialog, new and closed tabs, and the table view's actions forwarded
 * from the window (Run, Load More, Group, Filter, Find, Load All, Cancel, the expression builder).
 */
#define G_LOG_DOMAIN "dynoscope-window"

#include <glib/gi18n.h>

#include "app/changes/dy-changes-view.h"
#include "app/compare/dy-compare-view.h"
#include "app/staging/dy-fanout-dialog.h"
#include "app/keys/dy-keys-view.h"
#include "app/model/dy-model-window.h"
#include "app/sql/dy-sql-view.h"
#include "app/window/dy-window-private.h"

static void
sql_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  GtkSingleSelection *sidebar = GTK_SINGLE_SELECTION (gtk_list_view_get_model (self->sidebar_list));

  dy_sql_view_open_current (self, dy_window_current_connection (self),
                            gtk_single_selection_get_selected_item (sidebar));
}

/* The table selected in the sidebar: TRUE with its connection and name (borrowed). */
static gboolean
sidebar_table (DyWindow *self, DyConnection **connection, const char **table)
{
  *connection = dy_window_sidebar_selection (self, table);
  return *connection != NULL && *table != NULL;
}

/* win.changes (Ctrl+Shift+C): the Changes tab of the current tab's table, else of the table
 * selected in the sidebar. */
static void
changes_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  DyTableView *view = dy_window_get_current_view (self);
  DyConnection *connection;
  const char *table;

  if (view != NULL)
    {
      dy_changes_view_open (self, dy_table_view_get_connection (view),
                            dy_table_view_get_table_name (view));
      return;
    }
  if (DY_IS_CHANGES_VIEW (dy_window_current_child (self)))
    return;
  if (sidebar_table (self, &connection, &table))
    dy_changes_view_open (self, connection, table);
  else
    dy_window_toast (self, _ ("Open a table first: Changes follows a table’s stream"));
}

/* win.model (Ctrl+M): a Model window of its own, beside this one. */
static void
model_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_model_window_open (gtk_window_get_application (GTK_WINDOW (widget)), NULL);
}

/* win.keys (Ctrl+Shift+K): the key distribution of the current tab's table, else of the table
 * selected in the sidebar. */
static void
keys_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  GtkWidget *child = dy_window_current_child (self);
  DyConnection *connection;
  const char *table;

  if (DY_IS_TABLE_VIEW (child) || DY_IS_CHANGES_VIEW (child))
    {
      DyTableView *view = DY_IS_TABLE_VIEW (child) ? DY_TABLE_VIEW (child) : NULL;

      dy_keys_view_open (self, dy_window_current_connection (self),
                         view != NULL ? dy_table_view_get_table_name (view)
                                      : dy_changes_view_get_table_name (DY_CHANGES_VIEW (child)));
      return;
    }
  if (sidebar_table (self, &connection, &table))
    dy_keys_view_open (self, connection, table);
  else
    dy_window_toast (self, _ ("Open a table first: the key distribution is a table’s"));
}

/* win.compare (Ctrl+Shift+E): the Compare window of the current tab's table, else of the table
 * selected in the sidebar. */
static void
compare_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  GtkWidget *child = dy_window_current_child (self);
  DyConnection *connection;
  const char *table;

  if (DY_IS_TABLE_VIEW (child) || DY_IS_CHANGES_VIEW (child))
    {
      DyTableView *view = DY_IS_TABLE_VIEW (child) ? DY_TABLE_VIEW (child) : NULL;

      dy_compare_view_open (self, dy_window_current_connection (self),
                            view != NULL ? dy_table_view_get_table_name (view)
                                         : dy_changes_view_get_table_name (DY_CHANGES_VIEW (child)));
      return;
    }
  if (sidebar_table (self, &connection, &table))
    dy_compare_view_open (self, connection, table);
  else
    dy_window_toast (self, _ ("Open or select a table first: Compare starts from a table"));
}

static void
toggle_staging_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);

  gtk_toggle_button_set_active (self->staging_button,
                                !gtk_toggle_button_get_active (self->staging_button));
}

static void
fanout_staged (DyFanoutDialog *dialog, guint n, DyWindow *self)
{
  g_autofree char *text = g_strdup_printf (
      g_dngettext (NULL, "%u update staged: review and commit it in the staging panel",
                   "%u updates staged: review and commit them in the staging panel", n),
      n);

  dy_window_toast (self, text);
  gtk_toggle_button_set_active (self->staging_button, TRUE);
}

void
dy_window_show_staging (DyWindow *self, DyConnection *connection, const char *table)
{
  dy_window_open_table (self, connection, table);
  gtk_toggle_button_set_active (self->staging_button, TRUE);
}

static void
fanout_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  DyTableView *view = dy_window_get_current_view (self);
  GtkWidget *dialog;

  if (view == NULL)
    {
      dy_window_toast (self, _ ("Open the table holding the copies first"));
      return;
    }
  dialog = dy_fanout_dialog_new (GTK_WINDOW (self), dy_staging_get_default (),
                                 dy_table_view_get_connection (view),
                                 dy_table_view_get_table_name (view));
  g_signal_connect_object (dialog, "staged", G_CALLBACK (fanout_staged), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
stage_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *view = dy_window_get_current_view (DY_WINDOW (widget));

  if (view != NULL)
    gtk_widget_activate_action (GTK_WIDGET (dy_table_view_get_inspector (view)), "inspector.stage",
                                NULL);
}

static void
new_tab_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  DyTableView *view = dy_window_get_current_view (self);

  /* A second view of the same table: several queries side by side. */
  if (view != NULL)
    dy_window_new_tab (self, dy_table_view_get_connection (view),
                       dy_table_view_get_table_name (view));
  else
    {
      GtkSelectionModel *model = gtk_list_view_get_model (self->sidebar_list);
      guint selected = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model));

      if (selected != GTK_INVALID_LIST_POSITION)
        dy_window_sidebar_activate (self, selected);
    }
}

static void
close_tab_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  if (page != NULL)
    adw_tab_view_close_page (self->tab_view, page);
}

/* The view's own actions, reachable from anywhere in the window. */
static void
forward_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  GtkWidget *view = dy_window_current_child (DY_WINDOW (widget));
  const char *view_action = NULL;

  /* a SQL tab has view.run, view.cancel and view.focus-filter too */
  if (view == NULL)
    return;
  if (g_str_equal (action_name, "win.run"))
    view_action = "view.run";
  else if (g_str_equal (action_name, "win.load-more"))
    view_action = "view.load-more";
  else if (g_str_equal (action_name, "win.group"))
    view_action = "view.group";
  else if (g_str_equal (action_name, "win.filter"))
    view_action = "view.focus-filter";
  else if (g_str_equal (action_name, "win.find"))
    view_action = "view.find";
  else if (g_str_equal (action_name, "win.load-all"))
    view_action = "view.load-all";
  else if (g_str_equal (action_name, "win.cancel"))
    view_action = "view.cancel";
  else if (g_str_equal (action_name, "win.expression-builder"))
    view_action = "view.expression-builder";
  if (view_action != NULL)
    gtk_widget_activate_action (GTK_WIDGET (view), view_action, NULL);
}

/* ---- The shortcuts window (Ctrl+?) ---- */

GtkShortcutsWindow *
dy_window_get_shortcuts_window (DyWindow *self)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (self);

  /* Built when first asked for, not with each window as GtkApplication would build
   * gtk/help-overlay.ui (some 20 ms before the window first shows). */
  if (gtk_application_window_get_help_overlay (window) == NULL)
    {
      g_autoptr (GtkBuilder) builder
          = gtk_builder_new_from_resource ("/io/github/dynoscope/Dynoscope/dy-shortcuts-window.ui");

      gtk_application_window_set_help_overlay (
          window, GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay")));
    }
  return gtk_application_window_get_help_overlay (window);
}

static void
show_help_overlay (GSimpleAction *action, GVariant *parameter, gpointer self)
{
  gtk_window_present (GTK_WINDOW (dy_window_get_shortcuts_window (self)));
}

void
dy_window_actions_init (DyWindow *self)
{
  /* win.show-help-overlay, the action GtkApplicationWindow would add with its help overlay */
  g_autoptr (GSimpleAction) help = g_simple_action_new ("show-help-overlay", NULL);

  g_signal_connect_object (help, "activate", G_CALLBACK (show_help_overlay), self, 0);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (help));
}

void
dy_window_actions_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.new-tab", NULL, new_tab_action);
  gtk_widget_class_install_action (widget_class, "win.close-tab", NULL, close_tab_action);
  gtk_widget_class_install_action (widget_class, "win.run", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.load-more", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.group", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.filter", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.load-all", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.expression-builder", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-staging", NULL, toggle_staging_action);
  gtk_widget_class_install_action (widget_class, "win.fanout", NULL, fanout_action);
  gtk_widget_class_install_action (widget_class, "win.stage", NULL, stage_action);
  gtk_widget_class_install_action (widget_class, "win.sql", NULL, sql_action);
  gtk_widget_class_install_action (widget_class, "win.changes", NULL, changes_action);
  gtk_widget_class_install_action (widget_class, "win.model", NULL, model_action);
  gtk_widget_class_install_action (widget_class, "win.keys", NULL, keys_action);
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, compare_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, GDK_CONTROL_MASK, "win.new-tab",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close-tab",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "win.run",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK, "win.run",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.load-more",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "win.group",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK,
                                       "win.expression-builder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.filter",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.find", NULL);
  /* Escape stops a long read wherever the focus is (the view binds it too). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel", NULL);
  /* Ctrl+S stages; Ctrl+Shift+S shows what is staged. Ctrl+Shift+D and Ctrl+Shift+I stay GTK's
   * (its inspector): no shortcut of ours shadows them. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.toggle-staging", NULL);
  /* F9 and Shift+F9 as in GNOME Builder: the side panels (win.sidebar-visible and
   * win.inspector-visible are the settings' actions, dy-window.c) */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.sidebar-visible", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, GDK_SHIFT_MASK,
                                       "win.inspector-visible", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.stage",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.sql", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.changes", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_CONTROL_MASK, "win.model",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_k, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.keys", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.compare", NULL);
}
