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

/* The most suffixes a fan-out program queries. */
#define DDB_CODEGEN_FANOUT_MAX 1000

/* A fan-out Query for LANG, newly allocated: the Query QUERY_REQUEST once per suffix of a
 * sharded partition key, the value of PLACEHOLDER (":pk", an S in its ExpressionAttributeValues)
 * then PREFIX followed by the suffix: FIRST .. FIRST + N_SUFFIXES - 1, padded with zeros to WIDTH
 * digits (0: not padded), e.g. "TENANT#bigco#01" … "TENANT#bigco#10". Each Query follows
 * LastEvaluatedKey to the end; they run in parallel where the language makes it natural (Python
 * threads, JavaScript Promise.all, Go goroutines, a Java parallel stream, Rust tokio tasks; the
 * bash program runs them one after another). The merged items are printed in suffix order,
 * each shard's items in the order its Query returns them (by its sort key, in ScanIndexForward's
 * direction): not sorted across shards, which would need the sort key's type. The bash program
 * prints one JSON array per suffix. Refused with DDB_ERROR_VALIDATION: a request
 * ddb_codegen_check refuses, a PLACEHOLDER that is not an S of ExpressionAttributeValues,
 * N_SUFFIXES outside 1 .. DDB_CODEGEN_FANOUT_MAX, a last suffix past G_MAXUINT, WIDTH past 10,
 * a key past 2048 bytes, ExclusiveStartKey (a shard's own) and Select COUNT. */
char *ddb_codegen_fanout_program (DdbLang lang, json_t *query_request, const char *placeholder,
                                  const char *prefix, guint first, guint n_suffixes,
                                  guint width, const DdbCodegenTarget *target, GError **error);

G_END_DECLS
