/* generate.h: generated items for a model's table: N items per entity rendered from its key
 * templates, so that its access patterns find them, with values that look like a real table's.
 * GTK-free. */
#pragma once

#include "model/model.h"

G_BEGIN_DECLS

#define DY_GENERATE_ERROR (dy_generate_error_quark ())

typedef enum {
  DY_GENERATE_ERROR_TEMPLATE,  /* a key template did not render (e.g. a dated field) */
  DY_GENERATE_ERROR_EXHAUSTED, /* an entity's templates give fewer distinct keys than asked */
} DyGenerateErrorCode;

GQuark dy_generate_error_quark (void);

/* ITEMS_PER_ENTITY items for each entity of TABLE, as a new JSON array of DynamoDB JSON items,
 * the same for the same SEED. Entities come in the order their fields depend on each other:
 *
 * - an entity whose table key has one field (Workspace: "WS#{workspaceId}", "META") owns that
 *   field; other entities of the table with the field (Project: "WS#{workspaceId}",
 *   "PROJ#{year}-{seq:04}") take it from the owner's items, a few owners holding most of them
 *   (a Zipf-like tenant size). A partition-key field that no entity owns draws from a pool of
 *   values shared by the table's entities, Zipf-like too;
 * - the values that access patterns give as examples come first (the biggest tenant is the
 *   examples' one), and each pattern's example inputs are one generated item, so that every
 *   pattern's example request finds at least one item (that item keeps the examples' values
 *   even where they do not follow the orders below);
 * - timestamps (fields and attributes named …At, …date, …time, dated template fields) grow with
 *   each item of an entity, in one window of 2023-01-01 to 2026-11-30 per depth (users before
 *   their posts before the posts' comments); in a number key, as seconds since the epoch; year,
 *   month and day fields are the item's timestamp's;
 * - an attribute that repeats a field ("userId" for "{user}") has the field's value;
 * - zero-padded sort-key fields ({seq:04}) and fields named seq or n count up per partition;
 *   a zero-padded partition-key field ({shard:02}) is a shard number from 1 to 10;
 * - non-key attributes get a value of their type (S, N, B, BOOL, NULL, SS, NS, BS, L, M).
 *
 * Keys never repeat: an item whose table key an earlier item has is drawn again. An entity
 * whose key is a constant gets one item. Fails with DY_GENERATE_ERROR_EXHAUSTED naming the
 * entity when its templates cannot give ITEMS_PER_ENTITY distinct keys, and with
 * DY_GENERATE_ERROR_TEMPLATE when a template does not render. */
json_t *dy_model_generate (const DyModel *model, const DyModelTable *table, guint items_per_entity,
                           guint32 seed, GError **error);

G_END_DECLS
