/* table-requests.h: the requests of table management, built from a description of a table and
 * checked as DynamoDB checks them (names, key types, index counts, projections, throughput):
 * CreateTable (and UpdateTimeToLive after it for a TTL attribute), the UpdateTable calls that turn
 * a described table into an edited one (one GSI created or deleted per call, as DynamoDB allows;
 * billing mode, streams and TTL each in their own call) and DeleteTable; and running such steps
 * through a backend, each waiting for the table and its index to become ACTIVE (or gone).
 * GTK-free: the app's dialogs and the CLI build on it. */
#pragma once

#include <gio/gio.h>
#include <jansson.h>

#include "backend/backend.h"

G_BEGIN_DECLS

typedef enum {
  DDB_BILLING_PAY_PER_REQUEST,
  DDB_BILLING_PROVISIONED,
} DdbBillingMode;

typedef enum {
  DDB_PROJECTION_ALL,
  DDB_PROJECTION_KEYS_ONLY,
  DDB_PROJECTION_INCLUDE,
} DdbProjectionType;

typedef enum {
  DDB_STREAM_OFF,
  DDB_STREAM_KEYS_ONLY,
  DDB_STREAM_NEW_IMAGE,
  DDB_STREAM_OLD_IMAGE,
  DDB_STREAM_NEW_AND_OLD_IMAGES,
} DdbStreamView;

/* A secondary index. For a local one pk_name is NULL or the table's partition key. */
typedef struct {
  char *name;
  char *pk_name, *pk_type; /* type "S", "N" or "B" */
  char *sk_name, *sk_type; /* NULL: no sort key */
  DdbProjectionType projection;
  GPtrArray *non_key_attributes; /* char *, for INCLUDE */
  gint64 rcu, wcu;               /* a GSI of a provisioned table */
} DdbIndexSpec;

typedef struct {
  char *name;
  char *pk_name, *pk_type;
  char *sk_name, *sk_type; /* NULL: no sort key */
  DdbBillingMode billing;
  gint64 rcu, wcu; /* provisioned */
  GPtrArray *gsis; /* DdbIndexSpec */
  GPtrArray *lsis; /* DdbIndexSpec */
  DdbStreamView stream;
  char *ttl_attribute; /* NULL: TTL off */
} DdbTableSpec;

DdbIndexSpec *ddb_index_spec_new (const char *name, const char *pk_name, const char *pk_type,
                                  const char *sk_name, const char *sk_type);
DdbIndexSpec *ddb_index_spec_copy (const DdbIndexSpec *index);
void ddb_index_spec_free (DdbIndexSpec *index);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbIndexSpec, ddb_index_spec_free)

/* An on-demand table without indexes, stream or TTL. */
DdbTableSpec *ddb_table_spec_new (const char *name, const char *pk_name, const char *pk_type,
                                  const char *sk_name, const char *sk_type);
DdbTableSpec *ddb_table_spec_copy (const DdbTableSpec *spec);
void ddb_table_spec_free (DdbTableSpec *spec);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbTableSpec, ddb_table_spec_free)

/* The index named NAME among the GSIs (or LSIs), or NULL. */
DdbIndexSpec *ddb_table_spec_find_gsi (const DdbTableSpec *spec, const char *name);
/* Removes the GSI named NAME; FALSE when there is none. */
gboolean ddb_table_spec_remove_gsi (DdbTableSpec *spec, const char *name);

/* "KEYS_ONLY" ... and back; NULL / FALSE for what is not one. */
const char *ddb_stream_view_name (DdbStreamView view);
gboolean ddb_stream_view_from_name (const char *name, DdbStreamView *view);
const char *ddb_projection_name (DdbProjectionType type);

/* Checks SPEC as DynamoDB checks a CreateTable: G_IO_ERROR_INVALID_ARGUMENT naming the fault. */
gboolean ddb_table_spec_validate (const DdbTableSpec *spec, GError **error);
/* The same for a table name alone (3-255 of a-z A-Z 0-9 _ . -). */
gboolean ddb_table_name_validate (const char *name, GError **error);

/* SPEC as it is, from DescribeTable's "Table" and DescribeTimeToLive's "TimeToLiveDescription"
 * (may be NULL: TTL off). NULL with G_IO_ERROR_INVALID_DATA for a description that lacks keys. */
DdbTableSpec *ddb_table_spec_from_description (json_t *table, json_t *ttl, GError **error);

/* What to wait for after a step before the next. */
typedef enum {
  DDB_TABLE_WAIT_NONE,
  DDB_TABLE_WAIT_ACTIVE,       /* the table ACTIVE */
  DDB_TABLE_WAIT_INDEX_ACTIVE, /* the table and index `index` ACTIVE */
  DDB_TABLE_WAIT_INDEX_GONE,   /* the table ACTIVE, index `index` no longer listed */
  DDB_TABLE_WAIT_GONE,         /* DescribeTable answers ResourceNotFoundException */
} DdbTableWait;

typedef struct {
  char *operation; /* "CreateTable", "UpdateTable", "UpdateTimeToLive", "DeleteTable" */
  json_t *request;
  DdbTableWait wait;
  char *index; /* the index waited for */
} DdbTableStep;

void ddb_table_step_free (DdbTableStep *step);

/* The steps creating SPEC (validated first): CreateTable, then UpdateTimeToLive when SPEC has a
 * TTL attribute. A GPtrArray of DdbTableStep, or NULL with the error. */
GPtrArray *ddb_table_create_steps (const DdbTableSpec *spec, GError **error);
/* The steps turning CURRENT (as described) into EDITED, in the order they must run: GSI
 * deletions, the billing mode or throughput, GSI creations, the stream (a new view type is a
 * disable, then an enable), TTL. An empty array when nothing changed. NULL with
 * G_IO_ERROR_INVALID_ARGUMENT for what UpdateTable cannot do (a new name, key schema or LSI, a
 * changed GSI, another TTL attribute while one is on). */
GPtrArray *ddb_table_update_steps (const DdbTableSpec *current, const DdbTableSpec *edited,
                                   GError **error);
/* The one DeleteTable step, waiting for the table to be gone. */
GPtrArray *ddb_table_delete_steps (const char *name, GError **error);

/* Called on the running thread: step N (from 0) of the steps is waiting; STATUS is what
 * DescribeTable said ("CREATING", "UPDATING", index status), NULL right after sending. */
typedef void (*DdbTableProgressFunc) (guint n, const char *status, gpointer user_data);

/* Sends STEPS in order through BACKEND, waiting after each as it says, polling DescribeTable
 * every POLL_MS milliseconds. *N_DONE (may be NULL) counts the steps that succeeded. On a
 * DynamoDB error FALSE with it and *EXTRA (may be NULL) as ddb_backend_call's response. */
gboolean ddb_table_steps_run (DdbBackend *backend, GPtrArray *steps, guint poll_ms,
                              DdbTableProgressFunc progress, gpointer user_data,
                              GCancellable *cancellable, guint *n_done, json_t **extra,
                              GError **error);

G_END_DECLS
