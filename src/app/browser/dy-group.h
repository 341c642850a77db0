/* dy-group.h: an item collection: the items of one partition key value, as a row of the
 * grouped grid that expands to its items; and a shard set: the collections of one partition
 * written across numbered keys (TENANT#x#01 ... #10), which expands to those collections. */
#pragma once

#include <gio/gio.h>

#include "app/common/dy-item.h"
#include "app/browser/dy-rows.h"

G_BEGIN_DECLS

#define DY_TYPE_GROUP (dy_group_get_type ())
G_DECLARE_FINAL_TYPE (DyGroup, dy_group, DY, GROUP, GObject)

/* KEY_TEXT: the partition key value as shown. */
DyGroup *dy_group_new (const char *key_text);
const char *dy_group_get_key_text (DyGroup *self);
/* Gives the collection its items (DyItem, already in sort-key order: the view's rows, read
 * when shown) and their total size. */
void dy_group_set_items (DyGroup *self, GListModel *items, guint64 total_size);
/* The items (DyItem) in sort-key order, NULL before dy_group_set_items; for a shard set, its
 * collections (DyGroup) in shard order. */
GListModel *dy_group_get_items (DyGroup *self);
/* Items (of all its collections, for a shard set). */
guint dy_group_get_n_items (DyGroup *self);
guint64 dy_group_get_total_size (DyGroup *self);

/* For gtk_tree_list_model_new: a collection's (or shard set's) children, NULL for an item. */
GListModel *dy_group_tree_children (gpointer item, gpointer user_data);

/* ---- Collections built from rows ---- */

typedef struct _DyGroupBuilder DyGroupBuilder;

DyGroupBuilder *dy_group_builder_new (void);
void dy_group_builder_free (DyGroupBuilder *builder);
/* Makes room for N_ROWS rows at once (before any is added). */
void dy_group_builder_reserve (DyGroupBuilder *builder, guint n_rows);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyGroupBuilder, dy_group_builder_free)
/* Puts row POSITION (SIZE bytes) in the collection whose partition key shows as KEY_TEXT;
 * returns the collection's index, for dy_group_builder_add_to. */
guint dy_group_builder_add (DyGroupBuilder *builder, const char *key_text, guint32 position,
                            guint64 size);
/* A new collection (no row yet) whose partition key shows as KEY_TEXT, for a caller that knows
 * no collection of the builder shows so; returns its index, for dy_group_builder_add_to. */
guint dy_group_builder_add_collection (DyGroupBuilder *builder, const char *key_text);
/* Puts row POSITION (SIZE bytes) in collection INDEX, as dy_group_builder_add or
 * dy_group_builder_add_collection returned it: for callers that know a row's collection without
 * its key text. */
void dy_group_builder_add_to (DyGroupBuilder *builder, guint index, guint32 position, guint64 size);
/* The collections (DyGroup) in first-seen order, each showing its rows of ROWS in the order
 * COMPARE (on guint32 positions, may be NULL: as added) gives, with the shard sets gathered
 * (dy_group_collect_shards). The builder is left empty. */
GListModel *dy_group_builder_finish (DyGroupBuilder *builder, DyRows *rows,
                                     GCompareDataFunc compare, gpointer user_data);

/* ---- Shards ---- */

/* Whether KEY looks like one shard of a partition written across numbered keys: BASE#NN with
 * BASE holding a '#' itself and NN 2 or 3 digits. (USER#12 is an entity, TENANT#bigco#07 a
 * shard.) BASE and SUFFIX may be NULL. */
gboolean dy_shard_split (const char *key, char **base, char **suffix);

/* Groups GROUPS (DyGroup, in their order): collections whose keys are numbered siblings
 * (BASE#01, BASE#02, ... of one width, at least two of them, at least one zero-padded) go into
 * one shard set, where the first of them was, sorted by number; a lone numbered key beside
 * its BASE collection is flagged as a shard but stays. Returns a new list of DyGroup. */
GListModel *dy_group_collect_shards (GListModel *groups);

gboolean dy_group_is_shard_set (DyGroup *self);
/* For a collection in a shard set or flagged as a shard: its family's base key, else NULL. */
const char *dy_group_get_shard_base (DyGroup *self);
/* Its number as written ("07"), else NULL. */
const char *dy_group_get_shard_suffix (DyGroup *self);
/* How many shards its family has (a shard set: its collections). */
guint dy_group_get_shard_count (DyGroup *self);

/* ---- The 10 GB item collection limit of tables with a local secondary index ---- */

#define DY_COLLECTION_LIMIT_BYTES (G_GUINT64_CONSTANT (10) * 1024 * 1024 * 1024)
/* Warn from this share of the limit (percent). */
#define DY_COLLECTION_WARN_PERCENT 80

/* "< 0.01% of 10 GB", "12.5% of 10 GB", "103% of 10 GB": BYTES as a share of the limit.
 * *LEVEL: 0 below DY_COLLECTION_WARN_PERCENT, 1 from there, 2 at or past the limit. */
char *dy_collection_limit_text (guint64 bytes, int *level);
/* Whether BYTES is more than nothing but below the smallest share the text shows (its
 * "< 0.01% of 10 GB"). */
gboolean dy_collection_limit_below_shown (guint64 bytes);

G_END_DECLS
