/* bench-sql.c: the drift JOIN of the SQL layer (src/sql) over an engine database of a blog
 * (POSTS posts, AUTHORS authors, one table "Blog" with the GSI "ByAuthor"), next to the same JOIN
 * in plain SQLite over native tables holding the same rows (posts and users, each with the
 * primary key (PK, SK) SQLite's plan wants), with their ratio (the goal: within 3x) and the
 * peak RSS of each (VmHWM, reset between them, and ru_maxrss for the SQL layer's).
 *
 * Both databases are built once and kept in the cache folder (--dir, default the build's bench
 * folder), named by their size; a process that built them runs itself again, so that the
 * figures do not carry the build's memory. Each JOIN runs --runs times (default 3): the first
 * and the best time are printed.
 *
 * Usage: bench-sql [--posts N (1000000)] [--authors N (10000)] [--dir DIR] [--runs N]
 *                  [--segments N (the layer's default)] */
#include <errno.h>
#include <glib/gstdio.h>
#include <malloc.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench-util.h"
#include "backend/backend.h"
#include "engine/engine.h"
#include "engine/snapshot.h"
#include "sql/sql.h"

#ifndef BENCH_CACHE_DIR
#define BENCH_CACHE_DIR "."
#endif

#define FORMAT_VERSION 1

static const char *const first_names[] = { "Mara", "Jonas", "Aiko", "Zoe",  "Tomas", "Priya", "Olu",
                                           "Sven", "Leila", "Chen", "Noor", "Bao",   "Ines" };
static const char *const last_names[]
    = { "Vance",    "Okafor", "Lindqvist", "Ferreira", "Nakamura", "Dubois",
        "Kowalski", "Haddad", "Muller",    "Sato",     "Garcia" };

static const char *const native_drift
    = "SELECT p.PK, p.SK, p.authorName, u.name FROM posts p JOIN users u "
      "ON u.PK = p.authorId AND u.SK = 'META' WHERE p.authorName IS NOT u.name";
static const char *const layer_drift
    = "SELECT p.PK, p.SK, p.authorName, u.name FROM Blog p JOIN Blog u "
      "ON u.PK = p.authorId AND u.SK = 'META' WHERE p.authorName IS NOT u.name";

/* ---- The blog: the rules of tests/sqlcli/blogdata.py (ASCII names) ---- */

static void
author_name (char *buf, gsize size, guint a)
{
  g_snprintf (buf, size, "%s %s %u", first_names[a % G_N_ELEMENTS (first_names)],
              last_names[(a * 7) % G_N_ELEMENTS (last_names)], a);
}

static gboolean
author_has_name (guint a)
{
  return a % 500 != 250;
}

static guint
author_of (guint m, guint authors)
{
  return 1 + (guint) (((guint64) m * 7919) % authors);
}

/* Post M's authorId (into ID) and its authorName copy (into COPY, or FALSE when it has none). */
static gboolean
post_copy (guint m, guint authors, char *id, gsize id_size, char *copy, gsize copy_size)
{
  guint a = author_of (m, authors);
  char name[96];

  author_name (name, sizeof name, a);
  g_snprintf (id, id_size, "USER#%u", a);
  if (m % 1499 == 2)
    {
      g_snprintf (id, id_size, "USER#0");
      g_snprintf (copy, copy_size, "Nobody");
      return TRUE;
    }
  if (!author_has_name (a) && m % 3 == 0)
    return FALSE;
  if (m % 389 == 23)
    return FALSE;
  if (m % 97 == 11)
    {
      g_snprintf (copy, copy_size, "%s Oldname %u", first_names[a % G_N_ELEMENTS (first_names)], a);
      return TRUE;
    }
  if (m % 1009 == 500)
    {
      char *up = g_ascii_strup (name, -1);
      g_snprintf (copy, copy_size, "%s", up);
      g_free (up);
      return TRUE;
    }
  if (m % 1201 == 77)
    {
      g_snprintf (copy, copy_size, "%s ", name);
      return TRUE;
    }
  g_snprintf (copy, copy_size, "%s", name);
  return TRUE;
}

static void
created_at (char *buf, gsize size, guint m)
{
  guint64 s = (guint64) m * 3607;
  guint64 day = s / 86400;

  s %= 86400;
  g_snprintf (buf, size, "%04u-%02u-%02uT%02u:%02u:%02uZ", (guint) (2024 + day / 360),
              (guint) ((day % 360) / 30 + 1), (guint) (day % 30 + 1), (guint) (s / 3600),
              (guint) (s / 60 % 60), (guint) (s % 60));
}

/* The drift JOIN's expected rows: their count, and a checksum of their keys that does not
 * depend on their order. */
static void
expected_drift (guint posts, guint authors, guint64 *count, guint64 *checksum)
{
  *count = 0;
  *checksum = 0;
  for (guint m = 1; m <= posts; m++)
    {
      char id[32], copy[128], name[96], pk[32];
      gboolean has_copy = post_copy (m, authors, id, sizeof id, copy, sizeof copy);
      guint a = author_of (m, authors);
      gboolean drift;

      if (strcmp (id, "USER#0") == 0)
        continue;
      author_name (name, sizeof name, a);
      if (!author_has_name (a))
        drift = has_copy;
      else
        drift = !has_copy || strcmp (copy, name) != 0;
      if (drift)
        {
          g_snprintf (pk, sizeof pk, "POST#%u", m);
          *count += 1;
          *checksum += g_str_hash (pk);
        }
    }
}

/* The blog as DynamoDB JSON lines for the import: names and keys are ASCII without quotes or
 * backslashes, so they are written without escapes. */
static void
write_blog_jsonl (FILE *f, guint posts, guint authors)
{
  for (guint a = 1; a <= authors; a++)
    {
      char name[96];

      author_name (name, sizeof name, a);
      fprintf (f,
               "{\"PK\":{\"S\":\"USER#%u\"},\"SK\":{\"S\":\"META\"},"
               "\"email\":{\"S\":\"author%u@example.com\"},\"joined\":{\"N\":\"%u\"}",
               a, a, 2015 + a % 10);
      if (author_has_name (a))
        fprintf (f, ",\"name\":{\"S\":\"%s\"}", name);
      fputs ("}\n", f);
    }
  for (guint m = 1; m <= posts; m++)
    {
      char id[32], copy[128], when[32];
      gboolean has_copy = post_copy (m, authors, id, sizeof id, copy, sizeof copy);

      created_at (when, sizeof when, m);
      fprintf (f,
               "{\"PK\":{\"S\":\"POST#%u\"},\"SK\":{\"S\":\"POST#%u\"},"
               "\"authorId\":{\"S\":\"%s\"},\"createdAt\":{\"S\":\"%s\"},"
               "\"title\":{\"S\":\"Post number %u\"},\"likes\":{\"N\":\"%u\"}",
               m, m, id, when, m, m % 1000);
      if (has_copy)
        fprintf (f, ",\"authorName\":{\"S\":\"%s\"}", copy);
      fputs ("}\n", f);
    }
}

typedef struct {
  guint posts, authors;
} Blog;

static void
write_blog (FILE *f, gpointer data)
{
  const Blog *blog = data;

  write_blog_jsonl (f, blog->posts, blog->authors);
}

static void
build_engine_db (const char *path, const char *dir, guint posts, guint authors)
{
  const char *gsis[] = { "ByAuthor:authorId:S,createdAt:S", NULL };
  DdbImportOptions opts = { .table_name = "Blog", .key = "PK:S,SK:S", .gsis = gsis };
  Blog blog = { posts, authors };
  DdbSnapshotProgress progress;
  gint64 t0 = g_get_monotonic_time ();

  bench_build_engine_db ("bench-sql", path, dir, &opts, write_blog, &blog, &progress);
  printf ("built %s: %u items in %.1f s (import %.0f items/s)\n", path, posts + authors,
          (double) (g_get_monotonic_time () - t0) / 1e6, progress.items_per_second);
}

static void
must_exec (sqlite3 *db, const char *text)
{
  char *message = NULL;

  if (sqlite3_exec (db, text, NULL, NULL, &message) != SQLITE_OK)
    {
      fprintf (stderr, "bench-sql: %s: %s\n", text, message);
      exit (1);
    }
}

static sqlite3_stmt *
must_prepare (sqlite3 *db, const char *text)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, text, -1, &stmt, NULL) != SQLITE_OK)
    {
      fprintf (stderr, "bench-sql: %s: %s\n", text, sqlite3_errmsg (db));
      exit (1);
    }
  return stmt;
}

static void
must_step_done (sqlite3 *db, sqlite3_stmt *stmt)
{
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      fprintf (stderr, "bench-sql: insert: %s\n", sqlite3_errmsg (db));
      exit (1);
    }
  sqlite3_reset (stmt);
}

/* The same rows in native tables: posts (PK, SK, authorId, authorName) and users (PK, SK,
 * name), each keyed by (PK, SK) as DynamoDB keys them: the JOIN looks users up by that key. */
static void
build_native_db (const char *path, guint posts, guint authors)
{
  g_autofree char *tmp = g_strconcat (path, ".tmp", NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *ins_user, *ins_post;
  gint64 t0 = g_get_monotonic_time ();

  g_unlink (tmp);
  if (sqlite3_open (tmp, &db) != SQLITE_OK)
    {
      fprintf (stderr, "bench-sql: %s: %s\n", tmp, sqlite3_errmsg (db));
      exit (1);
    }
  must_exec (db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;"
                 "CREATE TABLE users (PK TEXT NOT NULL, SK TEXT NOT NULL, name TEXT, "
                 "PRIMARY KEY (PK, SK));"
                 "CREATE TABLE posts (PK TEXT NOT NULL, SK TEXT NOT NULL, authorId TEXT, "
                 "authorName TEXT, PRIMARY KEY (PK, SK));");
  ins_user = must_prepare (db, "INSERT INTO users VALUES (?, 'META', ?)");
  ins_post = must_prepare (db, "INSERT INTO posts VALUES (?, ?, ?, ?)");
  for (guint a = 1; a <= authors; a++)
    {
      char pk[32], name[96];

      g_snprintf (pk, sizeof pk, "USER#%u", a);
      author_name (name, sizeof name, a);
      sqlite3_bind_text (ins_user, 1, pk, -1, SQLITE_TRANSIENT);
      if (author_has_name (a))
        sqlite3_bind_text (ins_user, 2, name, -1, SQLITE_TRANSIENT);
      else
        sqlite3_bind_null (ins_user, 2);
      must_step_done (db, ins_user);
    }
  for (guint m = 1; m <= posts; m++)
    {
      char pk[32], id[32], copy[128];
      gboolean has_copy = post_copy (m, authors, id, sizeof id, copy, sizeof copy);

      g_snprintf (pk, sizeof pk, "POST#%u", m);
      sqlite3_bind_text (ins_post, 1, pk, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (ins_post, 2, pk, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (ins_post, 3, id, -1, SQLITE_TRANSIENT);
      if (has_copy)
        sqlite3_bind_text (ins_post, 4, copy, -1, SQLITE_TRANSIENT);
      else
        sqlite3_bind_null (ins_post, 4);
      must_step_done (db, ins_post);
    }
  sqlite3_finalize (ins_user);
  sqlite3_finalize (ins_post);
  must_exec (db, "COMMIT; ANALYZE;");
  sqlite3_close (db);
  if (g_rename (tmp, path) != 0)
    {
      fprintf (stderr, "bench-sql: %s: %s\n", path, g_strerror (errno));
      exit (1);
    }
  printf ("built %s: %u rows in %.1f s\n", path, posts + authors,
          (double) (g_get_monotonic_time () - t0) / 1e6);
}

/* ---- The runs ---- */

typedef struct {
  double first, best; /* seconds */
  guint64 rows, checksum;
} Timing;

static void
timing_add (Timing *t, guint run, double seconds)
{
  if (run == 0)
    t->first = t->best = seconds;
  else if (seconds < t->best)
    t->best = seconds;
}

/* getrusage's ru_maxrss, in MB: the peak of the process's life (Linux keeps it across execve). */
static double
maxrss_mb (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return (double) ru.ru_maxrss / 1024.0; /* kilobytes on Linux */
}

/* The current RSS (VmRSS) in MB, or 0. */
static double
rss_mb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      && (line = strstr (status, "VmRSS:")) != NULL)
    return g_ascii_strtod (line + 6, NULL) / 1024.0;
  return 0;
}

static double
now_s (void)
{
  return (double) g_get_monotonic_time () / 1e6;
}

static void
print_plan (DdbBackend *backend, guint segments)
{
  GError *error = NULL;
  g_autoptr (DdbSql) sql = ddb_sql_new (backend, &error);
  g_autofree char *plan = NULL;
  double rcu = 0;

  if (sql == NULL)
    bench_die ("bench-sql", "ddb_sql_new", error);
  if (segments > 0)
    ddb_sql_set_scan_segments (sql, segments);
  plan = ddb_sql_explain (sql, layer_drift, &rcu, NULL, &error);
  if (plan == NULL)
    bench_die ("bench-sql", "ddb_sql_explain", error);
  printf ("plan (%.0f RCU of Scans):\n%s%s", rcu, plan, g_str_has_suffix (plan, "\n") ? "" : "\n");
}

/* One drift JOIN through the layer (a new connection, sampling included), every cell read as
 * an application would. */
static double
run_layer (DdbBackend *backend, guint segments, Timing *t, DdbSqlStats *stats)
{
  double t0 = now_s ();
  GError *error = NULL;
  g_autoptr (DdbSql) sql = ddb_sql_new (backend, &error);
  g_autoptr (DdbSqlQuery) query = NULL;
  guint64 rows = 0, checksum = 0;

  if (sql == NULL)
    bench_die ("bench-sql", "ddb_sql_new", error);
  if (segments > 0)
    ddb_sql_set_scan_segments (sql, segments);
  query = ddb_sql_query_new (sql, layer_drift, NULL, &error);
  if (query == NULL)
    bench_die ("bench-sql", "ddb_sql_query_new", error);
  while (ddb_sql_query_next (query, &error))
    {
      gsize len;

      for (guint c = 0; c < 4; c++)
        {
          const char *bytes = ddb_sql_query_bytes (query, c, &len);
          (void) bytes;
        }
      rows++;
      {
        const char *pk = ddb_sql_query_bytes (query, 0, &len);
        checksum += g_str_hash (pk);
      }
    }
  if (error != NULL)
    bench_die ("bench-sql", "ddb_sql_query_next", error);
  ddb_sql_query_stats (query, stats);
  t->rows = rows;
  t->checksum = checksum;
  return now_s () - t0;
}

static double
run_native (const char *path, Timing *t)
{
  double t0 = now_s ();
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt;
  guint64 rows = 0, checksum = 0;
  int rc;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      fprintf (stderr, "bench-sql: %s: %s\n", path, sqlite3_errmsg (db));
      exit (1);
    }
  stmt = must_prepare (db, native_drift);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      for (int c = 0; c < 4; c++)
        (void) sqlite3_column_text (stmt, c);
      rows++;
      checksum += g_str_hash ((const char *) sqlite3_column_text (stmt, 0));
    }
  if (rc != SQLITE_DONE)
    {
      fprintf (stderr, "bench-sql: native JOIN: %s\n", sqlite3_errmsg (db));
      exit (1);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  t->rows = rows;
  t->checksum = checksum;
  return now_s () - t0;
}

static guint
parse_count (const char *option, const char *value)
{
  char *end = NULL;
  guint64 v = g_ascii_strtoull (value != NULL ? value : "", &end, 10);

  if (value == NULL || *value == '\0' || *end != '\0' || v == 0 || v > G_MAXUINT32)
    {
      fprintf (stderr, "bench-sql: %s takes a positive number\n", option);
      exit (2);
    }
  return (guint) v;
}

int
main (int argc, char **argv)
{
  guint posts = 1000000, authors = 10000, runs = 3, segments = 0;
  const char *dir = BENCH_CACHE_DIR;
  gboolean rerun = FALSE;
  g_autofree char *engine_path = NULL;
  g_autofree char *native_path = NULL;
  gboolean built = FALSE;
  guint64 want_rows, want_checksum;
  Timing layer = { 0 }, native = { 0 };
  DdbSqlStats stats = { 0 };
  GError *error = NULL;
  DdbBackend *backend;
  double rss_start, rss_layer, maxrss_layer, rss_left, rss_native;

  for (int i = 1; i < argc; i++)
    {
      const char *value = i + 1 < argc ? argv[i + 1] : NULL;

      if (strcmp (argv[i], "--posts") == 0)
        posts = parse_count (argv[i], value), i++;
      else if (strcmp (argv[i], "--authors") == 0)
        authors = parse_count (argv[i], value), i++;
      else if (strcmp (argv[i], "--runs") == 0)
        runs = parse_count (argv[i], value), i++;
      else if (strcmp (argv[i], "--segments") == 0)
        segments = parse_count (argv[i], value), i++;
      else if (strcmp (argv[i], "--dir") == 0 && value != NULL)
        dir = value, i++;
      else if (strcmp (argv[i], "--rerun") == 0)
        rerun = TRUE;
      else
        {
          fprintf (stderr, "Usage: bench-sql [--posts N] [--authors N] [--dir DIR] [--runs N] "
                           "[--segments N]\n");
          return 2;
        }
    }

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      fprintf (stderr, "bench-sql: %s: %s\n", dir, g_strerror (errno));
      return 1;
    }
  {
    g_autofree char *base = g_strdup_printf ("bench-sql-v%d-%u-%u", FORMAT_VERSION, posts, authors);
    g_autofree char *e = g_strconcat (base, ".db", NULL);
    g_autofree char *n = g_strconcat (base, "-native.db", NULL);

    engine_path = g_build_filename (dir, e, NULL);
    native_path = g_build_filename (dir, n, NULL);
  }
  if (!g_file_test (engine_path, G_FILE_TEST_EXISTS))
    {
      build_engine_db (engine_path, dir, posts, authors);
      built = TRUE;
    }
  if (!g_file_test (native_path, G_FILE_TEST_EXISTS))
    {
      build_native_db (native_path, posts, authors);
      built = TRUE;
    }
  if (built && !rerun)
    {
      /* Start again without the build's memory, for a peak RSS of the JOINs only. */
      GPtrArray *args = g_ptr_array_new ();

      for (int i = 0; i < argc; i++)
        g_ptr_array_add (args, argv[i]);
      g_ptr_array_add (args, (char *) "--rerun");
      g_ptr_array_add (args, NULL);
      fflush (stdout);
      execv ("/proc/self/exe", (char **) args->pdata);
      fprintf (stderr,
               "bench-sql: could not run itself again (%s): the peak RSS includes "
               "the build\n",
               g_strerror (errno));
      g_ptr_array_free (args, TRUE);
    }

  expected_drift (posts, authors, &want_rows, &want_checksum);
  printf ("blog: %u posts, %u authors, %" G_GUINT64_FORMAT " drifted copies; cache %s\n", posts,
          authors, want_rows, dir);
  rss_start = bench_peak_rss_mb ();

  backend = ddb_backend_open_database (engine_path, &error);
  if (backend == NULL)
    bench_die ("bench-sql", engine_path, error);
  print_plan (backend, segments);
  for (guint r = 0; r < runs; r++)
    {
      timing_add (&layer, r, run_layer (backend, segments, &layer, &stats));
      if (layer.rows != want_rows || layer.checksum != want_checksum)
        {
          fprintf (stderr,
                   "bench-sql: the SQL layer's JOIN gave %" G_GUINT64_FORMAT " rows "
                   "(checksum %" G_GUINT64_FORMAT "), expected %" G_GUINT64_FORMAT
                   " (%" G_GUINT64_FORMAT ")\n",
                   layer.rows, layer.checksum, want_rows, want_checksum);
          return 1;
        }
    }
  rss_layer = bench_peak_rss_mb ();
  maxrss_layer = maxrss_mb ();
  ddb_backend_free (backend);
  malloc_trim (0);
  rss_left = rss_mb ();
  bench_reset_peak_rss ();

  for (guint r = 0; r < runs; r++)
    {
      timing_add (&native, r, run_native (native_path, &native));
      if (native.rows != want_rows || native.checksum != want_checksum)
        {
          fprintf (stderr,
                   "bench-sql: the native JOIN gave %" G_GUINT64_FORMAT " rows, "
                   "expected %" G_GUINT64_FORMAT "\n",
                   native.rows, want_rows);
          return 1;
        }
    }
  rss_native = bench_peak_rss_mb ();

  printf ("SQL layer (engine backend): %.3f s best, %.3f s first, %" G_GUINT64_FORMAT
          " rows; requests=%" G_GUINT64_FORMAT " pages=%" G_GUINT64_FORMAT
          " items_read=%" G_GUINT64_FORMAT " rcu=%.1f\n",
          layer.best, layer.first, layer.rows, stats.requests, stats.pages, stats.items_read,
          stats.rcu);
  printf ("plain SQLite (native tables, PRIMARY KEY (PK, SK)): %.3f s best, %.3f s first, "
          "%" G_GUINT64_FORMAT " rows\n",
          native.best, native.first, native.rows);
  printf ("ratio: %.2fx (goal <= 3x)%s\n", layer.best / native.best,
          layer.best / native.best <= 3.0 ? "" : "  ** above the goal **");
  printf ("peak RSS: %.1f MB before the runs; SQL layer %.1f MB (VmHWM; ru_maxrss %.1f MB), "
          "%.1f MB still resident once it is freed and trimmed; native %.1f MB (VmHWM from "
          "there)\n",
          rss_start, rss_layer, maxrss_layer, rss_left, rss_native);
  return 0;
}
