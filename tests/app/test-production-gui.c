/* test-production-gui.c: production and read-only connections in the real app on the demo
 * database. A production connection is tinted (sidebar row, tab, staging cards) and its commit
 * sends nothing until each table's name (or, past three tables, the connection's) is typed;
 * Cancel leaves the changes staged. A read-only connection refuses Commit (insensitive, saying
 * why), a PartiQL INSERT (a SELECT still runs) and Delete Table, and its backends refuse what
 * the UI might let through; nothing reaches the tables. Marks and patterns are kept in the
 * settings and applied to a window opened afterwards. */
#define G_LOG_DOMAIN "test-production-gui"

#include <string.h>

#include "app/common/dy-confirm-name.h"
#include "app/connections/dy-marks.h"
#include "app/sql/dy-sql-view.h"
#include "app/staging/dy-commit-confirm.h"
#include "app/staging/dy-staging-panel.h"
#include "app/staging/dy-staging.h"
#include "app/tables/dy-table-dialog.h"
#include "app/window/dy-preferences.h"
#include "app/window/dy-window-private.h"
#include "backend/read-only.h"
#include "core/ddbjson.h"
#include "gui-util.h"

static DyStagingPanel *
panel (void)
{
  return dy_window_get_staging_panel (gui_window);
}

static GSettings *
settings (void)
{
  GSettings *s = dy_window_get_settings (gui_window);

  g_assert_nonnull (s);
  return s;
}

static gboolean
staging_read (gpointer data)
{
  return !dy_staging_get_loading (dy_staging_get_default (), gui_demo_connection ());
}

static void
staging_settle (void)
{
  gui_wait_for (staging_read, NULL, "the staged changes to be read");
  gui_settle ();
}

static gboolean
mark_is (gpointer data)
{
  DyConnection *c = g_object_get_data (data, "connection");

  return (int) dy_connection_get_mark (c) == GPOINTER_TO_INT (g_object_get_data (data, "mark"));
}

/* Waits for C's mark to be MARK (the settings' change may come on the main loop). */
static void
wait_mark (DyConnection *c, DyConnectionMark mark)
{
  g_autoptr (GObject) holder = g_object_new (G_TYPE_OBJECT, NULL);

  g_object_set_data (holder, "connection", c);
  g_object_set_data (holder, "mark", GINT_TO_POINTER (mark));
  gui_wait_for (mark_is, holder, "the connection's mark");
}

/* Every test starts with no staged change, no mark and no pattern. */
static void
reset (void)
{
  g_autoptr (GError) error = NULL;

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  g_settings_reset (settings (), "connection-marks");
  g_settings_reset (settings (), "production-patterns");
  g_settings_reset (settings (), "read-only-patterns");
  wait_mark (gui_demo_connection (), DY_CONNECTION_MARK_NORMAL);
  g_assert_true (
      dy_staging_discard_all (dy_staging_get_default (), gui_demo_connection (), NULL, &error));
  g_assert_no_error (error);
  staging_settle ();
}

/* Selects the demo connection's row in the sidebar and marks it as the "Mark As" menu does. */
static void
mark_demo (const char *word)
{
  GtkSelectionModel *model = gtk_list_view_get_model (gui_window->sidebar_list);
  const char *table;
  guint i;

  for (i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (model)); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);
      g_autoptr (GObject) item = gtk_tree_list_row_get_item (row);

      if (item == G_OBJECT (gui_demo_connection ()))
        break;
    }
  g_assert_cmpuint (i, <, g_list_model_get_n_items (G_LIST_MODEL (model)));
  gtk_selection_model_select_item (model, i, TRUE);
  g_assert_true (dy_window_sidebar_selection (gui_window, &table) == gui_demo_connection ());
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.mark-connection", "s",
                                             word));
  gui_settle ();
}

/* The item PK/SK of TABLE as the table holds it now (GetItem through the demo connection). */
static DdbValue *
table_item (const char *table, const char *k1, const char *v1, const char *k2, const char *v2)
{
  json_t *request = json_pack ("{ss s{s{ss}s{ss}} sb}", "TableName", table, "Key", k1, "S", v1,
                               k2, "S", v2, "ConsistentRead", 1);
  g_autoptr (GError) error = NULL;
  json_t *response
      = dy_connection_call_sync (gui_demo_connection (), "GetItem", request, NULL, &error);
  DdbValue *value = NULL;

  g_assert_no_error (error);
  if (json_object_get (response, "Item") != NULL)
    value = ddb_json_to_item (json_object_get (response, "Item"), &error);
  g_assert_no_error (error);
  json_decref (request);
  json_decref (response);
  return value;
}

static char *
blog_name (void)
{
  g_autoptr (DdbValue) item = table_item ("Blog", "PK", "USER#12", "SK", "META");

  g_assert_nonnull (item);
  return g_strdup (ddb_value_map_get (item, "name")->bytes.data);
}

/* Stages Blog USER#12's name changed to NAME. */
static void
stage_name (const char *name)
{
  g_autoptr (DdbValue) original = table_item ("Blog", "PK", "USER#12", "SK", "META");
  g_autoptr (DdbValue) target = ddb_value_copy (original);
  g_autoptr (DdbValue) key = ddb_value_new_m ();
  g_autoptr (GError) error = NULL;

  ddb_value_map_set (key, "PK", ddb_value_new_s ("USER#12", -1));
  ddb_value_map_set (key, "SK", ddb_value_new_s ("META", -1));
  ddb_value_map_set (target, "name", ddb_value_new_s (name, -1));
  g_assert_true (dy_staging_stage (dy_staging_get_default (), gui_demo_connection (), "Blog",
                                   DDB_CHANGE_UPDATE, key, original, target, &error));
  g_assert_no_error (error);
}

/* Stages a new item K1/K2 in TABLE. */
static void
stage_create (const char *table, const char *k1, const char *v1, const char *k2, const char *v2)
{
  g_autoptr (DdbValue) key = ddb_value_new_m ();
  g_autoptr (DdbValue) target = NULL;
  g_autoptr (GError) error = NULL;

  ddb_value_map_set (key, k1, ddb_value_new_s (v1, -1));
  ddb_value_map_set (key, k2, ddb_value_new_s (v2, -1));
  target = ddb_value_copy (key);
  ddb_value_map_set (target, "note", ddb_value_new_s ("production test", -1));
  g_assert_true (dy_staging_stage (dy_staging_get_default (), gui_demo_connection (), table,
                                   DDB_CHANGE_CREATE, key, NULL, target, &error));
  g_assert_no_error (error);
}

static gboolean
panel_shows (gpointer data)
{
  return dy_staging_panel_get_n_cards (panel ()) == GPOINTER_TO_UINT (data);
}

static gboolean
commit_finished (gpointer data)
{
  return !dy_staging_panel_get_committing (panel ());
}

static void
show_panel (void)
{
  GtkWidget *flap = gtk_widget_get_ancestor (GTK_WIDGET (panel ()), ADW_TYPE_FLAP);

  if (!adw_flap_get_reveal_flap (ADW_FLAP (flap)))
    g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.toggle-staging", NULL));
  g_assert_true (dy_staging_panel_get_connection (panel ()) == gui_demo_connection ());
}

/* The widgets under WIDGET with the CSS class CSS, appended to OUT. */
static void
collect_class (GtkWidget *widget, const char *css, GPtrArray *out)
{
  if (gtk_widget_has_css_class (widget, css))
    g_ptr_array_add (out, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_class (child, css, out);
}

static gboolean
has_label (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_label (child, text))
      return TRUE;
  return FALSE;
}

/* The sidebar's row widget showing the demo connection's title. */
static GtkWidget *
demo_sidebar_row (void)
{
  GtkWidget *list = GTK_WIDGET (gui_window->sidebar_list);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_child_visible (row)
        && has_label (row, dy_connection_get_title (gui_demo_connection ())))
      return row;
  return NULL;
}

/* Every staged card of the panel: N of them, each with (or, WITH false, without) CSS. */
static void
assert_cards (guint n, const char *css, gboolean with)
{
  g_autoptr (GPtrArray) cards = g_ptr_array_new ();

  gui_wait_for (panel_shows, GUINT_TO_POINTER (n), "the panel's cards");
  collect_class (GTK_WIDGET (panel ()), "staged-card", cards);
  g_assert_cmpuint (cards->len, ==, n);
  for (guint i = 0; i < cards->len; i++)
    g_assert_cmpint (gtk_widget_has_css_class (cards->pdata[i], css), ==, with);
}

static gboolean
dialog_gone (gpointer data)
{
  return dy_staging_panel_get_confirm_dialog (panel ()) == NULL;
}

/* Answers the question as its button does (the button closes the dialog too). */
static void
answer (GtkWidget *dialog, const char *response)
{
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), response);
  gtk_window_close (GTK_WINDOW (dialog));
}

static guint
n_staged (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) changes
      = dy_staging_list (dy_staging_get_default (), gui_demo_connection (), NULL, &error);

  g_assert_no_error (error);
  return changes->len;
}

/* Commit All on a production connection: the question, its rows asking for NAMES. */
static GtkWidget *
ask_commit (const char *const *names)
{
  GtkWidget *dialog;
  GPtrArray *rows;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel ()), "panel.commit-all", NULL));
  dialog = dy_staging_panel_get_confirm_dialog (panel ());
  g_assert_nonnull (dialog);
  /* nothing is sent while it asks */
  g_assert_false (dy_staging_panel_get_committing (panel ()));
  rows = dy_commit_confirm_get_rows (dialog);
  g_assert_cmpuint (rows->len, ==, g_strv_length ((GStrv) names));
  for (guint i = 0; i < rows->len; i++)
    {
      g_autofree char *title = g_strdup_printf ("Type “%s” to _confirm", names[i]);

      g_assert_cmpstr (dy_confirm_name_get_name (rows->pdata[i]), ==, names[i]);
      g_assert_cmpstr (adw_preferences_row_get_title (rows->pdata[i]), ==, title);
    }
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "commit"));
  return dialog;
}

static void
test_production_commit (void)
{
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *key = NULL;
  g_autoptr (GVariant) marks = NULL;
  const char *word = NULL;
  const char *const blog[] = { "Blog", NULL };
  GtkWidget *dialog;
  GtkWidget *row;
  GPtrArray *rows;
  DyTableView *view;
  AdwTabPage *page;

  reset ();
  key = dy_connection_dup_key (gui_demo_connection ());
  view = gui_open_table ("Blog");
  before = blog_name ();
  mark_demo ("production");
  g_assert_true (dy_connection_get_production (gui_demo_connection ()));
  /* kept in the settings under the connection's key */
  marks = g_settings_get_value (settings (), "connection-marks");
  g_assert_true (g_variant_lookup (marks, key, "&s", &word));
  g_assert_cmpstr (word, ==, "production");

  /* tinted: the sidebar row, the tab, the cards */
  row = demo_sidebar_row ();
  g_assert_nonnull (row);
  {
    /* the right-click menu shows the saved mark */
    GtkWidget *popover = dy_window_marks_popup (gui_window, row, gui_demo_connection (), 10, 10);
    g_autoptr (GVariant) state
        = g_action_group_get_action_state (G_ACTION_GROUP (gui_window), "mark-connection");

    g_assert_true (GTK_IS_POPOVER_MENU (popover));
    g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "production");
    gui_settle ();
    g_assert_true (gtk_widget_get_visible (popover));
    gtk_popover_popdown (GTK_POPOVER (popover));
    gui_settle ();
  }
  g_assert_true (gtk_widget_has_css_class (row, "production-connection"));
  g_assert_false (gtk_widget_has_css_class (row, "read-only-connection"));
  page = adw_tab_view_get_page (dy_window_get_tab_view (gui_window), GTK_WIDGET (view));
  g_assert_nonnull (adw_tab_page_get_indicator_icon (page));
  g_assert_nonnull (strstr (adw_tab_page_get_indicator_tooltip (page), "production"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (view), "production-view"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (view), "read-only-view"));

  stage_name ("Mara Vance (production)");
  show_panel ();
  staging_settle ();
  assert_cards (1, "production-connection", TRUE);
  gui_screenshot ("26-production-tint.png");

  /* Commit All asks; a wrong name leaves Commit insensitive; Cancel sends nothing */
  dialog = ask_commit (blog);
  gui_screenshot ("27-production-commit.png");
  rows = dy_commit_confirm_get_rows (dialog);
  gtk_editable_set_text (GTK_EDITABLE (rows->pdata[0]), "blog");
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "commit"));
  gtk_editable_set_text (GTK_EDITABLE (rows->pdata[0]), "Blog ");
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "commit"));
  answer (dialog, "cancel");
  gui_wait_for (dialog_gone, NULL, "the question to close");
  gui_settle ();
  g_assert_false (dy_staging_panel_get_committing (panel ()));
  g_assert_false (dy_staging_panel_get_report (panel (), NULL, NULL, NULL));
  after = blog_name ();
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpuint (n_staged (), ==, 1);

  /* the name typed: Commit sends it */
  dialog = ask_commit (blog);
  rows = dy_commit_confirm_get_rows (dialog);
  gtk_editable_set_text (GTK_EDITABLE (rows->pdata[0]), "Blog");
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "commit"));
  answer (dialog, "commit");
  gui_wait_for (commit_finished, NULL, "the commit to finish");
  staging_settle ();
  {
    guint committed, conflicts, failed;

    g_assert_true (dy_staging_panel_get_report (panel (), &committed, &conflicts, &failed));
    g_assert_cmpuint (committed, ==, 1);
    g_assert_cmpuint (conflicts + failed, ==, 0);
  }
  g_clear_pointer (&after, g_free);
  after = blog_name ();
  g_assert_cmpstr (after, ==, "Mara Vance (production)");
  g_assert_cmpuint (n_staged (), ==, 0);

  /* put back as it was: a normal connection commits at once */
  mark_demo ("normal");
  g_assert_false (gtk_widget_has_css_class (demo_sidebar_row (), "production-connection"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (view), "production-view"));
  g_assert_null (adw_tab_page_get_indicator_icon (page));
  stage_name (before);
  staging_settle ();
  assert_cards (1, "production-connection", FALSE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel ()), "panel.commit-all", NULL));
  g_assert_null (dy_staging_panel_get_confirm_dialog (panel ()));
  gui_wait_for (commit_finished, NULL, "the commit to finish");
  staging_settle ();
  g_clear_pointer (&after, g_free);
  after = blog_name ();
  g_assert_cmpstr (after, ==, before);
}

/* A commit over several tables asks for each table's name; over more than three, for the
 * connection's. */
static void
test_production_tables (void)
{
  const char *const two[] = { "Blog", "Workspaces", NULL };
  const char *connection[] = { NULL, NULL };
  json_t *create = json_pack ("{ss s[{ssss}] s[{ssss}] ss}", "TableName", "ProdExtra",
                              "AttributeDefinitions", "AttributeName", "id", "AttributeType", "S",
                              "KeySchema", "AttributeName", "id", "KeyType", "HASH",
                              "BillingMode", "PAY_PER_REQUEST");
  g_autoptr (GError) error = NULL;
  json_t *response;
  GtkWidget *dialog;
  GPtrArray *rows;
  g_autoptr (DdbValue) gone = NULL;

  reset ();
  connection[0] = dy_connection_get_title (gui_demo_connection ());
  gui_open_table ("Blog");
  mark_demo ("production");
  stage_create ("Blog", "PK", "POST#prod", "SK", "META");
  stage_create ("Workspaces", "EntityRef", "WS#prod", "Detail", "META");
  show_panel ();
  staging_settle ();
  dialog = ask_commit (two);
  rows = dy_commit_confirm_get_rows (dialog);
  /* one name is not enough */
  gtk_editable_set_text (GTK_EDITABLE (rows->pdata[0]), "Blog");
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "commit"));
  gtk_editable_set_text (GTK_EDITABLE (rows->pdata[1]), "Workspaces");
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "commit"));
  answer (dialog, "cancel");
  gui_wait_for (dialog_gone, NULL, "the question to close");

  /* four tables: the connection's name */
  response = dy_connection_call_sync (gui_demo_connection (), "CreateTable", create, NULL, &error);
  g_assert_no_error (error);
  json_decref (response);
  json_decref (create);
  stage_create ("Orders", "TenantShard", "T#prod", "CustomerCountryProduct", "C#prod");
  {
    g_autoptr (DdbValue) key = ddb_value_new_m ();

    ddb_value_map_set (key, "id", ddb_value_new_s ("prod", -1));
    g_assert_true (dy_staging_stage (dy_staging_get_default (), gui_demo_connection (),
                                     "ProdExtra", DDB_CHANGE_CREATE, key, NULL, key, &error));
    g_assert_no_error (error);
  }
  staging_settle ();
  dialog = ask_commit ((const char *const *) connection);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), "4"));
  gui_screenshot ("28-production-commit-tables.png");
  answer (dialog, "cancel");
  gui_wait_for (dialog_gone, NULL, "the question to close");
  g_assert_cmpuint (n_staged (), ==, 4);
  gone = table_item ("Blog", "PK", "POST#prod", "SK", "META");
  g_assert_null (gone);
  reset ();
}

static gboolean
commit_done_cb (gpointer data)
{
  return *(gboolean *) data;
}

typedef struct {
  gboolean done;
  gboolean ok;
  GError *error;
  DdbCommitReport report;
} Direct;

static void
direct_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Direct *d = user_data;

  d->ok = dy_staging_commit_finish (DY_STAGING (source), result, &d->report, &d->error);
  d->done = TRUE;
}

static gboolean
sql_idle (gpointer data)
{
  return !dy_sql_view_get_running (data);
}

static DyTableDialog *
find_table_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (DY_IS_TABLE_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return DY_TABLE_DIALOG (w);
    }
  return NULL;
}

static void
test_read_only (void)
{
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *reason = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbValue) inserted = NULL;
  GtkWidget *commit;
  GtkWidget *row;
  DySqlView *sql;
  DyTableView *view;
  AdwTabPage *page;
  Direct direct = { 0 };
  json_t *response;
  json_t *request;

  reset ();
  view = gui_open_table ("Blog");
  before = blog_name ();
  mark_demo ("read-only");
  g_assert_true (dy_connection_get_read_only (gui_demo_connection ()));
  reason = g_strdup_printf ("%s is read-only", dy_connection_get_title (gui_demo_connection ()));
  row = demo_sidebar_row ();
  g_assert_true (gtk_widget_has_css_class (row, "read-only-connection"));
  g_assert_false (gtk_widget_has_css_class (row, "production-connection"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (gui_open_table ("Blog")), "read-only-view"));
  page = adw_tab_view_get_page (dy_window_get_tab_view (gui_window), GTK_WIDGET (view));
  g_assert_nonnull (adw_tab_page_get_indicator_icon (page));
  g_assert_nonnull (strstr (adw_tab_page_get_indicator_tooltip (page), "read-only"));

  /* staging stays allowed; Commit All and each card's Commit are insensitive, saying why */
  stage_name ("Mara Vance (read-only)");
  show_panel ();
  staging_settle ();
  assert_cards (1, "read-only-connection", TRUE);
  commit = gui_action_button (GTK_WIDGET (panel ()), "panel.commit-all");
  g_assert_nonnull (commit);
  g_assert_false (gtk_widget_is_sensitive (commit));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (commit), ==, reason);
  commit = gui_action_button (GTK_WIDGET (panel ()), "panel.commit-one");
  g_assert_nonnull (commit);
  g_assert_false (gtk_widget_is_sensitive (commit));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (commit), ==, reason);
  gtk_widget_activate_action (GTK_WIDGET (panel ()), "panel.commit-all", NULL);
  gui_settle ();
  g_assert_false (dy_staging_panel_get_committing (panel ()));
  g_assert_null (dy_staging_panel_get_confirm_dialog (panel ()));
  gui_screenshot ("29-read-only.png");

  /* the backstop: a commit that gets past the UI is refused by the backend */
  dy_staging_commit_async (dy_staging_get_default (), gui_demo_connection (), NULL, 0,
                           DDB_COMMIT_TRANSACTIONS, NULL, NULL, NULL, direct_done, &direct);
  gui_wait_for (commit_done_cb, &direct.done, "the direct commit");
  g_assert_false (direct.ok);
  g_assert_cmpuint (direct.report.committed, ==, 0);
  g_assert_error (direct.error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY);
  g_clear_error (&direct.error);
  ddb_commit_report_clear (&direct.report);
  staging_settle ();
  after = blog_name ();
  g_assert_cmpstr (after, ==, before);

  /* PartiQL: an INSERT is refused before it is sent; a SELECT runs */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.sql", NULL));
  sql = DY_SQL_VIEW (dy_window_current_child (gui_window));
  dy_sql_view_set_partiql (sql, TRUE);
  dy_sql_view_set_text (sql, "INSERT INTO \"Blog\" VALUE {'PK': 'POST#ro', 'SK': 'META'}");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.run", NULL));
  g_assert_false (dy_sql_view_get_running (sql));
  g_assert_null (dy_sql_view_get_write_dialog (sql));
  g_assert_nonnull (dy_sql_view_get_error (sql));
  g_assert_true (g_str_has_prefix (dy_sql_view_get_error (sql), reason));
  g_assert_nonnull (strstr (dy_sql_view_get_error (sql), "INSERT"));
  gui_screenshot ("2a-read-only-partiql.png");
  inserted = table_item ("Blog", "PK", "POST#ro", "SK", "META");
  g_assert_null (inserted);
  dy_sql_view_set_text (sql, "SELECT * FROM \"Blog\" WHERE PK = 'USER#12'");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.run", NULL));
  gui_wait_for (sql_idle, sql, "the SELECT");
  g_assert_null (dy_sql_view_get_error (sql));
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (sql)), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.close-tab", NULL));
  gui_settle ();

  /* table changes: Delete Table and New Table are refused (no dialog); the backend refuses */
  adw_tab_view_set_selected_page (dy_window_get_tab_view (gui_window), page);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.delete-table", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.new-table", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.edit-table", NULL));
  gui_settle ();
  g_assert_null (find_table_dialog ());
  {
    /* a Delete Table dialog opened anyway: the name typed, Delete stays insensitive */
    GtkWidget *dialog
        = dy_table_dialog_new_delete (GTK_WINDOW (gui_window), gui_demo_connection (), "Blog");
    GtkWidget *confirm = dy_table_dialog_get_field (DY_TABLE_DIALOG (dialog), "confirm");

    gtk_window_present (GTK_WINDOW (dialog));
    gtk_editable_set_text (GTK_EDITABLE (confirm), "Blog");
    gui_settle ();
    g_assert_false (gtk_widget_is_sensitive (dy_table_dialog_get_field (DY_TABLE_DIALOG (dialog),
                                                                        "primary")));
    g_assert_cmpstr (gtk_widget_get_tooltip_text (
                         dy_table_dialog_get_field (DY_TABLE_DIALOG (dialog), "primary")),
                     ==, reason);
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
  request = json_pack ("{ss}", "TableName", "Blog");
  response = dy_connection_call_sync (gui_demo_connection (), "DeleteTable", request, NULL, &error);
  g_assert_null (response);
  g_assert_error (error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY);
  g_clear_error (&error);
  response
      = dy_connection_call_sync (gui_demo_connection (), "DescribeTable", request, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_string_value (json_object_get (json_object_get (response, "Table"),
                                                       "TableStatus")),
                   ==, "ACTIVE");
  json_decref (response);
  json_decref (request);

  /* unmarked: Commit comes back */
  mark_demo ("pattern");
  g_assert_cmpint (dy_connection_get_mark (gui_demo_connection ()), ==, DY_CONNECTION_MARK_NORMAL);
  commit = gui_action_button (GTK_WIDGET (panel ()), "panel.commit-all");
  g_assert_true (gtk_widget_is_sensitive (commit));
  g_assert_null (gtk_widget_get_tooltip_text (commit));
  g_assert_false (gtk_widget_has_css_class (demo_sidebar_row (), "read-only-connection"));
  reset ();
}

/* Patterns: a corpus of names and patterns, each checked. */
static void
test_patterns (void)
{
  static const struct {
    const char *patterns;
    const char *profile;
    const char *account;
    gboolean match;
  } cases[] = {
    { "prod-*", "prod-eu", NULL, TRUE },
    { "prod-*", "prod-", NULL, TRUE },
    { "prod-*", "preprod-eu", NULL, FALSE },
    { "prod-*", "Prod-eu", NULL, FALSE }, /* profile names are case-sensitive */
    { "*prod*", "preprod-eu", NULL, TRUE },
    { "prod-?", "prod-1", NULL, TRUE },
    { "prod-?", "prod-12", NULL, FALSE },
    { "123456789012", "dev", "123456789012", TRUE },
    { "123456789012", "dev", "123456789013", FALSE },
    { "1234*", "dev", "123456789012", TRUE },
    { "1234*", "dev", NULL, FALSE },
    { "dev, 1234*", "ops", "123400000000", TRUE },
    { "dev 1234*", "dev", NULL, TRUE },
    { "", "dev", "123456789012", FALSE },
    { " , ", "dev", NULL, FALSE },
    { "*", "anything", NULL, TRUE },
    { "*", NULL, NULL, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (GStrv) patterns = dy_marks_split_patterns (cases[i].patterns);
      const char *names[] = { cases[i].profile, cases[i].account };

      g_test_message ("%s ~ %s / %s", cases[i].patterns, cases[i].profile, cases[i].account);
      g_assert_cmpint (dy_marks_patterns_match ((const char *const *) patterns, names, 2), ==,
                       cases[i].match);
    }
  {
    g_auto (GStrv) split = dy_marks_split_patterns (" prod-*,, 1234 \tops-?\n");
    g_autofree char *joined = dy_marks_join_patterns ((const char *const *) split);

    g_assert_cmpuint (g_strv_length (split), ==, 3);
    g_assert_cmpstr (joined, ==, "prod-*, 1234, ops-?");
  }
  for (int m = DY_CONNECTION_MARK_NORMAL; m <= DY_CONNECTION_MARK_READ_ONLY; m++)
    {
      DyConnectionMark parsed;

      g_assert_true (dy_marks_parse (dy_marks_to_string (m), &parsed));
      g_assert_cmpint (parsed, ==, m);
    }
}

static DyConnection *
add_profile (DyWindow *window, const char *name)
{
  DyConnection *c = dy_connection_new_profile (name, "eu-west-1");

  g_list_store_append (G_LIST_STORE (dy_window_get_connections (window)), c);
  g_object_unref (c);
  return c; /* held by the window's list */
}

static DyConnection *second_demo;

static gboolean
second_has_demo (gpointer data)
{
  GListModel *connections = dy_window_get_connections (data);

  for (guint i = 0; i < g_list_model_get_n_items (connections); i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (connections, i);

      if (g_strcmp0 (dy_connection_get_path (c), dy_connection_get_path (gui_demo_connection ()))
          == 0)
        {
          second_demo = c;
          return TRUE;
        }
    }
  return FALSE;
}

/* Marks and patterns from Preferences, saved, and applied to a window opened afterwards. */
static void
test_settings (void)
{
  GtkWidget *prefs;
  GtkWidget *production_row;
  GtkWidget *read_only_row;
  GtkWidget *mark_row;
  DyConnection *prod, *dev, *both;
  DyWindow *second;
  g_auto (GStrv) saved = NULL;
  g_autoptr (GVariant) marks = NULL;
  g_autofree char *key = NULL;
  const char *word = NULL;
  g_auto (GStrv) accels = NULL;

  reset ();
  accels = gtk_application_get_accels_for_action (
      gtk_window_get_application (GTK_WINDOW (gui_window)), "app.preferences");
  g_assert_true (g_strv_contains ((const char *const *) accels, "<Control>comma"));
  prod = add_profile (gui_window, "prod-eu");
  dev = add_profile (gui_window, "dev");
  both = add_profile (gui_window, "prod-ro");
  g_assert_cmpint (dy_connection_get_mark (prod), ==, DY_CONNECTION_MARK_NORMAL);

  prefs = dy_preferences_new (gui_window);
  gtk_window_present (GTK_WINDOW (prefs));
  production_row = dy_preferences_get_patterns_row (prefs, "production");
  read_only_row = dy_preferences_get_patterns_row (prefs, "read-only");
  g_assert_nonnull (production_row);
  g_assert_nonnull (read_only_row);
  gtk_editable_set_text (GTK_EDITABLE (production_row), "prod-*,123456789012");
  g_signal_emit_by_name (production_row, "apply");
  gtk_editable_set_text (GTK_EDITABLE (read_only_row), "dev prod-ro");
  g_signal_emit_by_name (read_only_row, "apply");
  saved = g_settings_get_strv (settings (), "production-patterns");
  g_assert_cmpuint (g_strv_length (saved), ==, 2);
  g_assert_cmpstr (saved[0], ==, "prod-*");
  g_assert_cmpstr (saved[1], ==, "123456789012");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (production_row)), ==,
                   "prod-*, 123456789012");
  wait_mark (prod, DY_CONNECTION_MARK_PRODUCTION);
  wait_mark (dev, DY_CONNECTION_MARK_READ_ONLY);
  /* both match: the stricter */
  wait_mark (both, DY_CONNECTION_MARK_READ_ONLY);
  g_assert_cmpint (dy_connection_get_mark (gui_demo_connection ()), ==, DY_CONNECTION_MARK_NORMAL);
  gui_screenshot ("2b-preferences.png");

  /* an explicit Normal overrides a pattern; By pattern gives it back */
  mark_row = dy_preferences_get_mark_row (prefs, prod);
  g_assert_nonnull (mark_row);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (mark_row)), ==, 0);
  adw_combo_row_set_selected (ADW_COMBO_ROW (mark_row), 1);
  wait_mark (prod, DY_CONNECTION_MARK_NORMAL);
  key = dy_connection_dup_key (prod);
  marks = g_settings_get_value (settings (), "connection-marks");
  g_assert_true (g_variant_lookup (marks, key, "&s", &word));
  g_assert_cmpstr (word, ==, "normal");
  adw_combo_row_set_selected (ADW_COMBO_ROW (mark_row), 0);
  wait_mark (prod, DY_CONNECTION_MARK_PRODUCTION);
  g_clear_pointer (&marks, g_variant_unref);
  marks = g_settings_get_value (settings (), "connection-marks");
  g_assert_false (g_variant_lookup (marks, key, "&s", &word));
  /* a profile opened in another region has the profile's own mark */
  {
    g_autoptr (DyConnection) moved = dy_connection_new_in_region (dev, "us-east-1");

    dy_marks_save (settings (), dev, DY_CONNECTION_MARK_PRODUCTION);
    g_assert_cmpint (dy_connection_get_mark (dev), ==, DY_CONNECTION_MARK_PRODUCTION);
    g_assert_cmpint (dy_marks_resolve (settings (), moved), ==, DY_CONNECTION_MARK_PRODUCTION);
    dy_marks_forget (settings (), dev);
    g_assert_cmpint (dy_marks_resolve (settings (), moved), ==, DY_CONNECTION_MARK_READ_ONLY);
  }
  /* the demo marked read-only from its row */
  mark_row = dy_preferences_get_mark_row (prefs, gui_demo_connection ());
  adw_combo_row_set_selected (ADW_COMBO_ROW (mark_row), 3);
  wait_mark (gui_demo_connection (), DY_CONNECTION_MARK_READ_ONLY);
  gtk_window_destroy (GTK_WINDOW (prefs));

  /* the next start: a window of its own on the same settings */
  second = dy_window_new (ADW_APPLICATION (gtk_window_get_application (GTK_WINDOW (gui_window))));
  dy_window_open_demo (second);
  gtk_window_present (GTK_WINDOW (second));
  gui_wait_for (second_has_demo, second, "the second window's demo connection");
  wait_mark (second_demo, DY_CONNECTION_MARK_READ_ONLY);
  wait_mark (add_profile (second, "prod-us"), DY_CONNECTION_MARK_PRODUCTION);
  wait_mark (add_profile (second, "dev"), DY_CONNECTION_MARK_READ_ONLY);
  wait_mark (add_profile (second, "staging"), DY_CONNECTION_MARK_NORMAL);
  gtk_window_destroy (GTK_WINDOW (second));
  second_demo = NULL;

  /* the patterns forgotten: back to normal */
  reset ();
  wait_mark (prod, DY_CONNECTION_MARK_NORMAL);
  wait_mark (dev, DY_CONNECTION_MARK_NORMAL);
  {
    GListModel *connections = dy_window_get_connections (gui_window);

    for (int i = (int) g_list_model_get_n_items (connections) - 1; i >= 0; i--)
      {
        g_autoptr (DyConnection) c = g_list_model_get_item (connections, i);

        if (c == prod || c == dev || c == both)
          g_list_store_remove (G_LIST_STORE (connections), i);
      }
  }
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  g_test_add_func ("/production-gui/patterns", test_patterns);
  g_test_add_func ("/production-gui/production-commit", test_production_commit);
  g_test_add_func ("/production-gui/production-tables", test_production_tables);
  g_test_add_func ("/production-gui/read-only", test_read_only);
  g_test_add_func ("/production-gui/settings", test_settings);
  return gui_run_tests ();
}
