/* infer.h: a model proposed for a table that was never modeled, from its description and a
 * sample of its items: entities told apart by their key prefixes ("WS#…", "PROJ#…", "META"),
 * key templates with named and zero-padded fields, each entity's attributes and types, the
 * table's indexes and billing mode, and a few sample items per entity. GTK-free.
 *
 * How a key value is read: it is split at its separator ('#', else '|'); the items whose table
 * keys share their first segment (when it is a word, such as "WS") and their number of segments
 * are one entity. Within an entity a segment the same in every item is literal when it is a word
 * in capitals (or, first, any word) and, right after another literal word, when the key's values
 * differ elsewhere ("ORG#ACME" seen alone is ORG#{orgId}), else it is a field; a field of digits
 * joined by '-'
 * ("2026-0040") is one field per number. A field is zero-padded ({seq:04}) when all its values
 * are digits of one length and one starts with 0. Fields are named, in this order of
 * preference: after a non-key attribute holding the same value in every item (or that value
 * behind a separator: "12" of userId = "U#12"); after the key attribute when the field is its
 * whole value ("{publishedAt}"); timestamp, date, or year (the first number of "2026-0040") by
 * their form; after the word before it ("WS" -> workspaceId, "USER" -> userId, "TENANT" ->
 * tenantId); shard (the last number, of at most 3 digits, of a partition key); the words of a
 * composite key attribute's name (CustomerCountryProduct -> customer, country, product); seq
 * (padded) or n for numbers; else the key attribute's name and the field's place (skPart2).
 * A made-up name that is one of the entity's attributes gets a number (userId2); one value
 * under two keys (the table's and an index's) has one name. Entities are named after their
 * sort key's word ("PROJ" -> Project, common abbreviations spelt out), or their partition
 * key's when the sort key is a constant ("META") or the same as the partition key; "Sharded"
 * goes before the name of one whose partition key ends in a shard, and a name already taken
 * gets the partition key's word before it (PostComment) or a number. Items without words in
 * their keys make one entity named after the table. */
#pragma once

#include <gio/gio.h>

#include "backend/backend.h"
#include "model/model.h"

G_BEGIN_DECLS

/* The number of items read when no sample size is given. */
#define DY_INFER_DEFAULT_SAMPLE 10000
/* The sample items kept per entity in the model's table data. */
#define DY_INFER_ITEMS_PER_ENTITY 5

/* Describes TABLE on BACKEND and reads up to SAMPLE items (0: DY_INFER_DEFAULT_SAMPLE) with a
 * parallel Scan, and proposes its model (one table, its entities; no access patterns). The
 * result does not depend on the order in which the items were read. NULL with ERROR (a DDB_ERROR
 * from DynamoDB, or G_IO_ERROR_CANCELLED) on failure. */
DyModel *dy_model_infer (DdbBackend *backend, const char *table, guint64 sample,
                         GCancellable *cancellable, GError **error);

/* The proposal from a description (DescribeTable's "Table" member) and ITEMS (an array of items
 * in DynamoDB JSON, borrowed), as dy_model_infer makes it. NULL with ERROR when the description
 * has no key schema. */
DyModel *dy_model_infer_from_items (json_t *description, json_t *items, GError **error);

G_END_DECLS
