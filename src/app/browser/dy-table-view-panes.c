/* dy-table-view-panes.c: the grid and the inspector's pane. The grid gets the room: the
 * inspector sits beside it (or below it, a setting), is shown only while it has something to
 * show (an item, a new item) and not collapsed (Shift+F9), at the width (or height) the user
 * last dragged it to. The settings are the window's, so every tab follows a change made in one. */

#include "app/browser/dy-table-view-private.h"

#define INSPECTOR_MIN_WIDTH 320
#define INSPECTOR_MIN_HEIGHT 160

static gboolean
below (DyTableView *self)
{
  g_autofree char *position = self->layout_settings != NULL
      ? g_settings_get_string (self->layout_settings, "inspector-position") : NULL;

  return g_strcmp0 (position, "below") == 0;
}

static const char *
size_key (DyTableView *self)
{
  return below (self) ? "inspector-height" : "inspector-width";
}

/* The inspector's size along the pane, as allocated. */
static int
inspector_size (DyTableView *self)
{
  return below (self) ? gtk_widget_get_height (GTK_WIDGET (self->inspector))
                      : gtk_widget_get_width (GTK_WIDGET (self->inspector));
}

/* A frame's tick comes before its layout: the tick waits one frame after it is added, or after
 * it moved the handle, so that the sizes it reads are the ones laid out. It gives the inspector
 * the remembered size (after it was shown, turned, or the size changed in another tab: a few
 * tries, as the window may not have the room), or else remembers the size the user dragged it
 * to. A pane out of sight waits for its "map". */
static gboolean
pane_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  DyTableView *self = data;
  int size;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self->inspector)) || self->layout_settings == NULL)
    {
      self->pane_tick = 0;
      return G_SOURCE_REMOVE;
    }
  if (self->pane_wait > 0)
    {
      self->pane_wait--;
      return G_SOURCE_CONTINUE;
    }
  size = inspector_size (self);
  if (size <= 0)
    return G_SOURCE_CONTINUE; /* not laid out yet */
  if (self->pane_apply)
    {
      int wanted = g_settings_get_int (self->layout_settings, size_key (self));

      if (wanted != size && self->pane_tries++ < 4)
        {
          gtk_paned_set_position (self->panes, gtk_paned_get_position (self->panes) + size - wanted);
          self->pane_wait = 1;
          return G_SOURCE_CONTINUE;
        }
      self->pane_apply = FALSE;
    }
  else
    {
      int position = gtk_paned_get_position (self->panes);
      int min, max;

      /* a size the window forced (the handle against an end) is not the user's choice */
      g_object_get (self->panes, "min-position", &min, "max-position", &max, NULL);
      if (position > min && position < max
          && g_settings_get_int (self->layout_settings, size_key (self)) != size)
        g_settings_set_int (self->layout_settings, size_key (self), size);
    }
  self->pane_tick = 0;
  return G_SOURCE_REMOVE;
}

static void
schedule_tick (DyTableView *self)
{
  if (self->pane_tick == 0 && gtk_widget_get_mapped (GTK_WIDGET (self->inspector)))
    {
      self->pane_wait = 1;
      self->pane_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->panes), pane_tick, self,
                                                      NULL);
    }
}

static void
apply_size (DyTableView *self)
{
  self->pane_apply = TRUE;
  self->pane_tries = 0;
  schedule_tick (self);
}

/* The inspector shown or hidden, beside or below the grid, as the settings and its item say. */
static void
update_panes (DyTableView *self)
{
  GtkWidget *inspector = GTK_WIDGET (self->inspector);
  GtkOrientation orientation = below (self) ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL;
  gboolean wanted = (self->layout_settings == NULL
                     || g_settings_get_boolean (self->layout_settings, "inspector-visible"))
                    && (dy_inspector_get_item (self->inspector) != NULL
                        || dy_inspector_get_creating (self->inspector));

  if (gtk_orientable_get_orientation (GTK_ORIENTABLE (self->panes)) != orientation)
    {
      gtk_orientable_set_orientation (GTK_ORIENTABLE (self->panes), orientation);
      gtk_widget_set_size_request (inspector,
                                   orientation == GTK_ORIENTATION_HORIZONTAL ? INSPECTOR_MIN_WIDTH : -1,
                                   orientation == GTK_ORIENTATION_VERTICAL ? INSPECTOR_MIN_HEIGHT : -1);
      apply_size (self);
    }
  if (gtk_widget_get_visible (inspector) != wanted)
    {
      gtk_widget_set_visible (inspector, wanted);
      if (wanted)
        apply_size (self);
    }
}

static void
settings_changed (DyTableView *self, const char *key)
{
  if (g_str_equal (key, "inspector-visible") || g_str_equal (key, "inspector-position"))
    update_panes (self);
  else if (g_str_equal (key, size_key (self)) && inspector_size (self) > 0
           && g_settings_get_int (self->layout_settings, key) != inspector_size (self))
    apply_size (self); /* dragged in another tab */
}

static void
position_changed (DyTableView *self)
{
  schedule_tick (self);
}

void
dy_table_view_set_layout_settings (DyTableView *self, GSettings *settings)
{
  g_return_if_fail (self->layout_settings == NULL);
  self->layout_settings = g_object_ref (settings);
  g_signal_connect_object (settings, "changed", G_CALLBACK (settings_changed), self,
                           G_CONNECT_SWAPPED);
  update_panes (self);
  apply_size (self);
}

void
dy_table_view_show_inspector (DyTableView *self)
{
  if (self->layout_settings != NULL)
    g_settings_set_boolean (self->layout_settings, "inspector-visible", TRUE);
  update_panes (self);
}

/* "New Item" of the view's menu: the inspector opens (even when collapsed) on a new item. */
static void
new_item_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  dy_inspector_new_item (self->inspector);
  dy_table_view_show_inspector (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->inspector));
}

int
dy_table_view_grid_room (DyTableView *self)
{
  int room = gtk_widget_get_width (gtk_widget_get_parent (GTK_WIDGET (self->column_view)));

  /* the inspector takes its width once a row is selected */
  if (room > 0 && self->layout_settings != NULL && !below (self)
      && !gtk_widget_get_visible (GTK_WIDGET (self->inspector))
      && g_settings_get_boolean (self->layout_settings, "inspector-visible"))
    room -= g_settings_get_int (self->layout_settings, "inspector-width") + 1;
  return room;
}

AdwFlap *
dy_table_view_get_staging_flap (DyTableView *self)
{
  return self->staging_flap;
}

void
dy_table_view_panes_init (DyTableView *self)
{
  g_signal_connect_object (self->inspector, "item-changed", G_CALLBACK (update_panes), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->panes, "notify::position", G_CALLBACK (position_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->inspector, "map", G_CALLBACK (apply_size), self,
                           G_CONNECT_SWAPPED);
  update_panes (self);
}

void
dy_table_view_panes_dispose (DyTableView *self)
{
  if (self->pane_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->panes), self->pane_tick);
  self->pane_tick = 0;
  if (self->fit_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->column_view), self->fit_tick);
  self->fit_tick = 0;
  g_clear_object (&self->layout_settings);
}

void
dy_table_view_panes_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.new-item", NULL, new_item_action);
}
