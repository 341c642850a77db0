/* model.h: a key design: tables (key schema, secondary indexes, billing mode), the entities stored
 * in them with their attributes and key templates, the access patterns that read them, and sample
 * items. GTK-free; read and written by workbench.c, checked by check.c. */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "model/prices.h"
#include "model/template.h"

G_BEGIN_DECLS

/* An attribute's name and its DynamoDB type ("S", "N", "B", "BOOL", "M", "L", "SS", ...). */
typedef struct {
  char *name;
  char *type;
} DyModelAttr;

typedef struct {
  char *name;            /* "GSI1" */
  gboolean local;        /* an LSI (shares the table's partition key) */
  DyModelAttr partition;
  DyModelAttr sort;      /* name NULL when the index has no sort key */
  char *projection;      /* "ALL", "KEYS_ONLY" or "INCLUDE" */
  GPtrArray *non_key;    /* of char*: INCLUDE's attributes */
} DyModelIndex;

typedef struct {
  char *name;
  DyModelAttr partition;
  DyModelAttr sort;      /* name NULL when the table has no sort key */
  GPtrArray *attrs;      /* of DyModelAttr*: the table's non-key attributes */
  GPtrArray *indexes;    /* of DyModelIndex* */
  char *billing_mode;    /* "PAY_PER_REQUEST" or "PROVISIONED"; NULL unset */
  gint64 rcu, wcu;       /* provisioned capacity; 0 unset */
  json_t *items;         /* array of items in DynamoDB JSON; never NULL */
  json_t *extra;         /* the table's members this model does not read, kept for writing back */
} DyModelTable;

/* A key attribute's template, e.g. PK = "WS#{workspaceId}". */
typedef struct {
  char *attr;
  DyTemplate *tpl;
} DyModelKey;

/* The largest request rate (per second) a model holds, so that every estimate stays finite. */
#define DY_RATE_MAX 1e9

typedef struct {
  char *name;
  char *table;           /* the table it lives in */
  GPtrArray *attrs;      /* of DyModelAttr* */
  GPtrArray *keys;       /* of DyModelKey*: templates of key attributes (table's and indexes') */
  GHashTable *max_lengths; /* template field -> GUINT_TO_POINTER (its longest value in bytes) */
  json_t *extra;         /* facet members not read (e.g. KeyAttributeAlias), kept for writing */
  /* For estimates (x-dynoscope.entities.<Facet>): */
  double write_rate;     /* writes per second the user expects (at most DY_RATE_MAX); 0 unset */
  gboolean write_transactional; /* written in transactions (twice the units) */
  gint64 per_collection; /* items of this entity in the biggest item collection; 0: the sample's */
  gint64 item_size;      /* bytes of one item when there are no sample items; 0 unset */
} DyModelEntity;

typedef enum {
  DY_ORDER_NONE,
  DY_ORDER_ASCENDING,
  DY_ORDER_DESCENDING,
} DyModelOrder;

typedef struct {
  char *name;            /* "projects of a workspace, newest first" */
  char *entity;
  char *index;           /* NULL: the table itself */
  GPtrArray *inputs;     /* of char*: attribute (template field) names the caller knows */
  GHashTable *examples;  /* input name -> example value, for rendered requests */
  gboolean many;         /* many items (Query) rather than one (GetItem) */
  DyModelOrder order;
  /* Optional sort-key condition on a range: the input names bounding it. */
  char *range_from, *range_to;
  GPtrArray *filters;    /* of char*: non-key attributes the pattern filters on */
  /* For estimates: */
  double rate;           /* requests per second the user expects (at most DY_RATE_MAX); 0 unset */
  gint64 items;          /* items one request of a "many" pattern returns; 0: the sample's */
  gboolean consistent;   /* strongly consistent reads (ConsistentRead true) */
  gboolean transactional; /* read in TransactGetItems (twice the units) */
} DyModelPattern;

typedef struct {
  char *name;
  char *author;
  char *description;
  GPtrArray *tables;     /* of DyModelTable* */
  GPtrArray *entities;   /* of DyModelEntity* */
  GPtrArray *patterns;   /* of DyModelPattern* */
  json_t *extra;         /* top-level members not read, kept for writing back */
  DyPrices *prices;      /* the prices estimates use, edits included; never NULL */
} DyModel;

DyModel *dy_model_new (const char *name);
void dy_model_free (DyModel *model);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyModel, dy_model_free)

DyModelTable *dy_model_table_new (const char *name);
DyModelIndex *dy_model_index_new (const char *name);
DyModelEntity *dy_model_entity_new (const char *name, const char *table);
DyModelPattern *dy_model_pattern_new (const char *name, const char *entity);

/* Adds a template to ENTITY for key attribute ATTR; fails on a malformed template. */
gboolean dy_model_entity_set_key (DyModelEntity *entity, const char *attr, const char *tpl,
                                  GError **error);

DyModelTable *dy_model_find_table (const DyModel *model, const char *name);
DyModelEntity *dy_model_find_entity (const DyModel *model, const char *name);
DyModelIndex *dy_model_table_find_index (const DyModelTable *table, const char *name);
const DyModelKey *dy_model_entity_find_key (const DyModelEntity *entity, const char *attr);

/* Which of a table's or index's key attributes NAME is: "PK"/"SK" style roles. */
void dy_model_key_names (const DyModelTable *table, const DyModelIndex *index,
                         const char **partition, const char **sort);

G_END_DECLS
