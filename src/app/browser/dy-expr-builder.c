/* dy-expr-builder.c: the expression builder dialog (its rows: dy-expr-builder-rows.c). The widgets
 * are only a face on exprbuild's model: on every change a fresh DdbEbModel is filled from the rows
 * and rendered, so the preview, Run, Copy and Stage all use the one request the preview shows. */
#define G_LOG_DOMAIN "dynoscope-builder"

#include <glib/gi18n.h>

#include "app/common/dy-copy-as.h"
#include "app/browser/dy-expr-builder-private.h"
#include "app/common/dy-item.h"
#include "app/staging/dy-staging.h"
#include "core/ddbjson.h"
#include "exprbuild/exprbuild.h"

static const DdbSortKeyOp sk_ops[] = {
  DDB_SK_NONE, DDB_SK_EQ, DDB_SK_LT,      DDB_SK_LE,
  DDB_SK_GT,   DDB_SK_GE, DDB_SK_BETWEEN, DDB_SK_BEGINS_WITH,
};

static const char *const operations[] = { "Query", "Scan", "UpdateItem", "DeleteItem", NULL };

G_DEFINE_FINAL_TYPE (DyExprBuilder, dy_expr_builder, ADW_TYPE_WINDOW)

#define BUILDER_KEY "dy-expr-builder"

static DdbEbOperation
current_operation (DyExprBuilder *self)
{
  DdbEbOperation operation = DDB_EB_QUERY;

  ddb_eb_operation_from_name (operations[gtk_drop_down_get_selected (self->operation_dropdown)],
                              &operation);
  return operation;
}

/* The model the rows describe, or NULL with *MESSAGE (the first wrong part). */
static DdbEbModel *
build_model (DyExprBuilder *self, char **message)
{
  g_autoptr (DdbEbModel) model = ddb_eb_model_new (current_operation (self));
  g_autoptr (GPtrArray) paths = NULL;

  model->bare_names = FALSE;
  ddb_eb_model_set_key_schema (model, self->pk_name, self->sk_name);
  if (model->operation == DDB_EB_QUERY && gtk_widget_get_visible (GTK_WIDGET (self->key_raw_entry)))
    {
      g_autoptr (GError) error = NULL;
      DdbEbRaw *raw = ddb_eb_raw_new (DDB_EXPR_KEY_CONDITION,
                                      gtk_editable_get_text (GTK_EDITABLE (self->key_raw_entry)),
                                      self->key_raw_names, self->key_raw_values, &error);

      dy_expr_builder_mark (GTK_WIDGET (self->key_raw_entry), raw == NULL);
      if (raw != NULL)
        ddb_eb_model_set_key_raw (model, raw);
      else if (*message == NULL)
        *message = g_strdup_printf (_ ("Key condition: %s"), error->message);
    }
  else if (model->operation == DDB_EB_QUERY && self->pk_name != NULL)
    {
      /* DynamoDB refuses an empty key value, and a Query reads exactly one partition. */
      gboolean pk_empty = *gtk_editable_get_text (GTK_EDITABLE (self->pk_entry)) == '\0';
      DdbValue *pk = pk_empty ? NULL
                              : dy_expr_builder_entry_value (self->pk_entry, self->pk_type,
                                                             _ ("Partition key"), message);
      guint sk = gtk_drop_down_get_selected (self->sk_op_dropdown);

      dy_expr_builder_mark (GTK_WIDGET (self->pk_entry), pk_empty);
      if (pk_empty && *message == NULL)
        *message = g_strdup (_ ("Partition key: a Query needs its value (a Scan reads the whole "
                                "table)"));

      if (pk != NULL)
        ddb_eb_model_set_partition_key (model, self->pk_name, pk);
      if (self->sk_name != NULL && sk != 0 && sk < G_N_ELEMENTS (sk_ops))
        {
          DdbValue *v1 = dy_expr_builder_entry_value (self->sk_entry, self->sk_type, _ ("Sort key"),
                                                      message);
          DdbValue *v2 = NULL;

          if (sk_ops[sk] == DDB_SK_BETWEEN)
            v2 = dy_expr_builder_entry_value (self->sk_entry2, self->sk_type,
                                              _ ("Sort key, upper bound"), message);
          if (v1 != NULL && (v2 != NULL || sk_ops[sk] != DDB_SK_BETWEEN))
            ddb_eb_model_set_sort_key (model, self->sk_name, sk_ops[sk], v1, v2);
          else
            {
              g_clear_pointer (&v1, ddb_value_free);
              g_clear_pointer (&v2, ddb_value_free);
            }
        }
      else
        {
          dy_expr_builder_mark (GTK_WIDGET (self->sk_entry), FALSE);
          dy_expr_builder_mark (GTK_WIDGET (self->sk_entry2), FALSE);
        }
    }

  model->condition->kind
      = gtk_drop_down_get_selected (self->join_dropdown) == 1 ? DDB_EB_OR : DDB_EB_AND;
  for (guint i = 0; i < self->cond_rows->len; i++)
    {
      DdbEbCond *cond
          = dy_expr_builder_cond_row_build (self, self->cond_rows->pdata[i], i + 1, message);

      if (cond != NULL)
        ddb_eb_cond_add (model->condition, cond);
    }

  if (model->operation == DDB_EB_UPDATE_ITEM)
    for (guint i = 0; i < self->action_rows_->len; i++)
      {
        DdbEbAction *action
            = dy_expr_builder_action_row_build (self, self->action_rows_->pdata[i], i + 1, message);

        if (action != NULL)
          ddb_eb_model_add_action (model, action);
      }

  paths = dy_expr_builder_split_projection (
      gtk_editable_get_text (GTK_EDITABLE (self->projection_entry)));
  dy_expr_builder_mark (GTK_WIDGET (self->projection_entry), FALSE);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *text = paths->pdata[i];
      DdbPath path = { 0 };

      if (*text == '\0')
        continue;
      if (!dy_expr_builder_entry_path (self, GTK_ENTRY (self->projection_entry), _ ("Projection"),
                                       &path, message))
        {
          /* entry_path read the whole entry: report the path that is wrong instead. */
          g_autoptr (GError) error = NULL;

          if (!ddb_eb_path_parse_known (text, (const char *const *) self->known, &path, &error))
            {
              dy_expr_builder_mark (GTK_WIDGET (self->projection_entry), TRUE);
              g_clear_pointer (message, g_free);
              *message = g_strdup_printf (_ ("Projection, “%s”: %s"), text, error->message);
              continue;
            }
          dy_expr_builder_mark (GTK_WIDGET (self->projection_entry), FALSE);
        }
      ddb_eb_model_add_projection (model, &path);
      ddb_path_clear (&path);
    }
  if (*message != NULL)
    return NULL;
  return g_steal_pointer (&model);
}

/* The key attributes of ITEM as a map, or NULL when one is missing. */
static DdbValue *
item_key (DyExprBuilder *self, const DdbValue *item)
{
  DdbValue *key = ddb_value_new_m ();
  const char *names[] = { self->pk_name, self->sk_name };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const DdbValue *v;

      if (names[i] == NULL)
        continue;
      if ((v = ddb_value_map_get (item, names[i])) == NULL)
        {
          ddb_value_free (key);
          return NULL;
        }
      ddb_value_map_set (key, names[i], ddb_value_copy (v));
    }
  return key;
}

static void
set_error (DyExprBuilder *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
}

static void
set_status (DyExprBuilder *self, const char *message)
{
  g_free (self->status);
  self->status = g_strdup (message);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), message != NULL);
  gtk_label_set_text (self->status_label, message != NULL ? message : "");
}

static void
update_sections (DyExprBuilder *self)
{
  DdbEbOperation operation = current_operation (self);
  gboolean read = operation == DDB_EB_QUERY || operation == DDB_EB_SCAN;

  gtk_widget_set_visible (self->key_section, operation == DDB_EB_QUERY);
  gboolean raw_key = gtk_widget_get_visible (GTK_WIDGET (self->key_raw_entry));

  gtk_widget_set_visible (self->pk_box, !raw_key);
  gtk_widget_set_visible (self->sk_box, self->sk_name != NULL && !raw_key);
  gtk_widget_set_visible (GTK_WIDGET (self->descending_check), self->sk_name != NULL);
  gtk_widget_set_visible (self->update_section, operation == DDB_EB_UPDATE_ITEM);
  gtk_widget_set_visible (self->projection_section, read);
  gtk_label_set_text (self->condition_heading, read ? _ ("Filter") : _ ("Condition"));
  gtk_widget_set_visible (self->run_button, read);
  gtk_widget_set_visible (self->stage_button, !read);
}

/* Renders the rows into the preview; every change comes here. */
/* Stage is for a built update or delete, one at a time. */
static void
update_stage_action (DyExprBuilder *self)
{
  DdbEbOperation operation = current_operation (self);

  gtk_widget_action_set_enabled (
      GTK_WIDGET (self), "builder.stage",
      self->request != NULL && self->view != NULL && !self->staging
          && (operation == DDB_EB_UPDATE_ITEM || operation == DDB_EB_DELETE_ITEM));
}

void
dy_expr_builder_render (DyExprBuilder *self)
{
  g_autoptr (DdbEbModel) model = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *message = NULL;
  g_autofree char *text = NULL;
  json_t *request;
  DdbEbOperation operation = current_operation (self);
  guint sk = gtk_drop_down_get_selected (self->sk_op_dropdown);

  gtk_widget_set_visible (GTK_WIDGET (self->sk_entry), sk != 0);
  gtk_widget_set_visible (GTK_WIDGET (self->sk_entry2),
                          sk < G_N_ELEMENTS (sk_ops) && sk_ops[sk] == DDB_SK_BETWEEN);
  g_clear_pointer (&self->request, json_decref);
  model = build_model (self, &message);
  request = json_object ();
  json_object_set_new (request, "TableName", json_string (self->table));
  if ((operation == DDB_EB_UPDATE_ITEM || operation == DDB_EB_DELETE_ITEM) && self->item != NULL)
    {
      g_autoptr (DdbValue) key = item_key (self, self->item);

      if (key != NULL)
        json_object_set_new (request, "Key", ddb_item_to_json (key));
    }
  else if ((operation == DDB_EB_UPDATE_ITEM || operation == DDB_EB_DELETE_ITEM)
           && self->loaded_key != NULL)
    json_object_set (request, "Key", self->loaded_key);
  if (self->loaded_extra != NULL)
    json_object_update_missing (request, self->loaded_extra);
  if (operation == DDB_EB_QUERY && self->sk_name != NULL
      && gtk_check_button_get_active (self->descending_check))
    json_object_set_new (request, "ScanIndexForward", json_false ());
  if (model != NULL && !ddb_eb_render (model, request, &error))
    message = g_strdup (error->message);
  if (message == NULL)
    self->request = json_incref (request);
  set_error (self, message);
  /* While a part is wrong the preview shows only what does not depend on the rows: a request
   * rendered from the last right rows would not be the one the rows now describe. */
  text = json_dumps (request, JSON_INDENT (2));
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->preview_view), text, -1);
  json_decref (request);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "builder.run",
                                 self->request != NULL && self->view != NULL
                                     && (operation == DDB_EB_QUERY || operation == DDB_EB_SCAN));
  update_stage_action (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "builder.copy-request", self->request != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "builder.copy-as", self->request != NULL);
}

static void
operation_changed (DyExprBuilder *self)
{
  update_sections (self);
  dy_expr_builder_changed (self);
}

/* ---- Actions --------------------------------------------------------------------------- */

static void
run_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyExprBuilder *self = DY_EXPR_BUILDER (widget);
  DdbEbOperation operation = current_operation (self);

  if (self->request == NULL || self->view == NULL
      || (operation != DDB_EB_QUERY && operation != DDB_EB_SCAN))
    return;
  /* The dialog stays open: a query is usually refined a few times. */
  dy_table_view_run_request (self->view, ddb_eb_operation_name (operation), self->request);
}

static void
copy_request_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyExprBuilder *self = DY_EXPR_BUILDER (widget);
  g_autofree char *text = NULL;

  if (self->request == NULL)
    return;
  text = json_dumps (self->request, JSON_INDENT (2));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  set_status (self, _ ("Request copied"));
}

static void
copy_as_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyExprBuilder *self = DY_EXPR_BUILDER (widget);
  g_autoptr (GError) error = NULL;
  g_autofree char *program = NULL;

  if (self->request == NULL || self->view == NULL)
    return;
  program = dy_copy_as_program (
      dy_table_view_get_connection (self->view), g_variant_get_string (parameter, NULL),
      ddb_eb_operation_name (current_operation (self)), self->request, &error);
  if (program == NULL)
    {
      set_error (self, error->message);
      return;
    }
  set_error (self, NULL);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), program);
  set_status (self, _ ("Program copied"));
}

/* A group of rows of its own AND or OR, for conditions such as (a OR b) AND c. */
static void
add_group_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyExprBuilder *self = DY_EXPR_BUILDER (widget);

  dy_expr_builder_cond_group_add (self, NULL);
  dy_expr_builder_render (self);
}

static void
add_condition_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyExprBuilder *self = DY_EXPR_BUILDER (widget);

  gtk_widget_grab_focus (GTK_WIDGET (dy_expr_builder_cond_row_add (self, NULL)->path));
  dy_expr_builder_render (self);
}

static void
add_action_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyExprBuilder *self = DY_EXPR_BUILDER (widget);

  gtk_widget_grab_focus (GTK_WIDGET (dy_expr_builder_action_row_add (self)->path));
  dy_expr_builder_render (self);
}

static void
stage_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyExprBuilder) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autofree char *status = NULL;
  DdbExprStageReport report = { 0 };

  self->staging = FALSE;
  update_stage_action (self);
  if (!dy_staging_stage_expression_finish (DY_STAGING (source), result, &report, &error))
    {
      set_error (self, error->message);
      return;
    }
  /* The first failure is shown; the count says how many there were. */
  if (report.n_failed > 0)
    {
      const DdbExprStageFailure *first = report.failures->pdata[0];
      set_error (self, first->message);
    }
  else
    set_error (self, NULL);
  {
    guint total = report.n_staged + report.n_skipped + report.n_unchanged + report.n_failed;

    /* TRANSLATORS: staged of all the items, then how many were skipped, unchanged, failed */
    status = g_strdup_printf (ngettext ("Staged %u of %u item: %u skipped by the condition, %u "
                                        "unchanged, %u failed",
                                        "Staged %u of %u items: %u skipped by the condition, %u "
                                        "unchanged, %u failed",
                                        total),
                              report.n_staged, total, report.n_skipped, report.n_unchanged,
                              report.n_failed);
  }
  set_status (self, status);
  ddb_expr_stage_report_clear (&report);
}

/* Stages the built update or delete on each item it applies to, each as a change guarded (at
 * commit) by the item as the result showed it; the condition picks the items here, as
 * DynamoDB would check it on each. Nothing is written. */
static void
stage_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyExprBuilder *self = DY_EXPR_BUILDER (widget);
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (GHashTable) names = NULL;
  g_autoptr (GHashTable) values = NULL;
  g_autoptr (DdbExprContext) ctx = NULL;
  g_autoptr (DdbNode) condition = NULL;
  g_autoptr (DdbUpdate) update = NULL;
  g_autoptr (GError) error = NULL;
  const char *key_names[] = { self->pk_name, self->sk_name, NULL };
  const char *text;

  if (self->request == NULL || self->view == NULL || self->staging)
    return;
  if (self->item != NULL)
    g_ptr_array_add (items, ddb_value_copy (self->item));
  else
    {
      GListModel *list = dy_table_view_get_items (self->view);

      for (guint i = 0; i < g_list_model_get_n_items (list); i++)
        {
          g_autoptr (DyItem) item = g_list_model_get_item (list, i);

          g_ptr_array_add (items, ddb_value_copy (dy_item_get_value (item)));
        }
    }
  if (items->len == 0)
    {
      set_error (self, _ ("There is no item to stage on: run a Query or Scan first"));
      return;
    }
  if (!ddb_eb_read_maps (self->request, &names, &values, &error))
    {
      set_error (self, error->message);
      return;
    }
  ctx = ddb_expr_context_new (names, values);
  text = json_string_value (json_object_get (self->request, "ConditionExpression"));
  if (text != NULL
      && (condition = ddb_condition_parse (DDB_EXPR_CONDITION, text, ctx, &error)) == NULL)
    {
      set_error (self, error->message);
      return;
    }
  if (current_operation (self) == DDB_EB_UPDATE_ITEM)
    {
      text = json_string_value (json_object_get (self->request, "UpdateExpression"));
      if (text == NULL)
        {
          set_error (self, _ ("The update has no actions"));
          return;
        }
      if ((update = ddb_update_parse (text, ctx, &error)) == NULL)
        {
          set_error (self, error->message);
          return;
        }
    }
  self->staging = TRUE;
  update_stage_action (self);
  set_status (self, _ ("Staging…"));
  dy_staging_stage_expression_async (dy_staging_get_default (),
                                     dy_table_view_get_connection (self->view), self->table,
                                     key_names, g_steal_pointer (&update),
                                     g_steal_pointer (&condition), g_steal_pointer (&items),
                                     stage_done,
                                     g_object_ref (self));
}

/* What the rows make of a request: a loaded request's other members are kept as they are. */
static const char *const made_members[] = {
  "TableName",
  "Key",
  "KeyConditionExpression",
  "FilterExpression",
  "ConditionExpression",
  "ProjectionExpression",
  "UpdateExpression",
  "ExpressionAttributeNames",
  "ExpressionAttributeValues",
  "ScanIndexForward",
  NULL,
};

/* The key rows name the keys of the table or of its index INDEX (NULL: the table). */
static gboolean
use_keys (DyExprBuilder *self, const char *index)
{
  const char *pk = NULL, *sk = NULL;
  DdbType pk_type = DDB_TYPE_S, sk_type = DDB_TYPE_S;

  if (self->view == NULL
      || !dy_table_view_get_key_schema (self->view, index, &pk, &pk_type, &sk, &sk_type))
    return index == NULL;
  g_free (self->pk_name);
  g_free (self->sk_name);
  self->pk_name = g_strdup (pk);
  self->sk_name = g_strdup (sk);
  self->pk_type = pk_type;
  self->sk_type = sk_type;
  gtk_label_set_text (self->pk_label, self->pk_name != NULL ? self->pk_name : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->pk_label), self->pk_name);
  gtk_label_set_text (self->sk_label, self->sk_name != NULL ? self->sk_name : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->sk_label), self->sk_name);
  return TRUE;
}

static json_t *
raw_names_json (const DdbEbRaw *raw)
{
  json_t *names = json_object ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, raw->names);
  while (g_hash_table_iter_next (&iter, &key, &value))
    json_object_set_new (names, key, json_string (value));
  return names;
}

static json_t *
raw_values_json (const DdbEbRaw *raw)
{
  json_t *values = json_object ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, raw->values);
  while (g_hash_table_iter_next (&iter, &key, &value))
    json_object_set_new (values, key, ddb_value_to_json (value));
  return values;
}

gboolean
dy_expr_builder_load_text (DyExprBuilder *self, const char *text)
{
  g_autoptr (DdbEbModel) model = ddb_eb_model_new (current_operation (self));
  g_autoptr (GError) error = NULL;
  json_auto_t *request = NULL;
  json_error_t json_error;
  DdbEbCond *cond;
  json_t *forward;

  g_return_val_if_fail (DY_IS_EXPR_BUILDER (self), FALSE);
  request = json_loads (text, JSON_ALLOW_NUL, &json_error);
  if (!json_is_object (request))
    {
      g_autofree char *message
          = g_strdup_printf (_ ("The request is not a JSON object: %s"), json_error.text);

      set_error (self, message);
      return FALSE;
    }
  /* The request's own members say which operation it is for, better than the dropdown. */
  if (json_object_get (request, "KeyConditionExpression") != NULL)
    model->operation = DDB_EB_QUERY;
  else if (json_object_get (request, "UpdateExpression") != NULL)
    model->operation = DDB_EB_UPDATE_ITEM;
  else if (json_object_get (request, "ConditionExpression") != NULL
           && (model->operation == DDB_EB_QUERY || model->operation == DDB_EB_SCAN))
    model->operation = DDB_EB_DELETE_ITEM;
  else if (json_object_get (request, "FilterExpression") != NULL
           && model->operation != DDB_EB_QUERY)
    model->operation = DDB_EB_SCAN;
  if (!use_keys (self, json_string_value (json_object_get (request, "IndexName"))))
    {
      set_error (self, _ ("The table has no index of the request's IndexName"));
      return FALSE;
    }
  ddb_eb_model_set_key_schema (model, self->pk_name, self->sk_name);
  if (!ddb_eb_load (model, model->operation, request, &error))
    {
      set_error (self, error->message);
      return FALSE;
    }
  g_clear_pointer (&self->loaded_key, json_decref);
  if (json_is_object (json_object_get (request, "Key")))
    self->loaded_key = json_deep_copy (json_object_get (request, "Key"));
  g_clear_pointer (&self->loaded_extra, json_decref);
  self->loaded_extra = json_deep_copy (request);
  for (guint i = 0; made_members[i] != NULL; i++)
    json_object_del (self->loaded_extra, made_members[i]);
  self->loading = TRUE;
  dy_expr_builder_set_operation (self, ddb_eb_operation_name (model->operation));
  g_clear_pointer (&self->key_raw_names, json_decref);
  g_clear_pointer (&self->key_raw_values, json_decref);
  gtk_widget_set_visible (GTK_WIDGET (self->key_raw_entry), model->key_raw != NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->key_raw_entry),
                         model->key_raw != NULL ? model->key_raw->text : "");
  if (model->key_raw != NULL)
    {
      self->key_raw_names = raw_names_json (model->key_raw);
      self->key_raw_values = raw_values_json (model->key_raw);
    }
  dy_expr_builder_clear_rows (self);
  if (model->pk_value != NULL)
    dy_expr_builder_set_value_entry (self->pk_entry, NULL, model->pk_value);
  gtk_drop_down_set_selected (self->sk_op_dropdown, 0);
  for (guint i = 0; i < G_N_ELEMENTS (sk_ops); i++)
    if (model->sk_name != NULL && sk_ops[i] == model->sk_op)
      gtk_drop_down_set_selected (self->sk_op_dropdown, i);
  if (model->sk_values[0] != NULL)
    dy_expr_builder_set_value_entry (self->sk_entry, NULL, model->sk_values[0]);
  if (model->sk_values[1] != NULL)
    dy_expr_builder_set_value_entry (self->sk_entry2, NULL, model->sk_values[1]);
  forward = json_object_get (request, "ScanIndexForward");
  gtk_check_button_set_active (self->descending_check, json_is_false (forward));
  cond = model->condition;
  /* A lone AND or OR group is the top level's own join. */
  if (cond->kind != DDB_EB_NOT && cond->children->len == 1)
    {
      DdbEbCond *only = cond->children->pdata[0];

      if (only->kind == DDB_EB_AND || only->kind == DDB_EB_OR)
        cond = only;
    }
  if (cond->kind == DDB_EB_AND || cond->kind == DDB_EB_OR)
    {
      gtk_drop_down_set_selected (self->join_dropdown, cond->kind == DDB_EB_OR ? 1 : 0);
      for (guint i = 0; i < cond->children->len; i++)
        dy_expr_builder_cond_load (self, NULL, cond->children->pdata[i]);
    }
  else
    dy_expr_builder_cond_load (self, NULL, cond);
  for (guint i = 0; i < model->actions->len; i++)
    dy_expr_builder_action_row_load (self, model->actions->pdata[i]);
  gtk_editable_set_text (GTK_EDITABLE (self->projection_entry), "");
  {
    GString *projection = g_string_new (NULL);

    for (guint i = 0; i < model->projection->len; i++)
      {
        g_autofree char *path
            = ddb_eb_path_to_text (&g_array_index (model->projection, DdbPath, i));

        g_string_append_printf (projection, "%s%s", i > 0 ? ", " : "", path);
      }
    gtk_editable_set_text (GTK_EDITABLE (self->projection_entry), projection->str);
    g_string_free (projection, TRUE);
  }
  self->loading = FALSE;
  update_sections (self);
  dy_expr_builder_render (self);
  return self->error == NULL;
}

static void
load_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyExprBuilder *self = DY_EXPR_BUILDER (widget);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->load_view);
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  dy_expr_builder_load_text (self, text);
}

/* ---- The widget ------------------------------------------------------------------------ */

static void
collect_names (DyExprBuilder *self)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GListModel *items = dy_table_view_get_items (self->view);
  /* Enough items to see every attribute of a typical result, few enough to stay instant. */
  guint n = MIN (g_list_model_get_n_items (items), 500);
  const char *keys[] = { self->pk_name, self->sk_name };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (keys[i] != NULL && g_hash_table_add (seen, (gpointer) keys[i]))
      g_ptr_array_add (names, g_strdup (keys[i]));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (items, i);
      const DdbValue *value = dy_item_get_value (item);

      for (guint j = 0; j < ddb_value_map_size (value); j++)
        {
          const char *name = ddb_value_map_nth (value, j)->name;

          if (!g_hash_table_contains (seen, name))
            {
              char *copy = g_strdup (name);

              g_hash_table_add (seen, copy);
              g_ptr_array_add (names, copy);
            }
        }
    }
  g_ptr_array_add (names, NULL);
  g_strfreev (self->known);
  self->known = (GStrv) g_ptr_array_free (g_steal_pointer (&names), FALSE);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_list_store_clear (self->names);
  for (guint i = 0; self->known[i] != NULL; i++)
    gtk_list_store_insert_with_values (self->names, NULL, -1, 0, self->known[i], -1);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
items_changed (DyExprBuilder *self)
{
  if (self->view != NULL)
    collect_names (self);
}

/* A builder runs, copies and stages for its view only: it goes with the view's tab. */
static void
view_gone (gpointer data, GObject *where_the_view_was)
{
  DyExprBuilder *self = data;

  self->view = NULL;
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
dy_expr_builder_dispose (GObject *object)
{
  DyExprBuilder *self = DY_EXPR_BUILDER (object);

  if (self->view != NULL)
    {
      if (g_object_get_data (G_OBJECT (self->view), BUILDER_KEY) == self)
        g_object_set_data (G_OBJECT (self->view), BUILDER_KEY, NULL);
      g_object_weak_unref (G_OBJECT (self->view), view_gone, self);
      self->view = NULL;
    }
  G_OBJECT_CLASS (dy_expr_builder_parent_class)->dispose (object);
}

static void
dy_expr_builder_finalize (GObject *object)
{
  DyExprBuilder *self = DY_EXPR_BUILDER (object);

  g_free (self->table);
  g_free (self->pk_name);
  g_free (self->sk_name);
  g_strfreev (self->known);
  g_clear_object (&self->names);
  g_ptr_array_unref (self->cond_rows);
  g_ptr_array_unref (self->action_rows_);
  g_clear_pointer (&self->item, ddb_value_free);
  g_clear_pointer (&self->loaded_key, json_decref);
  g_clear_pointer (&self->loaded_extra, json_decref);
  g_clear_pointer (&self->key_raw_names, json_decref);
  g_clear_pointer (&self->key_raw_values, json_decref);
  g_clear_pointer (&self->request, json_decref);
  g_free (self->error);
  g_free (self->status);
  G_OBJECT_CLASS (dy_expr_builder_parent_class)->finalize (object);
}

static void
dy_expr_builder_class_init (DyExprBuilderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dy_expr_builder_dispose;
  object_class->finalize = dy_expr_builder_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-expr-builder.ui");
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, window_title);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, operation_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, run_button);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, stage_button);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, copy_as_button);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, key_section);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, key_raw_entry);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, pk_box);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, pk_label);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, pk_entry);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, sk_box);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, sk_label);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, sk_op_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, sk_entry);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, sk_entry2);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, descending_check);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, condition_section);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, condition_heading);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, join_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, condition_rows);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, update_section);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, action_rows);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, projection_section);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, projection_entry);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, load_view);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, preview_view);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, error_label);
  gtk_widget_class_bind_template_child (widget_class, DyExprBuilder, status_label);

  gtk_widget_class_install_action (widget_class, "builder.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "builder.stage", NULL, stage_action);
  gtk_widget_class_install_action (widget_class, "builder.copy-request", NULL, copy_request_action);
  gtk_widget_class_install_action (widget_class, "builder.copy-as", "s", copy_as_action);
  gtk_widget_class_install_action (widget_class, "builder.add-condition", NULL,
                                   add_condition_action);
  gtk_widget_class_install_action (widget_class, "builder.add-group", NULL, add_group_action);
  gtk_widget_class_install_action (widget_class, "builder.add-action", NULL, add_action_action);
  gtk_widget_class_install_action (widget_class, "builder.load", NULL, load_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "builder.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

/* An emptied raw key condition gives the key rows back. */
static void
key_raw_changed (DyExprBuilder *self)
{
  if (*gtk_editable_get_text (GTK_EDITABLE (self->key_raw_entry)) == '\0'
      && gtk_widget_get_visible (GTK_WIDGET (self->key_raw_entry)))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->key_raw_entry), FALSE);
      update_sections (self);
    }
  dy_expr_builder_changed (self);
}

static void
dy_expr_builder_init (DyExprBuilder *self)
{
  g_autoptr (GMenuModel) copy_as = dy_copy_as_menu_new ("builder.copy-as");

  gtk_widget_init_template (GTK_WIDGET (self));
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  self->names = gtk_list_store_new (1, G_TYPE_STRING);
  G_GNUC_END_IGNORE_DEPRECATIONS
  self->cond_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) dy_expr_builder_cond_row_free);
  self->action_rows_
      = g_ptr_array_new_with_free_func ((GDestroyNotify) dy_expr_builder_action_row_free);
  gtk_menu_button_set_menu_model (self->copy_as_button, copy_as);
  g_signal_connect_swapped (self->operation_dropdown, "notify::selected",
                            G_CALLBACK (operation_changed), self);
  g_signal_connect_swapped (self->key_raw_entry, "changed", G_CALLBACK (key_raw_changed), self);
  g_signal_connect_swapped (self->pk_entry, "changed", G_CALLBACK (dy_expr_builder_changed), self);
  g_signal_connect_swapped (self->sk_entry, "changed", G_CALLBACK (dy_expr_builder_changed), self);
  g_signal_connect_swapped (self->sk_entry2, "changed", G_CALLBACK (dy_expr_builder_changed), self);
  g_signal_connect_swapped (self->sk_op_dropdown, "notify::selected",
                            G_CALLBACK (dy_expr_builder_changed), self);
  g_signal_connect_swapped (self->descending_check, "toggled", G_CALLBACK (dy_expr_builder_changed),
                            self);
  g_signal_connect_swapped (self->join_dropdown, "notify::selected",
                            G_CALLBACK (dy_expr_builder_changed), self);
  g_signal_connect_swapped (self->projection_entry, "changed", G_CALLBACK (dy_expr_builder_changed),
                            self);
}

DyExprBuilder *
dy_expr_builder_new (DyTableView *view, const char *operation)
{
  DyExprBuilder *self;
  GtkRoot *root;
  g_autofree char *subtitle = NULL;

  g_return_val_if_fail (DY_IS_TABLE_VIEW (view), NULL);
  self = g_object_new (DY_TYPE_EXPR_BUILDER, NULL);
  self->view = view;
  g_object_weak_ref (G_OBJECT (view), view_gone, self);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
  self->table = g_strdup (dy_table_view_get_table_name (view));
  use_keys (self, NULL);
  subtitle = g_strdup_printf ("%s — %s", self->table,
                              dy_connection_get_title (dy_table_view_get_connection (view)));
  adw_window_title_set_subtitle (self->window_title, subtitle);
  collect_names (self);
  /* A Run (the builder's own too) shows new attributes: offer them as well. */
  g_signal_connect_object (dy_table_view_get_items (view), "items-changed",
                           G_CALLBACK (items_changed), self, G_CONNECT_SWAPPED);
  root = gtk_widget_get_root (GTK_WIDGET (view));
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (self), GTK_WINDOW (root));
  self->loading = TRUE;
  dy_expr_builder_cond_row_add (self, NULL);
  dy_expr_builder_action_row_add (self);
  dy_expr_builder_set_operation (self, operation != NULL       ? operation
                                       : self->pk_name != NULL ? "Query"
                                                               : "Scan");
  self->loading = FALSE;
  update_sections (self);
  dy_expr_builder_render (self);
  return self;
}

DyExprBuilder *
dy_expr_builder_get_for_view (DyTableView *view)
{
  return g_object_get_data (G_OBJECT (view), BUILDER_KEY);
}

DyExprBuilder *
dy_expr_builder_open (DyTableView *view, const char *operation)
{
  DyExprBuilder *self = dy_expr_builder_get_for_view (view);

  if (self == NULL)
    {
      self = dy_expr_builder_new (view, operation);
      g_object_set_data (G_OBJECT (view), BUILDER_KEY, self);
    }
  else if (operation != NULL)
    dy_expr_builder_set_operation (self, operation);
  gtk_window_present (GTK_WINDOW (self));
  return self;
}

void
dy_expr_builder_set_operation (DyExprBuilder *self, const char *operation)
{
  g_return_if_fail (DY_IS_EXPR_BUILDER (self));
  for (guint i = 0; operations[i] != NULL; i++)
    if (g_strcmp0 (operations[i], operation) == 0)
      gtk_drop_down_set_selected (self->operation_dropdown, i);
  update_sections (self);
}

void
dy_expr_builder_set_item (DyExprBuilder *self, const DdbValue *item)
{
  g_return_if_fail (DY_IS_EXPR_BUILDER (self));
  g_clear_pointer (&self->item, ddb_value_free);
  self->item = item != NULL ? ddb_value_copy (item) : NULL;
  gtk_widget_set_tooltip_text (self->stage_button,
                               item != NULL ? _ ("Stage the change on the inspected item")
                                            : _ ("Stage the change on every item of the result"));
  dy_expr_builder_render (self);
}

json_t *
dy_expr_builder_get_request (DyExprBuilder *self, const char **error)
{
  g_return_val_if_fail (DY_IS_EXPR_BUILDER (self), NULL);
  if (error != NULL)
    *error = self->error;
  return self->request;
}

const char *
dy_expr_builder_get_operation (DyExprBuilder *self)
{
  g_return_val_if_fail (DY_IS_EXPR_BUILDER (self), NULL);
  return operations[gtk_drop_down_get_selected (self->operation_dropdown)];
}

const char *
dy_expr_builder_get_status (DyExprBuilder *self)
{
  g_return_val_if_fail (DY_IS_EXPR_BUILDER (self), NULL);
  return self->status;
}
