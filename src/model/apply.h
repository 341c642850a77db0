/* apply.h: a model made real on a connection: its tables created as the model defines them
 * (key schema, indexes with their projections, billing mode), then filled with its sample items
 * or with generated ones (generate.h). GTK-free and silent: progress goes to a callback, faults
 * to a GError, so that the CLI and the app's Model window share it. */
#pragma once

#include "backend/backend.h"
#include "model/model.h"

G_BEGIN_DECLS

#define DY_APPLY_ERROR (dy_apply_error_quark ())

typedef enum {
  DY_APPLY_ERROR_MODEL, /* the model cannot be applied as it is (no tables, a table without a
                         * partition key, an index without its key, sample items without a key
                         * or with one key twice);
                         * nothing was created */
} DyApplyErrorCode;

GQuark dy_apply_error_quark (void);

/* The seed of the generated items dy_model_apply writes: the same model gives the same data. */
#define DY_APPLY_SEED 20261202u

/* Provisioned capacity a PROVISIONED table or index gets when the model gives none. */
#define DY_APPLY_DEFAULT_CAPACITY 5

typedef enum {
  DY_APPLY_NONE = 0,
  /* A table that exists already (ResourceInUseException) is written into instead of failing. */
  DY_APPLY_EXISTING_OK = 1 << 0,
} DyApplyFlags;

/* Called with WRITTEN 0 before TABLE is created, then after each batch written, and once its
 * WRITTEN equals TOTAL. */
typedef void (*DyApplyProgress) (const char *table, guint64 written, guint64 total,
                                 gpointer user_data);

/* TABLE's CreateTable request: AttributeDefinitions for each key attribute of the table and its
 * indexes, KeySchema, GlobalSecondaryIndexes and LocalSecondaryIndexes with their Projection
 * (INCLUDE with its NonKeyAttributes), BillingMode (PAY_PER_REQUEST when the model gives none)
 * and, for PROVISIONED, ProvisionedThroughput on the table and on each GSI. Built and checked by
 * the backend's table requests (backend/table-requests.h), as the app's New Table builds its
 * own: NULL with their error (names, types, index limits) when DynamoDB would refuse it. New
 * reference. */
json_t *dy_model_create_table_request (const DyModel *model, const DyModelTable *table,
                                       GError **error);

/* The items dy_model_apply writes into TABLE: its sample items (ITEMS_PER_ENTITY 0) or
 * ITEMS_PER_ENTITY generated ones per entity (dy_model_generate with DY_APPLY_SEED). New
 * reference, NULL with ERROR set when they cannot be generated. */
json_t *dy_model_apply_items (const DyModel *model, const DyModelTable *table,
                              guint items_per_entity, GError **error);

/* Creates each table of MODEL on BACKEND, waits until it and its indexes are ACTIVE and writes
 * its items (dy_model_apply_items), 25 a BatchWriteItem with UnprocessedItems sent again. Every
 * table's items are made and checked (each has the table's key attributes, no two the same
 * key) before anything is created, so that a model fault (DY_APPLY_ERROR, DY_GENERATE_ERROR)
 * leaves nothing behind. PROGRESS is called in the calling thread; run it in a worker thread
 * to keep a user interface responsive. A DynamoDB error comes back as the backend gave it
 * (DDB_ERROR, its name from ddb_backend_error_name, its message as DynamoDB sent it); the table
 * it concerns is the last one PROGRESS was called with. A table that exists fails with
 * ResourceInUseException unless FLAGS has DY_APPLY_EXISTING_OK. What was created and written
 * before an error or a cancel stays. */
gboolean dy_model_apply (DdbBackend *backend, const DyModel *model, guint items_per_entity,
                         DyApplyFlags flags, DyApplyProgress progress, gpointer user_data,
                         GCancellable *cancellable, GError **error);

G_END_DECLS
