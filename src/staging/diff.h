/* diff.h: what changed between two versions of an item, as a list of document paths each with
 * its value before and after, and the path edits that move an item back or forth along it. */
#pragma once

#include <glib.h>

#include "core/expr.h"
#include "core/value.h"

G_BEGIN_DECLS

/* One changed path. A NULL value means the path is absent on that side. */
typedef struct {
  DdbPath path;
  DdbValue *old_value;
  DdbValue *new_value;
} DdbDiffEntry;

void ddb_diff_entry_free (DdbDiffEntry *entry);

/* The differences from OLD_ITEM to NEW_ITEM (both maps), as a GPtrArray of DdbDiffEntry that
 * frees its entries. The rule, chosen so that every entry is one SET or REMOVE of an update
 * expression guarded by a condition on that same path:
 *  - top-level attributes in OLD_ITEM's order, then those only in NEW_ITEM in its order;
 *  - an attribute or map key present on one side only is one entry (the whole value);
 *  - two maps are compared key by key, recursively (`settings.theme`);
 *  - two lists of equal length are compared element by element, recursively (`tags[2]`); lists
 *    of different lengths are one entry for the whole list, since DynamoDB shifts elements on
 *    REMOVE and a per-index diff of a shifted list would be neither readable nor safe;
 *  - sets (SS, NS, BS) and scalars are compared as whole values (sets ignoring order, numbers
 *    numerically), and two values of different types are one entry.
 * No entry's path is a prefix of another's, so the entries never overlap in one expression. */
GPtrArray *ddb_diff_items (const DdbValue *old_item, const DdbValue *new_item);

/* Sets the value at PATH inside ITEM (a map) to VALUE (taken; NULL removes the path). Every step
 * but the last must exist with the right type, and a list index must be within the list (a list
 * element cannot be removed: that would shift the others). Returns FALSE, leaving ITEM
 * unchanged and freeing VALUE, when it cannot be done. */
gboolean ddb_path_set (DdbValue *item, const DdbPath *path, DdbValue *value);

G_END_DECLS
