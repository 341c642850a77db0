/* estimate.h: what a key design costs: item sizes from the sample items (DynamoDB's size rules),
 * the biggest item collection of each table against the 10 GB limit an LSI sets, and the read
 * and write capacity of each access pattern and entity, per request, per second and per month
 * for the rates the user enters, priced on demand and provisioned. GTK-free.
 *
 * DynamoDB's rules, as the Developer Guide states them:
 *   - a read costs 1 RCU per 4 KB (4,096 bytes) read, rounded up: a GetItem per item, a Query
 *     once over the sum of the items it returns (per 1 MB page); eventually consistent reads
 *     cost half, transactional reads twice; a GSI is read eventually consistent only;
 *   - a write costs 1 WCU per 1 KB (1,024 bytes) written, rounded up, in the table and again in
 *     every index the item projects into (the index's projection of it); transactional writes
 *     cost twice;
 *   - on demand bills request units per million; provisioned bills capacity units per hour,
 *     provisioned in whole units per second on the table (which its LSIs share) and on each GSI.
 * A month is 730 hours, as AWS's pricing calculator counts it. Money is a double, unrounded here;
 * output rounds it for display. */
#pragma once

#include "core/value.h"
#include "model/check.h"
#include "model/model.h"

G_BEGIN_DECLS

#define DY_HOURS_PER_MONTH 730.0
#define DY_SECONDS_PER_MONTH (DY_HOURS_PER_MONTH * 3600.0)
#define DY_READ_UNIT_BYTES 4096
#define DY_WRITE_UNIT_BYTES 1024
#define DY_QUERY_PAGE_BYTES (1024 * 1024)
#define DY_LSI_COLLECTION_LIMIT (10.0 * 1024 * 1024 * 1024)

/* Capacity units of one request. */
double dy_read_units (double bytes, gboolean consistent, gboolean transactional);
double dy_write_units (double bytes, gboolean transactional);
/* A Query returning BYTES in all: rounded up to 4 KB once per 1 MB page. */
double dy_query_read_units (double bytes, gboolean consistent);

typedef struct {
  const DyModelEntity *entity;
  guint n_samples; /* sample items of this entity */
  double avg_size; /* bytes; from the samples, else the entity's itemSize */
  gsize max_size;
  gboolean sized; /* FALSE: no sample items and no itemSize, so no estimate */
  /* One write (a PutItem of an average sample item), transactional doubling included: */
  double table_wcu;   /* the table, and its LSIs the item projects into */
  double gsi_wcu;     /* all GSIs the item projects into */
  GPtrArray *indexes; /* of char*: the indexes the items project into */
  double rate;        /* writes per second (the entity's writeRate) */
  double wcu_per_second;
  double monthly_on_demand;
  double monthly_provisioned; /* its own units rounded up to whole WCUs */
} DyEntityEstimate;

typedef enum {
  DY_ITEMS_ONE,            /* GetItem */
  DY_ITEMS_GIVEN,          /* the pattern's "items" */
  DY_ITEMS_PER_COLLECTION, /* the entity's perCollection */
  DY_ITEMS_SAMPLE,         /* the mean per partition key value in the sample */
} DyItemsSource;

typedef struct {
  const DyModelPattern *pattern;
  DyResolutionKind kind; /* GetItem, Query, or flagged (no estimate) */
  gboolean estimated;    /* FALSE: flagged, or no size known; `note` says why */
  double items;          /* items one request returns */
  DyItemsSource items_from;
  double item_size;    /* bytes of one returned item (as the index projects it) */
  double bytes;        /* bytes one request reads */
  gboolean consistent; /* strongly consistent as read (never on a GSI) */
  gboolean transactional;
  double pages; /* 1 MB pages one request takes */
  double rcu;   /* per request, all pages */
  double rate;  /* requests per second */
  double rcu_per_second;
  double monthly_units; /* read request units per month */
  double monthly_on_demand;
  double monthly_provisioned; /* its own units rounded up to whole RCUs */
  char *note;                 /* NULL, or what was assumed or ignored */
} DyPatternEstimate;

/* The capacity one table (with its LSIs) or one GSI needs, provisioned in whole units. */
typedef struct {
  char *table;
  char *index; /* a GSI, or NULL for the table */
  double rcu_per_second, wcu_per_second;
  gint64 rcu, wcu; /* rounded up */
  double monthly_on_demand, monthly_provisioned;
} DyCapacityEstimate;

typedef struct {
  char *table;
  char *partition;     /* the partition key's template ("WS#{workspaceId}"), or its name */
  GPtrArray *entities; /* of char*: the entities that share the collection */
  double bytes;        /* the biggest collection: table items plus their LSI entries */
  gboolean has_lsi;
  gboolean over_limit;  /* has an LSI and bytes over 10 GB */
  gboolean from_sample; /* every count from the sample (no perCollection given) */
} DyCollectionEstimate;

typedef struct {
  const DyPrices *prices;
  GPtrArray *entities;        /* of DyEntityEstimate*, in the model's order */
  GPtrArray *patterns;        /* of DyPatternEstimate*, in the model's order */
  GPtrArray *capacities;      /* of DyCapacityEstimate*: each table, then its GSIs */
  GPtrArray *collections;     /* of DyCollectionEstimate* */
  double monthly_on_demand;   /* reads and writes */
  double monthly_provisioned; /* the capacities' whole units */
} DyEstimate;

/* Estimates MODEL with its rates and prices (model->prices). The estimate points into MODEL,
 * which must outlive it. */
DyEstimate *dy_model_estimate (const DyModel *model);
void dy_estimate_free (DyEstimate *estimate);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyEstimate, dy_estimate_free)

/* The entity a sample item of TABLE belongs to: the one whose key templates the item's keys
 * match, the most specific (most literal text) first; the only entity of a table without
 * templates; NULL when none matches. */
const DyModelEntity *dy_model_item_entity (const DyModel *model, const DyModelTable *table,
                                           const DdbValue *item);

/* "one", "given", "per collection", "sample": how a pattern's item count was found. */
const char *dy_items_source_name (DyItemsSource source);

G_END_DECLS
