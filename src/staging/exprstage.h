/* exprstage.h: the expression builder's Stage action: a built update (or a delete), with its
 * condition, applied to the items of a result as guarded per-item changes in the staging area,
 * never written directly. The commit then guards each change by the values it started from
 * (writes.h), so an item changed meanwhile comes back as a conflict, as fan-out's copies do. */
#pragma once

#include "core/expr.h"
#include "staging/changeset.h"

G_BEGIN_DECLS

typedef struct {
  const char *connection;
  const char *table;
  const char *const *key_names; /* NULL-terminated: the partition key, then the sort key */
  const DdbUpdate *update;      /* NULL: delete each item */
  const DdbNode *condition;     /* NULL: every item */
} DdbExprStageSpec;

typedef struct {
  DdbValue *key; /* the item's key, or NULL when the item lacks a key attribute */
  char *message; /* why the item was not staged */
} DdbExprStageFailure;

typedef struct {
  guint n_staged;
  guint n_skipped;     /* the condition is false on the item as given */
  guint n_unchanged;   /* the update leaves the item as it is: nothing to stage */
  guint n_failed;      /* one DdbExprStageFailure each */
  GPtrArray *failures; /* DdbExprStageFailure*, in the items' order */
} DdbExprStageReport;

void ddb_expr_stage_report_clear (DdbExprStageReport *report);

/* For each of ITEMS (DdbValue maps, as the result shows them): evaluates the condition on it
 * (ddb_condition_eval), applies the update to a copy (ddb_update_apply) and stages the update
 * original -> result (ddb_staging_stage_update, merging with what is already staged on the item)
 * or the delete. An item whose update fails (e.g. list_append on a string), whose key attribute
 * is missing or would change, or on which the store refuses the change (a staged delete before
 * an update, a change being sent) is a failure in REPORT; the others are staged all in one
 * durable transaction. Returns FALSE only when the store itself fails: nothing is staged then. */
gboolean ddb_expr_stage (DdbStaging *staging, const DdbExprStageSpec *spec, GPtrArray *items,
                         DdbExprStageReport *report, GError **error);

G_END_DECLS
