/* dy-table-view.c: a table tab: the class (its properties, construction and public getters)
 * and DescribeTable, which tells the filter row the keys and fills the description popover.
 * The filter row, the results, the grid's columns and its order are the other
 * dy-table-view-*.c files (see dy-table-view-private.h). */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include <glib/gi18n.h>

#include "app/common/dy-copy-as.h"
#include "app/common/dy-describe.h"
#include "app/common/dy-error-bar.h"
#include "app/browser/dy-expr-builder.h"
#include "app/browser/dy-table-view-private.h"

G_DEFINE_FINAL_TYPE (DyTableView, dy_table_view, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_TABLE_NAME,
  PROP_GROUPED,
  PROP_RUNNING,
  PROP_SHOW_REQUEST,
  PROP_MISSING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
dy_table_view_set_running (DyTableView *self, gboolean running)
{
  if (self->running == running)
    return;
  self->running = running;
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), running);
  dy_table_view_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* DescribeTable and DescribeTimeToLive: the keys, and the description popover. */

static void
fill_description (DyTableView *self)
{
  g_autoptr (GPtrArray) rows = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->describe_grid))) != NULL)
    gtk_grid_remove (self->describe_grid, child);
  if (self->description == NULL)
    return;
  rows = dy_describe_rows (self->description, self->ttl, self->ttl_error);
  for (guint i = 0; i < rows->len; i++)
    {
      DyDescribeRow *row = rows->pdata[i];
      GtkWidget *label = gtk_label_new (row->label);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      if (row->heading)
        {
          gtk_widget_add_css_class (label, "heading");
          gtk_widget_set_margin_top (label, 8);
          gtk_grid_attach (self->describe_grid, label, 0, (int) i, 2, 1);
        }
      else
        {
          GtkWidget *value = gtk_label_new (row->value);

          gtk_widget_add_css_class (label, "dim-label");
          gtk_label_set_xalign (GTK_LABEL (value), 0);
          gtk_label_set_selectable (GTK_LABEL (value), TRUE);
          gtk_label_set_wrap (GTK_LABEL (value), TRUE);
          gtk_label_set_max_width_chars (GTK_LABEL (value), 48);
          gtk_grid_attach (self->describe_grid, label, 0, (int) i, 1, 1);
          gtk_grid_attach (self->describe_grid, value, 1, (int) i, 1, 1);
        }
    }
}

static void
ttl_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyTableView) self = user_data;
  g_autoptr (GError) error = NULL;
  json_t *response = dy_connection_call_finish (DY_CONNECTION (source), result, &error);

  if (response == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* Some servers have no TTL: the rest of the description stands. */
      self->ttl_error = g_strdup (error->message);
    }
  else
    {
      self->ttl = json_incref (json_object_get (response, "TimeToLiveDescription"));
      if (self->ttl == NULL)
        self->ttl = json_object ();
      json_decref (response);
    }
  fill_description (self);
}

static void
describe_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyTableView) self = user_data;
  g_autoptr (GError) error = NULL;
  json_t *response = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_t *table;
  json_t *request;

  if (response == NULL)
    {
      if (g_error_matches (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND))
        {
          /* TRANSLATORS: %s is a table's name, the second %s why DescribeTable failed */
          g_autofree char *message = g_strdup_printf (
              _("Table %s does not exist on this connection (any more): %s"), self->table_name,
              error->message);

          self->missing = TRUE;
          dy_table_view_show_error (self, message);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MISSING]);
          return;
        }
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        dy_table_view_show_failure (self, error, DY_TABLE_VIEW_RETRY_DESCRIBE);
      return;
    }
  dy_table_view_show_error (self, NULL);
  table = json_object_get (response, "Table");
  if (!dy_table_view_set_key_schema (self, table))
    {
      json_decref (response);
      dy_table_view_show_error (self, _("DescribeTable gave no key schema"));
      return;
    }
  self->description = json_incref (table);
  /* The inspector asked DescribeTable for itself when the tab opened (to stage edits); when
   * that failed too, this answer (Retry's, say) is the one it waits for. */
  if (!dy_inspector_get_has_key_schema (self->inspector))
    {
      const DyTableViewKeys *keys = self->keys->pdata[0];

      dy_inspector_set_key_schema (self->inspector, keys->pk, keys->pk_type, keys->sk,
                                   keys->sk_type);
    }
  fill_description (self);
  request = json_pack ("{ss}", "TableName", self->table_name);
  dy_connection_call_async (self->connection, "DescribeTimeToLive", request,
                            self->describe_cancellable, ttl_done, g_object_ref (self));
  json_decref (request);
  json_decref (response);
  self->ready = TRUE;
  dy_table_view_update_key_labels (self);
  dy_table_view_update_actions (self);
  dy_table_view_apply_pending_state (self);
}

/* GObject. */

static void
request_shown_changed (DyTableView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_REQUEST]);
}

static void
start_describe (DyTableView *self)
{
  json_t *request = json_pack ("{ss}", "TableName", self->table_name);

  dy_connection_call_async (self->connection, "DescribeTable", request,
                            self->describe_cancellable, describe_done, g_object_ref (self));
  json_decref (request);
}

/* What failed runs again as it was sent, the view as it was: DescribeTable, or the request of
 * the Run, Load More or Load All, the rows shown kept (dy_table_view_rerun). The filter row
 * plays no part: what the user typed since stays for the next Run. */
static void
run_again (DyTableView *self)
{
  DyTableViewRetry retry = self->retry;

  if (retry == DY_TABLE_VIEW_RETRY_NONE || self->running)
    return;
  dy_table_view_show_error (self, NULL);
  if (retry == DY_TABLE_VIEW_RETRY_DESCRIBE)
    start_describe (self);
  else
    dy_table_view_rerun (self, retry);
}

/* Signed in again (or the connection answered again after a failure): what failed runs again. */
static void
connection_renewed (DyTableView *self)
{
  run_again (self);
}

/* The error bar's Retry. When the connection itself failed (its session: the sidebar shows the
 * error, and Sign In), it is retried as a click on its sidebar row does, the session resolved
 * again from the files first; once it answers ("renewed"), what failed here runs again with
 * what failed in its other tabs. */
static void
retry_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  if (self->retry == DY_TABLE_VIEW_RETRY_NONE || self->running)
    return;
  if (dy_connection_get_error (self->connection) != NULL
      && dy_connection_get_kind (self->connection) != DY_CONNECTION_DATABASE
      && !dy_connection_get_loading (self->connection))
    dy_connection_retry (self->connection);
  else
    run_again (self);
}

/* A production connection's tab has a red strip along its top, a read-only one's a grey one
 * (ui/style.css), as its sidebar row and staging cards do. */
static void
mark_changed (DyTableView *self)
{
  DyConnectionMark mark = dy_connection_get_mark (self->connection);

  if (mark == DY_CONNECTION_MARK_PRODUCTION)
    gtk_widget_add_css_class (GTK_WIDGET (self), "production-view");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "production-view");
  if (mark == DY_CONNECTION_MARK_READ_ONLY)
    gtk_widget_add_css_class (GTK_WIDGET (self), "read-only-view");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "read-only-view");
}

static void
dy_table_view_constructed (GObject *object)
{
  DyTableView *self = DY_TABLE_VIEW (object);

  G_OBJECT_CLASS (dy_table_view_parent_class)->constructed (object);
  self->staging_handler = g_signal_connect_swapped (dy_staging_get_default (), "changed",
                                                    G_CALLBACK (dy_table_view_staging_changed), self);
  self->committed_handler = g_signal_connect (dy_staging_get_default (), "committed",
                                              G_CALLBACK (dy_table_view_staging_committed), self);
  self->renewed_handler = g_signal_connect_swapped (self->connection, "renewed",
                                                    G_CALLBACK (connection_renewed), self);
  g_signal_connect_object (self->connection, "notify::mark", G_CALLBACK (mark_changed), self,
                           G_CONNECT_SWAPPED);
  mark_changed (self);
  start_describe (self);
  dy_table_view_update_actions (self);
  dy_table_view_update_footer (self);
}

static void
dy_table_view_dispose (GObject *object)
{
  DyTableView *self = DY_TABLE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->describe_cancellable);
  g_clear_signal_handler (&self->staging_handler, dy_staging_get_default ());
  g_clear_signal_handler (&self->committed_handler, dy_staging_get_default ());
  g_clear_signal_handler (&self->renewed_handler, self->connection);
  dy_table_view_panes_dispose (self);
  dy_table_view_selection_dispose (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_TABLE_VIEW);
  g_cancellable_cancel (self->arrange_cancellable);
  dy_table_view_drop_waiting_groups (self);
  g_clear_handle_id (&self->tree_hide_idle, g_source_remove);
  g_clear_object (&self->order);
  g_clear_object (&self->selection);
  g_clear_object (&self->feed);
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
  g_hash_table_unref (self->bound_cells);
  g_hash_table_unref (self->seen_columns);
  g_clear_pointer (&self->request, json_decref);
  g_clear_pointer (&self->last_key, json_decref);
  g_clear_pointer (&self->seen, dy_table_view_seen_unref);
  g_clear_pointer (&self->description, json_decref);
  g_clear_pointer (&self->ttl, json_decref);
  g_free (self->ttl_error);
  g_free (self->find_text);
  g_clear_pointer (&self->pending_state, g_variant_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->describe_cancellable);
  g_clear_object (&self->arrange_cancellable);
  g_array_unref (self->filter_conds);
  g_hash_table_unref (self->hidden_columns);
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
    case PROP_SHOW_REQUEST:
      g_value_set_boolean (value, gtk_revealer_get_reveal_child (self->request_revealer));
      break;
    case PROP_MISSING:
      g_value_set_boolean (value, self->missing);
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
          dy_table_view_rebuild_rows (self);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_SHOW_REQUEST:
      gtk_revealer_set_reveal_child (self->request_revealer, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The expression builder on this view; it needs the key schema, so only once described. */
static void
expression_builder_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  if (dy_table_view_get_ready (self))
    dy_expr_builder_open (self, NULL);
}

/* The inspector's "Update with Expression…": the builder on an update of the inspected item. */
static void
update_with_expression_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  DyItem *item = dy_inspector_get_item (dy_table_view_get_inspector (self));
  DyExprBuilder *builder;

  if (item == NULL || !dy_table_view_get_ready (self))
    return;
  builder = dy_expr_builder_open (self, "UpdateItem");
  dy_expr_builder_set_item (builder, dy_item_get_value (item));
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
  /* The request panel's, for the overflow menu's check item (view.show-request). */
  properties[PROP_SHOW_REQUEST] =
    g_param_spec_boolean ("show-request", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* DescribeTable found no such table (deleted since the tab was opened or saved). */
  properties[PROP_MISSING] =
    g_param_spec_boolean ("missing", NULL, NULL, FALSE,
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
  gtk_widget_class_bind_template_child (widget_class, DyTableView, more_menu);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, copy_as_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, error_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, stale_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, column_view);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, inspector);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, panes);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, staging_flap);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, footer_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, spinner);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, describe_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, describe_grid);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, extra_filters_box);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, columns_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, columns_box);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, selection_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, selection_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, selection_spinner);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, selection_cancel);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, select_query_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, selection_menu_model);
  gtk_widget_class_bind_template_callback (widget_class, request_shown_changed);

  dy_table_view_filter_class_init (widget_class);
  dy_table_view_results_class_init (widget_class);
  dy_table_view_columns_class_init (widget_class);
  dy_table_view_selection_class_init (widget_class);
  dy_table_view_panes_class_init (widget_class);
  dy_table_view_find_class_init (widget_class);
  gtk_widget_class_install_property_action (widget_class, "view.group", "grouped");
  gtk_widget_class_install_property_action (widget_class, "view.show-request", "show-request");
  gtk_widget_class_install_action (widget_class, "view.expression-builder", NULL,
                                   expression_builder_action);
  gtk_widget_class_install_action (widget_class, "view.update-with-expression", NULL,
                                   update_with_expression_action);
  gtk_widget_class_install_action (widget_class, "view.retry", NULL, retry_action);
}

static void
dy_table_view_init (DyTableView *self)
{
  g_autoptr (GMenuModel) copy_as = dy_copy_as_menu_new ("view.copy-as");

  gtk_widget_init_template (GTK_WIDGET (self));
  /* TRANSLATORS: the button of a table tab's error bar. Its access key (after "_") is not
   * that of another button the tab shows (Run, Run Again, Load More, Load All, Group, Columns,
   * Table Info, the inspector's Revert and Stage, ...): Alt and a key two buttons share only
   * moves the focus. */
  self->retry_button = dy_error_bar_add_button (
      self->error_revealer, _ ("R_etry"), "view.retry",
      _ ("Send the request that failed again, as it was sent: the rows shown stay"));
  g_menu_append_submenu (self->more_menu, _ ("Copy _As"), copy_as);
  gtk_menu_button_set_menu_model (self->copy_as_button, copy_as);
  self->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) dy_table_view_keys_free);
  self->items = dy_rows_new ();
  self->feed = dy_row_feed_new (G_LIST_MODEL (self->items));
  self->columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->bound_cells = g_hash_table_new (NULL, NULL);
  self->seen_columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();
  self->describe_cancellable = g_cancellable_new ();
  self->arrange_cancellable = g_cancellable_new ();
  self->filter_conds = g_array_new (FALSE, FALSE, sizeof (DyFilterCond));
  self->hidden_columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  dy_table_view_selection_init (self);
  dy_table_view_columns_init (self);
  dy_table_view_panes_init (self);
  dy_table_view_find_init (self);
  dy_table_view_results_init (self);
  dy_table_view_rebuild_rows (self);
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

gboolean
dy_table_view_get_arranging (DyTableView *self)
{
  GListModel *source;

  if (self->arranging)
    return TRUE;
  if (dy_row_selection_get_model (self->selection) != G_LIST_MODEL (self->feed))
    return FALSE;
  source = dy_row_feed_get_source (self->feed);
  return dy_row_feed_get_pending (self->feed)
         || (GTK_IS_SORT_LIST_MODEL (source)
             && gtk_sort_list_model_get_pending (GTK_SORT_LIST_MODEL (source)) > 0);
}

gboolean
dy_table_view_get_described (DyTableView *self)
{
  return self->description != NULL && (self->ttl != NULL || self->ttl_error != NULL);
}

DyInspector *
dy_table_view_get_inspector (DyTableView *self)
{
  return self->inspector;
}

gboolean
dy_table_view_get_missing (DyTableView *self)
{
  return self->missing;
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

gboolean
dy_table_view_get_key_schema (DyTableView *self, const char *index_name,
                              const char **partition_key, DdbType *partition_type,
                              const char **sort_key, DdbType *sort_type)
{
  g_return_val_if_fail (DY_IS_TABLE_VIEW (self), FALSE);

  for (guint i = 0; i < self->keys->len; i++)
    {
      const DyTableViewKeys *keys = self->keys->pdata[i];

      if (g_strcmp0 (keys->name, index_name) != 0)
        continue;
      if (partition_key != NULL)
        *partition_key = keys->pk;
      if (partition_type != NULL)
        *partition_type = keys->pk_type;
      if (sort_key != NULL)
        *sort_key = keys->sk;
      if (sort_type != NULL)
        *sort_type = keys->sk_type;
      return TRUE;
    }
  return FALSE;
}

char *
dy_table_view_dup_request_text (DyTableView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->request_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}
