/* fuzz-snapshot.c: libFuzzer target for snapshot import (engine/snapshot.h), as
 * `dynoscope-cli --db X import` reads a source: the S3 export layout from a folder or from a
 * bucket (src/exports' store over a fake S3 that holds the input's objects), with an
 * incremental export on top, DynamoDB JSON lines, plain JSON and CSV; each imported into an
 * in-memory database (opened once, its table dropped after each input), its files written into
 * a temporary folder made once (under /dev/shm when there is one).
 *
 * The input: its first byte chooses
 *   bits 0-2  the source: 0 an S3 export's folder, 1 a folder holding it under
 *             AWSDynamoDB/<id>/, 2 the export in a bucket (read as ddb_s3_import reads it),
 *             3 a .jsonl file, 4 a .json file, 5 a .csv file, 6 a folder and an incremental
 *             export's folder, 7 the same in a bucket;
 *   bit 3     data files gzip-compressed (here, before they are written);
 *   bits 4-5  --key: none (recorded or inferred), "pk:S", "PK:S,SK:S", "Id:N";
 *   bit 6     --gsi "ByCategory:ProductCategory:S";
 *   bit 7     the source also read through the item stream (DdbSnapshotReader, as an import to
 *             an endpoint reads it), reading on past every bad item it can.
 * The rest is the file (sources 3-5), or the export's parts separated by "\n--8<--\n":
 * manifest-summary.json, manifest-files.json, data/0, data/1, and for sources 6-7 the
 * incremental export's four after them. In manifest-files.json, "@MD5@", "@ETAG@" and
 * "@ETAG1@" on line N stand for data/N's md5Checksum, its etag and its one-part multipart etag
 * (as stored), so that checksums can match. Data keys: PREFIX/AWSDynamoDB/<id>/data/N.
 *
 * Findings: crashes, leaks, undefined behaviour, hangs; a failure whose error is not a worded
 * (UTF-8) DDB_ERROR (not InternalServerError), G_IO_ERROR or S3 error, or leaves a table
 * behind; an item error of the item stream without "FILE:LINE: ", or an item stream that
 * differs from an import that succeeded; and an import that succeeds with another number of
 * items (or changes) than its data holds, as gzip -d and an independent count
 * (fuzz-snapshot-count.c, fuzz-snapshot-private.h) read it: one per non-blank line (DynamoDB
 * JSON lines, plain JSON lines, the S3 layout's DynamoDB JSON), one per array element, one per
 * CSV record after the header, one per Ion record as core/ion.h's reader reads the whole text;
 * for a file, and for a bucket summed over the data files the import planned to read.
 * FUZZ_SNAPSHOT_VERBOSE=1 prints each import's outcome. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <jansson.h>
#include <zlib.h>

#include "core/error.h"
#include "engine/engine.h"
#include "engine/snapshot.h"
#include "exports/s3-store.h"
#include "fuzz-gslice.h"
#include "fuzz-snapshot-private.h"
#include "net/s3.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define SEPARATOR "\n--8<--\n"
#define N_DATA 2  /* data files per export */
#define N_PARTS 4 /* summary, files, data/0, data/1 */
#define PREFIX "exports/"
#define BUCKET "fuzz-bucket"
#define TABLE "Snapshot"

enum {
  SRC_FOLDER,
  SRC_NESTED,
  SRC_BUCKET,
  SRC_JSONL,
  SRC_JSON,
  SRC_CSV,
  SRC_FOLDER_INC,
  SRC_BUCKET_INC,
};

/* The full export's id and the incremental one's. */
static const char *const export_ids[2] = { "01604474914028-9d2a5e0f", "01604475000000-1a2b3c4d" };
static const char *const keys[] = { NULL, "pk:S", "PK:S,SK:S", "Id:N" };
static const char *const gsi[] = { "ByCategory:ProductCategory:S", NULL };

/* The temporary folder, made once: exp/AWSDynamoDB/<id>/data/ for both ids. */
static char *root;
static gboolean verbose;
/* The database, opened once (an open costs milliseconds): empty between inputs. */
static DdbEngine *engine;

/* One export's parts as stored (data files compressed when asked). */
typedef struct {
  GBytes *part[N_PARTS]; /* NULL: absent */
  gboolean ion;          /* its summary says outputFormat ION */
} Export;

static void
export_clear (Export *e)
{
  for (guint i = 0; i < N_PARTS; i++)
    g_clear_pointer (&e->part[i], g_bytes_unref);
}

/* The temporary folder removed at exit (its files are removed after each input). */
static void
remove_root (void)
{
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *dir = g_build_filename (root, "exp", "AWSDynamoDB", export_ids[i], NULL);
      g_autofree char *data = g_build_filename (dir, "data", NULL);

      g_rmdir (data);
      g_rmdir (dir);
    }
  {
    g_autofree char *aws = g_build_filename (root, "exp", "AWSDynamoDB", NULL);
    g_autofree char *exp = g_build_filename (root, "exp", NULL);

    g_rmdir (aws);
    g_rmdir (exp);
    g_rmdir (root);
  }
}

static void
make_root (void)
{
  const char *shm = g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir ();
  g_autofree char *tmpl = g_build_filename (shm, "fuzz-snapshot-XXXXXX", NULL);

  root = g_mkdtemp (g_steal_pointer (&tmpl));
  if (root == NULL)
    abort ();
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *d
          = g_build_filename (root, "exp", "AWSDynamoDB", export_ids[i], "data", NULL);

      if (g_mkdir_with_parents (d, 0700) != 0)
        abort ();
    }
  atexit (remove_root);
}

/* ---- gzip and checksums ---- */

static GBytes *
gzip_bytes (GBytes *in)
{
  gsize len;
  const guint8 *src = g_bytes_get_data (in, &len);
  z_stream z = { 0 };
  gsize cap = len + len / 100 + 64;
  guint8 *out = g_malloc (cap);

  if (deflateInit2 (&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    abort ();
  z.next_in = (Bytef *) src;
  z.avail_in = (uInt) len;
  z.next_out = out;
  z.avail_out = (uInt) cap;
  if (deflate (&z, Z_FINISH) != Z_STREAM_END)
    abort ();
  len = z.total_out;
  deflateEnd (&z);
  return g_bytes_new_take (out, len);
}

static void
md5_of (GBytes *b, guint8 digest[16])
{
  gsize len, dlen = 16;
  const guint8 *p = g_bytes_get_data (b, &len);
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);

  g_checksum_update (sum, p, (gssize) len);
  g_checksum_get_digest (sum, digest, &dlen);
}

static char *
hex (const guint8 d[16])
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < 16; i++)
    g_string_append_printf (s, "%02x", d[i]);
  return g_string_free (s, FALSE);
}

static void
replace_all (GString *s, gsize from, gsize to, const char *what, const char *with, gsize *end)
{
  gsize wlen = strlen (what), rlen = strlen (with);

  for (gsize i = from; i + wlen <= to;)
    {
      if (memcmp (s->str + i, what, wlen) == 0)
        {
          g_string_erase (s, (gssize) i, (gssize) wlen);
          g_string_insert_len (s, (gssize) i, with, (gssize) rlen);
          to = to - wlen + rlen;
          i += rlen;
        }
      else
        i++;
    }
  *end = to;
}

/* manifest-files.json with the placeholders of line N filled from data/N. */
static GBytes *
fill_checksums (GBytes *files, Export *e)
{
  gsize len;
  const char *p = g_bytes_get_data (files, &len);
  GString *s;
  gsize start = 0;

  if (len == 0 || memchr (p, '@', len) == NULL)
    return g_bytes_ref (files);
  s = g_string_new_len (p, (gssize) len);
  for (guint line = 0; start <= s->len; line++)
    {
      const char *nl = memchr (s->str + start, '\n', s->len - start);
      gsize end = nl != NULL ? (gsize) (nl - s->str) : s->len;

      if (line < N_DATA && e->part[2 + line] != NULL)
        {
          guint8 d[16], d2[16];
          gsize dlen = 16;
          g_autofree char *b64 = NULL, *h = NULL, *h1 = NULL, *h1dash = NULL;
          g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);

          md5_of (e->part[2 + line], d);
          b64 = g_base64_encode (d, 16);
          h = hex (d);
          g_checksum_update (sum, d, 16);
          g_checksum_get_digest (sum, d2, &dlen);
          h1 = hex (d2);
          h1dash = g_strconcat (h1, "-1", NULL);
          replace_all (s, start, end, "@MD5@", b64, &end);
          replace_all (s, start, end, "@ETAG1@", h1dash, &end);
          replace_all (s, start, end, "@ETAG@", h, &end);
        }
      if (nl == NULL)
        break;
      start = end + 1;
    }
  len = s->len;
  return g_bytes_new_take (g_string_free (s, FALSE), len);
}

static const char *
find (const char *p, gsize len, const char *what, gsize wlen)
{
  for (gsize i = 0; i + wlen <= len; i++)
    if (p[i] == what[0] && memcmp (p + i, what, wlen) == 0)
      return p + i;
  return NULL;
}

/* Splits P (LEN bytes) at the separator into up to MAX parts; absent parts stay NULL. */
static guint
split_parts (const char *p, gsize len, GBytes **parts, guint max)
{
  const gsize slen = strlen (SEPARATOR);
  guint n = 0;

  while (n < max)
    {
      const char *sep = find (p, len, SEPARATOR, slen);
      gsize plen = sep != NULL ? (gsize) (sep - p) : len;

      parts[n++] = g_bytes_new (p, plen);
      if (sep == NULL)
        break;
      p = sep + slen;
      len -= plen + slen;
    }
  return n;
}

static gboolean
summary_says_ion (GBytes *summary)
{
  gsize len;
  const char *p = summary != NULL ? g_bytes_get_data (summary, &len) : NULL;
  json_t *j = p != NULL ? json_loadb (p, len, 0, NULL) : NULL;
  const char *f = json_string_value (json_object_get (j, "outputFormat"));
  gboolean ion = f != NULL && strcmp (f, "ION") == 0;

  json_decref (j);
  return ion;
}

/* An export from its parts: data files compressed when asked, checksums filled in. */
static void
export_build (Export *e, GBytes **parts, gboolean gz)
{
  for (guint i = 0; i < N_PARTS; i++)
    {
      if (parts[i] == NULL)
        continue;
      if (i >= 2)
        e->part[i] = gz ? gzip_bytes (parts[i]) : g_bytes_ref (parts[i]);
    }
  e->part[0] = parts[0] != NULL ? g_bytes_ref (parts[0]) : NULL;
  e->part[1] = parts[1] != NULL ? fill_checksums (parts[1], e) : NULL;
  e->ion = summary_says_ion (e->part[0]);
}

/* ---- Writing files ---- */

static const char *const part_names[N_PARTS]
    = { "manifest-summary.json", "manifest-files.json", "data/0", "data/1" };

static char *
export_dir (guint which)
{
  return g_build_filename (root, "exp", "AWSDynamoDB", export_ids[which], NULL);
}

static void
write_file (const char *path, GBytes *b)
{
  gsize len;
  const char *p = g_bytes_get_data (b, &len);

  if (!g_file_set_contents (path, p != NULL ? p : "", (gssize) len, NULL))
    abort ();
}

static void
export_write (const Export *e, guint which)
{
  g_autofree char *dir = export_dir (which);

  for (guint i = 0; i < N_PARTS; i++)
    if (e->part[i] != NULL)
      {
        g_autofree char *path = g_build_filename (dir, part_names[i], NULL);
        write_file (path, e->part[i]);
      }
}

static void
export_unlink (guint which)
{
  g_autofree char *dir = export_dir (which);

  for (guint i = 0; i < N_PARTS; i++)
    {
      g_autofree char *path = g_build_filename (dir, part_names[i], NULL);
      g_unlink (path);
    }
}

/* ---- The bucket: a fake S3 holding the exports' objects ---- */

typedef struct {
  GHashTable *objects; /* key -> GBytes as stored */
  GHashTable *ion;     /* key -> non-NULL when its export is in Ion */
  /* The data files the import plans to read, in order (the wrapper's plan). */
  GPtrArray *planned;
  const DdbSnapshotStore *inner;
  DdbSnapshotStore outer;
} Bucket;

static char *
object_key (guint which, const char *name)
{
  return g_strconcat (PREFIX "AWSDynamoDB/", export_ids[which], "/", name, NULL);
}

static gboolean
bucket_fetch (const char *key, DdbS3SinkFunc sink, gpointer sink_data, GCancellable *cancellable,
              GError **error, gpointer data)
{
  Bucket *b = data;
  GBytes *obj = g_hash_table_lookup (b->objects, key);
  const guint8 *p;
  gsize len, off = 0;
  static const gsize pieces[] = { 1, 7, 100, 4096, 3 };
  guint k = 0;

  if (obj == NULL)
    {
      g_set_error (error, DDB_S3_ERROR, DDB_S3_ERROR_NO_SUCH_KEY,
                   "NoSuchKey: The specified key does not exist. (s3://" BUCKET "/%s)", key);
      return FALSE;
    }
  p = g_bytes_get_data (obj, &len);
  /* In pieces of several sizes, as a body comes from the network. */
  while (off < len)
    {
      gsize piece = pieces[k++ % G_N_ELEMENTS (pieces)];
      gsize n = MIN (piece, len - off);

      if (g_cancellable_set_error_if_cancelled (cancellable, error)
          || !sink (p + off, n, sink_data, error))
        return FALSE;
      off += n;
    }
  return TRUE;
}

static GBytes *
outer_get (const char *key, gpointer data, GCancellable *cancellable, GError **error)
{
  Bucket *b = data;

  return b->inner->get (key, b->inner->data, cancellable, error);
}

static GInputStream *
outer_open (const char *key, gpointer data, GCancellable *cancellable, GError **error)
{
  Bucket *b = data;

  return b->inner->open (key, b->inner->data, cancellable, error);
}

static guint64
outer_plan (const char *const *planned, guint n, gpointer data)
{
  Bucket *b = data;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (b->planned, g_strdup (planned[i]));
  return b->inner->plan (planned, n, b->inner->data);
}

static void
bucket_add (Bucket *b, const Export *e, guint which)
{
  for (guint i = 0; i < N_PARTS; i++)
    if (e->part[i] != NULL)
      {
        char *key = object_key (which, part_names[i]);

        g_hash_table_replace (b->objects, g_strdup (key), g_bytes_ref (e->part[i]));
        if (e->ion)
          g_hash_table_replace (b->ion, g_strdup (key), GINT_TO_POINTER (1));
        g_free (key);
      }
}

static void
bucket_init (Bucket *b)
{
  memset (b, 0, sizeof *b);
  b->objects
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
  b->ion = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b->planned = g_ptr_array_new_with_free_func (g_free);
}

static void
bucket_clear (Bucket *b)
{
  g_hash_table_unref (b->objects);
  g_hash_table_unref (b->ion);
  g_ptr_array_unref (b->planned);
}

/* A store over the bucket (src/exports' store, one download thread), its plan recorded. */
static DdbS3Store *
bucket_store (Bucket *b)
{
  DdbS3StoreBackend backend = { bucket_fetch, NULL, b };
  DdbS3Store *store = ddb_s3_store_new (&backend, 1, 0, NULL);

  b->inner = ddb_s3_store_get (store);
  b->outer.get = outer_get;
  b->outer.open = outer_open;
  b->outer.plan = outer_plan;
  b->outer.data = b;
  g_ptr_array_set_size (b->planned, 0);
  return store;
}

/* ---- Checks ---- */

G_NORETURN void
fsn_fail (const char *what, const GError *error)
{
  fprintf (stderr, "fuzz-snapshot: %s%s%s\n", what, error != NULL ? ": " : "",
           error != NULL ? error->message : "");
  abort ();
}

/* A clean failure: a worded error of a known domain, never InternalServerError. */
static void
check_error (const GError *error)
{
  if (error == NULL)
    fsn_fail ("a failure without an error", NULL);
  if (error->message == NULL || error->message[0] == '\0'
      || !g_utf8_validate (error->message, -1, NULL))
    fsn_fail ("an error without a (UTF-8) message", NULL);
  if (error->domain == DDB_ERROR)
    {
      if (error->code == DDB_ERROR_INTERNAL)
        fsn_fail ("InternalServerError", error);
    }
  else if (error->domain != G_IO_ERROR && error->domain != DDB_S3_ERROR)
    fsn_fail ("an error of another domain", error);
}

/* "FILE:LINE: " in the message of an item's error (the file's name may hold colons). */
static void
check_item_error (const GError *error)
{
  for (const char *p = strchr (error->message, ':'); p != NULL; p = strchr (p + 1, ':'))
    {
      const char *q = p + 1;

      if (!g_ascii_isdigit (*q))
        continue;
      while (g_ascii_isdigit (*q))
        q++;
      if (q[0] == ':' && q[1] == ' ')
        return;
    }
  fsn_fail ("an item's error without FILE:LINE", error);
}

static gboolean
table_exists (void)
{
  json_t *req = json_object (), *resp = NULL;
  GError *error = NULL;
  gboolean exists;

  if (!ddb_engine_call (engine, "ListTables", req, &resp, &error))
    fsn_fail ("ListTables", error);
  exists = json_array_size (json_object_get (resp, "TableNames")) > 0;
  json_decref (resp);
  json_decref (req);
  return exists;
}

static void
drop_table (void)
{
  json_t *req = json_pack ("{ss}", "TableName", TABLE), *resp = NULL;
  GError *error = NULL;

  if (!ddb_engine_call (engine, "DeleteTable", req, &resp, &error))
    fsn_fail ("DeleteTable", error);
  json_decref (resp);
  json_decref (req);
  if (table_exists ())
    fsn_fail ("DeleteTable left the table", NULL);
}

static void
on_progress (const DdbSnapshotProgress *progress, gpointer user_data)
{
  (*(guint *) user_data)++;
}

/* Reads SOURCE through the item stream, reading on past each bad item it can; *ITEMS gets the
 * items read, and TRUE when no error came. */
static gboolean
read_stream (const char *source, const DdbImportOptions *opts, guint64 *items)
{
  DdbSnapshotReader *r;
  GError *error = NULL;
  gboolean clean = TRUE;
  guint64 rounds = 0;

  *items = 0;
  r = ddb_snapshot_reader_open (source, opts, &error);
  if (r == NULL)
    {
      check_error (error);
      g_error_free (error);
      return FALSE;
    }
  for (;;)
    {
      DdbValue *item = ddb_snapshot_reader_next (r, &error);

      if (++rounds > 10000000)
        fsn_fail ("the item stream does not end", NULL);
      if (item != NULL)
        {
          g_autoptr (GBytes) key = ddb_snapshot_reader_item_key (r, item);

          /* A checked item holds its key. */
          if (g_bytes_get_size (key) == 0)
            fsn_fail ("an item without its key", NULL);
          (*items)++;
          ddb_value_free (item);
          continue;
        }
      if (error == NULL)
        break;
      check_error (error);
      clean = FALSE;
      if (!ddb_snapshot_reader_skip_refused (r))
        {
          g_clear_error (&error);
          break;
        }
      check_item_error (error);
      g_clear_error (&error);
    }
  ddb_snapshot_reader_free (r);
  return clean;
}

/* What the data files of a bucket import hold, summed over the files it planned to read. */
static guint64
expected_from_plan (Bucket *b)
{
  guint64 want = 0;

  for (guint i = 0; i < b->planned->len; i++)
    {
      const char *key = g_ptr_array_index (b->planned, i);
      GBytes *stored = g_hash_table_lookup (b->objects, key);

      if (stored == NULL)
        fsn_fail ("an import read a data file that is not there", NULL);
      want += fsn_count_items (stored,
                               g_hash_table_contains (b->ion, key) ? HOLDS_ION : HOLDS_LINES);
    }
  return want;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GBytes *parts[2 * N_PARTS] = { 0 };
  Export exports[2] = { 0 };
  Bucket bucket;
  DdbS3Store *store = NULL;
  DdbImportOptions opts = { 0 };
  DdbSnapshotProgress out = { 0 };
  GError *error = NULL;
  g_autofree char *source = NULL;
  g_autofree char *inc_source = NULL;
  g_autofree char *file = NULL;
  GBytes *whole = NULL;
  const char *incs[2] = { NULL, NULL };
  guint source_kind, progress_calls = 0;
  gboolean gz, also_stream, ok, counted = FALSE, bucket_used = FALSE;
  guint64 want = 0, stream_items = 0;
  gboolean stream_clean = FALSE;

  if (size < 1)
    return 0;
  if (root == NULL)
    {
      make_root ();
      verbose = g_getenv ("FUZZ_SNAPSHOT_VERBOSE") != NULL;
      engine = ddb_engine_open (":memory:", &error);
      if (engine == NULL)
        fsn_fail ("ddb_engine_open", error);
    }
  source_kind = data[0] & 7;
  gz = (data[0] & 8) != 0;
  also_stream = (data[0] & 128) != 0;
  opts.table_name = TABLE;
  opts.key = keys[(data[0] >> 4) & 3];
  opts.gsis = (data[0] & 64) != 0 ? gsi : NULL;
  opts.progress = on_progress;
  opts.progress_data = &progress_calls;
  bucket_init (&bucket);

  switch (source_kind)
    {
    case SRC_JSONL:
    case SRC_JSON:
      case SRC_CSV: {
        static const char *const names[] = { "snapshot.jsonl", "snapshot.json", "snapshot.csv" };
        g_autofree char *name = g_strconcat (names[source_kind - SRC_JSONL], gz ? ".gz" : "", NULL);
        g_autoptr (GBytes) plain = g_bytes_new (data + 1, size - 1);

        whole = gz ? gzip_bytes (plain) : g_bytes_ref (plain);
        file = g_build_filename (root, name, NULL);
        write_file (file, whole);
        source = g_strdup (file);
        break;
      }
      default: {
        gboolean inc = source_kind == SRC_FOLDER_INC || source_kind == SRC_BUCKET_INC;
        gboolean in_bucket = source_kind == SRC_BUCKET || source_kind == SRC_BUCKET_INC;

        split_parts ((const char *) data + 1, size - 1, parts, inc ? 2 * N_PARTS : N_PARTS);
        export_build (&exports[0], parts, gz);
        if (inc)
          export_build (&exports[1], parts + N_PARTS, gz);
        if (in_bucket)
          {
            bucket_add (&bucket, &exports[0], 0);
            source = object_key (0, "manifest-summary.json");
            if (inc)
              {
                bucket_add (&bucket, &exports[1], 1);
                inc_source = object_key (1, "manifest-summary.json");
              }
            store = bucket_store (&bucket);
            bucket_used = TRUE;
            opts.store = &bucket.outer;
            /* As ddb_s3_import records it. */
            opts.base_source = "s3://" BUCKET "/" PREFIX "AWSDynamoDB/";
            opts.base_format = "s3";
          }
        else
          {
            export_write (&exports[0], 0);
            source
                = source_kind == SRC_NESTED ? g_build_filename (root, "exp", NULL) : export_dir (0);
            if (inc)
              {
                export_write (&exports[1], 1);
                inc_source = export_dir (1);
              }
          }
        if (inc)
          {
            incs[0] = inc_source;
            opts.incrementals = incs;
          }
        break;
      }
    }

  ok = ddb_snapshot_import (engine, source, &opts, &out, &error);
  if (verbose)
    fprintf (stderr, "fuzz-snapshot: source %u: %s, %" G_GUINT64_FORMAT " items\n", source_kind,
             ok ? "imported" : error->message, out.items);
  if (!ok)
    {
      check_error (error);
      g_clear_error (&error);
      if (table_exists ())
        fsn_fail ("a failed import left its table", NULL);
    }
  else
    {
      if (error != NULL)
        fsn_fail ("a success with an error", error);
      if (!table_exists ())
        fsn_fail ("an import succeeded without its table", NULL);
      if (progress_calls == 0 || !out.done)
        fsn_fail ("no final progress report", NULL);
      /* The number of items is what the data holds. */
      if (whole != NULL)
        {
          want = fsn_count_items (whole, source_kind == SRC_JSONL  ? HOLDS_LINES
                                         : source_kind == SRC_JSON ? HOLDS_JSON
                                                                   : HOLDS_CSV);
          counted = TRUE;
        }
      else if (bucket_used && (incs[0] == NULL || exports[0].ion == exports[1].ion))
        {
          want = expected_from_plan (&bucket);
          counted = TRUE;
        }
      if (counted && out.items != want)
        {
          fprintf (stderr,
                   "fuzz-snapshot: imported %" G_GUINT64_FORMAT
                   " items, the data holds %" G_GUINT64_FORMAT "\n",
                   out.items, want);
          abort ();
        }
    }
  if (ok)
    drop_table ();
  if (store != NULL)
    ddb_s3_store_free (store);

  if (also_stream)
    {
      if (bucket_used)
        store = bucket_store (&bucket);
      stream_clean = read_stream (source, &opts, &stream_items);
      if (store != NULL)
        ddb_s3_store_free (store);
      /* An import that succeeded reads through without an error, the same items (the
       * incremental exports are the import's alone). */
      if (ok && incs[0] == NULL && (!stream_clean || stream_items != out.items))
        fsn_fail ("the item stream differs from the import", NULL);
    }

  if (file != NULL)
    g_unlink (file);
  export_unlink (0);
  export_unlink (1);
  export_clear (&exports[0]);
  export_clear (&exports[1]);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i] != NULL)
      g_bytes_unref (parts[i]);
  if (whole != NULL)
    g_bytes_unref (whole);
  bucket_clear (&bucket);
  return 0;
}
