/* test-snapshot-s3.c: S3 exports beyond one folder: incremental exports applied on top of a full
 * one, and exports read from a store (a bucket's objects by key) rather than a folder.
 *
 * Incremental: a random history (puts of new items, updates, deletes, over corpus items of every kind of
 * value) is cut into windows; each window is written as AWS writes an incremental export
 * (compacted to one change per item, the old image as of the window's start; DynamoDB JSON or
 * Ion; NEW_AND_OLD_IMAGES or NEW_IMAGE; data under the export's folder or the shared
 * AWSDynamoDB/data/), the exports given in any order; the imported table must equal the
 * history replayed. Then the refusals: an incremental export alone, a gap, one ending before
 * the full export, a wrong count, a bad record, a damaged file — each named, nothing left
 * behind.
 *
 * Store: the same exports served from an in-memory store import to the same table; the store is
 * told every data file in reading order; a flipped byte, a truncated object and a missing one
 * are each named, with nothing left behind. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/ion.h"
#include "engine/engine.h"
#include "engine/snapshot.h"

#include "engine-test-util.h"
#include "item-corpus.h"

#define BASE_TIME_US G_GINT64_CONSTANT (1700000000000000) /* 2023-11-14T22:13:20Z */
#define HOUR_US G_GINT64_CONSTANT (3600000000)

typedef struct {
  char *dir;
  DdbEngine *engine;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autofree char *db = NULL;
  GError *error = NULL;

  f->dir = etu_tmp_dir ("test-snapshot-s3-XXXXXX");
  db = g_build_filename (f->dir, "db.sqlite", NULL);
  f->engine = ddb_engine_open (db, &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  ddb_engine_free (f->engine);
  etu_remove_tree (f->dir);
  g_free (f->dir);
}

static char *
iso_time (gint64 us)
{
  g_autoptr (GDateTime) t = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);
  g_autoptr (GDateTime) exact = g_date_time_add (t, us % G_USEC_PER_SEC);

  return g_date_time_format (exact, "%Y-%m-%dT%H:%M:%S.%fZ");
}

typedef struct {
  const char *id;        /* the export id */
  gboolean incremental;
  gboolean ion;
  gboolean shared_data;  /* data files in AWSDynamoDB/data/ rather than under the id */
  gint64 time_us;        /* full: exportTime */
  gint64 from_us, to_us; /* incremental */
  int count_delta;       /* added to the file's true itemCount in manifest-files.json */
  guint records;         /* the data file's records when not one a line (0: one a line) */
} ExportSpec;

/* Writes the export's folder ROOT/AWSDynamoDB/<id>/ with LINES in one gzipped data file, as
 * DynamoDB lays it out; returns the folder holding manifest-summary.json. */
static char *
write_export (Fixture *f, const ExportSpec *e, const char *lines)
{
  g_autofree char *root = g_build_filename (f->dir, "bucket", "prefix", "AWSDynamoDB", NULL);
  char *dir = g_build_filename (root, e->id, NULL);
  g_autofree char *data_dir
      = e->shared_data ? g_build_filename (root, "data", NULL) : g_build_filename (dir, "data", NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA1, e->id, -1);
  g_autofree char *name = g_strdup_printf ("%.26s.%s.gz", hash, e->ion ? "ion" : "json");
  g_autofree char *data_key
      = e->shared_data ? g_strdup_printf ("prefix/AWSDynamoDB/data/%s", name)
                       : g_strdup_printf ("prefix/AWSDynamoDB/%s/data/%s", e->id, name);
  g_autoptr (GBytes) gz = etu_gzip (lines);
  g_autofree char *md5 = g_compute_checksum_for_bytes (G_CHECKSUM_MD5, gz);
  g_autofree char *b64 = NULL;
  g_autofree char *path = NULL;
  g_autofree char *files = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *t0 = iso_time (e->incremental ? e->to_us : e->time_us);
  g_autofree char *from = iso_time (e->from_us);
  g_autofree char *to = iso_time (e->to_us);
  guint8 digest[16];
  gsize dlen = sizeof digest;
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);
  GError *error = NULL;
  guint n = 0;

  for (const char *c = lines; *c != '\0'; c++)
    n += *c == '\n';
  if (e->records > 0)
    n = e->records;
  g_assert_cmpint (g_mkdir_with_parents (data_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  path = g_build_filename (data_dir, name, NULL);
  g_file_set_contents (path, g_bytes_get_data (gz, NULL), (gssize) g_bytes_get_size (gz), &error);
  g_assert_no_error (error);
  g_checksum_update (sum, g_bytes_get_data (gz, NULL), (gssize) g_bytes_get_size (gz));
  g_checksum_get_digest (sum, digest, &dlen);
  b64 = g_base64_encode (digest, sizeof digest);
  files = g_strdup_printf ("{\"itemCount\":%d,\"md5Checksum\":\"%s\",\"etag\":\"%s\","
                           "\"dataFileS3Key\":\"%s\"}\n",
                           (int) n + e->count_delta, b64, md5, data_key);
  if (e->incremental)
    summary = g_strdup_printf (
        "{\"version\":\"2023-08-01\",\"exportArn\":\"arn:aws:dynamodb:eu-west-1:123456789012:"
        "table/T/export/%s\",\"startTime\":\"%s\",\"endTime\":\"%s\",\"tableArn\":"
        "\"arn:aws:dynamodb:eu-west-1:123456789012:table/T\",\"tableId\":\"0fd1-t\","
        "\"exportFromTime\":\"%s\",\"exportToTime\":\"%s\",\"s3Bucket\":\"bucket\",\"s3Prefix\":"
        "\"prefix\",\"s3SseAlgorithm\":\"AES256\",\"s3SseKmsKeyId\":null,\"manifestFilesS3Key\":"
        "\"prefix/AWSDynamoDB/%s/manifest-files.json\",\"billedSizeBytes\":0,\"itemCount\":%u,"
        "\"outputFormat\":\"%s\",\"outputView\":\"NEW_AND_OLD_IMAGES\",\"exportType\":"
        "\"INCREMENTAL_EXPORT\"}",
        e->id, to, to, from, to, e->id, n, e->ion ? "ION" : "DYNAMODB_JSON");
  else
    summary = g_strdup_printf (
        "{\"version\":\"2020-06-30\",\"exportArn\":\"arn:aws:dynamodb:eu-west-1:123456789012:"
        "table/T/export/%s\",\"startTime\":\"%s\",\"endTime\":\"%s\",\"tableArn\":"
        "\"arn:aws:dynamodb:eu-west-1:123456789012:table/T\",\"tableId\":\"0fd1-t\","
        "\"exportTime\":\"%s\",\"s3Bucket\":\"bucket\",\"s3Prefix\":\"prefix\","
        "\"s3SseAlgorithm\":\"AES256\",\"s3SseKmsKeyId\":null,\"manifestFilesS3Key\":"
        "\"prefix/AWSDynamoDB/%s/manifest-files.json\",\"billedSizeBytes\":0,\"itemCount\":%u,"
        "\"outputFormat\":\"%s\"}",
        e->id, t0, t0, t0, e->id, n, e->ion ? "ION" : "DYNAMODB_JSON");
  g_free (path);
  path = g_build_filename (dir, "manifest-files.json", NULL);
  g_file_set_contents (path, files, -1, &error);
  g_assert_no_error (error);
  g_free (path);
  path = g_build_filename (dir, "manifest-summary.json", NULL);
  g_file_set_contents (path, summary, -1, &error);
  g_assert_no_error (error);
  return dir;
}

/* ---- The history ---- */

typedef struct {
  DdbValue *keys;
  DdbValue *new_image; /* NULL: a delete */
  DdbValue *old_image; /* as of the window's start; NULL: absent */
  gint64 write_us;
} Change;

static void
change_free (gpointer data)
{
  Change *c = data;

  ddb_value_free (c->keys);
  g_clear_pointer (&c->new_image, ddb_value_free);
  g_clear_pointer (&c->old_image, ddb_value_free);
  g_free (c);
}

static char *
key_of (const DdbValue *item)
{
  g_autofree char *pk = ddb_json_format_value (ddb_value_map_get (item, "pk"));
  g_autofree char *sk = ddb_json_format_value (ddb_value_map_get (item, "sk"));

  return g_strconcat (pk, "|", sk, NULL);
}

static DdbValue *
keys_of (const DdbValue *item)
{
  DdbValue *k = ddb_value_new_m ();

  ddb_value_map_set (k, "pk", ddb_value_copy (ddb_value_map_get (item, "pk")));
  ddb_value_map_set (k, "sk", ddb_value_copy (ddb_value_map_get (item, "sk")));
  return k;
}

/* One record line of change C in the export's format and view. */
static void
append_record (GString *out, const Change *c, gboolean ion, gboolean new_image_view)
{
  g_autofree char *micros = g_strdup_printf ("%" G_GINT64_FORMAT, c->write_us);
  DdbValue *meta = ddb_value_new_m ();
  DdbNumber n;

  g_assert_true (ddb_number_parse (&n, micros, -1, NULL));
  ddb_value_map_set (meta, "WriteTimestampMicros", ddb_value_new_n (&n));
  if (ion)
    {
      DdbIonRecord rec = { .keys = c->keys, .metadata = meta, .new_image = c->new_image,
                           .old_image = new_image_view ? NULL : c->old_image };

      ddb_ion_append_record_line (out, &rec);
    }
  else
    {
      g_string_append (out, "{\"Metadata\":");
      ddb_json_append_item (out, meta);
      g_string_append (out, ",\"Keys\":");
      ddb_json_append_item (out, c->keys);
      if (c->old_image != NULL && !new_image_view)
        {
          g_string_append (out, ",\"OldImage\":");
          ddb_json_append_item (out, c->old_image);
        }
      if (c->new_image != NULL)
        {
          g_string_append (out, ",\"NewImage\":");
          ddb_json_append_item (out, c->new_image);
        }
      g_string_append_c (out, '}');
    }
  g_string_append_c (out, '\n');
  ddb_value_free (meta);
}

static GPtrArray *
table_items (Fixture *f, const char *table)
{
  g_autofree char *dest = g_build_filename (f->dir, "out.jsonl", NULL);
  DdbExportOptions opts = { .table_name = table, .format = DDB_SNAPSHOT_JSONL };
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  GError *error = NULL;

  g_assert_true (ddb_snapshot_export (f->engine, dest, &opts, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (dest, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      {
        DdbValue *item = ddb_json_parse_item (lines[i], -1, &error);

        g_assert_no_error (error);
        g_ptr_array_add (items, item);
      }
  g_unlink (dest);
  return items;
}

static gboolean
table_exists (Fixture *f, const char *name)
{
  json_t *resp = etu_ok (f->engine, "ListTables", "{}");
  gboolean found = FALSE;
  gsize i;
  json_t *n;

  json_array_foreach (json_object_get (resp, "TableNames"), i, n)
    found |= strcmp (json_string_value (n), name) == 0;
  json_decref (resp);
  return found;
}

#define N_WINDOWS 4

/* The random history over SEED: a full export, then N_WINDOWS incremental ones; imports them
 * (given in reverse order) and compares with the replayed history. */
static void
check_history (Fixture *f, guint32 seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr (GPtrArray) base = corpus_items (150, seed, "pk", "sk");
  g_autoptr (GPtrArray) fresh = corpus_items (150, seed + 7777, "pk", "sk");
  g_autoptr (GHashTable) state = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) ddb_value_free);
  GString *lines = g_string_new (NULL);
  g_autofree char *full = NULL;
  const char *paths[N_WINDOWS + 1] = { NULL };
  g_autofree char *table = g_strdup_printf ("table-%u", seed);
  g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (GPtrArray) got = NULL;
  gboolean full_ion = g_rand_boolean (rand);
  gint64 t = BASE_TIME_US;
  guint fresh_next = 0;
  GHashTableIter it;
  gpointer v;
  GError *error = NULL;

  for (guint i = 0; i < base->len; i++)
    {
      DdbValue *item = g_ptr_array_index (base, i);

      g_hash_table_insert (state, key_of (item), ddb_value_copy (item));
      if (full_ion)
        ddb_ion_append_export_line (lines, item);
      else
        {
          g_string_append (lines, "{\"Item\":");
          ddb_json_append_item (lines, item);
          g_string_append_c (lines, '}');
        }
      g_string_append_c (lines, '\n');
    }
  {
    ExportSpec e = { .id = "01700000000000-f0000000", .ion = full_ion, .time_us = t };
    full = write_export (f, &e, lines->str);
  }

  for (guint w = 0; w < N_WINDOWS; w++)
    {
      /* key -> Change (compacted per item: the window's last change, the start's old image) */
      g_autoptr (GHashTable) window
          = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, change_free);
      g_autoptr (GPtrArray) order = g_ptr_array_new ();
      gint64 from = t - (w == 2 ? HOUR_US / 2 : 0); /* one window overlaps the one before */
      gint64 to = t + HOUR_US;
      gboolean ion = g_rand_boolean (rand);
      gboolean new_image_view = g_rand_int_range (rand, 0, 3) == 0;
      ExportSpec e = { .incremental = TRUE, .ion = ion, .shared_data = w % 2 == 1,
                       .from_us = from, .to_us = to };
      g_autofree char *id = g_strdup_printf ("0170000000%04u-1%07u", w, seed % 10000000);
      guint n_changes = (guint) g_rand_int_range (rand, 0, 60);

      for (guint c = 0; c < n_changes; c++)
        {
          guint kind = (guint) g_rand_int_range (rand, 0, 3);
          g_autoptr (GList) keys = g_hash_table_get_keys (state);
          DdbValue *target = NULL;
          DdbValue *after = NULL;
          g_autofree char *key = NULL;
          Change *ch;

          if (kind == 0 || keys == NULL)
            {
              if (fresh_next >= fresh->len)
                continue;
              after = ddb_value_copy (g_ptr_array_index (fresh, fresh_next++));
              {
                g_autofree char *pk = g_strdup_printf ("new-%u", fresh_next);
                ddb_value_map_set (after, "pk", ddb_value_new_s (pk, -1));
              }
              target = after;
            }
          else
            {
              const char *k = g_list_nth_data (keys, (guint) g_rand_int_range (
                                                          rand, 0, (gint32) g_list_length (keys)));
              DdbValue *cur = g_hash_table_lookup (state, k);

              target = cur;
              if (kind == 1)
                {
                  /* an update: another corpus item's attributes under this key */
                  after = ddb_value_copy (g_ptr_array_index (
                      fresh, (guint) g_rand_int_range (rand, 0, (gint32) fresh->len)));
                  ddb_value_map_set (after, "pk", ddb_value_copy (ddb_value_map_get (cur, "pk")));
                  ddb_value_map_set (after, "sk", ddb_value_copy (ddb_value_map_get (cur, "sk")));
                }
            }
          key = key_of (target);
          ch = g_hash_table_lookup (window, key);
          if (ch == NULL)
            {
              DdbValue *old = g_hash_table_lookup (state, key);

              ch = g_new0 (Change, 1);
              ch->keys = keys_of (target);
              ch->old_image = old != NULL ? ddb_value_copy (old) : NULL;
              g_hash_table_insert (window, g_strdup (key), ch);
              g_ptr_array_add (order, ch);
            }
          g_clear_pointer (&ch->new_image, ddb_value_free);
          ch->new_image = after != NULL ? ddb_value_copy (after) : NULL;
          ch->write_us = t + 1 + (gint64) c * 1000;
          if (after != NULL)
            g_hash_table_insert (state, g_strdup (key), after);
          else
            g_hash_table_remove (state, key);
        }
      g_string_truncate (lines, 0);
      for (guint i = 0; i < order->len; i++)
        {
          Change *ch = g_ptr_array_index (order, i);

          /* An insert and a delete in one window leave nothing (AWS writes no record). */
          if (ch->old_image == NULL && ch->new_image == NULL)
            continue;
          append_record (lines, ch, ion, new_image_view);
        }
      e.id = id;
      paths[N_WINDOWS - 1 - w] = write_export (f, &e, lines->str);
      t = to;
    }

  {
    DdbImportOptions opts = { .table_name = table, .key = "pk:S,sk:N",
                              .incrementals = paths };

    gboolean ok = ddb_snapshot_import (f->engine, full, &opts, NULL, &error);

    g_assert_no_error (error);
    g_assert_true (ok);
  }
  g_hash_table_iter_init (&it, state);
  while (g_hash_table_iter_next (&it, NULL, &v))
    g_ptr_array_add (want, ddb_value_copy (v));
  got = table_items (f, table);
  corpus_assert_same_items (want, got, "pk", "sk");
  for (guint i = 0; i < N_WINDOWS; i++)
    g_free ((char *) paths[i]);
  g_string_free (lines, TRUE);
}

static void
test_history (Fixture *f, gconstpointer data)
{
  for (guint32 seed = 1; seed <= 12; seed++)
    check_history (f, seed);
}

/* Changes of one key out of order in one export (not compacted): the later write wins. */
static void
test_write_order (Fixture *f, gconstpointer data)
{
  ExportSpec full = { .id = "01700000000000-aaaaaaaa", .time_us = BASE_TIME_US };
  ExportSpec inc = { .id = "01700000000001-bbbbbbbb", .incremental = TRUE,
                     .from_us = BASE_TIME_US, .to_us = BASE_TIME_US + HOUR_US };
  g_autofree char *a = write_export (
      f, &full,
      "{\"Item\":{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"0\"}}}\n"
      "{\"Item\":{\"pk\":{\"S\":\"b\"},\"v\":{\"N\":\"0\"}}}\n");
  g_autofree char *b = write_export (
      f, &inc,
      "{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"1700000000000300\"}},\"Keys\":{\"pk\":{"
      "\"S\":\"a\"}},\"NewImage\":{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"3\"}}}\n"
      "{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"1700000000000100\"}},\"Keys\":{\"pk\":{"
      "\"S\":\"a\"}},\"NewImage\":{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"1\"}}}\n"
      "{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"1700000000000200\"}},\"Keys\":{\"pk\":{"
      "\"S\":\"b\"}},\"OldImage\":{\"pk\":{\"S\":\"b\"},\"v\":{\"N\":\"0\"}}}\n"
      "{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"1700000000000100\"}},\"Keys\":{\"pk\":{"
      "\"S\":\"b\"}},\"NewImage\":{\"pk\":{\"S\":\"b\"},\"v\":{\"N\":\"9\"}}}\n");
  const char *incs[] = { b, NULL };
  DdbImportOptions opts = { .table_name = "tbl", .incrementals = incs };
  g_autoptr (GPtrArray) got = NULL;
  GError *error = NULL;

  gboolean ok = ddb_snapshot_import (f->engine, a, &opts, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
  got = table_items (f, "tbl");
  g_assert_cmpuint (got->len, ==, 1);
  {
    g_autofree char *text = ddb_json_format_item (g_ptr_array_index (got, 0));
    g_assert_cmpstr (text, ==, "{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"3\"}}");
  }
}

static void
import_refused (Fixture *f, const char *full, const char *const *incs, const char *expect)
{
  DdbImportOptions opts = { .table_name = "refused", .key = "pk:S", .incrementals = incs };
  GError *error = NULL;

  g_assert_false (ddb_snapshot_import (f->engine, full, &opts, NULL, &error));
  g_assert_nonnull (error);
  if (strstr (error->message, expect) == NULL)
    g_error ("expected \"%s\" in: %s", expect, error->message);
  g_clear_error (&error);
  g_assert_false (table_exists (f, "refused"));
}

static void
test_refusals (Fixture *f, gconstpointer data)
{
  static const char rec[]
      = "{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"1700000000000100\"}},\"Keys\":{\"pk\":{"
        "\"S\":\"a\"}},\"NewImage\":{\"pk\":{\"S\":\"a\"}}}\n";
  ExportSpec full = { .id = "01700000000000-aaaaaaaa", .time_us = BASE_TIME_US };
  ExportSpec i1 = { .id = "01700000000001-bbbbbbbb", .incremental = TRUE,
                    .from_us = BASE_TIME_US, .to_us = BASE_TIME_US + HOUR_US };
  ExportSpec gap = { .id = "01700000000002-cccccccc", .incremental = TRUE,
                     .from_us = BASE_TIME_US + HOUR_US, .to_us = BASE_TIME_US + 2 * HOUR_US };
  ExportSpec old = { .id = "01700000000003-dddddddd", .incremental = TRUE, .ion = TRUE,
                     .from_us = BASE_TIME_US - 2 * HOUR_US, .to_us = BASE_TIME_US };
  ExportSpec miscount = { .id = "01700000000004-eeeeeeee", .incremental = TRUE,
                          .from_us = BASE_TIME_US, .to_us = BASE_TIME_US + HOUR_US,
                          .count_delta = 1 };
  ExportSpec bad = { .id = "01700000000005-ffffffff", .incremental = TRUE, .ion = TRUE,
                     .from_us = BASE_TIME_US, .to_us = BASE_TIME_US + HOUR_US };
  ExportSpec wrong_key = { .id = "01700000000006-gggggggg", .incremental = TRUE,
                           .from_us = BASE_TIME_US, .to_us = BASE_TIME_US + HOUR_US };
  g_autofree char *a = write_export (f, &full, "{\"Item\":{\"pk\":{\"S\":\"z\"}}}\n");
  g_autofree char *b = write_export (f, &i1, rec);
  g_autofree char *c = write_export (f, &gap, rec);
  g_autofree char *d = write_export (f, &old, "");
  g_autofree char *e = write_export (f, &miscount, rec);
  g_autofree char *g = write_export (
      f, &bad, "$ion_1_0 {Keys:{pk:\"a\"},NewImage:{pk:\"a\"}}\n$ion_1_0 {Keys:{pk:\"b\"},Item:{}}\n");
  g_autofree char *h = write_export (
      f, &wrong_key,
      "{\"Keys\":{\"pk\":{\"S\":\"a\"}},\"NewImage\":{\"pk\":{\"S\":\"b\"}}}\n");
  const char *alone[] = { NULL };
  const char *with_gap[] = { c, b, NULL };
  const char *gap_only[] = { c, NULL };
  const char *ends_before[] = { d, NULL };
  const char *count[] = { e, NULL };
  const char *record[] = { g, NULL };
  const char *key[] = { h, NULL };
  const char *not_incremental[] = { a, NULL };

  import_refused (f, b, alone, "an incremental export cannot be imported alone");
  import_refused (f, a, gap_only, "a gap");
  /* with the export that fills the gap, the same two import */
  {
    DdbImportOptions opts = { .table_name = "filled", .key = "pk:S", .incrementals = with_gap };
    GError *error = NULL;

    gboolean ok = ddb_snapshot_import (f->engine, a, &opts, NULL, &error);

    g_assert_no_error (error);
    g_assert_true (ok);
  }
  import_refused (f, a, ends_before, "it would change nothing");
  import_refused (f, a, count, "gives itemCount 2, the file holds 1 records");
  import_refused (f, a, record, ".ion.gz:2: Ion: ");
  import_refused (f, a, key, ".json.gz:1: NewImage's pk differs from Keys'");
  import_refused (f, a, not_incremental, "not an incremental export");

  /* An incremental export whose data file changed after its manifest was written: named, not
   * read (the file's checksum is checked before it is opened; the reader closed then was never
   * opened, and closing it freed whatever its memory held: found by fuzz-snapshot). */
  {
    ExportSpec damaged = { .id = "01700000000007-hhhhhhhh", .incremental = TRUE,
                           .from_us = BASE_TIME_US, .to_us = BASE_TIME_US + HOUR_US };
    g_autofree char *dir = write_export (f, &damaged, rec);
    g_autofree char *data_dir = g_build_filename (dir, "data", NULL);
    g_autoptr (GDir) listing = g_dir_open (data_dir, 0, NULL);
    g_autofree char *path = g_build_filename (data_dir, g_dir_read_name (listing), NULL);
    g_autofree char *bytes = NULL;
    gsize len = 0;
    const char *damaged_only[] = { dir, NULL };

    g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
    bytes[len - 1] ^= 0x5A;
    g_assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
    import_refused (f, a, damaged_only, "checksum mismatch");
  }
}

/* A folder's manifest that is missing or cannot be read is a G_IO_ERROR naming it, as every
 * other file of an import is (it was a G_FILE_ERROR, which callers that look for
 * G_IO_ERROR_NOT_FOUND did not recognise); nothing is left behind. */
static void
test_manifest_io_errors (Fixture *f, gconstpointer data)
{
  ExportSpec e = { .id = "01700000000000-abababab", .time_us = BASE_TIME_US };
  g_autofree char *dir = write_export (f, &e, "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n");
  g_autofree char *files = g_build_filename (dir, "manifest-files.json", NULL);
  DdbImportOptions opts = { .table_name = "broken", .key = "pk:S" };
  GError *error = NULL;

  g_assert_cmpint (g_unlink (files), ==, 0);
  g_assert_false (ddb_snapshot_import (f->engine, dir, &opts, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_true (g_str_has_prefix (error->message, "manifest-files.json: "));
  g_clear_error (&error);
  g_assert_false (table_exists (f, "broken"));

  /* A folder where the manifest should be. */
  g_assert_cmpint (g_mkdir (files, 0700), ==, 0);
  g_assert_false (ddb_snapshot_import (f->engine, dir, &opts, NULL, &error));
  g_assert_nonnull (error);
  g_assert_true (error->domain == G_IO_ERROR);
  g_assert_true (g_str_has_prefix (error->message, "manifest-files.json: "));
  g_clear_error (&error);
  g_assert_false (table_exists (f, "broken"));
}

/* Ion records as Ion allows them beyond AWS's one a line: printed over several lines (as AWS's
 * documentation prints one), several on a line, a marker or a comment on a line of its own;
 * brackets and quotes inside text do not cut a record; an error inside a record names its
 * line; a record left open at the end is refused. */
static void
test_ion_layouts (Fixture *f, gconstpointer data)
{
  static const char full_text[]
      = "$ion_1_0 {\n"                                                    /* 1 */
        "    Item:{\n"                                                    /* 2 */
        "        pk:\"a\", s:\"}]) {\\\"\", l:[1,\n"                      /* 3 */
        "           2d1], b:{{\n"                                         /* 4 */
        "           aGk= }}\n"                                            /* 5 */
        "    }\n"                                                         /* 6 */
        "}\n"                                                             /* 7 */
        "$ion_1_0 {Item:{pk:\"b\"}} $ion_1_0 {Item:{pk:\"c\", t:'''x\n"   /* 8 */
        "y}''' '''z'''}}\n"                                               /* 9 */
        "// a comment, then a marker alone\n"                             /* 10 */
        "$ion_1_0\n"                                                      /* 11 */
        "{Item:{pk:\"d\", /* } */ n:-1.}} // done\n"                      /* 12 */
        "{Item:{pk:\"e\", 'q}':\"continued \\\n"                          /* 13 */
        "line\"}}\n";                                                     /* 14 */
  static const char inc_text[] = "$ion_1_0 {Metadata:{WriteTimestampMicros:1700000000000100},\n"
                                 "  Keys:{pk:\"a\"},\n"
                                 "  OldImage:{pk:\"a\"},\n"
                                 "  NewImage:{pk:\"a\", v:true}}\n"
                                 "$ion_1_0 {Metadata:{WriteTimestampMicros:1700000000000200},"
                                 " Keys:{pk:\"b\"}}\n";
  ExportSpec full = { .id = "01700000000000-aaaaaaaa", .ion = TRUE, .time_us = BASE_TIME_US,
                      .records = 5 };
  ExportSpec inc = { .id = "01700000000001-bbbbbbbb", .incremental = TRUE, .ion = TRUE,
                     .from_us = BASE_TIME_US, .to_us = BASE_TIME_US + HOUR_US,
                     .records = 2 };
  ExportSpec bad = { .id = "01700000000002-cccccccc", .ion = TRUE, .time_us = BASE_TIME_US,
                     .records = 2 };
  ExportSpec open = { .id = "01700000000003-dddddddd", .ion = TRUE, .time_us = BASE_TIME_US,
                      .records = 2 };
  g_autofree char *a = write_export (f, &full, full_text);
  g_autofree char *b = write_export (f, &inc, inc_text);
  g_autofree char *c = write_export (f, &bad,
                                     "$ion_1_0 {Item:{pk:\"a\"}}\n"
                                     "$ion_1_0 {Item:{\n"
                                     "  pk:\"b\",\n"
                                     "  f:1.5e0\n"
                                     "}}\n");
  g_autofree char *d = write_export (f, &open,
                                     "$ion_1_0 {Item:{pk:\"a\"}}\n"
                                     "$ion_1_0 {Item:{pk:\"b\",\n"
                                     "  l:[1, 2]}\n");
  const char *incs[] = { b, NULL };
  static const char *const want[] = {
    "{\"pk\":{\"S\":\"a\"},\"s\":{\"S\":\"}]) {\\\"\"},"
    "\"l\":{\"L\":[{\"N\":\"1\"},{\"N\":\"20\"}]},\"b\":{\"B\":\"aGk=\"}}",
    "{\"pk\":{\"S\":\"b\"}}",
    "{\"pk\":{\"S\":\"c\"},\"t\":{\"S\":\"x\\ny}z\"}}",
    "{\"pk\":{\"S\":\"d\"},\"n\":{\"N\":\"-1\"}}",
    "{\"pk\":{\"S\":\"e\"},\"q}\":{\"S\":\"continued line\"}}",
  };
  DdbImportOptions opts = { .table_name = "Layouts", .key = "pk:S" };
  g_autoptr (GPtrArray) items = NULL;
  GError *error = NULL;

  (void) data;
  g_assert_true (ddb_snapshot_import (f->engine, a, &opts, NULL, &error));
  g_assert_no_error (error);
  items = table_items (f, "Layouts");
  g_assert_cmpuint (items->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_autoptr (DdbValue) expected = ddb_json_parse_item (want[i], -1, &error);
      gboolean found = FALSE;

      g_assert_no_error (error);
      for (guint k = 0; k < items->len && !found; k++)
        found = ddb_value_equal (expected, g_ptr_array_index (items, k));
      if (!found)
        g_error ("not imported: %s", want[i]);
    }
  g_clear_pointer (&items, g_ptr_array_unref);

  /* The incremental export's records over several lines apply too: a gets v, b goes. */
  opts.table_name = "Applied";
  opts.incrementals = incs;
  g_assert_true (ddb_snapshot_import (f->engine, a, &opts, NULL, &error));
  g_assert_no_error (error);
  items = table_items (f, "Applied");
  g_assert_cmpuint (items->len, ==, G_N_ELEMENTS (want) - 1);
  for (guint k = 0; k < items->len; k++)
    {
      DdbValue *item = g_ptr_array_index (items, k);
      const DdbValue *pk = ddb_value_map_get (item, "pk");

      g_assert_cmpstr (pk->bytes.data, !=, "b");
      if (strcmp (pk->bytes.data, "a") == 0)
        g_assert_nonnull (ddb_value_map_get (item, "v"));
    }

  /* The error's own line, inside the record; a record open at the end: where it starts. */
  import_refused (f, c, NULL, ".ion.gz:4: Ion: an Ion float has no DynamoDB type");
  import_refused (f, d, NULL, ".ion.gz:2: Ion: unterminated struct");
}

/* A line cut short does not swallow the records after it: the next line starting with the
 * version marker starts a record again; a reader that names every bad item reads on after it
 * (the manifests count the three good records). Blank lines inside a long string over several
 * lines are its text, and so is a marker there. */
static void
test_ion_cut_line (Fixture *f, gconstpointer data)
{
  ExportSpec spec = { .id = "01700000000000-aaaaaaaa", .ion = TRUE, .time_us = BASE_TIME_US,
                      .records = 3 };
  g_autofree char *dir = write_export (f, &spec,
                                       "$ion_1_0 {Item:{pk:\"a\"}}\n"        /* 1 */
                                       "$ion_1_0 {Item:{pk:\"b\", s:\"cut\n" /* 2 */
                                       "$ion_1_0 {Item:{pk:\"c\"}}\n"        /* 3 */
                                       "$ion_1_0 {Item:{pk:\"d\", t:'''x\n"  /* 4 */
                                       "\n"                                  /* 5 */
                                       "$ion_1_0 y'''}}\n");                 /* 6 */
  DdbImportOptions opts = { .table_name = "Cut", .key = "pk:S" };
  g_autoptr (DdbSnapshotReader) r = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
  DdbValue *item;

  (void) data;
  r = ddb_snapshot_reader_open (dir, &opts, &error);
  g_assert_no_error (error);
  for (;;)
    {
      item = ddb_snapshot_reader_next (r, &error);
      if (item != NULL)
        {
          g_ptr_array_add (got, ddb_json_format_item (item));
          ddb_value_free (item);
          continue;
        }
      if (error == NULL)
        break;
      g_ptr_array_add (got, g_strdup (strstr (error->message, ".ion.gz:")));
      g_clear_error (&error);
      g_assert_true (ddb_snapshot_reader_skip_refused (r));
    }
  g_assert_cmpuint (got->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (got, 0), ==, "{\"pk\":{\"S\":\"a\"}}");
  g_assert_true (g_str_has_prefix (g_ptr_array_index (got, 1), ".ion.gz:2: Ion: "));
  g_assert_cmpstr (g_ptr_array_index (got, 2), ==, "{\"pk\":{\"S\":\"c\"}}");
  g_assert_cmpstr (g_ptr_array_index (got, 3), ==,
                   "{\"pk\":{\"S\":\"d\"},\"t\":{\"S\":\"x\\n\\n$ion_1_0 y\"}}");
}

/* ---- Read from a store ---- */

typedef struct {
  GHashTable *objects; /* key -> GBytes */
  GPtrArray *planned;  /* keys given to plan() */
  guint opened;
} MemStore;

static GBytes *
mem_get (const char *key, gpointer data, GCancellable *cancellable, GError **error)
{
  MemStore *m = data;
  GBytes *b = g_hash_table_lookup (m->objects, key);

  if (b == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "NoSuchKey: %s", key);
      return NULL;
    }
  return g_bytes_ref (b);
}

static GInputStream *
mem_open (const char *key, gpointer data, GCancellable *cancellable, GError **error)
{
  MemStore *m = data;
  g_autoptr (GBytes) b = mem_get (key, data, cancellable, error);

  if (b == NULL)
    return NULL;
  m->opened++;
  return g_memory_input_stream_new_from_bytes (b);
}

static guint64
mem_plan (const char *const *keys, guint n, gpointer data)
{
  MemStore *m = data;
  guint64 total = 0;

  for (guint i = 0; i < n; i++)
    {
      GBytes *b = g_hash_table_lookup (m->objects, keys[i]);

      g_ptr_array_add (m->planned, g_strdup (keys[i]));
      total += b != NULL ? g_bytes_get_size (b) : 0;
    }
  return total;
}

/* Every file under ROOT into M, keyed by its path under ROOT. */
static void
load_tree (MemStore *m, const char *root, const char *rel)
{
  g_autofree char *path = rel[0] != '\0' ? g_build_filename (root, rel, NULL) : g_strdup (root);
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;

  if (d == NULL)
    {
      char *contents = NULL;
      gsize len = 0;

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      g_hash_table_insert (m->objects, g_strdup (rel), g_bytes_new_take (contents, len));
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = rel[0] != '\0' ? g_strconcat (rel, "/", name, NULL) : g_strdup (name);

      load_tree (m, root, sub);
    }
  g_dir_close (d);
}

static void
test_store (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) items = corpus_items (300, 99, "pk", "sk");
  GString *lines = g_string_new (NULL);
  ExportSpec full = { .id = "01700000000000-55555555", .ion = TRUE, .time_us = BASE_TIME_US };
  ExportSpec inc = { .id = "01700000000001-66666666", .incremental = TRUE, .shared_data = TRUE,
                     .from_us = BASE_TIME_US, .to_us = BASE_TIME_US + HOUR_US };
  g_autofree char *a = NULL, *b = NULL, *bucket = g_build_filename (f->dir, "bucket", NULL);
  g_autofree char *data_key = NULL;
  MemStore m = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) g_bytes_unref),
                 g_ptr_array_new_with_free_func (g_free), 0 };
  DdbSnapshotStore store = { mem_get, mem_open, mem_plan, &m };
  const char *incs[] = { "prefix/AWSDynamoDB/01700000000001-66666666/manifest-summary.json", NULL };
  const char *folder_incs[2] = { NULL, NULL };
  GError *error = NULL;
  gboolean ok;

  for (guint i = 0; i < items->len; i++)
    {
      ddb_ion_append_export_line (lines, g_ptr_array_index (items, i));
      g_string_append_c (lines, '\n');
    }
  a = write_export (f, &full, lines->str);
  /* one change: the first item deleted */
  {
    g_autoptr (DdbValue) k = keys_of (g_ptr_array_index (items, 0));

    g_string_assign (lines, "{\"Keys\":");
    ddb_json_append_item (lines, k);
    g_string_append (lines, "}\n");
  }
  b = write_export (f, &inc, lines->str);
  folder_incs[0] = b;
  load_tree (&m, bucket, "");

  /* the same from the folder and from the store */
  {
    DdbImportOptions opts = { .table_name = "from-folder", .incrementals = folder_incs };

    ok = ddb_snapshot_import (f->engine, a, &opts, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (ok);
  }
  {
    /* no key given: inferred from the first objects' items, then read again */
    DdbImportOptions opts = { .table_name = "from-store", .store = &store, .incrementals = incs };
    DdbSnapshotProgress progress;
    g_autoptr (GPtrArray) x = NULL, y = NULL;

    ok = ddb_snapshot_import (f->engine,
                              "prefix/AWSDynamoDB/01700000000000-55555555/manifest-summary.json",
                              &opts, &progress, &error);
    g_assert_no_error (error);
    g_assert_true (ok);
    x = table_items (f, "from-folder");
    y = table_items (f, "from-store");
    g_assert_cmpuint (x->len, ==, items->len - 1);
    corpus_assert_same_items (x, y, "pk", "sk");
    /* planned: the full export's data file, then the incremental one, in that order */
    g_assert_cmpuint (m.planned->len, ==, 2);
    g_assert_true (g_str_has_prefix (g_ptr_array_index (m.planned, 0),
                                     "prefix/AWSDynamoDB/01700000000000-55555555/data/"));
    g_assert_true (g_str_has_prefix (g_ptr_array_index (m.planned, 1), "prefix/AWSDynamoDB/data/"));
    g_assert_cmpuint (progress.total_bytes, >, 0);
    g_assert_cmpuint (progress.bytes, ==, progress.total_bytes);
    g_assert_cmpuint (progress.files, ==, 2);
    g_assert_cmpuint (progress.total_files, ==, 2);
    data_key = g_strdup (g_ptr_array_index (m.planned, 0));
  }

  /* a flipped byte, a truncated object, a missing one: named, nothing left */
  {
    GBytes *orig = g_bytes_ref (g_hash_table_lookup (m.objects, data_key));
    gsize size;
    const guint8 *bytes = g_bytes_get_data (orig, &size);
    /* a flipped byte inside the gzip data fails there, bytes after its end the MD5 */
    const char *expect[] = { "data/", "data/", "NoSuchKey", "checksum mismatch" };

    for (guint k = 0; k < G_N_ELEMENTS (expect); k++)
      {
        DdbImportOptions opts = { .table_name = "broken", .key = "pk:S,sk:N", .store = &store };
        guint8 *copy = g_malloc (size + 8);

        memcpy (copy, bytes, size);
        memset (copy + size, 'x', 8);
        if (k == 0)
          copy[size / 2] ^= 0x40;
        if (k == 2)
          {
            g_free (copy);
            g_hash_table_remove (m.objects, data_key);
          }
        else
          g_hash_table_insert (m.objects, g_strdup (data_key),
                               g_bytes_new_take (copy, k == 1   ? size * 2 / 3
                                                       : k == 3 ? size + 8
                                                                : size));
        g_assert_false (ddb_snapshot_import (
            f->engine, "prefix/AWSDynamoDB/01700000000000-55555555/manifest-summary.json", &opts,
            NULL, &error));
        g_assert_nonnull (error);
        if (strstr (error->message, expect[k]) == NULL
            || (k != 2 && strstr (error->message, "data/") == NULL))
          g_error ("case %u: %s", k, error->message);
        g_clear_error (&error);
        g_assert_false (table_exists (f, "broken"));
      }
    g_bytes_unref (orig);
  }
  g_hash_table_unref (m.objects);
  g_ptr_array_unref (m.planned);
  g_string_free (lines, TRUE);
}

/* Empty objects in a bucket: a store may hand an empty object's bytes without any data
 * (g_bytes_new ("", 0) holds NULL). An export of an empty table, whose manifest-files.json is
 * empty, imports as an empty table (no arithmetic on the NULL); an empty manifest-summary.json
 * is refused as the folder's is, naming the JSON problem (not "-1: wrong arguments"). */
static void
test_store_empty_objects (Fixture *f, gconstpointer data)
{
  static const char summary[]
      = "{\"version\":\"2020-06-30\",\"exportTime\":\"2023-11-14T22:13:20.000Z\","
        "\"itemCount\":0,\"outputFormat\":\"DYNAMODB_JSON\"}";
  const char *summary_key = "prefix/AWSDynamoDB/01700000000000-77777777/manifest-summary.json";
  const char *files_key = "prefix/AWSDynamoDB/01700000000000-77777777/manifest-files.json";
  MemStore m = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) g_bytes_unref),
                 g_ptr_array_new_with_free_func (g_free), 0 };
  DdbSnapshotStore store = { mem_get, mem_open, mem_plan, &m };
  DdbImportOptions opts = { .table_name = "empty", .key = "pk:S", .store = &store };
  GError *error = NULL;
  json_t *resp;

  g_hash_table_insert (m.objects, g_strdup (summary_key), g_bytes_new (summary, strlen (summary)));
  g_hash_table_insert (m.objects, g_strdup (files_key), g_bytes_new ("", 0));
  g_assert_true (ddb_snapshot_import (f->engine, summary_key, &opts, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (m.planned->len, ==, 0);
  resp = etu_ok (f->engine, "Scan", "{'TableName': 'empty'}");
  g_assert_cmpint (json_integer_value (json_object_get (resp, "Count")), ==, 0);
  json_decref (resp);

  opts.table_name = "broken";
  g_hash_table_insert (m.objects, g_strdup (summary_key), g_bytes_new ("", 0));
  g_assert_false (ddb_snapshot_import (f->engine, summary_key, &opts, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  if (!g_str_has_prefix (error->message, "manifest-summary.json:1: "))
    g_error ("%s", error->message);
  g_clear_error (&error);
  g_assert_false (table_exists (f, "broken"));
  g_hash_table_unref (m.objects);
  g_ptr_array_unref (m.planned);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) \
  g_test_add ("/snapshot-s3/" path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("history", test_history);
  ADD ("write-order", test_write_order);
  ADD ("refusals", test_refusals);
  ADD ("manifest-io-errors", test_manifest_io_errors);
  ADD ("ion-layouts", test_ion_layouts);
  ADD ("ion-cut-line", test_ion_cut_line);
  ADD ("store", test_store);
  ADD ("store-empty-objects", test_store_empty_objects);
#undef ADD
  return g_test_run ();
}
