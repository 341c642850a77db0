/* dy-window-marks.c: production and read-only connections in the main window: their marks kept
 * as the settings say (dy-marks.h), the sidebar's "Mark as" menu (win.mark-connection) and the
 * tabs of a marked connection showing it (an indicator icon with a tooltip). */
#define G_LOG_DOMAIN "dynoscope-window"

#include <glib/gi18n.h>

#include "app/changes/dy-changes-view.h"
#include "app/connections/dy-marks.h"
#include "app/sql/dy-sql-view.h"
#include "app/window/dy-window-private.h"

/* The words of win.mark-connection: the marks, and "pattern" for none of its own. */
#define BY_PATTERN "pattern"

const char *
dy_window_mark_icon (DyConnectionMark mark)
{
  switch (mark)
    {
    case DY_CONNECTION_MARK_PRODUCTION:
      return "emblem-important-symbolic";
    case DY_CONNECTION_MARK_READ_ONLY:
      return "changes-prevent-symbolic";
    case DY_CONNECTION_MARK_NORMAL:
    default:
      return NULL;
    }
}

char *
dy_window_mark_tooltip (DyConnection *connection)
{
  switch (dy_connection_get_mark (connection))
    {
    case DY_CONNECTION_MARK_PRODUCTION:
      /* TRANSLATORS: tooltip of a production connection's sign (sidebar, tabs); %s: its name */
      return g_strdup_printf (_ ("%s is production: a commit asks for the table’s name first"),
                              dy_connection_get_title (connection));
    case DY_CONNECTION_MARK_READ_ONLY:
      /* TRANSLATORS: tooltip of a read-only connection's lock (sidebar, tabs) */
      return g_strdup_printf (_ ("%s is read-only: commits, PartiQL writes and table changes "
                                 "are refused"),
                              dy_connection_get_title (connection));
    case DY_CONNECTION_MARK_NORMAL:
    default:
      return NULL;
    }
}

/* Tabs. */

static DyConnection *
page_connection (AdwTabPage *page)
{
  GtkWidget *child = adw_tab_page_get_child (page);

  if (DY_IS_TABLE_VIEW (child))
    return dy_table_view_get_connection (DY_TABLE_VIEW (child));
  if (DY_IS_SQL_VIEW (child))
    return dy_sql_view_get_connection (DY_SQL_VIEW (child));
  if (DY_IS_CHANGES_VIEW (child))
    return dy_changes_view_get_connection (DY_CHANGES_VIEW (child));
  return NULL;
}

/* A tab of a marked connection shows the mark, unless it has a warning of its own (a table
 * that does not exist) to show. */
static void
tint_page (DyConnection *connection, GParamSpec *pspec, AdwTabPage *page)
{
  const char *icon_name = dy_window_mark_icon (dy_connection_get_mark (connection));
  g_autoptr (GIcon) icon = icon_name != NULL ? g_themed_icon_new (icon_name) : NULL;
  g_autofree char *tooltip = dy_window_mark_tooltip (connection);

  if (adw_tab_page_get_needs_attention (page))
    return;
  adw_tab_page_set_indicator_icon (page, icon);
  adw_tab_page_set_indicator_tooltip (page, tooltip != NULL ? tooltip : "");
}

static void
page_attached (AdwTabView *view, AdwTabPage *page, int position, DyWindow *self)
{
  DyConnection *connection = page_connection (page);

  if (connection == NULL)
    return;
  g_signal_handlers_disconnect_by_func (connection, tint_page, page);
  g_signal_connect_object (connection, "notify::mark", G_CALLBACK (tint_page), page, 0);
  tint_page (connection, NULL, page);
}

/* The sidebar's menu. */

static void
mark_connection_changed (GSimpleAction *action, GVariant *value, gpointer user_data)
{
  DyWindow *self = DY_WINDOW (user_data);
  const char *table;
  DyConnection *connection = dy_window_sidebar_selection (self, &table);
  const char *word = g_variant_get_string (value, NULL);
  DyConnectionMark mark = DY_CONNECTION_MARK_NORMAL;

  if (connection == NULL)
    return;
  if (g_str_equal (word, BY_PATTERN))
    {
      if (self->settings != NULL)
        dy_marks_forget (self->settings, connection);
      else
        dy_connection_set_mark (connection, DY_CONNECTION_MARK_NORMAL);
    }
  else if (dy_marks_parse (word, &mark))
    {
      if (self->settings != NULL)
        dy_marks_save (self->settings, connection, mark);
      else
        dy_connection_set_mark (connection, mark);
    }
  else
    return;
  g_simple_action_set_state (action, value);
}

/* The action's state: the mark saved for CONNECTION, or "pattern". */
static void
sync_mark_action (DyWindow *self, DyConnection *connection)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "mark-connection");
  DyConnectionMark mark;
  const char *word = BY_PATTERN;

  if (self->settings != NULL && dy_marks_get_saved (self->settings, connection, &mark))
    word = dy_marks_to_string (mark);
  else if (self->settings == NULL)
    word = dy_marks_to_string (dy_connection_get_mark (connection));
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (word));
}

static GMenuModel *
mark_menu (void)
{
  GMenu *menu = g_menu_new ();
  g_autoptr (GMenu) section = g_menu_new ();
  g_autoptr (GMenu) marks = g_menu_new ();

  g_menu_append (marks, _ ("_Normal"), "win.mark-connection::normal");
  g_menu_append (marks, _ ("_Production"), "win.mark-connection::production");
  g_menu_append (marks, _ ("_Read-Only"), "win.mark-connection::read-only");
  /* TRANSLATORS: the connection has no mark of its own: the patterns in Preferences decide */
  g_menu_append (marks, _ ("By _Pattern"), "win.mark-connection::pattern");
  /* TRANSLATORS: the sidebar's context menu of a connection */
  g_menu_append_section (section, _ ("Mark As"), G_MENU_MODEL (marks));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_menu_append (menu, _ ("Pr_eferences"), "app.preferences");
  return G_MENU_MODEL (menu);
}

static gboolean
popover_unparent (gpointer data)
{
  if (gtk_widget_get_parent (data) != NULL)
    gtk_widget_unparent (data);
  g_object_unref (data);
  return G_SOURCE_REMOVE;
}

static void
popover_closed (GtkPopover *popover)
{
  /* later: the item's action runs after the menu closes */
  g_idle_add (popover_unparent, g_object_ref (popover));
}

GtkWidget *
dy_window_marks_popup (DyWindow *self, GtkWidget *widget, DyConnection *connection, double x,
                       double y)
{
  g_autoptr (GMenuModel) menu = mark_menu ();
  GtkWidget *popover = gtk_popover_menu_new_from_model (menu);
  GdkRectangle at = { (int) x, (int) y, 1, 1 };

  sync_mark_action (self, connection);
  gtk_widget_set_parent (popover, widget);
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  gtk_popover_set_pointing_to (GTK_POPOVER (popover), &at);
  /* unparented once closed (after the action it activated has run) */
  g_signal_connect (popover, "closed", G_CALLBACK (popover_closed), NULL);
  gtk_popover_popup (GTK_POPOVER (popover));
  return popover;
}

void
dy_window_marks_init (DyWindow *self)
{
  g_autoptr (GSimpleAction) action
      = g_simple_action_new_stateful ("mark-connection", G_VARIANT_TYPE_STRING,
                                      g_variant_new_string (BY_PATTERN));

  g_signal_connect (action, "change-state", G_CALLBACK (mark_connection_changed), self);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));
  if (self->settings != NULL)
    dy_marks_watch (self->settings, G_LIST_MODEL (self->connections));
  g_signal_connect_object (self->tab_view, "page-attached", G_CALLBACK (page_attached), self, 0);
}
