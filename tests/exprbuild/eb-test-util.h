/* eb-test-util.h: helpers shared by the expression builder's tests: rows built from short
 * texts, rendering that must succeed, and an independent reading of a rendered request with
 * core's parser (the check a DynamoDB endpoint makes). */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "exprbuild/exprbuild.h"

G_BEGIN_DECLS

/* JSON written with single quotes; fails the test if invalid. */
json_t *ebt_json (const char *single_quoted);
/* Asserts that GOT equals the JSON written with single quotes. */
void ebt_assert_json (json_t *got, const char *expected);

/* A path read by ddb_eb_path_parse; fails the test if refused. Clear with ddb_path_clear. */
DdbPath ebt_path (const char *text);
/* Operand nodes: a path (as ebt_path reads it), an S value, an N value, any value as DynamoDB
 * JSON with single quotes. */
DdbNode *ebt_p (const char *path);
DdbNode *ebt_s (const char *s);
DdbNode *ebt_n (const char *number);
DdbNode *ebt_v (const char *ddb_json);

/* ddb_eb_render into {"TableName": "T"}; fails the test if refused. */
json_t *ebt_render (const DdbEbModel *model);

/* REQUEST's expressions parsed as DynamoDB parses them (every one with the request's maps, then
 * the unused check); fails the test on any error. */
typedef struct {
  GHashTable *names;
  GHashTable *values;
  DdbNode *key;
  DdbNode *condition;
  DdbProjection *projection;
  DdbUpdate *update;
} EbtParsed;

void ebt_parse (json_t *request, EbtParsed *out);
void ebt_parsed_clear (EbtParsed *p);

/* Asserts that the two parsed requests evaluate the same on each of ITEMS (DynamoDB JSON items
 * with single quotes, NULL-terminated): conditions give the same truth, updates the same item,
 * projections the same attributes. */
void ebt_assert_same_behaviour (const EbtParsed *a, const EbtParsed *b, const char *const *items);

G_END_DECLS
