/* dy-describe.c: a table's description as rows of label and value. */
#include <glib/gi18n.h>

#include "app/common/dy-describe.h"
#include "app/common/dy-format.h"

void
dy_describe_row_free (DyDescribeRow *row)
{
  g_free (row->label);
  g_free (row->value);
  g_free (row);
}

static void
add (GPtrArray *rows, const char *label, char *value)
{
  DyDescribeRow *row = g_new0 (DyDescribeRow, 1);

  row->label = g_strdup (label);
  row->value = value;
  row->heading = value == NULL;
  g_ptr_array_add (rows, row);
}

static const char *
attribute_type (json_t *definitions, const char *name)
{
  size_t i;
  json_t *def;

  json_array_foreach (definitions, i, def)
    if (g_strcmp0 (json_string_value (json_object_get (def, "AttributeName")), name) == 0)
      return json_string_value (json_object_get (def, "AttributeType"));
  return "?";
}

const char *
dy_describe_key_name (json_t *key_schema, const char *key_type)
{
  size_t i;
  json_t *element;

  json_array_foreach (key_schema, i, element)
    if (g_strcmp0 (json_string_value (json_object_get (element, "KeyType")), key_type) == 0)
      return json_string_value (json_object_get (element, "AttributeName"));
  return NULL;
}

static char *
key_text (json_t *schema, json_t *definitions, const char *kind)
{
  const char *name = dy_describe_key_name (schema, kind);

  return name != NULL ? g_strdup_printf ("%s (%s)", name, attribute_type (definitions, name))
                      : NULL;
}

/* Exact counts: DynamoDB's figures are integers and are shown as such, with a size in words. */
static char *
count_and_size (json_t *object)
{
  json_t *count = json_object_get (object, "ItemCount");
  json_t *size = json_object_get (object, "TableSizeBytes");

  if (size == NULL)
    size = json_object_get (object, "IndexSizeBytes");
  if (count == NULL && size == NULL)
    return NULL;
  {
    guint64 n = (guint64) MAX (json_integer_value (count), 0);
    g_autofree char *words = dy_format_size ((guint64) json_integer_value (size));
    g_autofree char *items = dy_format_count (n);
    g_autofree char *bytes = dy_format_count ((guint64) MAX (json_integer_value (size), 0));

    /* TRANSLATORS: item count, size in words, size in bytes */
    return g_strdup_printf (ngettext ("%s item · %s (%s bytes)", "%s items · %s (%s bytes)",
                                      (gulong) n),
                            items, words, bytes);
  }
}

char *
dy_describe_summary (json_t *table)
{
  const char *status = json_string_value (json_object_get (table, "TableStatus"));
  guint64 n = (guint64) MAX (json_integer_value (json_object_get (table, "ItemCount")), 0);
  g_autofree char *items = NULL;
  g_autofree char *size = NULL;

  if (status != NULL && g_strcmp0 (status, "ACTIVE") != 0)
    return g_strdup (status);
  items = dy_format_count (n);
  size = dy_format_size ((guint64) MAX (json_integer_value (json_object_get (table,
                                                                             "TableSizeBytes")),
                                        0));
  /* TRANSLATORS: a table's item count and its size in words, under its name in the sidebar */
  return g_strdup_printf (ngettext ("%s item · %s", "%s items · %s", (gulong) n), items, size);
}

static char *
projection_text (json_t *projection)
{
  const char *type = json_string_value (json_object_get (projection, "ProjectionType"));
  json_t *names = json_object_get (projection, "NonKeyAttributes");
  GString *text;
  size_t i;
  json_t *name;

  if (type == NULL)
    return g_strdup ("?");
  text = g_string_new (type);
  if (json_array_size (names) > 0)
    {
      g_string_append (text, ": ");
      json_array_foreach (names, i, name)
        g_string_append_printf (text, "%s%s", i > 0 ? ", " : "", json_string_value (name));
    }
  return g_string_free (text, FALSE);
}

static char *
throughput_text (json_t *throughput)
{
  if (throughput == NULL)
    return NULL;
  {
    g_autofree char *rcu = g_strdup_printf (
        "%" G_GINT64_FORMAT,
        (gint64) json_integer_value (json_object_get (throughput, "ReadCapacityUnits")));
    g_autofree char *wcu = g_strdup_printf (
        "%" G_GINT64_FORMAT,
        (gint64) json_integer_value (json_object_get (throughput, "WriteCapacityUnits")));

    /* TRANSLATORS: provisioned read and write capacity units */
    return g_strdup_printf (_("%s RCU, %s WCU"), rcu, wcu);
  }
}

static void
add_indexes (GPtrArray *rows, json_t *indexes, json_t *definitions, const char *kind,
             gboolean provisioned)
{
  size_t i;
  json_t *index;

  json_array_foreach (indexes, i, index)
    {
      json_t *schema = json_object_get (index, "KeySchema");
      g_autofree char *title = g_strdup_printf ("%s %s", kind, json_string_value (
                                                  json_object_get (index, "IndexName")));
      char *pk = key_text (schema, definitions, "HASH");
      char *sk = key_text (schema, definitions, "RANGE");
      char *sizes = count_and_size (index);
      const char *status = json_string_value (json_object_get (index, "IndexStatus"));

      add (rows, title, NULL);
      add (rows, _("Partition key"), pk != NULL ? pk : g_strdup ("?"));
      add (rows, _("Sort key"), sk != NULL ? sk : g_strdup (_("none")));
      add (rows, _("Projection"), projection_text (json_object_get (index, "Projection")));
      if (status != NULL)
        add (rows, _("Status"), g_strdup (status));
      if (sizes != NULL)
        add (rows, _("Items"), sizes);
      if (provisioned && json_object_get (index, "ProvisionedThroughput") != NULL)
        add (rows, _("Capacity"), throughput_text (json_object_get (index,
                                                                    "ProvisionedThroughput")));
    }
}

static GPtrArray *
describe_rows (json_t *table, gboolean with_ttl, json_t *ttl, const char *ttl_error)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) dy_describe_row_free);
  json_t *definitions = json_object_get (table, "AttributeDefinitions");
  json_t *schema = json_object_get (table, "KeySchema");
  const char *billing = json_string_value (json_object_get (
    json_object_get (table, "BillingModeSummary"), "BillingMode"));
  gboolean provisioned;
  char *sk = key_text (schema, definitions, "RANGE");
  char *pk = key_text (schema, definitions, "HASH");
  char *sizes = count_and_size (table);
  json_t *stream = json_object_get (table, "StreamSpecification");

  /* A table created before on-demand existed, or by DynamoDB Local, may have no summary. */
  if (billing == NULL)
    billing = "PROVISIONED";
  provisioned = g_str_equal (billing, "PROVISIONED");
  add (rows, _("Table"), g_strdup (json_string_value (json_object_get (table, "TableName"))));
  add (rows, _("Status"), g_strdup (json_string_value (json_object_get (table, "TableStatus"))));
  add (rows, _("Partition key"), pk != NULL ? pk : g_strdup ("?"));
  add (rows, _("Sort key"), sk != NULL ? sk : g_strdup (_("none")));
  add (rows, _("Items"), sizes != NULL ? sizes : g_strdup ("?"));
  if (provisioned)
    {
      g_autofree char *units = throughput_text (json_object_get (table, "ProvisionedThroughput"));

      add (rows, _("Billing mode"), g_strdup_printf ("PROVISIONED (%s)", units != NULL ? units : "?"));
    }
  else
    add (rows, _("Billing mode"), g_strdup (billing));
  if (with_ttl && ttl != NULL)
    {
      const char *status = json_string_value (json_object_get (ttl, "TimeToLiveStatus"));
      const char *attr = json_string_value (json_object_get (ttl, "AttributeName"));

      if (attr != NULL)
        /* TRANSLATORS: TTL status (ENABLED...) and the attribute holding expiry times */
        add (rows, _("Time to live"), g_strdup_printf (_("%s on attribute %s"), status, attr));
      else
        add (rows, _("Time to live"), g_strdup (status != NULL ? status : "DISABLED"));
    }
  else if (with_ttl && ttl_error != NULL)
    /* TRANSLATORS: %s is the error DescribeTimeToLive gave */
    add (rows, _("Time to live"), g_strdup_printf (_("unknown (%s)"), ttl_error));
  else if (with_ttl)
    add (rows, _("Time to live"), g_strdup ("…"));
  if (stream != NULL && json_is_true (json_object_get (stream, "StreamEnabled")))
    add (rows, _("Stream"), g_strdup (json_string_value (json_object_get (stream,
                                                                          "StreamViewType"))));
  add_indexes (rows, json_object_get (table, "GlobalSecondaryIndexes"), definitions, "GSI",
               provisioned);
  add_indexes (rows, json_object_get (table, "LocalSecondaryIndexes"), definitions, "LSI", FALSE);
  return rows;
}

GPtrArray *
dy_describe_rows (json_t *table, json_t *ttl, const char *ttl_error)
{
  return describe_rows (table, TRUE, ttl, ttl_error);
}

GPtrArray *
dy_describe_table_rows (json_t *table)
{
  return describe_rows (table, FALSE, NULL, NULL);
}

char *
dy_describe_rows_to_text (GPtrArray *rows)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < rows->len; i++)
    {
      DyDescribeRow *row = rows->pdata[i];

      if (row->heading)
        g_string_append_printf (text, "[%s]\n", row->label);
      else
        g_string_append_printf (text, "%s: %s\n", row->label, row->value);
    }
  return g_string_free (text, FALSE);
}
