/* bench-arrange.c: the worker side of arranging a grid's loaded rows (dy-row-arrange.h, with
 * dy-row-match.h), without a window: the rows are loaded into a DyRows (its spill file, as the
 * app keeps them), then each of these is timed, in milliseconds of wall time and of the thread's
 * CPU time (the figure that a busy machine disturbs least), the best of RUNS runs:
 *   - sorting by a number column ("budget": 38-digit numbers, small decimals, missing in 30 %)
 *     and by a string column ("name");
 *   - grouping into item collections by PK, without and with the sort key SK;
 *   - Find in Loaded Rows of a word ("tenant 12") and of a number ("4242"), rows kept in their
 *     loaded order.
 * The rows are bench-engine's items (the shapes bench-gui's database holds; ~310,000 partition
 * keys in 1M items), written by `bench-engine --input` and read from its DynamoDB JSON lines in
 * that order; or, with --db, read by a Scan of table "bench" of a database bench-gui made
 * (BENCH_GUI_KEEP=1 keeps one), in the order the app's Load All shows them.
 * Usage: bench-arrange [--db PATH] [--runs N] [--only TEXT] [N_ITEMS] (default 1000000 items, 3
 * runs; with --db, all its rows, or about N_ITEMS; --only: the figures whose label holds TEXT, for
 * profiling one). */
#include <glib/gstdio.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/browser/dy-row-arrange.h"
#include "core/malloc-init.h"
#include "engine/engine.h"

#define PAGE_ROWS 1000

static G_NORETURN void
die (const char *what, const GError *error)
{
  fprintf (stderr, "bench-arrange: %s: %s\n", what, error != NULL ? error->message : "failed");
  exit (1);
}

static void
add_page (DyRows *rows, DyRowPage *page, GError *error)
{
  if (page == NULL)
    die ("a page of rows", error);
  if (!dy_rows_add_page (rows, page))
    die ("a page of rows", NULL);
  dy_row_page_free (page);
}

/* Rows from bench-engine's generator (beside this program), N items in its order. */
static void
load_generated (DyRows *rows, const char *self, guint n)
{
  g_autofree char *exe_dir = g_path_get_dirname (self);
  g_autofree char *generator = g_build_filename (exe_dir, "bench-engine", NULL);
  g_autofree char *dir = g_dir_make_tmp ("bench-arrange-XXXXXX", NULL);
  g_autofree char *input = g_build_filename (dir, "items.jsonl", NULL);
  g_autofree char *count = g_strdup_printf ("%u", n);
  const char *argv[] = { generator, "--input", count, input, NULL };
  GError *error = NULL;
  int wait_status;
  FILE *f;
  char *line = NULL;
  size_t cap = 0;
  json_t *page = json_array ();

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL,
                     &wait_status, &error)
      || !g_spawn_check_wait_status (wait_status, &error))
    die (generator, error);
  f = fopen (input, "r");
  if (f == NULL)
    die (input, NULL);
  while (getline (&line, &cap, f) > 0)
    {
      json_error_t json_error;
      json_t *item = json_loads (line, 0, &json_error);

      if (item == NULL)
        die (json_error.text, NULL);
      json_array_append_new (page, item);
      if (json_array_size (page) == PAGE_ROWS)
        {
          add_page (rows, dy_row_page_new (dy_rows_get_store (rows), page, &error), error);
          json_array_clear (page);
        }
    }
  if (json_array_size (page) > 0)
    add_page (rows, dy_row_page_new (dy_rows_get_store (rows), page, &error), error);
  json_decref (page);
  free (line);
  fclose (f);
  g_unlink (input);
  g_rmdir (dir);
}

/* Rows from a Scan of table "bench" of the database PATH, a page at a time, until there are
 * LIMIT of them (about: whole pages). */
static void
load_database (DyRows *rows, const char *path, guint limit)
{
  GError *error = NULL;
  DdbEngine *engine = ddb_engine_open (path, &error);
  json_t *start_key = NULL;

  if (engine == NULL)
    die (path, error);
  do
    {
      json_t *request = json_pack ("{ss}", "TableName", "bench");
      json_t *response = NULL;
      DyRowPageBuilder *builder = dy_row_page_builder_new (dy_rows_get_store (rows), 0);

      if (start_key != NULL)
        json_object_set_new (request, "ExclusiveStartKey", start_key);
      if (!ddb_engine_read (engine, "Scan", request, dy_row_page_builder_take, builder, &response,
                            &error))
        die ("Scan", error);
      add_page (rows, dy_row_page_builder_finish (builder, &error), error);
      start_key = json_incref (json_object_get (response, "LastEvaluatedKey"));
      json_decref (request);
      json_decref (response);
    }
  while (start_key != NULL && g_list_model_get_n_items (G_LIST_MODEL (rows)) < limit);
  json_decref (start_key);
  ddb_engine_free (engine);
}

typedef struct {
  DyRows *rows;
  const char *find;     /* Find's text, or NULL */
  const char *sort;     /* sorting by this attribute, or NULL */
  const char *group_sk; /* grouping: by PK, the items by this sort key (may be NULL) */
  gboolean group;
} Job;

static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs JOB once, as the app's worker would; the rows kept (or collections made). */
static guint
run (const Job *job, guint *collections)
{
  DyRowsSnapshot *snapshot = dy_rows_snapshot (job->rows);
  g_autoptr (DyRowMatch) match = dy_row_match_new (job->find);
  GError *error = NULL;
  guint kept = 0;

  *collections = 0;
  if (job->group)
    {
      GListModel *groups = dy_row_arrange_group (job->rows, snapshot, match, "PK", job->group_sk,
                                                 FALSE, "(no partition key)", &kept, NULL, &error);

      if (groups == NULL)
        die ("grouping", error);
      *collections = g_list_model_get_n_items (groups);
      g_object_unref (groups);
    }
  else
    {
      g_autoptr (GPtrArray) keys
          = g_ptr_array_new_with_free_func ((GDestroyNotify) dy_row_sort_key_free);
      GArray *positions;

      if (job->sort != NULL)
        g_ptr_array_add (keys, dy_row_sort_key_new (job->sort, FALSE));
      positions = dy_row_arrange_sort (snapshot, match, keys, NULL, &error);
      if (positions == NULL)
        die ("sorting", error);
      kept = positions->len;
      g_array_unref (positions);
    }
  dy_rows_snapshot_free (snapshot);
  return kept;
}

static const char *only;

static void
measure (const char *what, const Job *job, guint runs)
{
  double best_wall = G_MAXDOUBLE, best_cpu = G_MAXDOUBLE;
  guint kept = 0, collections = 0;

  if (only != NULL && strstr (what, only) == NULL)
    return;
  for (guint i = 0; i < runs; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double c0 = cpu_ms ();

      kept = run (job, &collections);
      best_cpu = MIN (best_cpu, cpu_ms () - c0);
      best_wall = MIN (best_wall, (g_get_monotonic_time () - t0) / 1e3);
    }
  printf ("%-36s %8.1f ms wall %8.1f ms CPU  (%u rows", what, best_wall, best_cpu, kept);
  if (job->group)
    printf (", %u top-level entries", collections);
  printf (")\n");
}

int
main (int argc, char **argv)
{
  const char *db = NULL;
  guint runs = 3, n = 0;
  g_autofree char *cache = g_dir_make_tmp ("bench-arrange-cache-XXXXXX", NULL);
  g_autofree char *spill_dir = g_build_filename (cache, "dynoscope", NULL);
  g_autoptr (DyRows) rows = NULL;
  gint64 t0;

  ddb_malloc_init ();
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--db") == 0 && i + 1 < argc)
        db = argv[++i];
      else if (strcmp (argv[i], "--runs") == 0 && i + 1 < argc)
        runs = (guint) strtoul (argv[++i], NULL, 10);
      else if (strcmp (argv[i], "--only") == 0 && i + 1 < argc)
        only = argv[++i];
      else
        n = (guint) strtoul (argv[i], NULL, 10);
    }
  runs = MAX (runs, 1);
  /* The spill file goes to a cache folder of its own. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  rows = dy_rows_new ();
  t0 = g_get_monotonic_time ();
  if (db != NULL)
    load_database (rows, db, n > 0 ? n : G_MAXUINT);
  else
    load_generated (rows, argv[0], n > 0 ? n : 1000000);
  printf ("%u rows loaded in %.1f s (%s); best of %u runs each:\n",
          g_list_model_get_n_items (G_LIST_MODEL (rows)), (g_get_monotonic_time () - t0) / 1e6,
          db != NULL ? db : "generated", runs);

  measure ("sort by a number column (budget)", &(Job){ rows, NULL, "budget" }, runs);
  measure ("sort by a string column (name)", &(Job){ rows, NULL, "name" }, runs);
  measure ("group by PK", &(Job){ rows, NULL, NULL, NULL, TRUE }, runs);
  measure ("group by PK, items by SK", &(Job){ rows, NULL, NULL, "SK", TRUE }, runs);
  measure ("find a word (tenant 12)", &(Job){ rows, "tenant 12" }, runs);
  measure ("find a number (4242)", &(Job){ rows, "4242" }, runs);

  g_clear_object (&rows);
  g_rmdir (spill_dir);
  g_rmdir (cache);
  return 0;
}
