/* check.c: access patterns resolved to requests; key templates checked. (The checks on sample
 * items are in check-sample.c.) */
#include "model/check-private.h"

#include <string.h>

static void
resolution_free (gpointer data)
{
  DyResolution *r = data;
  g_free (r->table);
  g_free (r->index);
  g_free (r->key_condition);
  json_decref (r->request);
  g_free (r->why);
  g_free (r);
}

static void
flag_free (gpointer data)
{
  DyFlag *f = data;
  g_free (f->message);
  g_free (f);
}

void
dy_check_report_free (DyCheckReport *report)
{
  if (report == NULL)
    return;
  g_ptr_array_unref (report->resolutions);
  g_ptr_array_unref (report->flags);
  g_ptr_array_unref (report->skipped);
  g_free (report);
}

const char *
dy_flag_kind_name (DyFlagKind kind)
{
  switch (kind)
    {
    case DY_FLAG_PATTERN: return "pattern";
    case DY_FLAG_COLLISION: return "collision";
    case DY_FLAG_UNPADDED: return "unpadded-number";
    case DY_FLAG_TOO_LONG: return "key-too-long";
    case DY_FLAG_MIXED_CASE: return "mixed-case";
    case DY_FLAG_UNKNOWN_KEY: return "unknown-key";
    case DY_FLAG_LOW_CARDINALITY: return "low-cardinality";
    case DY_FLAG_SAMPLE_KEY: return "sample-key";
    }
  return "unknown";
}

static void
add_to (GPtrArray *list, DyFlagKind kind, const char *fmt, va_list ap) G_GNUC_PRINTF (3, 0);

static void
add_to (GPtrArray *list, DyFlagKind kind, const char *fmt, va_list ap)
{
  DyFlag *f = g_new0 (DyFlag, 1);
  f->kind = kind;
  f->message = g_strdup_vprintf (fmt, ap);
  g_ptr_array_add (list, f);
}

void
dy_check_add_flag (DyCheckReport *report, DyFlagKind kind, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  add_to (report->flags, kind, fmt, ap);
  va_end (ap);
}

void
dy_check_add_skipped (DyCheckReport *report, DyFlagKind kind, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  add_to (report->skipped, kind, fmt, ap);
  va_end (ap);
}

#define add_flag dy_check_add_flag

/* TPL rendered with the pattern's examples; a field without one shows as <name>. */
static char *
render_example (const DyTemplate *tpl, GHashTable *examples)
{
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      const char *v = part->kind == DY_TEMPLATE_FIELD
                      ? g_hash_table_lookup (examples, part->text) : NULL;
      if (part->kind == DY_TEMPLATE_LITERAL)
        g_string_append (out, part->text);
      else if (v == NULL || !dy_template_render_field (tpl, part, v, out, NULL))
        g_string_append_printf (out, "<%s>", part->text);
    }
  return g_string_free (out, FALSE);
}

/* The parts of TPL the inputs fix, up to the first field they do not: what a begins_with can
 * use. Sets *NEXT to that first unfixed field (NULL when all are fixed). */
static DyTemplate *
fixed_head (const DyTemplate *tpl, GHashTable *inputs, const DyTemplatePart **next)
{
  DyTemplate *head = g_new0 (DyTemplate, 1);
  head->parts = g_ptr_array_new ();
  head->source = g_strdup (tpl->source);
  *next = NULL;
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      if (part->kind == DY_TEMPLATE_FIELD && !g_hash_table_contains (inputs, part->text))
        {
          *next = part;
          break;
        }
      g_ptr_array_add (head->parts, (gpointer) part);
    }
  return head;
}

static json_t *
key_value (const char *type, const char *text)
{
  return json_pack ("{s:s}", type ? type : "S", text);
}

static const char *
attr_type (const DyModelTable *table, const DyModelIndex *index, const char *name)
{
  if (table->partition.name && g_str_equal (table->partition.name, name))
    return table->partition.type;
  if (table->sort.name && g_str_equal (table->sort.name, name))
    return table->sort.type;
  if (index && index->partition.name && g_str_equal (index->partition.name, name))
    return index->partition.type;
  if (index && index->sort.name && g_str_equal (index->sort.name, name))
    return index->sort.type;
  return "S";
}

static char *
missing_fields (const DyTemplate *tpl, GHashTable *inputs)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      if (part->kind == DY_TEMPLATE_FIELD && !g_hash_table_contains (inputs, part->text))
        g_string_append_printf (s, "%s{%s}", s->len ? ", " : "", part->text);
    }
  return g_string_free (s, FALSE);
}

static gboolean
template_uses (const DyTemplate *tpl, const char *field)
{
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      if (part->kind == DY_TEMPLATE_FIELD && g_str_equal (part->text, field))
        return TRUE;
    }
  return FALSE;
}

/* TRUE when every field of TPL the inputs leave open is zero-padded, as a shard suffix is: its
 * values can be counted through, one Query each, where any other open field needs a Scan. */
static gboolean
only_padded_missing (const DyTemplate *tpl, GHashTable *inputs)
{
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      if (part->kind == DY_TEMPLATE_FIELD && part->width == 0
          && !g_hash_table_contains (inputs, part->text))
        return FALSE;
    }
  return TRUE;
}

static gboolean
flagged (DyResolution *r, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static gboolean
flagged (DyResolution *r, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  r->kind = DY_RESOLVED_FLAGGED;
  r->why = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  return FALSE;
}

static gboolean
resolve (const DyModel *model, const DyModelPattern *p, DyResolution *r)
{
  const DyModelEntity *entity = dy_model_find_entity (model, p->entity);
  if (entity == NULL)
    return flagged (r, "it returns entity %s, which the model does not define", p->entity);
  const DyModelTable *table = dy_model_find_table (model, entity->table);
  if (table == NULL)
    return flagged (r, "entity %s lives in table %s, which the model does not define",
                    entity->name, entity->table);
  r->table = g_strdup (table->name);
  const DyModelIndex *index = NULL;
  if (p->index)
    {
      index = dy_model_table_find_index (table, p->index);
      if (index == NULL)
        return flagged (r, "table %s has no index %s", table->name, p->index);
      r->index = g_strdup (index->name);
    }
  const char *pk_name, *sk_name;
  dy_model_key_names (table, index, &pk_name, &sk_name);
  const char *where = index ? index->name : table->name;

  for (guint i = 0; i < p->filters->len; i++)
    {
      const char *f = g_ptr_array_index (p->filters, i);
      if (!g_str_equal (f, pk_name) && !(sk_name && g_str_equal (f, sk_name)))
        return flagged (r, "it filters on %s, not a key of %s: DynamoDB reads and bills every "
                        "item before it drops those that fail; put %s into a key", f, where, f);
    }

  g_autoptr (GHashTable) inputs = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < p->inputs->len; i++)
    g_hash_table_add (inputs, g_ptr_array_index (p->inputs, i));

  const DyModelKey *pk = dy_model_entity_find_key (entity, pk_name);
  const DyModelKey *sk = sk_name ? dy_model_entity_find_key (entity, sk_name) : NULL;
  /* An input no key uses narrows nothing the key condition reads: it would be a filter. (A
   * missing template is flagged below, as the reason.) */
  for (guint i = 0; pk && (sk || !sk_name) && i < p->inputs->len; i++)
    {
      const char *in = g_ptr_array_index (p->inputs, i);
      if ((p->range_from && g_str_equal (in, p->range_from))
          || (p->range_to && g_str_equal (in, p->range_to))
          || (pk && template_uses (pk->tpl, in)) || (sk && template_uses (sk->tpl, in)))
        continue;
      return flagged (r, "its input %s is in neither key of %s, so the request cannot use it: "
                      "it would be a filter on items already read; put it into a key", in, where);
    }

  if (pk == NULL)
    return flagged (r, "entity %s has no template for %s, the partition key of %s, so its "
                    "items are not in it", entity->name, pk_name, where);
  if (!dy_template_fixed_by (pk->tpl, inputs))
    {
      g_autofree char *missing = missing_fields (pk->tpl, inputs);
      if (only_padded_missing (pk->tpl, inputs))
        return flagged (r, "several round trips: its inputs fix the partition key %s = \"%s\" "
                        "all but %s, so it takes one Query per value of it (a fan-out); add "
                        "it to the inputs to read one shard", pk_name, pk->tpl->source, missing);
      return flagged (r, "needs a Scan: its inputs do not fix the partition key %s = \"%s\" "
                      "(no %s)", pk_name, pk->tpl->source, missing);
    }
  g_autofree char *pk_value = render_example (pk->tpl, p->examples);
  const char *pk_type = attr_type (table, index, pk_name);

  if (sk_name && sk == NULL)
    return flagged (r, "entity %s has no template for %s, the sort key of %s, so its items "
                    "are not in it", entity->name, sk_name, where);
  gboolean sk_fixed = sk && dy_template_fixed_by (sk->tpl, inputs);

  if (index == NULL && !p->many && (sk == NULL || sk_fixed))
    {
      r->kind = DY_RESOLVED_GET_ITEM;
      json_t *key = json_object ();
      json_object_set_new (key, pk_name, key_value (pk_type, pk_value));
      g_autofree char *sk_value = sk ? render_example (sk->tpl, p->examples) : NULL;
      if (sk)
        json_object_set_new (key, sk_name, key_value (attr_type (table, NULL, sk_name), sk_value));
      r->key_condition = sk ? g_strdup_printf ("%s = \"%s\" AND %s = \"%s\"", pk_name, pk_value,
                                               sk_name, sk_value)
                            : g_strdup_printf ("%s = \"%s\"", pk_name, pk_value);
      r->request = json_pack ("{s:s, s:o}", "TableName", table->name, "Key", key);
      return TRUE;
    }

  r->kind = DY_RESOLVED_QUERY;
  r->forward = p->order != DY_ORDER_DESCENDING;
  json_t *names = json_pack ("{s:s}", "#pk", pk_name);
  json_t *values = json_object ();
  json_object_set_new (values, ":pk", key_value (pk_type, pk_value));
  g_autoptr (GString) expr = g_string_new ("#pk = :pk");
  g_autoptr (GString) readable = g_string_new (NULL);
  g_string_printf (readable, "%s = \"%s\"", pk_name, pk_value);

  if (sk)
    {
      const char *sk_type = attr_type (table, index, sk_name);
      const DyTemplatePart *next = NULL;
      DyTemplate *head = fixed_head (sk->tpl, inputs, &next);
      g_autofree char *head_value = render_example (head, p->examples);
      g_ptr_array_unref (head->parts);
      g_free (head->source);
      g_free (head);
      /* One item by its full key on the table went to GetItem above; here an index, or many. */
      if (sk_fixed)
        {
          json_object_set_new (names, "#sk", json_string (sk_name));
          json_object_set_new (values, ":sk", key_value (sk_type, head_value));
          g_string_append (expr, " AND #sk = :sk");
          g_string_append_printf (readable, " AND %s = \"%s\"", sk_name, head_value);
        }
      else if (!p->many)
        {
          json_decref (names);
          json_decref (values);
          g_autofree char *missing = missing_fields (sk->tpl, inputs);
          return flagged (r, "it returns one item but its inputs do not fix the sort key %s = "
                          "\"%s\" (no %s): add them, or read many", sk_name, sk->tpl->source,
                          missing);
        }
      else if (p->range_from)
        {
          if (!g_hash_table_contains (inputs, p->range_from)
              || !g_hash_table_contains (inputs, p->range_to)
              || next == NULL)
            {
              json_decref (names);
              json_decref (values);
              return flagged (r, "its range needs inputs %s and %s and an unfixed field of %s "
                              "= \"%s\"", p->range_from, p->range_to, sk_name, sk->tpl->source);
            }
          const char *lo = g_hash_table_lookup (p->examples, p->range_from);
          const char *hi = g_hash_table_lookup (p->examples, p->range_to);
          g_autofree char *lo_v = g_strdup_printf ("%s%s", head_value, lo ? lo : "<from>");
          g_autofree char *hi_v = g_strdup_printf ("%s%s", head_value, hi ? hi : "<to>");
          json_object_set_new (names, "#sk", json_string (sk_name));
          json_object_set_new (values, ":lo", key_value (sk_type, lo_v));
          json_object_set_new (values, ":hi", key_value (sk_type, hi_v));
          g_string_append (expr, " AND #sk BETWEEN :lo AND :hi");
          g_string_append_printf (readable, " AND %s BETWEEN \"%s\" AND \"%s\"", sk_name, lo_v,
                                  hi_v);
        }
      else if (*head_value)
        {
          json_object_set_new (names, "#sk", json_string (sk_name));
          json_object_set_new (values, ":sk", key_value (sk_type, head_value));
          g_string_append (expr, " AND begins_with(#sk, :sk)");
          g_string_append_printf (readable, " AND begins_with(%s, \"%s\")", sk_name, head_value);
        }
    }
  r->key_condition = g_strdup (readable->str);
  r->request = json_pack ("{s:s}", "TableName", table->name);
  if (index)
    json_object_set_new (r->request, "IndexName", json_string (index->name));
  json_object_set_new (r->request, "KeyConditionExpression", json_string (expr->str));
  json_object_set_new (r->request, "ExpressionAttributeNames", names);
  json_object_set_new (r->request, "ExpressionAttributeValues", values);
  if (!r->forward)
    json_object_set_new (r->request, "ScanIndexForward", json_false ());
  if (!p->many)
    json_object_set_new (r->request, "Limit", json_integer (1));
  return TRUE;
}

/* A template's literal text with each field as \1: two templates of one shape can render to
 * the same string. Field values are taken to hold none of the separators written around them
 * (the '#' of "TENANT#{id}#{shard:02}"), so that shape is what tells entities apart. */
static char *
shape (const DyTemplate *tpl)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      if (part->kind == DY_TEMPLATE_LITERAL)
        g_string_append (s, part->text);
      else
        g_string_append_c (s, '\1');
    }
  return g_string_free (s, FALSE);
}

static gboolean
can_collide (const DyTemplate *a, const DyTemplate *b)
{
  g_autofree char *sa = shape (a);
  g_autofree char *sb = shape (b);
  return g_str_equal (sa, sb);
}

static void
check_collisions (const DyModel *model, const DyModelTable *table, DyCheckReport *report)
{
  for (guint i = 0; i < model->entities->len; i++)
    for (guint j = i + 1; j < model->entities->len; j++)
      {
        const DyModelEntity *a = g_ptr_array_index (model->entities, i);
        const DyModelEntity *b = g_ptr_array_index (model->entities, j);
        if (!g_str_equal (a->table, table->name) || !g_str_equal (b->table, table->name))
          continue;
        const DyModelKey *apk = dy_model_entity_find_key (a, table->partition.name);
        const DyModelKey *bpk = dy_model_entity_find_key (b, table->partition.name);
        if (!apk || !bpk || !can_collide (apk->tpl, bpk->tpl))
          continue;
        if (table->sort.name)
          {
            const DyModelKey *ask = dy_model_entity_find_key (a, table->sort.name);
            const DyModelKey *bsk = dy_model_entity_find_key (b, table->sort.name);
            if (!ask || !bsk || !can_collide (ask->tpl, bsk->tpl))
              continue;
            add_flag (report, DY_FLAG_COLLISION,
                      "table %s: %s (%s = \"%s\", %s = \"%s\") and %s (\"%s\", \"%s\") can have "
                      "the same key: give each a literal text of its own, such as a prefix",
                      table->name, a->name, table->partition.name, apk->tpl->source,
                      table->sort.name, ask->tpl->source, b->name, bpk->tpl->source,
                      bsk->tpl->source);
          }
        else
          add_flag (report, DY_FLAG_COLLISION,
                    "table %s: %s (%s = \"%s\") and %s (\"%s\") can have the same key: give "
                    "each a literal text of its own, such as a prefix", table->name, a->name,
                    table->partition.name, apk->tpl->source, b->name, bpk->tpl->source);
      }
}

static const DyModelAttr *
entity_attr (const DyModelEntity *e, const DyModelTable *table, const char *name)
{
  for (guint i = 0; i < e->attrs->len; i++)
    {
      const DyModelAttr *a = g_ptr_array_index (e->attrs, i);
      if (g_str_equal (a->name, name))
        return a;
    }
  for (guint i = 0; i < table->attrs->len; i++)
    {
      const DyModelAttr *a = g_ptr_array_index (table->attrs, i);
      if (g_str_equal (a->name, name))
        return a;
    }
  return NULL;
}

static void
check_sort_key (const DyModelEntity *e, const DyModelTable *table, const char *sk_name,
                DyCheckReport *report)
{
  const DyModelKey *sk = dy_model_entity_find_key (e, sk_name);
  if (sk == NULL)
    return;
  for (guint i = 0; i < sk->tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (sk->tpl->parts, i);
      if (part->kind != DY_TEMPLATE_FIELD || part->width > 0 || part->format)
        continue;
      const DyModelAttr *a = entity_attr (e, table, part->text);
      if (a && a->type && g_str_equal (a->type, "N"))
        add_flag (report, DY_FLAG_UNPADDED,
                  "entity %s: {%s} in sort key %s = \"%s\" is a number without zero padding, "
                  "so \"10\" sorts before \"9\": write {%s:0N} with N its most digits",
                  e->name, part->text, sk_name, sk->tpl->source, part->text);
    }
}

static gboolean
is_key_attr (const DyModelTable *table, const char *name)
{
  if (g_strcmp0 (table->partition.name, name) == 0 || g_strcmp0 (table->sort.name, name) == 0)
    return TRUE;
  for (guint x = 0; x < table->indexes->len; x++)
    {
      const DyModelIndex *index = g_ptr_array_index (table->indexes, x);
      if (g_strcmp0 (index->partition.name, name) == 0 || g_strcmp0 (index->sort.name, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* A template on an attribute no key reads is most likely a misspelt key name ("Pk"). */
static void
check_key_names (const DyModelEntity *e, const DyModelTable *table, DyCheckReport *report)
{
  for (guint i = 0; i < e->keys->len; i++)
    {
      const DyModelKey *key = g_ptr_array_index (e->keys, i);
      if (!is_key_attr (table, key->attr))
        add_flag (report, DY_FLAG_UNKNOWN_KEY,
                  "entity %s: %s = \"%s\" is a template for %s, which is no key of table %s nor "
                  "of its indexes", e->name, key->attr, key->tpl->source, key->attr, table->name);
    }
}

static void
check_lengths (const DyModelEntity *e, const DyModelTable *table, DyCheckReport *report)
{
  for (guint i = 0; i < e->keys->len; i++)
    {
      const DyModelKey *key = g_ptr_array_index (e->keys, i);
      gboolean is_sort = table->sort.name && g_str_equal (key->attr, table->sort.name);
      for (guint x = 0; !is_sort && x < table->indexes->len; x++)
        {
          const DyModelIndex *index = g_ptr_array_index (table->indexes, x);
          is_sort = index->sort.name && g_str_equal (key->attr, index->sort.name);
        }
      gsize limit = is_sort ? DY_SORT_KEY_MAX : DY_PARTITION_KEY_MAX;
      /* Fields of no stated length count as empty: only a known excess is flagged. */
      gsize len = dy_template_max_length (key->tpl, e->max_lengths, 0);
      if (len > limit)
        add_flag (report, DY_FLAG_TOO_LONG,
                  "entity %s: %s = \"%s\" can be %zu bytes, over DynamoDB's %zu for a %s key",
                  e->name, key->attr, key->tpl->source, len, limit,
                  is_sort ? "sort" : "partition");
    }
}

/* Whether the field NAME of E is a low-cardinality attribute (check.h gives the rule); *WHY says
 * what showed it. */
static gboolean
low_cardinality_field (const DyModelEntity *e, const DyModelTable *table, const char *name,
                       char **why)
{
  const DyModelAttr *a = entity_attr (e, table, name);
  if (a && g_strcmp0 (a->type, "BOOL") == 0)
    {
      *why = g_strdup_printf ("{%s} is a BOOL, of two values", name);
      return TRUE;
    }
  g_autoptr (GHashTable) distinct = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  size_t i, holding = 0;
  json_t *item;
  json_array_foreach (table->items, i, item)
    {
      json_t *v = json_object_get (item, name);
      if (v == NULL)
        continue;
      holding++;
      g_hash_table_add (distinct, json_dumps (v, JSON_COMPACT | JSON_SORT_KEYS));
    }
  if (holding < DY_LOW_CARDINALITY_MIN_ITEMS
      || g_hash_table_size (distinct) > DY_LOW_CARDINALITY_MAX_VALUES)
    return FALSE;
  *why = g_strdup_printf ("{%s} holds %u distinct values in %zu sample items", name,
                          g_hash_table_size (distinct), holding);
  return TRUE;
}

/* A partition key of few values puts its items in few partitions, each of which serves at most
 * 3,000 RCU and 1,000 WCU however large the table's capacity. */
static void
check_cardinality (const DyModelEntity *e, const DyModelTable *table, DyCheckReport *report)
{
  for (guint x = 0; x <= table->indexes->len; x++)
    {
      const DyModelIndex *index = x > 0 ? g_ptr_array_index (table->indexes, x - 1) : NULL;
      if (index != NULL && index->local)
        continue; /* an LSI's partition key is the table's */
      const char *attr = index ? index->partition.name : table->partition.name;
      const DyModelKey *key = attr ? dy_model_entity_find_key (e, attr) : NULL;
      if (key == NULL)
        continue;
      g_autofree char *of = index ? g_strdup_printf ("the partition key of index %s", index->name)
                                  : g_strdup ("the partition key");
      if (dy_template_n_fields (key->tpl) == 0)
        {
          add_flag (report, DY_FLAG_LOW_CARDINALITY,
                    "entity %s: %s %s = \"%s\" is a constant: every %s item is in one "
                    "partition, which serves at most 3,000 RCU and 1,000 WCU (a hot "
                    "partition); compose it with an attribute of many values "
                    "(\"%s#{id}\") or shard it with a suffix (\"%s#{shard:02}\", read with "
                    "one Query per shard)",
                    e->name, of, attr, key->tpl->source, e->name, key->tpl->source,
                    key->tpl->source);
          continue;
        }
      g_autoptr (GString) whys = g_string_new (NULL);
      gboolean all_low = TRUE;
      for (guint i = 0; all_low && i < key->tpl->parts->len; i++)
        {
          const DyTemplatePart *part = g_ptr_array_index (key->tpl->parts, i);
          g_autofree char *why = NULL;
          if (part->kind != DY_TEMPLATE_FIELD)
            continue;
          all_low = low_cardinality_field (e, table, part->text, &why);
          if (all_low)
            g_string_append_printf (whys, "%s%s", whys->len ? "; " : "", why);
        }
      if (all_low)
        add_flag (report, DY_FLAG_LOW_CARDINALITY,
                  "entity %s: %s %s = \"%s\" takes few values (%s): its items crowd into that "
                  "many partitions, each serving at most 3,000 RCU and 1,000 WCU (hot "
                  "partitions); compose it with an attribute of many values (\"%s#{id}\") or "
                  "shard it with a suffix (\"%s#{shard:02}\", read with one Query per shard)",
                  e->name, of, attr, key->tpl->source, whys->str, key->tpl->source,
                  key->tpl->source);
    }
}

DyCaseStyle
dy_check_case_style (const char *s)
{
  gboolean upper = FALSE, lower = FALSE;
  for (; *s; s++)
    {
      upper |= g_ascii_isupper (*s);
      lower |= g_ascii_islower (*s);
    }
  return upper && lower ? DY_CASE_MIXED : upper ? DY_CASE_UPPER : lower ? DY_CASE_LOWER
                                                                        : DY_CASE_NONE;
}

gboolean
dy_check_has_template (const DyModel *model, const DyModelTable *table, const char *attr)
{
  for (guint i = 0; attr && i < model->entities->len; i++)
    {
      const DyModelEntity *e = g_ptr_array_index (model->entities, i);
      if (g_str_equal (e->table, table->name) && dy_model_entity_find_key (e, attr))
        return TRUE;
    }
  return FALSE;
}

/* The sort keys of one item collection (entities whose partition-key templates share a literal
 * prefix) should share a case: DynamoDB compares bytes, and every upper-case letter sorts before
 * every lower-case one. */
static void
check_case (const DyModel *model, const DyModelTable *table, DyCheckReport *report)
{
  if (table->sort.name == NULL)
    return;
  for (guint i = 0; i < model->entities->len; i++)
    for (guint j = i + 1; j < model->entities->len; j++)
      {
        const DyModelEntity *a = g_ptr_array_index (model->entities, i);
        const DyModelEntity *b = g_ptr_array_index (model->entities, j);
        if (!g_str_equal (a->table, table->name) || !g_str_equal (b->table, table->name))
          continue;
        const DyModelKey *apk = dy_model_entity_find_key (a, table->partition.name);
        const DyModelKey *bpk = dy_model_entity_find_key (b, table->partition.name);
        const DyModelKey *ask = dy_model_entity_find_key (a, table->sort.name);
        const DyModelKey *bsk = dy_model_entity_find_key (b, table->sort.name);
        if (!apk || !bpk || !ask || !bsk)
          continue;
        g_autofree char *ap = dy_template_literal_prefix (apk->tpl);
        g_autofree char *bp = dy_template_literal_prefix (bpk->tpl);
        if (!g_str_equal (ap, bp))
          continue;
        g_autofree char *as = dy_template_literal_prefix (ask->tpl);
        g_autofree char *bs = dy_template_literal_prefix (bsk->tpl);
        DyCaseStyle ca = dy_check_case_style (as), cb = dy_check_case_style (bs);
        if (ca != DY_CASE_NONE && cb != DY_CASE_NONE && ca != cb)
          add_flag (report, DY_FLAG_MIXED_CASE,
                    "table %s: sort keys \"%s\" (%s) and \"%s\" (%s) of one item collection "
                    "differ in case; DynamoDB compares bytes, so every upper-case letter sorts "
                    "before every lower-case one: write them in one case",
                    table->name, ask->tpl->source, a->name, bsk->tpl->source, b->name);
      }
}

DyCheckReport *
dy_model_check (const DyModel *model)
{
  DyCheckReport *report = g_new0 (DyCheckReport, 1);
  report->resolutions = g_ptr_array_new_with_free_func (resolution_free);
  report->flags = g_ptr_array_new_with_free_func (flag_free);
  report->skipped = g_ptr_array_new_with_free_func (flag_free);

  for (guint i = 0; i < model->patterns->len; i++)
    {
      const DyModelPattern *p = g_ptr_array_index (model->patterns, i);
      DyResolution *r = g_new0 (DyResolution, 1);
      r->pattern = p;
      g_ptr_array_add (report->resolutions, r);
      if (!resolve (model, p, r))
        add_flag (report, DY_FLAG_PATTERN, "pattern \"%s\": %s", p->name, r->why);
    }
  for (guint t = 0; t < model->tables->len; t++)
    {
      const DyModelTable *table = g_ptr_array_index (model->tables, t);
      check_collisions (model, table, report);
      check_case (model, table, report);
      for (guint i = 0; i < model->entities->len; i++)
        {
          const DyModelEntity *e = g_ptr_array_index (model->entities, i);
          if (!g_str_equal (e->table, table->name))
            continue;
          if (table->sort.name)
            check_sort_key (e, table, table->sort.name, report);
          for (guint x = 0; x < table->indexes->len; x++)
            {
              const DyModelIndex *index = g_ptr_array_index (table->indexes, x);
              if (index->sort.name && !(table->sort.name
                                        && g_str_equal (index->sort.name, table->sort.name)))
                check_sort_key (e, table, index->sort.name, report);
            }
          check_lengths (e, table, report);
          check_key_names (e, table, report);
          check_cardinality (e, table, report);
        }
      dy_check_samples (model, table, report);
    }
  if (model->patterns->len == 0)
    dy_check_add_skipped (report, DY_FLAG_PATTERN,
                          "the model has no access patterns to resolve to requests (a NoSQL "
                          "Workbench model holds none: Dynoscope reads them from "
                          "x-dynoscope.patterns, each an entity, its inputs and whether it "
                          "reads many items)");
  return report;
}
