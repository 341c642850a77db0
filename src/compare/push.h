/* push.h: a compare's differences staged on the other side (there) as guarded changes of the
 * staging area (src/staging), to be sent by its commit (transactions or single writes, journal,
 * resume). GTK-free.
 *
 * With a base (three-way), only the edits made here are staged, each guarded by the base
 * values there holds: an update by the paths it touches (attribute_exists of the key and each
 * path still holding its base value), a delete by the whole item, a create by the item's
 * absence. Edits made there are never reverted and items changed on both sides are not staged
 * (conflicts for the user). Without a base the push makes there equal to here: every
 * difference is staged, each guarded by the values the compare saw there. Excluded attributes
 * keep there's values in both cases. A guard that fails at commit is a conflict left staged. */
#pragma once

#include "compare/compare.h"
#include "staging/changeset.h"

G_BEGIN_DECLS

typedef struct {
  guint staged; /* changes staged (creates + updates + deletes) */
  guint creates, updates, deletes;
  guint left_there;   /* three-way: edited there, left alone */
  guint conflicts;    /* three-way: changed on both sides, not staged */
  guint not_selected; /* refused by the SELECT function */
} DdbPushCounts;

/* Chooses which differences are pushed (the app's selection); NULL: all. */
typedef gboolean (*DdbPushSelectFunc) (const DdbCompareDifference *difference, gpointer user_data);

/* Whether the difference would be staged by a push (three-way: edited here; two-way: any). */
gboolean ddb_push_is_pushable (const DdbCompareDifference *difference);

/* Stages the push of RESULT on CONNECTION (there's connection id in STAGING) in there's table.
 * Refused, with nothing staged: there is an export (G_IO_ERROR_NOT_SUPPORTED); CONNECTION
 * already has open changes on that table (G_IO_ERROR_EXISTS: commit or discard them first, so
 * that a push never merges into someone's staged edits). The changes are staged in one
 * transaction: all of them, or none on an error. COUNTS (may be NULL) gets what was done. */
gboolean ddb_push_stage (DdbCompareResult *result, DdbStaging *staging, const char *connection,
                         DdbPushSelectFunc select, gpointer user_data, DdbPushCounts *counts,
                         GError **error);

G_END_DECLS
