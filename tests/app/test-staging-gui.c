/* test-staging-gui.c: staging in the real app on the demo database's blog table: editing in the
 * inspector (errors with their path, the per-attribute diff), the staging panel (cards, reject,
 * commit), a fan-out from the dialog with a copy changed behind our back, deletes and new
 * items; each checked against what the table holds afterwards. */
#define G_LOG_DOMAIN "test-staging-gui"

#include <string.h>

#include "app/dy-fanout-dialog.h"
#include "app/dy-staging-panel.h"
#include "app/dy-staging.h"
#include "core/ddbjson.h"
#include "gui-util.h"
#include "staging/diff.h"

static DyStagingPanel *
panel (void)
{
  return dy_window_get_staging_panel (gui_window);
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
      g_autoptr (GObject) row = g_list_model_get_item (rows, i);
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
          gui_settle ();
          g_assert_true (dy_inspector_get_item (dy_table_view_get_inspector (view))
                         == DY_ITEM (object));
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

/* TEXT with the first FROM replaced by TO (FROM must be there). */
static char *
replace (const char *text, const char *from, const char *to)
{
  const char *at = strstr (text, from);

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
  gui_settle ();
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

    /* reject the title: it goes back to its original value, the name stays staged */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel ()), "panel.reject", "(xs)",
                                               change->id, "title"));
    gui_settle ();
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
    gui_settle ();
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

int
main (int argc, char **argv)
{
  /* The staging store lives in the user's data folder: a private one for the test. */
  g_autofree char *data = g_dir_make_tmp ("dynoscope-staging-gui-XXXXXX", NULL);

  g_setenv ("XDG_DATA_HOME", data, TRUE);
  gui_init (&argc, &argv);
  g_test_add_func ("/staging-gui/inspector-edit", test_inspector_edit);
  g_test_add_func ("/staging-gui/fanout-conflict", test_fanout_conflict);
  g_test_add_func ("/staging-gui/delete-and-create", test_delete_and_create);
  g_test_add_func ("/staging-gui/commit-cancel", test_commit_cancel);
  return gui_run_tests ();
}
