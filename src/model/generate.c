/* generate.c: generated items from a model's key templates (see generate.h for the
 * distributions). Fields are classified once per entity, entities ordered so that an owner of a
 * field comes before the entities that take it, then each item is drawn, its keys rendered and
 * checked against the keys already made. */
#include "model/generate.h"

#include "model/generate-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (dy-generate-error-quark, dy_generate_error)

#define ZIPF_EXPONENT 1.2
#define MAX_ATTEMPTS 200
#define PLANTED_ATTEMPTS 5
#define POOL_ATTEMPTS 10
#define POOL_ATTEMPTS_PK 50
#define N_SHARDS 10
#define DAY_SECONDS (24 * 60 * 60)

/* The timeline, fixed so that the output depends on the seed alone, cut into one window per
 * depth: owners (users) were created before what they own (posts), and that before what it
 * owns (comments). */
#define TIMELINE_START 1672531200                   /* 2023-01-01T00:00:00Z */
#define TIMELINE_SPAN (1429 * (gint64) DAY_SECONDS) /* to 2026-11-30 */

typedef enum {
  FIELD_OWN_ID,  /* the field the entity owns: unique values */
  FIELD_PARENT,  /* taken from the items of the entity that owns it */
  FIELD_POOL,    /* drawn from a pool shared by the table's entities */
  FIELD_SHARD,   /* 1 to N_SHARDS */
  FIELD_COUNTER, /* counts up per partition */
  FIELD_TIME,    /* the item's timestamp */
  FIELD_YEAR,
  FIELD_MONTH,
  FIELD_DAY,
} FieldKind;

typedef struct _GenEntity GenEntity;

typedef struct {
  char *name;
  FieldKind kind;
  gboolean numeric;
  gboolean in_pk;         /* in the table partition key's template */
  gboolean numeric_width; /* zero-padded somewhere: a number ({seq:04}, {shard:02}) */
  gboolean dated;         /* a dated field somewhere ({createdAt:%Y}): an ISO 8601 value */
  GenEntity *owner;       /* FIELD_PARENT */
} GenField;

struct _GenEntity {
  const DyModelEntity *entity;
  const DyModelKey *pk, *sk;
  GPtrArray *fields;       /* of GenField* */
  const char *owned;       /* the field it owns, or NULL */
  gboolean child;          /* it takes a field from an owner */
  guint depth;             /* 0 without an owner, else one more than its deepest owner's */
  gboolean one_per_owner;  /* its table key is the owner's field alone: one item per owner */
  gboolean constant;       /* its table key has no field: one item */
  GPtrArray *owned_values; /* of char*: the owned field's values, in the order made */
  gboolean visiting, done;
};

typedef struct {
  const DyModel *model;
  const DyModelTable *table;
  GRand *rand;
  guint n;
  GPtrArray *entities;  /* of GenEntity*, the table's, in model order */
  GPtrArray *order;     /* the same, owners first */
  guint max_depth;      /* the deepest entity's depth */
  GHashTable *examples; /* field -> GPtrArray of char*: distinct example values, in order */
  GHashTable *pools;    /* field -> GPtrArray of char* */
  GHashTable *zipf;     /* GUINT size -> GArray of double: cumulative weights */
  GHashTable *keys;     /* "pk\x1sk" of every item made */
  GHashTable *ids;      /* "field\x1value" of every owned value made */
  GHashTable *counters; /* "entity\x1field\x1partition" -> GUINT last value */
  json_t *items;
} Gen;

static void
field_free (gpointer data)
{
  GenField *f = data;
  g_free (f->name);
  g_free (f);
}

static void
gen_entity_free (gpointer data)
{
  GenEntity *e = data;
  g_ptr_array_unref (e->fields);
  g_ptr_array_unref (e->owned_values);
  g_free (e);
}

static GenField *
find_field (const GenEntity *e, const char *name)
{
  for (guint i = 0; i < e->fields->len; i++)
    {
      GenField *f = g_ptr_array_index (e->fields, i);
      if (g_str_equal (f->name, name))
        return f;
    }
  return NULL;
}

static gboolean
template_has_field (const DyTemplate *tpl, const char *name)
{
  for (guint i = 0; tpl && i < tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      if (part->kind == DY_TEMPLATE_FIELD && g_str_equal (part->text, name))
        return TRUE;
    }
  return FALSE;
}

/* The type of key attribute NAME of the table or one of its indexes; NULL: no key. */
static const char *
key_type (const DyModelTable *table, const char *name)
{
  if (table->partition.name && g_str_equal (table->partition.name, name))
    return table->partition.type;
  if (table->sort.name && g_str_equal (table->sort.name, name))
    return table->sort.type;
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DyModelIndex *ix = g_ptr_array_index (table->indexes, i);
      if (ix->partition.name && g_str_equal (ix->partition.name, name))
        return ix->partition.type;
      if (ix->sort.name && g_str_equal (ix->sort.name, name))
        return ix->sort.type;
    }
  return NULL;
}

static const DyModelAttr *
entity_attr (const DyModelEntity *e, const char *name)
{
  for (guint i = 0; i < e->attrs->len; i++)
    {
      const DyModelAttr *a = g_ptr_array_index (e->attrs, i);
      if (g_str_equal (a->name, name))
        return a;
    }
  return NULL;
}

static gboolean
is_counter_name (const char *name)
{
  static const char *const names[]
      = { "seq", "n", "num", "number", "idx", "index", "counter", "version", "revision" };
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (name, names[i]) == 0)
      return TRUE;
  return dy_gen_ends_with_ci (name, "seq") || g_str_has_suffix (name, "Number");
}

static GPtrArray *
examples_of (Gen *g, const char *field)
{
  return g_hash_table_lookup (g->examples, field);
}

/* The fields of E's table key templates (the partition key's and the sort key's). */
static guint
primary_fields (const GenEntity *e, const char **only)
{
  guint n = 0;
  *only = NULL;
  for (guint i = 0; i < e->fields->len; i++)
    {
      const GenField *f = g_ptr_array_index (e->fields, i);
      if (template_has_field (e->pk->tpl, f->name)
          || (e->sk && template_has_field (e->sk->tpl, f->name)))
        {
          n++;
          *only = f->name;
        }
    }
  return n;
}

static gboolean
collect_entity (Gen *g, const DyModelEntity *entity, GError **error)
{
  const DyModelTable *table = g->table;
  GenEntity *e = g_new0 (GenEntity, 1);
  e->entity = entity;
  e->fields = g_ptr_array_new_with_free_func (field_free);
  e->owned_values = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (g->entities, e);
  e->pk = dy_model_entity_find_key (entity, table->partition.name);
  e->sk = table->sort.name ? dy_model_entity_find_key (entity, table->sort.name) : NULL;
  if (e->pk == NULL || (table->sort.name && e->sk == NULL))
    {
      g_set_error (error, DY_GENERATE_ERROR, DY_GENERATE_ERROR_TEMPLATE,
                   "Entity %s has no template for %s, a key of table %s: its items cannot be "
                   "made",
                   entity->name, e->pk == NULL ? table->partition.name : table->sort.name,
                   table->name);
      return FALSE;
    }
  for (guint k = 0; k < entity->keys->len; k++)
    {
      const DyModelKey *key = g_ptr_array_index (entity->keys, k);
      const char *type = key_type (table, key->attr);
      for (guint i = 0; i < key->tpl->parts->len; i++)
        {
          const DyTemplatePart *part = g_ptr_array_index (key->tpl->parts, i);
          if (part->kind != DY_TEMPLATE_FIELD)
            continue;
          GenField *f = find_field (e, part->text);
          if (f == NULL)
            {
              f = g_new0 (GenField, 1);
              f->name = g_strdup (part->text);
              f->kind = FIELD_POOL;
              f->in_pk = template_has_field (e->pk->tpl, f->name);
              g_ptr_array_add (e->fields, f);
            }
          /* A field alone in a number key, or with a width, is a number. */
          if ((type && g_str_equal (type, "N") && key->tpl->parts->len == 1) || part->width > 0)
            f->numeric = TRUE;
          if (part->width > 0)
            f->numeric_width = TRUE;
          if (part->format)
            {
              f->kind = FIELD_TIME;
              f->dated = TRUE;
            }
        }
    }
  const char *only = NULL;
  guint n_primary = primary_fields (e, &only);
  e->constant = n_primary == 0;
  /* An id, not a shard number or a time: those never identify an owner. */
  const GenField *of = only ? find_field (e, only) : NULL;
  if (n_primary == 1 && template_has_field (e->pk->tpl, only) && of->kind != FIELD_TIME
      && !dy_gen_is_time_name (only) && !of->numeric_width)
    {
      gboolean taken = FALSE;
      for (guint i = 0; i + 1 < g->entities->len; i++)
        {
          const GenEntity *other = g_ptr_array_index (g->entities, i);
          taken |= other->owned && g_str_equal (other->owned, only);
        }
      if (!taken)
        e->owned = only; /* a field name of E */
    }
  return TRUE;
}

/* Field kinds, once every entity's owned field is known. */
static void
classify (Gen *g, GenEntity *e)
{
  for (guint i = 0; i < e->fields->len; i++)
    {
      GenField *f = g_ptr_array_index (e->fields, i);
      const DyModelAttr *attr = entity_attr (e->entity, f->name);
      GPtrArray *ex = examples_of (g, f->name);
      if (attr && attr->type && g_str_equal (attr->type, "N"))
        f->numeric = TRUE;
      if (ex && ex->len > 0)
        {
          gboolean digits = TRUE;
          for (guint k = 0; k < ex->len; k++)
            digits &= dy_gen_all_digits (g_ptr_array_index (ex, k));
          f->numeric |= digits;
        }
      if (e->owned && g_str_equal (f->name, e->owned))
        {
          f->kind = FIELD_OWN_ID;
          continue;
        }
      for (guint k = 0; k < g->entities->len; k++)
        {
          GenEntity *o = g_ptr_array_index (g->entities, k);
          if (o != e && o->owned && g_str_equal (o->owned, f->name))
            f->owner = o;
        }
      gboolean padded_in_pk = FALSE, padded = FALSE;
      for (guint k = 0; k < e->pk->tpl->parts->len; k++)
        {
          const DyTemplatePart *part = g_ptr_array_index (e->pk->tpl->parts, k);
          padded_in_pk |= part->kind == DY_TEMPLATE_FIELD && part->width > 0
                          && g_str_equal (part->text, f->name);
        }
      for (guint k = 0; k < e->entity->keys->len; k++)
        {
          const DyModelKey *key = g_ptr_array_index (e->entity->keys, k);
          for (guint p = 0; p < key->tpl->parts->len; p++)
            {
              const DyTemplatePart *part = g_ptr_array_index (key->tpl->parts, p);
              padded |= part->kind == DY_TEMPLATE_FIELD && part->width > 0
                        && g_str_equal (part->text, f->name);
            }
        }
      if (f->owner)
        f->kind = FIELD_PARENT;
      else if (f->kind == FIELD_TIME || dy_gen_is_time_name (f->name))
        f->kind = FIELD_TIME;
      else if (g_ascii_strcasecmp (f->name, "year") == 0)
        f->kind = FIELD_YEAR;
      else if (g_ascii_strcasecmp (f->name, "month") == 0)
        f->kind = FIELD_MONTH;
      else if (g_ascii_strcasecmp (f->name, "day") == 0)
        f->kind = FIELD_DAY;
      else if (padded_in_pk)
        f->kind = FIELD_SHARD;
      else if (padded || is_counter_name (f->name))
        f->kind = FIELD_COUNTER;
      else
        f->kind = FIELD_POOL;
      if (f->kind != FIELD_POOL && f->kind != FIELD_PARENT && f->kind != FIELD_TIME)
        f->numeric = TRUE;
    }
}

/* Owners before the entities that take their field; a cycle's last link becomes a pool. */
static void
visit (Gen *g, GenEntity *e)
{
  if (e->done)
    return;
  e->visiting = TRUE;
  guint n_primary = 0, n_parent = 0;
  for (guint i = 0; i < e->fields->len; i++)
    {
      GenField *f = g_ptr_array_index (e->fields, i);
      gboolean primary = template_has_field (e->pk->tpl, f->name)
                         || (e->sk && template_has_field (e->sk->tpl, f->name));
      n_primary += primary;
      if (f->kind != FIELD_PARENT)
        continue;
      if (f->owner->visiting)
        {
          f->kind = FIELD_POOL;
          f->owner = NULL;
          continue;
        }
      visit (g, f->owner);
      e->child = TRUE;
      e->depth = MAX (e->depth, f->owner->depth + 1);
      g->max_depth = MAX (g->max_depth, e->depth);
      n_parent += primary;
    }
  e->one_per_owner = n_primary > 0 && n_parent == n_primary;
  e->visiting = FALSE;
  e->done = TRUE;
  g_ptr_array_add (g->order, e);
}

/* ---- Drawing values ---- */

static guint
zipf_pick (Gen *g, guint size)
{
  if (size <= 1)
    return 0;
  GArray *cum = g_hash_table_lookup (g->zipf, GUINT_TO_POINTER (size));
  if (cum == NULL)
    {
      cum = g_array_sized_new (FALSE, FALSE, sizeof (double), size);
      double total = 0;
      for (guint r = 0; r < size; r++)
        {
          total += 1.0 / pow (r + 1, ZIPF_EXPONENT);
          g_array_append_val (cum, total);
        }
      g_hash_table_insert (g->zipf, GUINT_TO_POINTER (size), cum);
    }
  double u = g_rand_double (g->rand) * g_array_index (cum, double, size - 1);
  guint lo = 0, hi = size - 1;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (cum, double, mid) < u)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* A new value in the shape of the field's examples: digits, lowercase hex, a "P-" style
 * prefix with an upper-case word, two-letter codes, or else a lower-case word. ROUND grows the
 * value when short ones are taken. */
static char *
shaped_value (Gen *g, const GenField *f, guint round)
{
  GPtrArray *ex = examples_of (g, f->name);
  const char *sample = ex && ex->len > 0 ? g_ptr_array_index (ex, 0) : NULL;
  gsize len = sample ? strlen (sample) : 0;
  if (f->numeric)
    {
      guint digits = MAX (len, 3) + round / 20;
      digits = MIN (digits, 15);
      gint64 lo = 1;
      for (guint i = 1; i < digits; i++)
        lo *= 10;
      gint64 v = lo + (gint64) (g_rand_double (g->rand) * (double) (lo * 9));
      return g_strdup_printf ("%" G_GINT64_FORMAT, v);
    }
  gboolean hex = sample != NULL && len >= 2 && len <= 12;
  gboolean upper2 = sample != NULL && len == 2;
  for (gsize i = 0; sample && i < len; i++)
    {
      hex &= g_ascii_isdigit (sample[i]) || (sample[i] >= 'a' && sample[i] <= 'f');
      upper2 &= g_ascii_isupper (sample[i]);
    }
  if (hex && !dy_gen_all_digits (sample))
    {
      GString *s = g_string_new (NULL);
      for (guint i = 0; i < MAX (len, 3) + round / 20; i++)
        g_string_append_c (s, "0123456789abcdef"[g_rand_int_range (g->rand, 0, 16)]);
      return g_string_free (s, FALSE);
    }
  if (upper2 || g_ascii_strcasecmp (f->name, "country") == 0)
    {
      if (round < 20)
        return g_strdup (dy_gen_country (g->rand));
      return g_strdup_printf ("%c%c", 'A' + g_rand_int_range (g->rand, 0, 26),
                              'A' + g_rand_int_range (g->rand, 0, 26));
    }
  const char *dash = sample ? strchr (sample, '-') : NULL;
  const char *word = dy_gen_word (g->rand);
  if (dash && dash > sample)
    {
      g_autofree char *prefix = g_strndup (sample, dash - sample + 1);
      g_autofree char *up = g_ascii_strup (word, -1);
      return round < 10
                 ? g_strdup_printf ("%s%s", prefix, up)
                 : g_strdup_printf ("%s%s%u", prefix, up, g_rand_int_range (g->rand, 2, 1000));
    }
  return round < 10 ? g_strdup (word)
                    : g_strdup_printf ("%s-%u", word, g_rand_int_range (g->rand, 2, 10000));
}

/* The table's pool of FIELD's values: its examples, then new ones up to a size that grows with
 * the item count. */
static GPtrArray *
pool_of (Gen *g, const GenField *f)
{
  GPtrArray *pool = g_hash_table_lookup (g->pools, f->name);
  if (pool)
    return pool;
  pool = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *ex = examples_of (g, f->name);
  for (guint i = 0; ex && i < ex->len; i++)
    {
      g_ptr_array_add (pool, g_strdup (g_ptr_array_index (ex, i)));
      g_hash_table_add (seen, g_ptr_array_index (pool, pool->len - 1));
    }
  guint size = CLAMP (g->n / 8, 2, 256);
  for (guint round = 0; pool->len < size && round < size * 40; round++)
    {
      char *v = shaped_value (g, f, round / MAX (size, 1));
      if (g_hash_table_contains (seen, v))
        {
          g_free (v);
          continue;
        }
      g_ptr_array_add (pool, v);
      g_hash_table_add (seen, v);
    }
  g_hash_table_insert (g->pools, g_strdup (f->name), pool);
  return pool;
}

static char *
new_id (Gen *g, const GenField *f)
{
  for (guint round = 0;; round++)
    {
      char *v = shaped_value (g, f, round);
      g_autofree char *id = g_strdup_printf ("%s\x01%s", f->name, v);
      if (!g_hash_table_contains (g->ids, id))
        return v;
      g_free (v);
    }
}

/* ---- Items ---- */

static gint64
item_time (Gen *g, const GenEntity *e, guint i, guint n)
{
  gint64 window = TIMELINE_SPAN / (g->max_depth + 1);
  gint64 start = TIMELINE_START + window * e->depth;
  gint64 step = window / MAX (n, 1);
  return start + step * i + (gint64) (g_rand_double (g->rand) * (double) MAX (step - 1, 0));
}

static char *
counter_next (Gen *g, const GenEntity *e, const GenField *f, const char *partition)
{
  char *key = g_strdup_printf ("%s\x01%s\x01%s", e->entity->name, f->name, partition);
  guint v = GPOINTER_TO_UINT (g_hash_table_lookup (g->counters, key)) + 1;
  g_hash_table_insert (g->counters, key, GUINT_TO_POINTER (v));
  return g_strdup_printf ("%u", v);
}

static void
draw_field (Gen *g, GenEntity *e, GenField *f, guint i, guint attempt, gint64 t, GHashTable *values)
{
  char *v = NULL;
  switch (f->kind)
    {
    case FIELD_OWN_ID:
      v = new_id (g, f);
      break;
      case FIELD_PARENT: {
        GPtrArray *owners = f->owner->owned_values;
        if (owners->len == 0)
          v = new_id (g, f);
        else if (e->one_per_owner)
          v = g_strdup (g_ptr_array_index (owners, i % owners->len));
        else
          v = g_strdup (g_ptr_array_index (owners, zipf_pick (g, owners->len)));
        break;
      }
      case FIELD_POOL: {
        /* When the pool's values keep giving keys made already, a new value: a new customer
         * (a sort-key field) soon, a new tenant late. */
        if (attempt >= (f->in_pk ? POOL_ATTEMPTS_PK : POOL_ATTEMPTS))
          {
            v = shaped_value (g, f, attempt);
            break;
          }
        GPtrArray *pool = pool_of (g, f);
        v = g_strdup (g_ptr_array_index (pool, zipf_pick (g, pool->len)));
        break;
      }
    case FIELD_SHARD:
      v = g_strdup_printf ("%d", g_rand_int_range (g->rand, 1, N_SHARDS + 1));
      break;
    case FIELD_TIME:
      /* A number key holds a time as seconds since the epoch. */
      v = f->numeric && !f->dated ? g_strdup_printf ("%" G_GINT64_FORMAT, t) : dy_gen_iso_time (t);
      break;
    case FIELD_YEAR:
      v = dy_gen_time_part (t, "%Y");
      break;
    case FIELD_MONTH:
      v = dy_gen_time_part (t, "%m");
      break;
    case FIELD_DAY:
      v = dy_gen_time_part (t, "%d");
      break;
    case FIELD_COUNTER:
      return; /* after the partition key */
    }
  g_hash_table_insert (values, g_strdup (f->name), v);
}

static json_t *
key_json (const char *type, const char *text)
{
  if (type && g_str_equal (type, "B"))
    {
      g_autofree char *b64 = g_base64_encode ((const guchar *) text, strlen (text));
      return json_pack ("{s:s}", "B", b64);
    }
  return json_pack ("{s:s}", type && g_str_equal (type, "N") ? "N" : "S", text);
}

/* The value of the field an attribute repeats: "userId" the field "user" or "userId", "user"
 * the field "userId". */
static const char *
field_value (GHashTable *values, const char *attr)
{
  const char *v = g_hash_table_lookup (values, attr);
  gsize len = strlen (attr);
  if (v == NULL && len > 2 && g_str_has_suffix (attr, "Id"))
    {
      g_autofree char *base = g_strndup (attr, len - 2);
      v = g_hash_table_lookup (values, base);
    }
  if (v == NULL)
    {
      g_autofree char *with_id = g_strconcat (attr, "Id", NULL);
      v = g_hash_table_lookup (values, with_id);
    }
  return v;
}

/* Draws one item of E into *OUT (NULL when its table key is taken). FIXED: field values given. */
static gboolean
draw_item (Gen *g, GenEntity *e, guint i, guint attempt, GHashTable *fixed, json_t **out,
           GError **error)
{
  g_autoptr (GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gint64 t = item_time (g, e, i, g->n);
  *out = NULL;
  if (fixed)
    {
      GHashTableIter iter;
      gpointer k, v;
      g_hash_table_iter_init (&iter, fixed);
      while (g_hash_table_iter_next (&iter, &k, &v))
        if (find_field (e, k))
          g_hash_table_insert (values, g_strdup (k), g_strdup (v));
    }
  for (guint f = 0; f < e->fields->len; f++)
    {
      GenField *field = g_ptr_array_index (e->fields, f);
      if (!g_hash_table_contains (values, field->name))
        draw_field (g, e, field, i, attempt, t, values);
    }
  /* Counters in the partition key count over the entity, the others per partition. */
  for (guint f = 0; f < e->fields->len; f++)
    {
      GenField *field = g_ptr_array_index (e->fields, f);
      if (field->kind == FIELD_COUNTER && field->in_pk
          && !g_hash_table_contains (values, field->name))
        g_hash_table_insert (values, g_strdup (field->name), counter_next (g, e, field, ""));
    }
  g_autofree char *pk = dy_template_render (e->pk->tpl, values, error);
  if (pk == NULL)
    return FALSE;
  for (guint f = 0; f < e->fields->len; f++)
    {
      GenField *field = g_ptr_array_index (e->fields, f);
      if (field->kind == FIELD_COUNTER && !g_hash_table_contains (values, field->name))
        g_hash_table_insert (values, g_strdup (field->name), counter_next (g, e, field, pk));
    }
  g_autofree char *sk = e->sk ? dy_template_render (e->sk->tpl, values, error) : g_strdup ("");
  if (sk == NULL)
    return FALSE;
  char *table_key = g_strdup_printf ("%s\x01%s", pk, sk);
  if (g_hash_table_contains (g->keys, table_key))
    {
      g_free (table_key);
      return TRUE;
    }

  json_t *item = json_object ();
  for (guint k = 0; k < e->entity->keys->len; k++)
    {
      const DyModelKey *key = g_ptr_array_index (e->entity->keys, k);
      g_autofree char *text = dy_template_render (key->tpl, values, error);
      if (text == NULL)
        {
          g_free (table_key);
          json_decref (item);
          return FALSE;
        }
      json_object_set_new (item, key->attr, key_json (key_type (g->table, key->attr), text));
    }
  for (guint a = 0; a < e->entity->attrs->len; a++)
    {
      const DyModelAttr *attr = g_ptr_array_index (e->entity->attrs, a);
      if (json_object_get (item, attr->name))
        continue;
      json_object_set_new (
          item, attr->name,
          dy_gen_attr_value (g->rand, attr->name, attr->type, field_value (values, attr->name), t));
    }
  g_hash_table_add (g->keys, table_key);
  if (e->owned)
    {
      const char *v = g_hash_table_lookup (values, e->owned);
      g_ptr_array_add (e->owned_values, g_strdup (v));
      g_hash_table_add (g->ids, g_strdup_printf ("%s\x01%s", e->owned, v));
    }
  *out = item;
  return TRUE;
}

/* The field values each of E's items starts from: its patterns' examples (a range's first
 * unfixed sort-key field set inside the range), and for an owner each example value of its
 * field, so that every pattern's example request finds an item. */
static GPtrArray *
planted_inputs (Gen *g, GenEntity *e)
{
  GPtrArray *planted = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint p = 0; p < g->model->patterns->len; p++)
    {
      const DyModelPattern *pat = g_ptr_array_index (g->model->patterns, p);
      if (!g_str_equal (pat->entity, e->entity->name))
        continue;
      GHashTable *in = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (guint k = 0; k < pat->inputs->len; k++)
        {
          const char *name = g_ptr_array_index (pat->inputs, k);
          const char *v = g_hash_table_lookup (pat->examples, name);
          if (v && find_field (e, name))
            g_hash_table_insert (in, g_strdup (name), g_strdup (v));
        }
      const char *lo
          = pat->range_from ? g_hash_table_lookup (pat->examples, pat->range_from) : NULL;
      const DyModelIndex *ix = pat->index ? dy_model_table_find_index (g->table, pat->index) : NULL;
      const char *pk_name, *sk_name;
      dy_model_key_names (g->table, ix, &pk_name, &sk_name);
      const DyModelKey *sk = sk_name ? dy_model_entity_find_key (e->entity, sk_name) : NULL;
      for (guint k = 0; lo && sk && k < sk->tpl->parts->len; k++)
        {
          const DyTemplatePart *part = g_ptr_array_index (sk->tpl->parts, k);
          if (part->kind != DY_TEMPLATE_FIELD || g_hash_table_contains (in, part->text))
            continue;
          GenField *f = find_field (e, part->text);
          /* A date bound is the start of its day: an instant that day is inside the range. */
          gboolean date = strlen (lo) == 10 && lo[4] == '-' && lo[7] == '-';
          char *v = f && f->kind == FIELD_TIME && date ? g_strdup_printf ("%sT12:00:00Z", lo)
                                                       : g_strdup (lo);
          g_hash_table_insert (in, g_strdup (part->text), v);
          break;
        }
      g_ptr_array_add (planted, in);
    }
  GPtrArray *ex = e->owned ? examples_of (g, e->owned) : NULL;
  for (guint k = 0; ex && k < ex->len; k++)
    {
      GHashTable *in = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_insert (in, g_strdup (e->owned), g_strdup (g_ptr_array_index (ex, k)));
      g_ptr_array_add (planted, in);
    }
  /* One item for inputs that equal an earlier one's. */
  GPtrArray *distinct = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  for (guint k = 0; k < planted->len; k++)
    {
      GHashTable *in = g_ptr_array_index (planted, k);
      g_autoptr (GList) names = g_list_sort (g_hash_table_get_keys (in), (GCompareFunc) strcmp);
      GString *sig = g_string_new (NULL);
      for (GList *l = names; l; l = l->next)
        g_string_append_printf (sig, "%s\x01%s\x02", (char *) l->data,
                                (char *) g_hash_table_lookup (in, l->data));
      char *s = g_string_free (sig, FALSE);
      if (g_hash_table_add (seen, s))
        g_ptr_array_add (distinct, g_hash_table_ref (in));
    }
  g_ptr_array_unref (planted);
  return distinct;
}

static gboolean
generate_entity (Gen *g, GenEntity *e, GError **error)
{
  guint n = e->constant ? MIN (g->n, 1) : g->n;
  g_autoptr (GPtrArray) planted = planted_inputs (g, e);
  guint made = 0;
  while (made < n)
    {
      json_t *item = NULL;
      GHashTable *fixed = made < planted->len ? g_ptr_array_index (planted, made) : NULL;
      for (guint attempt = 0; item == NULL && attempt < MAX_ATTEMPTS; attempt++)
        {
          g_autoptr (GError) local = NULL;
          if (!draw_item (g, e, made, attempt, attempt < PLANTED_ATTEMPTS ? fixed : NULL, &item,
                          &local))
            {
              g_set_error (error, DY_GENERATE_ERROR, DY_GENERATE_ERROR_TEMPLATE, "Entity %s: %s",
                           e->entity->name, local->message);
              return FALSE;
            }
        }
      if (item == NULL)
        {
          g_set_error (error, DY_GENERATE_ERROR, DY_GENERATE_ERROR_EXHAUSTED,
                       "Entity %s of table %s: its key templates gave only %u distinct keys of "
                       "the %u asked for (%s, %s): give them more fields",
                       e->entity->name, g->table->name, made, n, e->pk->tpl->source,
                       e->sk ? e->sk->tpl->source : "-");
          return FALSE;
        }
      json_array_append_new (g->items, item);
      made++;
    }
  return TRUE;
}

static void
add_example (Gen *g, const char *field, const char *value)
{
  GPtrArray *ex = g_hash_table_lookup (g->examples, field);
  if (ex == NULL)
    {
      ex = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (g->examples, g_strdup (field), ex);
    }
  for (guint i = 0; i < ex->len; i++)
    if (g_str_equal (g_ptr_array_index (ex, i), value))
      return;
  g_ptr_array_add (ex, g_strdup (value));
}

static void
zipf_free (gpointer data)
{
  g_array_unref (data);
}

json_t *
dy_model_generate (const DyModel *model, const DyModelTable *table, guint items_per_entity,
                   guint32 seed, GError **error)
{
  g_return_val_if_fail (model != NULL && table != NULL, NULL);
  Gen g = { 0 };
  g.model = model;
  g.table = table;
  g.n = items_per_entity;
  g.rand = g_rand_new_with_seed (seed);
  g.entities = g_ptr_array_new_with_free_func (gen_entity_free);
  g.order = g_ptr_array_new ();
  g.examples
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  g.pools
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  g.zipf = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, zipf_free);
  g.keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g.ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g.counters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g.items = json_array ();
  gboolean ok = TRUE;

  for (guint i = 0; ok && i < model->entities->len; i++)
    {
      const DyModelEntity *entity = g_ptr_array_index (model->entities, i);
      if (g_str_equal (entity->table, table->name))
        ok = collect_entity (&g, entity, error);
    }
  /* Example values in the patterns' order, a field's first one the hottest. */
  for (guint p = 0; ok && p < model->patterns->len; p++)
    {
      const DyModelPattern *pat = g_ptr_array_index (model->patterns, p);
      const DyModelEntity *entity = dy_model_find_entity (model, pat->entity);
      if (entity == NULL || !g_str_equal (entity->table, table->name))
        continue;
      for (guint k = 0; k < pat->inputs->len; k++)
        {
          const char *name = g_ptr_array_index (pat->inputs, k);
          const char *v = g_hash_table_lookup (pat->examples, name);
          if (v && (!pat->range_from || !g_str_equal (name, pat->range_from))
              && (!pat->range_to || !g_str_equal (name, pat->range_to)))
            add_example (&g, name, v);
        }
    }
  for (guint i = 0; ok && i < g.entities->len; i++)
    classify (&g, g_ptr_array_index (g.entities, i));
  for (guint i = 0; ok && i < g.entities->len; i++)
    visit (&g, g_ptr_array_index (g.entities, i));
  for (guint i = 0; ok && i < g.order->len; i++)
    ok = generate_entity (&g, g_ptr_array_index (g.order, i), error);

  g_rand_free (g.rand);
  g_ptr_array_unref (g.order);
  g_ptr_array_unref (g.entities);
  g_hash_table_unref (g.examples);
  g_hash_table_unref (g.pools);
  g_hash_table_unref (g.zipf);
  g_hash_table_unref (g.keys);
  g_hash_table_unref (g.ids);
  g_hash_table_unref (g.counters);
  if (!ok)
    g_clear_pointer (&g.items, json_decref);
  return g.items;
}
