/* dy-table-view.c: a table tab: filter row, Query or Scan, paged results, item collections. */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "app/dy-format.h"
#include "app/dy-group.h"
#include "app/dy-item.h"
#include "app/dy-query.h"
#include "app/dy-table-view.h"

typedef struct {
  char *name; /* NULL: the table */
  char *pk;
  DdbType pk_type;
  char *sk; /* NULL: no sort key */
  DdbType sk_type;
} KeyInfo;

struct _DyTableView {
  GtkBox parent_instance;

  GtkDropDown *index_dropdown;
  GtkLabel *pk_label;
  GtkEntry *pk_entry;
  GtkLabel *sk_label;
  GtkDropDown *sk_op_dropdown;
  GtkEntry *sk_entry;
  GtkEntry *sk_entry2;
  GtkToggleButton *desc_toggle;
  GtkEntry *filter_attr_entry;
  GtkDropDown *filter_op_dropdown;
  GtkDropDown *filter_type_dropdown;
  GtkEntry *filter_value_entry;
  GtkSpinButton *limit_spin;
  GtkLabel *mode_label;
  GtkButton *more_button;
  GtkRevealer *request_revealer;
  GtkTextView *request_view;
  GtkRevealer *error_revealer;
  GtkLabel *error_label;
  GtkColumnView *column_view;
  DyInspector *inspector;
  GtkLabel *footer_label;
  GtkSpinner *spinner;

  DyConnection *connection;
  char *table_name;
  GPtrArray *keys; /* KeyInfo*: [0] the table, then its indexes */
  GListStore *items;
  GtkSingleSelection *selection;
  GHashTable *columns; /* attribute name -> GtkColumnViewColumn (owned by the view) */
  GtkColumnViewColumn *tree_column;
  json_t *request;  /* of the current results, without ExclusiveStartKey */
  json_t *last_key; /* LastEvaluatedKey of the last page */
  char *operation;
  GCancellable *cancellable;
  gboolean ready;
  gboolean running;
  gboolean grouped;
  guint64 scanned;
  guint pages;
  guint requests;
  double capacity;
};

G_DEFINE_FINAL_TYPE (DyTableView, dy_table_view, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_TABLE_NAME,
  PROP_GROUPED,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
key_info_free (KeyInfo *info)
{
  g_free (info->name);
  g_free (info->pk);
  g_free (info->sk);
  g_free (info);
}

static const KeyInfo *
current_keys (DyTableView *self)
{
  guint i = gtk_drop_down_get_selected (self->index_dropdown);

  if (self->keys->len == 0)
    return NULL;
  return self->keys->pdata[i < self->keys->len ? i : 0];
}

static void
fill_spec (DyTableView *self, DyQuerySpec *spec)
{
  const KeyInfo *keys = current_keys (self);
  static const DdbType filter_types[] = { DDB_TYPE_S, DDB_TYPE_N, DDB_TYPE_BOOL };
  guint type = gtk_drop_down_get_selected (self->filter_type_dropdown);

  memset (spec, 0, sizeof *spec);
  spec->table_name = self->table_name;
  if (keys == NULL)
    return;
  spec->index_name = keys->name;
  spec->pk_name = keys->pk;
  spec->pk_type = keys->pk_type;
  spec->sk_name = keys->sk;
  spec->sk_type = keys->sk_type;
  spec->pk_value = gtk_editable_get_text (GTK_EDITABLE (self->pk_entry));
  spec->sk_op = (DySortOp) gtk_drop_down_get_selected (self->sk_op_dropdown);
  spec->sk_value = gtk_editable_get_text (GTK_EDITABLE (self->sk_entry));
  spec->sk_value2 = gtk_editable_get_text (GTK_EDITABLE (self->sk_entry2));
  spec->descending = gtk_toggle_button_get_active (self->desc_toggle);
  spec->filter_attr = gtk_editable_get_text (GTK_EDITABLE (self->filter_attr_entry));
  spec->filter_op = (DyFilterOp) gtk_drop_down_get_selected (self->filter_op_dropdown);
  spec->filter_type = filter_types[MIN (type, G_N_ELEMENTS (filter_types) - 1)];
  spec->filter_value = gtk_editable_get_text (GTK_EDITABLE (self->filter_value_entry));
  spec->limit = (guint) gtk_spin_button_get_value_as_int (self->limit_spin);
}

static void
set_request_text (DyTableView *self, json_t *request)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->request_view);
  g_autofree char *text = json_dumps (request, JSON_INDENT (2));

  gtk_text_buffer_set_text (buffer, text, -1);
}

static void
show_error (DyTableView *self, const char *message)
{
  if (message != NULL)
    gtk_label_set_text (self->error_label, message);
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

static void
update_actions (DyTableView *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.run", self->ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.load-more",
                                 self->ready && !self->running && self->last_key != NULL);
}

/* Says before running what will run: a Query of one partition or a Scan of everything. */
static void
update_preview (DyTableView *self)
{
  DyQuerySpec spec;
  g_autoptr (GError) error = NULL;
  json_t *request;
  const KeyInfo *keys = current_keys (self);
  g_autofree char *text = NULL;
  DySortOp op;

  if (keys == NULL)
    return;
  op = (DySortOp) gtk_drop_down_get_selected (self->sk_op_dropdown);
  gtk_widget_set_visible (GTK_WIDGET (self->sk_entry), keys->sk != NULL && op != DY_SORT_NONE);
  gtk_widget_set_visible (GTK_WIDGET (self->sk_entry2), keys->sk != NULL && op == DY_SORT_BETWEEN);
  fill_spec (self, &spec);
  if (dy_query_spec_is_query (&spec))
    /* TRANSLATORS: %s is the partition key attribute's name */
    text = g_strdup_printf (_("Will Query one partition (%s given)"), keys->pk);
  else
    text = g_strdup (_("Will Scan the whole table: no partition key value"));
  gtk_label_set_text (self->mode_label, text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sk_op_dropdown), keys->sk != NULL && dy_query_spec_is_query (&spec));
  gtk_widget_set_sensitive (GTK_WIDGET (self->desc_toggle), dy_query_spec_is_query (&spec));

  if (self->running)
    return;
  request = dy_query_build (&spec, &error);
  if (request == NULL)
    {
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->request_view), error->message, -1);
      return;
    }
  set_request_text (self, request);
  json_decref (request);
}

static void
update_key_labels (DyTableView *self)
{
  const KeyInfo *keys = current_keys (self);
  g_autofree char *pk = NULL;

  if (keys == NULL)
    return;
  pk = g_strdup_printf ("%s =", keys->pk);
  gtk_label_set_text (self->pk_label, pk);
  gtk_label_set_text (self->sk_label, keys->sk != NULL ? keys->sk : _("no sort key"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->sk_label), keys->sk != NULL);
  update_preview (self);
}

static void
update_footer (DyTableView *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  g_autofree char *text = NULL;

  if (self->requests == 0)
    text = g_strdup (_("Nothing run yet"));
  else
    /* TRANSLATORS: the footer of a table view */
    text = g_strdup_printf (_("%u items shown · %" G_GUINT64_FORMAT " scanned · %u pages · "
                              "%u requests · %g capacity units%s"),
                            shown, self->scanned, self->pages, self->requests, self->capacity,
                            self->last_key != NULL ? _(" · more pages remain") : "");
  gtk_label_set_text (self->footer_label, text);
}

static void
set_running (DyTableView *self, gboolean running)
{
  if (self->running == running)
    return;
  self->running = running;
  gtk_spinner_set_spinning (self->spinner, running);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* Grid cells. */

static GObject *
row_object (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  return row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  const char *name = g_object_get_data (G_OBJECT (factory), "attribute");
  g_autoptr (GObject) object = row_object (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  const DdbValue *value = NULL;
  g_autofree char *text = NULL;

  if (DY_IS_ITEM (object))
    value = dy_item_get_attribute (DY_ITEM (object), name);
  if (value != NULL)
    text = dy_format_value (value);
  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
  gtk_widget_set_tooltip_text (label, value != NULL ? ddb_type_name (value->type) : NULL);
}

static void
setup_tree_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (list_item, expander);
}

static void
bind_tree_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  DyTableView *self = user_data;
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  g_autoptr (GObject) object = row_object (list_item);
  g_autofree char *text = NULL;

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander),
                                  gtk_list_item_get_item (list_item));
  if (DY_IS_GROUP (object))
    {
      DyGroup *group = DY_GROUP (object);
      g_autofree char *size = dy_format_size (dy_group_get_total_size (group));
      guint n = dy_group_get_n_items (group);

      /* TRANSLATORS: an item collection: its partition key value, item count and size */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s — %u item, %s",
                                           "%s — %u items, %s", n),
                              dy_group_get_key_text (group), n, size);
      gtk_widget_add_css_class (label, "heading");
    }
  else if (DY_IS_ITEM (object))
    {
      const KeyInfo *keys = current_keys (self);
      const DdbValue *sk = keys != NULL && keys->sk != NULL
                             ? dy_item_get_attribute (DY_ITEM (object), keys->sk) : NULL;

      text = sk != NULL ? dy_format_key (sk) : g_strdup ("");
      gtk_widget_remove_css_class (label, "heading");
    }
  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
}

/* A width that shows the column's values whole when they are short: GtkColumnView sizes
 * columns by their cells' minimum width, which for ellipsizing labels is one character. */
static int
column_width (const char *name, GPtrArray *items)
{
  glong chars = g_utf8_strlen (name, -1) + 2;

  for (guint i = 0; items != NULL && i < MIN (items->len, 100u); i++)
    {
      const DdbValue *value = dy_item_get_attribute (items->pdata[i], name);
      g_autofree char *text = value != NULL ? dy_format_value (value) : NULL;

      if (text != NULL)
        chars = MAX (chars, g_utf8_strlen (text, -1));
    }
  return CLAMP ((int) chars * 8 + 24, 72, 360);
}

static void
add_column (DyTableView *self, const char *name, GPtrArray *items)
{
  GtkListItemFactory *factory;
  GtkColumnViewColumn *column;

  if (g_hash_table_contains (self->columns, name))
    return;
  factory = gtk_signal_list_item_factory_new ();
  g_object_set_data_full (G_OBJECT (factory), "attribute", g_strdup (name), g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), NULL);
  column = gtk_column_view_column_new (name, factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_fixed_width (column, column_width (name, items));
  gtk_column_view_append_column (self->column_view, column);
  g_hash_table_insert (self->columns, g_strdup (name), column);
}

static void
remove_columns (DyTableView *self)
{
  GHashTableIter iter;
  gpointer column;

  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, NULL, &column))
    gtk_column_view_remove_column (self->column_view, column);
  g_hash_table_remove_all (self->columns);
}

static void
add_key_columns (DyTableView *self, GPtrArray *items)
{
  const KeyInfo *table = self->keys->pdata[0];
  const KeyInfo *keys = current_keys (self);

  add_column (self, table->pk, items);
  if (table->sk != NULL)
    add_column (self, table->sk, items);
  add_column (self, keys->pk, items);
  if (keys->sk != NULL)
    add_column (self, keys->sk, items);
}

/* Rows. */

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  if (DY_IS_GROUP (item))
    return g_object_ref (dy_group_get_items (DY_GROUP (item)));
  return NULL;
}

static GListModel *
build_groups (DyTableView *self)
{
  const KeyInfo *keys = current_keys (self);
  GListStore *groups = g_list_store_new (DY_TYPE_GROUP);
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (G_LIST_MODEL (self->items), i);
      const DdbValue *pk = dy_item_get_attribute (item, keys->pk);
      g_autofree char *text = pk != NULL ? dy_format_key (pk) : g_strdup (_("(no partition key)"));
      DyGroup *group = g_hash_table_lookup (by_key, text);

      if (group == NULL)
        {
          group = dy_group_new (text);
          g_hash_table_insert (by_key, g_steal_pointer (&text), group);
          g_list_store_append (groups, group);
          g_object_unref (group);
        }
      dy_group_add (group, item);
    }
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (groups)); i++)
    {
      g_autoptr (DyGroup) group = g_list_model_get_item (G_LIST_MODEL (groups), i);

      dy_group_sort (group, keys->sk, gtk_toggle_button_get_active (self->desc_toggle));
    }
  return G_LIST_MODEL (groups);
}

static void
rebuild_rows (DyTableView *self)
{
  GtkTreeListModel *tree;
  GListModel *root;

  if (self->grouped && self->ready)
    root = build_groups (self);
  else
    root = g_object_ref (G_LIST_MODEL (self->items));
  tree = gtk_tree_list_model_new (root, FALSE, FALSE, create_children, NULL, NULL);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (tree));
  g_object_unref (tree);
  gtk_column_view_column_set_visible (self->tree_column, self->grouped);
  /* The first collection opens at once, so grouping shows items, not only headings. */
  if (self->grouped && g_list_model_get_n_items (G_LIST_MODEL (tree)) > 0)
    {
      g_autoptr (GtkTreeListRow) first = gtk_tree_list_model_get_row (tree, 0);

      gtk_tree_list_row_set_expanded (first, TRUE);
    }
}

static char *
item_title (DyTableView *self, DyItem *item)
{
  const KeyInfo *table = self->keys->pdata[0];
  const DdbValue *pk = dy_item_get_attribute (item, table->pk);
  const DdbValue *sk = table->sk != NULL ? dy_item_get_attribute (item, table->sk) : NULL;
  g_autofree char *pk_text = pk != NULL ? dy_format_key (pk) : NULL;
  g_autofree char *sk_text = sk != NULL ? dy_format_key (sk) : NULL;

  if (sk_text != NULL)
    return g_strdup_printf ("%s · %s", pk_text, sk_text);
  return g_strdup (pk_text != NULL ? pk_text : "");
}

static void
selection_changed (DyTableView *self)
{
  g_autoptr (GObject) object = NULL;
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);

  if (row != NULL)
    object = gtk_tree_list_row_get_item (row);
  if (DY_IS_ITEM (object))
    {
      g_autofree char *title = item_title (self, DY_ITEM (object));

      dy_inspector_set_item (self->inspector, DY_ITEM (object), title);
    }
  else
    dy_inspector_set_item (self->inspector, NULL, NULL);
}

/* Running. */

typedef struct {
  json_t *response;
  GPtrArray *items; /* DyItem */
  GPtrArray *names; /* attribute names in first-seen order */
} Page;

static void
page_free (Page *page)
{
  json_decref (page->response);
  g_ptr_array_unref (page->items);
  g_ptr_array_unref (page->names);
  g_free (page);
}

typedef struct {
  char *operation;
  json_t *request;
} PageRequest;

static void
page_request_free (PageRequest *data)
{
  g_free (data->operation);
  json_decref (data->request);
  g_free (data);
}

/* Parsing items and collecting their attribute names is done here, off the main thread: a
 * 1 MB page can hold thousands of items. */
static void
page_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyTableView *self = source;
  PageRequest *data = task_data;
  GError *error = NULL;
  json_t *response = dy_connection_call_sync (self->connection, data->operation, data->request,
                                              cancellable, &error);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  Page *page;
  json_t *json;
  size_t i;

  if (response == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  page = g_new0 (Page, 1);
  page->response = response;
  page->items = g_ptr_array_new_with_free_func (g_object_unref);
  page->names = g_ptr_array_new_with_free_func (g_free);
  json_array_foreach (json_object_get (response, "Items"), i, json)
    {
      DyItem *item = dy_item_new_from_json (json, &error);
      const DdbValue *value;

      if (item == NULL)
        {
          page_free (page);
          g_task_return_error (task, error);
          return;
        }
      value = dy_item_get_value (item);
      for (guint a = 0; a < ddb_value_map_size (value); a++)
        {
          const char *name = ddb_value_map_nth (value, a)->name;

          if (!g_hash_table_contains (seen, name))
            {
              char *copy = g_strdup (name);

              g_hash_table_add (seen, copy);
              g_ptr_array_add (page->names, copy);
            }
        }
      g_ptr_array_add (page->items, item);
    }
  g_task_return_pointer (task, page, (GDestroyNotify) page_free);
}

static void
page_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyTableView *self = DY_TABLE_VIEW (source);
  g_autoptr (GError) error = NULL;
  Page *page = g_task_propagate_pointer (G_TASK (result), &error);
  json_t *capacity;
  json_t *last_key;

  if (page == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  set_running (self, FALSE);
  if (page == NULL)
    {
      show_error (self, error->message);
      update_footer (self);
      return;
    }
  show_error (self, NULL);
  add_key_columns (self, page->items);
  for (guint i = 0; i < page->names->len; i++)
    add_column (self, page->names->pdata[i], page->items);
  g_list_store_splice (self->items, g_list_model_get_n_items (G_LIST_MODEL (self->items)), 0,
                       page->items->pdata, page->items->len);
  self->pages++;
  self->scanned += json_integer_value (json_object_get (page->response, "ScannedCount"));
  capacity = json_object_get (json_object_get (page->response, "ConsumedCapacity"),
                              "CapacityUnits");
  self->capacity += json_number_value (capacity);
  last_key = json_object_get (page->response, "LastEvaluatedKey");
  g_clear_pointer (&self->last_key, json_decref);
  self->last_key = last_key != NULL ? json_incref (last_key) : NULL;
  if (self->grouped)
    rebuild_rows (self);
  update_actions (self);
  update_footer (self);
  page_free (page);
}

static void
send_page (DyTableView *self, json_t *request)
{
  g_autoptr (GTask) task = NULL;
  PageRequest *data = g_new0 (PageRequest, 1);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  data->operation = g_strdup (self->operation);
  data->request = json_deep_copy (request);
  set_request_text (self, request);
  self->requests++;
  set_running (self, TRUE);
  task = g_task_new (self, self->cancellable, page_done, NULL);
  g_task_set_source_tag (task, send_page);
  g_task_set_task_data (task, data, (GDestroyNotify) page_request_free);
  g_task_run_in_thread (task, page_thread);
}

static void
run_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  g_autoptr (GError) error = NULL;
  DyQuerySpec spec;
  json_t *request;

  if (!self->ready)
    return;
  fill_spec (self, &spec);
  request = dy_query_build (&spec, &error);
  if (request == NULL)
    {
      show_error (self, error->message);
      return;
    }
  g_clear_pointer (&self->request, json_decref);
  g_clear_pointer (&self->last_key, json_decref);
  self->request = request;
  g_free (self->operation);
  self->operation = g_strdup (dy_query_spec_operation (&spec));
  self->scanned = 0;
  self->pages = 0;
  self->requests = 0;
  self->capacity = 0;
  g_list_store_remove_all (self->items);
  remove_columns (self);
  rebuild_rows (self);
  send_page (self, request);
  update_footer (self);
}

static void
load_more_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  json_t *request;

  if (self->running || self->last_key == NULL || self->request == NULL)
    return;
  request = json_deep_copy (self->request);
  json_object_set (request, "ExclusiveStartKey", self->last_key);
  send_page (self, request);
  json_decref (request);
  update_footer (self);
}

static void
focus_filter_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->pk_entry));
}

static void
copy_request_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  g_autofree char *text = dy_table_view_dup_request_text (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

/* DescribeTable: which keys the filter row offers. */

static gboolean
attribute_type (json_t *definitions, const char *name, DdbType *type)
{
  size_t i;
  json_t *def;

  json_array_foreach (definitions, i, def)
    if (g_strcmp0 (json_string_value (json_object_get (def, "AttributeName")), name) == 0)
      return ddb_type_from_name (json_string_value (json_object_get (def, "AttributeType")),
                                 type);
  return FALSE;
}

static KeyInfo *
key_info_new (const char *name, json_t *schema, json_t *definitions)
{
  KeyInfo *info = g_new0 (KeyInfo, 1);
  size_t i;
  json_t *element;

  info->name = g_strdup (name);
  json_array_foreach (schema, i, element)
    {
      const char *attr = json_string_value (json_object_get (element, "AttributeName"));
      const char *kind = json_string_value (json_object_get (element, "KeyType"));

      if (g_strcmp0 (kind, "HASH") == 0)
        {
          info->pk = g_strdup (attr);
          attribute_type (definitions, attr, &info->pk_type);
        }
      else if (g_strcmp0 (kind, "RANGE") == 0)
        {
          info->sk = g_strdup (attr);
          attribute_type (definitions, attr, &info->sk_type);
        }
    }
  return info;
}

static void
add_indexes (DyTableView *self, GtkStringList *choices, json_t *indexes, json_t *definitions,
             const char *kind)
{
  size_t i;
  json_t *index;

  json_array_foreach (indexes, i, index)
    {
      const char *name = json_string_value (json_object_get (index, "IndexName"));
      KeyInfo *info = key_info_new (name, json_object_get (index, "KeySchema"), definitions);
      g_autofree char *label = NULL;

      if (info->pk == NULL)
        {
          key_info_free (info);
          continue;
        }
      /* TRANSLATORS: an index in the index picker: kind (GSI, LSI), name, its keys */
      label = g_strdup_printf (_("%s %s (%s%s%s)"), kind, name, info->pk,
                               info->sk != NULL ? ", " : "", info->sk != NULL ? info->sk : "");
      g_ptr_array_add (self->keys, info);
      gtk_string_list_append (choices, label);
    }
}

static void
describe_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyTableView) self = user_data;
  g_autoptr (GError) error = NULL;
  json_t *response = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_t *table;
  json_t *definitions;
  KeyInfo *info;
  GtkStringList *choices;
  g_autofree char *label = NULL;

  if (response == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error->message);
      return;
    }
  table = json_object_get (response, "Table");
  definitions = json_object_get (table, "AttributeDefinitions");
  info = key_info_new (NULL, json_object_get (table, "KeySchema"), definitions);
  if (info->pk == NULL)
    {
      key_info_free (info);
      json_decref (response);
      show_error (self, _("DescribeTable gave no key schema"));
      return;
    }
  g_ptr_array_add (self->keys, info);
  choices = gtk_string_list_new (NULL);
  /* TRANSLATORS: the table itself in the index picker, with its keys */
  label = g_strdup_printf (_("Table (%s%s%s)"), info->pk, info->sk != NULL ? ", " : "",
                           info->sk != NULL ? info->sk : "");
  gtk_string_list_append (choices, label);
  add_indexes (self, choices, json_object_get (table, "GlobalSecondaryIndexes"), definitions,
               "GSI");
  add_indexes (self, choices, json_object_get (table, "LocalSecondaryIndexes"), definitions,
               "LSI");
  gtk_drop_down_set_model (self->index_dropdown, G_LIST_MODEL (choices));
  g_object_unref (choices);
  json_decref (response);
  self->ready = TRUE;
  update_key_labels (self);
  update_actions (self);
}

static void
index_changed (DyTableView *self)
{
  update_key_labels (self);
}

/* GObject. */

static void
dy_table_view_constructed (GObject *object)
{
  DyTableView *self = DY_TABLE_VIEW (object);
  json_t *request = json_pack ("{ss}", "TableName", self->table_name);

  G_OBJECT_CLASS (dy_table_view_parent_class)->constructed (object);
  dy_connection_call_async (self->connection, "DescribeTable", request, self->cancellable,
                            describe_done, g_object_ref (self));
  json_decref (request);
  update_actions (self);
  update_footer (self);
}

static void
dy_table_view_dispose (GObject *object)
{
  DyTableView *self = DY_TABLE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_TABLE_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree_column);
  G_OBJECT_CLASS (dy_table_view_parent_class)->dispose (object);
}

static void
dy_table_view_finalize (GObject *object)
{
  DyTableView *self = DY_TABLE_VIEW (object);

  g_clear_object (&self->connection);
  g_free (self->table_name);
  g_free (self->operation);
  g_ptr_array_unref (self->keys);
  g_clear_object (&self->items);
  g_hash_table_unref (self->columns);
  g_clear_pointer (&self->request, json_decref);
  g_clear_pointer (&self->last_key, json_decref);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (dy_table_view_parent_class)->finalize (object);
}

static void
dy_table_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DyTableView *self = DY_TABLE_VIEW (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, self->connection);
      break;
    case PROP_TABLE_NAME:
      g_value_set_string (value, self->table_name);
      break;
    case PROP_GROUPED:
      g_value_set_boolean (value, self->grouped);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_table_view_set_property (GObject *object, guint prop_id, const GValue *value,
                            GParamSpec *pspec)
{
  DyTableView *self = DY_TABLE_VIEW (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      self->connection = g_value_dup_object (value);
      break;
    case PROP_TABLE_NAME:
      self->table_name = g_value_dup_string (value);
      break;
    case PROP_GROUPED:
      if (self->grouped != g_value_get_boolean (value))
        {
          self->grouped = g_value_get_boolean (value);
          rebuild_rows (self);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_table_view_class_init (DyTableViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = dy_table_view_constructed;
  object_class->dispose = dy_table_view_dispose;
  object_class->finalize = dy_table_view_finalize;
  object_class->get_property = dy_table_view_get_property;
  object_class->set_property = dy_table_view_set_property;

  properties[PROP_CONNECTION] =
    g_param_spec_object ("connection", NULL, NULL, DY_TYPE_CONNECTION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TABLE_NAME] =
    g_param_spec_string ("table-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GROUPED] =
    g_param_spec_boolean ("grouped", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (DY_TYPE_INSPECTOR);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-table-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DyTableView, index_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, pk_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, pk_entry);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, sk_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, sk_op_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, sk_entry);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, sk_entry2);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, desc_toggle);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, filter_attr_entry);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, filter_op_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, filter_type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, filter_value_entry);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, limit_spin);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, mode_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, more_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, request_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, request_view);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, error_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, column_view);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, inspector);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, footer_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, spinner);
  gtk_widget_class_bind_template_callback (widget_class, update_preview);
  gtk_widget_class_bind_template_callback (widget_class, index_changed);

  gtk_widget_class_install_action (widget_class, "view.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "view.load-more", NULL, load_more_action);
  gtk_widget_class_install_action (widget_class, "view.focus-filter", NULL, focus_filter_action);
  gtk_widget_class_install_action (widget_class, "view.copy-request", NULL, copy_request_action);
  gtk_widget_class_install_property_action (widget_class, "view.group", "grouped");
}

static void
dy_table_view_init (DyTableView *self)
{
  GtkListItemFactory *factory;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) key_info_free);
  self->items = g_list_store_new (DY_TYPE_ITEM);
  self->columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->cancellable = g_cancellable_new ();
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (selection_changed), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_tree_cell), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_tree_cell), self);
  self->tree_column = gtk_column_view_column_new (_("Collection"), factory);
  gtk_column_view_column_set_resizable (self->tree_column, TRUE);
  gtk_column_view_column_set_fixed_width (self->tree_column, 300);
  gtk_column_view_column_set_visible (self->tree_column, FALSE);
  gtk_column_view_append_column (self->column_view, self->tree_column);
  rebuild_rows (self);
}

GtkWidget *
dy_table_view_new (DyConnection *connection, const char *table_name)
{
  return g_object_new (DY_TYPE_TABLE_VIEW, "connection", connection, "table-name", table_name,
                       NULL);
}

DyConnection *
dy_table_view_get_connection (DyTableView *self)
{
  return self->connection;
}

const char *
dy_table_view_get_table_name (DyTableView *self)
{
  return self->table_name;
}

gboolean
dy_table_view_get_ready (DyTableView *self)
{
  return self->ready;
}

gboolean
dy_table_view_get_running (DyTableView *self)
{
  return self->running;
}

gboolean
dy_table_view_get_can_load_more (DyTableView *self)
{
  return self->last_key != NULL;
}

gboolean
dy_table_view_get_grouped (DyTableView *self)
{
  return self->grouped;
}

GListModel *
dy_table_view_get_items (DyTableView *self)
{
  return G_LIST_MODEL (self->items);
}

GtkSelectionModel *
dy_table_view_get_rows (DyTableView *self)
{
  return GTK_SELECTION_MODEL (self->selection);
}

DyInspector *
dy_table_view_get_inspector (DyTableView *self)
{
  return self->inspector;
}

void
dy_table_view_get_stats (DyTableView *self, guint64 *scanned, guint *pages, guint *requests,
                         double *capacity)
{
  *scanned = self->scanned;
  *pages = self->pages;
  *requests = self->requests;
  *capacity = self->capacity;
}

char *
dy_table_view_dup_request_text (DyTableView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->request_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}
