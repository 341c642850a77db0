/* cg-check.c: a request is checked before it is written as a program, so that no program is
 * ever handed out that DynamoDB would refuse for a reason visible without the table. The
 * embedded engine, on an empty database, checks the request the way DynamoDB does up to the
 * table lookup (its ResourceNotFoundException then means "valid so far"); the engine reaches
 * the table before it reads the items and expressions nested in batches and transactions, so
 * the shape walk here reads every member, AttributeValue and expression of every structure
 * too. The walk also gives the writers a clean copy: members set to JSON null (absent for
 * DynamoDB) left out, integral numbers as integers. */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"
#include "core/error.h"
#include "engine/engine.h"
#include "engine/request.h"

static json_t *check_struct (const CgShape *shape, json_t *j, const char *where, GError **error);

static gboolean
check_strings (json_t *j, gboolean as_map, GError **error)
{
  if (as_map ? !json_is_object (j) : !json_is_array (j))
    return ddb_req_type_error (j, as_map ? "java.util.Map" : "java.util.List", error);
  if (as_map)
    {
      const char *key;
      json_t *v;

      json_object_foreach (j, key, v)
        if (!json_is_string (v))
          return ddb_req_type_error (v, "String", error);
    }
  else
    {
      gsize i;
      json_t *v;

      json_array_foreach (j, i, v)
        if (!json_is_string (v))
          return ddb_req_type_error (v, "String", error);
    }
  return TRUE;
}

static gboolean
check_item (json_t *j, GError **error)
{
  g_autoptr (DdbValue) item = ddb_req_attribute_map (j, error);

  return item != NULL;
}

static json_t *
check_member (const CgMember *m, json_t *j, const char *where, GError **error)
{
  switch (m->kind)
    {
    case CG_STRING:
    case CG_ENUM:
      if (!json_is_string (j))
        return ddb_req_type_error (j, "String", error), NULL;
      return json_incref (j);
    case CG_INT:
    case CG_LONG:
      if (json_is_real (j) && json_real_value (j) == (double) (json_int_t) json_real_value (j))
        return json_integer ((json_int_t) json_real_value (j));
      if (!json_is_integer (j))
        return ddb_req_type_error (j, "Integer", error), NULL;
      return json_incref (j);
    case CG_BOOL:
      if (!json_is_boolean (j))
        return ddb_req_type_error (j, "Boolean", error), NULL;
      return json_incref (j);
    case CG_VALUE:
      {
        g_autoptr (DdbValue) v = ddb_req_value (j, error);
        return v != NULL ? json_incref (j) : NULL;
      }
    case CG_ITEM:
      return check_item (j, error) ? json_incref (j) : NULL;
    case CG_NAMES:
    case CG_STRINGS:
      return check_strings (j, m->kind == CG_NAMES, error) ? json_incref (j) : NULL;
    case CG_VALUES:
    case CG_ITEMS:
      {
        gsize i;
        json_t *v;

        if (!json_is_array (j))
          return ddb_req_type_error (j, "java.util.List", error), NULL;
        json_array_foreach (j, i, v)
          {
            g_autoptr (DdbValue) parsed
                = m->kind == CG_VALUES ? ddb_req_value (v, error) : ddb_req_attribute_map (v, error);
            if (parsed == NULL)
              return NULL;
          }
        return json_incref (j);
      }
    case CG_STRUCT:
      return check_struct (m->shape, j, where, error);
    case CG_STRUCT_LIST:
    case CG_STRUCT_MAP:
    case CG_LIST_MAP:
      {
        gboolean is_map = m->kind != CG_STRUCT_LIST;
        json_t *out = is_map ? json_object () : json_array ();
        const char *key;
        json_t *v;
        gsize i;

        if (is_map ? !json_is_object (j) : !json_is_array (j))
          {
            json_decref (out);
            return ddb_req_type_error (j, is_map ? "java.util.Map" : "java.util.List", error),
                   NULL;
          }
        if (is_map)
          {
            json_object_foreach (j, key, v)
              {
                g_autofree char *inner = g_strdup_printf ("%s.%s", where, key);
                json_t *c;

                if (m->kind == CG_LIST_MAP)
                  {
                    CgMember list = { m->name, CG_STRUCT_LIST, m->shape, NULL };
                    c = check_member (&list, v, inner, error);
                  }
                else
                  c = check_struct (m->shape, v, inner, error);
                if (c == NULL)
                  {
                    json_decref (out);
                    return NULL;
                  }
                json_object_set_new (out, key, c);
              }
          }
        else
          json_array_foreach (j, i, v)
            {
              g_autofree char *inner = g_strdup_printf ("%s[%zu]", where, i);
              json_t *c = check_struct (m->shape, v, inner, error);

              if (c == NULL)
                {
                  json_decref (out);
                  return NULL;
                }
              json_array_append_new (out, c);
            }
        return out;
      }
    }
  g_return_val_if_reached (NULL);
}

/* The expressions of one structure, with the placeholders they share. */
static gboolean
check_expressions (json_t *s, GError **error)
{
  static const struct {
    const char *member;
    int type; /* DdbExprType, or -1 for an update, -2 for a projection */
  } expressions[] = {
    { "KeyConditionExpression", DDB_EXPR_KEY_CONDITION },
    { "FilterExpression", DDB_EXPR_FILTER },
    { "ConditionExpression", DDB_EXPR_CONDITION },
    { "UpdateExpression", -1 },
    { "ProjectionExpression", -2 },
  };
  DdbReqExpr rx;
  gboolean ok = TRUE;

  if (!ddb_req_expr_init (&rx, s, error))
    return FALSE;
  for (gsize i = 0; ok && i < G_N_ELEMENTS (expressions); i++)
    {
      json_t *text = json_object_get (s, expressions[i].member);

      if (text == NULL)
        continue;
      if (expressions[i].type == -1)
        {
          g_autoptr (DdbUpdate) u = ddb_update_parse (json_string_value (text), rx.ctx, error);
          ok = u != NULL;
        }
      else if (expressions[i].type == -2)
        {
          g_autoptr (DdbProjection) p
              = ddb_projection_parse (json_string_value (text), rx.ctx, error);
          ok = p != NULL;
        }
      else
        {
          g_autoptr (DdbNode) n = ddb_condition_parse (expressions[i].type,
                                                       json_string_value (text), rx.ctx, error);
          ok = n != NULL;
        }
    }
  if (ok)
    ok = ddb_expr_context_check_unused (rx.ctx, error);
  ddb_req_expr_clear (&rx);
  return ok;
}

static json_t *
check_struct (const CgShape *shape, json_t *j, const char *where, GError **error)
{
  json_auto_t *out = json_object ();
  const char *key;
  json_t *v;

  if (!json_is_object (j))
    {
      ddb_req_type_error (j, "Structure", error);
      return NULL;
    }
  json_object_foreach (j, key, v)
    {
      const CgMember *m = cg_shape_member (shape, key);
      json_t *c;

      if (json_is_null (v))
        continue;
      if (m == NULL)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s has no member %s (DynamoDB's API defines none of that name)", where,
                       key);
          return NULL;
        }
      c = check_member (m, v, where, error);
      if (c == NULL)
        return NULL;
      json_object_set_new (out, key, c);
    }
  if (!check_expressions (out, error))
    return NULL;
  return g_steal_pointer (&out);
}

json_t *
cg_check (const char *operation, json_t *request, GError **error)
{
  const CgShape *shape = cg_operation_shape (operation);
  g_autoptr (DdbEngine) engine = NULL;
  g_autoptr (GError) local = NULL;
  json_t *response = NULL;

  if (shape == NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_UNKNOWN_OPERATION,
                   "Code is written for GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan, "
                   "BatchGetItem, BatchWriteItem, TransactWriteItems, TransactGetItems, "
                   "ExecuteStatement, BatchExecuteStatement, ExecuteTransaction, CreateTable, "
                   "UpdateTable, UpdateTimeToLive and DeleteTable, not %s",
                   operation);
      return NULL;
    }
  if (!json_is_object (request))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_SERIALIZATION,
                           "The request must be a JSON object");
      return NULL;
    }
  engine = ddb_engine_open (":memory:", error);
  if (engine == NULL)
    return NULL;
  if (ddb_engine_call (engine, operation, request, &response, &local))
    {
      /* An empty database answers a request that needs no table (none of these) only when
       * DynamoDB would refuse it for the missing table anyway. */
      json_decref (response);
    }
  else
    {
      json_decref (response);
      if (!g_error_matches (local, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
    }
  return check_struct (shape, request, operation, error);
}

gboolean
ddb_codegen_check (const char *operation, json_t *request, GError **error)
{
  json_t *checked = cg_check (operation, request, error);

  json_decref (checked);
  return checked != NULL;
}
