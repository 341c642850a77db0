/* dy-demo.h: the demo database the app opens on, built from the .jsonl files of data/demo into the user's
 * cache folder the first time (and again whenever the demo data changes). GTK-free. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The folder holding the demo .jsonl files: $DYNOSCOPE_DEMO_DATA, else the installed copy, else
 * the source tree's (for a build run in place). */
char *dy_demo_data_dir (void);
/* Where the demo database for the data in DATA_DIR lives: a file in the user's cache folder
 * whose name carries a checksum of the data, so that changed data gives a new database. */
char *dy_demo_database_path (const char *data_dir, GError **error);
/* Builds the demo database at DB_PATH from DATA_DIR unless it exists already: every table
 * imported through the engine's snapshot import into a temporary file renamed into place, so
 * that a cancelled or failed build leaves nothing half-made. Blocking: run it on a thread. */
gboolean dy_demo_ensure (const char *db_path, const char *data_dir, GCancellable *cancellable,
                         GError **error);

G_END_DECLS
