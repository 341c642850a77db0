/* check-sample.c: a table's keys checked on its sample items, for the keys no template describes
 * (a plain NoSQL Workbench model has none): the table's TableData and its facets' TableData, whose
 * items name attributes by their real names (a facet's KeyAttributeAlias is a display name, read
 * too when an item uses it). Each check that has neither templates nor enough sample items to run
 * says so in the report's `skipped`. */
#include "model/check-private.h"

#include <string.h>

/* A sample item and where it comes from. */
typedef struct {
  json_t *item;                 /* a reference */
  const DyModelEntity *facet;   /* NULL: the table's own TableData */
  gsize place;                  /* its index in that TableData */
  gboolean copy;                /* the same item as an earlier sample (facet and table data) */
} Sample;

static void
sample_free (gpointer data)
{
  Sample *s = data;
  json_decref (s->item);
  g_free (s);
}

/* ITEM with the member named ALIAS renamed to NAME, when it has ALIAS and not NAME. */
static json_t *
unalias (json_t *item, json_t *aliases, const char *member, const char *name)
{
  const char *alias = json_string_value (json_object_get (aliases, member));
  if (name == NULL || alias == NULL || g_str_equal (alias, name)
      || json_object_get (item, name) != NULL || json_object_get (item, alias) == NULL)
    return item;
  json_t *copy = json_copy (item);
  json_object_set (copy, name, json_object_get (item, alias));
  json_object_del (copy, alias);
  json_decref (item);
  return copy;
}

static void
add_samples (GPtrArray *samples, GHashTable *seen, json_t *data, const DyModelEntity *facet,
             const DyModelTable *table)
{
  json_t *aliases = facet ? json_object_get (facet->extra, "KeyAttributeAlias") : NULL;
  size_t i;
  json_t *v;
  json_array_foreach (data, i, v)
    {
      if (!json_is_object (v))
        continue;
      Sample *s = g_new0 (Sample, 1);
      s->item = unalias (json_incref (v), aliases, "PartitionKeyAlias", table->partition.name);
      s->item = unalias (s->item, aliases, "SortKeyAlias", table->sort.name);
      s->facet = facet;
      s->place = i;
      char *dump = json_dumps (s->item, JSON_COMPACT | JSON_SORT_KEYS);
      s->copy = !g_hash_table_add (seen, dump);
      g_ptr_array_add (samples, s);
    }
}

/* The table's sample items, then each facet's. */
static GPtrArray *
gather (const DyModel *model, const DyModelTable *table)
{
  GPtrArray *samples = g_ptr_array_new_with_free_func (sample_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  add_samples (samples, seen, table->items, NULL, table);
  for (guint i = 0; i < model->entities->len; i++)
    {
      const DyModelEntity *e = g_ptr_array_index (model->entities, i);
      if (g_str_equal (e->table, table->name))
        add_samples (samples, seen, json_object_get (e->extra, "TableData"), e, table);
    }
  return samples;
}

static char *
where_from (const DyModelTable *table, const Sample *s)
{
  return s->facet ? g_strdup_printf ("facet %s's TableData[%zu]", s->facet->name, s->place)
                  : g_strdup_printf ("table %s's TableData[%zu]", table->name, s->place);
}

/* The DynamoDB type of an attribute value ("S"), or NULL. */
static const char *
value_type (json_t *v)
{
  void *it = json_is_object (v) && json_object_size (v) == 1 ? json_object_iter (v) : NULL;
  return it ? json_object_iter_key (it) : NULL;
}

/* A value as a message shows it: a string or number as its text, else its JSON. */
static char *
value_text (json_t *v)
{
  const char *type = value_type (v);
  json_t *inner = type ? json_object_get (v, type) : NULL;
  if (json_is_string (inner) && (g_str_equal (type, "S") || g_str_equal (type, "N")))
    return g_strdup_printf ("\"%s\"", json_string_value (inner));
  return json_dumps (v, JSON_COMPACT | JSON_SORT_KEYS);
}

/* A key attribute of the table or of an index, with what messages call it. */
typedef struct {
  const DyModelAttr *attr;
  const DyModelIndex *index; /* NULL: the table's */
  gboolean sort;
} KeyRef;

static GArray *
key_refs (const DyModelTable *table)
{
  GArray *keys = g_array_new (FALSE, TRUE, sizeof (KeyRef));
  KeyRef k = { &table->partition, NULL, FALSE };
  g_array_append_val (keys, k);
  if (table->sort.name)
    {
      k = (KeyRef) { &table->sort, NULL, TRUE };
      g_array_append_val (keys, k);
    }
  for (guint x = 0; x < table->indexes->len; x++)
    {
      const DyModelIndex *index = g_ptr_array_index (table->indexes, x);
      if (index->partition.name)
        {
          k = (KeyRef) { &index->partition, index, FALSE };
          g_array_append_val (keys, k);
        }
      if (index->sort.name)
        {
          k = (KeyRef) { &index->sort, index, TRUE };
          g_array_append_val (keys, k);
        }
    }
  return keys;
}

static char *
key_label (const KeyRef *k)
{
  const char *role = k->sort ? "sort key" : "partition key";
  return k->index ? g_strdup_printf ("the %s %s of index %s", role, k->attr->name, k->index->name)
                  : g_strdup_printf ("the %s %s", role, k->attr->name);
}

/* Items DynamoDB would refuse: without the table's key, or a key of another type. */
static void
check_item_keys (const DyModelTable *table, GPtrArray *samples, DyCheckReport *report)
{
  g_autoptr (GArray) keys = key_refs (table);
  for (guint k = 0; k < keys->len; k++)
    {
      const KeyRef *ref = &g_array_index (keys, KeyRef, k);
      guint missing = 0, mistyped = 0;
      g_autofree char *first_missing = NULL, *first_mistyped = NULL, *bad_type = NULL;
      for (guint i = 0; i < samples->len; i++)
        {
          const Sample *s = g_ptr_array_index (samples, i);
          json_t *v = json_object_get (s->item, ref->attr->name);
          const char *type = value_type (v);
          if (s->copy)
            continue;
          if (v == NULL && ref->index == NULL)
            {
              if (missing++ == 0)
                first_missing = where_from (table, s);
            }
          else if (v != NULL && ref->attr->type && g_strcmp0 (type, ref->attr->type) != 0)
            {
              if (mistyped++ == 0)
                {
                  first_mistyped = where_from (table, s);
                  bad_type = g_strdup (type ? type : "?");
                }
            }
        }
      g_autofree char *label = key_label (ref);
      if (missing > 0)
        dy_check_add_flag (report, DY_FLAG_SAMPLE_KEY,
                           "table %s: %u sample item%s (first in %s) lack%s %s: DynamoDB "
                           "refuses an item without its key", table->name, missing,
                           missing == 1 ? "" : "s", first_missing, missing == 1 ? "s" : "",
                           label);
      if (mistyped > 0)
        dy_check_add_flag (report, DY_FLAG_SAMPLE_KEY,
                           "table %s: %u sample item%s (first in %s, of type %s) hold%s %s, "
                           "defined as %s, with another type: DynamoDB refuses such an item",
                           table->name, mistyped, mistyped == 1 ? "" : "s", first_mistyped,
                           bad_type, mistyped == 1 ? "s" : "", label, ref->attr->type);
    }
}

/* The distinct values of ATTR among SAMPLES (of FACET only, unless NULL), in the order first seen,
 * and how many samples hold it. */
static GPtrArray *
distinct_values (GPtrArray *samples, const DyModelEntity *facet, const char *attr, guint *holding)
{
  GPtrArray *values = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  *holding = 0;
  for (guint i = 0; i < samples->len; i++)
    {
      const Sample *s = g_ptr_array_index (samples, i);
      json_t *v = json_object_get (s->item, attr);
      if (v == NULL || s->copy || (facet != NULL && s->facet != facet))
        continue;
      (*holding)++;
      if (g_hash_table_add (seen, json_dumps (v, JSON_COMPACT | JSON_SORT_KEYS)))
        g_ptr_array_add (values, v);
    }
  return values;
}

static char *
values_text (GPtrArray *values)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < values->len; i++)
    {
      g_autofree char *t = value_text (g_ptr_array_index (values, i));
      g_string_append_printf (s, "%s%s", i ? ", " : "", t);
    }
  return g_string_free (s, FALSE);
}

static void
flag_few_values (DyCheckReport *report, const char *table, const KeyRef *ref, GPtrArray *values,
                 guint holding)
{
  g_autofree char *label = key_label (ref);
  g_autofree char *shown = values_text (values);
  dy_check_add_flag (report, DY_FLAG_LOW_CARDINALITY,
                     "table %s: %s takes %u value%s in %u sample items (%s): its items crowd "
                     "into that many partitions, each serving at most 3,000 RCU and 1,000 WCU (hot "
                     "partitions); key it by an attribute of many values, compose it with one "
                     "(\"<value>#<id>\"), or shard it with a suffix (\"<value>#07\", read with "
                     "one Query per shard)", table, label, values->len,
                     values->len == 1 ? "" : "s", holding, shown);
}

/* Partition keys (the table's and its GSIs') of few values in the sample, for those without a
 * template. (Over all the table's items: a facet's alone share a partition key by design when
 * they are one item collection.) */
static void
check_cardinality (const DyModel *model, const DyModelTable *table, GPtrArray *samples,
                   DyCheckReport *report)
{
  g_autoptr (GArray) keys = key_refs (table);
  g_autoptr (GString) unjudged = g_string_new (NULL);
  for (guint k = 0; k < keys->len; k++)
    {
      const KeyRef *ref = &g_array_index (keys, KeyRef, k);
      if (ref->sort || (ref->index && ref->index->local)
          || dy_check_has_template (model, table, ref->attr->name))
        continue;
      guint holding;
      g_autoptr (GPtrArray) values = distinct_values (samples, NULL, ref->attr->name, &holding);
      if (values->len > DY_LOW_CARDINALITY_MAX_VALUES)
        continue;
      if (holding >= DY_LOW_CARDINALITY_SAMPLE_MIN_ITEMS)
        flag_few_values (report, table->name, ref, values, holding);
      else
        {
          g_autofree char *label = key_label (ref);
          g_string_append_printf (unjudged, "%s%s (%u value%s in %u sample item%s)",
                                  unjudged->len ? "; " : "", label, values->len,
                                  values->len == 1 ? "" : "s", holding, holding == 1 ? "" : "s");
        }
    }
  if (unjudged->len > 0)
    dy_check_add_skipped (report, DY_FLAG_LOW_CARDINALITY,
                          "table %s: %s: no template, and too few sample items to judge how many "
                          "values it takes (at least %d items)",
                          table->name, unjudged->str, DY_LOW_CARDINALITY_SAMPLE_MIN_ITEMS);
}

/* The size in bytes DynamoDB counts for a key value: a string's UTF-8 bytes, a binary's. */
static gsize
key_bytes (json_t *v)
{
  const char *type = value_type (v);
  const char *text = type ? json_string_value (json_object_get (v, type)) : NULL;
  if (text == NULL)
    return 0;
  gsize n = strlen (text);
  if (!g_str_equal (type, "B"))
    return n;
  gsize pad = (n > 0 && text[n - 1] == '=') + (n > 1 && text[n - 2] == '=');
  return n / 4 * 3 - pad;
}

static void
check_lengths (const DyModelTable *table, GPtrArray *samples, DyCheckReport *report)
{
  g_autoptr (GArray) keys = key_refs (table);
  for (guint k = 0; k < keys->len; k++)
    {
      const KeyRef *ref = &g_array_index (keys, KeyRef, k);
      gsize limit = ref->sort ? DY_SORT_KEY_MAX : DY_PARTITION_KEY_MAX, longest = 0;
      const Sample *at = NULL;
      for (guint i = 0; i < samples->len; i++)
        {
          const Sample *s = g_ptr_array_index (samples, i);
          gsize n = key_bytes (json_object_get (s->item, ref->attr->name));
          if (n > longest)
            {
              longest = n;
              at = s;
            }
        }
      if (longest <= limit)
        continue;
      g_autofree char *label = key_label (ref);
      g_autofree char *where = where_from (table, at);
      dy_check_add_flag (report, DY_FLAG_TOO_LONG,
                         "table %s: %s is %zu bytes in %s, over DynamoDB's %zu for a %s key",
                         table->name, label, longest, where, limit,
                         ref->sort ? "sort" : "partition");
    }
}

/* S with each run of digits as one \1: two values of one shape differ only in their numbers. */
static char *
number_shape (const char *s)
{
  GString *out = g_string_new (NULL);
  while (*s)
    if (g_ascii_isdigit (*s))
      {
        g_string_append_c (out, '\1');
        while (g_ascii_isdigit (*s))
          s++;
      }
    else
      g_string_append_c (out, *s++);
  return g_string_free (out, FALSE);
}

/* The sign of comparing A and B, of one shape, as people read them: runs of digits as numbers. */
static int
natural_order (const char *a, const char *b)
{
  while (*a && *b)
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          const char *ea, *eb;
          while (*a == '0' && g_ascii_isdigit (a[1]))
            a++;
          while (*b == '0' && g_ascii_isdigit (b[1]))
            b++;
          for (ea = a; g_ascii_isdigit (*ea); ea++)
            ;
          for (eb = b; g_ascii_isdigit (*eb); eb++)
            ;
          if (ea - a != eb - b)
            return ea - a < eb - b ? -1 : 1;
          int c = strncmp (a, b, ea - a);
          if (c != 0)
            return c < 0 ? -1 : 1;
          a = ea;
          b = eb;
          continue;
        }
      if (*a != *b)
        return *a < *b ? -1 : 1;
      a++;
      b++;
    }
  return *a == *b ? 0 : *a ? 1 : -1;
}

/* Two sample values of string sort key REF of one shape whose numbers sort out of order. */
static gboolean
check_padding (const DyModelTable *table, const KeyRef *ref, GPtrArray *samples,
               DyCheckReport *report)
{
  guint holding;
  g_autoptr (GPtrArray) values = distinct_values (samples, NULL, ref->attr->name, &holding);
  guint n = MIN (values->len, 1000);
  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      {
        const char *a = json_string_value (json_object_get (g_ptr_array_index (values, i), "S"));
        const char *b = json_string_value (json_object_get (g_ptr_array_index (values, j), "S"));
        if (a == NULL || b == NULL)
          continue;
        g_autofree char *shape_a = number_shape (a);
        g_autofree char *shape_b = number_shape (b);
        int natural = natural_order (a, b);
        if (!g_str_equal (shape_a, shape_b) || natural == 0
            || (natural < 0) == (strcmp (a, b) < 0))
          continue;
        const char *lo = natural < 0 ? a : b, *hi = natural < 0 ? b : a;
        g_autofree char *label = key_label (ref);
        dy_check_add_flag (report, DY_FLAG_UNPADDED,
                           "table %s: %s holds \"%s\" and \"%s\" in its sample items: a number "
                           "without zero padding, so \"%s\" sorts before \"%s\": pad its numbers "
                           "with zeros to their most digits", table->name, label, lo, hi, hi, lo);
        return TRUE;
      }
  return values->len >= 2;
}

/* The leading letters of a composite sort key ("ORDER" of "ORDER#12"), or NULL when the value
 * does not start with a word followed by a separator. */
static char *
word_prefix (const char *s)
{
  const char *e = s;
  while (g_ascii_isalpha (*e))
    e++;
  if (e == s || (*e != '#' && *e != '|' && *e != ':'))
    return NULL;
  return g_strndup (s, e - s);
}

/* Sort keys of one item collection (one partition key value) whose word prefixes differ in case. */
static void
check_case (const DyModelTable *table, GPtrArray *samples, DyCheckReport *report)
{
  g_autoptr (GHashTable) first = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < samples->len; i++)
    {
      const Sample *s = g_ptr_array_index (samples, i);
      json_t *pk = json_object_get (s->item, table->partition.name);
      const char *sk = json_string_value (json_object_get (json_object_get (s->item,
                                                                            table->sort.name),
                                                           "S"));
      g_autofree char *word = sk ? word_prefix (sk) : NULL;
      if (pk == NULL || word == NULL || dy_check_case_style (word) == DY_CASE_MIXED)
        continue;
      char *collection = json_dumps (pk, JSON_COMPACT | JSON_SORT_KEYS);
      const char *other = g_hash_table_lookup (first, collection);
      if (other == NULL)
        {
          g_hash_table_insert (first, collection, g_strdup (sk));
          continue;
        }
      g_autofree char *other_word = word_prefix (other);
      if (dy_check_case_style (other_word) != dy_check_case_style (word))
        {
          g_autofree char *pk_text = value_text (pk);
          dy_check_add_flag (report, DY_FLAG_MIXED_CASE,
                             "table %s: sort keys \"%s\" and \"%s\" of one item collection (%s = "
                             "%s) differ in case; DynamoDB compares bytes, so every upper-case "
                             "letter sorts before every lower-case one: write them in one case",
                             table->name, other, sk, table->partition.name, pk_text);
          g_free (collection);
          return;
        }
      g_free (collection);
    }
}

/* Two different sample items of one primary key: from two facets, or twice in one TableData. */
static void
check_collisions (const DyModelTable *table, GPtrArray *samples, DyCheckReport *report)
{
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < samples->len; i++)
    {
      const Sample *s = g_ptr_array_index (samples, i);
      json_t *pk = json_object_get (s->item, table->partition.name);
      json_t *sk = table->sort.name ? json_object_get (s->item, table->sort.name) : NULL;
      if (s->copy || pk == NULL || (table->sort.name && sk == NULL))
        continue;
      json_t *key = json_pack ("[O, O]", pk, sk ? sk : json_null ());
      char *dump = json_dumps (key, JSON_COMPACT | JSON_SORT_KEYS);
      json_decref (key);
      const Sample *other = g_hash_table_lookup (by_key, dump);
      if (other == NULL)
        {
          g_hash_table_insert (by_key, dump, (gpointer) s);
          continue;
        }
      g_free (dump);
      /* A facet shows its items of the table's data: the same key there is one item. */
      if ((other->facet == NULL) != (s->facet == NULL))
        continue;
      g_autofree char *pk_text = value_text (pk);
      g_autofree char *sk_text = sk ? value_text (sk) : NULL;
      g_autofree char *key_text = sk ? g_strdup_printf ("%s = %s, %s = %s", table->partition.name,
                                                        pk_text, table->sort.name, sk_text)
                                     : g_strdup_printf ("%s = %s", table->partition.name,
                                                        pk_text);
      if (other->facet != s->facet && other->facet && s->facet)
        dy_check_add_flag (report, DY_FLAG_COLLISION,
                           "table %s: facets %s and %s both have a sample item of key %s: "
                           "DynamoDB keeps one item per key, so writing one replaces the other; "
                           "give each facet's keys a literal text of their own, such as a prefix",
                           table->name, other->facet->name, s->facet->name, key_text);
      else
        dy_check_add_flag (report, DY_FLAG_COLLISION,
                           "table %s: %s%s has two different sample items of key %s: DynamoDB "
                           "keeps one item per key, so the second replaces the first",
                           table->name, s->facet ? "facet " : "its TableData",
                           s->facet ? s->facet->name : "", key_text);
      return;
    }
}

static guint
count_facets (const DyModel *model, const DyModelTable *table, gboolean with_data)
{
  guint n = 0;
  for (guint i = 0; i < model->entities->len; i++)
    {
      const DyModelEntity *e = g_ptr_array_index (model->entities, i);
      if (g_str_equal (e->table, table->name)
          && (!with_data || json_array_size (json_object_get (e->extra, "TableData")) > 0))
        n++;
    }
  return n;
}

void
dy_check_samples (const DyModel *model, const DyModelTable *table, DyCheckReport *report)
{
  g_autoptr (GPtrArray) samples = gather (model, table);
  gboolean any_template = FALSE;
  for (guint i = 0; i < model->entities->len; i++)
    {
      const DyModelEntity *e = g_ptr_array_index (model->entities, i);
      any_template |= g_str_equal (e->table, table->name) && e->keys->len > 0;
    }

  check_item_keys (table, samples, report);
  check_lengths (table, samples, report);
  check_cardinality (model, table, samples, report);

  g_autoptr (GArray) keys = key_refs (table);
  g_autoptr (GString) unpadded = g_string_new (NULL);
  for (guint k = 0; k < keys->len; k++)
    {
      const KeyRef *ref = &g_array_index (keys, KeyRef, k);
      if (!ref->sort || g_strcmp0 (ref->attr->type, "S") != 0
          || dy_check_has_template (model, table, ref->attr->name)
          || check_padding (table, ref, samples, report))
        continue;
      g_autofree char *label = key_label (ref);
      g_string_append_printf (unpadded, "%s%s", unpadded->len ? "; " : "", label);
    }
  if (unpadded->len > 0)
    dy_check_add_skipped (report, DY_FLAG_UNPADDED,
                          "table %s: %s: neither a template nor two sample values to tell whether "
                          "its numbers are zero-padded", table->name, unpadded->str);

  gboolean plain_sort = table->sort.name && !dy_check_has_template (model, table, table->sort.name);
  if (plain_sort)
    check_case (table, samples, report);
  if (!dy_check_has_template (model, table, table->partition.name))
    check_collisions (table, samples, report);

  if (!any_template)
    {
      dy_check_add_skipped (report, DY_FLAG_UNKNOWN_KEY,
                            "table %s: no key templates (x-dynoscope.entities.<Facet>.keys) to "
                            "match against its key attributes", table->name);
      if (samples->len == 0)
        dy_check_add_skipped (report, DY_FLAG_TOO_LONG,
                              "table %s: neither key templates nor sample items to measure its "
                              "keys by", table->name);
      if (plain_sort && samples->len < 2)
        dy_check_add_skipped (report, DY_FLAG_MIXED_CASE,
                              "table %s: neither key templates nor sample items to compare its "
                              "sort keys by", table->name);
      if (count_facets (model, table, FALSE) >= 2 && count_facets (model, table, TRUE) < 2)
        dy_check_add_skipped (report, DY_FLAG_COLLISION,
                              "table %s: neither key templates nor sample items in two of its "
                              "facets to tell whether two facets' keys can be the same",
                              table->name);
    }
}
