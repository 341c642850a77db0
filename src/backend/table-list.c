/* table-list.c: ListTables page after page on the calling thread, DescribeTable of each name on
 * a pool of threads fed as the pages arrive. */
#include "backend/table-list.h"

typedef struct {
  DdbBackend *backend;
  const DdbTableListOptions *options;
  GCancellable *cancellable; /* the caller's, and ours when a page fails */
} Listing;

static void
entry_free (DdbTableListEntry *entry)
{
  g_free (entry->name);
  if (entry->table != NULL)
    json_decref (entry->table);
  g_clear_error (&entry->error);
  g_free (entry);
}

static void
describe_one (gpointer data, gpointer user_data)
{
  DdbTableListEntry *entry = data;
  Listing *listing = user_data;
  json_t *request = json_pack ("{s:s}", "TableName", entry->name);
  json_t *response = NULL;
  json_t *table;

  if (ddb_backend_call (listing->backend, "DescribeTable", request, listing->cancellable,
                        &response, &entry->error))
    {
      table = json_object_get (response, "Table");
      if (json_is_object (table))
        entry->table = json_incref (table);
    }
  json_decref (request);
  if (response != NULL)
    json_decref (response);
  if (listing->options->described_func != NULL
      && !g_cancellable_is_cancelled (listing->cancellable))
    listing->options->described_func (entry, listing->options->user_data);
}

static void
cancel_ours (GCancellable *theirs, gpointer ours)
{
  g_cancellable_cancel (ours);
}

GPtrArray *
ddb_backend_list_tables (DdbBackend *backend, const DdbTableListOptions *options,
                         GCancellable *cancellable, GError **error)
{
  static const DdbTableListOptions defaults = { 0 };
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  g_autoptr (GCancellable) ours = g_cancellable_new ();
  GThreadPool *pool = NULL;
  Listing listing;
  json_t *start = NULL;
  gulong handler = 0;
  GError *local = NULL;

  if (options == NULL)
    options = &defaults;
  listing.backend = backend;
  listing.options = options;
  listing.cancellable = ours;
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (cancel_ours), ours, NULL);
  if (options->describe)
    pool = g_thread_pool_new (describe_one, &listing,
                              options->concurrency > 0 ? (int) options->concurrency
                                                       : DDB_TABLE_LIST_CONCURRENCY,
                              FALSE, NULL);
  do
    {
      json_t *request = json_object ();
      json_t *response = NULL;
      g_autoptr (GPtrArray) page = g_ptr_array_new ();
      json_t *name;
      size_t i;
      guint first = entries->len;

      if (start != NULL)
        json_object_set_new (request, "ExclusiveStartTableName", start);
      if (options->page_limit > 0)
        json_object_set_new (request, "Limit", json_integer (options->page_limit));
      start = NULL;
      if (!ddb_backend_call (backend, "ListTables", request, ours, &response, &local))
        {
          json_decref (request);
          if (response != NULL)
            json_decref (response);
          break;
        }
      json_decref (request);
      json_array_foreach (json_object_get (response, "TableNames"), i, name)
        {
          DdbTableListEntry *entry;

          if (!json_is_string (name))
            continue;
          entry = g_new0 (DdbTableListEntry, 1);
          entry->name = g_strdup (json_string_value (name));
          g_ptr_array_add (entries, entry);
          g_ptr_array_add (page, entry->name);
        }
      start = json_incref (json_object_get (response, "LastEvaluatedTableName"));
      json_decref (response);
      if (options->names_func != NULL)
        {
          g_ptr_array_add (page, NULL);
          options->names_func ((const char *const *) page->pdata, options->user_data);
        }
      /* The page's names go to the pool while the next page is asked for. */
      for (guint k = first; pool != NULL && k < entries->len; k++)
        g_thread_pool_push (pool, g_ptr_array_index (entries, k), NULL);
    }
  while (start != NULL);

  if (local != NULL)
    g_cancellable_cancel (ours);
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  if (local == NULL)
    g_cancellable_set_error_if_cancelled (cancellable, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  return g_steal_pointer (&entries);
}
