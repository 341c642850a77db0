/* test-session-gui.c: the window's tabs across a restart. Table tabs with their queries (key
 * conditions, order, filters, Limit, grouping) are saved when the window closes; a second
 * window, started as the next start would be, opens them again once the demo database is
 * listed, with the same tab selected. A tab on a table that no longer exists says so on the
 * tab. */
#define G_LOG_DOMAIN "test-session-gui"

#include <string.h>

#include "gui-util.h"

static DyWindow *second;

static DyTableView *
tab_of (DyWindow *window, const char *table)
{
  AdwTabView *tabs = dy_window_get_tab_view (window);

  for (int i = 0; i < adw_tab_view_get_n_pages (tabs); i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (tabs, i));

      if (DY_IS_TABLE_VIEW (child)
          && g_str_equal (dy_table_view_get_table_name (DY_TABLE_VIEW (child)), table))
        return DY_TABLE_VIEW (child);
    }
  return NULL;
}

static gboolean
tabs_restored (gpointer data)
{
  DyTableView *orders = tab_of (second, "Orders");
  DyTableView *blog = tab_of (second, "Blog");
  DyTableView *gone = tab_of (second, "Gone");

  return orders != NULL && blog != NULL && gone != NULL && dy_table_view_get_ready (orders)
         && dy_table_view_get_ready (blog) && dy_table_view_get_missing (gone);
}

static gboolean
missing (gpointer data)
{
  return dy_table_view_get_missing (data);
}

static const char *
text_of (DyTableView *view, const char *entry)
{
  return gtk_editable_get_text (GTK_EDITABLE (gui_child (view, entry)));
}

static guint
choice_of (DyTableView *view, const char *dropdown)
{
  return gtk_drop_down_get_selected (GTK_DROP_DOWN (gui_child (view, dropdown)));
}

static void
test_tabs_restored (void)
{
  AdwTabView *tabs = dy_window_get_tab_view (gui_window);
  DyTableView *orders, *blog, *gone;
  GtkWidget *row;
  AdwTabPage *page;
  guint index_choice;

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  /* Orders: an index, a key condition, newest first, two filters, a Limit. */
  orders = gui_open_table ("Orders");
  index_choice = g_list_model_get_n_items (gtk_drop_down_get_model (
                     GTK_DROP_DOWN (gui_child (orders, "index_dropdown"))))
                 > 1 ? 1 : 0;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (gui_child (orders, "index_dropdown")), index_choice);
  gui_set_text (orders, "pk_entry", "TENANT#smallco");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (gui_child (orders, "sk_op_dropdown")), 2);
  gui_set_text (orders, "sk_entry", "C#2001");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (gui_child (orders, "desc_toggle")), TRUE);
  gui_set_text (orders, "filter_attr_entry", "status");
  gui_set_text (orders, "filter_value_entry", "delivered ☃ \"quoted\"");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (orders), "view.add-filter", NULL));
  row = gtk_widget_get_last_child (gui_child (orders, "extra_filters_box"));
  gtk_editable_set_text (g_object_get_data (G_OBJECT (row), "attr"), "qty");
  gtk_drop_down_set_selected (g_object_get_data (G_OBJECT (row), "op"), 3);
  gtk_drop_down_set_selected (g_object_get_data (G_OBJECT (row), "type"), 1);
  gtk_editable_set_text (g_object_get_data (G_OBJECT (row), "value"), "2");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (gui_child (orders, "limit_spin")), 7);
  /* Blog: grouped into item collections. */
  blog = gui_open_table ("Blog");
  gui_run (blog, "win.run");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
  g_assert_true (dy_table_view_get_grouped (blog));
  /* A table that is not there: the tab says so. */
  gone = dy_window_open_table (gui_window, gui_demo_connection (), "Gone");
  gui_wait_for (missing, gone, "DescribeTable to find no table Gone");
  page = adw_tab_view_get_page (tabs, GTK_WIDGET (gone));
  g_assert_nonnull (adw_tab_page_get_indicator_icon (page));
  g_assert_nonnull (adw_tab_page_get_indicator_tooltip (page));
  g_assert_true (strstr (adw_tab_page_get_indicator_tooltip (page), "Gone") != NULL);
  gui_screenshot ("20-session-missing-table.png");
  /* Orders selected when the window closes. */
  adw_tab_view_set_selected_page (tabs, adw_tab_view_get_page (tabs, GTK_WIDGET (orders)));
  dy_window_save_session (gui_window);

  /* The next start: a window of its own on the same settings. */
  second = dy_window_new (ADW_APPLICATION (gtk_window_get_application (GTK_WINDOW (gui_window))));
  dy_window_open_demo (second);
  gtk_window_present (GTK_WINDOW (second));
  gui_wait_for (tabs_restored, NULL, "the saved tabs to be opened again");
  gui_settle ();
  gui_screenshot ("21-session-restored.png");
  tabs = dy_window_get_tab_view (second);
  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, 3);
  orders = tab_of (second, "Orders");
  g_assert_true (adw_tab_view_get_selected_page (tabs)
                 == adw_tab_view_get_page (tabs, GTK_WIDGET (orders)));
  g_assert_cmpuint (choice_of (orders, "index_dropdown"), ==, index_choice);
  g_assert_cmpstr (text_of (orders, "pk_entry"), ==, "TENANT#smallco");
  g_assert_cmpuint (choice_of (orders, "sk_op_dropdown"), ==, 2);
  g_assert_cmpstr (text_of (orders, "sk_entry"), ==, "C#2001");
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (gui_child (orders, "desc_toggle"))));
  g_assert_cmpstr (text_of (orders, "filter_attr_entry"), ==, "status");
  g_assert_cmpstr (text_of (orders, "filter_value_entry"), ==, "delivered ☃ \"quoted\"");
  row = gtk_widget_get_first_child (gui_child (orders, "extra_filters_box"));
  g_assert_nonnull (row);
  g_assert_null (gtk_widget_get_next_sibling (row));
  g_assert_cmpstr (gtk_editable_get_text (g_object_get_data (G_OBJECT (row), "attr")), ==, "qty");
  g_assert_cmpuint (gtk_drop_down_get_selected (g_object_get_data (G_OBJECT (row), "op")), ==, 3);
  g_assert_cmpuint (gtk_drop_down_get_selected (g_object_get_data (G_OBJECT (row), "type")), ==, 1);
  g_assert_cmpstr (gtk_editable_get_text (g_object_get_data (G_OBJECT (row), "value")), ==, "2");
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (gui_child (orders, "limit_spin"))),
                   ==, 7);
  g_assert_true (dy_table_view_get_grouped (tab_of (second, "Blog")));
  page = adw_tab_view_get_page (tabs, GTK_WIDGET (tab_of (second, "Gone")));
  g_assert_nonnull (adw_tab_page_get_indicator_icon (page));
  /* the restored query runs as it was typed: one partition of the index, newest first */
  {
    g_autofree char *request = dy_table_view_dup_request_text (orders);

    g_assert_true (strstr (request, "\"Query\"") != NULL || strstr (request, "KeyConditionExpression") != NULL);
    g_assert_true (strstr (request, "TENANT#smallco") != NULL);
    g_assert_true (strstr (request, "\"ScanIndexForward\": false") != NULL);
    g_assert_true (strstr (request, "\"Limit\": 7") != NULL);
  }
  gtk_window_destroy (GTK_WINDOW (second));
  second = NULL;
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  g_test_add_func ("/session-gui/tabs-restored", test_tabs_restored);
  return gui_run_tests ();
}
