/* dy-group-private.h: what dy-group.c shares with dy-group-builder.c: collections whose items
 * are made when first asked for, and the plan that gathers numbered keys into shard sets, made
 * from key texts alone so that a million collections need no object each. */
#pragma once

#include "app/browser/dy-group.h"

G_BEGIN_DECLS

/* Makes a collection's items (a new reference) from DATA. */
typedef GListModel *(*DyGroupItemsFunc) (gpointer data);

/* The collection's N_ITEMS items (TOTAL_SIZE bytes) are made by FUNC (DATA) the first time
 * dy_group_get_items asks; DESTROY frees DATA then, or with the group. */
void dy_group_set_lazy_items (DyGroup *self, guint n_items, guint64 total_size,
                              DyGroupItemsFunc func, gpointer data, GDestroyNotify destroy);

/* A collection flagged as a shard: its family's base, its number as written, the family's
 * size (1 for a lone numbered key beside its base). */
typedef struct {
  char *base;
  char *suffix;
  guint count;
} DyShardMark;

/* A shard set: its title ("BASE#01…#10"), base, and its collections in shard order. */
typedef struct {
  char *key_text;
  char *base;
  GArray *members; /* guint: indices of the keys planned */
} DyShardSet;

/* An entry of the top-level order: a collection (index of its key), or a set (SET, index into
 * the plan's sets), placed where its first collection was. */
typedef struct {
  guint index;
  gboolean set;
} DyShardEntry;

typedef struct {
  GArray *entries;   /* DyShardEntry */
  GPtrArray *sets;   /* DyShardSet * */
  GHashTable *marks; /* key index + 1 -> DyShardMark * */
} DyShardPlan;

/* The plan for collections with KEYS (N of them, in their order): dy_group_collect_shards's
 * rules (see dy-group.h). */
DyShardPlan *dy_shard_plan_new (const char *const *keys, guint n);
void dy_shard_plan_free (DyShardPlan *plan);
/* The mark of key INDEX, NULL if it is no shard. */
const DyShardMark *dy_shard_plan_get_mark (const DyShardPlan *plan, guint index);

/* Flags SELF as MARK says (NULL: no shard number). */
void dy_group_set_shard (DyGroup *self, const DyShardMark *mark);
/* The group of SET, with its collections MEMBERS (DyGroup, taken by reference). */
DyGroup *dy_group_new_shard_set (const DyShardSet *set, GListModel *members);

G_END_DECLS
