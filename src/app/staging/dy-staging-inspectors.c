/* dy-staging-inspectors.c: the staging area's glue to the inspectors: their edits staged, their
 * drafts kept while the app runs, their staged state shown, and the question asked before a
 * window with drafts closes. */
#define G_LOG_DOMAIN "dynoscope-staging"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "app/staging/dy-staging-private.h"
#include "core/ddbjson.h"

/* A draft kept for an item while the app runs. */
typedef struct {
  DyConnection *connection;
  char *table;
  DyInspectorDraft *draft;
} Draft;

void
dy_staging_draft_free (gpointer data)
{
  Draft *d = data;

  g_object_unref (d->connection);
  g_free (d->table);
  dy_inspector_draft_free (d->draft);
  g_free (d);
}

/* Inspector glue. */

typedef struct {
  DyStaging *staging;
  DyConnection *connection;
  char *table;
  DyInspector *inspector; /* the one this is attached to (its data) */
} Attached;

static void
attached_free (Attached *a)
{
  g_ptr_array_remove (a->staging->inspectors, a->inspector);
  g_object_unref (a->staging);
  g_object_unref (a->connection);
  g_free (a->table);
  g_free (a);
}

/* Stages an edit as the inspector words it (an update from what the editor started from). */
static gboolean
stage_edit (DyStaging *self, DyConnection *connection, const char *table, DyInspectorStage kind,
            const DdbValue *key, const DdbValue *original, const DdbValue *target, GError **error)
{
  static const DdbChangeKind kinds[] = {
    [DY_INSPECTOR_STAGE_UPDATE] = DDB_CHANGE_UPDATE,
    [DY_INSPECTOR_STAGE_CREATE] = DDB_CHANGE_CREATE,
    [DY_INSPECTOR_STAGE_DELETE] = DDB_CHANGE_DELETE,
  };
  const DdbChange *pending = NULL;

  /* An edit of an item staged as new changes that create: the store merges an update into it
   * when the update starts from the created item. */
  if (kind == DY_INSPECTOR_STAGE_UPDATE)
    pending = dy_staging_lookup_change (self, connection, table, key);
  if (pending != NULL && pending->kind == DDB_CHANGE_CREATE)
    original = pending->target;
  return dy_staging_stage (self, connection, table, kinds[kind], key, original, target, error);
}

static gboolean
inspector_stage (DyInspector *inspector, int kind, gpointer key, gpointer original, gpointer target,
                 Attached *a)
{
  g_autoptr (GError) error = NULL;

  stage_edit (a->staging, a->connection, a->table, kind, key, original, target, &error);
  dy_inspector_report_staged (inspector, kind, error);
  return TRUE;
}

/* Drafts. */

/* The key drafts are kept under: a new item's is one per table. */
static char *
draft_key (DyConnection *connection, const char *table, const DdbValue *key)
{
  const char *id = dy_staging_connection_id (connection);
  g_autofree char *fallback = id == NULL ? g_strdup_printf ("%p", (void *) connection) : NULL;
  g_auto (GStrv) names = NULL;
  g_autofree char *text = NULL;

  if (key != NULL)
    {
      names = dy_staging_key_names (key);
      text = dy_staging_key_text (key, names);
    }
  return g_strdup_printf ("%s\n%s\n%s", id != NULL ? id : fallback, table,
                          text != NULL ? text : "(new)");
}

static void
inspector_draft (DyInspector *inspector, gpointer key, gpointer draft, Attached *a)
{
  char *dkey = draft_key (a->connection, a->table, key);
  Draft *d;

  if (draft == NULL)
    {
      g_hash_table_remove (a->staging->drafts, dkey);
      g_free (dkey);
      return;
    }
  d = g_new0 (Draft, 1);
  d->connection = g_object_ref (a->connection);
  d->table = g_strdup (a->table);
  d->draft = g_new0 (DyInspectorDraft, 1);
  *d->draft = *(const DyInspectorDraft *) draft;
  d->draft->title = g_strdup (d->draft->title);
  d->draft->text = g_strdup (d->draft->text);
  d->draft->key = d->draft->key != NULL ? ddb_value_copy (d->draft->key) : NULL;
  d->draft->base = ddb_value_copy (d->draft->base);
  d->draft->original = d->draft->original != NULL ? ddb_value_copy (d->draft->original) : NULL;
  d->draft->pk_name = g_strdup (d->draft->pk_name);
  d->draft->sk_name = g_strdup (d->draft->sk_name);
  g_hash_table_replace (a->staging->drafts, dkey, d);
}

const DyInspectorDraft *
dy_staging_get_draft (DyStaging *self, DyConnection *connection, const char *table,
                      const DdbValue *key)
{
  g_autofree char *dkey = draft_key (connection, table, key);
  Draft *d = g_hash_table_lookup (self->drafts, dkey);

  return d != NULL ? d->draft : NULL;
}

void
dy_staging_save_drafts (DyStaging *self)
{
  for (guint i = 0; i < self->inspectors->len; i++)
    dy_inspector_save_draft (g_ptr_array_index (self->inspectors, i));
}

guint
dy_staging_get_n_drafts (DyStaging *self, guint *n_valid)
{
  GHashTableIter iter;
  Draft *d;

  if (n_valid != NULL)
    {
      *n_valid = 0;
      g_hash_table_iter_init (&iter, self->drafts);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &d))
        {
          g_autoptr (DdbValue) item = dy_inspector_draft_parse (d->draft, NULL);

          *n_valid += item != NULL;
        }
    }
  return g_hash_table_size (self->drafts);
}

/* Stages one draft as the inspector would have; FALSE with an error when the store refused. */
static gboolean
stage_draft (DyStaging *self, Draft *d, const DdbValue *item, GError **error)
{
  const DyInspectorDraft *draft = d->draft;
  g_autoptr (DdbValue) key = NULL;

  if (ddb_value_equal (item, draft->base))
    return TRUE;
  if (draft->key != NULL)
    return stage_edit (self, d->connection, d->table, DY_INSPECTOR_STAGE_UPDATE, draft->key,
                       draft->base, item, error);
  key = ddb_value_new_m ();
  ddb_value_map_set (key, draft->pk_name,
                     ddb_value_copy (ddb_value_map_get (item, draft->pk_name)));
  if (draft->sk_name != NULL)
    ddb_value_map_set (key, draft->sk_name,
                       ddb_value_copy (ddb_value_map_get (item, draft->sk_name)));
  return stage_edit (self, d->connection, d->table, DY_INSPECTOR_STAGE_CREATE, key, NULL, item,
                     error);
}

gboolean
dy_staging_stage_drafts (DyStaging *self, guint *n_staged, GError **error)
{
  GHashTableIter iter;
  Draft *d;

  if (n_staged != NULL)
    *n_staged = 0;
  g_hash_table_iter_init (&iter, self->drafts);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &d))
    {
      g_autoptr (DdbValue) item = dy_inspector_draft_parse (d->draft, NULL);

      if (item == NULL)
        continue;
      if (!stage_draft (self, d, item, error))
        return FALSE;
      if (n_staged != NULL)
        (*n_staged)++;
      g_hash_table_iter_remove (&iter);
    }
  return TRUE;
}

void
dy_staging_discard_drafts (DyStaging *self)
{
  g_hash_table_remove_all (self->drafts);
}

/* Another item is shown: what is staged for it, then its draft if one is kept. */
static void
inspector_show_staged (DyInspector *inspector, Attached *a)
{
  DyItem *item = dy_inspector_get_item (inspector);
  const DdbChange *change;

  if (item == NULL)
    return;
  change = dy_staging_lookup_change (a->staging, a->connection, a->table, dy_item_get_value (item));
  if (change == NULL)
    {
      dy_inspector_show_staged (inspector, -1, NULL);
      return;
    }
  switch (change->kind)
    {
    case DDB_CHANGE_UPDATE:
      dy_inspector_show_staged (inspector, DY_INSPECTOR_STAGE_UPDATE, change->target);
      break;
    case DDB_CHANGE_CREATE:
      dy_inspector_show_staged (inspector, DY_INSPECTOR_STAGE_CREATE, change->target);
      break;
    case DDB_CHANGE_DELETE:
      dy_inspector_show_staged (inspector, DY_INSPECTOR_STAGE_DELETE, NULL);
      break;
    }
}

static void
inspector_item_changed (DyInspector *inspector, Attached *a)
{
  g_autoptr (DdbValue) key = dy_inspector_dup_key (inspector);
  const DyInspectorDraft *draft = NULL;

  inspector_show_staged (inspector, a);
  if (dy_inspector_get_creating (inspector) || key != NULL)
    draft = dy_staging_get_draft (a->staging, a->connection, a->table, key);
  if (draft != NULL)
    dy_inspector_restore_draft (inspector, draft);
}

static gboolean
destroy_window (gpointer data)
{
  gtk_window_destroy (data);
  return G_SOURCE_REMOVE;
}

static void
close_response (AdwMessageDialog *dialog, const char *response, GtkWindow *window)
{
  DyStaging *self = g_object_get_data (G_OBJECT (dialog), "dy-staging");
  g_autoptr (GError) error = NULL;

  if (g_str_equal (response, "stage") && !dy_staging_stage_drafts (self, NULL, &error))
    {
      g_autofree char *body = g_strdup_printf (
          _ ("%s\n\nThe window stays open: the drafts not staged are still in their items."),
          error->message);
      GtkWidget *failed = adw_message_dialog_new (window, _ ("Could Not Stage the Drafts"), body);

      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (failed), "close", _ ("_Close"));
      gtk_window_present (GTK_WINDOW (failed));
      return;
    }
  if (g_str_equal (response, "stage") || g_str_equal (response, "discard"))
    {
      /* the window's inspectors go with it: what they still hold is what was just discarded */
      for (guint i = 0; i < self->inspectors->len; i++)
        {
          GtkWidget *inspector = g_ptr_array_index (self->inspectors, i);

          if (gtk_widget_get_root (inspector) == GTK_ROOT (window))
            g_signal_handlers_disconnect_matched (inspector, G_SIGNAL_MATCH_FUNC, 0, 0, NULL,
                                                  inspector_draft, NULL);
        }
      dy_staging_discard_drafts (self);
      /* not from inside the dialog's response: the dialog, transient for WINDOW, still
       * unhooks itself from it as it closes */
      g_idle_add_full (G_PRIORITY_DEFAULT, destroy_window, g_object_ref (window), g_object_unref);
    }
}

/* The other windows of WINDOW's application that keep the app (and so its drafts) running. */
static gboolean
other_main_windows (GtkWindow *window)
{
  GtkApplication *app = gtk_window_get_application (window);

  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    if (l->data != window && gtk_window_get_transient_for (l->data) == NULL)
      return TRUE;
  return FALSE;
}

gboolean
dy_staging_confirm_close (DyStaging *self, GtkWindow *window)
{
  guint n, n_valid;
  g_autoptr (GString) body = g_string_new (NULL);
  GtkWidget *dialog;

  dy_staging_save_drafts (self);
  n = dy_staging_get_n_drafts (self, &n_valid);
  if (n == 0 || other_main_windows (window))
    return FALSE;
  g_string_append_printf (
      body,
      g_dngettext (
          NULL, "%u item has edits that are not staged. Drafts live only while the app runs.",
          "%u items have edits that are not staged. Drafts live only while the app runs.", n),
      n);
  if (n_valid < n)
    {
      g_string_append (body, "\n\n");
      g_string_append_printf (
          body,
          g_dngettext (NULL,
                       "%u draft is not a valid item and cannot be staged: cancel to fix it, or it "
                       "is lost.",
                       "%u drafts are not valid items and cannot be staged: cancel to fix them, or "
                       "they are lost.",
                       n - n_valid),
          n - n_valid);
    }
  dialog = adw_message_dialog_new (window, _ ("Stage Your Drafts?"), body->str);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "discard",
                                    _ ("_Discard"), "stage", _ ("_Stage All Valid Drafts"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "stage",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "stage", n_valid > 0);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog),
                                           n_valid > 0 ? "stage" : "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "dy-staging", g_object_ref (self), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_response), window, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

/* Staged, discarded or committed elsewhere (the panel, a fan-out): the inspector follows. */
static void
staging_changed (DyStaging *staging, DyInspector *inspector)
{
  Attached *a = g_object_get_data (G_OBJECT (inspector), "dy-staging-attached");

  if (a != NULL)
    inspector_show_staged (inspector, a);
}

static gboolean
key_type (json_t *definitions, const char *name, DdbType *type)
{
  size_t i;
  json_t *d;

  json_array_foreach (definitions, i, d)
    if (g_strcmp0 (json_string_value (json_object_get (d, "AttributeName")), name) == 0)
      return ddb_type_from_name (json_string_value (json_object_get (d, "AttributeType")), type);
  return FALSE;
}

static void
described (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyInspector) inspector = user_data;
  g_autoptr (GError) error = NULL;
  json_t *response = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_t *table, *schema, *definitions, *k;
  const char *pk = NULL, *sk = NULL;
  DdbType pk_type = DDB_TYPE_S, sk_type = DDB_TYPE_S;
  size_t i;

  if (response == NULL)
    {
      g_autofree char *described
          = dy_connection_describe_error (DY_CONNECTION (source), error, NULL);
      /* TRANSLATORS: %s is DynamoDB's error and what to do about it */
      g_autofree char *message = g_strdup_printf (
          _ ("The table’s key schema could not be read, so nothing can be staged: %s"), described);

      dy_inspector_set_key_schema_error (inspector, message);
      return;
    }
  table = json_object_get (response, "Table");
  schema = json_object_get (table, "KeySchema");
  definitions = json_object_get (table, "AttributeDefinitions");
  json_array_foreach (schema, i, k)
    {
      const char *name = json_string_value (json_object_get (k, "AttributeName"));
      const char *role = json_string_value (json_object_get (k, "KeyType"));

      if (g_strcmp0 (role, "HASH") == 0 && key_type (definitions, name, &pk_type))
        pk = name;
      else if (g_strcmp0 (role, "RANGE") == 0 && key_type (definitions, name, &sk_type))
        sk = name;
    }
  if (pk != NULL)
    dy_inspector_set_key_schema (inspector, pk, pk_type, sk, sk_type);
  json_decref (response);
}

void
dy_staging_attach_inspector (DyStaging *self, DyInspector *inspector, DyConnection *connection,
                             const char *table)
{
  Attached *a = g_new0 (Attached, 1);
  json_t *request = json_pack ("{ss}", "TableName", table);

  a->staging = g_object_ref (self);
  a->connection = g_object_ref (connection);
  a->table = g_strdup (table);
  a->inspector = inspector;
  g_ptr_array_add (self->inspectors, inspector);
  g_object_set_data_full (G_OBJECT (inspector), "dy-staging-attached", a,
                          (GDestroyNotify) attached_free);
  g_signal_connect (inspector, "stage", G_CALLBACK (inspector_stage), a);
  g_signal_connect (inspector, "item-changed", G_CALLBACK (inspector_item_changed), a);
  g_signal_connect (inspector, "draft", G_CALLBACK (inspector_draft), a);
  g_signal_connect_object (self, "changed", G_CALLBACK (staging_changed), inspector, 0);
  dy_staging_prepare (self, connection);
  dy_connection_call_async (connection, "DescribeTable", request, NULL, described,
                            g_object_ref (inspector));
  json_decref (request);
}
