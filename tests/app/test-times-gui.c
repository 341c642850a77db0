/* test-times-gui.c: times beside values in the real app. A table made through the demo
 * connection holds epoch seconds, milliseconds, an ISO 8601 string, a plain count and a TTL
 * attribute (TTL enabled with UpdateTimeToLive). The grid shows the dates by default where
 * every value is a time and on the TTL column ("in 3 days", "expired 4 hours ago, awaiting
 * deletion", "no expiry (not a number)"), nothing on the count; each column's header menu
 * switches its mode (Off, Beside, Instead: the exact value then in the tooltip); the choice is
 * remembered when the table is opened again. The inspector shows the dates dimmed beside the
 * exact values and when the item expires, and its editor holds the exact values only. The
 * local zone is UTC (TZ), so the dates are known. */
#define G_LOG_DOMAIN "test-times-gui"

#include <string.h>

#include "app/inspector/dy-value-cell.h"
#include "gui-util.h"

#define TABLE "Times"

static gint64 now;

/* Four items: a to d. The TTL attribute: in 3 days (and a minute, so that the phrase holds
 * while the test runs), 4 hours (and a minute) ago, a string, none. */
static void
create_table (void)
{
  g_autoptr (GError) error = NULL;
  DdbBackend *backend;
  g_autofree char *soon = g_strdup_printf ("%" G_GINT64_FORMAT, now + 3 * 86400 + 60);
  g_autofree char *past = g_strdup_printf ("%" G_GINT64_FORMAT, now - 4 * 3600 - 60);
  const char *pks[] = { "a", "b", "c", "d" };

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo database");
  backend = dy_connection_open_backend (gui_demo_connection (), 0, &error);
  g_assert_no_error (error);
  gui_call (backend, "CreateTable",
            json_pack ("{ss s[{ssss}] s[{ssss}] ss}", "TableName", TABLE, "AttributeDefinitions",
                       "AttributeName", "pk", "AttributeType", "S", "KeySchema", "AttributeName",
                       "pk", "KeyType", "HASH", "BillingMode", "PAY_PER_REQUEST"));
  for (guint i = 0; i < G_N_ELEMENTS (pks); i++)
    {
      g_autofree char *count = g_strdup_printf ("%u", 7 + i);
      json_t *item = json_pack ("{s{ss} s{ss} s{ss} s{ss} s{ss}}", "pk", "S", pks[i],
                                "created", "N", i == 0 ? "1733400000" : "1.7334E9",
                                "ms", "N", "1733400000123",
                                "iso", "S", "2026-12-05T14:03:07+02:00",
                                "count", "N", count);

      if (i == 0)
        json_object_set_new (item, "expiresAt", json_pack ("{ss}", "N", soon));
      else if (i == 1)
        json_object_set_new (item, "expiresAt", json_pack ("{ss}", "N", past));
      else if (i == 2)
        json_object_set_new (item, "expiresAt", json_pack ("{ss}", "S", "never"));
      gui_call (backend, "PutItem", json_pack ("{ss so}", "TableName", TABLE, "Item", item));
    }
  gui_call (backend, "UpdateTimeToLive",
            json_pack ("{ss s{sbss}}", "TableName", TABLE, "TimeToLiveSpecification", "Enabled", 1,
                       "AttributeName", "expiresAt"));
  ddb_backend_free (backend);
}

static GtkColumnView *
grid (DyTableView *view)
{
  return GTK_COLUMN_VIEW (gui_child (view, "column_view"));
}

static GtkColumnViewColumn *
find_column (DyTableView *view, const char *name)
{
  GListModel *columns = gtk_column_view_get_columns (grid (view));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), name) == 0)
        return column; /* the view keeps it */
    }
  g_error ("no column %s", name);
}

static void
collect_cells (GtkWidget *widget, const char *name, GPtrArray *texts, GPtrArray *tips)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_INSCRIPTION (child)
          && g_strcmp0 (g_object_get_data (G_OBJECT (child), "attribute"), name) == 0
          && gtk_widget_get_mapped (child))
        {
          const char *text = gtk_inscription_get_text (GTK_INSCRIPTION (child));

          g_ptr_array_add (texts, g_strdup (text != NULL ? text : ""));
          if (tips != NULL)
            g_ptr_array_add (tips, g_strdup (g_object_get_data (G_OBJECT (child), "tooltip")));
        }
      collect_cells (child, name, texts, tips);
    }
}

static gboolean
contains (GPtrArray *texts, const char *text)
{
  for (guint i = 0; i < texts->len; i++)
    if (g_strcmp0 (texts->pdata[i], text) == 0)
      return TRUE;
  return FALSE;
}

static char *
joined (GPtrArray *texts)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < texts->len; i++)
    g_string_append_printf (out, "%s\"%s\"", i > 0 ? ", " : "", (char *) texts->pdata[i]);
  return g_string_free (out, FALSE);
}

/* Every cell of column NAME shown in the grid: EXPECTED (NULL-terminated) all among them, and
 * no other text. */
static void
assert_cells (DyTableView *view, const char *name, const char *const *expected, const char *tip)
{
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) tips = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *all = NULL;

  collect_cells (GTK_WIDGET (grid (view)), name, texts, tips);
  all = joined (texts);
  g_assert_cmpuint (texts->len, >=, 4);
  for (guint i = 0; expected[i] != NULL; i++)
    if (!contains (texts, expected[i]))
      g_error ("column %s: no cell \"%s\" among %s", name, expected[i], all);
  for (guint i = 0; i < texts->len; i++)
    {
      gboolean known = g_str_equal (texts->pdata[i], "");

      for (guint j = 0; expected[j] != NULL && !known; j++)
        known = g_str_equal (texts->pdata[i], expected[j]);
      if (!known)
        g_error ("column %s: unexpected cell \"%s\" among %s", name,
                 (char *) texts->pdata[i], all);
      if (tip != NULL && !g_str_equal (texts->pdata[i], ""))
        g_assert_cmpstr (tips->pdata[i], ==, tip);
    }
}

/* Cells shown without a date carry no dimmed part left from one shown before. */
static void
assert_plain (GtkWidget *widget, const char *name, guint *n)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_INSCRIPTION (child)
          && g_strcmp0 (g_object_get_data (G_OBJECT (child), "attribute"), name) == 0
          && gtk_widget_get_mapped (child))
        {
          g_assert_null (gtk_inscription_get_attributes (GTK_INSCRIPTION (child)));
          (*n)++;
        }
      assert_plain (child, name, n);
    }
}

/* What the column's header menu offers: the three modes, radio items of its own action. */
static void
set_mode (DyTableView *view, const char *name, const char *mode)
{
  GtkColumnViewColumn *column = find_column (view, name);
  const char *prefix = g_object_get_data (G_OBJECT (column), "time-actions");
  GMenuModel *menu = gtk_column_view_column_get_header_menu (column);
  g_autoptr (GMenuModel) section = NULL;
  g_autofree char *action = NULL;
  gboolean offered = FALSE;

  g_assert_nonnull (prefix);
  g_assert_nonnull (menu);
  action = g_strdup_printf ("%s.time-mode", prefix);
  section = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
  g_assert_cmpint (g_menu_model_get_n_items (section), ==, 3);
  for (int i = 0; i < 3; i++)
    {
      g_autofree char *item_action = NULL;
      g_autoptr (GVariant) target = NULL;

      g_assert_true (g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_ACTION, "s",
                                                      &item_action));
      g_assert_cmpstr (item_action, ==, action);
      target = g_menu_model_get_item_attribute_value (section, i, G_MENU_ATTRIBUTE_TARGET,
                                                      G_VARIANT_TYPE_STRING);
      offered |= g_str_equal (g_variant_get_string (target, NULL), mode);
    }
  g_assert_true (offered);
  /* as the menu's radio item does */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid (view)), action, "s", mode));
  gui_settle ();
}

static DyTableView *
open_and_run (void)
{
  DyTableView *view = gui_open_table (TABLE);

  gui_run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 4);
  gui_settle ();
  return view;
}

static void
test_grid (void)
{
  DyTableView *view = open_and_run ();
  g_autofree char *soon = g_strdup_printf ("%" G_GINT64_FORMAT " · in 3 days",
                                           now + 3 * 86400 + 60);
  g_autofree char *past = g_strdup_printf ("%" G_GINT64_FORMAT " · expired 4 hours ago, "
                                           "awaiting deletion", now - 4 * 3600 - 60);
  const char *created_beside[] = { "1733400000 · 2024-12-05 12:00:00", NULL };
  const char *created_off[] = { "1733400000", NULL };
  const char *ms_beside[] = { "1733400000123 · 2024-12-05 12:00:00.123", NULL };
  const char *ms_instead[] = { "2024-12-05 12:00:00.123", NULL };
  const char *iso_beside[] = { "2026-12-05T14:03:07+02:00 · 2026-12-05 12:03:07", NULL };
  const char *count_off[] = { "7", "8", "9", "10", NULL };
  const char *count_beside[] = { "7", "8", "9", "10", NULL };
  const char *ttl_beside[] = { soon, past, "never · no expiry (not a number)", NULL };

  /* defaults: dates where every value is a time, and on the TTL attribute */
  assert_cells (view, "created", created_beside, "N");
  assert_cells (view, "ms", ms_beside, "N");
  assert_cells (view, "iso", iso_beside, "S");
  assert_cells (view, "count", count_off, NULL);
  assert_cells (view, "expiresAt", ttl_beside, NULL);
  gui_screenshot ("16-times-grid.png");

  /* the header menu: Instead puts the date in the value's place, the value in the tooltip */
  set_mode (view, "ms", "instead");
  assert_cells (view, "ms", ms_instead, "N · 1733400000123");
  set_mode (view, "created", "off");
  assert_cells (view, "created", created_off, "N");
  {
    guint n = 0;

    assert_plain (GTK_WIDGET (grid (view)), "created", &n);
    g_assert_cmpuint (n, >=, 4);
  }
  /* a count is no time, whatever the mode */
  set_mode (view, "count", "beside");
  assert_cells (view, "count", count_beside, "N");
  set_mode (view, "count", "off");

  /* a Run keeps the modes */
  gui_run (view, "win.run");
  assert_cells (view, "ms", ms_instead, NULL);
  assert_cells (view, "created", created_off, NULL);
  gui_screenshot ("17-times-grid-modes.png");
}

/* The choices are in the setting, and a table opened again reads them. */
static void
test_remembered (void)
{
  GSettings *settings = dy_window_get_settings (gui_window);
  g_autoptr (GVariant) all = NULL;
  g_autofree char *connection = dy_connection_dup_key (gui_demo_connection ());
  g_autofree char *key = g_strdup_printf ("%s\t%s", connection, TABLE);
  g_autoptr (GVariant) columns = NULL;
  const char *mode = NULL;
  const char *created_off[] = { "1733400000", NULL };
  const char *ms_instead[] = { "2024-12-05 12:00:00.123", NULL };
  const char *iso_beside[] = { "2026-12-05T14:03:07+02:00 · 2026-12-05 12:03:07", NULL };
  DyTableView *view;

  /* the build's compiled schema (GSETTINGS_SCHEMA_DIR) */
  g_assert_nonnull (settings);
  all = g_settings_get_value (settings, "time-columns");
  columns = g_variant_lookup_value (all, key, G_VARIANT_TYPE ("a{ss}"));
  g_assert_nonnull (columns);
  g_assert_true (g_variant_lookup (columns, "ms", "&s", &mode));
  g_assert_cmpstr (mode, ==, "instead");
  g_assert_true (g_variant_lookup (columns, "created", "&s", &mode));
  g_assert_cmpstr (mode, ==, "off");
  g_assert_false (g_variant_lookup (columns, "iso", "&s", &mode));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.close-tab", NULL));
  gui_settle ();
  view = open_and_run ();
  assert_cells (view, "ms", ms_instead, "N · 1733400000123");
  assert_cells (view, "created", created_off, "N");
  assert_cells (view, "iso", iso_beside, "S");
}

static void
collect_values (GtkWidget *widget, GPtrArray *values, GPtrArray *times)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *value = dy_value_cell_get_value_label (child);

      if (value != NULL)
        {
          GtkLabel *time = dy_value_cell_get_time_label (child);

          g_ptr_array_add (values, g_strdup (gtk_label_get_text (value)));
          g_ptr_array_add (times, g_strdup (gtk_widget_get_visible (GTK_WIDGET (time))
                                                ? gtk_label_get_text (time) : NULL));
        }
      collect_values (child, values, times);
    }
}

/* The time shown beside VALUE in the inspector (NULL: none), failing if VALUE is not shown. */
static const char *
time_beside (GPtrArray *values, GPtrArray *times, const char *value)
{
  for (guint i = 0; i < values->len; i++)
    if (g_strcmp0 (values->pdata[i], value) == 0)
      return times->pdata[i];
  g_error ("the inspector shows no value %s", value);
}

static gboolean
item_shown (gpointer data)
{
  return dy_inspector_get_item (data) != NULL;
}

static void
test_inspector (void)
{
  DyTableView *view = dy_window_get_current_view (gui_window);
  GtkSelectionModel *rows = dy_table_view_get_rows (view);
  DyInspector *inspector = dy_table_view_get_inspector (view);
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) times = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *json = NULL;
  g_autofree char *soon_value = g_strdup_printf ("%" G_GINT64_FORMAT, now + 3 * 86400 + 60);
  g_autoptr (GDateTime) soon_dt = g_date_time_new_from_unix_utc (now + 3 * 86400 + 60);
  g_autofree char *soon_date = g_date_time_format (soon_dt, "%Y-%m-%d %H:%M:%S");
  g_autofree char *soon = g_strdup_printf ("%s · in 3 days", soon_date);
  guint target = G_MAXUINT;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
    {
      g_autoptr (DyItem) item = gui_grid_row (G_LIST_MODEL (rows), i);
      const DdbValue *expires = dy_item_get_attribute (item, "expiresAt");

      if (expires != NULL && expires->type == DDB_TYPE_N)
        {
          g_autofree char *text = ddb_number_to_string (&expires->number);

          if (g_str_equal (text, soon_value))
            target = i;
        }
    }
  g_assert_cmpuint (target, !=, G_MAXUINT);
  dy_table_view_show_inspector (view);
  gtk_selection_model_select_item (rows, target, TRUE);
  gui_wait_for (item_shown, inspector, "the item in the inspector");
  gui_settle ();
  collect_values (GTK_WIDGET (inspector), values, times);
  /* the exact values, the dates dimmed beside them */
  g_assert_cmpstr (time_beside (values, times, "1733400000"), ==, "2024-12-05 12:00:00");
  g_assert_cmpstr (time_beside (values, times, "1733400000123"), ==, "2024-12-05 12:00:00.123");
  g_assert_cmpstr (time_beside (values, times, "2026-12-05T14:03:07+02:00"), ==,
                   "2026-12-05 12:03:07");
  g_assert_null (time_beside (values, times, "7"));
  g_assert_null (time_beside (values, times, "a"));
  g_assert_cmpstr (time_beside (values, times, soon_value), ==, soon);
  gui_screenshot ("18-times-inspector.png");

  /* editing edits the exact values: no date in the editor */
  json = dy_inspector_dup_json_text (inspector);
  g_assert_nonnull (strstr (json, "\"N\": \"1733400000\""));
  g_assert_nonnull (strstr (json, "\"N\": \"1733400000123\""));
  g_assert_nonnull (strstr (json, soon_value));
  g_assert_null (strstr (json, "2024-12-05"));
  g_assert_null (strstr (json, "in 3 days"));
}

int
main (int argc, char **argv)
{
  /* the app's local zone: the dates the cells show are UTC's */
  g_setenv ("TZ", "UTC", TRUE);
  now = g_get_real_time () / G_USEC_PER_SEC;
  gui_init (&argc, &argv);
  g_test_add_func ("/times-gui/create", create_table);
  g_test_add_func ("/times-gui/grid", test_grid);
  g_test_add_func ("/times-gui/remembered", test_remembered);
  g_test_add_func ("/times-gui/inspector", test_inspector);
  return gui_run_tests ();
}
