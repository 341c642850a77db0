/* test-snapshot-items.c: a list of items (a grid's selection) written in an export's formats
 * (ddb_snapshot_format_items, ddb_snapshot_write_items) reads back, through the import's
 * reader, as exactly the same items, over a generated corpus of every kind of value. */
#include <glib/gstdio.h>

#include "core/ddbjson.h"
#include "engine/snapshot.h"
#include "item-corpus.h"
#include "engine-test-util.h"

static const DdbSnapshotFormat formats[]
    = { DDB_SNAPSHOT_JSONL, DDB_SNAPSHOT_JSON, DDB_SNAPSHOT_CSV };

/* The items of PATH as the import reads them under KEY. */
static GPtrArray *
read_back (const char *path, DdbSnapshotFormat format, const char *key)
{
  DdbImportOptions options = { .table_name = "items", .format = format, .key = key };
  g_autoptr (DdbSnapshotReader) reader = NULL;
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  GError *error = NULL;
  DdbValue *item;

  reader = ddb_snapshot_reader_open (path, &options, &error);
  g_assert_no_error (error);
  while ((item = ddb_snapshot_reader_next (reader, &error)) != NULL)
    g_ptr_array_add (items, item);
  g_assert_no_error (error);
  return items;
}

static void
round_trip_text (guint32 seed, const char *hash, const char *range, const char *key)
{
  g_autofree char *dir = etu_tmp_dir ("snapshot-items-XXXXXX");

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr (GPtrArray) items = corpus_items (400, seed + f, hash, range);
      g_autoptr (GPtrArray) got = NULL;
      g_autofree char *text = NULL;
      g_autofree char *path = NULL;
      GError *error = NULL;

      text = ddb_snapshot_format_items (items, formats[f], &error);
      g_assert_no_error (error);
      g_assert_nonnull (text);
      g_assert_true (g_utf8_validate (text, -1, NULL));
      path = g_strdup_printf ("%s/items.%s", dir, ddb_snapshot_format_name (formats[f]));
      g_assert_true (g_file_set_contents (path, text, -1, NULL));
      got = read_back (path, formats[f], key);
      corpus_assert_same_items (items, got, hash, range);
    }
  etu_remove_tree (dir);
}

static void
test_format_round_trip (void)
{
  for (guint32 seed = 1; seed <= 5; seed++)
    {
      round_trip_text (seed * 100, "pk", NULL, "pk:S");
      round_trip_text (seed * 100 + 50, "pk", "sk", "pk:S,sk:N");
    }
}

typedef struct {
  guint calls;
  gboolean done;
  guint64 items;
} ProgressSeen;

static void
on_progress (const DdbSnapshotProgress *p, gpointer data)
{
  ProgressSeen *seen = data;

  seen->calls++;
  g_assert_false (seen->done); /* done comes last, once */
  seen->done = p->done;
  seen->items = p->items;
}

static void
test_write_round_trip (void)
{
  g_autofree char *dir = etu_tmp_dir ("snapshot-items-XXXXXX");
  static const char *const suffixes[] = { "", ".gz" };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint z = 0; z < G_N_ELEMENTS (suffixes); z++)
      {
        g_autoptr (GPtrArray) items = corpus_items (700, 7 + f * 2 + z, "id", NULL);
        g_autoptr (GPtrArray) got = NULL;
        g_autofree char *path = g_strdup_printf (
            "%s/sel.%s%s", dir, ddb_snapshot_format_name (formats[f]), suffixes[z]);
        g_autofree char *part = g_strconcat (path, ".part", NULL);
        ProgressSeen seen = { 0 };
        DdbSnapshotProgress out = { 0 };
        GError *error = NULL;

        /* AUTO takes the format from the name, as the import does. */
        g_assert_true (ddb_snapshot_write_items (path, items, DDB_SNAPSHOT_AUTO, on_progress, &seen,
                                                 NULL, &out, &error));
        g_assert_no_error (error);
        g_assert_true (seen.done);
        g_assert_cmpuint (out.items, ==, items->len);
        g_assert_cmpuint (out.bytes, >, 0);
        g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
        got = read_back (path, DDB_SNAPSHOT_AUTO, "id:S");
        corpus_assert_same_items (items, got, "id", NULL);
      }
  etu_remove_tree (dir);
}

/* The text is the export's: a table imported from it and exported again gives the same. */
static void
test_same_as_export (void)
{
  g_autoptr (DdbEngine) engine = etu_engine_new ();
  g_autofree char *dir = etu_tmp_dir ("snapshot-items-XXXXXX");
  g_autoptr (GPtrArray) items = corpus_items (200, 99, "pk", NULL);
  g_autofree char *text = NULL;
  g_autofree char *source = g_strdup_printf ("%s/in.jsonl", dir);
  g_autofree char *exported = g_strdup_printf ("%s/out.jsonl", dir);
  g_autofree char *again = NULL;
  DdbImportOptions options = { .table_name = "items", .key = "pk:S" };
  DdbExportOptions export = { .table_name = "items", .format = DDB_SNAPSHOT_JSONL };
  g_autoptr (GPtrArray) scanned = NULL;
  GError *error = NULL;

  text = ddb_snapshot_format_items (items, DDB_SNAPSHOT_JSONL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (source, text, -1, NULL));
  g_assert_true (ddb_snapshot_import (engine, source, &options, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (ddb_snapshot_export (engine, exported, &export, NULL, &error));
  g_assert_no_error (error);
  scanned = read_back (exported, DDB_SNAPSHOT_JSONL, "pk:S");
  corpus_assert_same_items (items, scanned, "pk", NULL);
  /* The list in the table's order formats to the export's bytes. */
  again = ddb_snapshot_format_items (scanned, DDB_SNAPSHOT_JSONL, &error);
  g_assert_no_error (error);
  {
    g_autofree char *bytes = NULL;

    g_assert_true (g_file_get_contents (exported, &bytes, NULL, NULL));
    g_assert_cmpstr (again, ==, bytes);
  }
  etu_remove_tree (dir);
}

static void
test_refused (void)
{
  g_autoptr (GPtrArray) items = corpus_items (3, 1, "pk", NULL);
  g_autofree char *dir = etu_tmp_dir ("snapshot-items-XXXXXX");
  g_autofree char *path = g_strdup_printf ("%s/x.jsonl", dir);
  g_autoptr (GCancellable) cancelled = g_cancellable_new ();
  GError *error = NULL;
  char *text;

  text = ddb_snapshot_format_items (items, DDB_SNAPSHOT_S3, &error);
  g_assert_null (text);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_false (
      ddb_snapshot_write_items (path, items, DDB_SNAPSHOT_S3, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_cancellable_cancel (cancelled);
  g_assert_false (ddb_snapshot_write_items (path, items, DDB_SNAPSHOT_JSONL, NULL, NULL, cancelled,
                                            NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* A member that is not an item: nothing written. */
  g_ptr_array_add (items, ddb_value_new_s ("x", -1));
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      text = ddb_snapshot_format_items (items, formats[f], &error);
      g_assert_null (text);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
      g_assert_false (
          ddb_snapshot_write_items (path, items, formats[f], NULL, NULL, NULL, NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }
  g_ptr_array_set_size (items, 0);
  /* No items: each format's empty output, which reads back as none. */
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autofree char *empty = ddb_snapshot_format_items (items, formats[f], &error);

      g_assert_no_error (error);
      g_assert_cmpstr (empty, ==,
                       formats[f] == DDB_SNAPSHOT_JSON  ? "[]\n"
                       : formats[f] == DDB_SNAPSHOT_CSV ? "\r\n"
                                                        : "");
    }
  etu_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/snapshot-items/format-round-trip", test_format_round_trip);
  g_test_add_func ("/engine/snapshot-items/write-round-trip", test_write_round_trip);
  g_test_add_func ("/engine/snapshot-items/same-as-export", test_same_as_export);
  g_test_add_func ("/engine/snapshot-items/refused", test_refused);
  return g_test_run ();
}
