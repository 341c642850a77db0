/* codegen.h: a DynamoDB request as a complete program a user can paste and run, for the AWS CLI
 * v2 (bash), Python (boto3 client), JavaScript (AWS SDK v3), Java (SDK v2), Go (SDK v2) and Rust
 * (aws-sdk-dynamodb). Values stay exact in every language (numbers as strings of all their
 * digits, binary as the very bytes, sets as sets); reads print what they read and page through
 * LastEvaluatedKey; batch snippets send UnprocessedItems/UnprocessedKeys again; writes print the
 * response. No credential is ever written into a program: a profile and a region are named. */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "codegen/quote.h"

G_BEGIN_DECLS

/* The connection a program targets; every member may be NULL (the SDK's default). */
typedef struct {
  const char *endpoint_url; /* e.g. "http://127.0.0.1:8000": the SDK's endpoint setting */
  const char *profile;      /* a profile of ~/.aws/config */
  const char *region;       /* e.g. "eu-west-1" */
} DdbCodegenTarget;

/* The operations codegen writes: GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan,
 * BatchGetItem, BatchWriteItem, TransactWriteItems, TransactGetItems, ExecuteStatement,
 * BatchExecuteStatement, ExecuteTransaction, and CreateTable, UpdateTable, UpdateTimeToLive,
 * DeleteTable. NULL-terminated. */
const char *const *ddb_codegen_operations (void);

/* Checks REQUEST as DynamoDB checks a request before it looks at the table: members of the right
 * JSON types and within their constraints, AttributeValues valid, every expression parsed by our
 * parser, no unused placeholder, batch and transaction sizes. Fails with DDB_ERROR and
 * DynamoDB's exception and message (DDB_ERROR_UNKNOWN_OPERATION for an operation not listed
 * above). A member DynamoDB does not define is refused too (a program cannot carry it). */
gboolean ddb_codegen_check (const char *operation, json_t *request, GError **error);

/* The program for LANG, newly allocated, after ddb_codegen_check. */
char *ddb_codegen_program (DdbLang lang, const char *operation, json_t *request,
                           const DdbCodegenTarget *target, GError **error);

G_END_DECLS
