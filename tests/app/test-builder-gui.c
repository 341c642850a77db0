/* test-builder-gui.c: the expression builder in the real app on the demo database: the seed's
 * workspace query built from rows and run, Copy As Python equal to what codegen writes, and a
 * guarded rename staged on every item of a result. */
#define G_LOG_DOMAIN "test-builder-gui"

#include "app/browser/dy-expr-builder.h"
#include "app/staging/dy-staging.h"
#include "gui-util.h"

/* The demo connection lists its tables first: a view opened before that has no connection. */
static DyTableView *
open_table (const char *table)
{
  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  return gui_open_table (table);
}

static GtkWidget *
builder_child (DyExprBuilder *builder, const char *name)
{
  GtkWidget *child = GTK_WIDGET (
      gtk_widget_get_template_child (GTK_WIDGET (builder), DY_TYPE_EXPR_BUILDER, name));

  g_assert_nonnull (child);
  return child;
}

/* The N-th widget of a row box (0: the first). */
static GtkWidget *
nth_child (GtkWidget *box, guint n)
{
  GtkWidget *child = gtk_widget_get_first_child (box);

  for (guint i = 0; i < n && child != NULL; i++)
    child = gtk_widget_get_next_sibling (child);
  g_assert_nonnull (child);
  return child;
}

static void
set_text (GtkWidget *entry, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
}

/* Selects the item CHOICE of a string-list dropdown. */
static void
select_choice (GtkWidget *dropdown, const char *choice)
{
  GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (GtkStringObject) s = g_list_model_get_item (model, i);

      if (g_str_equal (gtk_string_object_get_string (s), choice))
        {
          gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), i);
          return;
        }
    }
  g_error ("no choice %s", choice);
}

static DyExprBuilder *
open_builder (DyTableView *view)
{
  DyExprBuilder *builder;

  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.expression-builder", NULL));
  builder = dy_expr_builder_get_for_view (view);
  g_assert_nonnull (builder);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (builder)) == GTK_WINDOW (gui_window));
  gui_settle ();
  return builder;
}

static void
assert_member (json_t *request, const char *name, const char *expected_json)
{
  json_auto_t *expected = json_loads (expected_json, JSON_DECODE_ANY, NULL);
  json_t *member = json_object_get (request, name);

  g_assert_nonnull (expected);
  if (!json_equal (member, expected))
    {
      g_autofree char *text = json_dumps (member, JSON_ENCODE_ANY);

      g_error ("%s is %s, not %s", name, text != NULL ? text : "absent", expected_json);
    }
}

static gboolean
three_items (gpointer data)
{
  return g_list_model_get_n_items (dy_table_view_get_items (data)) == 3;
}

/* The seed's one-to-many Query: the projects of a workspace, newest first. */
static DyExprBuilder *
build_workspace_query (DyTableView *view)
{
  DyExprBuilder *builder = open_builder (view);
  json_t *request;
  const char *error = NULL;

  g_assert_cmpstr (dy_expr_builder_get_operation (builder), ==, "Query");
  set_text (builder_child (builder, "pk_entry"), "WS#acme");
  select_choice (builder_child (builder, "sk_op_dropdown"), "begins_with");
  set_text (builder_child (builder, "sk_entry"), "PROJ#");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (builder_child (builder, "descending_check")),
                               TRUE);
  request = dy_expr_builder_get_request (builder, &error);
  g_assert_cmpstr (error, ==, NULL);
  g_assert_nonnull (request);
  assert_member (request, "KeyConditionExpression", "\"#er = :er AND begins_with(#d, :p)\"");
  assert_member (request, "ExpressionAttributeNames",
                 "{\"#er\": \"EntityRef\", \"#d\": \"Detail\"}");
  assert_member (request, "ExpressionAttributeValues",
                 "{\":er\": {\"S\": \"WS#acme\"}, \":p\": {\"S\": \"PROJ#\"}}");
  assert_member (request, "ScanIndexForward", "false");
  assert_member (request, "TableName", "\"Workspaces\"");
  return builder;
}

static void
test_workspace_query (void)
{
  DyTableView *view = open_table ("Workspaces");
  GListModel *items = dy_table_view_get_items (view);
  const char *expected[] = { "PROJ#2026-0042", "PROJ#2026-0041", "PROJ#2026-0040" };
  DyExprBuilder *builder = build_workspace_query (view);
  guint64 scanned;
  guint pages, requests;
  double capacity;

  gui_screenshot ("60-builder-query.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.run", NULL));
  gui_wait_for (three_items, view, "the projects");
  gui_wait_for (gui_view_idle, view, "the Query");
  gui_settle ();
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (items, i);
      g_autofree char *detail = gui_string_attr (item, "Detail");

      g_assert_cmpstr (detail, ==, expected[i]);
    }
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (requests, ==, 1);

  /* A value of the wrong type is marked where it is typed, and nothing is rendered. */
  select_choice (builder_child (builder, "sk_op_dropdown"), "BETWEEN");
  set_text (builder_child (builder, "sk_entry2"), "PROJ#9");
  g_assert_nonnull (dy_expr_builder_get_request (builder, NULL));
  {
    GtkWidget *row = gtk_widget_get_first_child (builder_child (builder, "condition_rows"));
    const char *error = NULL;

    set_text (nth_child (row, 1), "size");
    select_choice (nth_child (row, 3), "N");
    set_text (nth_child (row, 4), "12x");
    g_assert_null (dy_expr_builder_get_request (builder, &error));
    g_assert_nonnull (error);
    g_assert_true (g_str_has_prefix (error, "Condition 1, value"));
    g_assert_true (gtk_widget_has_css_class (nth_child (row, 4), "error"));
    gui_screenshot ("61-builder-error.png");
    set_text (nth_child (row, 4), "12");
    g_assert_nonnull (dy_expr_builder_get_request (builder, &error));
    g_assert_false (gtk_widget_has_css_class (nth_child (row, 4), "error"));
    /* size is a reserved word: always placeholdered. */
    assert_member (dy_expr_builder_get_request (builder, NULL), "FilterExpression", "\"#s = :s\"");
  }
  gtk_window_destroy (GTK_WINDOW (builder));
}

static void
test_copy_as_python (void)
{
  const char *cli = g_getenv ("DYNOSCOPE_CLI");
  DyTableView *view = open_table ("Workspaces");
  DyExprBuilder *builder;
  g_autofree char *request = NULL;
  g_autofree char *copied = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  if (cli == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI (dynoscope-cli) is not set");
      return;
    }
  builder = build_workspace_query (view);
  request = json_dumps (dy_expr_builder_get_request (builder, NULL), JSON_COMPACT);
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (builder), "builder.copy-as", "s", "python"));
  copied = gui_clipboard_text (GTK_WIDGET (builder));
  {
    const char *argv[]
        = { cli,     "codegen", "--lang", "python", "--endpoint", "http://127.0.0.1:8000",
            "Query", request,   NULL };
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &expected,
                                 &err, &status, &error));
  }
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (copied, ==, expected);
  g_assert_nonnull (strstr (copied, "begins_with(#d, :p)"));
  gtk_window_destroy (GTK_WINDOW (builder));
}

static gboolean
staging_read (gpointer data)
{
  return !dy_staging_get_loading (dy_staging_get_default (), gui_demo_connection ());
}

/* The Stage runs on a thread; its report replaces "Staging…" when it is done. */
static gboolean
stage_finished (gpointer data)
{
  const char *status = dy_expr_builder_get_status (data);

  return status != NULL && g_str_has_prefix (status, "Staged ");
}

static gboolean
inspector_has_item (gpointer data)
{
  return dy_inspector_get_item (dy_table_view_get_inspector (data)) != NULL;
}

/* A guarded rename built in the builder and staged on every item of a Scan's result: one
 * change per item, nothing written. */
static void
test_stage_guarded_rename (void)
{
  DyTableView *view = open_table ("Blog");
  DyExprBuilder *builder;
  GtkWidget *row, *action;
  json_t *request;
  const char *message = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) changes = NULL;

  g_assert_true (
      dy_staging_discard_all (dy_staging_get_default (), gui_demo_connection (), NULL, &error));
  g_assert_no_error (error);
  gui_wait_for (staging_read, NULL, "the staging area");

  /* A Query's result: her posts through the ByAuthor index (which projects every attribute). */
  gui_select_choice (view, "index_dropdown", "GSI ByAuthor (authorId, publishedAt)");
  gui_set_text (view, "pk_entry", "U#12");
  gui_run (view, "win.run");
  g_assert_true (three_items (view));

  builder = open_builder (view);
  dy_expr_builder_set_operation (builder, "UpdateItem");
  row = gtk_widget_get_first_child (builder_child (builder, "condition_rows"));
  set_text (nth_child (row, 1), "authorName");
  set_text (nth_child (row, 4), "Mara Vance");
  action = gtk_widget_get_first_child (builder_child (builder, "action_rows"));
  set_text (nth_child (action, 1), "authorName");
  set_text (nth_child (action, 5), "Mara V.");
  request = dy_expr_builder_get_request (builder, &message);
  g_assert_cmpstr (message, ==, NULL);
  assert_member (request, "UpdateExpression", "\"SET #an = :new\"");
  assert_member (request, "ConditionExpression", "\"#an = :old\"");
  assert_member (request, "ExpressionAttributeValues",
                 "{\":new\": {\"S\": \"Mara V.\"}, \":old\": {\"S\": \"Mara Vance\"}}");
  gui_screenshot ("62-builder-update.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.stage", NULL));
  gui_wait_for (stage_finished, builder, "the Stage");
  gui_wait_for (staging_read, NULL, "the staging area");
  g_assert_cmpstr (dy_expr_builder_get_status (builder), ==,
                   "Staged 3 of 3 items: 0 skipped by the condition, 0 unchanged, 0 failed");
  changes = dy_staging_list (dy_staging_get_default (), gui_demo_connection (), "Blog", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, 3);
  for (guint i = 0; i < changes->len; i++)
    {
      DdbChange *change = changes->pdata[i];
      const DdbValue *name = ddb_value_map_get (change->target, "authorName");

      g_assert_cmpint (change->kind, ==, DDB_CHANGE_UPDATE);
      g_assert_nonnull (name);
      g_assert_cmpstr (name->bytes.data, ==, "Mara V.");
      g_assert_cmpstr (ddb_value_map_get (change->original, "authorName")->bytes.data, ==,
                       "Mara Vance");
    }

  /* The rows load back from the request they rendered. */
  {
    g_autofree char *text = json_dumps (request, 0);
    json_t *again;

    g_assert_true (dy_expr_builder_load_text (builder, text));
    again = dy_expr_builder_get_request (builder, NULL);
    g_assert_nonnull (again);
    assert_member (again, "UpdateExpression", "\"SET #an = :new\"");
    assert_member (again, "ConditionExpression", "\"#an = :old\"");
  }
  g_assert_true (
      dy_staging_discard_all (dy_staging_get_default (), gui_demo_connection (), NULL, &error));
  g_assert_no_error (error);
  gui_wait_for (staging_read, NULL, "the staging area");

  /* The inspector's "Update with Expression…" stages on the inspected item only, and the
   * request names its key. */
  gtk_selection_model_select_item (dy_table_view_get_rows (view), 0, TRUE);
  gui_wait_for (inspector_has_item, view, "the inspector to show the item");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dy_table_view_get_inspector (view)),
                                             "view.update-with-expression", NULL));
  g_assert_true (dy_expr_builder_get_for_view (view) == builder);
  g_assert_cmpstr (dy_expr_builder_get_operation (builder), ==, "UpdateItem");
  request = dy_expr_builder_get_request (builder, NULL);
  g_assert_nonnull (request);
  g_assert_nonnull (json_object_get (json_object_get (request, "Key"), "PK"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.stage", NULL));
  gui_wait_for (stage_finished, builder, "the Stage");
  gui_wait_for (staging_read, NULL, "the staging area");
  g_assert_cmpstr (dy_expr_builder_get_status (builder), ==,
                   "Staged 1 of 1 item: 0 skipped by the condition, 0 unchanged, 0 failed");
  g_clear_pointer (&changes, g_ptr_array_unref);
  changes = dy_staging_list (dy_staging_get_default (), gui_demo_connection (), "Blog", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, 1);
  g_assert_true (
      dy_staging_discard_all (dy_staging_get_default (), gui_demo_connection (), NULL, &error));
  g_assert_no_error (error);
  gui_wait_for (staging_read, NULL, "the staging area");
  gtk_window_destroy (GTK_WINDOW (builder));
}

static gboolean
two_items (gpointer data)
{
  return g_list_model_get_n_items (dy_table_view_get_items (data)) == 2;
}

/* A pasted request loads into rows; what rows cannot hold (a nested OR, list_append with the
 * value first) stays as text, and the request renders again. */
/* The first descendant of WIDGET that is a GtkDropDown showing LABEL, or NULL. */
static GtkDropDown *
find_dropdown (GtkWidget *widget, const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkDropDown *found;

      if (GTK_IS_DROP_DOWN (child))
        {
          GtkStringObject *item = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (child));

          if (item != NULL && g_strcmp0 (gtk_string_object_get_string (item), label) == 0)
            return GTK_DROP_DOWN (child);
        }
      if ((found = find_dropdown (child, label)) != NULL)
        return found;
    }
  return NULL;
}

/* How many rows under WIDGET hold a part as text (their entry says so in its tooltip). */
static guint
count_kept_as_text (GtkWidget *widget)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *tip = gtk_widget_get_tooltip_text (child);

      if (GTK_IS_ENTRY (child) && tip != NULL && g_str_has_prefix (tip, "Kept as text"))
        n++;
      n += count_kept_as_text (child);
    }
  return n;
}

/* Groups of rows with their own AND or OR, NOT on a group: loaded as rows (not text), rendered
 * back with the parentheses they need, and edited in place. */
static void
test_nested_groups (void)
{
  DyTableView *view = open_table ("Blog");
  DyExprBuilder *builder = open_builder (view);
  const char *error = NULL;
  json_t *request;
  GtkWidget *rows;
  GtkDropDown *join;

  /* A Scan: a Query would want its partition key first. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (builder_child (builder, "operation_dropdown")), 1);
  g_assert_cmpstr (dy_expr_builder_get_operation (builder), ==, "Scan");
  g_assert_true (dy_expr_builder_load_text (
      builder, "{\"TableName\": \"Blog\", \"FilterExpression\": \"(likes > :a OR authorName = :b)"
               " AND NOT (title = :c OR (likes < :d AND attribute_exists(tags)))\","
               " \"ExpressionAttributeValues\": {\":a\": {\"N\": \"5\"}, \":b\": {\"S\": \"Mara"
               " Vance\"}, \":c\": {\"S\": \"x\"}, \":d\": {\"N\": \"2\"}}}"));
  request = dy_expr_builder_get_request (builder, &error);
  g_assert_cmpstr (error, ==, NULL);
  assert_member (request, "FilterExpression",
                 "\"(#l > :l OR #an = :an) AND NOT (#t = :t OR #l < :l2 AND "
                 "attribute_exists(#t2))\"");
  /* AND binds tighter than OR: the inner group needs no parentheses. Two top-level rows, both
   * groups; nothing kept as text. */
  rows = builder_child (builder, "condition_rows");
  g_assert_nonnull (gtk_widget_get_first_child (rows));
  g_assert_null (gtk_widget_get_next_sibling (gtk_widget_get_next_sibling (
      gtk_widget_get_first_child (rows))));
  g_assert_cmpuint (count_kept_as_text (rows), ==, 0);
  /* The first group's OR, turned into AND, changes only that group. */
  join = find_dropdown (gtk_widget_get_first_child (rows), "Any of (OR)");
  g_assert_nonnull (join);
  gtk_drop_down_set_selected (join, 0);
  request = dy_expr_builder_get_request (builder, &error);
  g_assert_cmpstr (error, ==, NULL);
  assert_member (request, "FilterExpression",
                 "\"#l > :l AND #an = :an AND NOT (#t = :t OR #l < :l2 AND "
                 "attribute_exists(#t2))\"");
  gui_screenshot ("64-builder-groups.png");
  /* A new group under the top level holds one empty row: nothing changes until it is filled. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.add-group", NULL));
  request = dy_expr_builder_get_request (builder, &error);
  g_assert_cmpstr (error, ==, NULL);
  assert_member (request, "FilterExpression",
                 "\"#l > :l AND #an = :an AND NOT (#t = :t OR #l < :l2 AND "
                 "attribute_exists(#t2))\"");
  /* As a Query it wants the partition key's value, never an empty one. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (builder_child (builder, "operation_dropdown")), 0);
  g_assert_null (dy_expr_builder_get_request (builder, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error, "Partition key"));
  gtk_window_destroy (GTK_WINDOW (builder));
}

static void
test_load_keeps_text (void)
{
  DyTableView *view = open_table ("Blog");
  DyExprBuilder *builder = open_builder (view);
  const char *text = "{\"TableName\": \"Blog\", \"Key\": {\"PK\": {\"S\": \"POST#9f3\"}, \"SK\": "
                     "{\"S\": \"META\"}},"
                     " \"UpdateExpression\": \"SET #t = list_append(:x, #t) ADD likes :one\","
                     " \"ConditionExpression\": \"(attribute_exists(#t) OR likes > :z) AND NOT "
                     "begins_with(PK, :p)\","
                     " \"ExpressionAttributeNames\": {\"#t\": \"tags\"},"
                     " \"ExpressionAttributeValues\": {\":x\": {\"L\": [{\"S\": \"a\"}]}, "
                     "\":one\": {\"N\": \"1\"},"
                     " \":z\": {\"N\": \"0\"}, \":p\": {\"S\": \"POST#\"}}}";
  const char *error = NULL;
  json_t *request;
  const char *update, *condition;
  GtkWidget *rows;

  g_assert_true (dy_expr_builder_load_text (builder, text));
  g_assert_cmpstr (dy_expr_builder_get_operation (builder), ==, "UpdateItem");
  request = dy_expr_builder_get_request (builder, &error);
  g_assert_cmpstr (error, ==, NULL);
  g_assert_nonnull (request);
  update = json_string_value (json_object_get (request, "UpdateExpression"));
  condition = json_string_value (json_object_get (request, "ConditionExpression"));
  g_assert_nonnull (strstr (update, "SET #t = list_append(:t, #t)"));
  g_assert_nonnull (strstr (update, "ADD "));
  g_assert_nonnull (strstr (condition, " OR "));
  g_assert_nonnull (strstr (condition, "NOT begins_with("));
  assert_member (request, "Key", "{\"PK\": {\"S\": \"POST#9f3\"}, \"SK\": {\"S\": \"META\"}}");
  /* Two condition rows (the OR as a group, the NOT as a row), two action rows, one of them
   * (list_append with the value first) kept as text. */
  rows = builder_child (builder, "condition_rows");
  g_assert_cmpuint (count_kept_as_text (rows), ==, 0);
  g_assert_cmpuint (count_kept_as_text (builder_child (builder, "action_rows")), ==, 1);
  g_assert_nonnull (gtk_widget_get_first_child (rows));
  g_assert_nonnull (gtk_widget_get_next_sibling (gtk_widget_get_first_child (rows)));
  g_assert_null (gtk_widget_get_next_sibling (
      gtk_widget_get_next_sibling (gtk_widget_get_first_child (rows))));
  gui_screenshot ("63-builder-loaded.png");

  /* A Query of an index: the key rows name its keys, and IndexName and Limit are kept. */
  g_assert_true (dy_expr_builder_load_text (
      builder, "{\"TableName\": \"Blog\", \"IndexName\": \"ByAuthor\", \"Limit\": 5,"
               " \"KeyConditionExpression\": \"authorId = :a AND publishedAt > :t\","
               " \"ExpressionAttributeValues\": {\":a\": {\"S\": \"U#12\"},"
               " \":t\": {\"S\": \"2026-02\"}}}"));
  g_assert_cmpstr (dy_expr_builder_get_operation (builder), ==, "Query");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (builder_child (builder, "pk_label"))), ==,
                   "authorId");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (builder_child (builder, "pk_entry"))), ==,
                   "U#12");
  request = dy_expr_builder_get_request (builder, &error);
  g_assert_cmpstr (error, ==, NULL);
  assert_member (request, "IndexName", "\"ByAuthor\"");
  assert_member (request, "Limit", "5");
  assert_member (request, "KeyConditionExpression", "\"#ai = :ai AND #pa > :pa\"");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.run", NULL));
  gui_wait_for (two_items, view, "Mara Vance's posts since February");
  gui_wait_for (gui_view_idle, view, "the Query");

  /* A key condition the key rows cannot hold stays as text; emptied, the rows come back. */
  g_assert_true (dy_expr_builder_load_text (
      builder, "{\"TableName\": \"Blog\", \"KeyConditionExpression\": \":p = PK\","
               " \"ExpressionAttributeValues\": {\":p\": {\"S\": \"POST#9f3\"}}}"));
  g_assert_true (gtk_widget_get_visible (builder_child (builder, "key_raw_entry")));
  g_assert_false (gtk_widget_get_visible (builder_child (builder, "pk_box")));
  request = dy_expr_builder_get_request (builder, &error);
  g_assert_cmpstr (error, ==, NULL);
  g_assert_nonnull (
      strstr (json_string_value (json_object_get (request, "KeyConditionExpression")), "= #p"));
  set_text (builder_child (builder, "key_raw_entry"), "");
  g_assert_false (gtk_widget_get_visible (builder_child (builder, "key_raw_entry")));
  g_assert_true (gtk_widget_get_visible (builder_child (builder, "pk_box")));

  g_assert_false (dy_expr_builder_load_text (builder, "{\"KeyConditions\": {}}"));
  g_assert_nonnull (dy_expr_builder_get_request (builder, &error));
  g_assert_nonnull (error);
  gtk_window_destroy (GTK_WINDOW (builder));
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  g_test_add_func ("/builder-gui/workspace-query", test_workspace_query);
  g_test_add_func ("/builder-gui/copy-as-python", test_copy_as_python);
  g_test_add_func ("/builder-gui/stage-guarded-rename", test_stage_guarded_rename);
  g_test_add_func ("/builder-gui/load-keeps-text", test_load_keeps_text);
  g_test_add_func ("/builder-gui/nested-groups", test_nested_groups);
  return gui_run_tests ();
}
