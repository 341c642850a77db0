/* legacy.h: the pre-expression request parameters that older SDKs and the AWS CLI still send
 * (Expected, KeyConditions, QueryFilter, ScanFilter, AttributeUpdates, AttributesToGet),
 * converted into the expression trees of core/expr.h, with DynamoDB's messages. */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/expr.h"

G_BEGIN_DECLS

/* Expected (+ ConditionalOperator AND|OR, may be NULL) -> a condition. */
DdbNode *ddb_legacy_expected (json_t *expected, const char *conditional_operator, GError **error);

/* QueryFilter / ScanFilter (+ ConditionalOperator) -> a condition. */
DdbNode *ddb_legacy_filter (json_t *filter, const char *conditional_operator, GError **error);

/* KeyConditions -> a condition that ddb_key_condition_analyze accepts. */
DdbNode *ddb_legacy_key_conditions (json_t *key_conditions, GError **error);

/* AttributeUpdates -> an update (PUT = SET, DELETE without value = REMOVE, ADD of a number or set
 * = ADD, ADD of a list = append, DELETE with a set = DELETE). */
DdbUpdate *ddb_legacy_attribute_updates (json_t *updates, GError **error);

/* AttributesToGet -> a projection (names taken literally, no paths). */
DdbProjection *ddb_legacy_attributes_to_get (json_t *names, GError **error);

/* DynamoDB refuses a request that mixes the two styles: fails with "Can not use both expression
 * and non-expression parameters in the same request: Non-expression parameters: {...}
 * Expression parameters: {...}" when `req` has members of both kinds. */
gboolean ddb_legacy_check_not_mixed (json_t *req, GError **error);

G_END_DECLS
