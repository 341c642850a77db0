/* infer.c: a model proposed from a table's description and a sample of its items (the rules
 * are in infer.h). The items are sorted by their key first, so that the proposal is the same
 * whichever backend read them and in whatever order its Scan segments returned them. */
#include "model/infer.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "model/keys.h"

/* A field of a key as read from the values: one segment (or one number of a segment). */
typedef struct {
  char *name;
  guint width;       /* zero-padded width, 0 when not padded */
  gboolean digits;   /* every value is digits */
  gboolean year;     /* the first number of a "2026-0040" segment, a year */
  gboolean date;     /* every value is YYYY-MM-DD */
  gboolean stamp;    /* every value is an ISO 8601 timestamp */
  char *after;       /* the literal word just before it ("WS" of "WS#{…}"), or NULL */
  gboolean last;     /* the last part of the value */
  GPtrArray *values; /* char*, one per item of its key */
} Field;

typedef struct {
  char *literal; /* the literal text, or NULL for a field */
  Field *field;
} Part;

/* One key attribute of one entity, as its values show it. */
typedef struct {
  const char *attr;
  gboolean partition;
  GPtrArray *items; /* json_t*, borrowed: the entity's items holding the attribute */
  GPtrArray *parts; /* Part* */
  guint n_fields;
} Shape;

typedef struct {
  char *sig;
  GPtrArray *items;  /* json_t*, borrowed, in key order */
  GPtrArray *shapes; /* Shape* */
  char *pk_word, *sk_word;
} Group;

typedef struct {
  char *name;
  char *type;
  gboolean partition;
  char sep; /* the separator its values use, or 0 */
} KeyAttr;

static void
field_free (Field *f)
{
  g_free (f->name);
  g_free (f->after);
  g_ptr_array_unref (f->values);
  g_free (f);
}

static void
part_free (gpointer data)
{
  Part *p = data;
  g_free (p->literal);
  if (p->field)
    field_free (p->field);
  g_free (p);
}

static void
shape_free (gpointer data)
{
  Shape *s = data;
  g_ptr_array_unref (s->items);
  g_ptr_array_unref (s->parts);
  g_free (s);
}

static void
group_free (gpointer data)
{
  Group *g = data;
  g_free (g->sig);
  g_ptr_array_unref (g->items);
  g_ptr_array_unref (g->shapes);
  g_free (g->pk_word);
  g_free (g->sk_word);
  g_free (g);
}

static void
key_attr_free (gpointer data)
{
  KeyAttr *k = data;
  g_free (k->name);
  g_free (k->type);
  g_free (k);
}

/* The text of an S or N attribute value ({"S": "…"}); NULL for another type or none. */
static const char *
value_text (json_t *item, const char *attr)
{
  json_t *v = json_object_get (item, attr);
  json_t *s = json_object_get (v, "S");
  if (s == NULL)
    s = json_object_get (v, "N");
  return json_string_value (s);
}

/* The type name of an attribute value ("S", "BOOL", …), or NULL. */
static const char *
value_type (json_t *v)
{
  void *iter = json_object_iter (v);
  return iter ? json_object_iter_key (iter) : NULL;
}

static gboolean
all_digits (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

/* A word that names something: "WS", "PROJ", "user"; CAPITALS: only upper case, digits, '_'. */
static gboolean
is_word (const char *s, gboolean capitals)
{
  if (!g_ascii_isalpha (*s) || (capitals && !g_ascii_isupper (*s)))
    return FALSE;
  for (s++; *s; s++)
    if (!(g_ascii_isalnum (*s) || *s == '_') || (capitals && g_ascii_islower (*s)))
      return FALSE;
  return TRUE;
}

static gboolean
is_date (const char *s)
{
  static const char form[] = "dddd-dd-dd";
  for (guint i = 0; i < sizeof form - 1; i++)
    if (form[i] == 'd' ? !g_ascii_isdigit (s[i]) : s[i] != form[i])
      return FALSE;
  return TRUE;
}

static gboolean
is_timestamp (const char *s)
{
  return is_date (s) && s[10] == 'T' && g_ascii_isdigit (s[11]);
}

/* Digits joined by '-' ("2026-0040"), not a date: its number of numbers, else 0. */
static guint
dashed_numbers (const char *s)
{
  guint n = 1;
  if (is_date (s))
    return 0;
  for (const char *p = s; *p; p++)
    if (*p == '-')
      {
        if (p == s || p[1] == '\0' || p[1] == '-')
          return 0;
        n++;
      }
    else if (!g_ascii_isdigit (*p))
      return 0;
  return n > 1 ? n : 0;
}

/* "ORDER_ITEM" -> "OrderItem", "WS" -> "Workspace": the entity a key word stands for. */
static char *
word_name (const char *word)
{
  static const char *const known[][2] = {
    { "ACC", "Account" },     { "ACCT", "Account" },     { "ADDR", "Address" },
    { "C", "Customer" },      { "CAT", "Category" },     { "CMT", "Comment" },
    { "CUST", "Customer" },   { "DEPT", "Department" },  { "EMP", "Employee" },
    { "EVT", "Event" },       { "INV", "Invoice" },      { "MSG", "Message" },
    { "ORD", "Order" },       { "ORG", "Organization" }, { "PRJ", "Project" },
    { "PROD", "Product" },    { "PROJ", "Project" },     { "SESS", "Session" },
    { "TXN", "Transaction" }, { "U", "User" },           { "USR", "User" },
    { "WS", "Workspace" },
  };
  GString *out = g_string_new (NULL);
  gboolean up = TRUE;

  for (gsize i = 0; i < G_N_ELEMENTS (known); i++)
    if (g_ascii_strcasecmp (word, known[i][0]) == 0)
      return g_strdup (known[i][1]);
  for (const char *p = word; *p; p++)
    {
      if (*p == '_')
        {
          up = TRUE;
          continue;
        }
      g_string_append_c (out, up ? g_ascii_toupper (*p) : g_ascii_tolower (*p));
      up = FALSE;
    }
  return g_string_free (out, FALSE);
}

/* NAME with its first letter in lower case, or all of it when it is all capitals ("PK"). */
static char *
lower_first (const char *name)
{
  char *out;
  if (is_word (name, TRUE))
    return g_ascii_strdown (name, -1);
  out = g_strdup (name);
  out[0] = g_ascii_tolower (out[0]);
  return out;
}

/* The words of a CamelCase name: "CustomerCountryProduct" -> customer, country, product. */
static GPtrArray *
camel_words (const char *name)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  const char *start = name;
  for (const char *p = name; *p; p++)
    if (p > start && g_ascii_isupper (*p) && g_ascii_islower (p[-1]))
      {
        g_ptr_array_add (words, g_ascii_strdown (start, p - start));
        start = p;
      }
  if (*start)
    g_ptr_array_add (words, g_ascii_strdown (start, -1));
  return words;
}

/* The separator of ATTR's values: '#' when one of them holds it, else '|', else none. */
static char
choose_separator (json_t *items, const char *attr)
{
  static const char seps[] = { '#', '|' };
  for (gsize s = 0; s < G_N_ELEMENTS (seps); s++)
    {
      size_t i;
      json_t *item;
      json_array_foreach (items, i, item)
        {
          const char *v = value_text (item, attr);
          if (v != NULL && strchr (v, seps[s]) != NULL)
            return seps[s];
        }
    }
  return 0;
}

static char **
split_value (const char *v, char sep)
{
  char s[2] = { sep, 0 };
  if (sep == 0)
    {
      char **one = g_new0 (char *, 2);
      one[0] = g_strdup (v);
      return one;
    }
  return g_strsplit (v, s, -1);
}

/* The signature that puts an item in its entity: the first word and the number of segments of
 * its table keys. */
static char *
key_signature (const char *v, char sep, char **word)
{
  g_auto (GStrv) segs = split_value (v, sep);
  guint n = g_strv_length (segs);
  gboolean tagged = n >= 2 ? is_word (segs[0], FALSE) : is_word (segs[0], TRUE);
  *word = tagged ? g_strdup (segs[0]) : NULL;
  return g_strdup_printf ("%s/%u", tagged ? segs[0] : "*", n);
}

static Field *
field_new (GPtrArray *values, const char *after, gboolean last)
{
  Field *f = g_new0 (Field, 1);
  gsize len = 0;
  gboolean same_len = TRUE, zero = FALSE;

  f->values = values;
  f->after = g_strdup (after);
  f->last = last;
  f->digits = f->date = f->stamp = values->len > 0;
  for (guint i = 0; i < values->len; i++)
    {
      const char *v = values->pdata[i];
      gsize l = strlen (v);
      if (i == 0)
        len = l;
      same_len &= l == len;
      f->digits &= all_digits (v);
      zero |= v[0] == '0' && l > 1;
      f->date &= is_date (v) && l == 10;
      f->stamp &= is_timestamp (v);
    }
  if (f->digits && same_len && zero)
    f->width = (guint) len;
  return f;
}

static void
add_literal (GPtrArray *parts, const char *text)
{
  Part *last = parts->len > 0 ? parts->pdata[parts->len - 1] : NULL;
  if (last != NULL && last->literal != NULL)
    {
      char *joined = g_strconcat (last->literal, text, NULL);
      g_free (last->literal);
      last->literal = joined;
      return;
    }
  Part *p = g_new0 (Part, 1);
  p->literal = g_strdup (text);
  g_ptr_array_add (parts, p);
}

static void
add_field (Shape *shape, Field *f)
{
  Part *p = g_new0 (Part, 1);
  p->field = f;
  g_ptr_array_add (shape->parts, p);
  shape->n_fields++;
}

/* The parts of KEY's values in the items of GROUP that hold it. */
static Shape *
read_shape (const Group *group, const KeyAttr *key)
{
  Shape *shape = g_new0 (Shape, 1);
  g_autoptr (GPtrArray) split = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  gboolean numeric = g_strcmp0 (key->type, "N") == 0;
  guint n = 0;
  gboolean same_n = TRUE;

  shape->attr = key->name;
  shape->partition = key->partition;
  shape->items = g_ptr_array_new ();
  shape->parts = g_ptr_array_new_with_free_func (part_free);
  for (guint i = 0; i < group->items->len; i++)
    {
      const char *v = value_text (group->items->pdata[i], key->name);
      if (v == NULL)
        continue;
      char **segs = split_value (v, numeric ? 0 : key->sep);
      if (split->len == 0)
        n = g_strv_length (segs);
      same_n &= g_strv_length (segs) == n;
      g_ptr_array_add (split, segs);
      g_ptr_array_add (shape->items, group->items->pdata[i]);
    }
  if (split->len == 0)
    return shape;
  if (!same_n)
    {
      /* Values of several forms (an index key of many entities): one field for the value. */
      GPtrArray *values = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < shape->items->len; i++)
        g_ptr_array_add (values, g_strdup (value_text (shape->items->pdata[i], key->name)));
      add_field (shape, field_new (values, NULL, TRUE));
      return shape;
    }
  const char *prev_literal = NULL;
  for (guint s = 0; s < n; s++)
    {
      const char *first = ((char **) split->pdata[0])[s];
      gboolean constant = TRUE;
      guint dashed = dashed_numbers (first);
      char sep[2] = { key->sep, 0 };

      if (s > 0)
        add_literal (shape->parts, sep);
      for (guint i = 1; i < split->len; i++)
        {
          const char *v = ((char **) split->pdata[i])[s];
          constant &= g_str_equal (v, first);
          if (dashed != dashed_numbers (v))
            dashed = 0;
        }
      gboolean word = s == 0 ? is_word (first, n == 1 && split->len == 1) : is_word (first, TRUE);
      if (constant && word && !numeric)
        {
          add_literal (shape->parts, first);
          prev_literal = first;
          continue;
        }
      for (guint d = 0; d < MAX (dashed, 1); d++)
        {
          GPtrArray *values = g_ptr_array_new_with_free_func (g_free);
          for (guint i = 0; i < split->len; i++)
            {
              const char *v = ((char **) split->pdata[i])[s];
              if (dashed > 0)
                {
                  g_auto (GStrv) nums = g_strsplit (v, "-", -1);
                  g_ptr_array_add (values, g_strdup (nums[d]));
                }
              else
                g_ptr_array_add (values, g_strdup (v));
            }
          if (d > 0)
            add_literal (shape->parts, "-");
          Field *f = field_new (values, d == 0 ? prev_literal : NULL,
                                s == n - 1 && d + 1 >= MAX (dashed, 1));
          f->year = dashed > 0 && d == 0 && f->digits && f->width == 0
                    && strlen (values->pdata[0]) == 4;
          add_field (shape, f);
        }
      prev_literal = NULL;
    }
  return shape;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static gboolean
is_key_name (GPtrArray *keys, const char *name)
{
  for (guint i = 0; i < keys->len; i++)
    if (g_str_equal (((KeyAttr *) keys->pdata[i])->name, name))
      return TRUE;
  return FALSE;
}

/* A non-key attribute that holds F's value (or holds it behind a separator) in every item. */
static char *
matching_attr (const Shape *shape, const Field *f, GPtrArray *keys)
{
  json_t *first = shape->items->pdata[0];
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  const char *name;
  json_t *v;

  for (guint i = 0; i < f->values->len; i++)
    if (strlen (f->values->pdata[i]) < 2)
      return NULL; /* "1" matches too much to mean anything */
  json_object_foreach (first, name, v)
    if (!is_key_name (keys, name))
      g_ptr_array_add (names, (gpointer) name);
  g_ptr_array_sort (names, compare_names);
  for (guint n = 0; n < names->len; n++)
    {
      gboolean all = TRUE;
      for (guint i = 0; all && i < shape->items->len; i++)
        {
          const char *text = value_text (shape->items->pdata[i], names->pdata[n]);
          const char *want = f->values->pdata[i];
          gsize tl, wl;
          if (text == NULL)
            {
              all = FALSE;
              continue;
            }
          tl = strlen (text);
          wl = strlen (want);
          all = g_str_equal (text, want)
                || (tl > wl && g_str_has_suffix (text, want)
                    && (text[tl - wl - 1] == '#' || text[tl - wl - 1] == '|'));
        }
      if (all)
        return g_strdup (names->pdata[n]);
    }
  return NULL;
}

static gsize
longest (const Field *f)
{
  gsize most = 0;
  for (guint i = 0; i < f->values->len; i++)
    most = MAX (most, strlen (f->values->pdata[i]));
  return most;
}

/* The name of the K-th of a shape's fields (infer.h lists the rules in order). */
static char *
field_name (const Shape *shape, const Field *f, guint k, GPtrArray *keys)
{
  char *name = matching_attr (shape, f, keys);
  if (name != NULL)
    return name;
  if (shape->parts->len == 1)
    return lower_first (shape->attr);
  if (f->stamp)
    return g_strdup ("timestamp");
  if (f->date)
    return g_strdup ("date");
  if (f->year)
    return g_strdup ("year");
  if (f->after != NULL)
    {
      g_autofree char *word = word_name (f->after);
      g_autofree char *lower = lower_first (word);
      return g_strconcat (lower, "Id", NULL);
    }
  if (shape->partition && f->last && f->digits && k > 0 && longest (f) <= 3)
    return g_strdup ("shard");
  g_autoptr (GPtrArray) words = camel_words (shape->attr);
  if (words->len == shape->n_fields && words->len >= 2)
    return g_strdup (words->pdata[k]);
  if (f->digits)
    return g_strdup (f->width > 0 ? "seq" : "n");
  g_autofree char *attr = lower_first (shape->attr);
  return g_strdup_printf ("%sPart%u", attr, k + 1);
}

/* The value of a field of SHAPE for ITEM, or NULL when ITEM has no such key. */
static const char *
field_value (const Shape *shape, const Field *f, json_t *item)
{
  guint i;
  return g_ptr_array_find (shape->items, item, &i) ? f->values->pdata[i] : NULL;
}

typedef struct {
  const Shape *shape;
  const Field *field;
} Named;

/* Whether two fields hold the same value in every item that has both. */
static gboolean
same_values (const Named *a, const Shape *shape, const Field *f)
{
  for (guint i = 0; i < shape->items->len; i++)
    {
      const char *va = field_value (a->shape, a->field, shape->items->pdata[i]);
      if (va != NULL && !g_str_equal (va, f->values->pdata[i]))
        return FALSE;
    }
  return TRUE;
}

/* Names every field of GROUP's shapes: one name per value, a number after a name taken. */
static void
name_fields (Group *group, GPtrArray *keys)
{
  g_autoptr (GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint s = 0; s < group->shapes->len; s++)
    {
      Shape *shape = group->shapes->pdata[s];
      guint k = 0;
      for (guint p = 0; p < shape->parts->len; p++)
        {
          Field *f = ((Part *) shape->parts->pdata[p])->field;
          if (f == NULL)
            continue;
          g_autofree char *base = field_name (shape, f, k++, keys);
          char *name = g_strdup (base);
          for (guint n = 2;; n++)
            {
              Named *owner = g_hash_table_lookup (taken, name);
              if (owner == NULL)
                {
                  Named *named = g_new (Named, 1);
                  named->shape = shape;
                  named->field = f;
                  g_hash_table_insert (taken, g_strdup (name), named);
                  break;
                }
              if (owner->shape != shape && same_values (owner, shape, f))
                break;
              g_free (name);
              name = g_strdup_printf ("%s%u", base, n);
            }
          f->name = name;
        }
    }
}

static char *
template_text (const Shape *shape)
{
  GString *out = g_string_new (NULL);
  for (guint p = 0; p < shape->parts->len; p++)
    {
      const Part *part = shape->parts->pdata[p];
      if (part->literal != NULL)
        for (const char *c = part->literal; *c; c++)
          {
            if (*c == '{' || *c == '}')
              g_string_append_c (out, *c);
            g_string_append_c (out, *c);
          }
      else if (part->field->width > 0)
        g_string_append_printf (out, "{%s:0%u}", part->field->name, part->field->width);
      else
        g_string_append_printf (out, "{%s}", part->field->name);
    }
  return g_string_free (out, FALSE);
}

static const Shape *
find_shape (const Group *group, const char *attr)
{
  for (guint s = 0; s < group->shapes->len; s++)
    {
      const Shape *shape = group->shapes->pdata[s];
      if (g_str_equal (shape->attr, attr))
        return shape;
    }
  return NULL;
}

static gboolean
has_field_named (const Shape *shape, const char *name)
{
  for (guint p = 0; shape != NULL && p < shape->parts->len; p++)
    {
      const Field *f = ((Part *) shape->parts->pdata[p])->field;
      if (f != NULL && g_str_equal (f->name, name))
        return TRUE;
    }
  return FALSE;
}

/* Whether the sort key holds the same value as the partition key in every item. */
static gboolean
sort_is_partition (const Group *group, const KeyAttr *pk, const KeyAttr *sk)
{
  for (guint i = 0; i < group->items->len; i++)
    if (g_strcmp0 (value_text (group->items->pdata[i], pk->name),
                   value_text (group->items->pdata[i], sk->name))
        != 0)
      return FALSE;
  return TRUE;
}

static char *
entity_name (const Group *group, const KeyAttr *pk, const KeyAttr *sk, const char *table,
             GHashTable *used)
{
  const Shape *pks = find_shape (group, pk->name);
  const Shape *sks = sk ? find_shape (group, sk->name) : NULL;
  g_autofree char *base = NULL;
  const char *own;

  if (sks == NULL || sks->n_fields == 0 || group->sk_word == NULL
      || sort_is_partition (group, pk, sk))
    own = group->pk_word;
  else
    own = group->sk_word;
  base = own ? word_name (own) : g_strdup (table);
  if (has_field_named (pks, "shard"))
    {
      char *sharded = g_strconcat ("Sharded", base, NULL);
      g_free (base);
      base = sharded;
    }
  if (!g_hash_table_contains (used, base))
    return g_strdup (base);
  if (own == group->sk_word && group->pk_word != NULL)
    {
      g_autofree char *parent = word_name (group->pk_word);
      char *name = g_strconcat (parent, base, NULL);
      if (!g_hash_table_contains (used, name))
        return name;
      g_free (name);
    }
  for (guint n = 2;; n++)
    {
      char *name = g_strdup_printf ("%s%u", base, n);
      if (!g_hash_table_contains (used, name))
        return name;
      g_free (name);
    }
}

/* The entity's attributes: every attribute of its items but the table's keys, by name, each of
 * the type most of them have. */
static void
entity_attrs (DyModelEntity *entity, const Group *group, const DyModelTable *table)
{
  g_autoptr (GHashTable) types
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_hash_table_unref);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  for (guint i = 0; i < group->items->len; i++)
    {
      const char *name;
      json_t *v;
      json_object_foreach (group->items->pdata[i], name, v)
        {
          const char *type = value_type (v);
          if (type == NULL || g_strcmp0 (name, table->partition.name) == 0
              || g_strcmp0 (name, table->sort.name) == 0)
            continue;
          GHashTable *counts = g_hash_table_lookup (types, name);
          if (counts == NULL)
            {
              counts = g_hash_table_new (g_str_hash, g_str_equal);
              g_hash_table_insert (types, (gpointer) name, counts);
              g_ptr_array_add (names, (gpointer) name);
            }
          guint c = GPOINTER_TO_UINT (g_hash_table_lookup (counts, type));
          g_hash_table_insert (counts, (gpointer) type, GUINT_TO_POINTER (c + 1));
        }
    }
  g_ptr_array_sort (names, compare_names);
  for (guint n = 0; n < names->len; n++)
    {
      GHashTable *counts = g_hash_table_lookup (types, names->pdata[n]);
      g_autoptr (GList) keys = g_hash_table_get_keys (counts);
      const char *best = NULL;
      guint most = 0;
      keys = g_list_sort (keys, (GCompareFunc) g_strcmp0);
      for (GList *l = keys; l; l = l->next)
        {
          guint c = GPOINTER_TO_UINT (g_hash_table_lookup (counts, l->data));
          if (c > most)
            {
              most = c;
              best = l->data;
            }
        }
      DyModelAttr *a = g_new0 (DyModelAttr, 1);
      a->name = g_strdup (names->pdata[n]);
      a->type = g_strdup (best);
      g_ptr_array_add (entity->attrs, a);
    }
}

static void
table_attrs (DyModelTable *table, const DyModel *model)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint e = 0; e < model->entities->len; e++)
    {
      const DyModelEntity *entity = model->entities->pdata[e];
      for (guint i = 0; i < entity->attrs->len; i++)
        {
          const DyModelAttr *a = entity->attrs->pdata[i];
          if (!g_hash_table_add (seen, a->name))
            continue;
          DyModelAttr *copy = g_new0 (DyModelAttr, 1);
          copy->name = g_strdup (a->name);
          copy->type = g_strdup (a->type);
          g_ptr_array_add (table->attrs, copy);
        }
    }
}

/* ---- the description ---- */

static const char *
attr_type (json_t *description, const char *name)
{
  size_t i;
  json_t *def;
  json_array_foreach (json_object_get (description, "AttributeDefinitions"), i, def)
    if (g_strcmp0 (json_string_value (json_object_get (def, "AttributeName")), name) == 0)
      return json_string_value (json_object_get (def, "AttributeType"));
  return NULL;
}

/* The HASH and RANGE attributes of a KeySchema into PARTITION and SORT. */
static gboolean
read_schema (json_t *description, json_t *schema, DyModelAttr *partition, DyModelAttr *sort)
{
  size_t i;
  json_t *entry;
  json_array_foreach (schema, i, entry)
    {
      const char *name = json_string_value (json_object_get (entry, "AttributeName"));
      const char *kind = json_string_value (json_object_get (entry, "KeyType"));
      DyModelAttr *into = g_strcmp0 (kind, "HASH") == 0    ? partition
                          : g_strcmp0 (kind, "RANGE") == 0 ? sort
                                                           : NULL;
      if (name == NULL || into == NULL || into->name != NULL)
        return FALSE;
      into->name = g_strdup (name);
      into->type = g_strdup (attr_type (description, name));
    }
  return partition->name != NULL;
}

static gboolean
read_indexes (DyModelTable *table, json_t *description, GError **error)
{
  static const char *const lists[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    {
      size_t i;
      json_t *entry;
      json_array_foreach (json_object_get (description, lists[l]), i, entry)
        {
          const char *name = json_string_value (json_object_get (entry, "IndexName"));
          json_t *projection = json_object_get (entry, "Projection");
          DyModelIndex *index = dy_model_index_new (name ? name : "");
          size_t j;
          json_t *nk;

          g_ptr_array_add (table->indexes, index);
          index->local = l == 1;
          if (name == NULL
              || !read_schema (description, json_object_get (entry, "KeySchema"), &index->partition,
                               &index->sort))
            {
              g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "DescribeTable gave an index of %s without a key schema", table->name);
              return FALSE;
            }
          index->projection
              = g_strdup (json_string_value (json_object_get (projection, "ProjectionType")));
          if (index->projection == NULL)
            index->projection = g_strdup ("ALL");
          json_array_foreach (json_object_get (projection, "NonKeyAttributes"), j, nk)
            if (json_is_string (nk))
              g_ptr_array_add (index->non_key, g_strdup (json_string_value (nk)));
        }
    }
  return TRUE;
}

static void
read_billing (DyModelTable *table, json_t *description)
{
  const char *mode = json_string_value (
      json_object_get (json_object_get (description, "BillingModeSummary"), "BillingMode"));
  json_t *provisioned = json_object_get (description, "ProvisionedThroughput");
  json_int_t rcu = json_integer_value (json_object_get (provisioned, "ReadCapacityUnits"));
  json_int_t wcu = json_integer_value (json_object_get (provisioned, "WriteCapacityUnits"));

  if (g_strcmp0 (mode, "PAY_PER_REQUEST") == 0)
    table->billing_mode = g_strdup (mode);
  else if (g_strcmp0 (mode, "PROVISIONED") == 0 || rcu > 0 || wcu > 0)
    {
      table->billing_mode = g_strdup ("PROVISIONED");
      table->rcu = rcu;
      table->wcu = wcu;
    }
}

/* The key attributes whose values are read: the table's, then its indexes'. */
static GPtrArray *
key_attrs (const DyModelTable *table, json_t *items)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (key_attr_free);
  guint n = 2 + 2 * table->indexes->len;
  g_autofree const DyModelAttr **all = g_new0 (const DyModelAttr *, n);

  all[0] = &table->partition;
  all[1] = &table->sort;
  for (guint x = 0; x < table->indexes->len; x++)
    {
      const DyModelIndex *index = table->indexes->pdata[x];
      all[2 + 2 * x] = &index->partition;
      all[3 + 2 * x] = &index->sort;
    }
  for (guint i = 0; i < n; i++)
    {
      if (all[i]->name == NULL || is_key_name (keys, all[i]->name))
        continue;
      KeyAttr *k = g_new0 (KeyAttr, 1);
      k->name = g_strdup (all[i]->name);
      k->type = g_strdup (all[i]->type);
      k->partition = i % 2 == 0;
      k->sep = choose_separator (items, k->name);
      g_ptr_array_add (keys, k);
    }
  return keys;
}

typedef struct {
  const char *pk, *sk;
} SortKeys;

/* Items in the order of their keys as text; items of the same text (a binary key is not read as
 * text) in the order of their whole JSON, so that no order of reading shows through. */
static int
compare_items (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortKeys *keys = data;
  json_t *ia = *(json_t *const *) a, *ib = *(json_t *const *) b;
  int c = g_strcmp0 (value_text (ia, keys->pk), value_text (ib, keys->pk));
  if (c == 0 && keys->sk != NULL)
    c = g_strcmp0 (value_text (ia, keys->sk), value_text (ib, keys->sk));
  if (c == 0)
    {
      g_autofree char *ta = json_dumps (ia, JSON_COMPACT | JSON_SORT_KEYS);
      g_autofree char *tb = json_dumps (ib, JSON_COMPACT | JSON_SORT_KEYS);
      c = g_strcmp0 (ta, tb);
    }
  return c;
}

static gboolean
build_entity (DyModel *model, DyModelTable *table, Group *group, GPtrArray *keys, GHashTable *used,
              GError **error)
{
  const KeyAttr *pk = keys->pdata[0];
  const KeyAttr *sk = table->sort.name ? keys->pdata[1] : NULL;

  for (guint k = 0; k < keys->len; k++)
    {
      const KeyAttr *key = keys->pdata[k];
      if (g_strcmp0 (key->type, "B") == 0)
        continue; /* a template renders text, not bytes */
      Shape *shape = read_shape (group, key);
      if (shape->items->len == 0)
        shape_free (shape);
      else
        g_ptr_array_add (group->shapes, shape);
    }
  name_fields (group, keys);
  g_autofree char *name = entity_name (group, pk, sk, table->name, used);
  DyModelEntity *entity = dy_model_entity_new (name, table->name);
  g_ptr_array_add (model->entities, entity);
  g_hash_table_add (used, g_strdup (name));
  for (guint s = 0; s < group->shapes->len; s++)
    {
      const Shape *shape = group->shapes->pdata[s];
      g_autofree char *text = template_text (shape);
      if (!dy_model_entity_set_key (entity, shape->attr, text, error))
        return FALSE;
      for (guint p = 0; p < shape->parts->len; p++)
        {
          const Field *f = ((Part *) shape->parts->pdata[p])->field;
          guint most;
          if (f == NULL)
            continue;
          most = MAX ((guint) longest (f),
                      GPOINTER_TO_UINT (g_hash_table_lookup (entity->max_lengths, f->name)));
          g_hash_table_insert (entity->max_lengths, g_strdup (f->name), GUINT_TO_POINTER (most));
        }
    }
  entity_attrs (entity, group, table);
  for (guint i = 0; i < group->items->len && i < DY_INFER_ITEMS_PER_ENTITY; i++)
    json_array_append (table->items, group->items->pdata[i]);
  return TRUE;
}

DyModel *
dy_model_infer_from_items (json_t *description, json_t *items, GError **error)
{
  const char *name = json_string_value (json_object_get (description, "TableName"));
  g_autoptr (DyModel) model = NULL;
  DyModelTable *table;
  g_autoptr (GPtrArray) keys = NULL;
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func (group_free);
  g_autoptr (GHashTable) by_sig = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  SortKeys order;
  size_t i;
  json_t *item;

  if (name == NULL)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "DescribeTable gave no TableName");
      return NULL;
    }
  model = dy_model_new (name);
  model->author = g_strdup ("Dynoscope");
  table = dy_model_table_new (name);
  g_ptr_array_add (model->tables, table);
  if (!read_schema (description, json_object_get (description, "KeySchema"), &table->partition,
                    &table->sort))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "DescribeTable gave no key schema for %s", name);
      return NULL;
    }
  if (!read_indexes (table, description, error))
    return NULL;
  read_billing (table, description);
  model->description = g_strdup_printf (
      "Inferred by Dynoscope from %zu items of table %s: entities by their key prefixes, key "
      "templates, attributes and indexes. Review the names; add the access patterns.",
      json_array_size (items), name);

  keys = key_attrs (table, items);
  json_array_foreach (items, i, item)
    if (value_text (item, table->partition.name) != NULL)
      g_ptr_array_add (sorted, item);
  order.pk = table->partition.name;
  order.sk = table->sort.name;
  g_ptr_array_sort_with_data (sorted, compare_items, &order);

  for (guint n = 0; n < sorted->len; n++)
    {
      json_t *it = sorted->pdata[n];
      const KeyAttr *pk = keys->pdata[0];
      g_autofree char *pk_word = NULL, *sk_word = NULL;
      g_autofree char *pk_sig = key_signature (
          value_text (it, pk->name), g_strcmp0 (pk->type, "S") == 0 ? pk->sep : 0, &pk_word);
      g_autofree char *sk_sig = NULL;
      if (table->sort.name != NULL)
        {
          const KeyAttr *sk = keys->pdata[1];
          const char *v = value_text (it, sk->name);
          sk_sig = v ? key_signature (v, g_strcmp0 (sk->type, "S") == 0 ? sk->sep : 0, &sk_word)
                     : g_strdup ("-");
        }
      g_autofree char *sig = g_strconcat (pk_sig, "\x1e", sk_sig, NULL);
      Group *group = g_hash_table_lookup (by_sig, sig);
      if (group == NULL)
        {
          group = g_new0 (Group, 1);
          group->sig = g_steal_pointer (&sig);
          group->items = g_ptr_array_new ();
          group->shapes = g_ptr_array_new_with_free_func (shape_free);
          group->pk_word = g_steal_pointer (&pk_word);
          group->sk_word = g_steal_pointer (&sk_word);
          g_ptr_array_add (groups, group);
          g_hash_table_insert (by_sig, group->sig, group);
        }
      g_ptr_array_add (group->items, it);
    }
  for (guint g = 0; g < groups->len; g++)
    if (!build_entity (model, table, groups->pdata[g], keys, used, error))
      return NULL;
  table_attrs (table, model);
  return g_steal_pointer (&model);
}

/* ---- reading the table ---- */

typedef struct {
  GMutex lock;
  json_t *items;
} Collect;

static void
collect_item (DdbValue *item, guint segment, gpointer user_data)
{
  Collect *collect = user_data;
  json_t *json = ddb_item_to_json (item);
  (void) segment;
  ddb_value_free (item);
  g_mutex_lock (&collect->lock);
  json_array_append_new (collect->items, json);
  g_mutex_unlock (&collect->lock);
}

DyModel *
dy_model_infer (DdbBackend *backend, const char *table, guint64 sample, GCancellable *cancellable,
                GError **error)
{
  json_auto_t *request = json_pack ("{ss}", "TableName", table);
  json_auto_t *response = NULL;
  DdbKeysOptions options = { 0 };
  Collect collect;
  gboolean ok;
  DyModel *model;

  if (!ddb_backend_call (backend, "DescribeTable", request, cancellable, &response, error))
    return NULL;
  options.table = table;
  options.sample = sample > 0 ? sample : DY_INFER_DEFAULT_SAMPLE;
  g_mutex_init (&collect.lock);
  collect.items = json_array ();
  ok = ddb_keys_scan (backend, &options, ddb_keys_scan_segments (backend, 0), collect_item,
                      &collect, NULL, NULL, NULL, cancellable, error);
  g_mutex_clear (&collect.lock);
  model = ok ? dy_model_infer_from_items (json_object_get (response, "Table"), collect.items, error)
             : NULL;
  json_decref (collect.items);
  return model;
}
