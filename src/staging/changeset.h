/* changeset.h: the staging area: change sets per connection and table, persisted in their own
 * SQLite file so that closing the app or a crash loses nothing staged. A change is a create, an
 * update (the item as first seen and as wanted; its diff is derived) or a delete, and moves
 * through staged -> sending -> committed | conflict | failed (see journal.c and commit.c). */
#pragma once

#include <gio/gio.h>

#include "core/value.h"

G_BEGIN_DECLS

typedef struct _DdbStaging DdbStaging;

typedef enum {
  DDB_CHANGE_CREATE,
  DDB_CHANGE_UPDATE,
  DDB_CHANGE_DELETE,
} DdbChangeKind;

typedef enum {
  DDB_CHANGE_STAGED,    /* waiting for a commit */
  DDB_CHANGE_SENDING,   /* journaled as sent: its outcome is not known yet */
  DDB_CHANGE_COMMITTED, /* applied; kept as history, no longer open */
  DDB_CHANGE_CONFLICT,  /* its condition failed: CURRENT holds the item as found */
  DDB_CHANGE_FAILED,    /* refused for another reason: MESSAGE says why */
} DdbChangeState;

const char *ddb_change_kind_name (DdbChangeKind kind);   /* "create", "update", "delete" */
const char *ddb_change_state_name (DdbChangeState state); /* "staged", "sending", ... */

typedef struct {
  gint64 id;
  char *connection;
  char *table;
  DdbChangeKind kind;
  DdbChangeState state;
  DdbValue *key;      /* the item's key attributes */
  DdbValue *original; /* update, delete: the item as first seen; NULL for a create */
  DdbValue *target;   /* create, update: the item as wanted; NULL for a delete */
  DdbValue *current;  /* conflict: the item as found (NULL when it was absent) */
  char *message;      /* conflict, failed: why */
  char *batch;        /* the transaction it was last sent in (ClientRequestToken), or NULL */
} DdbChange;

void ddb_change_free (DdbChange *change);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbChange, ddb_change_free)

/* The change's per-path diff (see ddb_diff_items): for an update original -> target, for a
 * create {} -> target, for a delete original -> {}. GPtrArray of DdbDiffEntry. */
GPtrArray *ddb_change_diff (const DdbChange *change);

/* g_get_user_data_dir()/dynoscope/staging.db; newly allocated. */
char *ddb_staging_default_path (void);

/* Opens (creating if needed, with its parent directory) the staging store at PATH (":memory:"
 * for a private one). Its changes are all the app's connections' (CONNECTION strings). */
DdbStaging *ddb_staging_open (const char *path, GError **error);
void ddb_staging_free (DdbStaging *staging);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbStaging, ddb_staging_free)

/* Staging. KEY holds the item's key attributes (all of them). An item has at most one open
 * (not committed) change; staging another on it merges:
 *   update + update -> the update whose target has the second diff applied to it
 *   create + update -> the create with the update's diff applied to its item
 *   create + delete -> nothing (the create is dropped)
 *   update + delete -> a delete of the item as first seen
 *   delete + create -> an update from the item as first seen to the new one
 * others (create + create, delete + delete, update + create, delete + update) are refused with
 * G_IO_ERROR_EXISTS, and any staging over a change being sent with G_IO_ERROR_BUSY. A merged
 * change goes back to staged. An update whose diff ends up empty removes the change.
 * *ID (may be NULL) receives the change's id, or 0 when nothing is left staged. */
gboolean ddb_staging_stage_create (DdbStaging *staging, const char *connection, const char *table,
                                   const DdbValue *key, const DdbValue *item, gint64 *id,
                                   GError **error);
gboolean ddb_staging_stage_update (DdbStaging *staging, const char *connection, const char *table,
                                   const DdbValue *key, const DdbValue *old_item,
                                   const DdbValue *new_item, gint64 *id, GError **error);
gboolean ddb_staging_stage_delete (DdbStaging *staging, const char *connection, const char *table,
                                   const DdbValue *key, const DdbValue *original, gint64 *id,
                                   GError **error);

/* One durable transaction around several stagings, so that staging thousands of changes costs
 * one commit to disk, and they are staged all or none: holds the store's lock until
 * ddb_staging_batch_end, which keeps what was staged since the beginning when OK, else rolls it
 * all back (and returns FALSE). */
gboolean ddb_staging_batch_begin (DdbStaging *staging, GError **error);
gboolean ddb_staging_batch_end (DdbStaging *staging, gboolean ok, GError **error);

/* One change, or NULL with G_IO_ERROR_NOT_FOUND. */
DdbChange *ddb_staging_get (DdbStaging *staging, gint64 id, GError **error);
/* The changes of CONNECTION (NULL: all) and TABLE (NULL: all), oldest first: the open ones, and
 * the committed ones too with INCLUDE_COMMITTED. GPtrArray of DdbChange. */
GPtrArray *ddb_staging_list (DdbStaging *staging, const char *connection, const char *table,
                             gboolean include_committed, GError **error);

/* Puts the path PATH (as ddb_path_to_string writes it, e.g. "settings.theme", "tags[2]") of an
 * update or create back to its original value (for a create: removes it). A change left without
 * differences is removed. G_IO_ERROR_NOT_FOUND when the change has no such path,
 * G_IO_ERROR_BUSY while it is being sent, G_IO_ERROR_INVALID_ARGUMENT for a delete or a key
 * attribute of a create. */
gboolean ddb_staging_reject_path (DdbStaging *staging, gint64 id, const char *path,
                                  GError **error);
/* Removes one open change (G_IO_ERROR_BUSY while it is being sent). */
gboolean ddb_staging_discard (DdbStaging *staging, gint64 id, GError **error);
/* Removes every open change of CONNECTION (NULL: all) in TABLE (NULL: all) except those being
 * sent; *N_DISCARDED (may be NULL) receives how many. */
gboolean ddb_staging_discard_all (DdbStaging *staging, const char *connection, const char *table,
                                  guint *n_discarded, GError **error);
/* Puts a conflicted or failed change back to staged so the next commit sends it again (the
 * user has looked at the conflict and wants to overwrite the values it guards). */
gboolean ddb_staging_requeue (DdbStaging *staging, gint64 id, GError **error);

/* The journal of one change: its states in order, as ddb_change_state_name strings. */
GStrv ddb_staging_journal (DdbStaging *staging, gint64 id, GError **error);

G_END_DECLS
