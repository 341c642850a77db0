/* test-snapshot-reader.c: the import's item stream reads ahead on a thread of its own and hands
 * items over in batches. Over files of thousands of items (many batches) with refused items
 * among them: every item arrives once, in order, each named by its line; a refused item is
 * told at its place and the reading goes on past it when asked to; progress moves forward to
 * the file's size; items given back or freed alike; a reader freed early (items in flight,
 * a refusal pending) or cancelled midway stops cleanly (ASan and valgrind runs check that
 * nothing leaks). */
#include <glib/gstdio.h>
#include <string.h>

#include "core/error.h"
#include "core/value.h"
#include "engine/snapshot.h"
#include "engine-test-util.h"

#define N_LINES 5000

/* Lines refused, each for its own reason: not JSON, a key of the wrong type, no key. */
static gboolean
line_is_bad (guint line)
{
  return line == 1 || line == 700 || line == 2000 || line == 2001 || line == 4000
         || line == N_LINES;
}

static const char *
bad_text (guint line)
{
  switch (line % 3)
    {
    case 0:
      return "{\"pk\": {\"S\": \"unterminated";
    case 1:
      return "{\"pk\": {\"N\": \"1\"}}";
    default:
      return "{\"other\": {\"S\": \"x\"}}";
    }
}

/* A jsonl file of N_LINES lines, line L (from 1) the item pk "p%05u" of L (and a list, a map
 * and a number set, so that items are trees), or a bad line. */
static char *
write_file (const char *dir)
{
  g_autoptr (GString) text = g_string_new (NULL);
  char *path = g_build_filename (dir, "items.jsonl", NULL);

  for (guint line = 1; line <= N_LINES; line++)
    {
      if (line_is_bad (line))
        g_string_append (text, bad_text (line));
      else
        g_string_append_printf (
            text,
            "{\"pk\": {\"S\": \"p%05u\"}, \"n\": {\"N\": \"%u.5\"}, "
            "\"l\": {\"L\": [{\"S\": \"a\"}, {\"M\": {\"x\": {\"BOOL\": true}}}]},"
            " \"ns\": {\"NS\": [\"1\", \"%u\"]}}",
            line, line, line + 1);
      g_string_append_c (text, '\n');
    }
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  return path;
}

static DdbSnapshotReader *
open_reader (const char *path, GCancellable *cancellable)
{
  DdbImportOptions options = {
    .table_name = "items", .format = DDB_SNAPSHOT_JSONL, .key = "pk:S", .cancellable = cancellable
  };
  GError *error = NULL;
  DdbSnapshotReader *reader = ddb_snapshot_reader_open (path, &options, &error);

  g_assert_no_error (error);
  return reader;
}

/* "FILE:LINE: " as the reader prefixes what is said of the item last returned. */
static char *
where_of (DdbSnapshotReader *reader)
{
  g_autoptr (GError) e = g_error_new_literal (DDB_ERROR, DDB_ERROR_VALIDATION, "");

  ddb_snapshot_reader_prefix_error (reader, &e);
  return g_strdup (e->message);
}

static void
test_order_and_refusals (void)
{
  g_autofree char *dir = etu_tmp_dir ("snapshot-reader-XXXXXX");
  g_autofree char *path = write_file (dir);
  g_autoptr (DdbSnapshotReader) reader = open_reader (path, NULL);
  guint64 size = 0, last_bytes = 0;
  guint line = 0, items = 0, refused = 0, total_files = 0;
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                  G_FILE_QUERY_INFO_NONE, NULL, NULL);

  size = (guint64) g_file_info_get_size (info);
  for (;;)
    {
      GError *error = NULL;
      DdbValue *item = ddb_snapshot_reader_next (reader, &error);
      guint64 bytes = ddb_snapshot_reader_bytes (reader);

      g_assert_cmpuint (bytes, >=, last_bytes);
      g_assert_cmpuint (bytes, <=, size);
      last_bytes = bytes;
      /* The next line that is read: a good one, or a refusal told at its place. */
      line++;
      if (item != NULL)
        {
          g_autofree char *want_pk = g_strdup_printf ("p%05u", line);
          g_autofree char *want_where = g_strdup_printf ("items.jsonl:%u: ", line);
          g_autofree char *where = where_of (reader);
          const DdbValue *pk;

          if (line_is_bad (line))
            g_error ("line %u is refused, but an item came in its place", line);
          g_assert_no_error (error);
          pk = ddb_value_map_get (item, "pk");
          g_assert_nonnull (pk);
          g_assert_cmpstr (pk->bytes.data, ==, want_pk);
          g_assert_cmpstr (where, ==, want_where);
          g_assert_cmpuint (ddb_value_map_get (item, "l")->elems->len, ==, 2);
          items++;
          /* Given back or freed: both are the caller's to choose. */
          if (items % 2 == 0)
            ddb_snapshot_reader_release (reader, item);
          else
            ddb_value_free (item);
          continue;
        }
      if (error == NULL)
        break;
      {
        g_autofree char *want = g_strdup_printf ("items.jsonl:%u: ", line);

        g_assert_true (line_is_bad (line));
        g_assert_true (error->domain == DDB_ERROR);
        if (!g_str_has_prefix (error->message, want))
          g_error ("line %u: \"%s\" does not start with \"%s\"", line, error->message, want);
        g_clear_error (&error);
        refused++;
        /* Until the caller says so, the reading stays where it stopped. */
        g_assert_null (ddb_snapshot_reader_next (reader, &error));
        g_assert_no_error (error);
        g_assert_true (ddb_snapshot_reader_skip_refused (reader));
        g_assert_false (ddb_snapshot_reader_skip_refused (reader));
      }
    }
  /* The end came after the last line, every line seen once. */
  g_assert_cmpuint (line, ==, N_LINES + 1);
  g_assert_cmpuint (refused, ==, 6);
  g_assert_cmpuint (items, ==, N_LINES - 6);
  g_assert_cmpuint (ddb_snapshot_reader_bytes (reader), ==, size);
  g_assert_cmpuint (ddb_snapshot_reader_files (reader, &total_files), ==, 1);
  g_assert_cmpuint (total_files, ==, 1);
  g_assert_false (ddb_snapshot_reader_skip_refused (reader));
  etu_remove_tree (dir);
}

/* Freed with batches read ahead and not handed out, with items given back and not yet freed,
 * with the reading waiting on the caller's word after a refusal, or never started. */
static void
test_free_early (void)
{
  g_autofree char *dir = etu_tmp_dir ("snapshot-reader-XXXXXX");
  g_autofree char *path = write_file (dir);
  const guint reads[] = { 0, 1, 10, 699, 1300, 2600 };

  for (guint k = 0; k < G_N_ELEMENTS (reads); k++)
    {
      DdbSnapshotReader *reader = open_reader (path, NULL);
      GError *error = NULL;

      /* Line 1 is refused: skip it first. */
      if (reads[k] > 0)
        {
          g_assert_null (ddb_snapshot_reader_next (reader, &error));
          g_assert_nonnull (error);
          g_clear_error (&error);
          g_assert_true (ddb_snapshot_reader_skip_refused (reader));
        }
      for (guint i = 0; i < reads[k]; i++)
        {
          DdbValue *item = ddb_snapshot_reader_next (reader, &error);

          if (item == NULL)
            {
              /* A refusal midway (line 700, 2000, 2001): left pending at the last one. */
              g_assert_nonnull (error);
              g_clear_error (&error);
              if (i + 1 < reads[k])
                g_assert_true (ddb_snapshot_reader_skip_refused (reader));
              continue;
            }
          ddb_snapshot_reader_release (reader, item);
        }
      ddb_snapshot_reader_free (reader);
    }
  etu_remove_tree (dir);
}

static void
test_cancel (void)
{
  g_autofree char *dir = etu_tmp_dir ("snapshot-reader-XXXXXX");
  g_autofree char *path = write_file (dir);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (DdbSnapshotReader) reader = open_reader (path, cancellable);
  GError *error = NULL;
  DdbValue *item;
  guint items = 0;

  g_assert_null (ddb_snapshot_reader_next (reader, &error));
  g_clear_error (&error);
  g_assert_true (ddb_snapshot_reader_skip_refused (reader));
  while (items < 300 && (item = ddb_snapshot_reader_next (reader, &error)) != NULL)
    {
      ddb_snapshot_reader_release (reader, item);
      items++;
    }
  g_assert_no_error (error);
  g_cancellable_cancel (cancellable);
  /* What was read ahead still arrives; then the cancellation, and nothing after it. */
  while ((item = ddb_snapshot_reader_next (reader, &error)) != NULL)
    {
      ddb_snapshot_reader_release (reader, item);
      items++;
    }
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpuint (items, <, 300 + 64);
  g_assert_false (ddb_snapshot_reader_skip_refused (reader));
  g_assert_null (ddb_snapshot_reader_next (reader, &error));
  g_assert_no_error (error);
  etu_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/snapshot-reader/order-and-refusals", test_order_and_refusals);
  g_test_add_func ("/engine/snapshot-reader/free-early", test_free_early);
  g_test_add_func ("/engine/snapshot-reader/cancel", test_cancel);
  return g_test_run ();
}
