/* read-ops.c: Query and Scan: the request's checks with DynamoDB's messages, before and
 * against the table; read-page.c then reads its page. */
#include <string.h>

#include "core/error.h"
#include "core/keycodec.h"
#include "engine/legacy.h"
#include "engine/partiql-private.h"
#include "engine/read-private.h"

/* DynamoDB lists the allowed values in this order in its enum message. */
static const char *const select_names[]
    = { "SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", NULL };
static const char *const conditional_operators[] = { "OR", "AND", NULL };

static void
read_request_clear (ReadRequest *r)
{
  if (r->rx_ready)
    ddb_req_expr_clear (&r->rx);
  g_clear_pointer (&r->key_cond, ddb_node_free);
  g_clear_pointer (&r->filter, ddb_node_free);
  g_clear_pointer (&r->projection, ddb_projection_free);
  g_clear_pointer (&r->def, ddb_table_def_free);
  if (r->kc_ready)
    ddb_key_condition_clear (&r->kc);
  g_clear_pointer (&r->start, ddb_value_free);
}

static gboolean
has_member (json_t *req, const char *name)
{
  json_t *m = json_object_get (req, name);

  /* DynamoDB treats a member set to null as absent. */
  return m != NULL && !json_is_null (m);
}

/* ---- Checks before the table is read ------------------------------------------------- */

static gboolean
read_members (ReadRequest *r, json_t *req, GError **error)
{
  if (has_member (req, "IndexName"))
    {
      r->index_name = ddb_req_table_name (req, "IndexName", error);
      if (r->index_name == NULL)
        return FALSE;
    }
  r->select = ddb_req_enum (req, "Select", select_names, SELECT_NONE, error);
  if (r->select == -1)
    return FALSE;
  if (!ddb_req_int (req, "Limit", 1, G_MAXINT32, &r->limit, &r->has_limit, error))
    return FALSE;
  if (!ddb_req_bool (req, "ConsistentRead", FALSE, &r->consistent, error))
    return FALSE;
  if (!ddb_req_return_capacity (req, &r->rcc, error))
    return FALSE;
  if (ddb_req_enum (req, "ConditionalOperator", conditional_operators, 0, error) == -1)
    return FALSE;
  if (r->is_query)
    {
      if (!ddb_req_bool (req, "ScanIndexForward", TRUE, &r->forward, error))
        return FALSE;
    }
  else
    {
      r->forward = TRUE;
      if (!ddb_req_int (req, "Segment", 0, 999999, &r->segment, &r->has_segment, error))
        return FALSE;
      if (!ddb_req_int (req, "TotalSegments", 1, 1000000, &r->total_segments,
                        &r->has_total_segments, error))
        return FALSE;
    }
  return TRUE;
}

/* ExpressionAttributeNames/Values without an expression that could use them. */
static gboolean
check_placeholders_have_expressions (ReadRequest *r, json_t *req, GError **error)
{
  gboolean has_kce = r->is_query && has_member (req, "KeyConditionExpression");
  gboolean has_fe = has_member (req, "FilterExpression");
  gboolean has_pe = has_member (req, "ProjectionExpression");

  if (has_member (req, "ExpressionAttributeNames") && !has_kce && !has_fe && !has_pe)
    return ddb_set_validation_error (
        error, "ExpressionAttributeNames can only be specified when using expressions");
  if (has_member (req, "ExpressionAttributeValues") && !has_kce && !has_fe)
    return ddb_set_validation_error (error,
                                     "ExpressionAttributeValues can only be specified when using "
                                     "expressions: %s",
                                     r->is_query
                                         ? "FilterExpression and KeyConditionExpression are null"
                                         : "FilterExpression is null");
  return TRUE;
}

static gboolean
check_segments (ReadRequest *r, GError **error)
{
  if (r->has_segment && !r->has_total_segments)
    return ddb_set_validation_error (
        error, "The TotalSegments parameter is required but was not present in the "
               "request when Segment parameter is present");
  if (r->has_total_segments && !r->has_segment)
    return ddb_set_validation_error (
        error, "The Segment parameter is required but was not present in the request "
               "when parameter TotalSegments is present");
  if (r->has_segment && r->segment >= r->total_segments)
    return ddb_set_validation_error (
        error,
        "The Segment parameter is zero-based and must be less than parameter "
        "TotalSegments: Segment: %" G_GINT64_FORMAT " is not less than "
        "TotalSegments: %" G_GINT64_FORMAT,
        r->segment, r->total_segments);
  return TRUE;
}

static gboolean
check_select (ReadRequest *r, json_t *req, GError **error)
{
  const char *proj_member = has_member (req, "AttributesToGet")        ? "AttributesToGet"
                            : has_member (req, "ProjectionExpression") ? "ProjectionExpression"
                                                                       : NULL;

  switch (r->select)
    {
    case SELECT_SPECIFIC:
      if (proj_member == NULL)
        return ddb_set_validation_error (
            error, "Must specify the AttributesToGet or ProjectionExpression when "
                   "choosing to get SPECIFIC_ATTRIBUTES");
      break;
    case SELECT_COUNT:
      if (proj_member != NULL)
        return ddb_set_validation_error (
            error, "Cannot specify the %s when choosing to get only the Count", proj_member);
      break;
    case SELECT_ALL:
    case SELECT_ALL_PROJECTED:
      if (proj_member != NULL)
        return ddb_set_validation_error (error, "Cannot specify the %s when choosing to get %s",
                                         proj_member, select_names[r->select]);
      if (r->select == SELECT_ALL_PROJECTED && r->index_name == NULL)
        return ddb_set_validation_error (
            error, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an "
                   "IndexName");
      break;
    default:
      break;
    }
  return TRUE;
}

/* An optional string member; FALSE only when it is present and not a string. */
static gboolean
opt_string (json_t *req, const char *member, const char **out, GError **error)
{
  GError *local = NULL;

  *out = ddb_req_string (req, member, FALSE, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_expressions (ReadRequest *r, json_t *req, GError **error)
{
  const char *kce = NULL, *fe, *pe;
  json_t *legacy;

  if (r->is_query && !opt_string (req, "KeyConditionExpression", &kce, error))
    return FALSE;
  if (!opt_string (req, "FilterExpression", &fe, error)
      || !opt_string (req, "ProjectionExpression", &pe, error))
    return FALSE;

  if (r->is_query && kce == NULL && !has_member (req, "KeyConditions"))
    return ddb_set_validation_error (
        error, "Either the KeyConditions or KeyConditionExpression parameter must be "
               "specified in the request.");

  if (!ddb_req_expr_init (&r->rx, req, error))
    return FALSE;
  r->rx_ready = TRUE;

  if (kce != NULL)
    {
      r->key_cond = ddb_condition_parse (DDB_EXPR_KEY_CONDITION, kce, r->rx.ctx, error);
      if (r->key_cond == NULL)
        return FALSE;
    }
  if (fe != NULL)
    {
      r->filter = ddb_condition_parse (DDB_EXPR_FILTER, fe, r->rx.ctx, error);
      if (r->filter == NULL)
        return FALSE;
    }
  if (pe != NULL)
    {
      r->projection = ddb_projection_parse (pe, r->rx.ctx, error);
      if (r->projection == NULL)
        return FALSE;
    }
  if (!ddb_expr_context_check_unused (r->rx.ctx, error))
    return FALSE;

  if (r->is_query && r->key_cond == NULL)
    {
      r->key_cond = ddb_legacy_key_conditions (json_object_get (req, "KeyConditions"), error);
      if (r->key_cond == NULL)
        return FALSE;
    }
  legacy = json_object_get (req, r->is_query ? "QueryFilter" : "ScanFilter");
  if (r->filter == NULL)
    {
      GError *local = NULL;

      /* An empty filter is no filter; ConditionalOperator needs two or more conditions. */
      r->filter = ddb_legacy_filter (
          legacy, ddb_req_string (req, "ConditionalOperator", FALSE, NULL), &local);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      r->filter_legacy = r->filter != NULL;
    }
  legacy = json_object_get (req, "AttributesToGet");
  if (r->projection == NULL && legacy != NULL && !json_is_null (legacy))
    {
      r->projection = ddb_legacy_attributes_to_get (legacy, error);
      if (r->projection == NULL)
        return FALSE;
    }
  return TRUE;
}

/* ---- Checks against the table --------------------------------------------------------- */

/* Orders two key values of one type as DynamoDB does (the key codec's order). */
static int
key_compare (const DdbValue *a, const DdbValue *b)
{
  GByteArray *ea = g_byte_array_new (), *eb = g_byte_array_new ();
  int c;

  /* Both are validated key values (S, N or B), which always encode. */
  ddb_key_encode (a, ea, NULL);
  ddb_key_encode (b, eb, NULL);
  c = memcmp (ea->data, eb->data, MIN (ea->len, eb->len));
  if (c == 0)
    c = ea->len < eb->len ? -1 : ea->len > eb->len ? 1 : 0;
  g_byte_array_unref (ea);
  g_byte_array_unref (eb);
  return c;
}

static gboolean
sort_key_matches (const DdbKeyCondition *kc, const DdbValue *v)
{
  switch (kc->sk_op)
    {
    case DDB_SK_NONE:
      return TRUE;
    case DDB_SK_EQ:
      return key_compare (v, kc->sk[0]) == 0;
    case DDB_SK_LT:
      return key_compare (v, kc->sk[0]) < 0;
    case DDB_SK_LE:
      return key_compare (v, kc->sk[0]) <= 0;
    case DDB_SK_GT:
      return key_compare (v, kc->sk[0]) > 0;
    case DDB_SK_GE:
      return key_compare (v, kc->sk[0]) >= 0;
    case DDB_SK_BETWEEN:
      return key_compare (v, kc->sk[0]) >= 0 && key_compare (v, kc->sk[1]) <= 0;
    case DDB_SK_BEGINS_WITH:
      return v->type == kc->sk[0]->type && v->bytes.len >= kc->sk[0]->bytes.len
             && memcmp (v->bytes.data, kc->sk[0]->bytes.data, kc->sk[0]->bytes.len) == 0;
    default:
      return FALSE;
    }
}

/* A Query may only restart inside what its key condition selects. */
static gboolean
check_query_start_key (ReadRequest *r, GError **error)
{
  const DdbValue *hash = ddb_value_map_get (r->start, r->read_key->hash_name);
  gboolean same_hash = hash != NULL && ddb_value_equal (hash, r->kc.pk);

  if (r->kc.sk_op != DDB_SK_NONE)
    {
      const DdbValue *range = ddb_value_map_get (r->start, r->read_key->range_name);

      if (range == NULL || !sort_key_matches (&r->kc, range))
        return ddb_set_validation_error (
            error, "The provided starting key does not match the range key predicate");
      if (!same_hash)
        return ddb_set_validation_error (
            error, "The query can return at most one row and cannot be restarted");
    }
  else if (!same_hash)
    return ddb_set_validation_error (
        error, "The provided starting key is outside query boundaries based on "
               "provided conditions");
  return TRUE;
}

static void
collect_paths (const DdbNode *n, GPtrArray *out)
{
  if (n == NULL)
    return;
  if (n->kind == DDB_NODE_PATH)
    g_ptr_array_add (out, (gpointer) &n->path);
  for (guint i = 0; i < n->n_args; i++)
    collect_paths (n->args[i], out);
}

GPtrArray *
read_filter_paths (const ReadRequest *r)
{
  GPtrArray *paths = g_ptr_array_new ();

  collect_paths (r->filter, paths);
  return paths;
}

gboolean
read_path_head_is (const DdbPath *p, const char *name)
{
  return name != NULL && p->n > 0 && p->elems[0].name != NULL
         && strcmp (p->elems[0].name, name) == 0;
}

/* Document paths into a key attribute make no sense: keys are scalars. */
static gboolean
check_key_paths (const ReadRequest *r, const DdbPath *const *paths, guint n, GError **error)
{
  const DdbKeyDef *tk = &r->def->key;
  const char *table_keys[] = { tk->hash_name, tk->range_name };

  for (guint k = 0; k < G_N_ELEMENTS (table_keys); k++)
    for (guint i = 0; i < n; i++)
      if (paths[i]->n > 1 && read_path_head_is (paths[i], table_keys[k]))
        return ddb_set_validation_error (
            error,
            "Key attributes must be scalars; list random access '[]' and map "
            "lookup '.' are not allowed: Key: %s",
            table_keys[k]);
  for (guint x = 0; r->def->indexes != NULL && x < r->def->indexes->len; x++)
    {
      const DdbIndexDef *ix = g_ptr_array_index (r->def->indexes, x);
      const char *index_keys[] = { ix->key.hash_name, ix->key.range_name };

      for (guint k = 0; k < G_N_ELEMENTS (index_keys); k++)
        for (guint i = 0; i < n; i++)
          if (paths[i]->n > 1 && read_path_head_is (paths[i], index_keys[k]))
            return ddb_set_validation_error (
                error,
                "Key attributes must be scalars; list random access '[]' and "
                "map lookup '.' are not allowed: IndexKey: %s",
                index_keys[k]);
    }
  return TRUE;
}

static gboolean
check_projection_key_paths (const ReadRequest *r, GError **error)
{
  const DdbPath **paths;
  gboolean ok;

  if (r->projection == NULL)
    return TRUE;
  paths = g_new (const DdbPath *, r->projection->n_paths + 1);
  for (guint i = 0; i < r->projection->n_paths; i++)
    paths[i] = &r->projection->paths[i];
  ok = check_key_paths (r, paths, r->projection->n_paths, error);
  g_free (paths);
  return ok;
}

/* A Query filter may not touch the key attributes it reads by. */
static gboolean
check_filter_not_on_key (const ReadRequest *r, GError **error)
{
  g_autoptr (GPtrArray) paths = read_filter_paths (r);
  const char *keys[] = { r->read_key->hash_name, r->read_key->range_name };

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    for (guint i = 0; i < paths->len; i++)
      if (read_path_head_is (g_ptr_array_index (paths, i), keys[k]))
        return ddb_set_validation_error (
            error,
            "%s can only contain non-primary key attributes: Primary key "
            "attribute: %s",
            r->filter_legacy ? "QueryFilter" : "Filter Expression", keys[k]);
  return TRUE;
}

static gboolean
index_projects (const DdbTableDef *def, const DdbIndexDef *ix, const char *name)
{
  if (ix->projection == DDB_PROJECTION_ALL)
    return TRUE;
  if (g_strcmp0 (name, def->key.hash_name) == 0 || g_strcmp0 (name, def->key.range_name) == 0
      || g_strcmp0 (name, ix->key.hash_name) == 0 || g_strcmp0 (name, ix->key.range_name) == 0)
    return TRUE;
  for (guint i = 0; ix->non_key_attributes != NULL && ix->non_key_attributes[i] != NULL; i++)
    if (strcmp (ix->non_key_attributes[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* Java's String.hashCode over the name's UTF-16 code units. */
static guint32
java_string_hash (const char *s)
{
  guint32 h = 0;

  for (const char *p = s; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c >= 0x10000)
        {
          h = 31 * h + (0xD800 + ((c - 0x10000) >> 10));
          c = 0xDC00 + ((c - 0x10000) & 0x3FF);
        }
      h = 31 * h + c;
    }
  return h;
}

static gint
java_bucket_compare (gconstpointer a, gconstpointer b, gpointer data)
{
  guint32 mask = GPOINTER_TO_UINT (data) - 1;
  guint32 ha = java_string_hash (*(const char *const *) a);
  guint32 hb = java_string_hash (*(const char *const *) b);
  guint32 ba = (ha ^ (ha >> 16)) & mask, bb = (hb ^ (hb >> 16)) & mask;

  return ba < bb ? -1 : ba > bb ? 1 : 0;
}

/* DynamoDB lists the attributes a GSI does not project in the iteration order of a Java
 * HashSet filled from the last name of the request to the first: by hash bucket of a table of
 * 16 (doubled past 3/4 full), then in insertion order (`names` holds them in insertion order;
 * the sort is stable). */
static void
order_as_java_hash_set (GPtrArray *names)
{
  guint capacity = 16;

  while (names->len * 4 > capacity * 3)
    capacity *= 2;
  g_ptr_array_sort_with_data (names, java_bucket_compare, GUINT_TO_POINTER (capacity));
}

static gint
str_ptr_compare (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
add_unique (GPtrArray *names, const char *name)
{
  for (guint i = 0; i < names->len; i++)
    if (strcmp (names->pdata[i], name) == 0)
      return;
  g_ptr_array_add (names, (gpointer) name);
}

static void
string_list_text (GString *out, const GPtrArray *names)
{
  g_string_append_c (out, '[');
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? ", " : "", (const char *) names->pdata[i]);
  g_string_append_c (out, ']');
}

/* "If you query or scan a global secondary index, you can only request attributes that are
 * projected into the index": the top-level names of the projection the index lacks. */
static gboolean
check_gsi_projection (const ReadRequest *r, GError **error)
{
  g_autoptr (GPtrArray) missing = g_ptr_array_new ();
  g_autoptr (GString) list = g_string_new (NULL);

  for (guint i = r->projection != NULL ? r->projection->n_paths : 0; i > 0; i--)
    {
      const char *name = r->projection->paths[i - 1].elems[0].name;

      if (!index_projects (r->def, r->index, name))
        add_unique (missing, name);
    }
  if (missing->len == 0)
    return TRUE;
  order_as_java_hash_set (missing);
  string_list_text (list, missing);
  return ddb_set_validation_error (
      error,
      "One or more parameter values were invalid: Global secondary index %s does "
      "not project %s",
      r->index->name, list->str);
}

/* A Query filter on a GSI may only read what the index holds. (DynamoDB Local lets a Scan
 * filter on missing attributes, which then never match; so does the engine.) DynamoDB lists
 * the names sorted. */
static gboolean
check_gsi_filter (const ReadRequest *r, GError **error)
{
  g_autoptr (GPtrArray) paths = read_filter_paths (r);
  g_autoptr (GPtrArray) missing = g_ptr_array_new ();
  g_autoptr (GString) list = g_string_new (NULL);

  for (guint i = 0; i < paths->len; i++)
    {
      const DdbPath *p = g_ptr_array_index (paths, i);

      if (!index_projects (r->def, r->index, p->elems[0].name))
        add_unique (missing, p->elems[0].name);
    }
  if (missing->len == 0)
    return TRUE;
  g_ptr_array_sort (missing, str_ptr_compare);
  string_list_text (list, missing);
  return ddb_set_validation_error (
      error,
      "One or more parameter values were invalid: Secondary index %s does not "
      "project one or more filter attributes: %s",
      r->index->name, list->str);
}

/* A parallel Scan may only restart inside its own segment. The message is the service's
 * (DynamoDB Local says "Exclusive start key must lie within the segment"). */
static gboolean
check_start_key_segment (const ReadRequest *r, GError **error)
{
  const DdbValue *hash = ddb_value_map_get (r->start, r->read_key->hash_name);

  if (hash == NULL
      || ddb_store_segment_of (hash, (guint) r->total_segments) == (guint) r->segment)
    return TRUE;
  return ddb_set_validation_error (
      error,
      "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
      "ExclusiveStartKey with correct Segment. TotalSegments: %" G_GINT64_FORMAT
      " Segment: %" G_GINT64_FORMAT,
      r->total_segments, r->segment);
}

/* A local secondary index answers for attributes it does not hold by fetching the item from
 * the table (a global one cannot: requests for them are refused, see above). */
static gboolean
needs_fetch (const ReadRequest *r)
{
  g_autoptr (GPtrArray) paths = NULL;

  if (r->index == NULL || r->index->global || r->index->projection == DDB_PROJECTION_ALL)
    return FALSE;
  if (r->select == SELECT_ALL)
    return TRUE;
  if (r->select == SELECT_COUNT || r->select == SELECT_ALL_PROJECTED)
    {
      /* Only the filter can still need the table. */
    }
  else if (r->projection != NULL)
    {
      for (guint i = 0; i < r->projection->n_paths; i++)
        if (!index_projects (r->def, r->index, r->projection->paths[i].elems[0].name))
          return TRUE;
    }
  paths = read_filter_paths (r);
  for (guint i = 0; i < paths->len; i++)
    {
      const DdbPath *p = g_ptr_array_index (paths, i);

      if (!index_projects (r->def, r->index, p->elems[0].name))
        return TRUE;
    }
  return FALSE;
}

static gboolean
resolve_table (ReadRequest *r, DdbEngine *e, json_t *req, gboolean filter_on_keys,
               GError **error)
{
  json_t *start_json = json_object_get (req, "ExclusiveStartKey");
  gboolean has_start = start_json != NULL && !json_is_null (start_json);

  r->def = ddb_store_table_get (e->store, r->table_name, error);
  if (r->def == NULL)
    return FALSE;

  r->read_key = &r->def->key;
  if (r->index_name != NULL)
    {
      r->index = ddb_table_def_index (r->def, r->index_name);
      if (r->index == NULL)
        {
          if (!r->is_query && has_start)
            return ddb_set_validation_error (error, "The provided starting key is invalid");
          return ddb_set_validation_error (error, "The table does not have the specified index: %s",
                                           r->index_name);
        }
      if (r->index->global && r->consistent)
        return ddb_set_validation_error (
            error, "Consistent reads are not supported on global secondary indexes");
      r->read_key = &r->index->key;
    }

  if (r->is_query)
    {
      DdbKeySchema schema;

      ddb_key_def_schema (r->read_key, &schema);
      if (!ddb_key_condition_analyze (r->key_cond, &schema, &r->kc, error))
        return FALSE;
      r->kc_ready = TRUE;
    }

  if (has_start)
    {
      r->start = ddb_req_start_key (start_json, r->def, r->index, error);
      if (r->start == NULL)
        return FALSE;
      if (r->is_query && !check_query_start_key (r, error))
        return FALSE;
      if (!r->is_query && r->has_segment && !check_start_key_segment (r, error))
        return FALSE;
    }

  if (!check_projection_key_paths (r, error))
    return FALSE;
  if (r->is_query && r->filter != NULL && !filter_on_keys && !check_filter_not_on_key (r, error))
    return FALSE;
  if (r->index != NULL && r->index->global && r->index->projection != DDB_PROJECTION_ALL)
    {
      /* In DynamoDB's order: the filter, Select, then the projection. */
      if (r->is_query && !check_gsi_filter (r, error))
        return FALSE;
      if (r->select == SELECT_ALL)
        return ddb_set_validation_error (
            error,
            "One or more parameter values were invalid: Select type "
            "ALL_ATTRIBUTES is not supported for global secondary index %s "
            "because its projection type is not ALL",
            r->index->name);
      if (!check_gsi_projection (r, error))
        return FALSE;
    }
  if (r->filter != NULL)
    {
      g_autoptr (GPtrArray) paths = read_filter_paths (r);

      if (!check_key_paths (r, (const DdbPath *const *) paths->pdata, paths->len, error))
        return FALSE;
    }

  if (r->select == SELECT_NONE)
    r->select = r->projection != NULL ? SELECT_SPECIFIC
                : r->index != NULL    ? SELECT_ALL_PROJECTED
                                      : SELECT_ALL;
  r->fetch = needs_fetch (r);
  return TRUE;
}

/* `filter_on_keys`: the filter may test key attributes (a PartiQL WHERE does). */
static json_t *
read_op (DdbEngine *e, json_t *req, gboolean is_query, gboolean filter_on_keys, GError **error)
{
  ReadRequest r = { 0 };
  json_t *response = NULL;

  r.is_query = is_query;
  r.table_name = ddb_req_table_name (req, "TableName", error);
  if (r.table_name == NULL)
    goto out;
  if (!read_members (&r, req, error))
    goto out;
  if (!ddb_legacy_check_not_mixed (req, error))
    goto out;
  if (!check_placeholders_have_expressions (&r, req, error))
    goto out;
  if (!is_query && !check_segments (&r, error))
    goto out;
  if (!check_select (&r, req, error))
    goto out;
  if (!parse_expressions (&r, req, error))
    goto out;
  if (!resolve_table (&r, e, req, filter_on_keys, error))
    goto out;
  response = read_run_page (&r, e, error);

out:
  read_request_clear (&r);
  return response;
}

json_t *
ddb_op_query (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  (void) extra;
  return read_op (e, req, TRUE, FALSE, error);
}

json_t *
ddb_op_scan (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  (void) extra;
  return read_op (e, req, FALSE, FALSE, error);
}

json_t *
ddb_read_partiql (DdbEngine *e, json_t *req, gboolean is_query, GError **error)
{
  return read_op (e, req, is_query, TRUE, error);
}
