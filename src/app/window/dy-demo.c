/* dy-demo.c: building the demo database from the demo data. */
#define G_LOG_DOMAIN "dynoscope-demo"

#include <errno.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "app/window/dy-demo.h"
#include "engine/engine.h"
#include "engine/snapshot.h"

typedef struct {
  const char *file;
  const char *table;
  const char *key;
  const char *gsi; /* NULL or "NAME:pk:S[,sk:S]" */
} DemoTable;

/* What the tables show (see data/demo/README.md): an overloaded one-to-many key schema, a
 * denormalized blog with a GSI by author, and composite keys with a hot tenant sharded. */
static const DemoTable demo_tables[] = {
  { "workspaces.jsonl", "Workspaces", "EntityRef:S,Detail:S", NULL },
  { "blog.jsonl", "Blog", "PK:S,SK:S", "ByAuthor:authorId:S,publishedAt:S" },
  { "orders.jsonl", "Orders", "TenantShard:S,CustomerCountryProduct:S", NULL },
};

char *
dy_demo_data_dir (void)
{
  const char *env = g_getenv ("DYNOSCOPE_DEMO_DATA");
  g_autofree char *installed = g_build_filename (DYNOSCOPE_PKGDATADIR, "demo", NULL);

  if (env != NULL && env[0] != '\0')
    return g_strdup (env);
  if (g_file_test (installed, G_FILE_TEST_IS_DIR))
    return g_steal_pointer (&installed);
  return g_build_filename (DYNOSCOPE_SOURCE_DIR, "data", "demo", NULL);
}

char *
dy_demo_database_path (const char *data_dir, GError **error)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *name = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (demo_tables); i++)
    {
      g_autofree char *path = g_build_filename (data_dir, demo_tables[i].file, NULL);
      g_autofree char *contents = NULL;
      gsize len;

      if (!g_file_get_contents (path, &contents, &len, error))
        return NULL;
      g_checksum_update (sum, (const guchar *) demo_tables[i].key, -1);
      g_checksum_update (sum, (const guchar *) contents, len);
    }
  name = g_strdup_printf ("demo-%.12s.db", g_checksum_get_string (sum));
  return g_build_filename (g_get_user_cache_dir (), "dynoscope", name, NULL);
}

gboolean
dy_demo_ensure (const char *db_path, const char *data_dir, GCancellable *cancellable,
                GError **error)
{
  g_autofree char *dir = g_path_get_dirname (db_path);
  g_autofree char *tmp = NULL;
  DdbEngine *engine;

  if (g_file_test (db_path, G_FILE_TEST_IS_REGULAR))
    return TRUE;
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir,
                   g_strerror (saved));
      return FALSE;
    }
  tmp = g_strdup_printf ("%s.%d.tmp", db_path, (int) getpid ());
  ddb_engine_remove_files (tmp);
  engine = ddb_engine_open (tmp, error);
  if (engine == NULL)
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (demo_tables); i++)
    {
      g_autofree char *source = g_build_filename (data_dir, demo_tables[i].file, NULL);
      const char *gsis[] = { demo_tables[i].gsi, NULL };
      DdbImportOptions options = {
        .table_name = demo_tables[i].table,
        .format = DDB_SNAPSHOT_JSONL,
        .key = demo_tables[i].key,
        .gsis = demo_tables[i].gsi != NULL ? gsis : NULL,
        .cancellable = cancellable,
      };

      if (!ddb_snapshot_import (engine, source, &options, NULL, error))
        {
          ddb_engine_free (engine);
          ddb_engine_remove_files (tmp);
          return FALSE;
        }
    }
  ddb_engine_free (engine);
  if (g_rename (tmp, db_path) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", db_path,
                   g_strerror (saved));
      ddb_engine_remove_files (tmp);
      return FALSE;
    }
  return TRUE;
}
