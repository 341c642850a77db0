/* dy-window-session.c: the window's table tabs kept across restarts. When the window closes,
 * each table tab's connection, table and query go into the "open-tabs" setting; at the next
 * start each is opened again as soon as its connection is listed (database files open and AWS
 * profiles are read on threads), the selected one selected. A tab whose connection never comes
 * back (a profile removed, a region picked by hand) is kept for the start after. */
#define G_LOG_DOMAIN "dynoscope-window"

#include "app/window/dy-window-private.h"

static GVariant *
tab_entry (DyTableView *view, gboolean selected)
{
  g_autofree char *key = dy_connection_dup_key (dy_table_view_get_connection (view));
  g_autoptr (GVariant) state = dy_table_view_save_state (view);
  g_auto (GVariantDict) dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "connection", "s", key);
  g_variant_dict_insert (&dict, "table", "s", dy_table_view_get_table_name (view));
  g_variant_dict_insert (&dict, "query", "v", state);
  g_variant_dict_insert (&dict, "selected", "b", selected);
  return g_variant_dict_end (&dict);
}

void
dy_window_save_session (DyWindow *self)
{
  AdwTabPage *selected = adw_tab_view_get_selected_page (self->tab_view);
  GVariantBuilder tabs;

  if (self->settings == NULL)
    return;
  g_variant_builder_init (&tabs, G_VARIANT_TYPE ("aa{sv}"));
  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      AdwTabPage *page = adw_tab_view_get_nth_page (self->tab_view, i);
      GtkWidget *child = adw_tab_page_get_child (page);

      if (DY_IS_TABLE_VIEW (child))
        g_variant_builder_add_value (&tabs, tab_entry (DY_TABLE_VIEW (child), page == selected));
    }
  for (guint i = 0; self->pending_tabs != NULL && i < self->pending_tabs->len; i++)
    g_variant_builder_add_value (&tabs, self->pending_tabs->pdata[i]);
  g_settings_set_value (self->settings, "open-tabs", g_variant_builder_end (&tabs));
}

/* Opens the saved tabs of CONNECTION, in their order. */
static void
restore_tabs (DyWindow *self, DyConnection *connection)
{
  g_autofree char *key = dy_connection_dup_key (connection);

  for (guint i = 0; i < self->pending_tabs->len;)
    {
      GVariant *entry = self->pending_tabs->pdata[i];
      g_auto (GVariantDict) dict;
      const char *saved = NULL, *table = NULL;
      g_autoptr (GVariant) state = NULL;
      gboolean selected = FALSE;
      AdwTabPage *before;
      DyTableView *view;

      g_variant_dict_init (&dict, entry);
      if (!g_variant_dict_lookup (&dict, "connection", "&s", &saved)
          || !g_variant_dict_lookup (&dict, "table", "&s", &table))
        {
          g_ptr_array_remove_index (self->pending_tabs, i); /* not ours: dropped */
          continue;
        }
      if (!g_str_equal (saved, key))
        {
          i++;
          continue;
        }
      g_variant_dict_lookup (&dict, "selected", "b", &selected);
      state = g_variant_dict_lookup_value (&dict, "query", G_VARIANT_TYPE_VARIANT);
      before = adw_tab_view_get_selected_page (self->tab_view);
      view = dy_window_new_tab (self, connection, table);
      if (state != NULL)
        {
          g_autoptr (GVariant) query = g_variant_get_variant (state);

          if (g_variant_is_of_type (query, G_VARIANT_TYPE_VARDICT))
            dy_table_view_restore_state (view, query);
        }
      /* the tab that was selected is selected again, whatever order the connections come
       * in; until it is back, the tab that was selected before */
      if (selected)
        g_set_weak_pointer (&self->restored_page, adw_tab_view_get_selected_page (self->tab_view));
      else if (self->restored_page != NULL)
        adw_tab_view_set_selected_page (self->tab_view, self->restored_page);
      else if (before != NULL)
        adw_tab_view_set_selected_page (self->tab_view, before);
      g_ptr_array_remove_index (self->pending_tabs, i);
    }
}

static void
connections_changed (DyWindow *self, guint position, guint removed, guint added)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr (DyConnection) connection
          = g_list_model_get_item (G_LIST_MODEL (self->connections), i);

      restore_tabs (self, connection);
    }
}

void
dy_window_restore_session (DyWindow *self)
{
  g_autoptr (GVariant) tabs = NULL;
  GVariantIter iter;
  GVariant *entry;

  if (self->settings == NULL)
    return;
  self->pending_tabs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  tabs = g_settings_get_value (self->settings, "open-tabs");
  g_variant_iter_init (&iter, tabs);
  while ((entry = g_variant_iter_next_value (&iter)) != NULL)
    g_ptr_array_add (self->pending_tabs, entry);
  g_signal_connect_object (self->connections, "items-changed", G_CALLBACK (connections_changed),
                           self, G_CONNECT_SWAPPED);
  connections_changed (self, 0, 0, g_list_model_get_n_items (G_LIST_MODEL (self->connections)));
}
