/* infer-shape.c: key values read into shapes: split at their separator into literal words and
 * fields (a dashed number split into its numbers), the fields' padding and forms (digits, a
 * year, a date, a timestamp) found, and each field named by the rules of infer.h. */
#include "model/infer-private.h"

#include <string.h>

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

void
infer_shape_free (gpointer data)
{
  Shape *s = data;
  g_ptr_array_unref (s->items);
  g_ptr_array_unref (s->parts);
  g_free (s);
}

/* The text of an S or N attribute value ({"S": "…"}); NULL for another type or none. */
const char *
infer_value_text (json_t *item, const char *attr)
{
  json_t *v = json_object_get (item, attr);
  json_t *s = json_object_get (v, "S");
  if (s == NULL)
    s = json_object_get (v, "N");
  return json_string_value (s);
}

/* The type name of an attribute value ("S", "BOOL", …), or NULL. */
const char *
infer_value_type (json_t *v)
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
gboolean
infer_is_word (const char *s, gboolean capitals)
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
char *
infer_word_name (const char *word)
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
  if (infer_is_word (name, TRUE))
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
char
infer_choose_separator (json_t *items, const char *attr)
{
  static const char seps[] = { '#', '|' };
  for (gsize s = 0; s < G_N_ELEMENTS (seps); s++)
    {
      size_t i;
      json_t *item;
      json_array_foreach (items, i, item)
        {
          const char *v = infer_value_text (item, attr);
          if (v != NULL && strchr (v, seps[s]) != NULL)
            return seps[s];
        }
    }
  return 0;
}

char **
infer_split_value (const char *v, char sep)
{
  char s[2] = { sep, 0 };
  /* g_strsplit gives "" no element at all; it is one empty segment here. */
  if (sep == 0 || *v == '\0')
    {
      char **one = g_new0 (char *, 2);
      one[0] = g_strdup (v);
      return one;
    }
  return g_strsplit (v, s, -1);
}

/* The signature that puts an item in its entity: the first word and the number of segments of
 * its table keys. */
char *
infer_key_signature (const char *v, char sep, char **word)
{
  g_auto (GStrv) segs = infer_split_value (v, sep);
  guint n = g_strv_length (segs);
  gboolean tagged = n >= 2 ? infer_is_word (segs[0], FALSE) : infer_is_word (segs[0], TRUE);
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
  /* A template's width is at most 64 digits. */
  if (f->digits && same_len && zero && len <= 64)
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
Shape *
infer_read_shape (const Group *group, const KeyAttr *key)
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
      const char *v = infer_value_text (group->items->pdata[i], key->name);
      if (v == NULL)
        continue;
      char **segs = infer_split_value (v, numeric ? 0 : key->sep);
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
        g_ptr_array_add (values, g_strdup (infer_value_text (shape->items->pdata[i], key->name)));
      add_field (shape, field_new (values, NULL, TRUE));
      return shape;
    }
  /* Whether the values differ: a constant word right after a literal one is then a part of
   * the key's form ("ORDER#{id}#ITEM#{n}"), else most likely the one value seen of an id
   * ("ORG#ACME" read once). */
  gboolean varied = FALSE;
  for (guint i = 1; i < shape->items->len && !varied; i++)
    varied = !g_str_equal (infer_value_text (shape->items->pdata[i], key->name),
                           infer_value_text (shape->items->pdata[0], key->name));
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
      gboolean word = s == 0 ? infer_is_word (first, n == 1 && split->len == 1)
                             : infer_is_word (first, TRUE) && (varied || prev_literal == NULL);
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

int
infer_compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

gboolean
infer_is_key_name (GPtrArray *keys, const char *name)
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
    if (!infer_is_key_name (keys, name))
      g_ptr_array_add (names, (gpointer) name);
  g_ptr_array_sort (names, infer_compare_names);
  for (guint n = 0; n < names->len; n++)
    {
      gboolean all = TRUE;
      for (guint i = 0; all && i < shape->items->len; i++)
        {
          const char *text = infer_value_text (shape->items->pdata[i], names->pdata[n]);
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

gsize
infer_longest (const Field *f)
{
  gsize most = 0;
  for (guint i = 0; i < f->values->len; i++)
    most = MAX (most, strlen (f->values->pdata[i]));
  return most;
}

/* The name of the K-th of a shape's fields (infer.h lists the rules in order). */
static char *
field_name (const Shape *shape, const Field *f, guint k, GPtrArray *keys, gboolean *matched)
{
  char *name = matching_attr (shape, f, keys);
  *matched = name != NULL;
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
      g_autofree char *word = infer_word_name (f->after);
      g_autofree char *lower = lower_first (word);
      return g_strconcat (lower, "Id", NULL);
    }
  if (shape->partition && f->last && f->digits && k > 0 && infer_longest (f) <= 3)
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
void
infer_name_fields (Group *group, GPtrArray *keys)
{
  g_autoptr (GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) attrs = g_hash_table_new (g_str_hash, g_str_equal);

  /* A name made up for a field is never that of an attribute of other values. */
  for (guint i = 0; i < group->items->len; i++)
    {
      const char *name;
      json_t *v;
      json_object_foreach (group->items->pdata[i], name, v)
        if (!infer_is_key_name (keys, name))
          g_hash_table_add (attrs, (gpointer) name);
    }
  for (guint s = 0; s < group->shapes->len; s++)
    {
      Shape *shape = group->shapes->pdata[s];
      guint k = 0;
      for (guint p = 0; p < shape->parts->len; p++)
        {
          Field *f = ((Part *) shape->parts->pdata[p])->field;
          if (f == NULL)
            continue;
          gboolean matched;
          g_autofree char *base = field_name (shape, f, k++, keys, &matched);
          /* A template's field names are of letters, digits, '_', '-' and '.'; attribute names
           * may hold anything. */
          g_strcanon (base, G_CSET_A_2_Z G_CSET_a_2_z G_CSET_DIGITS "_-.", '_');
          if (*base == '\0')
            {
              g_free (base);
              base = g_strdup ("field");
            }
          char *name = g_strdup (base);
          for (guint n = 2;; n++)
            {
              Named *owner = g_hash_table_lookup (taken, name);
              gboolean clash = !matched && g_hash_table_contains (attrs, name);
              if (owner == NULL && !clash)
                {
                  Named *named = g_new (Named, 1);
                  named->shape = shape;
                  named->field = f;
                  g_hash_table_insert (taken, g_strdup (name), named);
                  break;
                }
              if (owner != NULL && owner->shape != shape && same_values (owner, shape, f))
                break;
              g_free (name);
              name = g_strdup_printf ("%s%u", base, n);
            }
          f->name = name;
        }
    }
}

char *
infer_template_text (const Shape *shape)
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
