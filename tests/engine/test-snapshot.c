/* test-snapshot.c: snapshot import and export: every format both ways, DynamoDB JSON lines
 * byte for byte, the S3 layout's checksums, errors naming file and line with nothing left
 * behind, cancellation, CSV quoting and typing, key inference, GSIs and query exports. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/ion.h"
#include "engine/engine.h"
#include "engine/snapshot.h"

#include "../core/test-util.h"
#include "engine-test-util.h"

typedef struct {
  char *dir;
  DdbEngine *engine;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autofree char *db = NULL;
  GError *error = NULL;

  f->dir = etu_tmp_dir ("test-snapshot-XXXXXX");
  db = g_build_filename (f->dir, "db.sqlite", NULL);
  f->engine = ddb_engine_open (db, &error);
  g_assert_no_error (error);
  g_assert_nonnull (f->engine);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  ddb_engine_free (f->engine);
  etu_remove_tree (f->dir);
  g_free (f->dir);
}

static char *
path_in (Fixture *f, const char *name)
{
  return g_build_filename (f->dir, name, NULL);
}

static char *
write_text (Fixture *f, const char *name, const char *text)
{
  char *path = path_in (f, name);
  GError *error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

static char *
read_text (const char *path)
{
  char *text = NULL;
  GError *error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static char *
demo_text (const char *name)
{
  const char *srcdir = g_getenv ("DYNOSCOPE_SOURCE_DIR");
  g_autofree char *path = NULL;

  g_assert_nonnull (srcdir);
  path = g_build_filename (srcdir, "data", "demo", name, NULL);
  return read_text (path);
}

static gboolean
table_exists (Fixture *f, const char *name)
{
  json_t *resp = etu_ok (f->engine, "ListTables", "{}");
  json_t *names = json_object_get (resp, "TableNames");
  gboolean found = FALSE;
  gsize i;
  json_t *n;

  json_array_foreach (names, i, n)
    if (strcmp (json_string_value (n), name) == 0)
      found = TRUE;
  json_decref (resp);
  return found;
}

static void
import_ok (Fixture *f, const char *table, const char *source, DdbSnapshotFormat format,
           const char *key, guint64 expect_items)
{
  DdbImportOptions opts = { .table_name = table, .format = format, .key = key };
  DdbSnapshotProgress progress;
  GError *error = NULL;

  gboolean ok = ddb_snapshot_import (f->engine, source, &opts, &progress, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_true (progress.done);
  g_assert_cmpuint (progress.items, ==, expect_items);
}

static GError *
import_fails (Fixture *f, const char *table, const char *source, DdbSnapshotFormat format,
              const char *key)
{
  DdbImportOptions opts = { .table_name = table, .format = format, .key = key };
  GError *error = NULL;

  g_assert_false (ddb_snapshot_import (f->engine, source, &opts, NULL, &error));
  g_assert_nonnull (error);
  /* Nothing half-imported is left behind. */
  g_assert_false (table_exists (f, table));
  return error;
}

static void
export_ok (Fixture *f, const char *table, const char *dest, DdbSnapshotFormat format)
{
  DdbExportOptions opts = { .table_name = table, .format = format };
  GError *error = NULL;

  gboolean ok = ddb_snapshot_export (f->engine, dest, &opts, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
}

static int
compare_lines (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The lines of `text`, sorted, as one string: the same items in any order compare equal. */
static char *
sorted_lines (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = g_strv_length (lines);

  qsort (lines, n, sizeof (char *), compare_lines);
  return g_strjoinv ("\n", lines);
}

/* Imports `jsonl` as `table` and returns its export as DynamoDB JSON lines. */
static char *
export_jsonl_text (Fixture *f, const char *table)
{
  g_autofree char *name = g_strconcat (table, "-export.jsonl", NULL);
  g_autofree char *dest = path_in (f, name);

  export_ok (f, table, dest, DDB_SNAPSHOT_JSONL);
  return read_text (dest);
}

static void
test_jsonl_round_trip (Fixture *f, gconstpointer data)
{
  g_autofree char *posts = demo_text ("posts.jsonl");
  g_autofree char *ws = demo_text ("workspaces.jsonl");
  g_autofree char *posts_path = write_text (f, "posts.jsonl", posts);
  g_autofree char *ws_path = write_text (f, "workspaces.jsonl", ws);
  g_autofree char *e1 = NULL, *e2 = NULL, *e3 = NULL, *w1 = NULL, *w2 = NULL;
  g_autofree char *s_in = NULL, *s_out = NULL;
  g_autofree char *e1_path = NULL;
  g_autofree char *gz_path = path_in (f, "posts.jsonl.gz");

  /* The key is inferred for posts (PK, SK); workspaces needs it given. */
  import_ok (f, "posts", posts_path, DDB_SNAPSHOT_AUTO, NULL, 5);
  e1 = export_jsonl_text (f, "posts");
  s_in = sorted_lines (posts);
  s_out = sorted_lines (e1);
  g_assert_cmpstr (s_in, ==, s_out);

  /* An export imported and exported again gives the same bytes. */
  e1_path = write_text (f, "e1.jsonl", e1);
  import_ok (f, "posts2", e1_path, DDB_SNAPSHOT_JSONL, "PK:S,SK:S", 5);
  e2 = export_jsonl_text (f, "posts2");
  g_assert_cmpstr (e1, ==, e2);

  /* Compressed, both ways. */
  export_ok (f, "posts", gz_path, DDB_SNAPSHOT_JSONL);
  {
    g_autofree char *raw = read_text (gz_path);
    g_assert_cmpint ((guchar) raw[0], ==, 0x1f);
    g_assert_cmpint ((guchar) raw[1], ==, 0x8b);
  }
  import_ok (f, "posts3", gz_path, DDB_SNAPSHOT_AUTO, NULL, 5);
  e3 = export_jsonl_text (f, "posts3");
  g_assert_cmpstr (e1, ==, e3);

  /* Every digit, binary and sets kept. */
  import_ok (f, "wsp", ws_path, DDB_SNAPSHOT_JSONL, "EntityRef:S,Detail:S", 7);
  w1 = export_jsonl_text (f, "wsp");
  g_free (s_in);
  g_free (s_out);
  s_in = sorted_lines (ws);
  s_out = sorted_lines (w1);
  g_assert_cmpstr (s_in, ==, s_out);
  g_assert_nonnull (strstr (w1, "12345678901234567890123456789012345678"));

  /* Lines wrapped as {"Item": ...} are read too. */
  {
    GString *wrapped = g_string_new (NULL);
    g_auto (GStrv) lines = g_strsplit (ws, "\n", -1);
    g_autofree char *p = NULL;

    for (guint i = 0; lines[i] != NULL; i++)
      if (lines[i][0] != '\0')
        g_string_append_printf (wrapped, "{\"Item\":%s}\n", lines[i]);
    p = write_text (f, "wrapped.jsonl", wrapped->str);
    g_string_free (wrapped, TRUE);
    import_ok (f, "wsp2", p, DDB_SNAPSHOT_JSONL, "EntityRef:S,Detail:S", 7);
    w2 = export_jsonl_text (f, "wsp2");
    g_assert_cmpstr (w1, ==, w2);
  }
}

/* The gzip members of TEXTS one after the other, then TAIL (TAIL_LEN bytes), as file NAME. */
static char *
write_members (Fixture *f, const char *name, const char *const *texts, const char *tail,
               gsize tail_len)
{
  char *path = path_in (f, name);
  g_autoptr (GByteArray) all = g_byte_array_new ();
  GError *error = NULL;

  for (guint i = 0; texts[i] != NULL; i++)
    {
      g_autoptr (GBytes) member = etu_gzip (texts[i]);

      g_byte_array_append (all, g_bytes_get_data (member, NULL), (guint) g_bytes_get_size (member));
    }
  g_byte_array_append (all, (const guint8 *) tail, (guint) tail_len);
  g_file_set_contents (path, (const char *) all->data, (gssize) all->len, &error);
  g_assert_no_error (error);
  return path;
}

/* A gzip file of several members (`cat a.gz b.gz`, pigz, bgzip) is read to its end, as gzip -d
 * reads it: its first member alone ended the import, which succeeded without the items of the
 * others (or of a damaged or cut member after the first). A line may be cut between two
 * members; bytes after the last member that are not another one are ignored, as gzip -d
 * ignores them; a damaged or cut member after the first is refused, naming the file, with
 * nothing left behind. */
static void
test_gzip_members (Fixture *f, gconstpointer data)
{
  static const char zeros[512] = { 0 };
  const char *lines[] = { "{\"pk\":{\"S\":\"a\"}}\n{\"pk\":{\"S\":", "\"b\"}}\n",
                          "{\"pk\":{\"S\":\"c\"}}\n", NULL };
  const char *csv[] = { "pk,n (N)\r\n", "a,1\r\nb,2\r\n", NULL };
  g_autoptr (GBytes) last = etu_gzip ("{\"pk\":{\"S\":\"d\"}}\n");
  gsize last_len = g_bytes_get_size (last);
  g_autofree char *damaged_last = g_memdup2 (g_bytes_get_data (last, NULL), last_len);
  g_autofree char *multi = write_members (f, "multi.jsonl.gz", lines, "", 0);
  g_autofree char *padded = write_members (f, "padded.jsonl.gz", lines, zeros, sizeof zeros);
  g_autofree char *garbage = write_members (f, "garbage.jsonl.gz", lines, "\0\0junk", 6);
  g_autofree char *table = write_members (f, "members.csv.gz", csv, "", 0);
  g_autofree char *cut = NULL;
  g_autofree char *damaged = NULL;
  g_autofree char *text = NULL;
  g_autofree char *sorted = NULL;
  GError *error;

  import_ok (f, "multi", multi, DDB_SNAPSHOT_AUTO, "pk:S", 3);
  text = export_jsonl_text (f, "multi");
  sorted = sorted_lines (text);
  g_assert_cmpstr (sorted, ==,
                   "\n{\"pk\":{\"S\":\"a\"}}\n{\"pk\":{\"S\":\"b\"}}\n{\"pk\":{\"S\":\"c\"}}");
  import_ok (f, "padded", padded, DDB_SNAPSHOT_AUTO, "pk:S", 3);
  import_ok (f, "garbage", garbage, DDB_SNAPSHOT_AUTO, "pk:S", 3);
  import_ok (f, "members", table, DDB_SNAPSHOT_AUTO, "pk:S", 2);

  /* A member after the first, cut short or damaged. */
  cut = write_members (f, "cut.jsonl.gz", (const char *[]){ "{\"pk\":{\"S\":\"a\"}}\n", NULL },
                       g_bytes_get_data (last, NULL), last_len / 2);
  error = import_fails (f, "cut", cut, DDB_SNAPSHOT_AUTO, "pk:S");
  g_assert_true (error->domain == G_IO_ERROR);
  g_assert_true (g_str_has_prefix (error->message, "cut.jsonl.gz: "));
  g_clear_error (&error);
  damaged_last[last_len / 2] ^= 0x40;
  damaged_last[last_len / 2 + 1] ^= 0x40;
  damaged
      = write_members (f, "damaged.jsonl.gz", (const char *[]){ "{\"pk\":{\"S\":\"a\"}}\n", NULL },
                       damaged_last, last_len);
  error = import_fails (f, "damaged", damaged, DDB_SNAPSHOT_AUTO, "pk:S");
  g_assert_true (g_str_has_prefix (error->message, "damaged.jsonl.gz:"));
  g_clear_error (&error);
}

static void
test_json (Fixture *f, gconstpointer data)
{
  g_autofree char *ws = demo_text ("workspaces.jsonl");
  g_autofree char *ws_path = write_text (f, "ws.jsonl", ws);
  g_autofree char *json_path = path_in (f, "ws.json");
  g_autofree char *w1 = NULL, *w2 = NULL, *text = NULL;
  g_autofree char *lines_path = NULL, *array_path = NULL;
  json_t *resp;

  import_ok (f, "wsp", ws_path, DDB_SNAPSHOT_JSONL, "EntityRef:S,Detail:S", 7);
  w1 = export_jsonl_text (f, "wsp");
  export_ok (f, "wsp", json_path, DDB_SNAPSHOT_JSON);
  text = read_text (json_path);
  g_assert_true (g_str_has_prefix (text, "[\n{"));
  /* Plain JSON: numbers as numbers, every digit kept. */
  g_assert_nonnull (strstr (text, "\"budget\":12345678901234567890123456789012345678"));
  import_ok (f, "ws-from-json", json_path, DDB_SNAPSHOT_AUTO, "EntityRef:S,Detail:S", 7);
  w2 = export_jsonl_text (f, "ws-from-json");
  g_assert_cmpstr (w1, ==, w2);

  /* One object a line, and an array spread over lines. */
  lines_path = write_text (f, "lines.json",
                           "{\"id\": \"a\", \"n\": 1.50, \"ok\": true, \"m\": {\"x\": [1, null]}}\n"
                           "\n"
                           "{\"id\": \"b\", \"n\": -3}\n");
  import_ok (f, "lines", lines_path, DDB_SNAPSHOT_JSON, "id:S", 2);
  resp = etu_ok (f->engine, "GetItem", "{'TableName': 'lines', 'Key': {'id': {'S': 'a'}}}");
  {
    g_autofree char *item = json_dumps (json_object_get (resp, "Item"), JSON_COMPACT);
    g_assert_cmpstr (item, ==,
                     "{\"id\":{\"S\":\"a\"},\"n\":{\"N\":\"1.5\"},\"ok\":{\"BOOL\":true},"
                     "\"m\":{\"M\":{\"x\":{\"L\":[{\"N\":\"1\"},{\"NULL\":true}]}}}}");
  }
  json_decref (resp);

  array_path = write_text (f, "array.json",
                           "  [\n  {\"id\": \"a\",\n   \"s\": \"x,]}\\\"\"},\n"
                           "  {\"id\": \"b\"}\n]\n");
  import_ok (f, "array", array_path, DDB_SNAPSHOT_AUTO, NULL, 2);
  resp = etu_ok (f->engine, "GetItem", "{'TableName': 'array', 'Key': {'id': {'S': 'a'}}}");
  g_assert_cmpstr (json_string_value (json_object_get (
                       json_object_get (json_object_get (resp, "Item"), "s"), "S")),
                   ==, "x,]}\"");
  json_decref (resp);

  /* An error in an array element names its line. */
  {
    g_autofree char *bad = write_text (f, "bad.json", "[\n{\"id\": \"a\"},\n\n{\"id\": 1e999}\n]");
    g_autoptr (GError) error = import_fails (f, "badjson", bad, DDB_SNAPSHOT_JSON, "id:S");
    g_assert_true (g_str_has_prefix (error->message, "bad.json:4: "));
  }
}

static void
test_csv (Fixture *f, gconstpointer data)
{
  g_autofree char *ws = demo_text ("workspaces.jsonl");
  g_autofree char *ws_path = write_text (f, "ws.jsonl", ws);
  g_autofree char *csv_path = path_in (f, "ws.csv");
  g_autofree char *w1 = NULL, *w2 = NULL, *text = NULL;

  import_ok (f, "wsp", ws_path, DDB_SNAPSHOT_JSONL, "EntityRef:S,Detail:S", 7);
  w1 = export_jsonl_text (f, "wsp");
  export_ok (f, "wsp", csv_path, DDB_SNAPSHOT_CSV);
  text = read_text (csv_path);
  /* Columns in order of first appearance, typed when not S; mixed columns as DynamoDB JSON. */
  g_assert_true (g_str_has_prefix (text, "EntityRef,Detail,name,"));
  g_assert_nonnull (strstr (text, ",seats (N),"));
  g_assert_nonnull (strstr (text, "budget (N)"));
  g_assert_nonnull (strstr (text, "tags (DDB)"));
  g_assert_nonnull (strstr (text, "checksum (B)"));
  g_assert_nonnull (strstr (text, "\"{\"\"SS\"\":[\"\"billing\"\",\"\"q1\"\"]}\""));
  import_ok (f, "ws-from-csv", csv_path, DDB_SNAPSHOT_AUTO, "EntityRef:S,Detail:S", 7);
  w2 = export_jsonl_text (f, "ws-from-csv");
  g_assert_cmpstr (w1, ==, w2);
}

static void
test_csv_quoting (Fixture *f, gconstpointer data)
{
  g_autofree char *path
      = write_text (f, "q.csv",
                    "\xEF\xBB\xBFid,n,price (N),note,flag (BOOL),raw (DDB),bin (B)\r\n"
                    "1,7,1.50,\"a, b\",true,\"{\"\"SS\"\":[\"\"x\"\",\"\"y\"\"]}\",AAE=\r\n"
                    "2,8,,\"say \"\"hi\"\"\nsecond line\",false,,\r\n"
                    "3,9,0,\"\",,,\"\"\r\n"
                    "\r\n");
  g_autofree char *w = NULL;
  g_autofree char *e = NULL;

  /* Key columns take the key's type: n is N here without a suffix. */
  import_ok (f, "qq1", path, DDB_SNAPSHOT_CSV, "id:S,n:N", 3);
  w = export_jsonl_text (f, "qq1");
  e = sorted_lines (w);
  g_assert_cmpstr (
      e, ==,
      "\n"
      "{\"id\":{\"S\":\"1\"},\"n\":{\"N\":\"7\"},\"price\":{\"N\":\"1.5\"},"
      "\"note\":{\"S\":\"a, b\"},\"flag\":{\"BOOL\":true},\"raw\":{\"SS\":[\"x\",\"y\"]},"
      "\"bin\":{\"B\":\"AAE=\"}}\n"
      "{\"id\":{\"S\":\"2\"},\"n\":{\"N\":\"8\"},"
      "\"note\":{\"S\":\"say \\\"hi\\\"\\nsecond line\"},\"flag\":{\"BOOL\":false}}\n"
      "{\"id\":{\"S\":\"3\"},\"n\":{\"N\":\"9\"},\"price\":{\"N\":\"0\"},"
      "\"note\":{\"S\":\"\"},\"bin\":{\"B\":\"\"}}");

  /* And back: the export quotes what needs it and reads back the same. */
  {
    g_autofree char *csv = path_in (f, "q-out.csv");
    g_autofree char *w2 = NULL;
    g_autofree char *text = NULL;

    export_ok (f, "qq1", csv, DDB_SNAPSHOT_CSV);
    text = read_text (csv);
    g_assert_nonnull (strstr (text, "\"say \"\"hi\"\"\nsecond line\""));
    import_ok (f, "qq2", csv, DDB_SNAPSHOT_CSV, "id:S,n:N", 3);
    w2 = export_jsonl_text (f, "qq2");
    g_assert_cmpstr (w, ==, w2);
  }

  /* Errors name the line and the column. */
  {
    g_autofree char *bad = write_text (f, "bad.csv", "id,price (N)\na,1\nb,2\nc,abc\n");
    g_autoptr (GError) error = import_fails (f, "badcsv", bad, DDB_SNAPSHOT_CSV, "id:S");
    tu_assert_error (error, DDB_ERROR_VALIDATION,
                     "bad.csv:4: column \"price (N)\": The parameter cannot be converted to a "
                     "numeric value: abc");
  }
  {
    g_autofree char *bad = write_text (f, "bad2.csv", "id,x\na,\"unclosed\nb,2\n");
    g_autoptr (GError) error = import_fails (f, "badcsv", bad, DDB_SNAPSHOT_CSV, "id:S");
    tu_assert_error (error, DDB_ERROR_VALIDATION, "bad2.csv:2: CSV: a quoted cell is not closed");
  }
  {
    g_autofree char *bad = write_text (f, "bad3.csv", "id,x\na,1\nb,2,3\n");
    g_autoptr (GError) error = import_fails (f, "badcsv", bad, DDB_SNAPSHOT_CSV, "id:S");
    tu_assert_error (error, DDB_ERROR_VALIDATION,
                     "bad3.csv:3: CSV: 3 cells, but the header names 2 columns");
  }
  {
    g_autofree char *bad = write_text (f, "bad4.csv", "id,x\na,b\"c\n");
    g_autoptr (GError) error = import_fails (f, "badcsv", bad, DDB_SNAPSHOT_CSV, "id:S");
    g_assert_true (g_str_has_prefix (error->message, "bad4.csv:2: CSV: a quote inside"));
  }
}

static void
test_bad_line (Fixture *f, gconstpointer data)
{
  g_autofree char *malformed = write_text (f, "bad.jsonl",
                                           "{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}\n"
                                           "{\"PK\":{\"S\":\"b\"},\"SK\":{\"S\":\"1\"}}\n"
                                           "{\"PK\":{\"S\":\"c\"},\"SK\":{\"N\":\"1\"}\n"
                                           "{\"PK\":{\"S\":\"d\"},\"SK\":{\"S\":\"1\"}}\n");
  g_autofree char *missing = write_text (f, "missing.jsonl",
                                         "{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}\n"
                                         "\n"
                                         "{\"SK\":{\"S\":\"1\"}}\n");
  g_autofree char *mismatch = write_text (f, "mismatch.jsonl",
                                          "{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}\n"
                                          "{\"PK\":{\"S\":\"b\"},\"SK\":{\"S\":\"1\"}}\n"
                                          "{\"PK\":{\"S\":\"c\"},\"SK\":{\"N\":\"1\"}}\n");
  GError *error;

  error = import_fails (f, "tbl", malformed, DDB_SNAPSHOT_JSONL, "PK:S,SK:S");
  g_assert_error (error, DDB_ERROR, DDB_ERROR_SERIALIZATION);
  g_assert_true (g_str_has_prefix (error->message, "bad.jsonl:3: "));
  g_clear_error (&error);

  error = import_fails (f, "tbl", missing, DDB_SNAPSHOT_JSONL, "PK:S,SK:S");
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "missing.jsonl:3: One or more parameter values were invalid: Missing the key "
                   "PK in the item");
  g_clear_error (&error);

  error = import_fails (f, "tbl", mismatch, DDB_SNAPSHOT_JSONL, "PK:S,SK:S");
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "mismatch.jsonl:3: One or more parameter values were invalid: Type mismatch "
                   "for key SK expected: S actual: N");
  g_clear_error (&error);

  /* A missing file. */
  {
    g_autofree char *nowhere = path_in (f, "nowhere.jsonl");
    error = import_fails (f, "tbl", nowhere, DDB_SNAPSHOT_JSONL, "PK:S");
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_clear_error (&error);
  }
}

static void
test_table_exists (Fixture *f, gconstpointer data)
{
  g_autofree char *path = write_text (f, "a.jsonl", "{\"id\":{\"S\":\"new\"}}\n");
  json_t *resp;
  DdbImportOptions opts = { .table_name = "tbl", .key = "id:S" };
  GError *error = NULL;

  resp = etu_ok (f->engine, "CreateTable",
                 "{'TableName': 'tbl', 'AttributeDefinitions': [{'AttributeName': 'id', "
                 "'AttributeType': 'S'}], 'KeySchema': [{'AttributeName': 'id', 'KeyType': "
                 "'HASH'}], 'BillingMode': 'PAY_PER_REQUEST'}");
  json_decref (resp);
  json_decref (etu_ok (f->engine, "PutItem", "{'TableName': 'tbl', 'Item': {'id': {'S': 'old'}}}"));
  g_assert_false (ddb_snapshot_import (f->engine, path, &opts, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_IN_USE);
  g_clear_error (&error);
  resp = etu_ok (f->engine, "Scan", "{'TableName': 'tbl'}");
  g_assert_cmpint (json_integer_value (json_object_get (resp, "Count")), ==, 1);
  json_decref (resp);
}

static void
cancel_on_progress (const DdbSnapshotProgress *p, gpointer data)
{
  if (!p->done)
    g_cancellable_cancel (G_CANCELLABLE (data));
}

static void
test_cancel (Fixture *f, gconstpointer data)
{
  GString *text = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  DdbImportOptions opts = { .table_name = "big",
                            .key = "id:N",
                            .cancellable = cancellable,
                            .progress = cancel_on_progress,
                            .progress_data = cancellable };
  DdbSnapshotProgress progress;
  GError *error = NULL;

  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (text, "{\"id\":{\"N\":\"%u\"},\"v\":{\"S\":\"x\"}}\n", i);
  path = write_text (f, "big.jsonl", text->str);
  g_string_free (text, TRUE);

  /* Cancelled at the first progress report, well before the end. */
  g_assert_false (ddb_snapshot_import (f->engine, path, &opts, &progress, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpuint (progress.items, <, 1000);
  g_assert_true (progress.done);
  g_assert_false (table_exists (f, "big"));

  /* Cancelled before it starts. */
  opts.progress = NULL;
  g_assert_false (ddb_snapshot_import (f->engine, path, &opts, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_false (table_exists (f, "big"));

  /* The same import, not cancelled, works; a cancelled export leaves no file. */
  g_cancellable_reset (cancellable);
  opts.cancellable = NULL;
  g_assert_true (ddb_snapshot_import (f->engine, path, &opts, &progress, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (progress.items, ==, 1000);
  {
    g_autofree char *dest = path_in (f, "out.jsonl");
    g_autofree char *part = path_in (f, "out.jsonl.part");
    DdbExportOptions eo = { .table_name = "big",
                            .cancellable = cancellable,
                            .progress = cancel_on_progress,
                            .progress_data = cancellable };

    g_assert_false (ddb_snapshot_export (f->engine, dest, &eo, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
    g_assert_false (g_file_test (dest, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
  }
}

/* Builds an S3 export folder as DynamoDB writes one: items in `lines` gzipped into one data
 * file, the manifest's md5Checksum/etag/itemCount from `md5`, `etag` and `count` (NULL / -1:
 * the correct values). */
static char *
make_s3_export_as (Fixture *f, const char *name, const char *lines, const char *md5,
                   const char *etag, int count, int total, gboolean ion)
{
  g_autofree char *root = path_in (f, name);
  g_autofree char *dir = g_build_filename (root, "AWSDynamoDB", "01700000000000-abcdef12", NULL);
  g_autofree char *data_dir = g_build_filename (dir, "data", NULL);
  g_autofree char *data_path
      = g_build_filename (data_dir, ion ? "k3x7q2abcdefghijklmnopqrst.ion.gz"
                                        : "k3x7q2abcdefghijklmnopqrst.json.gz", NULL);
  g_autoptr (GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr (GOutputStream) gz = g_converter_output_stream_new (mem, G_CONVERTER (z));
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);
  guint8 digest[16];
  gsize dlen = sizeof digest;
  g_autofree char *b64 = NULL;
  g_autofree char *manifest = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *p = NULL;
  GError *error = NULL;
  guint n = 0;

  for (const char *c = lines; *c != '\0'; c++)
    if (*c == '\n')
      n++;
  g_assert_cmpint (g_mkdir_with_parents (data_dir, 0700), ==, 0);
  g_output_stream_write_all (gz, lines, strlen (lines), NULL, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (gz, NULL, &error);
  g_assert_no_error (error);
  g_file_set_contents (data_path, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)),
                       (gssize) g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)),
                       &error);
  g_assert_no_error (error);
  g_checksum_update (sum, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)),
                     (gssize) g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)));
  g_checksum_get_digest (sum, digest, &dlen);
  b64 = g_base64_encode (digest, sizeof digest);

  manifest = g_strdup_printf (
      "{\"itemCount\":%d,\"md5Checksum\":\"%s\",\"etag\":\"%s\",\"dataFileS3Key\":"
      "\"AWSDynamoDB/01700000000000-abcdef12/data/k3x7q2abcdefghijklmnopqrst.%s.gz\"}\n",
      count >= 0 ? count : (int) n, md5 != NULL ? md5 : b64,
      etag != NULL ? etag : g_checksum_get_string (sum), ion ? "ion" : "json");
  summary = g_strdup_printf (
      "{\"version\":\"2020-06-30\",\"exportArn\":\"arn:aws:dynamodb:us-east-1:123456789012:table/"
      "Posts/export/01700000000000-abcdef12\",\"startTime\":\"2024-01-01T00:00:00.000Z\","
      "\"endTime\":\"2024-01-01T00:05:00.000Z\",\"tableArn\":\"arn:aws:dynamodb:us-east-1:"
      "123456789012:table/Posts\",\"tableId\":\"12345a12-abcd-123a-ab12-1234abc12345\","
      "\"exportTime\":\"2024-01-01T00:00:00.000Z\",\"s3Bucket\":\"bucket\",\"s3Prefix\":null,"
      "\"s3SseAlgorithm\":\"AES256\",\"s3SseKmsKeyId\":null,\"manifestFilesS3Key\":"
      "\"AWSDynamoDB/01700000000000-abcdef12/manifest-files.json\",\"billedSizeBytes\":0,"
      "\"itemCount\":%d,\"outputFormat\":\"%s\"}",
      total >= 0 ? total : (int) n, ion ? "ION" : "DYNAMODB_JSON");
  p = g_build_filename (dir, "manifest-files.json", NULL);
  g_file_set_contents (p, manifest, -1, &error);
  g_assert_no_error (error);
  g_free (p);
  p = g_build_filename (dir, "manifest-summary.json", NULL);
  g_file_set_contents (p, summary, -1, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&root);
}

static char *
make_s3_export (Fixture *f, const char *name, const char *lines, const char *md5, const char *etag,
                int count, int total)
{
  return make_s3_export_as (f, name, lines, md5, etag, count, total, FALSE);
}

/* An S3 export in Amazon Ion (outputFormat ION, .ion.gz data files): the demo posts written
 * as AWS's export writes them import to the same items; a bad Ion line is named by file and
 * line, and nothing is imported. */
static void
test_s3_ion (Fixture *f, gconstpointer data)
{
  g_autofree char *posts = demo_text ("posts.jsonl");
  g_auto (GStrv) lines = g_strsplit (posts, "\n", -1);
  GString *ion = g_string_new (NULL);
  g_autofree char *good = NULL, *bad = NULL, *exported = NULL;
  GString *broken;
  GError *error;

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      {
        GError *e = NULL;
        g_autoptr (DdbValue) item = ddb_json_parse_item (lines[i], -1, &e);

        g_assert_no_error (e);
        ddb_ion_append_export_line (ion, item);
        g_string_append_c (ion, '\n');
      }
  good = make_s3_export_as (f, "ion", ion->str, NULL, NULL, -1, -1, TRUE);
  import_ok (f, "posts", good, DDB_SNAPSHOT_AUTO, "PK:S,SK:S", 5);
  exported = export_jsonl_text (f, "posts");
  {
    g_autofree char *a = sorted_lines (posts);
    g_autofree char *b = sorted_lines (exported);
    g_assert_cmpstr (a, ==, b);
  }
  /* our own Ion export: AWS's layout with outputFormat ION and .ion.gz files, which imports to
   * the same items without --key */
  {
    g_autofree char *dest = path_in (f, "ion-out");
    g_autofree char *summary_path = g_build_filename (dest, "manifest-summary.json", NULL);
    g_autofree char *files_path = g_build_filename (dest, "manifest-files.json", NULL);
    g_autofree char *summary = NULL, *files = NULL, *again = NULL;
    DdbExportOptions opts = { .table_name = "posts", .format = DDB_SNAPSHOT_S3, .ion = TRUE };
    json_auto_t *j = NULL;
    GError *e = NULL;

    g_assert_true (ddb_snapshot_export (f->engine, dest, &opts, NULL, &e));
    g_assert_no_error (e);
    summary = read_text (summary_path);
    files = read_text (files_path);
    j = json_loads (summary, 0, NULL);
    g_assert_cmpstr (json_string_value (json_object_get (j, "outputFormat")), ==, "ION");
    g_assert_nonnull (strstr (files, ".ion.gz\""));
    import_ok (f, "posts-ion-again", dest, DDB_SNAPSHOT_AUTO, NULL, 5);
    again = export_jsonl_text (f, "posts-ion-again");
    g_assert_cmpstr (again, ==, exported);
  }
  /* the third line broken: named, nothing imported */
  broken = g_string_new (NULL);
  {
    g_auto (GStrv) ion_lines = g_strsplit (ion->str, "\n", -1);

    for (guint i = 0; ion_lines[i] != NULL && ion_lines[i][0] != '\0'; i++)
      g_string_append_printf (broken, "%s\n", i == 2 ? "$ion_1_0 {Item:{PK:\"x\",SK:{{!!}}}}"
                                                     : ion_lines[i]);
  }
  bad = make_s3_export_as (f, "ion-bad", broken->str, NULL, NULL, -1, -1, TRUE);
  error = import_fails (f, "posts-bad", bad, DDB_SNAPSHOT_S3, "PK:S,SK:S");
  g_assert_true (g_str_has_prefix (error->message, "data/k3x7q2abcdefghijklmnopqrst.ion.gz:3: Ion: "));
  g_clear_error (&error);
  g_assert_false (table_exists (f, "posts-bad"));
  g_string_free (broken, TRUE);
  g_string_free (ion, TRUE);
}

static void
test_s3 (Fixture *f, gconstpointer data)
{
  g_autofree char *posts = demo_text ("posts.jsonl");
  GString *wrapped = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (posts, "\n", -1);
  g_autofree char *good = NULL, *bad_md5 = NULL, *bad_etag = NULL, *bad_count = NULL;
  g_autofree char *bad_total = NULL, *etag1 = NULL;
  g_autofree char *p1 = NULL, *p2 = NULL;
  g_autofree char *s3_dest = path_in (f, "s3-out");
  GError *error;

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_string_append_printf (wrapped, "{\"Item\":%s}\n", lines[i]);

  /* A correct export: its key schema is not in the manifest, so it is given. */
  good = make_s3_export (f, "good", wrapped->str, NULL, NULL, -1, -1);
  import_ok (f, "posts", good, DDB_SNAPSHOT_AUTO, "PK:S,SK:S", 5);
  p1 = export_jsonl_text (f, "posts");
  {
    g_autofree char *a = sorted_lines (posts);
    g_autofree char *b = sorted_lines (p1);
    g_assert_cmpstr (a, ==, b);
  }

  /* A corrupted checksum: nothing imported. */
  bad_md5 = make_s3_export (f, "bad-md5", wrapped->str, "AAAAAAAAAAAAAAAAAAAAAA==", NULL, -1, -1);
  error = import_fails (f, "posts-bad", bad_md5, DDB_SNAPSHOT_S3, "PK:S,SK:S");
  g_assert_true (strstr (error->message, "checksum mismatch") != NULL);
  g_assert_true (g_str_has_prefix (error->message, "data/k3x7q2abcdefghijklmnopqrst.json.gz: "));
  g_clear_error (&error);
  bad_etag = make_s3_export (f, "bad-etag", wrapped->str, NULL, "0123456789abcdef0123456789abcdef",
                             -1, -1);
  error = import_fails (f, "posts-bad", bad_etag, DDB_SNAPSHOT_S3, "PK:S,SK:S");
  g_assert_true (strstr (error->message, "etag") != NULL);
  g_clear_error (&error);
  /* A multipart ETag of one part is the MD5 of the MD5. */
  {
    g_autofree char *md5_path = NULL;
    guint8 d[16];
    gsize dl = sizeof d;
    g_autofree char *raw = NULL;
    gsize raw_len;
    g_autoptr (GChecksum) s1 = g_checksum_new (G_CHECKSUM_MD5);
    g_autoptr (GChecksum) s2 = g_checksum_new (G_CHECKSUM_MD5);

    md5_path = g_build_filename (good, "AWSDynamoDB", "01700000000000-abcdef12", "data",
                                 "k3x7q2abcdefghijklmnopqrst.json.gz", NULL);
    g_file_get_contents (md5_path, &raw, &raw_len, NULL);
    g_checksum_update (s1, (guchar *) raw, (gssize) raw_len);
    g_checksum_get_digest (s1, d, &dl);
    g_checksum_update (s2, d, sizeof d);
    etag1 = g_strconcat (g_checksum_get_string (s2), "-1", NULL);
  }
  {
    g_autofree char *multi = make_s3_export (f, "multi", wrapped->str, NULL, etag1, -1, -1);
    import_ok (f, "posts-multi", multi, DDB_SNAPSHOT_S3, "PK:S,SK:S", 5);
  }
  bad_count = make_s3_export (f, "bad-count", wrapped->str, NULL, NULL, 4, -1);
  error = import_fails (f, "posts-bad", bad_count, DDB_SNAPSHOT_S3, "PK:S,SK:S");
  g_assert_true (strstr (error->message, "itemCount 4") != NULL);
  g_clear_error (&error);
  bad_total = make_s3_export (f, "bad-total", wrapped->str, NULL, NULL, -1, 9);
  error = import_fails (f, "posts-bad", bad_total, DDB_SNAPSHOT_S3, "PK:S,SK:S");
  g_assert_true (strstr (error->message, "itemCount 9") != NULL);
  g_clear_error (&error);

  /* Our own S3 export: the layout, and it imports without --key (it records the key). */
  export_ok (f, "posts", s3_dest, DDB_SNAPSHOT_S3);
  {
    g_autofree char *summary_path = g_build_filename (s3_dest, "manifest-summary.json", NULL);
    g_autofree char *files_path = g_build_filename (s3_dest, "manifest-files.json", NULL);
    g_autofree char *summary = read_text (summary_path);
    g_autofree char *files = read_text (files_path);

    json_auto_t *j = json_loads (summary, 0, NULL);

    g_assert_cmpint (json_integer_value (json_object_get (j, "itemCount")), ==, 5);
    g_assert_cmpstr (json_string_value (json_object_get (j, "outputFormat")), ==, "DYNAMODB_JSON");
    g_assert_nonnull (strstr (files, "\"md5Checksum\":"));
    g_assert_nonnull (strstr (files, "/data/"));
  }
  import_ok (f, "posts-again", s3_dest, DDB_SNAPSHOT_AUTO, NULL, 5);
  p2 = export_jsonl_text (f, "posts-again");
  g_assert_cmpstr (p1, ==, p2);
  g_string_free (wrapped, TRUE);
}

static void
test_inference (Fixture *f, gconstpointer data)
{
  g_autofree char *ws = demo_text ("workspaces.jsonl");
  g_autofree char *ws_path = write_text (f, "ws.jsonl", ws);
  g_autofree char *single = write_text (f, "single.jsonl",
                                        "{\"id\":{\"N\":\"1\"},\"v\":{\"S\":\"\"}}\n"
                                        "{\"id\":{\"N\":\"2\"},\"v\":{\"BOOL\":true}}\n");
  g_autofree char *dups = write_text (f, "dups.jsonl",
                                      "{\"id\":{\"N\":\"1\"},\"v\":{\"S\":\"\"}}\n"
                                      "{\"id\":{\"N\":\"1.0\"}}\n");
  GError *error;
  json_t *resp;

  error = import_fails (f, "wsp", ws_path, DDB_SNAPSHOT_JSONL, NULL);
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "The key schema cannot be inferred (EntityRef:S, Detail:S, name:S): give it "
                   "with --key NAME:TYPE[,NAME:TYPE]");
  g_clear_error (&error);

  /* The one attribute every item holds with one key type. */
  import_ok (f, "single", single, DDB_SNAPSHOT_JSONL, NULL, 2);
  resp = etu_ok (f->engine, "DescribeTable", "{'TableName': 'single'}");
  {
    g_autofree char *ks
        = json_dumps (json_object_get (json_object_get (resp, "Table"), "KeySchema"), JSON_COMPACT);
    g_assert_cmpstr (ks, ==, "[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}]");
  }
  json_decref (resp);

  /* An inferred key that is not unique is refused (1 and 1.0 are one key). */
  error = import_fails (f, "dups", dups, DDB_SNAPSHOT_JSONL, NULL);
  g_assert_true (strstr (error->message, "is not unique") != NULL);
  g_clear_error (&error);

  /* Bad key specifications. */
  error = import_fails (f, "single2", single, DDB_SNAPSHOT_JSONL, "id:BOOL");
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_clear_error (&error);
  error = import_fails (f, "single2", single, DDB_SNAPSHOT_JSONL, "id");
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_clear_error (&error);
  error = import_fails (f, "x", single, DDB_SNAPSHOT_JSONL, "id:N");
  g_assert_true (g_str_has_prefix (error->message, "1 validation error detected: "));
  g_clear_error (&error);
  g_assert_true (ddb_snapshot_check_key_spec ("pk:S,sk:N", FALSE, NULL));
  g_assert_true (ddb_snapshot_check_key_spec ("byOwner:owner:S", TRUE, NULL));
  g_assert_false (ddb_snapshot_check_key_spec ("pk:S,pk:N", FALSE, NULL));
  /* A name may hold ':' (the type follows the last one). */
  g_assert_true (ddb_snapshot_check_key_spec ("a:b:c:S", FALSE, NULL));
  g_assert_false (ddb_snapshot_check_key_spec ("x:pk:S", TRUE, NULL));
}

static void
test_gsi_and_query_export (Fixture *f, gconstpointer data)
{
  g_autofree char *ws = demo_text ("workspaces.jsonl");
  g_autofree char *ws_path = write_text (f, "ws.jsonl", ws);
  const char *gsis[] = { "byStatus:status:S,name:S", NULL };
  DdbImportOptions opts = { .table_name = "wsp", .key = "EntityRef:S,Detail:S", .gsis = gsis };
  GError *error = NULL;
  json_t *resp;
  g_autofree char *dest = path_in (f, "active.jsonl");
  g_autofree char *text = NULL;
  json_t *query;
  DdbExportOptions eo = { .table_name = "wsp" };

  g_assert_true (ddb_snapshot_import (f->engine, ws_path, &opts, NULL, &error));
  g_assert_no_error (error);
  resp = etu_ok (f->engine, "Query",
                 "{'TableName': 'wsp', 'IndexName': 'byStatus', 'KeyConditionExpression': "
                 "'#s = :s', 'ExpressionAttributeNames': {'#s': 'status'}, "
                 "'ExpressionAttributeValues': {':s': {'S': 'active'}}}");
  g_assert_cmpint (json_integer_value (json_object_get (resp, "Count")), ==, 3);
  json_decref (resp);

  /* A query result exported: the items of WS#acme's projects, newest first. */
  {
    g_autofree char *q = tu_dq ("{'KeyConditionExpression': 'EntityRef = :w AND "
                                "begins_with(Detail, :p)', 'ExpressionAttributeValues': {':w': "
                                "{'S': 'WS#acme'}, ':p': {'S': 'PROJ#'}}, 'ScanIndexForward': "
                                "false}");
    query = json_loads (q, 0, NULL);
  }
  eo.query = query;
  g_assert_true (ddb_snapshot_export (f->engine, dest, &eo, NULL, &error));
  g_assert_no_error (error);
  json_decref (query);
  text = read_text (dest);
  {
    g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), ==, 4);
    g_assert_nonnull (strstr (lines[0], "PROJ#2026-0042"));
    g_assert_nonnull (strstr (lines[2], "PROJ#2026-0040"));
    g_assert_cmpstr (lines[3], ==, "");
  }

  /* A wrong index key type in an item is refused with PutItem's message and the line. */
  {
    g_autofree char *bad = write_text (f, "badgsi.jsonl",
                                       "{\"id\":{\"S\":\"a\"},\"g\":{\"S\":\"x\"}}\n"
                                       "{\"id\":{\"S\":\"b\"},\"g\":{\"N\":\"1\"}}\n");
    const char *g2[] = { "byG:g:S", NULL };
    DdbImportOptions o2 = { .table_name = "gtab", .key = "id:S", .gsis = g2 };

    g_assert_false (ddb_snapshot_import (f->engine, bad, &o2, NULL, &error));
    tu_assert_error (error, DDB_ERROR_VALIDATION,
                     "badgsi.jsonl:2: One or more parameter values were invalid: Type mismatch "
                     "for Index Key g Expected: S Actual: N IndexName: byG");
    g_clear_error (&error);
    g_assert_false (table_exists (f, "gtab"));
  }
}

static void
progress_count (const DdbSnapshotProgress *p, gpointer data)
{
  guint *calls = data;

  (*calls)++;
  g_assert_cmpfloat (p->seconds, >=, 0);
  if (p->done)
    g_assert_cmpuint (p->items, ==, 300);
}

static void
test_progress (Fixture *f, gconstpointer data)
{
  GString *text = g_string_new (NULL);
  g_autofree char *path = NULL;
  guint calls = 0;
  DdbImportOptions opts = {
    .table_name = "prog", .key = "id:N", .progress = progress_count, .progress_data = &calls
  };
  DdbSnapshotProgress out;
  GError *error = NULL;

  for (guint i = 0; i < 300; i++)
    g_string_append_printf (text, "{\"id\":{\"N\":\"%u\"}}\n", i);
  path = write_text (f, "p.jsonl", text->str);
  g_assert_true (ddb_snapshot_import (f->engine, path, &opts, &out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (calls, >=, 2); /* the first tick, and the end */
  g_assert_cmpuint (out.items, ==, 300);
  g_assert_cmpuint (out.bytes, ==, text->len);
  g_assert_cmpuint (out.total_bytes, ==, text->len);
  g_string_free (text, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, fn) \
  g_test_add ("/snapshot/" path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("jsonl-round-trip", test_jsonl_round_trip);
  ADD ("gzip-members", test_gzip_members);
  ADD ("json", test_json);
  ADD ("csv", test_csv);
  ADD ("csv-quoting", test_csv_quoting);
  ADD ("bad-line", test_bad_line);
  ADD ("table-exists", test_table_exists);
  ADD ("cancel", test_cancel);
  ADD ("s3", test_s3);
  ADD ("s3-ion", test_s3_ion);
  ADD ("inference", test_inference);
  ADD ("gsi-and-query-export", test_gsi_and_query_export);
  ADD ("progress", test_progress);
#undef ADD

  return g_test_run ();
}
