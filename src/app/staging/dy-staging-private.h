/* dy-staging-private.h: what dy-staging.c (the store and its snapshots) shares with
 * dy-staging-inspectors.c (the inspectors' edits and drafts) and dy-staging-threads.c (commits,
 * fan-out and expression staging on worker threads). */
#pragma once

#include "app/staging/dy-staging.h"

G_BEGIN_DECLS

struct _DyStaging {
  GObject parent_instance;

  DdbStaging *store;
  /* A second handle on the store's file for the snapshot reads: each handle serialises its
   * calls, and a read of 10,000 changes must not hold up a stage or a reject on the main
   * thread (the store's WAL lets a reader and a writer run at once). NULL: read through
   * STORE (a private in-memory store has no file to share). */
  DdbStaging *reader;
  GError *open_error;
  GHashTable *cache;     /* connection id -> Cached */
  GHashTable *drafts;    /* "connection id\ntable\nkey text" -> Draft */
  GPtrArray *inspectors; /* attached, borrowed (each removes itself when it goes) */
};

/* FALSE, with the store's open error, when the store could not be opened. */
gboolean dy_staging_check_open (DyStaging *self, GError **error);
/* CONNECTION's id, or NULL with G_IO_ERROR_PENDING while it is being resolved. */
const char *dy_staging_require_id (DyConnection *connection, GError **error);
/* The backend commits and fan-out plans of CONNECTION go through (worker threads only). */
DdbBackend *dy_staging_connection_backend (DyConnection *connection, GError **error);
/* The store changed: reloads the snapshots, then emits "changed". */
void dy_staging_emit_changed (DyStaging *self);
/* Emits "committed" for N_COMMITTED changes of TABLE on CONNECTION. */
void dy_staging_emit_committed (DyStaging *self, DyConnection *connection, const char *table,
                                guint n_committed);

/* The key as text: its attributes by NAMES (sorted: a key map from a grid row and one from the
 * store may list them in another order), each as DynamoDB JSON. */
char *dy_staging_key_text (const DdbValue *key, char **names);
/* KEY's attribute names, sorted. */
char **dy_staging_key_names (const DdbValue *key);
/* Frees a draft of the drafts table (dy-staging-inspectors.c). */
void dy_staging_draft_free (gpointer draft);

G_END_DECLS
