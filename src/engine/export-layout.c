/* export-layout.c: the writer of DynamoDB's S3 export layout (see export-layout.h): data files
 * gzip-compressed in memory as records arrive and PUT when full, then the manifests and their
 * checksums; and the folder standing for a bucket. zlib itself rather than GIO's converters:
 * the lean dynoscope-serve links neither GIO nor GObject. */
#include "engine/export-layout.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <zlib.h>

#include "core/ddbjson.h"
#include "core/ion.h"
#include "core/itemsize.h"
#include "core/number.h"

G_DEFINE_QUARK (ddb-export-error-quark, ddb_export_error)

#define DEFAULT_MAX_FILE_BYTES (64 * 1024 * 1024)

struct _DdbExportLayout {
  DdbExportLayoutOptions o;
  /* Copies of the options' strings (o points at them). */
  char *export_arn, *table_arn, *table_id, *bucket, *prefix, *sse, *kms;
  json_t *summary_extra;
  char *export_id;
  char *base;      /* "PREFIX/AWSDynamoDB/" or "AWSDynamoDB/" */
  char *export_dir; /* base + export id + "/" */
  DdbExportPutFunc put;
  gpointer put_data;
  GCancellable *cancellable; /* borrowed */

  /* The data file being written. */
  z_stream z;
  gboolean open;       /* z is initialised: a data file is being written */
  GByteArray *gz;      /* the .gz so far */
  gsize file_bytes;    /* uncompressed */
  guint64 file_items;

  GString *line;
  GString *files;      /* manifest-files.json */
  guint n_files;
  guint64 items;
  guint64 billed;
};

const char *
ddb_export_failure_code (const GError *error)
{
  if (error != NULL && error->domain == DDB_EXPORT_ERROR)
    switch ((DdbExportErrorCode) error->code)
      {
      case DDB_EXPORT_ERROR_NO_SUCH_BUCKET:
        return "S3NoSuchBucket";
      case DDB_EXPORT_ERROR_ACCESS_DENIED:
        return "S3AccessDenied";
      case DDB_EXPORT_ERROR_FAILED:
        break;
      }
  return "UNKNOWN";
}

static char *
iso_time_us (gint64 us)
{
  g_autoptr (GDateTime) t = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);
  g_autofree char *date = NULL;

  if (t == NULL)
    return g_strdup ("1970-01-01T00:00:00.000Z");
  date = g_date_time_format (t, "%Y-%m-%dT%H:%M:%S");
  return g_strdup_printf ("%s.%03dZ", date, (int) ((us % G_USEC_PER_SEC) / 1000));
}

static void
md5_of (GBytes *bytes, guint8 digest[16])
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);
  gsize len = 16;
  gsize n = 0;
  const guint8 *data = g_bytes_get_data (bytes, &n);

  g_checksum_update (sum, data, n);
  g_checksum_get_digest (sum, digest, &len);
}

/* "arn:...:table/T/export/ID" -> "ID". */
static char *
export_id_of (const char *arn)
{
  const char *slash = strrchr (arn, '/');

  return g_strdup (slash != NULL ? slash + 1 : arn);
}

static char *
base_of (const char *prefix)
{
  g_autofree char *p = g_strdup (prefix != NULL ? prefix : "");
  gsize n = strlen (p);

  while (n > 0 && p[n - 1] == '/')
    p[--n] = '\0';
  return n > 0 ? g_strconcat (p, "/AWSDynamoDB/", NULL) : g_strdup ("AWSDynamoDB/");
}

char *
ddb_export_layout_manifest_key (const char *prefix, const char *export_arn)
{
  g_autofree char *base = base_of (prefix);
  g_autofree char *id = export_id_of (export_arn);

  return g_strconcat (base, id, "/manifest-summary.json", NULL);
}

static gboolean
put_object (DdbExportLayout *l, const char *key, GBytes *bytes, GError **error)
{
  return l->put (key, bytes, l->put_data, l->cancellable, error);
}

static gboolean
put_text (DdbExportLayout *l, const char *key, const char *text, GError **error)
{
  g_autoptr (GBytes) bytes = g_bytes_new (text, strlen (text));

  return put_object (l, key, bytes, error);
}

static char *
random_name (void)
{
  /* DynamoDB names data files with 26 random base-32 characters. */
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
  char name[27];

  for (guint i = 0; i < 26; i++)
    name[i] = alphabet[g_random_int_range (0, 32)];
  name[26] = '\0';
  return g_strdup (name);
}

/* Compresses LEN bytes of DATA into l->gz; with FINISH, ends the gzip stream. */
static gboolean
deflate_into (DdbExportLayout *l, const char *data, gsize len, gboolean finish, GError **error)
{
  guint8 out[64 * 1024];
  int rc;

  l->z.next_in = (Bytef *) data;
  l->z.avail_in = (uInt) len;
  do
    {
      l->z.next_out = out;
      l->z.avail_out = sizeof out;
      rc = deflate (&l->z, finish ? Z_FINISH : Z_NO_FLUSH);
      if (rc == Z_STREAM_ERROR)
        {
          g_set_error_literal (error, DDB_EXPORT_ERROR, DDB_EXPORT_ERROR_FAILED,
                               "gzip compression failed");
          return FALSE;
        }
      g_byte_array_append (l->gz, out, (guint) (sizeof out - l->z.avail_out));
    }
  while (l->z.avail_out == 0 || (finish && rc != Z_STREAM_END));
  return TRUE;
}

static void
file_open (DdbExportLayout *l)
{
  memset (&l->z, 0, sizeof l->z);
  /* windowBits 15 + 16: a gzip header and trailer, as DynamoDB's .gz files have. */
  if (deflateInit2 (&l->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)
      != Z_OK)
    g_error ("zlib: deflateInit2 failed (out of memory)");
  l->open = TRUE;
  l->gz = g_byte_array_new ();
  l->file_bytes = 0;
  l->file_items = 0;
}

static void
file_discard (DdbExportLayout *l)
{
  if (l->open)
    deflateEnd (&l->z);
  l->open = FALSE;
  g_clear_pointer (&l->gz, g_byte_array_unref);
}

/* Closes the open data file, PUTs it and lists it in manifest-files.json. */
static gboolean
file_close (DdbExportLayout *l, GError **error)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *name = random_name ();
  g_autofree char *key = NULL;
  g_autofree char *b64 = NULL;
  g_autofree char *hex = NULL;
  json_auto_t *entry = NULL;
  g_autofree char *text = NULL;
  guint8 digest[16];

  if (!deflate_into (l, NULL, 0, TRUE, error))
    {
      file_discard (l);
      return FALSE;
    }
  deflateEnd (&l->z);
  l->open = FALSE;
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&l->gz));
  /* Full exports keep their data under the export's folder, incremental ones in the shared
   * data folder beside the exports' folders. */
  key = g_strconcat (l->o.incremental ? l->base : l->export_dir, "data/", name,
                     l->o.format == DDB_EXPORT_FORMAT_ION ? ".ion.gz" : ".json.gz", NULL);
  if (!put_object (l, key, bytes, error))
    return FALSE;
  md5_of (bytes, digest);
  b64 = g_base64_encode (digest, sizeof digest);
  hex = g_compute_checksum_for_bytes (G_CHECKSUM_MD5, bytes);
  entry = json_pack ("{sI ss ss ss}", "itemCount", (json_int_t) l->file_items, "md5Checksum", b64,
                     "etag", hex, "dataFileS3Key", key);
  text = json_dumps (entry, JSON_COMPACT | JSON_PRESERVE_ORDER);
  g_string_append (l->files, text);
  g_string_append_c (l->files, '\n');
  l->n_files++;
  return TRUE;
}

/* Appends l->line (a record, without its line break) to the data file. */
static gboolean
write_line (DdbExportLayout *l, gsize billed, GError **error)
{
  gsize max = l->o.max_file_bytes != 0 ? l->o.max_file_bytes : DEFAULT_MAX_FILE_BYTES;

  if (l->open && l->file_items > 0 && l->file_bytes + l->line->len + 1 > max
      && !file_close (l, error))
    return FALSE;
  if (!l->open)
    file_open (l);
  g_string_append_c (l->line, '\n');
  if (!deflate_into (l, l->line->str, l->line->len, FALSE, error))
    return FALSE;
  l->file_bytes += l->line->len;
  l->file_items++;
  l->items++;
  l->billed += billed;
  return TRUE;
}

DdbExportLayout *
ddb_export_layout_begin (const DdbExportLayoutOptions *options, DdbExportPutFunc put,
                         gpointer put_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (DdbExportLayout) l = g_new0 (DdbExportLayout, 1);
  g_autofree char *started = NULL;

  l->o = *options;
  l->export_arn = g_strdup (options->export_arn);
  l->table_arn = g_strdup (options->table_arn);
  l->table_id = g_strdup (options->table_id);
  l->bucket = g_strdup (options->bucket);
  l->prefix = g_strdup (options->prefix != NULL && *options->prefix != '\0' ? options->prefix
                                                                             : NULL);
  l->sse = g_strdup (options->sse_algorithm != NULL ? options->sse_algorithm : "AES256");
  l->kms = g_strdup (options->sse_kms_key_id);
  l->summary_extra = options->summary_extra != NULL ? json_incref (options->summary_extra) : NULL;
  l->o.export_arn = l->export_arn;
  l->o.table_arn = l->table_arn;
  l->o.table_id = l->table_id;
  l->o.bucket = l->bucket;
  l->o.prefix = l->prefix;
  l->o.sse_algorithm = l->sse;
  l->o.sse_kms_key_id = l->kms;
  l->o.summary_extra = l->summary_extra;
  if (l->o.start_time_us == 0)
    l->o.start_time_us = g_get_real_time ();
  l->export_id = export_id_of (l->export_arn);
  l->base = base_of (l->prefix);
  l->export_dir = g_strconcat (l->base, l->export_id, "/", NULL);
  l->put = put;
  l->put_data = put_data;
  l->cancellable = cancellable;
  l->line = g_string_new (NULL);
  l->files = g_string_new (NULL);

  started = g_strconcat (l->export_dir, "_started", NULL);
  if (!put_text (l, started, "", error))
    return NULL;
  return g_steal_pointer (&l);
}

gboolean
ddb_export_layout_add_item (DdbExportLayout *l, const DdbValue *item, GError **error)
{
  g_string_truncate (l->line, 0);
  if (l->o.format == DDB_EXPORT_FORMAT_ION)
    ddb_ion_append_export_line (l->line, item);
  else
    {
      g_string_append (l->line, "{\"Item\":");
      ddb_json_append_item (l->line, item);
      g_string_append_c (l->line, '}');
    }
  return write_line (l, ddb_item_size (item), error);
}

gboolean
ddb_export_layout_add_change (DdbExportLayout *l, const DdbValue *keys, const DdbValue *old_image,
                              const DdbValue *new_image, gint64 write_us, GError **error)
{
  g_autoptr (DdbValue) metadata = ddb_value_new_m ();
  gsize billed = ddb_item_size (keys);
  DdbNumber micros;

  if (!l->o.old_images)
    old_image = NULL;
  ddb_number_set_int (&micros, write_us);
  ddb_value_map_set (metadata, "WriteTimestampMicros", ddb_value_new_n (&micros));
  if (old_image != NULL)
    billed += ddb_item_size (old_image);
  if (new_image != NULL)
    billed += ddb_item_size (new_image);
  g_string_truncate (l->line, 0);
  if (l->o.format == DDB_EXPORT_FORMAT_ION)
    {
      DdbIonRecord record = { 0 };

      record.metadata = metadata;
      record.keys = (DdbValue *) keys;
      record.old_image = (DdbValue *) old_image;
      record.new_image = (DdbValue *) new_image;
      ddb_ion_append_record_line (l->line, &record);
    }
  else
    {
      g_string_append (l->line, "{\"Metadata\":");
      ddb_json_append_item (l->line, metadata);
      g_string_append (l->line, ",\"Keys\":");
      ddb_json_append_item (l->line, keys);
      if (old_image != NULL)
        {
          g_string_append (l->line, ",\"OldImage\":");
          ddb_json_append_item (l->line, old_image);
        }
      if (new_image != NULL)
        {
          g_string_append (l->line, ",\"NewImage\":");
          ddb_json_append_item (l->line, new_image);
        }
      g_string_append_c (l->line, '}');
    }
  return write_line (l, billed, error);
}

static json_t *
string_or_null (const char *s)
{
  return s != NULL ? json_string (s) : json_null ();
}

static json_t *
time_json (gint64 us)
{
  g_autofree char *t = iso_time_us (us);

  return json_string (t);
}

gboolean
ddb_export_layout_finish (DdbExportLayout *l, json_t **summary_out, GError **error)
{
  g_autofree char *files_key = g_strconcat (l->export_dir, "manifest-files.json", NULL);
  g_autofree char *files_sum_key = g_strconcat (l->export_dir, "manifest-files.checksum", NULL);
  g_autofree char *summary_key = g_strconcat (l->export_dir, "manifest-summary.json", NULL);
  g_autofree char *summary_sum_key
      = g_strconcat (l->export_dir, "manifest-summary.checksum", NULL);
  g_autofree char *files_md5 = NULL;
  g_autofree char *summary_text = NULL;
  g_autofree char *summary_md5 = NULL;
  json_auto_t *s = json_object ();

  if (summary_out != NULL)
    *summary_out = NULL;
  /* At least one data file, empty when there is nothing to export. */
  if (!l->open && l->n_files == 0)
    file_open (l);
  if (l->open && !file_close (l, error))
    return FALSE;
  files_md5 = g_compute_checksum_for_string (G_CHECKSUM_MD5, l->files->str, l->files->len);
  if (!put_text (l, files_key, l->files->str, error)
      || !put_text (l, files_sum_key, files_md5, error))
    return FALSE;

  json_object_set_new (s, "version",
                       json_string (l->o.incremental ? "2023-08-01" : "2020-06-30"));
  json_object_set_new (s, "exportArn", json_string (l->export_arn));
  json_object_set_new (s, "startTime", time_json (l->o.start_time_us));
  json_object_set_new (s, "endTime", time_json (g_get_real_time ()));
  json_object_set_new (s, "tableArn", json_string (l->table_arn));
  json_object_set_new (s, "tableId", string_or_null (l->table_id));
  if (l->o.incremental)
    {
      json_object_set_new (s, "exportFromTime", time_json (l->o.from_time_us));
      json_object_set_new (s, "exportToTime", time_json (l->o.to_time_us));
    }
  else
    json_object_set_new (s, "exportTime", time_json (l->o.export_time_us));
  json_object_set_new (s, "s3Bucket", json_string (l->bucket));
  json_object_set_new (s, "s3Prefix", string_or_null (l->prefix));
  json_object_set_new (s, "s3SseAlgorithm", json_string (l->sse));
  json_object_set_new (s, "s3SseKmsKeyId", string_or_null (l->kms));
  json_object_set_new (s, "manifestFilesS3Key", json_string (files_key));
  json_object_set_new (s, "billedSizeBytes", json_integer ((json_int_t) l->billed));
  json_object_set_new (s, "itemCount", json_integer ((json_int_t) l->items));
  json_object_set_new (s, "outputFormat",
                       json_string (l->o.format == DDB_EXPORT_FORMAT_ION ? "ION"
                                                                         : "DYNAMODB_JSON"));
  if (l->o.incremental)
    json_object_set_new (s, "outputView",
                         json_string (l->o.old_images ? "NEW_AND_OLD_IMAGES" : "NEW_IMAGE"));
  json_object_set_new (s, "exportType",
                       json_string (l->o.incremental ? "INCREMENTAL_EXPORT" : "FULL_EXPORT"));
  if (l->summary_extra != NULL)
    {
      const char *k;
      json_t *v;

      json_object_foreach (l->summary_extra, k, v)
        json_object_set (s, k, v);
    }
  summary_text = json_dumps (s, JSON_INDENT (2) | JSON_PRESERVE_ORDER);
  summary_md5 = g_compute_checksum_for_string (G_CHECKSUM_MD5, summary_text, -1);
  if (!put_text (l, summary_key, summary_text, error)
      || !put_text (l, summary_sum_key, summary_md5, error))
    return FALSE;
  if (summary_out != NULL)
    *summary_out = json_incref (s);
  return TRUE;
}

guint64
ddb_export_layout_item_count (const DdbExportLayout *l)
{
  return l->items;
}

guint64
ddb_export_layout_billed_bytes (const DdbExportLayout *l)
{
  return l->billed;
}

void
ddb_export_layout_free (DdbExportLayout *l)
{
  if (l == NULL)
    return;
  file_discard (l);
  g_free (l->export_arn);
  g_free (l->table_arn);
  g_free (l->table_id);
  g_free (l->bucket);
  g_free (l->prefix);
  g_free (l->sse);
  g_free (l->kms);
  if (l->summary_extra != NULL)
    json_decref (l->summary_extra);
  g_free (l->export_id);
  g_free (l->base);
  g_free (l->export_dir);
  g_string_free (l->line, TRUE);
  g_string_free (l->files, TRUE);
  g_free (l);
}

/* ---- A folder as the bucket ---- */

gboolean
ddb_export_folder_put (const char *key, GBytes *contents, gpointer data, GCancellable *cancellable,
                       GError **error)
{
  const char *root = data;
  g_auto (GStrv) parts = g_strsplit (key, "/", -1);
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  gsize len = 0;
  const char *bytes = g_bytes_get_data (contents, &len);

  (void) cancellable;
  if (!g_file_test (root, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, DDB_EXPORT_ERROR, DDB_EXPORT_ERROR_NO_SUCH_BUCKET,
                   "The specified bucket does not exist (%s)", root);
      return FALSE;
    }
  for (guint i = 0; parts[i] != NULL; i++)
    if (strcmp (parts[i], ".") == 0 || strcmp (parts[i], "..") == 0
        || (parts[i][0] == '\0' && parts[i + 1] != NULL && i > 0))
      {
        g_set_error (error, DDB_EXPORT_ERROR, DDB_EXPORT_ERROR_FAILED,
                     "%s: not a key a folder can hold", key);
        return FALSE;
      }
  if (*key == '\0' || *key == '/' || g_str_has_suffix (key, "/"))
    {
      g_set_error (error, DDB_EXPORT_ERROR, DDB_EXPORT_ERROR_FAILED,
                   "%s: not a key a folder can hold", key);
      return FALSE;
    }
  path = g_build_filename (root, key, NULL);
  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0777) != 0)
    {
      int e = errno;

      g_set_error (error, DDB_EXPORT_ERROR, DDB_EXPORT_ERROR_FAILED, "%s: %s", dir,
                   g_strerror (e));
      return FALSE;
    }
  if (!g_file_set_contents (path, bytes != NULL ? bytes : "", (gssize) len, error))
    {
      if (error != NULL && *error != NULL && (*error)->domain != DDB_EXPORT_ERROR)
        {
          GError *e = *error;

          *error = g_error_new_literal (DDB_EXPORT_ERROR, e->code == G_FILE_ERROR_ACCES
                                                              ? DDB_EXPORT_ERROR_ACCESS_DENIED
                                                              : DDB_EXPORT_ERROR_FAILED,
                                        e->message);
          g_error_free (e);
        }
      return FALSE;
    }
  return TRUE;
}
