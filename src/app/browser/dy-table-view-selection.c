/* dy-table-view-selection.c: the grid's selection of many rows. A row selected alone is shown
 * in the inspector; several rows (click, Shift, Ctrl, Ctrl+A, or every item of the query: the
 * pages not loaded yet are loaded first) get a bar under the grid, and the right click a menu,
 * whose actions (dy-table-view-bulk.c) take the selected items. The selection is kept as
 * positions (dy-row-selection.c): selecting a million rows makes none of them. */
#define G_LOG_DOMAIN "dynoscope-browser"

#include <glib/gi18n.h>

#include "app/browser/dy-grid.h"
#include "app/browser/dy-group.h"
#include "app/browser/dy-table-view-private.h"
#include "app/common/dy-format.h"

/* ---- The inspector follows a row selected alone ---- */

static char *
item_title (DyTableView *self, DyItem *item)
{
  const DyTableViewKeys *table = self->keys->pdata[0];
  const DdbValue *pk = dy_item_get_attribute (item, table->pk);
  const DdbValue *sk = table->sk != NULL ? dy_item_get_attribute (item, table->sk) : NULL;
  g_autofree char *pk_text = pk != NULL ? dy_format_key (pk) : NULL;
  g_autofree char *sk_text = sk != NULL ? dy_format_key (sk) : NULL;

  if (sk_text != NULL)
    return g_strdup_printf ("%s · %s", pk_text, sk_text);
  return g_strdup (pk_text != NULL ? pk_text : "");
}

static guint
n_selected (DyTableView *self)
{
  g_autoptr (GtkBitset) set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

  return (guint) MIN (gtk_bitset_get_size (set), G_MAXUINT);
}

static void
inspect_selection (DyTableView *self)
{
  g_autoptr (GtkBitset) set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  g_autoptr (GObject) object = NULL;

  if (gtk_bitset_get_size (set) == 1)
    {
      g_autoptr (GObject) row = dy_row_feed_get_row (self->feed, gtk_bitset_get_minimum (set));

      object = dy_grid_row_item (row);
    }
  if (DY_IS_ITEM (object) && self->keys != NULL && self->keys->len > 0)
    {
      g_autofree char *title = item_title (self, DY_ITEM (object));

      dy_inspector_set_ttl_attribute (self->inspector, dy_table_view_ttl_attribute (self));
      dy_inspector_set_item (self->inspector, DY_ITEM (object), title);
    }
  else
    dy_inspector_set_item (self->inspector, NULL, NULL);
}

/* ---- Every row: selected once the pages not loaded yet are in ---- */

/* Whether the grid shows every row loaded (the feed has handed them all over, no sort or
 * grouping is being made), so that selecting all its rows selects every loaded item. */
static gboolean
rows_settled (DyTableView *self)
{
  return !self->running && !dy_table_view_get_arranging (self);
}

gboolean
dy_table_view_all_rows_selected (DyTableView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  return n > 0 && n_selected (self) == n && rows_settled (self);
}

void
dy_table_view_selection_update (DyTableView *self)
{
  guint n, loaded;
  gboolean busy = self->bulk_cancellable != NULL;
  gboolean can_write = self->ready && self->keys != NULL && !busy;
  g_autofree char *text = NULL;

  if (self->selection == NULL || self->selection_label == NULL)
    return; /* disposed */
  n = n_selected (self);
  loaded = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  if (self->select_all_pending && !self->running)
    {
      if (self->last_key != NULL)
        self->select_all_pending = FALSE; /* Load All stopped: cancelled, or failed */
      else if (rows_settled (self))
        {
          self->select_all_pending = FALSE;
          gtk_selection_model_select_all (GTK_SELECTION_MODEL (self->selection));
          return; /* selection-changed comes back here */
        }
    }
  if (busy)
    text = g_strdup (self->bulk_status);
  else if (dy_table_view_all_rows_selected (self) && self->last_key == NULL)
    text = g_strdup_printf (ngettext ("The query’s %u item is selected",
                                      "All %u items of the query are selected", loaded),
                            loaded);
  else if (self->grouped)
    text = g_strdup_printf (ngettext ("%u row selected", "%u rows selected", n), n);
  else
    text = g_strdup_printf (ngettext ("%u item selected", "%u items selected", n), n);
  gtk_label_set_text (self->selection_label, text);
  gtk_spinner_set_spinning (self->selection_spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->selection_spinner), busy);
  gtk_widget_set_visible (GTK_WIDGET (self->selection_cancel), busy);
  gtk_widget_set_visible (GTK_WIDGET (self->select_query_button),
                          !busy && self->last_key != NULL && !self->select_all_pending);
  gtk_revealer_set_reveal_child (self->selection_revealer, n > 1 || busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.select-query",
                                 self->request != NULL && !self->running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.delete-selected", n > 0 && can_write);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.copy-selected", n > 0 && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.export-selected", n > 0 && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.copy-selected-to", n > 0 && can_write);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.stage-file", can_write);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.cancel-bulk", busy);
}

static void
selection_changed (DyTableView *self)
{
  inspect_selection (self);
  dy_table_view_selection_update (self);
}

static gboolean
settle_idle (gpointer data)
{
  DyTableView *self = data;

  self->select_all_idle = 0;
  dy_table_view_selection_update (self);
  return G_SOURCE_REMOVE;
}

/* The rows changed (a page came, the feed showed more, the order was made): a pending "every
 * item" may now be satisfied. Looked at once the feed's own step is over (it reports itself
 * pending while it emits), below its priority. */
static void
rows_changed (DyTableView *self)
{
  if (self->select_all_pending && self->select_all_idle == 0)
    self->select_all_idle = g_idle_add_full (G_PRIORITY_LOW, settle_idle, self, NULL);
}

static void
select_query_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  if (self->running)
    return;
  self->select_all_pending = TRUE;
  if (self->last_key != NULL)
    gtk_widget_activate_action (widget, "view.load-all", NULL);
  dy_table_view_selection_update (self);
}

/* ---- Set-up ---- */

/* A right click on a row: the selection's menu (the row clicked joins the selection, or
 * becomes it when it was not selected). */
static void
grid_pressed (GtkGestureClick *gesture, int n_press, double x, double y, DyTableView *self)
{
  GdkRectangle at = { (int) x, (int) y, 1, 1 };

  if (n_selected (self) == 0)
    return;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->selection_menu), &at);
  gtk_popover_popup (GTK_POPOVER (self->selection_menu));
}

void
dy_table_view_selection_init (DyTableView *self)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->selection = dy_row_selection_new (NULL);
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (selection_changed),
                            self);
  g_signal_connect_swapped (self->selection, "items-changed", G_CALLBACK (rows_changed), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  /* Delete and Ctrl+C act on the selected rows while the grid has the focus (an entry's own
   * Ctrl+C is left alone). */
  gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Delete, 0),
                        gtk_named_action_new ("view.delete-selected")));
  gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_KP_Delete, 0),
                        gtk_named_action_new ("view.delete-selected")));
  {
    GtkShortcut *copy = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_c, GDK_CONTROL_MASK),
                                          gtk_named_action_new ("view.copy-selected"));

    gtk_shortcut_set_arguments (copy, g_variant_new_string ("jsonl"));
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys), copy);
  }
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), keys);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (grid_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (click));
  self->selection_menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (self->selection_menu_model));
  gtk_widget_set_parent (self->selection_menu, GTK_WIDGET (self->column_view));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->selection_menu), FALSE);
  gtk_widget_set_halign (self->selection_menu, GTK_ALIGN_START);
  dy_table_view_selection_update (self);
}

void
dy_table_view_selection_dispose (DyTableView *self)
{
  dy_table_view_bulk_dispose (self);
  g_clear_handle_id (&self->select_all_idle, g_source_remove);
  g_clear_pointer (&self->selection_menu, gtk_widget_unparent);
}

void
dy_table_view_selection_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.select-query", NULL, select_query_action);
  dy_table_view_bulk_class_init (widget_class);
}
