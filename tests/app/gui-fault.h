/* gui-fault.h: the fault server of tests/lib/dynoscope_testlib.py (FaultServer, started with
 * python3 -c) for the GUI tests that drive the app against an endpoint that misbehaves
 * (retry-gui, stall-gui). Each of its answers is scripted (POST /__script: failures first, then
 * the answer of each operation); GET /__stats says how many requests came, how many it is still
 * answering, and the last body of each operation. */
#pragma once

#include <glib.h>
#include <jansson.h>

G_BEGIN_DECLS

/* Starts the server (it dies with the test) and returns its URL. */
const char *gui_fault_start (void);
void gui_fault_stop (void);

/* The server's answer to METHOD PATH with BODY (may be NULL), a JSON object (new reference). */
json_t *gui_fault_control (const char *method, const char *path, const char *body);

/* An item {pk: PK, status: STATUS} in DynamoDB JSON (new reference). */
json_t *gui_fault_item (const char *pk, const char *status);
/* A Scan's page of the items PK1 and PK2, its LastEvaluatedKey PK2's key when MORE. */
json_t *gui_fault_page (const char *pk1, const char *pk2, gboolean more);
/* The answer of each operation on one table TABLE (key pk, a string), its Scan's page SCAN
 * (taken) and a PartiQL page of one item with a NextToken. */
json_t *gui_fault_table_answers (const char *table, json_t *scan);

/* The server's next answers: the failures named by FAILURES (NULL-terminated, may be NULL:
 * "500", "throttle", "truncated", "reset", "trickle", "silent"...), then ANSWERS (taken), the
 * answer of each operation. Counts from zero again. */
void gui_fault_script (const char *const *failures, json_t *answers);
/* The same failure N times (a NULL-terminated array; free with g_strfreev). */
char **gui_fault_times (const char *failure, guint n);

/* GET /__stats (new reference). */
json_t *gui_fault_stats (void);
/* The DynamoDB requests received since the last script. */
gint64 gui_fault_requests (void);
/* The DynamoDB requests the server is answering now (a silent or trickling answer is one until
 * the client goes). */
gint64 gui_fault_open (void);

G_END_DECLS
