/* engine-test-util.h: helpers shared by the engine tests: requests written as single-quoted
 * JSON, calls through ddb_engine_call that must succeed or fail with a given DynamoDB error,
 * JSON comparison and temporary database directories. */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/error.h"
#include "engine/engine.h"

G_BEGIN_DECLS

/* Any JSON value written with single quotes (printf format); fails the test if invalid. */
json_t *etu_json (const char *fmt, ...) G_GNUC_PRINTF (1, 2);

/* An engine on ":memory:". */
DdbEngine *etu_engine_new (void);

/* Runs `op` with `req` (not consumed); it must succeed. Returns the response. */
json_t *etu_call_ok (DdbEngine *e, const char *op, json_t *req);

/* Runs `op` with `req` (not consumed); it must fail with `code` and exactly `message` (NULL:
 * any message). Returns the error's extra members (NULL when none). */
json_t *etu_call_fails (DdbEngine *e, const char *op, json_t *req, DdbErrorCode code,
                        const char *message);

/* The same with the request written as single-quoted JSON (printf format). */
json_t *etu_ok (DdbEngine *e, const char *op, const char *fmt, ...) G_GNUC_PRINTF (3, 4);
json_t *etu_fails (DdbEngine *e, const char *op, DdbErrorCode code, const char *message,
                   const char *fmt, ...) G_GNUC_PRINTF (5, 6);

/* Asserts that `got` (may be NULL) equals the JSON written with single quotes in `expected`. */
void etu_assert_json (json_t *got, const char *expected);

/* CreateTable of an on-demand table keyed by the attribute `hash` of `type` ("S", "N", "B"). */
void etu_create_table (DdbEngine *e, const char *table, const char *hash, const char *type);

/* PutItem of an item (single-quoted DynamoDB JSON) into `table`; the response must be {}. */
void etu_put (DdbEngine *e, const char *table, const char *item);

/* A new temporary directory named from `tmpl` ("name-XXXXXX"), and its removal with all it
 * holds (a database leaves -wal and -shm files beside it). */
char *etu_tmp_dir (const char *tmpl);
void etu_remove_tree (const char *path);

/* TEXT as one gzip member. */
GBytes *etu_gzip (const char *text);

G_END_DECLS
