/* dy-fanout-dialog.c: the fan-out dialog. */
#define G_LOG_DOMAIN "dynoscope-fanout"

#include <glib/gi18n.h>

#include "app/common/dy-describe.h"
#include "app/staging/dy-fanout-dialog.h"
#include "app/common/dy-format.h"
#include "core/ddbjson.h"

typedef struct {
  char *name;    /* index name */
  char *pk_name; /* its partition key */
  char *pk_type; /* "S", "N" or "B" */
} IndexInfo;

struct _DyFanoutDialog {
  AdwWindow parent_instance;

  AdwWindowTitle *window_title;
  AdwEntryRow *attribute_row;
  AdwComboRow *type_row;
  AdwEntryRow *old_row;
  AdwEntryRow *new_row;
  AdwComboRow *method_row;
  AdwEntryRow *key_row;
  AdwActionRow *preview_row;
  GtkSpinner *spinner;
  GtkLabel *error_label;

  DyStaging *staging;
  DyConnection *connection;
  char *table;
  GPtrArray *indexes; /* IndexInfo, in the order of method_row's model (Scan last) */
  gboolean ready;
  GCancellable *cancellable; /* while previewing */
  gboolean disposed;         /* answers may come after the widgets are gone */
  DdbFanoutPlan *plan;
  guint staging_n; /* while staging: how many copies */
  /* what the plan was made for */
  char *attribute, *index;
  DdbValue *old_value, *new_value, *index_key;
  char *summary;
  char *error;
  char *pending_index, *pending_key; /* set_method before the description came */
};

G_DEFINE_FINAL_TYPE (DyFanoutDialog, dy_fanout_dialog, ADW_TYPE_WINDOW)

enum { SIGNAL_STAGED, N_SIGNALS };

static guint signals[N_SIGNALS];

static void
index_info_free (IndexInfo *info)
{
  g_free (info->name);
  g_free (info->pk_name);
  g_free (info->pk_type);
  g_free (info);
}

static void
set_error (DyFanoutDialog *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
}

/* An error of the table's backend, as the window words it: DynamoDB's name, its message and
 * what to do. */
static void
show_failure (DyFanoutDialog *self, const GError *error)
{
  g_autofree char *text = dy_connection_describe_error (self->connection, error, NULL);

  set_error (self, text);
}

static IndexInfo *
selected_index (DyFanoutDialog *self)
{
  guint i = adw_combo_row_get_selected (self->method_row);

  return self->indexes != NULL && i < self->indexes->len ? g_ptr_array_index (self->indexes, i)
                                                         : NULL;
}

static void
update_actions (DyFanoutDialog *self)
{
  gboolean busy = self->cancellable != NULL || self->staging_n > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "fanout.preview", self->ready && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "fanout.stage",
                                 !busy && self->plan != NULL && self->plan->n_items > 0);
}

static void
clear_plan (DyFanoutDialog *self)
{
  g_clear_pointer (&self->plan, ddb_fanout_plan_free);
  g_clear_pointer (&self->attribute, g_free);
  g_clear_pointer (&self->index, g_free);
  g_clear_pointer (&self->old_value, ddb_value_free);
  g_clear_pointer (&self->new_value, ddb_value_free);
  g_clear_pointer (&self->index_key, ddb_value_free);
  g_clear_pointer (&self->summary, g_free);
}

/* Any edit makes the preview stale: it must be run again before staging. */
static void
inputs_changed (DyFanoutDialog *self)
{
  IndexInfo *index = selected_index (self);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->plan != NULL)
    {
      clear_plan (self);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->preview_row),
                                     _ ("Not previewed yet"));
      adw_action_row_set_subtitle (self->preview_row,
                                   _ ("The inputs changed: preview again before staging"));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->key_row), index != NULL);
  if (index != NULL)
    {
      /* TRANSLATORS: the value of an index's partition key, e.g. "authorId (S) =" */
      g_autofree char *title = g_strdup_printf (_ ("%s (%s) ="), index->pk_name, index->pk_type);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->key_row), title);
    }
  set_error (self, NULL);
  update_actions (self);
}

/* A typed value from an entry: TYPE_NAME "S", "N" or "B", checked as DynamoDB checks it. */
static DdbValue *
typed_value (const char *type_name, const char *text, const char *what, GError **error)
{
  json_t *json = json_pack ("{ss}", type_name, text);
  g_autoptr (GError) local = NULL;
  DdbValue *value = ddb_json_to_value (json, &local);

  json_decref (json);
  if (value == NULL)
    g_set_error (error, local->domain, local->code, "%s: %s", what, local->message);
  return value;
}

/* Reading the table's indexes. */

static const char *
attribute_type (json_t *table, const char *name)
{
  json_t *d;
  size_t i;

  json_array_foreach (json_object_get (table, "AttributeDefinitions"), i, d)
    if (g_strcmp0 (json_string_value (json_object_get (d, "AttributeName")), name) == 0)
      return json_string_value (json_object_get (d, "AttributeType"));
  return "S";
}

static void
add_indexes (DyFanoutDialog *self, json_t *table, const char *member, GtkStringList *names)
{
  json_t *index;
  size_t i;

  json_array_foreach (json_object_get (table, member), i, index)
    {
      const char *pk = dy_describe_key_name (json_object_get (index, "KeySchema"), "HASH");

      if (pk != NULL)
        {
          IndexInfo *info = g_new0 (IndexInfo, 1);
          g_autofree char *label = NULL;

          info->name = g_strdup (json_string_value (json_object_get (index, "IndexName")));
          info->pk_name = g_strdup (pk);
          info->pk_type = g_strdup (attribute_type (table, pk));
          /* TRANSLATORS: a way to find copies: a Query of the index named %s */
          label = g_strdup_printf (_ ("Index %s"), info->name);
          gtk_string_list_append (names, label);
          g_ptr_array_add (self->indexes, info);
        }
    }
}

static void
described (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyFanoutDialog) self = user_data;
  g_autoptr (GError) error = NULL;
  json_t *response = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  GtkStringList *names;
  json_t *table;

  if (self->disposed)
    {
      g_clear_pointer (&response, json_decref);
      return;
    }
  if (response == NULL)
    {
      show_failure (self, error);
      return;
    }
  table = json_object_get (response, "Table");
  names = gtk_string_list_new (NULL);
  self->indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) index_info_free);
  add_indexes (self, table, "GlobalSecondaryIndexes", names);
  add_indexes (self, table, "LocalSecondaryIndexes", names);
  gtk_string_list_append (names, _ ("Scan of the table"));
  adw_combo_row_set_model (self->method_row, G_LIST_MODEL (names));
  g_object_unref (names);
  self->ready = TRUE;
  json_decref (response);
  if (self->pending_index != NULL || self->pending_key != NULL)
    {
      g_autofree char *index = g_steal_pointer (&self->pending_index);
      g_autofree char *key = g_steal_pointer (&self->pending_key);

      dy_fanout_dialog_set_method (self, index, key);
    }
  inputs_changed (self);
}

/* Preview. */

static void
planned (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyFanoutDialog) self = user_data;
  g_autoptr (GError) error = NULL;
  DdbFanoutPlan *plan = dy_staging_fanout_plan_finish (DY_STAGING (source), result, &error);
  g_autofree char *size = NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  g_clear_object (&self->cancellable);
  if (self->disposed)
    {
      g_clear_pointer (&plan, ddb_fanout_plan_free);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  if (plan == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_failure (self, error);
      clear_plan (self);
      update_actions (self);
      return;
    }
  self->plan = plan;
  size = dy_format_size (plan->total_size);
  title = g_strdup_printf (g_dngettext (NULL, "%u copy found", "%u copies found", plan->n_items),
                           plan->n_items);
  /* TRANSLATORS: fan-out cost: "612 B · 3 WCU as single writes, 6 in transactions" */
  {
    g_autofree char *single = dy_format_count (plan->write_units);
    g_autofree char *transactions = dy_format_count (plan->write_units_transactions);

    subtitle = g_strdup_printf (_ ("%s · %s WCU as single writes, %s in transactions"), size,
                                single, transactions);
  }
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->preview_row), title);
  adw_action_row_set_subtitle (self->preview_row, plan->n_items > 0
                                                      ? subtitle
                                                      : _ ("No item holds the old value there: "
                                                           "nothing to stage"));
  g_free (self->summary);
  self->summary = g_strdup_printf ("%s · %s", title, subtitle);
  update_actions (self);
}

static gboolean
read_inputs (DyFanoutDialog *self, GError **error)
{
  const char *type = adw_combo_row_get_selected (self->type_row) == 1 ? "N" : "S";
  const char *attribute = gtk_editable_get_text (GTK_EDITABLE (self->attribute_row));
  IndexInfo *index = selected_index (self);

  clear_plan (self);
  if (*attribute == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _ ("Name the attribute that holds the copies"));
      return FALSE;
    }
  self->attribute = g_strdup (attribute);
  self->old_value = typed_value (type, gtk_editable_get_text (GTK_EDITABLE (self->old_row)),
                                 _ ("Old value"), error);
  if (self->old_value == NULL)
    return FALSE;
  self->new_value = typed_value (type, gtk_editable_get_text (GTK_EDITABLE (self->new_row)),
                                 _ ("New value"), error);
  if (self->new_value == NULL)
    return FALSE;
  if (ddb_value_equal (self->old_value, self->new_value))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _ ("The old and new values are the same: nothing to change"));
      return FALSE;
    }
  if (index != NULL)
    {
      const char *key = gtk_editable_get_text (GTK_EDITABLE (self->key_row));

      self->index = g_strdup (index->name);
      self->index_key = typed_value (index->pk_type, key, index->pk_name, error);
      if (self->index_key == NULL)
        return FALSE;
    }
  return TRUE;
}

static DdbFanoutSpec
current_spec (DyFanoutDialog *self)
{
  DdbFanoutSpec spec = { self->table,     self->attribute, self->old_value,
                         self->new_value, self->index,     self->index_key };

  return spec;
}

static void
preview_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyFanoutDialog *self = DY_FANOUT_DIALOG (widget);
  g_autoptr (GError) error = NULL;
  DdbFanoutSpec spec;

  if (!self->ready || self->cancellable != NULL)
    return;
  set_error (self, NULL);
  if (!read_inputs (self, &error))
    {
      clear_plan (self);
      set_error (self, error->message);
      update_actions (self);
      return;
    }
  spec = current_spec (self);
  self->cancellable = g_cancellable_new ();
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->preview_row), _ ("Finding copies…"));
  adw_action_row_set_subtitle (self->preview_row, "");
  update_actions (self);
  dy_staging_fanout_plan_async (self->staging, self->connection, &spec, self->cancellable, planned,
                                g_object_ref (self));
}

static void
staged (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyFanoutDialog) self = user_data;
  g_autoptr (GError) error = NULL;
  guint n = self->staging_n;

  self->staging_n = 0;
  if (!dy_staging_fanout_stage_finish (DY_STAGING (source), result, &error))
    {
      if (self->disposed)
        return;
      gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
      show_failure (self, error);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->preview_row), _ ("Not staged"));
      adw_action_row_set_subtitle (self->preview_row, _ ("Preview again, then stage"));
      update_actions (self);
      return;
    }
  if (self->disposed)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  g_signal_emit (self, signals[SIGNAL_STAGED], 0, n);
  gtk_window_close (GTK_WINDOW (self));
}

static void
stage_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyFanoutDialog *self = DY_FANOUT_DIALOG (widget);
  DdbFanoutSpec spec;

  if (self->plan == NULL || self->cancellable != NULL || self->staging_n > 0)
    return;
  spec = current_spec (self);
  self->staging_n = self->plan->n_items;
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->preview_row), _ ("Staging…"));
  /* the plan goes to the thread; the dialog stays on it until the answer */
  dy_staging_fanout_stage_async (self->staging, self->connection, &spec,
                                 g_steal_pointer (&self->plan), staged, g_object_ref (self));
  update_actions (self);
}

static void
entry_activated (DyFanoutDialog *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "fanout.preview", NULL);
}

/* GObject. */

static void
dy_fanout_dialog_dispose (GObject *object)
{
  DyFanoutDialog *self = DY_FANOUT_DIALOG (object);

  self->disposed = TRUE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_FANOUT_DIALOG);
  G_OBJECT_CLASS (dy_fanout_dialog_parent_class)->dispose (object);
}

static void
dy_fanout_dialog_finalize (GObject *object)
{
  DyFanoutDialog *self = DY_FANOUT_DIALOG (object);

  clear_plan (self);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->staging);
  g_clear_object (&self->connection);
  g_free (self->table);
  g_clear_pointer (&self->indexes, g_ptr_array_unref);
  g_free (self->error);
  g_free (self->pending_index);
  g_free (self->pending_key);
  G_OBJECT_CLASS (dy_fanout_dialog_parent_class)->finalize (object);
}

static void
dy_fanout_dialog_class_init (DyFanoutDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = dy_fanout_dialog_dispose;
  G_OBJECT_CLASS (klass)->finalize = dy_fanout_dialog_finalize;
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/dynoscope/Dynoscope/dy-fanout-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DyFanoutDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, DyFanoutDialog, attribute_row);
  gtk_widget_class_bind_template_child (widget_class, DyFanoutDialog, type_row);
  gtk_widget_class_bind_template_child (widget_class, DyFanoutDialog, old_row);
  gtk_widget_class_bind_template_child (widget_class, DyFanoutDialog, new_row);
  gtk_widget_class_bind_template_child (widget_class, DyFanoutDialog, method_row);
  gtk_widget_class_bind_template_child (widget_class, DyFanoutDialog, key_row);
  gtk_widget_class_bind_template_child (widget_class, DyFanoutDialog, preview_row);
  gtk_widget_class_bind_template_child (widget_class, DyFanoutDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, DyFanoutDialog, error_label);
  gtk_widget_class_install_action (widget_class, "fanout.preview", NULL, preview_action);
  gtk_widget_class_install_action (widget_class, "fanout.stage", NULL, stage_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  signals[SIGNAL_STAGED] = g_signal_new ("staged", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
dy_fanout_dialog_init (DyFanoutDialog *self)
{
  GtkWidget *inputs[4];

  gtk_widget_init_template (GTK_WIDGET (self));
  inputs[0] = GTK_WIDGET (self->attribute_row);
  inputs[1] = GTK_WIDGET (self->old_row);
  inputs[2] = GTK_WIDGET (self->new_row);
  inputs[3] = GTK_WIDGET (self->key_row);
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_signal_connect_swapped (inputs[i], "changed", G_CALLBACK (inputs_changed), self);
      /* Enter previews: finding the copies writes nothing */
      g_signal_connect_swapped (inputs[i], "entry-activated", G_CALLBACK (entry_activated), self);
    }
  g_signal_connect_swapped (self->type_row, "notify::selected", G_CALLBACK (inputs_changed), self);
  g_signal_connect_swapped (self->method_row, "notify::selected", G_CALLBACK (inputs_changed),
                            self);
  update_actions (self);
}

GtkWidget *
dy_fanout_dialog_new (GtkWindow *parent, DyStaging *staging, DyConnection *connection,
                      const char *table)
{
  DyFanoutDialog *self = g_object_new (DY_TYPE_FANOUT_DIALOG, "transient-for", parent, NULL);
  json_t *request = json_pack ("{ss}", "TableName", table);
  g_autofree char *subtitle
      = g_strdup_printf ("%s · %s", table, dy_connection_get_title (connection));

  self->staging = g_object_ref (staging);
  self->connection = g_object_ref (connection);
  self->table = g_strdup (table);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  dy_connection_call_async (connection, "DescribeTable", request, NULL, described,
                            g_object_ref (self));
  json_decref (request);
  return GTK_WIDGET (self);
}

static void
set_value_row (AdwEntryRow *row, const DdbValue *value)
{
  g_autofree char *number = NULL;

  if (value == NULL)
    return;
  if (value->type == DDB_TYPE_S)
    gtk_editable_set_text (GTK_EDITABLE (row), value->bytes.data);
  else if (value->type == DDB_TYPE_N)
    {
      number = dy_format_key (value);
      gtk_editable_set_text (GTK_EDITABLE (row), number);
    }
}

void
dy_fanout_dialog_set_change (DyFanoutDialog *self, const char *attribute, const DdbValue *old_value,
                             const DdbValue *new_value)
{
  if (attribute != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->attribute_row), attribute);
  if (old_value != NULL)
    adw_combo_row_set_selected (self->type_row, old_value->type == DDB_TYPE_N ? 1 : 0);
  set_value_row (self->old_row, old_value);
  set_value_row (self->new_row, new_value);
}

void
dy_fanout_dialog_set_method (DyFanoutDialog *self, const char *index, const char *key_text)
{
  if (!self->ready)
    {
      g_free (self->pending_index);
      g_free (self->pending_key);
      self->pending_index = g_strdup (index);
      self->pending_key = g_strdup (key_text);
      return;
    }
  for (guint i = 0; i <= self->indexes->len; i++)
    if (i == self->indexes->len
        || (index != NULL
            && g_str_equal (((IndexInfo *) g_ptr_array_index (self->indexes, i))->name, index)))
      {
        adw_combo_row_set_selected (self->method_row, i);
        break;
      }
  if (key_text != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->key_row), key_text);
}

gboolean
dy_fanout_dialog_get_ready (DyFanoutDialog *self)
{
  return self->ready;
}

gboolean
dy_fanout_dialog_get_busy (DyFanoutDialog *self)
{
  return self->cancellable != NULL || self->staging_n > 0;
}

const DdbFanoutPlan *
dy_fanout_dialog_get_plan (DyFanoutDialog *self)
{
  return self->plan;
}

const char *
dy_fanout_dialog_get_summary (DyFanoutDialog *self)
{
  return self->summary;
}

const char *
dy_fanout_dialog_get_error (DyFanoutDialog *self)
{
  return self->error;
}
