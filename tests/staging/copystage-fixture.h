/* copystage-fixture.h: what the copy-staging tests share (test-copystage.c,
 * test-copystage-files.c): an engine-backed backend holding the target tables, calls, scans,
 * the staged changes, the item corpus and the commit. */
#pragma once

#include <jansson.h>

#include "backend/backend.h"
#include "staging/changeset.h"

G_BEGIN_DECLS

#define CONN "conn"

/* The call's response (the request is taken); fails the test on an error. */
json_t *cs_call_ok (DdbBackend *be, const char *op, json_t *req);
/* "Target": pk (S) + sk (N), a GSI on email (S), an LSI on rank (N); "Flat": id (S). */
DdbBackend *cs_target_backend (void);
void cs_put_item (DdbBackend *be, const char *table, const DdbValue *item);
/* Every item of TABLE (a Scan). */
GPtrArray *cs_scan_all (DdbBackend *be, const char *table);
/* The open changes of CONN in TABLE (NULL: every table). */
GPtrArray *cs_open_changes (DdbStaging *st, const char *table);
/* A single-quoted DynamoDB JSON value. */
DdbValue *cs_value_of (const char *json);
/* An empty array of items (freed with it). */
GPtrArray *cs_items_new (void);
/* N items of the generated corpus (item-corpus.h) keyed pk (S) + sk (N), which "Target" takes. */
GPtrArray *cs_corpus (guint n, guint32 seed);
/* Commits CONN's changes: COMMITTED committed, CONFLICTS conflicts, none failed. */
void cs_commit (DdbStaging *st, DdbBackend *be, guint committed, guint conflicts);

G_END_DECLS
