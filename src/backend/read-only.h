/* read-only.h: which DynamoDB requests only read, and the refusal a read-only connection gives
 * the others (ddb_backend_set_read_only in backend.h). Reads are allowed by list: the operations
 * of DynamoDB's API reference (and of DynamoDB Streams') that change nothing, and PartiQL
 * requests all of whose statements parse as SELECTs; any other name, known or not, may write. */
#pragma once

#include <glib.h>
#include <jansson.h>

G_BEGIN_DECLS

/* Our own refusals, never a DynamoDB exception that a server could send. */
#define DDB_BACKEND_ERROR (ddb_backend_error_quark ())

typedef enum {
  DDB_BACKEND_ERROR_READ_ONLY, /* the connection is read-only and the request may write */
} DdbBackendErrorCode;

GQuark ddb_backend_error_quark (void);

/* Whether OPERATION ("PutItem", or with its API's target prefix "DynamoDB_20120810.PutItem")
 * with REQUEST (borrowed; NULL: the operation whatever its request) may write: TRUE for every
 * write of the API reference, for a name not known to only read, and for a PartiQL request
 * (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction) with a statement that is not a
 * SELECT or does not parse. On TRUE, WHY (may be NULL) is set to the refusal a read-only
 * connection gives: DDB_BACKEND_ERROR_READ_ONLY, its message naming the operation (and the
 * statement's kind). Thread-safe; sends nothing. */
gboolean ddb_backend_operation_writes (const char *operation, json_t *request, GError **why);

/* Sets ERROR to the refusal of WHAT ("import", "snapshot base"), a write made without a DynamoDB
 * request, on a read-only connection. */
void ddb_backend_set_read_only_error (GError **error, const char *what);

G_END_DECLS
