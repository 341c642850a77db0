/* s3-locate.c: where the export an s3:// URL names lies (s3-import.h's ddb_s3_export_locate):
 * its manifest-summary.json, its folder (.../AWSDynamoDB/<export id>), or a prefix under which
 * one export lies (PREFIX/AWSDynamoDB/<export id>/), found with ListObjectsV2 and a delimiter,
 * so that a bucket's thousands of data files are never listed. */
#include <string.h>

#include "exports/s3-import.h"

#define SUMMARY "manifest-summary.json"

/* Whether BUCKET holds exactly KEY (a listing of KEY as a prefix). */
static gboolean
object_exists (DdbS3 *s3, const char *bucket, const char *key, gboolean *exists,
               GCancellable *cancellable, GError **error)
{
  g_autoptr (DdbS3Listing) listing
      = ddb_s3_list_objects (s3, bucket, key, "/", cancellable, NULL, error);

  *exists = FALSE;
  if (listing == NULL)
    return FALSE;
  for (guint i = 0; i < listing->objects->len; i++)
    if (strcmp (((DdbS3Object *) g_ptr_array_index (listing->objects, i))->key, key) == 0)
      *exists = TRUE;
  return TRUE;
}

/* Newest first: export ids start with their time in milliseconds. */
static gint
by_id_descending (gconstpointer a, gconstpointer b)
{
  return -strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The exports under FOLDER/AWSDynamoDB/ (FOLDER "" or ending in '/'): the keys of their
 * summaries into FOUND. */
static gboolean
exports_under (DdbS3 *s3, const char *bucket, const char *aws_folder, GPtrArray *found,
               GCancellable *cancellable, GError **error)
{
  g_autoptr (DdbS3Listing) ids
      = ddb_s3_list_objects (s3, bucket, aws_folder, "/", cancellable, NULL, error);

  if (ids == NULL)
    return FALSE;
  for (guint i = 0; i < ids->common_prefixes->len; i++)
    {
      const char *sub = g_ptr_array_index (ids->common_prefixes, i);
      g_autofree char *summary = g_strconcat (sub, SUMMARY, NULL);
      gboolean exists;

      /* AWSDynamoDB/data/ (where incremental exports may keep their files) is no export, nor
       * is an export still being written (no summary yet). */
      if (!object_exists (s3, bucket, summary, &exists, cancellable, error))
        return FALSE;
      if (exists)
        g_ptr_array_add (found, g_steal_pointer (&summary));
    }
  return TRUE;
}

gboolean
ddb_s3_export_locate (DdbS3 *s3, const char *url, char **bucket_out, char **summary_key,
                      GCancellable *cancellable, GError **error)
{
  g_autofree char *bucket = NULL;
  g_autofree char *key = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *direct = NULL;
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  gboolean exists;

  if (!ddb_s3_parse_url (url, &bucket, &key, error))
    return FALSE;
  if (g_str_has_suffix (key, SUMMARY) && (strlen (key) == strlen (SUMMARY)
                                          || key[strlen (key) - strlen (SUMMARY) - 1] == '/'))
    {
      if (!object_exists (s3, bucket, key, &exists, cancellable, error))
        return FALSE;
      if (exists)
        g_ptr_array_add (found, g_strdup (key));
    }
  else
    {
      /* The folder, without its trailing slashes, then with one ("" for the bucket's root). */
      gsize len = strlen (key);

      while (len > 0 && key[len - 1] == '/')
        len--;
      folder = len > 0 ? g_strdup_printf ("%.*s/", (int) len, key) : g_strdup ("");
      direct = g_strconcat (folder, SUMMARY, NULL);
      /* The export's own folder (.../AWSDynamoDB/<id>/, or a copy of one elsewhere). */
      if (*folder != '\0' && !object_exists (s3, bucket, direct, &exists, cancellable, error))
        return FALSE;
      if (*folder != '\0' && exists)
        g_ptr_array_add (found, g_strdup (direct));
      else
        {
          /* A prefix: the exports in its AWSDynamoDB/ (or in it, when it is one). */
          if (g_str_has_suffix (folder, "AWSDynamoDB/")
              && (strlen (folder) == strlen ("AWSDynamoDB/")
                  || folder[strlen (folder) - strlen ("AWSDynamoDB/") - 1] == '/'))
            {
              if (!exports_under (s3, bucket, folder, found, cancellable, error))
                return FALSE;
            }
          else
            {
              g_autofree char *aws = g_strconcat (folder, "AWSDynamoDB/", NULL);

              if (!exports_under (s3, bucket, aws, found, cancellable, error))
                return FALSE;
            }
        }
    }

  if (found->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "%s: no DynamoDB export there (no manifest-summary.json at it, in it, or in "
                   "an AWSDynamoDB/<export id>/ folder under it)",
                   url);
      return FALSE;
    }
  if (found->len > 1)
    {
      GString *list = g_string_new (NULL);

      g_ptr_array_sort (found, by_id_descending);
      for (guint i = 0; i < found->len; i++)
        {
          const char *summary = g_ptr_array_index (found, i);

          g_string_append_printf (list, "\n  s3://%s/%.*s", bucket,
                                  (int) (strlen (summary) - strlen (SUMMARY)), summary);
        }
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: %u DynamoDB exports lie under it; name one (newest first):%s", url,
                   found->len, list->str);
      g_string_free (list, TRUE);
      return FALSE;
    }
  *bucket_out = g_steal_pointer (&bucket);
  *summary_key = g_strdup (g_ptr_array_index (found, 0));
  return TRUE;
}
