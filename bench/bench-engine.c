/* bench-engine.c: figures for the embedded engine: a snapshot import of N items (DynamoDB JSON
 * lines generated in the seeds' shapes) into a file database, in items/s and seconds, with the
 * database file's size against the input's; then in-process GetItem, PutItem, Query (100 items)
 * and Scan (1 MB page) in µs per call through ddb_engine_call. Prints one line per figure.
 * Usage: bench-engine [N_ITEMS] (default 1000000). Everything lives in a temporary folder that is
 * removed at the end. `bench-engine --input N FILE` only writes the input, for profiling an import
 * through the command line (dynoscope-cli --db DB import --table bench --key PK:S,SK:S FILE). */
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/malloc-init.h"
#include "engine/engine.h"
#include "engine/snapshot.h"

#define HOT_SHARDS 10

/* The seeds' shapes, one table with an overloaded key (PK, SK):
 *   - workspaces "WS#tNNNNN" with a META item and zero-padded, time-ordered PROJ#NNNNNNNN
 *     projects holding a 38-digit number, a string set, a number set and a nested map;
 *   - posts "POST#xxxxxxxx" with the author's name copied on every post (denormalized), a list
 *     of tags and a nested author map;
 *   - one hot tenant "acme" spread over sharded keys WS#acme#01..#10.
 * Item i is deterministic, so GetItem keys can be rebuilt from i. */
static void
append_item (GString *out, guint i)
{
  guint kind = i % 10;

  if (kind < 4)
    {
      /* The hot tenant, 40% of the items. */
      g_string_append_printf (
          out,
          "{\"PK\":{\"S\":\"WS#acme#%02u\"},\"SK\":{\"S\":\"PROJ#%08u\"},"
          "\"name\":{\"S\":\"Acme project %u\"},\"status\":{\"S\":\"%s\"},"
          "\"budget\":{\"N\":\"%u.%02u\"},\"owners\":{\"SS\":[\"U#%u\",\"U#%u\"]},"
          "\"settings\":{\"M\":{\"region\":{\"S\":\"eu-west-1\"},\"tier\":{\"N\":\"%u\"}}}}\n",
          (i / 10) % HOT_SHARDS + 1, i, i, (i % 3) ? "active" : "done", (i * 7919u) % 1000000,
          i % 100, i % 97, i % 89 + 100, i % 4);
    }
  else if (kind < 7)
    {
      guint ws = i / 100;

      if (i % 100 == 4)
        g_string_append_printf (out,
                                "{\"PK\":{\"S\":\"WS#t%05u\"},\"SK\":{\"S\":\"META\"},"
                                "\"name\":{\"S\":\"Tenant %u\"},\"plan\":{\"S\":\"team\"},"
                                "\"seats\":{\"N\":\"%u\"},\"createdAt\":{\"S\":"
                                "\"2025-06-12T14:30:00Z\"}}\n",
                                ws, ws, i % 500 + 1);
      else
        g_string_append_printf (
            out,
            "{\"PK\":{\"S\":\"WS#t%05u\"},\"SK\":{\"S\":\"PROJ#%08u\"},"
            "\"name\":{\"S\":\"Project %u of tenant %u\"},\"status\":{\"S\":\"active\"},"
            "\"budget\":{\"N\":\"12345678901234567890123456789012345%03u\"},"
            "\"tags\":{\"SS\":[\"billing\",\"q%u\"]},\"scores\":{\"NS\":[\"1\",\"2.5\",\"-%u.125\"]"
            "},"
            "\"meta\":{\"M\":{\"created\":{\"N\":\"17%08u\"},\"flags\":{\"L\":[{\"BOOL\":true},"
            "{\"NULL\":true}]}}}}\n",
            ws, i, i, ws, i % 1000, i % 4 + 1, i % 50, i);
    }
  else
    {
      static const char *const authors[] = { "Mara Vance", "Lio Tan", "Ada Quist", "Bo Renn" };
      guint a = i % G_N_ELEMENTS (authors);

      g_string_append_printf (
          out,
          "{\"PK\":{\"S\":\"POST#%08x\"},\"SK\":{\"S\":\"META\"},\"authorId\":{\"S\":\"U#%u\"},"
          "\"authorName\":{\"S\":\"%s\"},\"title\":{\"S\":\"Post number %u about modeling\"},"
          "\"tags\":{\"L\":[{\"S\":\"dynamodb\"},{\"S\":\"aws\"}]},"
          "\"author\":{\"M\":{\"id\":{\"S\":\"U#%u\"},\"name\":{\"S\":\"%s\"}}}}\n",
          i * 2654435761u, a + 12, authors[a], i, a + 12, authors[a]);
    }
}

static gint64
file_size (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 ? (gint64) st.st_size : 0;
}

static json_t *
must_call (DdbEngine *engine, const char *op, json_t *req)
{
  json_t *resp = NULL;
  GError *error = NULL;

  if (!ddb_engine_call (engine, op, req, &resp, &error))
    {
      fprintf (stderr, "%s failed: %s\n", op, error->message);
      exit (1);
    }
  return resp;
}

static double
per_call_us (gint64 start, guint calls)
{
  return (double) (g_get_monotonic_time () - start) / calls;
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) strtoul (argv[1], NULL, 10) : 1000000;
  g_autofree char *dir = NULL;
  g_autofree char *input = NULL;
  g_autofree char *db = NULL;
  g_autofree char *wal = NULL;
  GError *error = NULL;
  FILE *f;
  GString *line = g_string_new (NULL);
  gint64 input_bytes = 0;
  DdbEngine *engine;
  DdbImportOptions opts = { .table_name = "bench", .key = "PK:S,SK:S" };
  DdbSnapshotProgress progress;
  gint64 t0;
  guint calls;
  GRand *rand;

  ddb_malloc_init ();
  rand = g_rand_new_with_seed (7);

  if (argc == 4 && strcmp (argv[1], "--input") == 0)
    {
      n = (guint) strtoul (argv[2], NULL, 10);
      f = fopen (argv[3], "w");
      g_assert_nonnull (f);
      for (guint i = 0; i < n; i++)
        {
          g_string_truncate (line, 0);
          append_item (line, i);
          fwrite (line->str, 1, line->len, f);
        }
      fclose (f);
      g_string_free (line, TRUE);
      g_rand_free (rand);
      return 0;
    }
  if (n < 100)
    n = 100;
  dir = g_dir_make_tmp ("bench-engine-XXXXXX", &error);
  g_assert_no_error (error);
  input = g_build_filename (dir, "items.jsonl", NULL);
  db = g_build_filename (dir, "bench.db", NULL);
  wal = g_strconcat (db, "-wal", NULL);

  f = fopen (input, "w");
  g_assert_nonnull (f);
  for (guint i = 0; i < n; i++)
    {
      g_string_truncate (line, 0);
      append_item (line, i);
      fwrite (line->str, 1, line->len, f);
      input_bytes += (gint64) line->len;
    }
  fclose (f);

  /* Import */
  engine = ddb_engine_open (db, &error);
  g_assert_no_error (error);
  if (!ddb_snapshot_import (engine, input, &opts, &progress, &error))
    {
      fprintf (stderr, "import failed: %s\n", error->message);
      return 1;
    }
  printf ("import: %u items in %.2f s, %.0f items/s, %.1f MB/s of DynamoDB JSON\n", n,
          progress.seconds, progress.items_per_second, progress.bytes_per_second / 1e6);
  ddb_engine_free (engine); /* checkpoints the WAL into the file */
  printf ("size: database %.1f MB (+ WAL %.1f MB) for %.1f MB of DynamoDB JSON input: %.2fx\n",
          file_size (db) / 1e6, file_size (wal) / 1e6, input_bytes / 1e6,
          (double) (file_size (db) + file_size (wal)) / (double) input_bytes);
  g_unlink (input);

  engine = ddb_engine_open (db, &error);
  g_assert_no_error (error);

  /* GetItem on random existing keys of each shape */
  calls = 20000;
  t0 = g_get_monotonic_time ();
  for (guint c = 0; c < calls; c++)
    {
      guint i = (guint) g_rand_int_range (rand, 0, (gint32) n);
      char pk[64], sk[64];
      json_t *req, *resp;

      /* Rebuild the key of item i (see append_item). */
      if (i % 10 < 4)
        {
          g_snprintf (pk, sizeof pk, "WS#acme#%02u", (i / 10) % HOT_SHARDS + 1);
          g_snprintf (sk, sizeof sk, "PROJ#%08u", i);
        }
      else if (i % 10 < 7)
        {
          g_snprintf (pk, sizeof pk, "WS#t%05u", i / 100);
          if (i % 100 == 4)
            g_snprintf (sk, sizeof sk, "META");
          else
            g_snprintf (sk, sizeof sk, "PROJ#%08u", i);
        }
      else
        {
          g_snprintf (pk, sizeof pk, "POST#%08x", i * 2654435761u);
          g_snprintf (sk, sizeof sk, "META");
        }
      req = json_pack ("{ss s{s{ss} s{ss}}}", "TableName", "bench", "Key", "PK", "S", pk, "SK", "S",
                       sk);
      resp = must_call (engine, "GetItem", req);
      if (json_object_get (resp, "Item") == NULL)
        {
          fprintf (stderr, "GetItem: item %u (%s, %s) not found\n", i, pk, sk);
          return 1;
        }
      json_decref (resp);
      json_decref (req);
    }
  printf ("GetItem: %.1f µs per call (%u calls)\n", per_call_us (t0, calls), calls);

  /* PutItem: each is its own durable transaction (synchronous=FULL). The imported table has a
   * base (its first writes keep a base version); "plain" has none. */
  json_decref (must_call (engine, "CreateTable",
                          json_pack ("{ss s[{ssss}{ssss}] s[{ssss}{ssss}] ss}", "TableName",
                                     "plain", "KeySchema", "AttributeName", "PK", "KeyType",
                                     "HASH", "AttributeName", "SK", "KeyType", "RANGE",
                                     "AttributeDefinitions", "AttributeName", "PK",
                                     "AttributeType", "S", "AttributeName", "SK",
                                     "AttributeType", "S", "BillingMode", "PAY_PER_REQUEST")));
  for (guint t = 0; t < 2; t++)
    {
      const char *table = t == 0 ? "bench" : "plain";

      calls = 2000;
      t0 = g_get_monotonic_time ();
      for (guint c = 0; c < calls; c++)
        {
          g_autofree char *sk = g_strdup_printf ("NEW#%08u", c);
          json_t *req = json_pack ("{ss s{s{ss} s{ss} s{ss} s{ss}}}", "TableName", table, "Item",
                                   "PK", "S", "WS#acme#03", "SK", "S", sk, "name", "S",
                                   "A new project", "budget", "N",
                                   "12345678901234567890123456789012345678");
          json_decref (must_call (engine, "PutItem", req));
          json_decref (req);
        }
      printf ("PutItem (%s): %.1f µs per call (%u calls)\n",
              t == 0 ? "a table with a base" : "a table without a base", per_call_us (t0, calls),
              calls);
    }

  /* BatchWriteItem: 25 puts in one transaction, so the per-write costs show. */
  for (guint t = 0; t < 2; t++)
    {
      const char *table = t == 0 ? "bench" : "plain";
      guint batches = 400;

      t0 = g_get_monotonic_time ();
      for (guint c = 0; c < batches; c++)
        {
          json_t *puts = json_array ();
          json_t *req;

          for (guint k = 0; k < 25; k++)
            {
              g_autofree char *sk = g_strdup_printf ("BATCH#%08u", c * 25 + k);

              json_array_append_new (
                  puts, json_pack ("{s{s{s{ss} s{ss} s{ss}}}}", "PutRequest", "Item", "PK", "S",
                                   "WS#acme#04", "SK", "S", sk, "name", "S", "A batched project"));
            }
          req = json_pack ("{s{so}}", "RequestItems", table, puts);
          json_decref (must_call (engine, "BatchWriteItem", req));
          json_decref (req);
        }
      printf ("BatchWriteItem (25 puts, %s): %.1f µs per item (%u items)\n",
              t == 0 ? "a table with a base" : "a table without a base",
              per_call_us (t0, batches * 25), batches * 25);
    }

  /* Query: 100 items of a hot shard's collection */
  calls = 2000;
  t0 = g_get_monotonic_time ();
  for (guint c = 0; c < calls; c++)
    {
      char pk[32];
      json_t *req, *resp;

      g_snprintf (pk, sizeof pk, "WS#acme#%02u", c % HOT_SHARDS + 1);
      req = json_pack ("{ss ss s{s{ss}} si}", "TableName", "bench", "KeyConditionExpression",
                       "PK = :p", "ExpressionAttributeValues", ":p", "S", pk, "Limit", 100);
      resp = must_call (engine, "Query", req);
      if (json_integer_value (json_object_get (resp, "Count")) != 100)
        {
          fprintf (stderr, "Query: expected 100 items\n");
          return 1;
        }
      json_decref (resp);
      json_decref (req);
    }
  printf ("Query (100 items): %.1f µs per call (%u calls)\n", per_call_us (t0, calls), calls);

  /* Scan: 1 MB pages, following LastEvaluatedKey */
  {
    json_t *req = json_pack ("{ss}", "TableName", "bench");
    json_int_t items = 0;

    calls = 20;
    t0 = g_get_monotonic_time ();
    for (guint c = 0; c < calls; c++)
      {
        json_t *resp = must_call (engine, "Scan", req);
        json_t *last = json_object_get (resp, "LastEvaluatedKey");

        items += json_integer_value (json_object_get (resp, "Count"));
        if (last != NULL)
          json_object_set (req, "ExclusiveStartKey", last);
        else
          json_object_del (req, "ExclusiveStartKey");
        json_decref (resp);
      }
    printf ("Scan (1 MB page): %.1f µs per call (%u calls, %.0f items a page)\n",
            per_call_us (t0, calls), calls, (double) items / calls);
    json_decref (req);
  }

  ddb_engine_free (engine);
  g_unlink (db);
  g_unlink (wal);
  {
    g_autofree char *shm = g_strconcat (db, "-shm", NULL);
    g_unlink (shm);
  }
  g_rmdir (dir);
  g_string_free (line, TRUE);
  g_rand_free (rand);
  return 0;
}
