/* test-model-gui.c: the Model window in the real app: win.model opens an empty one; the
 * orders seed model opened in it shows each access pattern's resolution as dy_model_check
 * finds it (operation, table, key condition, direction, request), and its sample items grouped
 * into item collections by partition key, sorted by sort key, shards gathered; Copy as puts
 * the request's program on the clipboard; a key template edited to a malformed one shows the
 * parser's error in place and leaves the model as it was, fixed it changes the model and its
 * resolutions at once; an added pattern resolves as it is edited (a Query, newest first; a
 * pattern without its partition key flagged with why), a removed one goes; Save writes a
 * Workbench file that reads back to the same model; closing with unsaved changes asks. A plain
 * NoSQL Workbench model (no key templates, no patterns) shows its flags and, under "Not
 * checked", every check that could not run. */
#define G_LOG_DOMAIN "test-model-gui"

#include <glib/gstdio.h>
#include <string.h>

#include "app/browser/dy-group.h"
#include "app/model/dy-model-window.h"
#include "gui-util.h"
#include "backend/backend.h"
#include "model/workbench.h"

#define ORDERS_MODEL DYNOSCOPE_SOURCE_DIR "/data/models/orders.json"

static DyModelWindow *
find_model_window (void)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (g_application_get_default ()));

  for (GList *l = windows; l != NULL; l = l->next)
    if (DY_IS_MODEL_WINDOW (l->data))
      return l->data;
  return NULL;
}

static const char *
label_text (DyModelWindow *window, const char *field)
{
  GtkWidget *widget = dy_model_window_get_field (window, field);

  g_assert_nonnull (widget);
  return gtk_label_get_text (GTK_LABEL (widget));
}

/* A label's text if it is shown, else "". */
static const char *
shown_label (DyModelWindow *window, const char *field)
{
  GtkWidget *widget = dy_model_window_get_field (window, field);

  g_assert_nonnull (widget);
  if (!gtk_widget_get_visible (widget) || !gtk_widget_get_visible (gtk_widget_get_parent (widget)))
    return "";
  return gtk_label_get_text (GTK_LABEL (widget));
}

static char *
request_text (DyModelWindow *window)
{
  GtkWidget *view = dy_model_window_get_field (window, "request");
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_assert_nonnull (view);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
set_text (DyModelWindow *window, const char *field, const char *text)
{
  GtkWidget *widget = dy_model_window_get_field (window, field);

  g_assert_nonnull (widget);
  gtk_editable_set_text (GTK_EDITABLE (widget), text);
}

/* The keys of the collections open in the sample items ("TENANT#bigco#01…#10,TENANT#bigco#07"),
 * and in *TOP those of all top-level rows. */
static char *
open_collections (DyModelWindow *window, char **top)
{
  GListModel *rows = dy_model_window_get_item_rows (window);
  GString *open = g_string_new (NULL);
  GString *all = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

      if (!DY_IS_GROUP (object))
        continue;
      if (gtk_tree_list_row_get_depth (row) == 0)
        g_string_append_printf (all, "%s%s", all->len > 0 ? "," : "",
                                dy_group_get_key_text (DY_GROUP (object)));
      if (gtk_tree_list_row_get_expanded (row))
        g_string_append_printf (open, "%s%s", open->len > 0 ? "," : "",
                                dy_group_get_key_text (DY_GROUP (object)));
    }
  if (top != NULL)
    *top = g_string_free (all, FALSE);
  else
    g_string_free (all, TRUE);
  return g_string_free (open, FALSE);
}

/* The shown resolution of pattern I is R's. */
static void
assert_shown (DyModelWindow *window, const DyResolution *r)
{
  g_autofree char *request = request_text (window);
  g_autofree char *expected = NULL;

  switch (r->kind)
    {
    case DY_RESOLVED_GET_ITEM:
      g_assert_cmpstr (label_text (window, "operation"), ==, "GetItem");
      break;
    case DY_RESOLVED_QUERY:
      g_assert_cmpstr (label_text (window, "operation"), ==, "Query");
      g_assert_nonnull (strstr (shown_label (window, "direction"),
                                r->forward ? "ScanIndexForward true" : "ScanIndexForward false"));
      break;
    case DY_RESOLVED_FLAGGED:
      g_assert_cmpstr (label_text (window, "operation"), !=, "GetItem");
      g_assert_cmpstr (label_text (window, "operation"), !=, "Query");
      g_assert_nonnull (r->why);
      g_assert_cmpstr (shown_label (window, "why"), ==, r->why);
      g_assert_cmpstr (request, ==, "");
      return;
    }
  g_assert_cmpstr (shown_label (window, "key-condition"), ==, r->key_condition);
  g_assert_nonnull (strstr (shown_label (window, "target"), r->table));
  if (r->index != NULL)
    g_assert_nonnull (strstr (shown_label (window, "target"), r->index));
  expected = json_dumps (r->request, JSON_INDENT (2) | JSON_SORT_KEYS);
  g_assert_cmpstr (request, ==, expected);
  g_assert_cmpstr (shown_label (window, "why"), ==, r->why != NULL ? r->why : "");
}

/* The window's report is what dy_model_check finds for its model now. */
static void
assert_report_current (DyModelWindow *window)
{
  g_autoptr (DyCheckReport) fresh = dy_model_check (dy_model_window_get_model (window));
  const DyCheckReport *shown = dy_model_window_get_report (window);

  g_assert_cmpuint (shown->resolutions->len, ==, fresh->resolutions->len);
  for (guint i = 0; i < fresh->resolutions->len; i++)
    {
      const DyResolution *a = shown->resolutions->pdata[i], *b = fresh->resolutions->pdata[i];

      g_assert_cmpint (a->kind, ==, b->kind);
      g_assert_cmpstr (a->key_condition, ==, b->key_condition);
      g_assert_cmpstr (a->why, ==, b->why);
      g_assert_true (json_equal (a->request, b->request)
                     || (a->request == NULL && b->request == NULL));
    }
  g_assert_cmpuint (shown->flags->len, ==, fresh->flags->len);
}

static void
test_open (void)
{
  DyModelWindow *window;
  g_autoptr (GError) error = NULL;
  g_autoptr (DyModel) model = dy_workbench_read_file (ORDERS_MODEL, &error);
  g_autoptr (DyCheckReport) report = NULL;
  g_autofree char *bad = NULL;
  GListModel *rows;
  DyModelTable *table;
  g_autoptr (GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);

  g_assert_no_error (error);
  report = dy_model_check (model);

  /* the main window's action: an empty Model window */
  g_assert_null (find_model_window ());
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.model", NULL));
  window = find_model_window ();
  g_assert_nonnull (window);
  g_assert_null (dy_model_window_get_model (window));
  gui_screenshot ("90-model-empty.png");

  /* a file that is no model: the reader's error, nothing shown */
  bad = g_build_filename (g_get_user_cache_dir (), "not-a-model.json", NULL);
  g_assert_true (g_file_set_contents (bad, "{\"ModelName\": 3}", -1, NULL));
  g_assert_false (dy_model_window_load (window, bad, &error));
  g_assert_error (error, DY_WORKBENCH_ERROR, DY_WORKBENCH_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (dy_model_window_get_model (window));
  g_unlink (bad);

  g_assert_true (dy_model_window_load (window, ORDERS_MODEL, &error));
  g_assert_no_error (error);
  g_assert_false (dy_model_window_get_modified (window));
  g_assert_cmpstr (dy_model_window_get_path (window), ==, ORDERS_MODEL);
  gui_settle ();
  gui_screenshot ("91-model-table.png");

  /* the sample items, grouped by partition key, in sort-key order, shards gathered */
  table = dy_model_window_get_model (window)->tables->pdata[0];
  rows = dy_model_window_get_item_rows (window);
  g_assert_nonnull (rows);
  for (guint i = 0; i < json_array_size (table->items); i++)
    g_hash_table_add (
        keys, (gpointer) json_string_value (json_object_get (
                  json_object_get (json_array_get (table->items, i), table->partition.name), "S")));
  {
    guint collections = 0, items = 0, shard_sets = 0;
    g_autoptr (GtkTreeListRow) first = g_list_model_get_item (rows, 0);
    g_autoptr (GObject) first_group = gtk_tree_list_row_get_item (first);

    /* the first collection is open: its items follow it, in sort-key order */
    g_assert_true (DY_IS_GROUP (first_group));
    g_assert_true (gtk_tree_list_row_get_expanded (first));
    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
        g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

        if (gtk_tree_list_row_get_depth (row) == 0)
          {
            DyGroup *group = DY_GROUP (object);

            g_assert_true (DY_IS_GROUP (object));
            if (dy_group_is_shard_set (group))
              {
                shard_sets++;
                collections += g_list_model_get_n_items (dy_group_get_items (group));
                /* TENANT#bigco#01 ... its shards */
                g_assert_true (g_str_has_prefix (dy_group_get_shard_base (group), "TENANT#bigco"));
              }
            else
              collections++;
            items += dy_group_get_n_items (group);
          }
      }
    g_assert_cmpuint (items, ==, json_array_size (table->items));
    g_assert_cmpuint (collections, ==, g_hash_table_size (keys));
    g_assert_cmpuint (shard_sets, ==, 1);
    if (!dy_group_is_shard_set (DY_GROUP (first_group)))
      {
        GListModel *children = dy_group_get_items (DY_GROUP (first_group));

        for (guint i = 1; i < g_list_model_get_n_items (children); i++)
          {
            g_autoptr (DyItem) a = g_list_model_get_item (children, i - 1);
            g_autoptr (DyItem) b = g_list_model_get_item (children, i);
            g_autofree char *sa = gui_string_attr (a, table->sort.name);
            g_autofree char *sb = gui_string_attr (b, table->sort.name);

            g_assert_cmpint (strcmp (sa, sb), <=, 0);
          }
      }
  }

  /* each pattern shows what dy_model_check resolves it to */
  g_assert_cmpuint (dy_model_window_get_model (window)->patterns->len, ==, model->patterns->len);
  for (guint i = 0; i < model->patterns->len; i++)
    {
      dy_model_window_select (window, DY_MODEL_SELECT_PATTERN, i);
      assert_shown (window, report->resolutions->pdata[i]);
    }
  /* the sample items open at the collection the pattern reads */
  dy_model_window_select (window, DY_MODEL_SELECT_PATTERN, 0);
  {
    g_autofree char *open = open_collections (window, NULL);

    g_assert_cmpstr (open, ==, "TENANT#smallco");
  }
  gui_settle ();
  gui_screenshot ("92-model-pattern.png");
  dy_model_window_select (window, DY_MODEL_SELECT_PATTERN, 3); /* shard 7 of bigco */
  {
    g_autofree char *open = open_collections (window, NULL);

    g_assert_true (g_str_has_suffix (open, ",TENANT#bigco#07"));
    /* the shard set and that one shard: nothing else open */
    g_assert_true (strchr (open, ',') == strrchr (open, ','));
  }
  gui_screenshot ("93-model-pattern-shard.png");

  g_assert_false (dy_model_window_get_modified (window));
}

/* The other seeds: patterns on a GSI (blog's ByAuthor, with a sort-key range) and on the
 * generic EntityRef/Detail schema, each shown as dy_model_check resolves it; a model opened
 * and closed unchanged closes without asking. */
static void
test_seeds (void)
{
  static const char *const seeds[] = { "blog", "workspaces" };

  for (gsize s = 0; s < G_N_ELEMENTS (seeds); s++)
    {
      g_autofree char *name = g_strconcat (seeds[s], ".json", NULL);
      g_autofree char *path = g_build_filename (DYNOSCOPE_SOURCE_DIR, "data", "models", name, NULL);
      g_autofree char *shot = g_strdup_printf ("94-model-%s.png", seeds[s]);
      g_autoptr (GError) error = NULL;
      g_autoptr (DyModel) model = dy_workbench_read_file (path, &error);
      g_autoptr (DyCheckReport) report = NULL;
      DyModelWindow *window;
      GtkWindow *weak;
      gboolean on_index = FALSE;

      g_assert_no_error (error);
      report = dy_model_check (model);
      window = dy_model_window_open (GTK_APPLICATION (g_application_get_default ()), path);
      g_assert_nonnull (dy_model_window_get_model (window));
      g_assert_cmpuint (dy_model_window_get_model (window)->patterns->len, ==,
                        model->patterns->len);
      for (guint i = 0; i < model->patterns->len; i++)
        {
          const DyResolution *r = report->resolutions->pdata[i];

          dy_model_window_select (window, DY_MODEL_SELECT_PATTERN, i);
          assert_shown (window, r);
          if (r->index != NULL && !on_index)
            {
              g_autofree char *top = NULL;
              g_autofree char *open = open_collections (window, &top);

              /* the items grouped by the index's partition key, the author read open */
              on_index = TRUE;
              g_assert_cmpstr (open, ==, "U#12");
              g_assert_true (g_str_has_prefix (top, "U#"));
              g_assert_null (strstr (top, "POST#"));
              gui_screenshot (shot);
            }
        }
      if (g_str_equal (seeds[s], "blog"))
        {
          /* its table with the index (the sample items as the table holds them) */
          dy_model_window_select (window, DY_MODEL_SELECT_TABLE, 0);
          gui_screenshot ("94-model-blog-table.png");
        }
      /* blog reads its ByAuthor index */
      g_assert_true (on_index == g_str_equal (seeds[s], "blog"));
      /* Copy as: the request shown as a program (last: the toast goes with the window) */
      dy_model_window_select (window, DY_MODEL_SELECT_PATTERN, model->patterns->len - 1);
      {
        const DyResolution *r = report->resolutions->pdata[model->patterns->len - 1];
        g_autofree char *clip = NULL;
        json_t *value = json_object_get (
            json_object_get (json_object_get (r->request, "ExpressionAttributeValues"), ":pk"),
            "S");

        g_assert_cmpint (r->kind, ==, DY_RESOLVED_QUERY);
        g_assert_true (
            gtk_widget_activate_action (GTK_WIDGET (window), "model.copy-as", "s", "python"));
        clip = gui_clipboard_text (GTK_WIDGET (window));
        g_assert_nonnull (strstr (clip, "boto3"));
        g_assert_nonnull (strstr (clip, "query"));
        g_assert_nonnull (strstr (clip, json_string_value (value)));
        if (r->index != NULL)
          g_assert_nonnull (strstr (clip, r->index));
      }
      g_assert_false (dy_model_window_get_modified (window));
      weak = GTK_WINDOW (window);
      g_object_add_weak_pointer (G_OBJECT (weak), (gpointer *) &weak);
      gtk_window_close (weak);
      gui_settle ();
      g_assert_null (weak);
    }
}

static void
test_edit (void)
{
  DyModelWindow *window = find_model_window ();
  DyModel *model;
  DyModelEntity *order;
  g_autoptr (GError) parse_error = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DyTemplate) bad = NULL;
  GtkWidget *key_error;
  const DyResolution *r;
  guint n_patterns;

  g_assert_nonnull (window);
  model = dy_model_window_get_model (window);
  g_assert_nonnull (model);
  order = dy_model_find_entity (model, "Order");
  g_assert_nonnull (order);

  /* a malformed key template: the parser's error in place, the model as it was */
  dy_model_window_select (window, DY_MODEL_SELECT_ENTITY, 0);
  g_assert_cmpstr (
      gtk_editable_get_text (GTK_EDITABLE (dy_model_window_get_field (window, "key:TenantShard"))),
      ==, "TENANT#{tenantId}");
  key_error = dy_model_window_get_field (window, "key-error:TenantShard");
  g_assert_nonnull (key_error);
  g_assert_false (gtk_widget_get_visible (key_error));
  set_text (window, "key:TenantShard", "TENANT#{tenantId");
  bad = dy_template_parse ("TENANT#{tenantId", &parse_error);
  g_assert_null (bad);
  g_assert_nonnull (parse_error);
  g_assert_true (gtk_widget_get_visible (key_error));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (key_error)), ==, parse_error->message);
  g_assert_true (
      gtk_widget_has_css_class (dy_model_window_get_field (window, "key:TenantShard"), "error"));
  g_assert_cmpstr (dy_model_entity_find_key (order, "TenantShard")->tpl->source, ==,
                   "TENANT#{tenantId}");
  g_assert_false (dy_model_window_get_modified (window));
  gui_settle ();
  gui_screenshot ("95-model-key-error.png");

  /* fixed: the model and the resolutions follow at once */
  set_text (window, "key:TenantShard", "T#{tenantId}");
  g_assert_false (gtk_widget_get_visible (key_error));
  g_assert_false (
      gtk_widget_has_css_class (dy_model_window_get_field (window, "key:TenantShard"), "error"));
  g_assert_cmpstr (dy_model_entity_find_key (order, "TenantShard")->tpl->source, ==,
                   "T#{tenantId}");
  g_assert_true (dy_model_window_get_modified (window));
  assert_report_current (window);
  r = dy_model_window_get_report (window)->resolutions->pdata[0];
  g_assert_nonnull (strstr (r->key_condition, "\"T#smallco\""));
  set_text (window, "key:TenantShard", "TENANT#{tenantId}");
  assert_report_current (window);

  /* a template emptied: the entity has none for that key once the text stays empty */
  set_text (window, "key:CustomerCountryProduct", "");
  gui_settle ();
  g_assert_null (dy_model_entity_find_key (order, "CustomerCountryProduct"));
  assert_report_current (window);
  r = dy_model_window_get_report (window)->resolutions->pdata[2]; /* one order */
  g_assert_cmpint (r->kind, ==, DY_RESOLVED_FLAGGED);
  set_text (window, "key:CustomerCountryProduct", "C#{customerId}#{country}#{product}");
  gui_settle ();
  g_assert_cmpstr (dy_model_entity_find_key (order, "CustomerCountryProduct")->tpl->source, ==,
                   "C#{customerId}#{country}#{product}");
  assert_report_current (window);
  r = dy_model_window_get_report (window)->resolutions->pdata[2];
  g_assert_cmpint (r->kind, ==, DY_RESOLVED_GET_ITEM);

  /* a new pattern for the entity shown, resolved as it is edited */
  n_patterns = model->patterns->len;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "model.add-pattern", NULL));
  g_assert_cmpuint (model->patterns->len, ==, n_patterns + 1);
  g_assert_cmpstr (((DyModelPattern *) model->patterns->pdata[n_patterns])->entity, ==, "Order");
  assert_report_current (window);
  set_text (window, "name", "orders of customer 42, newest first");
  set_text (window, "inputs", "tenantId=acme, customerId=42");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dy_model_window_get_field (window, "order")), 2);
  assert_report_current (window);
  r = dy_model_window_get_report (window)->resolutions->pdata[n_patterns];
  g_assert_cmpint (r->kind, ==, DY_RESOLVED_QUERY);
  g_assert_false (r->forward);
  g_assert_nonnull (strstr (r->key_condition, "TENANT#acme"));
  g_assert_nonnull (strstr (r->key_condition, "C#42#"));
  assert_shown (window, r);
  gui_settle ();
  gui_screenshot ("96-model-new-pattern.png");
  /* the sample items follow the pattern as it is edited: no collection TENANT#acme in them,
   * so the first opens (not the shard the pattern shown before read); smallco's once read */
  {
    g_autofree char *open = open_collections (window, NULL);

    g_assert_null (strstr (open, "#07"));
    g_assert_true (g_str_has_prefix (open, "TENANT#bigco#01"));
    set_text (window, "inputs", "tenantId=smallco, customerId=42");
    g_clear_pointer (&open, g_free);
    open = open_collections (window, NULL);
    g_assert_cmpstr (open, ==, "TENANT#smallco");
    set_text (window, "inputs", "tenantId=acme, customerId=42");
  }

  /* without its partition key's input: flagged, with why */
  set_text (window, "inputs", "customerId=42");
  r = dy_model_window_get_report (window)->resolutions->pdata[n_patterns];
  g_assert_cmpint (r->kind, ==, DY_RESOLVED_FLAGGED);
  assert_shown (window, r);
  gui_screenshot ("97-model-flagged-pattern.png");
  set_text (window, "inputs", "tenantId=acme, customerId=42");
  r = dy_model_window_get_report (window)->resolutions->pdata[n_patterns];
  g_assert_cmpint (r->kind, ==, DY_RESOLVED_QUERY);

  /* one more, removed again */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "model.add-pattern", NULL));
  g_assert_cmpuint (model->patterns->len, ==, n_patterns + 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "model.remove-pattern", NULL));
  g_assert_cmpuint (model->patterns->len, ==, n_patterns + 1);
  g_assert_cmpstr (((DyModelPattern *) model->patterns->pdata[n_patterns])->name, ==,
                   "orders of customer 42, newest first");
  assert_report_current (window);
}

/* Answers a question as its button does: the response, then the dialog closes. */
static void
answer (GtkWidget *dialog, const char *response)
{
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), response);
  gtk_window_close (GTK_WINDOW (dialog));
}

typedef struct {
  DyConnection *connection;
  char *table;
  guint calls;
} Target;

static void
target_chosen (DyModelWindow *self, DyConnection *connection, const char *table, gpointer user_data)
{
  Target *target = user_data;

  target->connection = connection;
  g_free (target->table);
  target->table = g_strdup (table);
  target->calls++;
}

static gboolean
tables_listed (gpointer data)
{
  GtkDropDown *tables = data;
  GListModel *model = gtk_drop_down_get_model (tables);

  return model != NULL && g_list_model_get_n_items (model) > 0;
}

/* The question Create on… and Infer ask: the browser's connections, and the chosen one's
 * tables; the answer is handed on, Cancel hands nothing on. */
static void
test_target (void)
{
  DyModelWindow *window = find_model_window ();
  Target target = { 0 };
  GtkWidget *dialog;
  GtkDropDown *connections, *tables;
  GListModel *names;
  guint blog = G_MAXUINT;

  g_assert_nonnull (window);
  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  dialog = dy_model_window_choose_target (window, "Infer a Model", "From which table?", "_Infer",
                                          TRUE, target_chosen, &target);
  g_assert_nonnull (dialog);
  connections = g_object_get_data (G_OBJECT (dialog), "connections");
  tables = g_object_get_data (G_OBJECT (dialog), "tables");
  g_assert_true (gtk_drop_down_get_model (connections) == dy_window_get_connections (gui_window));
  for (guint i = 0; i < g_list_model_get_n_items (gtk_drop_down_get_model (connections)); i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (gtk_drop_down_get_model (connections), i);

      if (c == gui_demo_connection ())
        gtk_drop_down_set_selected (connections, i);
    }
  gui_wait_for (tables_listed, tables, "the tables of the connection");
  names = gtk_drop_down_get_model (tables);
  g_assert_true (names == dy_connection_get_tables (gui_demo_connection ()));
  for (guint i = 0; i < g_list_model_get_n_items (names); i++)
    {
      g_autoptr (GtkStringObject) name = g_list_model_get_item (names, i);

      if (g_str_equal (gtk_string_object_get_string (name), "Blog"))
        blog = i;
    }
  g_assert_cmpuint (blog, !=, G_MAXUINT);
  gtk_drop_down_set_selected (tables, blog);
  gui_settle ();
  gui_screenshot ("99-model-choose-target.png");
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  answer (dialog, "choose");
  gui_settle ();
  /* the question goes once answered */
  g_assert_null (dialog);
  g_assert_cmpuint (target.calls, ==, 1);
  g_assert_true (target.connection == gui_demo_connection ());
  g_assert_cmpstr (target.table, ==, "Blog");

  /* without a table: only the connection; Cancel: nothing */
  dialog = dy_model_window_choose_target (window, "Create on", "Where?", "_Create", FALSE,
                                          target_chosen, &target);
  g_assert_null (g_object_get_data (G_OBJECT (dialog), "tables"));
  answer (dialog, "choose");
  gui_settle ();
  g_assert_cmpuint (target.calls, ==, 2);
  g_assert_nonnull (target.connection);
  g_assert_null (target.table);
  dialog = dy_model_window_choose_target (window, "Create on", "Where?", "_Create", FALSE,
                                          target_chosen, &target);
  answer (dialog, "cancel");
  gui_settle ();
  g_assert_cmpuint (target.calls, ==, 2);
  g_free (target.table);
}

static gboolean
not_applying (gpointer data)
{
  return !dy_model_window_get_applying (data);
}

/* The demo connection's answer to OPERATION (REQUEST in JSON), through a backend of its own. */
static json_t *
demo_call (const char *operation, const char *request)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = dy_connection_open_backend (gui_demo_connection (), 0, &error);
  json_auto_t *body = json_loads (request, 0, NULL);
  json_t *response = NULL;

  g_assert_no_error (error);
  g_assert_true (ddb_backend_call (backend, operation, body, NULL, &response, &error));
  g_assert_no_error (error);
  return response;
}

static void
rename_table (DyModel *model, const char *from, const char *to)
{
  DyModelTable *table = dy_model_find_table (model, from);

  g_assert_nonnull (table);
  g_free (table->name);
  table->name = g_strdup (to);
  for (guint i = 0; i < model->entities->len; i++)
    {
      DyModelEntity *e = model->entities->pdata[i];

      if (g_strcmp0 (e->table, from) == 0)
        {
          g_free (e->table);
          e->table = g_strdup (to);
        }
    }
}

static char *
text_view_text (GtkWidget *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* Create on…: the CreateTable request shown first; on the demo connection, whose Orders
 * exists, DynamoDB's ResourceInUseException comes back by name; under another name the table
 * is created with the model's key schema and filled with the generated items, 20 an entity. */
static void
test_create_on (void)
{
  DyModelWindow *window = find_model_window ();
  DyModel *model = (DyModel *) dy_model_window_get_model (window);
  GtkWidget *dialog, *error_dialog;
  g_autofree char *requests = NULL;
  json_auto_t *described = NULL, *counted = NULL;
  json_t *schema;

  g_assert_nonnull (window);
  dialog = dy_model_window_review_create (window, gui_demo_connection ());
  g_assert_nonnull (dialog);
  requests = text_view_text (g_object_get_data (G_OBJECT (dialog), "requests"));
  g_assert_nonnull (strstr (requests, "CreateTable\n"));
  g_assert_nonnull (strstr (requests, "\"TableName\": \"Orders\""));
  g_assert_nonnull (strstr (requests, "\"AttributeName\": \"TenantShard\""));
  gui_screenshot ("9a-model-create-review.png");
  answer (dialog, "create");
  gui_wait_for (not_applying, window, "Create on… to end");
  g_assert_nonnull (strstr (dy_model_window_get_apply_message (window), "ResourceInUseException"));
  error_dialog = g_object_get_data (G_OBJECT (window), "dy-apply-error-dialog");
  g_assert_nonnull (error_dialog);
  gui_screenshot ("9b-model-create-error.png");
  answer (error_dialog, "close");

  rename_table (model, "Orders", "OrdersDraft");
  dialog = dy_model_window_review_create (window, gui_demo_connection ());
  gtk_drop_down_set_selected (g_object_get_data (G_OBJECT (dialog), "items"), 1);
  gtk_spin_button_set_value (g_object_get_data (G_OBJECT (dialog), "count"), 20);
  answer (dialog, "create");
  gui_wait_for (not_applying, window, "Create on… to end");
  g_assert_nonnull (strstr (dy_model_window_get_apply_message (window), "Created 1 table"));
  g_assert_nonnull (strstr (dy_model_window_get_apply_message (window), "Wrote 40 items"));
  described = demo_call ("DescribeTable", "{\"TableName\": \"OrdersDraft\"}");
  schema = json_object_get (json_object_get (described, "Table"), "KeySchema");
  g_assert_cmpstr (json_string_value (json_object_get (json_array_get (schema, 0), "AttributeName")),
                   ==, "TenantShard");
  counted = demo_call ("Scan", "{\"TableName\": \"OrdersDraft\", \"Select\": \"COUNT\"}");
  g_assert_cmpint (json_integer_value (json_object_get (counted, "Count")), ==, 40);
  json_decref (demo_call ("DeleteTable", "{\"TableName\": \"OrdersDraft\"}"));
  rename_table (model, "OrdersDraft", "Orders");
}

static gboolean
other_model_window (gpointer data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (g_application_get_default ()));

  for (GList *l = windows; l != NULL; l = l->next)
    if (DY_IS_MODEL_WINDOW (l->data) && l->data != data
        && dy_model_window_get_model (l->data) != NULL)
      return TRUE;
  return FALSE;
}

/* Infer from Table… on the demo Workspaces: the window has unsaved changes, so the proposed
 * model opens in a window of its own, with the table's entities and their key templates. */
static void
test_infer (void)
{
  DyModelWindow *window = find_model_window ();
  DyModelWindow *inferred = NULL;
  const DyModel *model;
  const DyModelEntity *project;
  GList *windows;

  g_assert_true (dy_model_window_get_modified (window));
  dy_model_window_start_infer (window, gui_demo_connection (), "Workspaces");
  gui_wait_for (not_applying, window, "Infer to end");
  gui_wait_for (other_model_window, window, "the inferred model's window");
  windows = gtk_application_get_windows (GTK_APPLICATION (g_application_get_default ()));
  for (GList *l = windows; l != NULL; l = l->next)
    if (DY_IS_MODEL_WINDOW (l->data) && l->data != window)
      inferred = l->data;
  model = dy_model_window_get_model (inferred);
  g_assert_true (dy_model_window_get_modified (inferred));
  g_assert_null (dy_model_window_get_path (inferred));
  g_assert_nonnull (dy_model_find_table (model, "Workspaces"));
  g_assert_nonnull (dy_model_find_entity (model, "Workspace"));
  project = dy_model_find_entity (model, "Project");
  g_assert_nonnull (project);
  g_assert_cmpstr (dy_model_entity_find_key (project, "EntityRef")->tpl->source, ==,
                   "WS#{workspaceId}");
  g_assert_true (g_str_has_prefix (dy_model_entity_find_key (project, "Detail")->tpl->source,
                                   "PROJ#"));
  g_assert_nonnull (strstr (dy_model_window_get_apply_message (inferred), "Inferred 3 entities"));
  dy_model_window_select (inferred, DY_MODEL_SELECT_ENTITY, 1);
  gui_screenshot ("9c-model-inferred.png");
  gtk_window_destroy (GTK_WINDOW (inferred));
  gui_settle ();
}

static void
test_save (void)
{
  DyModelWindow *window = find_model_window ();
  g_autofree char *path = g_build_filename (g_get_user_cache_dir (), "saved-model.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DyModel) back = NULL;
  g_autoptr (DyCheckReport) report = NULL;
  json_t *written, *read_back;
  const DyModelPattern *p;
  const DyResolution *r, *shown;
  guint last;

  g_assert_nonnull (window);
  g_assert_true (dy_model_window_get_modified (window));
  g_assert_true (dy_model_window_save_to (window, path, &error));
  g_assert_no_error (error);
  g_assert_false (dy_model_window_get_modified (window));
  g_assert_cmpstr (dy_model_window_get_path (window), ==, path);

  back = dy_workbench_read_file (path, &error);
  g_assert_no_error (error);
  written = dy_workbench_write (dy_model_window_get_model (window));
  read_back = dy_workbench_write (back);
  g_assert_true (json_equal (written, read_back));
  json_decref (written);
  json_decref (read_back);
  last = back->patterns->len - 1;
  p = back->patterns->pdata[last];
  g_assert_cmpstr (p->name, ==, "orders of customer 42, newest first");
  g_assert_cmpint (p->order, ==, DY_ORDER_DESCENDING);
  g_assert_cmpstr (g_hash_table_lookup (p->examples, "customerId"), ==, "42");
  report = dy_model_check (back);
  r = report->resolutions->pdata[last];
  shown = dy_model_window_get_report (window)->resolutions->pdata[last];
  g_assert_cmpstr (r->key_condition, ==, shown->key_condition);

  /* a change not saved: closing asks, Discard closes */
  {
    GtkWindow *weak = GTK_WINDOW (window);
    GList *toplevels;
    AdwMessageDialog *dialog = NULL;

    dy_model_window_select (window, DY_MODEL_SELECT_PATTERN, last);
    set_text (window, "name", "renamed");
    g_assert_true (dy_model_window_get_modified (window));
    g_object_add_weak_pointer (G_OBJECT (weak), (gpointer *) &weak);
    gtk_window_close (GTK_WINDOW (window));
    gui_settle ();
    g_assert_nonnull (weak);
    toplevels = gtk_window_list_toplevels ();
    for (GList *l = toplevels; l != NULL; l = l->next)
      if (ADW_IS_MESSAGE_DIALOG (l->data))
        dialog = l->data;
    g_list_free (toplevels);
    g_assert_nonnull (dialog);
    gui_screenshot ("98-model-close-prompt.png");
    answer (GTK_WIDGET (dialog), "discard");
    gui_settle ();
    g_assert_null (weak);
    g_assert_null (find_model_window ());
  }
  g_unlink (path);
}

/* The texts of the sidebar's flag list, one line a label. */
static char *
flags_text (DyModelWindow *window)
{
  GString *text = g_string_new (NULL);
  GtkWidget *list = GTK_WIDGET (dy_model_window_get_flags_list (window));

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *child = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row));

      if (GTK_IS_LABEL (child))
        g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (child)));
      else
        for (GtkWidget *l = gtk_widget_get_first_child (child); l != NULL;
             l = gtk_widget_get_next_sibling (l))
          g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (l)));
    }
  return g_string_free (text, FALSE);
}

/* A plain Workbench model, as AWS's tool writes it: its flag (a partition key of 3 values over
 * the sample items) and the checks that need key templates or patterns, listed as not checked,
 * in the order and words of dy_model_check's report. */
static void
test_plain (void)
{
  const char *path = DYNOSCOPE_SOURCE_DIR "/tests/model/data/workbench/tickets-status-pk.json";
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) expected = g_string_new (NULL);
  g_autofree char *shown = NULL;
  const DyCheckReport *report;
  DyModelWindow *window;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.model", NULL));
  window = find_model_window ();
  g_assert_true (dy_model_window_load (window, path, &error));
  g_assert_no_error (error);
  gui_settle ();
  report = dy_model_window_get_report (window);
  g_assert_cmpuint (report->flags->len, >, 0);
  g_assert_cmpuint (report->skipped->len, >, 0);
  for (guint i = 0; i < report->flags->len; i++)
    {
      const DyFlag *f = report->flags->pdata[i];

      g_string_append_printf (expected, "%s\n%s\n", dy_flag_kind_name (f->kind), f->message);
    }
  g_string_append (expected, "Not checked\n");
  for (guint i = 0; i < report->skipped->len; i++)
    {
      const DyFlag *f = report->skipped->pdata[i];

      g_string_append_printf (expected, "%s\n%s\n", dy_flag_kind_name (f->kind), f->message);
    }
  shown = flags_text (window);
  g_assert_cmpstr (shown, ==, expected->str);
  g_assert_nonnull (strstr (shown, "the partition key status takes 3 values"));
  gui_screenshot ("99-model-plain-workbench.png");
  gtk_window_destroy (GTK_WINDOW (window));
  gui_settle ();
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  g_test_add_func ("/model-gui/open", test_open);
  g_test_add_func ("/model-gui/seeds", test_seeds);
  g_test_add_func ("/model-gui/edit", test_edit);
  g_test_add_func ("/model-gui/target", test_target);
  g_test_add_func ("/model-gui/create-on", test_create_on);
  g_test_add_func ("/model-gui/infer", test_infer);
  g_test_add_func ("/model-gui/save", test_save);
  g_test_add_func ("/model-gui/plain", test_plain);
  return gui_run_tests ();
}
