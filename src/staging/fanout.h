/* fanout.h: the fan-out planner: from one changed fact (an attribute's old and new value) find
 * every item holding a copy of it, through an index Query or a filtered Scan, and stage per copy
 * an update of that attribute guarded by `attribute = old value`. */
#pragma once

#include "backend/backend.h"
#include "staging/changeset.h"

G_BEGIN_DECLS

typedef struct {
  const char *table;
  const char *attribute;     /* the top-level attribute holding the copy */
  const DdbValue *old_value;
  const DdbValue *new_value;
  const char *index;         /* a GSI or LSI to Query; NULL: Scan the table */
  const DdbValue *index_key; /* with INDEX: the value of its partition key */
} DdbFanoutSpec;

typedef struct {
  GPtrArray *keys;  /* DdbValue: each copy's table key */
  GPtrArray *items; /* DdbValue: each copy as found */
  guint n_items;
  guint64 total_size;        /* bytes of the items as they will be written (ddb_item_size) */
  guint64 write_units;       /* as single writes: per item 1 WCU per started KB of the larger
                              * of its sizes before and after */
  guint64 write_units_transactions; /* the same inside transactions: doubled */
} DdbFanoutPlan;

void ddb_fanout_plan_free (DdbFanoutPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbFanoutPlan, ddb_fanout_plan_free)

/* Finds the copies, reading every page (LastEvaluatedKey) through BACKEND; the Query or Scan
 * filters on `attribute = old value`, so only items still holding it are planned. An index
 * returns only the attributes it projects: sizes are then those of the projection (an index
 * projecting KEYS_ONLY cannot filter on the attribute and finds nothing). */
DdbFanoutPlan *ddb_fanout_plan (DdbBackend *backend, const DdbFanoutSpec *spec,
                                GCancellable *cancellable, GError **error);

/* Stages PLAN's updates for CONNECTION in one durable transaction (merging with changes already
 * staged on the same items, as ddb_staging_stage_update does). */
gboolean ddb_fanout_stage (DdbStaging *staging, const char *connection, const DdbFanoutSpec *spec,
                           const DdbFanoutPlan *plan, GError **error);

G_END_DECLS
