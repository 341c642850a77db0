/* dy-query.c: building Query and Scan requests from a filter row. */
#define G_LOG_DOMAIN "dynoscope-query"

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "app/browser/dy-query.h"
#include "core/base64.h"
#include "core/ddbjson.h"

gboolean
dy_query_spec_is_query (const DyQuerySpec *spec)
{
  return spec->pk_value != NULL && spec->pk_value[0] != '\0';
}

const char *
dy_query_spec_operation (const DyQuerySpec *spec)
{
  return dy_query_spec_is_query (spec) ? "Query" : "Scan";
}

/* The typed JSON value of TEXT for an attribute of TYPE, checked as DynamoDB would check it so
 * that mistakes are caught before the request is sent. */
static json_t *
typed_value (const char *what, DdbType type, const char *text, GError **error)
{
  if (text == NULL)
    text = "";
  switch (type)
    {
    case DDB_TYPE_S:
      return json_pack ("{ss}", "S", text);
    case DDB_TYPE_N:
      {
        DdbNumber n;
        g_autoptr (GError) local = NULL;

        if (!ddb_number_parse (&n, text, -1, &local))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("%s: “%s” is not a number: %s"), what, text, local->message);
            return NULL;
          }
        /* The text as typed, not the canonical form: the request shows what the user wrote. */
        return json_pack ("{ss}", "N", text);
      }
    case DDB_TYPE_B:
      {
        gsize len;
        DdbBase64Error b64;
        g_autofree guchar *bytes = ddb_base64_decode (text, -1, &len, &b64, NULL);

        if (bytes == NULL)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("%s: “%s” is not base64"), what, text);
            return NULL;
          }
        return json_pack ("{ss}", "B", text);
      }
    case DDB_TYPE_BOOL:
      if (g_strcmp0 (text, "true") == 0 || g_strcmp0 (text, "false") == 0)
        return json_pack ("{sb}", "BOOL", g_strcmp0 (text, "true") == 0);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: a boolean is “true” or “false”"), what);
      return NULL;
    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: unsupported type %s"),
                   what, ddb_type_name (type));
      return NULL;
    }
}

static const char *
sort_op_text (DySortOp op)
{
  switch (op)
    {
    case DY_SORT_EQ: return "=";
    case DY_SORT_LT: return "<";
    case DY_SORT_LE: return "<=";
    case DY_SORT_GT: return ">";
    case DY_SORT_GE: return ">=";
    default: return NULL;
    }
}

static const char *
filter_op_text (DyFilterOp op)
{
  switch (op)
    {
    case DY_FILTER_EQ: return "=";
    case DY_FILTER_NE: return "<>";
    case DY_FILTER_LT: return "<";
    case DY_FILTER_LE: return "<=";
    case DY_FILTER_GT: return ">";
    case DY_FILTER_GE: return ">=";
    default: return NULL;
    }
}

static gboolean
add_value (json_t *values, const char *placeholder, const char *what, DdbType type,
           const char *text, GError **error)
{
  json_t *v = typed_value (what, type, text, error);

  if (v == NULL)
    return FALSE;
  json_object_set_new (values, placeholder, v);
  return TRUE;
}

json_t *
dy_query_build (const DyQuerySpec *spec, GError **error)
{
  g_autoptr (GString) filter = g_string_new (NULL);
  json_t *request = json_object ();
  json_t *names = json_object ();
  json_t *values = json_object ();
  gboolean query = dy_query_spec_is_query (spec);

  json_object_set_new (request, "TableName", json_string (spec->table_name));
  if (spec->index_name != NULL)
    json_object_set_new (request, "IndexName", json_string (spec->index_name));

  if (query)
    {
      g_autoptr (GString) cond = g_string_new ("#pk = :pk");

      json_object_set_new (names, "#pk", json_string (spec->pk_name));
      if (!add_value (values, ":pk", spec->pk_name, spec->pk_type, spec->pk_value, error))
        goto fail;
      if (spec->sk_name != NULL && spec->sk_op != DY_SORT_NONE)
        {
          json_object_set_new (names, "#sk", json_string (spec->sk_name));
          if (!add_value (values, ":sk", spec->sk_name, spec->sk_type, spec->sk_value, error))
            goto fail;
          if (spec->sk_op == DY_SORT_BETWEEN)
            {
              if (!add_value (values, ":sk2", spec->sk_name, spec->sk_type, spec->sk_value2,
                              error))
                goto fail;
              g_string_append (cond, " AND #sk BETWEEN :sk AND :sk2");
            }
          else if (spec->sk_op == DY_SORT_BEGINS_WITH)
            g_string_append (cond, " AND begins_with(#sk, :sk)");
          else
            g_string_append_printf (cond, " AND #sk %s :sk", sort_op_text (spec->sk_op));
        }
      json_object_set_new (request, "KeyConditionExpression", json_string (cond->str));
      if (spec->descending)
        json_object_set_new (request, "ScanIndexForward", json_false ());
    }

  {
    guint n = 0;

    for (guint i = 0; i <= spec->n_filters; i++)
      {
        DyFilterCond first = { spec->filter_attr, spec->filter_op, spec->filter_type,
                               spec->filter_value };
        const DyFilterCond *cond = i == 0 ? &first : &spec->filters[i - 1];
        g_autofree char *name = NULL;
        g_autofree char *value = NULL;

        if (cond->attr == NULL || cond->attr[0] == '\0' || cond->op == DY_FILTER_NONE)
          continue;
        name = n == 0 ? g_strdup ("#f") : g_strdup_printf ("#f%u", n);
        value = n == 0 ? g_strdup (":f") : g_strdup_printf (":f%u", n);
        if (n > 0)
          g_string_append (filter, " AND ");
        n++;
        json_object_set_new (names, name, json_string (cond->attr));
        switch (cond->op)
          {
          case DY_FILTER_EXISTS:
            g_string_append_printf (filter, "attribute_exists(%s)", name);
            break;
          case DY_FILTER_NOT_EXISTS:
            g_string_append_printf (filter, "attribute_not_exists(%s)", name);
            break;
          case DY_FILTER_BEGINS_WITH:
          case DY_FILTER_CONTAINS:
            if (!add_value (values, value, cond->attr, cond->type, cond->value, error))
              goto fail;
            g_string_append_printf (filter, "%s(%s, %s)",
                                    cond->op == DY_FILTER_BEGINS_WITH ? "begins_with"
                                                                      : "contains",
                                    name, value);
            break;
          default:
            if (!add_value (values, value, cond->attr, cond->type, cond->value, error))
              goto fail;
            g_string_append_printf (filter, "%s %s %s", name, filter_op_text (cond->op), value);
            break;
          }
      }
    if (n > 0)
      json_object_set_new (request, "FilterExpression", json_string (filter->str));
  }

  if (json_object_size (names) > 0)
    json_object_set (request, "ExpressionAttributeNames", names);
  if (json_object_size (values) > 0)
    json_object_set (request, "ExpressionAttributeValues", values);
  if (spec->limit > 0)
    json_object_set_new (request, "Limit", json_integer (spec->limit));
  json_object_set_new (request, "ReturnConsumedCapacity", json_string ("TOTAL"));
  json_decref (names);
  json_decref (values);
  return request;

fail:
  json_decref (names);
  json_decref (values);
  json_decref (request);
  return NULL;
}
