/* test-staging-gui.c: staging in the real app on the demo database's blog table: editing in the
 * inspector (errors with their path, the per-attribute diff), the staging panel (cards, reject,
 * commit), a fan-out from the dialog with a copy changed behind our back, deletes and new
 * items; each checked against what the table holds afterwards. */
#define G_LOG_DOMAIN "test-staging-gui"

#include <gtksourceview/gtksource.h>
#include <string.h>
#include <time.h>

#include "app/staging/dy-fanout-dialog.h"
#include "app/staging/dy-staging-panel.h"
#include "app/staging/dy-staging.h"
#include "core/ddbjson.h"
#include "core/number.h"
#include "gui-util.h"
#include "staging/diff.h"

static DyStagingPanel *
panel (void)
{
  return dy_window_get_staging_panel (gui_window);
}

static gboolean
staging_read (gpointer data)
{
  return !dy_staging_get_loading (dy_staging_get_default (), gui_demo_connection ());
}

/* The app reads the staging store on a worker thread: waits for its last read (row lookups and
 * the panel follow it), then for the window to settle. */
static void
staging_settle (void)
{
  gui_wait_for (staging_read, NULL, "the staged changes to be read");
  gui_settle ();
}

/* Every test starts from an empty staging area. */
static void
discard_everything (void)
{
  g_autoptr (GError) error = NULL;

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");

  g_assert_true (
      dy_staging_discard_all (dy_staging_get_default (), gui_demo_connection (), NULL, &error));
  g_assert_no_error (error);
  dy_staging_discard_drafts (dy_staging_get_default ());
  staging_settle ();
}

static GPtrArray *
staged (void)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *changes
      = dy_staging_list (dy_staging_get_default (), gui_demo_connection (), "Blog", &error);

  g_assert_no_error (error);
  return changes;
}

static DdbValue *
blog_key (const char *pk, const char *sk)
{
  DdbValue *key = ddb_value_new_m ();

  ddb_value_map_set (key, "PK", ddb_value_new_s (pk, -1));
  ddb_value_map_set (key, "SK", ddb_value_new_s (sk, -1));
  return key;
}

/* The item as the table holds it now (GetItem through the app's own connection), or NULL. */
static DdbValue *
table_item (const char *pk, const char *sk)
{
  g_autoptr (DdbValue) key = blog_key (pk, sk);
  json_t *request = json_pack ("{ss so sb}", "TableName", "Blog", "Key", ddb_item_to_json (key),
                               "ConsistentRead", 1);
  g_autoptr (GError) error = NULL;
  json_t *response
      = dy_connection_call_sync (gui_demo_connection (), "GetItem", request, NULL, &error);
  json_t *item;
  DdbValue *value = NULL;

  g_assert_no_error (error);
  item = json_object_get (response, "Item");
  if (item != NULL)
    value = ddb_json_to_item (item, &error);
  g_assert_no_error (error);
  json_decref (request);
  json_decref (response);
  return value;
}

static char *
table_string (const char *pk, const char *sk, const char *name)
{
  g_autoptr (DdbValue) item = table_item (pk, sk);
  const DdbValue *v;

  g_assert_nonnull (item);
  v = ddb_value_map_get (item, name);
  g_assert_nonnull (v);
  g_assert_cmpint (v->type, ==, DDB_TYPE_S);
  return g_strdup (v->bytes.data);
}

static DyItem *wanted_item;

static gboolean
inspector_shows (gpointer data)
{
  return dy_inspector_get_item (dy_table_view_get_inspector (data)) == wanted_item;
}

/* Runs a Query of the blog table for partition PK and selects the item PK/SK in the grid. */
static DyItem *
select_item (DyTableView *view, const char *pk, const char *sk)
{
  GListModel *rows;

  gui_set_text (view, "pk_entry", pk);
  gui_run (view, "win.run");
  rows = G_LIST_MODEL (dy_table_view_get_rows (view));
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GObject) row = gui_grid_row (rows, i);
      g_autoptr (GObject) object = GTK_IS_TREE_LIST_ROW (row)
                                       ? gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (row))
                                       : g_object_ref (row);
      g_autofree char *item_sk = NULL;

      if (!DY_IS_ITEM (object))
        continue;
      item_sk = gui_string_attr (DY_ITEM (object), "SK");
      if (g_str_equal (item_sk, sk))
        {
          gtk_selection_model_select_item (dy_table_view_get_rows (view), i, TRUE);
          /* the inspector follows the selection once the grid has settled (slowly under
           * sanitizers) */
          wanted_item = DY_ITEM (object);
          gui_wait_for (inspector_shows, view, "the inspector to show the selected item");
          staging_settle ();
          return DY_ITEM (object);
        }
    }
  g_error ("no item %s / %s in the grid", pk, sk);
  return NULL;
}

static gboolean
inspector_knows_keys (gpointer data)
{
  return dy_inspector_get_has_key_schema (data);
}

static DyInspector *
blog_inspector (DyTableView *view)
{
  DyInspector *inspector = dy_table_view_get_inspector (view);

  gui_wait_for (inspector_knows_keys, inspector, "the inspector to know the key schema");
  return inspector;
}

static void
show_editor (DyInspector *inspector)
{
  GObject *stack
      = gtk_widget_get_template_child (GTK_WIDGET (inspector), DY_TYPE_INSPECTOR, "view_stack");

  gtk_stack_set_visible_child_name (GTK_STACK (stack), "json");
}

/* The editor highlights JSON (set when it is first shown, not when the tab opens). */
static gboolean
editor_highlights_json (gpointer inspector)
{
  GObject *view
      = gtk_widget_get_template_child (GTK_WIDGET (inspector), DY_TYPE_INSPECTOR, "json_view");
  GtkSourceLanguage *language = gtk_source_buffer_get_language (
      GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view))));

  return language != NULL && g_str_equal (gtk_source_language_get_id (language), "json");
}

/* TEXT with the first FROM replaced by TO (FROM must be there). */
static char *
replace (const char *text, const char *from, const char *to)
{
  const char *at = strstr (text, from);

  if (at == NULL)
    g_test_message ("no %s in:\n%s", from, text);
  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - text), text, to, at + strlen (from));
}

/* TRUE when line LINE (1-based) of the editor is marked as the error's. */
static gboolean
line_marked (DyInspector *inspector, int line)
{
  GObject *view
      = gtk_widget_get_template_child (GTK_WIDGET (inspector), DY_TYPE_INSPECTOR, "json_view");
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "dy-error");
  GtkTextIter iter;

  g_assert_nonnull (tag);
  gtk_text_buffer_get_iter_at_line (buffer, &iter, line - 1);
  return gtk_text_iter_has_tag (&iter, tag);
}

static int
line_of (const char *text, const char *needle)
{
  const char *at = strstr (text, needle);
  int line = 1;

  g_assert_nonnull (at);
  for (const char *p = text; p < at; p++)
    line += *p == '\n';
  return line;
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
commit_all (DdbCommitMode mode)
{
  dy_staging_panel_set_mode (panel (), mode);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel ()), "panel.commit-all", NULL));
  g_assert_true (dy_staging_panel_get_committing (panel ()));
  gui_wait_for (commit_finished, NULL, "the commit to finish");
  staging_settle ();
}

static void
show_panel (void)
{
  GtkWidget *flap = gtk_widget_get_ancestor (GTK_WIDGET (panel ()), ADW_TYPE_FLAP);

  if (!adw_flap_get_reveal_flap (ADW_FLAP (flap)))
    g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.toggle-staging", NULL));
  g_assert_true (adw_flap_get_reveal_flap (ADW_FLAP (flap)));
  g_assert_true (dy_staging_panel_get_connection (panel ()) == gui_demo_connection ());
}

static void
hide_panel (void)
{
  GtkWidget *flap = gtk_widget_get_ancestor (GTK_WIDGET (panel ()), ADW_TYPE_FLAP);

  if (adw_flap_get_reveal_flap (ADW_FLAP (flap)))
    g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.toggle-staging", NULL));
  staging_settle ();
}

static void
test_inspector_edit (void)
{
  DyTableView *view;
  DyInspector *inspector;
  DyItem *item;
  g_autofree char *loaded = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *key_changed = NULL;
  g_autofree char *step = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *plain = NULL;
  g_autoptr (GPtrArray) diff = NULL;
  g_autoptr (GPtrArray) changes = NULL;
  const char *const *changed = NULL;

  discard_everything ();
  view = gui_open_table ("Blog");
  inspector = blog_inspector (view);
  item = select_item (view, "POST#d19", "META");
  show_editor (inspector);
  gui_wait_for (editor_highlights_json, inspector, "the editor's JSON highlighting");
  loaded = dy_inspector_dup_json_text (inspector);
  g_assert_nonnull (strstr (loaded, "\"Lio T.\""));
  g_assert_false (dy_inspector_get_can_stage (inspector));

  /* a DynamoDB type error names its path and disables Stage */
  bad = replace (loaded, "\"S\": \"Lio T.\"", "\"S\": 12");
  dy_inspector_set_json_text (inspector, bad);
  dy_inspector_validate_now (inspector);
  g_assert_nonnull (dy_inspector_get_error (inspector));
  g_assert_nonnull (strstr (dy_inspector_get_error (inspector), "attribute path: authorName"));
  g_assert_nonnull (strstr (dy_inspector_get_error (inspector), "cannot be converted to String"));
  g_assert_false (dy_inspector_get_can_stage (inspector));
  /* the editor marks the line of the attribute at fault */
  g_assert_true (line_marked (inspector, line_of (bad, "\"authorName\"")));
  g_assert_false (line_marked (inspector, line_of (bad, "\"title\"")));
  gtk_widget_activate_action (GTK_WIDGET (inspector), "inspector.stage", NULL);
  changes = staged ();
  g_assert_cmpuint (changes->len, ==, 0);
  g_clear_pointer (&changes, g_ptr_array_unref);
  gui_screenshot ("30-staging-editor-error.png");

  /* malformed JSON says where */
  dy_inspector_set_json_text (inspector, "{\"PK\": {\"S\": \"POST#d19\"},\n\"SK\" {}}");
  dy_inspector_validate_now (inspector);
  g_assert_nonnull (strstr (dy_inspector_get_error (inspector), "(line 2, column"));
  g_assert_true (line_marked (inspector, 2));
  g_assert_false (line_marked (inspector, 1));
  g_assert_false (dy_inspector_get_can_stage (inspector));

  /* the key is the item's identity: a changed key is refused, naming the attribute */
  key_changed = replace (loaded, "\"META\"", "\"META2\"");
  dy_inspector_set_json_text (inspector, key_changed);
  dy_inspector_validate_now (inspector);
  g_assert_nonnull (strstr (dy_inspector_get_error (inspector), "SK"));
  g_assert_nonnull (strstr (dy_inspector_get_error (inspector), "attribute path: SK"));
  g_assert_false (dy_inspector_get_can_stage (inspector));

  /* a valid edit: its diff is per attribute, and Stage is enabled once validated */
  step = replace (loaded, "\"Lio T.\"", "\"Lio Tan\"");
  edited = replace (step, "\"Hot partitions\"", "\"Hot partitions, and how to spread them\"");
  dy_inspector_set_json_text (inspector, edited);
  g_assert_false (dy_inspector_get_can_stage (inspector)); /* not validated yet */
  dy_inspector_validate_now (inspector);
  g_assert_null (dy_inspector_get_error (inspector));
  g_assert_true (dy_inspector_get_can_stage (inspector));
  diff = dy_inspector_get_diff (inspector);
  g_assert_cmpuint (diff->len, ==, 2);
  {
    DdbDiffEntry *a = g_ptr_array_index (diff, 0);
    DdbDiffEntry *t = g_ptr_array_index (diff, 1);
    g_autofree char *pa = ddb_path_to_string (&a->path);
    g_autofree char *pt = ddb_path_to_string (&t->path);

    g_assert_cmpstr (pa, ==, "authorName");
    g_assert_cmpstr (a->old_value->bytes.data, ==, "Lio T.");
    g_assert_cmpstr (a->new_value->bytes.data, ==, "Lio Tan");
    g_assert_cmpstr (pt, ==, "title");
    g_assert_cmpstr (t->new_value->bytes.data, ==, "Hot partitions, and how to spread them");
  }
  /* the plain JSON view follows the valid edit */
  plain = dy_inspector_dup_plain_text (inspector);
  g_assert_nonnull (strstr (plain, "\"authorName\": \"Lio Tan\""));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (inspector), "inspector.stage", NULL));
  changes = staged ();
  g_assert_cmpuint (changes->len, ==, 1);
  {
    DdbChange *change = g_ptr_array_index (changes, 0);
    g_autofree char *key = ddb_json_format_value (change->key);

    g_assert_cmpint (change->kind, ==, DDB_CHANGE_UPDATE);
    g_assert_cmpstr (key, ==, "{\"M\":{\"PK\":{\"S\":\"POST#d19\"},\"SK\":{\"S\":\"META\"}}}");
  }
  /* nothing written yet */
  {
    g_autofree char *name = table_string ("POST#d19", "META", "authorName");

    g_assert_cmpstr (name, ==, "Lio T.");
  }
  /* staged again: nothing differs from what is staged now */
  g_assert_false (dy_inspector_get_can_stage (inspector));

  /* the grid's lookup: an update touching authorName and title */
  staging_settle ();
  g_assert_cmpint (dy_staging_lookup (dy_staging_get_default (), gui_demo_connection (), "Blog",
                                      dy_item_get_value (item), &changed),
                   ==, DY_STAGED_UPDATE);
  g_assert_nonnull (changed);
  g_assert_cmpstr (changed[0], ==, "authorName");
  g_assert_cmpstr (changed[1], ==, "title");
  g_assert_null (changed[2]);
  g_assert_cmpstr (dy_staging_kind_css_class (DY_STAGED_UPDATE), ==, "staged-update");

  /* the panel's card */
  show_panel ();
  gui_wait_for (panel_shows, GUINT_TO_POINTER (1), "the panel to show one card");
  {
    DdbChange *change = g_ptr_array_index (changes, 0);
    g_autofree char *card = dy_staging_panel_dup_card_text (panel (), change->id);
    g_autofree char *after = NULL;
    g_autoptr (GError) error = NULL;
    g_autoptr (DdbChange) rejected = NULL;

    g_assert_nonnull (card);
    g_assert_nonnull (strstr (card, "POST#d19 · META"));
    g_assert_nonnull (strstr (card, "authorName"));
    g_assert_nonnull (strstr (card, "“Lio T.” → “Lio Tan”"));
    /* the long string as a word diff: "Hot " once, the old word struck, then the new words */
    g_assert_nonnull (strstr (card, "\nHot partitions partitions, and how to spread them\n"));
    gui_screenshot ("31-staging-panel.png");
    /* the panel was moved into the tab's flap: its buttons still follow its actions */
    g_assert_true (gtk_widget_is_sensitive (gui_action_button (GTK_WIDGET (panel ()),
                                                           "panel.commit-all")));

    /* reject the title: it goes back to its original value, the name stays staged */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel ()), "panel.reject", "(xs)",
                                               change->id, "title"));
    staging_settle ();
    rejected = dy_staging_get (dy_staging_get_default (), change->id, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (ddb_value_map_get (rejected->target, "title")->bytes.data, ==,
                     "Hot partitions");
    g_assert_cmpstr (ddb_value_map_get (rejected->target, "authorName")->bytes.data, ==, "Lio Tan");
    after = dy_staging_panel_dup_card_text (panel (), change->id);
    g_assert_null (strstr (after, "title"));
    g_assert_nonnull (strstr (after, "authorName"));
  }

  commit_all (DDB_COMMIT_SINGLE);
  {
    guint committed, conflicts, failed;
    g_autofree char *name = table_string ("POST#d19", "META", "authorName");
    g_autofree char *title = table_string ("POST#d19", "META", "title");
    g_autoptr (GPtrArray) left = staged ();

    g_assert_true (dy_staging_panel_get_report (panel (), &committed, &conflicts, &failed));
    g_assert_cmpuint (committed, ==, 1);
    g_assert_cmpuint (conflicts, ==, 0);
    g_assert_cmpuint (failed, ==, 0);
    g_assert_cmpstr (name, ==, "Lio Tan");
    g_assert_cmpstr (title, ==, "Hot partitions");
    g_assert_cmpuint (left->len, ==, 0);
    g_assert_cmpuint (dy_staging_panel_get_n_cards (panel ()), ==, 0);
    g_assert_cmpint (dy_staging_lookup (dy_staging_get_default (), gui_demo_connection (), "Blog",
                                        dy_item_get_value (item), NULL),
                     ==, DY_STAGED_NONE);
  }
}

static DyFanoutDialog *
find_fanout_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* borrowed */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (DY_IS_FANOUT_DIALOG (w))
        return DY_FANOUT_DIALOG (w);
    }
  return NULL;
}

static gboolean
dialog_ready (gpointer data)
{
  return dy_fanout_dialog_get_ready (data);
}

static gboolean
dialog_idle (gpointer data)
{
  return !dy_fanout_dialog_get_busy (data);
}

static gboolean
dialog_gone (gpointer data)
{
  return find_fanout_dialog () == NULL;
}

/* Writes authorName of POST#a71 as someone else would: through a backend of our own on the
 * database file, not through the app. */
static void
change_behind_our_back (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend
      = ddb_backend_open_database (dy_connection_get_path (gui_demo_connection ()), &error);
  json_t *request, *response = NULL;

  g_assert_no_error (error);
  request = json_pack ("{ss s{s{ss}s{ss}} ss s{s{ss}}}", "TableName", "Blog", "Key", "PK", "S",
                       "POST#a71", "SK", "S", "META", "UpdateExpression", "SET authorName = :n",
                       "ExpressionAttributeValues", ":n", "S", "Mara Vance-Okafor");
  g_assert_true (ddb_backend_call (backend, "UpdateItem", request, NULL, &response, &error));
  g_assert_no_error (error);
  json_decref (request);
  json_decref (response);
}

static void
test_fanout_conflict (void)
{
  DyTableView *view;
  DyInspector *inspector;
  DyFanoutDialog *dialog;
  const DdbFanoutPlan *plan;
  g_autoptr (DdbValue) new_value = ddb_value_new_s ("Mara V.", -1);
  g_autoptr (GPtrArray) changes = NULL;
  g_autofree char *loaded = NULL;
  g_autofree char *renamed = NULL;
  gint64 conflict_id = 0, source_id;

  discard_everything ();
  view = gui_open_table ("Blog");
  inspector = blog_inspector (view);

  /* the window's Fan Out opens on the current tab's table */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.fanout", NULL));
  dialog = find_fanout_dialog ();
  g_assert_nonnull (dialog);
  gui_wait_for (dialog_ready, dialog, "the dialog to list the indexes");
  gtk_window_destroy (GTK_WINDOW (dialog));
  gui_wait_for (dialog_gone, NULL, "the dialog to close");

  /* the source of the fact: USER#12 renamed in the inspector */
  select_item (view, "USER#12", "META");
  loaded = dy_inspector_dup_json_text (inspector);
  renamed = replace (loaded, "\"Mara Vance\"", "\"Mara V.\"");
  dy_inspector_set_json_text (inspector, renamed);
  dy_inspector_validate_now (inspector);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (inspector), "inspector.stage", NULL));
  changes = staged ();
  g_assert_cmpuint (changes->len, ==, 1);
  source_id = ((DdbChange *) g_ptr_array_index (changes, 0))->id;
  g_clear_pointer (&changes, g_ptr_array_unref);

  /* its card offers to fan the change out: the dialog comes prefilled with the values */
  show_panel ();
  gui_wait_for (panel_shows, GUINT_TO_POINTER (1), "the panel to show the rename");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel ()), "panel.fanout", "(xs)",
                                             source_id, "name"));
  dialog = find_fanout_dialog ();
  g_assert_nonnull (dialog);
  gui_wait_for (dialog_ready, dialog, "the dialog to list the indexes");
  {
    GtkWidget *old_row = GTK_WIDGET (
        gtk_widget_get_template_child (GTK_WIDGET (dialog), DY_TYPE_FANOUT_DIALOG, "old_row"));
    GtkWidget *new_row = GTK_WIDGET (
        gtk_widget_get_template_child (GTK_WIDGET (dialog), DY_TYPE_FANOUT_DIALOG, "new_row"));
    GtkWidget *attribute_row = GTK_WIDGET (gtk_widget_get_template_child (
        GTK_WIDGET (dialog), DY_TYPE_FANOUT_DIALOG, "attribute_row"));

    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (old_row)), ==, "Mara Vance");
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (new_row)), ==, "Mara V.");
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (attribute_row)), ==, "name");
    /* the copies hold it under another name */
    gtk_editable_set_text (GTK_EDITABLE (attribute_row), "authorName");
  }
  dy_fanout_dialog_set_method (dialog, "ByAuthor", "U#12");
  g_assert_null (dy_fanout_dialog_get_plan (dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "fanout.preview", NULL));
  gui_wait_for (dialog_idle, dialog, "the preview");
  g_assert_null (dy_fanout_dialog_get_error (dialog));
  plan = dy_fanout_dialog_get_plan (dialog);
  g_assert_nonnull (plan);
  g_assert_cmpuint (plan->n_items, ==, 3);
  g_assert_cmpuint (plan->write_units, ==, 3);
  g_assert_cmpuint (plan->write_units_transactions, ==, 6);
  g_assert_nonnull (strstr (dy_fanout_dialog_get_summary (dialog), "3 copies found"));
  gui_screenshot ("32-staging-fanout.png");

  /* editing an input makes the preview stale: staging needs a new one */
  gtk_editable_set_text (GTK_EDITABLE (gtk_widget_get_template_child (
                             GTK_WIDGET (dialog), DY_TYPE_FANOUT_DIALOG, "new_row")),
                         "Mara V");
  g_assert_null (dy_fanout_dialog_get_plan (dialog));
  dy_fanout_dialog_set_change (dialog, NULL, NULL, new_value);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "fanout.preview", NULL));
  gui_wait_for (dialog_idle, dialog, "the preview");
  g_assert_cmpuint (dy_fanout_dialog_get_plan (dialog)->n_items, ==, 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "fanout.stage", NULL));
  gui_wait_for (dialog_gone, NULL, "the dialog to close");

  changes = staged ();
  g_assert_cmpuint (changes->len, ==, 4);
  for (guint i = 0; i < changes->len; i++)
    {
      DdbChange *change = g_ptr_array_index (changes, i);

      g_assert_cmpint (change->kind, ==, DDB_CHANGE_UPDATE);
      if (change->id == source_id)
        continue;
      g_assert_cmpstr (ddb_value_map_get (change->target, "authorName")->bytes.data, ==, "Mara V.");
      if (g_str_equal (ddb_value_map_get (change->key, "PK")->bytes.data, "POST#a71"))
        conflict_id = change->id;
    }
  g_assert_cmpint (conflict_id, !=, 0);
  show_panel ();
  gui_wait_for (panel_shows, GUINT_TO_POINTER (4), "the panel to show four cards");

  change_behind_our_back ();
  commit_all (DDB_COMMIT_TRANSACTIONS);
  {
    guint committed, conflicts, failed;
    g_autofree char *a = table_string ("POST#9f3", "META", "authorName");
    g_autofree char *b = table_string ("POST#a71", "META", "authorName");
    g_autofree char *c = table_string ("POST#c22", "META", "authorName");
    g_autofree char *source = table_string ("USER#12", "META", "name");
    g_autoptr (GPtrArray) left = staged ();
    g_autofree char *card = NULL;
    GtkWidget *conflict;
    g_autofree char *conflict_text = NULL;
    GtkWidget *grid;
    GString *cells = g_string_new (NULL);

    g_assert_true (dy_staging_panel_get_report (panel (), &committed, &conflicts, &failed));
    g_assert_cmpuint (committed, ==, 3);
    g_assert_cmpuint (conflicts, ==, 1);
    g_assert_cmpuint (failed, ==, 0);
    g_assert_nonnull (strstr (dy_staging_panel_get_report_text (panel ()),
                              "3 committed · 1 conflicted · 0 failed"));
    g_assert_cmpstr (source, ==, "Mara V.");
    g_assert_cmpstr (a, ==, "Mara V.");
    g_assert_cmpstr (b, ==, "Mara Vance-Okafor"); /* left untouched */
    g_assert_cmpstr (c, ==, "Mara V.");
    /* the conflict stays staged, and its card says so */
    g_assert_cmpuint (left->len, ==, 1);
    g_assert_cmpint (((DdbChange *) g_ptr_array_index (left, 0))->id, ==, conflict_id);
    g_assert_cmpint (((DdbChange *) g_ptr_array_index (left, 0))->state, ==, DDB_CHANGE_CONFLICT);
    card = dy_staging_panel_dup_card_text (panel (), conflict_id);
    g_assert_nonnull (strstr (card, "Conflict"));

    /* opened: the item's current value beside the expected one */
    conflict = dy_staging_panel_show_conflict (panel (), conflict_id);
    g_assert_nonnull (conflict);
    grid = adw_message_dialog_get_extra_child (ADW_MESSAGE_DIALOG (conflict));
    for (GtkWidget *w = gtk_widget_get_first_child (grid); w != NULL;
         w = gtk_widget_get_next_sibling (w))
      g_string_append_printf (cells, "%s|", gtk_label_get_text (GTK_LABEL (w)));
    conflict_text = g_string_free (cells, FALSE);
    g_assert_nonnull (strstr (conflict_text, "authorName|“Mara Vance”|“Mara Vance-Okafor”|"
                                             "“Mara V.”|"));
    gui_screenshot ("33-staging-conflict.png");
    /* the user looked and overwrites: the change is rebased on the item as it is now */
    adw_message_dialog_response (ADW_MESSAGE_DIALOG (conflict), "requeue");
    gtk_window_destroy (GTK_WINDOW (conflict));
    staging_settle ();
    g_assert_cmpuint (dy_staging_panel_get_n_cards (panel ()), ==, 1);
    g_free (card);
    card = dy_staging_panel_dup_card_text (panel (), conflict_id);
    g_assert_null (strstr (card, "Conflict"));
    g_assert_nonnull (strstr (card, "“Mara Vance-Okafor” → “Mara V.”"));
  }
  commit_all (DDB_COMMIT_SINGLE);
  {
    guint committed, conflicts, failed;
    g_autofree char *b = table_string ("POST#a71", "META", "authorName");

    g_assert_true (dy_staging_panel_get_report (panel (), &committed, &conflicts, &failed));
    g_assert_cmpuint (committed, ==, 1);
    g_assert_cmpuint (conflicts + failed, ==, 0);
    g_assert_cmpstr (b, ==, "Mara V.");
    g_assert_cmpuint (dy_staging_panel_get_n_cards (panel ()), ==, 0);
  }
}

static void
test_delete_and_create (void)
{
  DyTableView *view;
  DyInspector *inspector;
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (DdbValue) gone = NULL;
  g_autoptr (DdbValue) created = NULL;
  const char *new_item
      = "{\"PK\": {\"S\": \"POST#f00\"}, \"SK\": {\"S\": \"META\"},"
        " \"authorId\": {\"S\": \"U#31\"}, \"authorName\": {\"S\": \"Ines Okafor\"},"
        " \"title\": {\"S\": \"Staging\"}}";
  DyItem *item;

  discard_everything ();
  view = gui_open_table ("Blog");
  inspector = blog_inspector (view);
  item = select_item (view, "POST#b04", "COMMENT#2026-01-20#1");
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (inspector), "inspector.delete-item", NULL));
  changes = staged ();
  g_assert_cmpuint (changes->len, ==, 1);
  g_assert_cmpint (((DdbChange *) g_ptr_array_index (changes, 0))->kind, ==, DDB_CHANGE_DELETE);
  staging_settle ();
  g_assert_cmpint (dy_staging_lookup (dy_staging_get_default (), gui_demo_connection (), "Blog",
                                      dy_item_get_value (item), NULL),
                   ==, DY_STAGED_DELETE);

  /* New Item starts from the key attributes; an empty key value is refused */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (inspector), "inspector.new-item", NULL));
  g_assert_true (dy_inspector_get_creating (inspector));
  {
    g_autofree char *skeleton = dy_inspector_dup_json_text (inspector);

    g_assert_nonnull (strstr (skeleton, "\"PK\""));
    g_assert_nonnull (strstr (skeleton, "\"SK\""));
    g_assert_nonnull (strstr (dy_inspector_get_error (inspector), "empty string value"));
  }
  dy_inspector_set_json_text (inspector, new_item);
  dy_inspector_validate_now (inspector);
  g_assert_null (dy_inspector_get_error (inspector));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (inspector), "inspector.stage", NULL));
  g_ptr_array_unref (changes);
  changes = staged ();
  g_assert_cmpuint (changes->len, ==, 2);
  g_assert_cmpint (((DdbChange *) g_ptr_array_index (changes, 1))->kind, ==, DDB_CHANGE_CREATE);

  show_panel ();
  gui_wait_for (panel_shows, GUINT_TO_POINTER (2), "the panel to show two cards");
  commit_all (DDB_COMMIT_TRANSACTIONS);
  {
    guint committed, conflicts, failed;

    g_assert_true (dy_staging_panel_get_report (panel (), &committed, &conflicts, &failed));
    g_assert_cmpuint (committed, ==, 2);
    g_assert_cmpuint (conflicts + failed, ==, 0);
  }
  gone = table_item ("POST#b04", "COMMENT#2026-01-20#1");
  g_assert_null (gone);
  created = table_item ("POST#f00", "META");
  g_assert_nonnull (created);
  g_assert_cmpstr (ddb_value_map_get (created, "title")->bytes.data, ==, "Staging");
}

static const char *
progress_text (void)
{
  GtkLabel *label = GTK_LABEL (gtk_widget_get_template_child (
      GTK_WIDGET (panel ()), DY_TYPE_STAGING_PANEL, "progress_label"));

  return gtk_label_get_text (label);
}

static guint
bulk_count (void)
{
  json_t *request = json_pack ("{ss ss s{s{ss}} ss sb}", "TableName", "Blog",
                               "KeyConditionExpression", "PK = :p", "ExpressionAttributeValues",
                               ":p", "S", "BULK", "Select", "COUNT", "ConsistentRead", 1);
  g_autoptr (GError) error = NULL;
  json_t *response
      = dy_connection_call_sync (gui_demo_connection (), "Query", request, NULL, &error);
  guint n;

  g_assert_no_error (error);
  n = (guint) json_integer_value (json_object_get (response, "Count"));
  json_decref (request);
  json_decref (response);
  return n;
}

/* A long commit shows its progress and can be cancelled; what was not sent stays staged and
 * the next commit finishes the job, each item written once. */
static void
test_commit_cancel (void)
{
  g_autoptr (GPtrArray) left = NULL;
  guint committed, conflicts, failed, first;

  discard_everything ();
  gui_open_table ("Blog");
  for (guint i = 1; i <= 300; i++)
    {
      g_autofree char *sk = g_strdup_printf ("%04u", i);
      g_autoptr (DdbValue) key = blog_key ("BULK", sk);
      g_autoptr (DdbValue) item = ddb_value_copy (key);
      g_autoptr (GError) error = NULL;

      ddb_value_map_set (item, "title", ddb_value_new_s ("bulk", -1));
      g_assert_true (dy_staging_stage (dy_staging_get_default (), gui_demo_connection (), "Blog",
                                       DDB_CHANGE_CREATE, key, NULL, item, &error));
      g_assert_no_error (error);
    }
  show_panel ();
  gui_wait_for (panel_shows, GUINT_TO_POINTER (200), "the panel to show its first 200 cards");
  g_assert_cmpuint (dy_staging_panel_get_n_changes (panel ()), ==, 300);

  /* cancelled at once: the worker stops at its first check, between two groups of writes */
  dy_staging_panel_set_mode (panel (), DDB_COMMIT_SINGLE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel ()), "panel.commit-all", NULL));
  g_assert_true (dy_staging_panel_get_committing (panel ()));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel ()), "panel.cancel", NULL));
  gui_wait_for (commit_finished, NULL, "the cancelled commit to stop");
  g_assert_true (dy_staging_panel_get_report (panel (), &committed, &conflicts, &failed));
  g_assert_nonnull (strstr (dy_staging_panel_get_report_text (panel ()), "Commit cancelled"));
  g_assert_cmpuint (committed, <, 300);
  g_assert_cmpuint (conflicts + failed, ==, 0);
  left = staged ();
  g_assert_cmpuint (left->len, ==, 300 - committed);
  g_assert_cmpuint (bulk_count (), ==, committed);
  first = committed;

  commit_all (DDB_COMMIT_TRANSACTIONS);
  g_assert_true (dy_staging_panel_get_report (panel (), &committed, &conflicts, &failed));
  g_assert_cmpuint (committed, ==, 300 - first);
  g_assert_cmpuint (conflicts + failed, ==, 0);
  g_assert_cmpuint (bulk_count (), ==, 300);
  /* the progress line said how far it got and how fast */
  {
    g_autofree char *expected = g_strdup_printf ("%u of %u · ", 300 - first, 300 - first);

    g_assert_nonnull (strstr (progress_text (), expected));
    g_assert_nonnull (strstr (progress_text (), " changes/s"));
  }
}

static gboolean
draft_badge_shown (DyInspector *inspector)
{
  GObject *badge
      = gtk_widget_get_template_child (GTK_WIDGET (inspector), DY_TYPE_INSPECTOR, "draft_badge");

  return gtk_widget_get_visible (GTK_WIDGET (badge));
}

static AdwMessageDialog *
find_message_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* borrowed */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return ADW_MESSAGE_DIALOG (w);
    }
  return NULL;
}

/* Text typed in the editor and not staged survives selecting other rows (a draft per item),
 * comes back with the item, and closing the window asks before drafts are lost. */
static void
test_drafts (void)
{
  DyTableView *view;
  DyInspector *inspector;
  DyItem *item;
  g_autofree char *loaded = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *restored = NULL;
  g_autofree char *other = NULL;
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (DdbValue) d19 = blog_key ("POST#d19", "META");
  g_autoptr (GError) error = NULL;
  AdwMessageDialog *dialog;
  guint n_valid = 0, n_staged = 0;

  discard_everything ();
  hide_panel ();
  view = gui_open_table ("Blog");
  inspector = blog_inspector (view);
  item = select_item (view, "POST#d19", "META");
  show_editor (inspector);
  loaded = dy_inspector_dup_json_text (inspector);
  g_assert_false (dy_inspector_get_has_draft (inspector));
  g_assert_false (draft_badge_shown (inspector));
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (
      gtk_widget_get_template_child (GTK_WIDGET (inspector), DY_TYPE_INSPECTOR, "revert_button"))));

  /* typed, not staged: marked as a draft at once, before validation */
  edited = replace (loaded, "\"Hot partitions", "\"Drafted: hot partitions");
  dy_inspector_set_json_text (inspector, edited);
  g_assert_true (dy_inspector_get_has_draft (inspector));
  g_assert_true (draft_badge_shown (inspector));
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (
      gtk_widget_get_template_child (GTK_WIDGET (inspector), DY_TYPE_INSPECTOR, "revert_button"))));

  /* another row: the draft is kept, nothing is staged */
  select_item (view, "POST#a71", "META");
  g_assert_false (dy_inspector_get_has_draft (inspector));
  g_assert_false (draft_badge_shown (inspector));
  changes = staged ();
  g_assert_cmpuint (changes->len, ==, 0);
  g_clear_pointer (&changes, g_ptr_array_unref);
  g_assert_nonnull (
      dy_staging_get_draft (dy_staging_get_default (), gui_demo_connection (), "Blog", d19));
  g_assert_cmpuint (dy_staging_get_n_drafts (dy_staging_get_default (), &n_valid), ==, 1);
  g_assert_cmpuint (n_valid, ==, 1);

  /* an invalid edit of this one is a draft too */
  other = dy_inspector_dup_json_text (inspector);
  dy_inspector_set_json_text (inspector, "{\"PK\": {\"S\": \"POST#a71\"}, \"SK\"");

  /* back to the first (a new row object, from a new Query): its text, validated, stageable,
   * marked */
  item = select_item (view, "POST#d19", "META");
  g_assert_true (ddb_value_equal (ddb_value_map_get (dy_item_get_value (item), "PK"),
                                  ddb_value_map_get (d19, "PK")));
  restored = dy_inspector_dup_json_text (inspector);
  g_assert_cmpstr (restored, ==, edited);
  g_assert_true (dy_inspector_get_has_draft (inspector));
  g_assert_true (draft_badge_shown (inspector));
  g_assert_null (dy_inspector_get_error (inspector));
  g_assert_true (dy_inspector_get_can_stage (inspector));
  g_assert_cmpuint (dy_staging_get_n_drafts (dy_staging_get_default (), &n_valid), ==, 2);
  g_assert_cmpuint (n_valid, ==, 1);
  gui_screenshot ("34-staging-draft.png");

  /* Revert drops the draft: leaving the item then keeps nothing for it */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (inspector), "inspector.revert", NULL));
  g_assert_false (dy_inspector_get_has_draft (inspector));
  select_item (view, "POST#a71", "META");
  g_assert_null (
      dy_staging_get_draft (dy_staging_get_default (), gui_demo_connection (), "Blog", d19));
  /* the invalid draft came back as typed, with its error */
  g_assert_nonnull (dy_inspector_get_error (inspector));
  g_assert_true (dy_inspector_get_has_draft (inspector));
  g_assert_false (dy_inspector_get_can_stage (inspector));

  /* a draft again on d19, then closing the window asks, and Cancel keeps everything */
  select_item (view, "POST#d19", "META");
  dy_inspector_set_json_text (inspector, edited);
  gtk_window_close (GTK_WINDOW (gui_window));
  staging_settle ();
  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gui_window)));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "2 items have edits"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "1 draft is not a valid item"));
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "stage"));
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, "stage");
  g_assert_cmpstr (adw_message_dialog_get_close_response (dialog), ==, "cancel");
  gui_screenshot ("35-staging-close-drafts.png");
  adw_message_dialog_response (dialog, "cancel");
  gtk_window_destroy (GTK_WINDOW (dialog));
  staging_settle ();
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gui_window)));
  g_assert_true (dy_inspector_get_has_draft (inspector));
  g_assert_cmpuint (dy_staging_get_n_drafts (dy_staging_get_default (), NULL), ==, 2);

  /* what "Stage All Valid Drafts" does (the dialog then closes the window, which the tests
   * still need): the valid one is staged, as the editor would have, the invalid one stays */
  g_assert_true (dy_staging_stage_drafts (dy_staging_get_default (), &n_staged, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_staged, ==, 1);
  g_assert_cmpuint (dy_staging_get_n_drafts (dy_staging_get_default (), &n_valid), ==, 1);
  g_assert_cmpuint (n_valid, ==, 0);
  changes = staged ();
  g_assert_cmpuint (changes->len, ==, 1);
  {
    DdbChange *change = g_ptr_array_index (changes, 0);

    g_assert_cmpint (change->kind, ==, DDB_CHANGE_UPDATE);
    g_assert_cmpstr (ddb_value_map_get (change->target, "title")->bytes.data, ==,
                     "Drafted: hot partitions");
    g_assert_true (ddb_value_equal (change->key, d19));
  }
  /* the table is not touched */
  {
    g_autofree char *title = table_string ("POST#d19", "META", "title");

    g_assert_cmpstr (title, ==, "Hot partitions");
  }
  g_assert_true (
      dy_staging_get_draft (dy_staging_get_default (), gui_demo_connection (), "Blog", NULL)
      == NULL);
  (void) other;
  discard_everything ();
}

static void
fanout_staged_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (dy_staging_fanout_stage_finish (DY_STAGING (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

/* The longest time the main loop went without running a 5 ms tick. */
typedef struct {
  gint64 last;
  gint64 longest;
  gint64 last_cpu;
  gint64 longest_cpu; /* the main thread's own CPU time in a gap: a busy machine's scheduling
                       * stretches the wall-clock gaps, not this */
} Stall;

static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gboolean
stall_tick (gpointer data)
{
  Stall *stall = data;
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_us ();

  stall->longest = MAX (stall->longest, now - stall->last);
  stall->longest_cpu = MAX (stall->longest_cpu, cpu - stall->last_cpu);
  stall->last = now;
  stall->last_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

static gboolean
window_gone (gpointer data)
{
  GtkWidget **window = data;

  return *window == NULL;
}

/* A window of its own (no application: the app would end with it) whose inspector, attached to
 * the staging area, holds a draft of POST#d19; its close is answered with RESPONSE. */
static void
close_with_draft (const char *response)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *inspector = dy_inspector_new ();
  g_autoptr (DdbValue) value = blog_key ("POST#d19", "META");
  g_autoptr (DyItem) item = NULL;
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;
  AdwMessageDialog *dialog;

  ddb_value_map_set (value, "title", ddb_value_new_s ("Hot partitions", -1));
  item = dy_item_new (ddb_value_copy (value));
  gtk_window_set_child (GTK_WINDOW (window), inspector);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  dy_staging_attach_inspector (dy_staging_get_default (), DY_INSPECTOR (inspector),
                               gui_demo_connection (), "Blog");
  gtk_window_present (GTK_WINDOW (window));
  gui_wait_for (inspector_knows_keys, inspector, "the inspector to know the key schema");
  dy_inspector_set_item (DY_INSPECTOR (inspector), item, "POST#d19 · META");
  text = dy_inspector_dup_json_text (DY_INSPECTOR (inspector));
  edited = replace (text, "\"Hot partitions\"", "\"Closed: hot partitions\"");
  dy_inspector_set_json_text (DY_INSPECTOR (inspector), edited);

  g_assert_true (dy_staging_confirm_close (dy_staging_get_default (), GTK_WINDOW (window)));
  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "1 item has edits"));
  adw_message_dialog_response (dialog, response);
  gui_wait_for (window_gone, &window, "the window to close");
  staging_settle ();
  /* the inspector that went with the window kept no draft behind */
  g_assert_cmpuint (dy_staging_get_n_drafts (dy_staging_get_default (), NULL), ==, 0);
}

/* Closing the last window with drafts: Discard drops them, Stage All Valid Drafts stages them,
 * and either way the window closes. */
static void
test_close_with_drafts (void)
{
  g_autoptr (GPtrArray) changes = NULL;

  discard_everything ();
  close_with_draft ("discard");
  changes = staged ();
  g_assert_cmpuint (changes->len, ==, 0);
  g_clear_pointer (&changes, g_ptr_array_unref);

  close_with_draft ("stage");
  changes = staged ();
  g_assert_cmpuint (changes->len, ==, 1);
  g_assert_cmpstr (
      ddb_value_map_get (((DdbChange *) g_ptr_array_index (changes, 0))->target, "title")
          ->bytes.data,
      ==, "Closed: hot partitions");
  discard_everything ();
}

/* Under the sanitizers everything is several times slower: fewer changes still show that
 * the main thread does not read the store. */
#if defined(__SANITIZE_ADDRESS__)
#define MANY_CHANGES 2000
#else
#define MANY_CHANGES 10000
#endif

/* A fan-out of 10,000 copies (MANY_CHANGES): staged on a worker thread, the staging store then
 * read on one; the main thread only builds the panel's first 200 cards and answers row lookups
 * from a hash. The counts cover every change (commit-cancel commits 300 past the 200 cards). */
static void
test_many_changes (void)
{
  const guint n = MANY_CHANGES;
  DdbFanoutPlan *plan = g_new0 (DdbFanoutPlan, 1);
  g_autoptr (DdbValue) old_value = ddb_value_new_s ("Mara Vance", -1);
  g_autoptr (DdbValue) new_value = ddb_value_new_s ("Mara V.", -1);
  DdbFanoutSpec spec = { "Blog", "authorName", old_value, new_value, NULL, NULL };
  g_autoptr (DdbValue) probe = NULL;
  gboolean done = FALSE;
  Stall stall = { 0, 0 };
  guint tick;
  gint64 start;
  double lookup_us;
  guint found = 0;

  discard_everything ();
  gui_open_table ("Blog");
  show_panel ();
  plan->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  plan->items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *sk = g_strdup_printf ("COPY#%05u", i);
      DdbValue *key = blog_key ("MANY", sk);
      DdbValue *item = ddb_value_copy (key);

      ddb_value_map_set (item, "authorName", ddb_value_copy (old_value));
      g_ptr_array_add (plan->keys, key);
      g_ptr_array_add (plan->items, item);
    }
  plan->n_items = n;
  start = g_get_monotonic_time ();
  stall.last = start;
  stall.last_cpu = thread_cpu_us ();
  tick = g_timeout_add (5, stall_tick, &stall);
  dy_staging_fanout_stage_async (dy_staging_get_default (), gui_demo_connection (), &spec, plan,
                                 fanout_staged_cb, &done);
  gui_wait_for (flag_set, &done, "the fan-out to be staged");
  staging_settle ();
  g_source_remove (tick);
  g_test_message ("%u copies staged and read back in %.0f ms (worker threads); the main "
                  "loop's longest stall meanwhile (the panel's 200 cards built): %.0f ms, of "
                  "which %.0f ms on its own CPU",
                  n, (g_get_monotonic_time () - start) / 1000.0, stall.longest / 1000.0,
                  stall.longest_cpu / 1000.0);

  /* the panel: counts all, draws 200; rebuilding it from the snapshot is the main thread's
   * only work */
  g_assert_cmpuint (dy_staging_panel_get_n_changes (panel ()), ==, n);
  g_assert_cmpuint (dy_staging_panel_get_n_cards (panel ()), ==, 200);
  /* discarding one change: read again on a worker, the other cards kept as they are */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GPtrArray) all = staged ();
    DdbChange *first = g_ptr_array_index (all, 0);
    DdbChange *kept = g_ptr_array_index (all, 1);
    DdbChange *last = g_ptr_array_index (all, all->len - 1);
    GtkWidget *card = NULL;
    GtkWidget *card_after = NULL;
    g_autofree char *text = dy_staging_panel_dup_card_text (panel (), kept->id);

    g_assert_nonnull (text);
    for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (gtk_widget_get_template_child (
             GTK_WIDGET (panel ()), DY_TYPE_STAGING_PANEL, "card_box")));
         w != NULL && card == NULL; w = gtk_widget_get_next_sibling (w))
      if (g_object_get_data (G_OBJECT (w), "dy-change") != NULL
          && ((DdbChange *) g_object_get_data (G_OBJECT (w), "dy-change"))->id == kept->id)
        card = w;
    g_assert_nonnull (card);
    stall.longest = stall.longest_cpu = 0;
    stall.last = g_get_monotonic_time ();
    stall.last_cpu = thread_cpu_us ();
    tick = g_timeout_add (5, stall_tick, &stall);
    start = g_get_monotonic_time ();
    g_assert_true (dy_staging_discard (dy_staging_get_default (), first->id, &error));
    g_assert_no_error (error);
    /* a second one while the store is being read again: the read has a handle of its own */
    g_assert_true (dy_staging_get_loading (dy_staging_get_default (), gui_demo_connection ()));
    start = g_get_monotonic_time ();
    g_assert_true (dy_staging_discard (dy_staging_get_default (), last->id, &error));
    g_assert_no_error (error);
    g_test_message ("a discard while %u changes are read: %.1f ms", n - 1,
                    (g_get_monotonic_time () - start) / 1000.0);
    staging_settle ();
    g_source_remove (tick);
    g_assert_cmpuint (dy_staging_panel_get_n_changes (panel ()), ==, n - 2);
    g_assert_cmpuint (dy_staging_panel_get_n_cards (panel ()), ==, 200);
    g_assert_null (dy_staging_panel_dup_card_text (panel (), first->id));
    for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (gtk_widget_get_template_child (
             GTK_WIDGET (panel ()), DY_TYPE_STAGING_PANEL, "card_box")));
         w != NULL && card_after == NULL; w = gtk_widget_get_next_sibling (w))
      if (g_object_get_data (G_OBJECT (w), "dy-change") != NULL
          && ((DdbChange *) g_object_get_data (G_OBJECT (w), "dy-change"))->id == kept->id)
        card_after = w;
    /* the same widget: only the new 200th card was built */
    g_assert_true (card_after == card);
    g_test_message ("one change discarded among %u: longest main loop stall %.0f ms, of "
                    "which %.0f ms on its own CPU",
                    n, stall.longest / 1000.0, stall.longest_cpu / 1000.0);
  }

  /* row lookups: a hash lookup each, never a read of the store */
  start = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *sk = g_strdup_printf ("COPY#%05u", i);
      g_autoptr (DdbValue) item = blog_key ("MANY", sk);
      const char *const *changed = NULL;

      ddb_value_map_set (item, "authorName", ddb_value_copy (old_value));
      if (dy_staging_lookup (dy_staging_get_default (), gui_demo_connection (), "Blog", item,
                             &changed)
          == DY_STAGED_UPDATE)
        found += changed != NULL && g_strcmp0 (changed[0], "authorName") == 0;
    }
  lookup_us = (g_get_monotonic_time () - start) / (double) n;
  g_test_message ("row lookup with %u changes: %.2f µs each", n, lookup_us);
  /* all but the two discarded above */
  g_assert_cmpuint (found, ==, n - 2);
  probe = blog_key ("MANY", "NOT-STAGED");
  g_assert_cmpint (
      dy_staging_lookup (dy_staging_get_default (), gui_demo_connection (), "Blog", probe, NULL),
      ==, DY_STAGED_NONE);
  /* generous bounds for a shared, busy machine: what they catch is a read of the store */
  g_assert_cmpfloat (lookup_us, <, 200.0);

  discard_everything ();
  staging_settle ();
  g_assert_cmpuint (dy_staging_panel_get_n_changes (panel ()), ==, 0);
}

/* The mapped grid cell (a GtkInscription) under WIDGET showing TEXT, or NULL. */
static GtkWidget *
find_cell (GtkWidget *widget, const char *text)
{
  if (GTK_IS_INSCRIPTION (widget) && gtk_widget_get_mapped (widget)
      && g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), text) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_cell (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
revealed (gpointer data)
{
  return gtk_revealer_get_reveal_child (data);
}

/* A staged update tints its row in the grid and marks the changed attribute's cell; the tint
 * goes with the commit, and the grid then says its rows may be out of date until run again. */
static void
test_grid_tints (void)
{
  DyTableView *view = gui_open_table ("Blog");
  GtkWidget *grid = gui_child (view, "column_view");
  GtkRevealer *stale = GTK_REVEALER (gui_child (view, "stale_revealer"));
  g_autoptr (DdbValue) key = blog_key ("POST#9f3", "COMMENT#2026-01-04#1");
  g_autoptr (DdbValue) original = table_item ("POST#9f3", "COMMENT#2026-01-04#1");
  g_autoptr (DdbValue) target = ddb_value_copy (original);
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbValue) after = NULL;
  g_autofree char *likes_after = NULL;
  const char *digits = "1234567890123456789012345678901234567";
  DdbNumber n;
  GtkWidget *likes, *by, *author;

  discard_everything ();
  g_assert_true (ddb_number_parse (&n, digits, -1, NULL));
  ddb_value_map_set (target, "likes", ddb_value_new_n (&n));
  gui_set_text (view, "pk_entry", "POST#9f3");
  gui_run (view, "win.run");
  by = find_cell (grid, "U#31");
  author = find_cell (grid, "U#12"); /* authorId of the partition's other item, META */
  g_assert_nonnull (by);
  g_assert_false (gtk_widget_has_css_class (by, "staged-update"));

  g_assert_true (dy_staging_stage (dy_staging_get_default (), gui_demo_connection (), "Blog",
                                   DDB_CHANGE_UPDATE, key, original, target, &error));
  g_assert_no_error (error);
  staging_settle ();
  likes = find_cell (grid, "3");
  g_assert_nonnull (likes);
  g_assert_true (gtk_widget_has_css_class (likes, "staged-update"));
  g_assert_true (gtk_widget_has_css_class (likes, "staged-cell"));
  g_assert_true (gtk_widget_has_css_class (by, "staged-update"));
  g_assert_false (gtk_widget_has_css_class (by, "staged-cell"));
  /* the other item of the partition has nothing staged */
  g_assert_nonnull (author);
  g_assert_false (gtk_widget_has_css_class (author, "staged-update"));
  g_assert_false (gtk_revealer_get_reveal_child (stale));
  gui_screenshot ("36-staging-tinted-rows.png");

  show_panel ();
  commit_all (DDB_COMMIT_SINGLE);
  hide_panel ();
  after = table_item ("POST#9f3", "COMMENT#2026-01-04#1");
  likes_after = ddb_number_to_string (&ddb_value_map_get (after, "likes")->number);
  g_assert_cmpstr (likes_after, ==, digits);
  gui_wait_for (revealed, stale, "the grid to say its rows may be out of date");
  g_assert_false (gtk_widget_has_css_class (by, "staged-update"));
  g_assert_false (gtk_widget_has_css_class (likes, "staged-cell"));

  gui_run (view, "win.run");
  g_assert_false (gtk_revealer_get_reveal_child (stale));
  g_assert_nonnull (find_cell (grid, digits));
}

int
main (int argc, char **argv)
{
  /* the staging store lives in the user's data folder: gui_init made a private one */
  gui_init (&argc, &argv);
  g_test_add_func ("/staging-gui/inspector-edit", test_inspector_edit);
  g_test_add_func ("/staging-gui/fanout-conflict", test_fanout_conflict);
  g_test_add_func ("/staging-gui/delete-and-create", test_delete_and_create);
  g_test_add_func ("/staging-gui/commit-cancel", test_commit_cancel);
  g_test_add_func ("/staging-gui/drafts", test_drafts);
  g_test_add_func ("/staging-gui/close-with-drafts", test_close_with_drafts);
  g_test_add_func ("/staging-gui/many-changes", test_many_changes);
  g_test_add_func ("/staging-gui/grid-tints", test_grid_tints);
  return gui_run_tests ();
}
