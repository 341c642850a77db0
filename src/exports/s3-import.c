/* s3-import.c: an export (and its incremental exports) imported straight from S3
 * (s3-import.h's ddb_s3_import): each URL located, the engine's import run over the bucket's
 * store (s3-store.h), the table's base recorded as the export's folder; and the same exports
 * opened for another reader (ddb_s3_exports_open: compare's). */
#include <jansson.h>
#include <string.h>

#include "exports/s3-import.h"
#include "exports/s3-store.h"

struct _DdbS3Exports {
  char *bucket;
  GPtrArray *summaries; /* char *: the manifest-summary.json keys, NULL-terminated */
  DdbS3Store *store;
};

void
ddb_s3_exports_free (DdbS3Exports *exports)
{
  if (exports == NULL)
    return;
  g_clear_pointer (&exports->store, ddb_s3_store_free);
  g_ptr_array_unref (exports->summaries);
  g_free (exports->bucket);
  g_free (exports);
}

DdbS3Exports *
ddb_s3_exports_open (DdbS3 *s3, const char *const *urls, const DdbS3ImportOptions *s3_options,
                     GCancellable *cancellable, GError **error)
{
  g_autoptr (DdbS3Exports) exports = g_new0 (DdbS3Exports, 1);

  g_return_val_if_fail (s3 != NULL && urls != NULL && urls[0] != NULL, NULL);
  exports->summaries = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; urls[i] != NULL; i++)
    {
      g_autofree char *b = NULL;
      char *summary = NULL;

      if (!ddb_s3_export_locate (s3, urls[i], &b, &summary, cancellable, error))
        return NULL;
      g_ptr_array_add (exports->summaries, summary);
      if (exports->bucket == NULL)
        exports->bucket = g_steal_pointer (&b);
      else if (strcmp (exports->bucket, b) != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "%s: the exports must all be in one bucket (the first is in %s)", urls[i],
                       exports->bucket);
          return NULL;
        }
    }
  g_ptr_array_add (exports->summaries, NULL);
  exports->store = ddb_s3_store_new_for_bucket (
      s3, exports->bucket, s3_options != NULL ? s3_options->parallel : 0,
      s3_options != NULL ? s3_options->memory_budget : 0, cancellable);
  return g_steal_pointer (&exports);
}

const DdbSnapshotStore *
ddb_s3_exports_get_store (DdbS3Exports *exports)
{
  return ddb_s3_store_get (exports->store);
}

const char *const *
ddb_s3_exports_get_summaries (DdbS3Exports *exports)
{
  return (const char *const *) exports->summaries->pdata;
}

/* The exportToTime of the export whose summary is SUMMARY_KEY, in microseconds (0 when it
 * cannot be read: the import itself will say why). */
static gint64
export_to_time (const DdbSnapshotStore *store, const char *summary_key)
{
  g_autoptr (GBytes) bytes = store->get (summary_key, store->data, NULL, NULL);
  json_auto_t *summary = NULL;
  g_autoptr (GDateTime) t = NULL;
  const char *text;
  gsize len;

  if (bytes == NULL)
    return 0;
  text = g_bytes_get_data (bytes, &len);
  summary = json_loadb (text, len, 0, NULL);
  text = json_string_value (json_object_get (summary, "exportToTime"));
  t = text != NULL ? g_date_time_new_from_iso8601 (text, NULL) : NULL;
  return t != NULL ? g_date_time_to_unix (t) * G_USEC_PER_SEC + g_date_time_get_microsecond (t)
                   : 0;
}

/* "s3://BUCKET/FOLDER/" of the export whose summary is SUMMARY_KEY. */
static char *
export_folder_url (const char *bucket, const char *summary_key)
{
  const char *slash = strrchr (summary_key, '/');

  return g_strdup_printf ("s3://%s/%.*s", bucket,
                          slash != NULL ? (int) (slash - summary_key + 1) : 0, summary_key);
}

gboolean
ddb_s3_import (DdbEngine *engine, DdbS3 *s3, const char *const *urls,
               const DdbImportOptions *options, const DdbS3ImportOptions *s3_options,
               DdbSnapshotProgress *out, GError **error)
{
  g_autoptr (DdbS3Exports) exports = NULL;
  GPtrArray *summaries;
  g_autofree char *base_source = NULL;
  DdbImportOptions opts = *options;
  const char *last;
  gint64 best = 0;

  g_return_val_if_fail (engine != NULL && s3 != NULL && urls != NULL && urls[0] != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  if (out != NULL)
    memset (out, 0, sizeof *out);
  exports = ddb_s3_exports_open (s3, urls, s3_options, options->cancellable, error);
  if (exports == NULL)
    return FALSE;
  summaries = exports->summaries;
  opts.store = ddb_s3_exports_get_store (exports);
  opts.incrementals = (const char *const *) summaries->pdata + 1;
  /* The base is the export the table ends as of: the full one, or the incremental export that
   * ends last (the engine applies them in that order). */
  last = g_ptr_array_index (summaries, 0);
  for (guint i = 1; i + 1 < summaries->len; i++)
    {
      gint64 to = export_to_time (opts.store, g_ptr_array_index (summaries, i));

      if (i == 1 || to > best)
        {
          best = to;
          last = g_ptr_array_index (summaries, i);
        }
    }
  base_source = export_folder_url (exports->bucket, last);
  if (opts.base_source == NULL)
    {
      opts.base_source = base_source;
      opts.base_format = "s3";
    }
  return ddb_snapshot_import (engine, g_ptr_array_index (summaries, 0), &opts, out, error);
}
