/* read-private.h: what the checks of a Query or Scan (read-ops.c) hand the reading of its page
 * (read-page.c). Private to them. */
#pragma once

#include "engine/engine-private.h"
#include "engine/request.h"
#include "engine/table.h"

G_BEGIN_DECLS

typedef enum {
  SELECT_NONE = -2, /* absent */
  SELECT_SPECIFIC = 0,
  SELECT_COUNT,
  SELECT_ALL,
  SELECT_ALL_PROJECTED,
} Select;

typedef struct {
  gboolean is_query;
  const char *table_name;
  const char *index_name;
  int select;
  gint64 limit;
  gboolean has_limit;
  gboolean consistent;
  gboolean forward;
  DdbReturnCapacity rcc;
  gint64 segment, total_segments;
  gboolean has_segment, has_total_segments;

  DdbReqExpr rx;
  gboolean rx_ready;
  DdbNode *key_cond; /* KeyConditionExpression or KeyConditions */
  DdbNode *filter;   /* FilterExpression or QueryFilter/ScanFilter */
  gboolean filter_legacy;
  DdbProjection *projection; /* ProjectionExpression or AttributesToGet */

  DdbTableDef *def;
  const DdbIndexDef *index;
  const DdbKeyDef *read_key; /* the key schema read: the index's or the table's */
  DdbKeyCondition kc;
  gboolean kc_ready;
  DdbValue *start;
  gboolean fetch; /* LSI read that needs the whole item from the table */
} ReadRequest;

/* The paths the filter names (borrowed from it). */
GPtrArray *read_filter_paths (const ReadRequest *r);
/* P starts with the attribute NAME (NULL: never). */
gboolean read_path_head_is (const DdbPath *p, const char *name);
/* The response of the request's page (checked and resolved against its table). */
json_t *read_run_page (ReadRequest *r, DdbEngine *e, GError **error);

G_END_DECLS
