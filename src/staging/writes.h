/* writes.h: the conditional write that carries a staged change to DynamoDB, and the reading of
 * an item that tells whether a change reached it. Expressions always use placeholders (#n0,
 * :v0...): no name or value is ever spliced into expression text. */
#pragma once

#include <jansson.h>

#include "staging/changeset.h"

G_BEGIN_DECLS

typedef struct {
  const char *operation; /* "UpdateItem", "PutItem", "DeleteItem" */
  const char *action;    /* its TransactWriteItems member: "Update", "Put", "Delete" */
  json_t *request;       /* a single write's request (also a transaction action's body) */
  /* A delete of an item too big for a whole-item condition (more than 4 KB of expression or 300
   * operators) guards only what fits: the commit compares the whole item on a consistent read
   * just before sending it. */
  gboolean needs_precheck;
} DdbWrite;

/* The write for CHANGE. Its optimistic lock:
 *  - update: attribute_exists(key) and every diff path still holds its original value
 *    (attribute_not_exists for a path that was absent), so an item deleted meanwhile is not
 *    re-created and a value changed behind our back is never overwritten;
 *  - create: attribute_not_exists(partition key);
 *  - delete: every attribute of the item as first seen still equal; when that does not fit,
 *    VERSION_ATTRIBUTE = its original value if the item has one, else as many attributes as
 *    fit plus the pre-check above (an attribute added behind our back is only seen by the
 *    pre-check: a condition cannot say "no other attributes").
 * VERSION_ATTRIBUTE (may be NULL) also makes every update and create count its writes:
 * ADD version 1 / version = 1 — the companion counter that shows a change written once.
 * Every request asks ReturnValuesOnConditionCheckFailure ALL_OLD, so a conflict comes back with
 * the item as found. Fails (G_IO_ERROR_INVALID_ARGUMENT) for a change that cannot be written:
 * a changed key attribute, an update expression over DynamoDB's 4 KB. */
gboolean ddb_write_build (const DdbChange *change, const char *version_attribute, DdbWrite *out,
                          GError **error);
void ddb_write_clear (DdbWrite *write);

typedef enum {
  DDB_WRITE_NOT_APPLIED, /* the item is as the change found it */
  DDB_WRITE_APPLIED,     /* the item is as the change wants it */
  DDB_WRITE_CHANGED,     /* neither: someone else changed it */
} DdbWriteOutcome;

/* Where CURRENT (the item as read now, NULL: absent) stands relative to CHANGE, looking at the
 * change's diff paths (update), or the whole item (create, delete), VERSION_ATTRIBUTE aside.
 * An update whose paths hold the new values is APPLIED even if someone else wrote the same
 * values: either way the item is as wanted and must not be written again. */
DdbWriteOutcome ddb_write_judge (const DdbChange *change, const DdbValue *current,
                                 const char *version_attribute);

/* The write capacity units a write consumes as a single write (PutItem, UpdateItem,
 * DeleteItem): one per started kilobyte of the larger of the item's sizes before and after it
 * (0 when absent), at least one. A transaction's write consumes twice that. */
guint64 ddb_write_units (gsize size_before, gsize size_after);
/* The same for CHANGE's write: an update from its original to its target, a create of its
 * target, a delete of its original. */
guint64 ddb_change_write_units (const DdbChange *change);

G_END_DECLS
