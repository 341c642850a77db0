/* dy-connection-tables.c: a connection's table list: ListTables page after page on a thread
 * (ddb_backend_list_tables), each page shown as it arrives, every table described by many
 * DescribeTable calls at once, the descriptions handed to the main thread in batches; a retry
 * that succeeds after a failure tells the open views ("renewed"). */
#define G_LOG_DOMAIN "dynoscope-connection"

#include <glib/gi18n.h>
#include <string.h>

#include "app/connections/dy-connection-private.h"
#include "backend/table-list.h"
#include "core/error.h"
#include "net/awsconfig.h"
#include "net/client.h"
#include "net/http.h"

/* How often descriptions reach the sidebar while a listing runs. */
#define FLUSH_INTERVAL_MS 150

typedef struct {
  char *name;
  json_t *table; /* or NULL */
  char *error;   /* why DescribeTable failed, or NULL */
  guint listing;
} DyTableInfo;

static void
info_free (DyTableInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->name);
  if (info->table != NULL)
    json_decref (info->table);
  g_free (info->error);
  g_free (info);
}

void
dy_connection_tables_init (DyConnection *self)
{
  self->described = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                           (GDestroyNotify) info_free);
  self->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) info_free);
}

json_t *
dy_connection_get_table_description (DyConnection *self, const char *name, const char **error)
{
  DyTableInfo *info = g_hash_table_lookup (self->described, name);

  if (error != NULL)
    *error = info != NULL ? info->error : NULL;
  return info != NULL ? info->table : NULL;
}

gboolean
dy_connection_error_wants_session (const GError *error)
{
  if (error == NULL)
    return FALSE;
  if (error->domain == DDB_AWS_ERROR)
    return error->code == DDB_AWS_ERROR_NO_CREDENTIALS
           || error->code == DDB_AWS_ERROR_PARTIAL_CREDENTIALS
           || error->code == DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL
           || error->code == DDB_AWS_ERROR_SIGN_IN_REQUIRED;
  if (error->domain == DDB_ERROR)
    return error->code == DDB_ERROR_MISSING_AUTHENTICATION_TOKEN
           || error->code == DDB_ERROR_UNRECOGNIZED_CLIENT
           || error->code == DDB_ERROR_INVALID_SIGNATURE
           /* not a DdbErrorCode: the window's text starts with its name */
           || (error->code == DDB_ERROR_INTERNAL && g_str_has_prefix (error->message, "ExpiredToken"));
  return FALSE;
}

gboolean
dy_connection_error_is_retryable (const GError *error, const char *name)
{
  g_autofree char *named = NULL;

  if (error == NULL)
    return FALSE;
  if (dy_connection_error_wants_session (error) || ddb_http_error_is_transient (error))
    return TRUE;
  if (error->domain != DDB_ERROR)
    return FALSE;
  if (name == NULL && error->code != DDB_ERROR_INTERNAL)
    name = ddb_error_type_name ((DdbErrorCode) error->code);
  else if (name == NULL)
    {
      /* not a DdbErrorCode (ThrottlingException) or InternalServerError itself: the text the
       * calls give starts with the name */
      const char *colon = strchr (error->message, ':');

      if (colon == NULL)
        return FALSE;
      name = named = g_strndup (error->message, (gsize) (colon - error->message));
    }
  /* throttling and the server's own failures (a 5xx without a name is InternalServerError) */
  return ddb_client_error_is_retryable (name, 0) || ddb_client_error_is_expired_token (name);
}

void
dy_connection_report_failure (DyConnection *self, const GError *error)
{
  /* The connection shows it (and its Sign In button) only when its session is what failed:
   * a refused query is the view's business. */
  if (dy_connection_error_wants_session (error) && !self->loading)
    dy_connection_set_error (self, error->message);
}

/* What the listing thread shares with its callbacks. */
typedef struct {
  DyConnection *self; /* a reference */
  guint listing;
  gboolean first_page_seen;
} Listing;

typedef struct {
  DyConnection *self;
  guint listing;
  gboolean first;
  char **names;
} Page;

static gboolean
show_page (gpointer data)
{
  Page *page = data;
  DyConnection *self = page->self;

  /* A page of the listing running now: the first replaces the list, the others follow it. */
  if (page->listing == self->listing && self->loading)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tables));

      gtk_string_list_splice (self->tables, page->first ? 0 : n, page->first ? n : 0,
                              (const char *const *) page->names);
    }
  g_object_unref (page->self);
  g_strfreev (page->names);
  g_free (page);
  return G_SOURCE_REMOVE;
}

static void
names_arrived (const char *const *names, gpointer user_data)
{
  Listing *listing = user_data;
  Page *page = g_new0 (Page, 1);

  page->self = g_object_ref (listing->self);
  page->listing = listing->listing;
  page->first = !listing->first_page_seen;
  page->names = g_strdupv ((char **) names);
  listing->first_page_seen = TRUE;
  /* At the priority GTask returns at, so that the pages come before the listing's end. */
  g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, show_page, page, NULL);
}

static gboolean
flush_described (gpointer data)
{
  DyConnection *self = data;
  g_autoptr (GPtrArray) batch = NULL;

  g_mutex_lock (&self->lock);
  batch = g_steal_pointer (&self->pending);
  self->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) info_free);
  self->flush_id = 0;
  g_mutex_unlock (&self->lock);
  for (guint i = 0; i < batch->len; i++)
    {
      DyTableInfo *info = g_ptr_array_index (batch, i);

      /* Descriptions from an older listing are dropped with the batch. */
      if (info->listing == self->listing)
        g_hash_table_replace (self->described, info->name, g_steal_pointer (&batch->pdata[i]));
    }
  dy_connection_emit_tables_described (self);
  return G_SOURCE_REMOVE;
}

static void
described (const DdbTableListEntry *entry, gpointer user_data)
{
  Listing *listing = user_data;
  DyConnection *self = listing->self;
  DyTableInfo *info = g_new0 (DyTableInfo, 1);

  info->name = g_strdup (entry->name);
  info->table = entry->table != NULL ? json_incref (entry->table) : NULL;
  info->error = entry->error != NULL ? g_strdup (entry->error->message) : NULL;
  info->listing = listing->listing;
  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->pending, info);
  if (self->flush_id == 0)
    self->flush_id = g_timeout_add_full (G_PRIORITY_DEFAULT, FLUSH_INTERVAL_MS, flush_described,
                                         g_object_ref (self), g_object_unref);
  g_mutex_unlock (&self->lock);
}

typedef struct {
  gboolean reload; /* a retry: the session resolved again first */
  guint listing;
} ListData;

static void
list_tables_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyConnection *self = source;
  ListData *data = task_data;
  Listing listing = { self, data->listing, FALSE };
  DdbTableListOptions options = { 0 };
  GError *local = NULL;
  DdbBackend *backend;
  GPtrArray *entries = NULL;
  GPtrArray *names;

  if (data->reload)
    dy_connection_reload_session (self);
  backend = dy_connection_get_backend_internal (self, &local);
  options.describe = TRUE;
  options.names_func = names_arrived;
  options.described_func = described;
  options.user_data = &listing;
  if (backend != NULL)
    entries = ddb_backend_list_tables (backend, &options, cancellable, &local);
  if (entries == NULL)
    {
      GError *error = NULL;

      dy_connection_call_failed (self, backend, local, NULL, &error);
      g_task_return_error (task, error);
      return;
    }
  names = g_ptr_array_new_full (entries->len + 1, g_free);
  for (guint i = 0; i < entries->len; i++)
    g_ptr_array_add (names, g_strdup (((DdbTableListEntry *) g_ptr_array_index (entries, i))->name));
  g_ptr_array_add (names, NULL);
  g_ptr_array_unref (entries);
  g_task_return_pointer (task, g_ptr_array_free (names, FALSE), (GDestroyNotify) g_strfreev);
}

/* Whether the list already holds exactly NAMES (the pages shown as they came). */
static gboolean
list_is (GtkStringList *list, char **names)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));

  if (n != g_strv_length (names))
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (list, i), names[i]) != 0)
      return FALSE;
  return TRUE;
}

static void
list_tables_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyConnection *self = DY_CONNECTION (source);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) names = g_task_propagate_pointer (G_TASK (result), &error);
  ListData *data = g_task_get_task_data (G_TASK (result));
  GHashTableIter iter;
  const char *name;

  if (data->listing != self->listing)
    return; /* a newer listing runs: its end counts */
  dy_connection_set_loading (self, FALSE);
  self->loaded = TRUE;
  if (names == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        dy_connection_set_error (self, error->message);
      else if (!g_cancellable_is_cancelled (self->cancellable))
        {
          /* Cancelled by the person (the MFA dialog), not by closing: the row says so. */
          /* TRANSLATORS: after a cancelled sign-in step (the MFA dialog) */
          g_autofree char *text = g_strdup_printf ("%s\n%s", error->message,
                                                   _("Click the connection to try again."));

          dy_connection_set_error (self, text);
        }
      return;
    }
  g_mutex_lock (&self->lock);
  self->sign_in = DDB_AWS_SIGN_IN_NONE;
  g_clear_pointer (&self->sign_in_command, g_free);
  g_mutex_unlock (&self->lock);
  dy_connection_set_error (self, NULL);
  if (!list_is (self->tables, names))
    gtk_string_list_splice (self->tables, 0,
                            g_list_model_get_n_items (G_LIST_MODEL (self->tables)),
                            (const char *const *) names);
  /* Descriptions of tables that are gone go too. */
  g_hash_table_iter_init (&iter, self->described);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, NULL))
    if (!g_strv_contains ((const char *const *) names, name))
      g_hash_table_iter_remove (&iter);
  /* Who it is signed in as, for AWS connections (a local endpoint's keys are placeholders). */
  if (self->kind == DY_CONNECTION_PROFILE)
    dy_connection_refresh_identity (self);
  /* A retry that worked (after Sign In, or clicked after a failure): what failed for want of a
   * session runs again. */
  if (data->reload)
    dy_connection_emit_renewed (self);
}

static void
start_listing (DyConnection *self, gboolean reload)
{
  g_autoptr (GTask) task = g_task_new (self, self->cancellable, list_tables_done, NULL);
  ListData *data = g_new0 (ListData, 1);

  data->reload = reload;
  data->listing = ++self->listing;
  self->requested = TRUE;
  dy_connection_set_loading (self, TRUE);
  g_task_set_source_tag (task, dy_connection_refresh_tables);
  g_task_set_task_data (task, data, g_free);
  g_task_run_in_thread (task, list_tables_thread);
}

void
dy_connection_refresh_tables (DyConnection *self)
{
  start_listing (self, FALSE);
}

void
dy_connection_retry (DyConnection *self)
{
  if (self->loading)
    return;
  start_listing (self, self->kind != DY_CONNECTION_DATABASE);
}
