/* expr-eval.c: evaluation of condition and filter expressions against an item, and
 * projection of an item onto a ProjectionExpression's document paths. */
#include "core/expr.h"

#include <string.h>

#include "core/error.h"

/* ---- Operands ------------------------------------------------------------------------- */

/* An operand's value: borrowed from the item or the expression, or held in `tmp` when it was
 * computed (size()), so that evaluating a condition never allocates. `v` is NULL when the
 * operand does not exist (a missing attribute, or size() of something without a size). */
typedef struct {
  const DdbValue *v;
  DdbValue tmp;
} Operand;

/* DynamoDB is written in Java: size() of a string is its length in UTF-16 code units, so a
 * character outside the BMP counts twice. */
static guint64
utf16_length (const DdbBytes *s)
{
  const guchar *p = (const guchar *) s->data;
  guint64 n = 0;

  for (gsize i = 0; i < s->len; i++)
    {
      if ((p[i] & 0xC0) != 0x80)
        n++;
      if (p[i] >= 0xF0)
        n++;
    }
  return n;
}

static gboolean
value_size (const DdbValue *v, guint64 *out)
{
  switch (v->type)
    {
    case DDB_TYPE_S:
      *out = utf16_length (&v->bytes);
      return TRUE;
    case DDB_TYPE_B:
      *out = v->bytes.len;
      return TRUE;
    case DDB_TYPE_M:
      *out = v->attrs->len;
      return TRUE;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      *out = v->elems->len;
      return TRUE;
    default:
      /* N, BOOL and NULL have no size: a comparison with it is simply false. */
      return FALSE;
    }
}

static void
resolve_operand (const DdbNode *n, const DdbValue *item, Operand *out)
{
  out->v = NULL;
  switch (n->kind)
    {
    case DDB_NODE_PATH:
      out->v = item != NULL ? ddb_path_lookup (item, &n->path) : NULL;
      break;
    case DDB_NODE_VALUE:
      out->v = n->value;
      break;
      case DDB_NODE_SIZE: {
        Operand inner;
        guint64 size;

        if (n->n_args < 1)
          break;
        resolve_operand (n->args[0], item, &inner);
        if (inner.v != NULL && value_size (inner.v, &size))
          {
            out->tmp.type = DDB_TYPE_N;
            ddb_number_set_int (&out->tmp.number, (gint64) size);
            out->v = &out->tmp;
          }
      }
      break;
    default:
      /* Update-only operands never reach a condition from the parser. */
      break;
    }
}

/* ---- Comparisons ---------------------------------------------------------------------- */

static int
bytes_compare (const DdbBytes *a, const DdbBytes *b)
{
  gsize n = MIN (a->len, b->len);
  int c = n > 0 ? memcmp (a->data, b->data, n) : 0;

  if (c != 0)
    return c;
  return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

/* Orders two values of one scalar key type (S by UTF-8 bytes, N numerically, B by unsigned
 * bytes). FALSE when they cannot be ordered: missing, of different types, or of another type;
 * DynamoDB then evaluates the comparison to false. */
static gboolean
order (const DdbValue *a, const DdbValue *b, int *cmp)
{
  if (a == NULL || b == NULL || a->type != b->type)
    return FALSE;
  switch (a->type)
    {
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      *cmp = bytes_compare (&a->bytes, &b->bytes);
      return TRUE;
    case DDB_TYPE_N:
      *cmp = ddb_number_compare (&a->number, &b->number);
      return TRUE;
    default:
      return FALSE;
    }
}

/* A missing operand is equal to nothing, not even to another missing one. */
static gboolean
equal (const DdbValue *a, const DdbValue *b)
{
  return a != NULL && b != NULL && ddb_value_equal (a, b);
}

static gboolean
bytes_contain (const DdbBytes *hay, const DdbBytes *needle)
{
  if (needle->len == 0)
    return TRUE;
  if (needle->len > hay->len)
    return FALSE;
  for (gsize i = 0; i + needle->len <= hay->len; i++)
    {
      if (hay->data[i] == needle->data[0] && memcmp (hay->data + i, needle->data, needle->len) == 0)
        return TRUE;
    }
  return FALSE;
}

static gboolean
begins_with (const DdbValue *a, const DdbValue *prefix)
{
  if (a == NULL || prefix == NULL || a->type != prefix->type)
    return FALSE;
  if (a->type != DDB_TYPE_S && a->type != DDB_TYPE_B)
    return FALSE;
  return prefix->bytes.len <= a->bytes.len
         && memcmp (a->bytes.data, prefix->bytes.data, prefix->bytes.len) == 0;
}

/* A substring of a string or binary, an element of a set (of the set's element type), or an
 * element of a list (any type, deep equality). */
static gboolean
contains (const DdbValue *a, const DdbValue *x)
{
  if (a == NULL || x == NULL)
    return FALSE;
  switch (a->type)
    {
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      return x->type == a->type && bytes_contain (&a->bytes, &x->bytes);
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      return x->type == ddb_type_set_element (a->type) && ddb_value_set_contains (a, x);
    case DDB_TYPE_L:
      for (guint i = 0; i < a->elems->len; i++)
        {
          if (ddb_value_equal (g_ptr_array_index (a->elems, i), x))
            return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

static gboolean
attribute_type_is (const DdbValue *a, const DdbValue *type_name)
{
  DdbType t;

  if (a == NULL || type_name == NULL || type_name->type != DDB_TYPE_S)
    return FALSE;
  /* The name must be the whole string: "S\0x" is not "S". */
  if (strlen (type_name->bytes.data) != type_name->bytes.len
      || !ddb_type_from_name (type_name->bytes.data, &t))
    return FALSE;
  return a->type == t;
}

/* ---- Conditions ----------------------------------------------------------------------- */

static gboolean
eval (const DdbNode *n, const DdbValue *item, gboolean *result, GError **error)
{
  Operand x, y, z;
  int c1, c2;

  switch (n->kind)
    {
    case DDB_NODE_AND:
      if (!eval (n->args[0], item, result, error))
        return FALSE;
      if (!*result)
        return TRUE;
      return eval (n->args[1], item, result, error);

    case DDB_NODE_OR:
      if (!eval (n->args[0], item, result, error))
        return FALSE;
      if (*result)
        return TRUE;
      return eval (n->args[1], item, result, error);

    case DDB_NODE_NOT:
      if (!eval (n->args[0], item, result, error))
        return FALSE;
      *result = !*result;
      return TRUE;

    case DDB_NODE_EQ:
    case DDB_NODE_NE:
      resolve_operand (n->args[0], item, &x);
      resolve_operand (n->args[1], item, &y);
      /* `<>` is the negation of `=`, so a missing attribute is "not equal" to anything. */
      *result = equal (x.v, y.v) == (n->kind == DDB_NODE_EQ);
      return TRUE;

    case DDB_NODE_LT:
    case DDB_NODE_LE:
    case DDB_NODE_GT:
    case DDB_NODE_GE:
      resolve_operand (n->args[0], item, &x);
      resolve_operand (n->args[1], item, &y);
      if (!order (x.v, y.v, &c1))
        *result = FALSE;
      else if (n->kind == DDB_NODE_LT)
        *result = c1 < 0;
      else if (n->kind == DDB_NODE_LE)
        *result = c1 <= 0;
      else if (n->kind == DDB_NODE_GT)
        *result = c1 > 0;
      else
        *result = c1 >= 0;
      return TRUE;

    case DDB_NODE_BETWEEN:
      resolve_operand (n->args[0], item, &x);
      resolve_operand (n->args[1], item, &y);
      resolve_operand (n->args[2], item, &z);
      *result = order (x.v, y.v, &c1) && order (x.v, z.v, &c2) && c1 >= 0 && c2 <= 0;
      return TRUE;

    case DDB_NODE_IN:
      resolve_operand (n->args[0], item, &x);
      *result = FALSE;
      if (x.v == NULL)
        return TRUE;
      for (guint i = 1; i < n->n_args && !*result; i++)
        {
          resolve_operand (n->args[i], item, &y);
          *result = equal (x.v, y.v);
        }
      return TRUE;

    case DDB_NODE_ATTRIBUTE_EXISTS:
    case DDB_NODE_ATTRIBUTE_NOT_EXISTS:
      resolve_operand (n->args[0], item, &x);
      *result = (x.v != NULL) == (n->kind == DDB_NODE_ATTRIBUTE_EXISTS);
      return TRUE;

    case DDB_NODE_ATTRIBUTE_TYPE:
      resolve_operand (n->args[0], item, &x);
      resolve_operand (n->args[1], item, &y);
      *result = attribute_type_is (x.v, y.v);
      return TRUE;

    case DDB_NODE_BEGINS_WITH:
      resolve_operand (n->args[0], item, &x);
      resolve_operand (n->args[1], item, &y);
      *result = begins_with (x.v, y.v);
      return TRUE;

    case DDB_NODE_CONTAINS:
      resolve_operand (n->args[0], item, &x);
      resolve_operand (n->args[1], item, &y);
      *result = contains (x.v, y.v);
      return TRUE;

    default:
      /* An operand where a condition belongs: the parser refuses this, so only a tree built by
       * hand gets here. */
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "Invalid expression: node of kind %d is not a condition", (int) n->kind);
      return FALSE;
    }
}

gboolean
ddb_condition_eval (const DdbNode *cond, const DdbValue *item, gboolean *result, GError **error)
{
  gboolean r = FALSE;

  g_return_val_if_fail (cond != NULL, FALSE);
  g_return_val_if_fail (item == NULL || item->type == DDB_TYPE_M, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!eval (cond, item, &r, error))
    return FALSE;
  if (result != NULL)
    *result = r;
  return TRUE;
}

/* ---- Projection ----------------------------------------------------------------------- */

/* A list of the result built from picked elements: `orig` holds, for each of its elements,
 * its index in the source list, kept sorted so that elements come out in index order. */
typedef struct {
  DdbValue *list;
  GArray *orig; /* guint32 */
} PickedList;

/* What the projection built so far. Containers made here for a nested path are "partial"
 * (they only hold what was picked); every other value in the result is a whole copy. The
 * arrays are made on first use, so projecting top-level attributes allocates nothing else. */
typedef struct {
  GArray *lists;        /* PickedList: the partial lists */
  GPtrArray *maps;      /* the partial maps */
  GPtrArray *graveyard; /* partial values replaced by a whole copy, freed at the end */
} Builder;

static PickedList *
builder_find_list (Builder *b, const DdbValue *list)
{
  for (guint i = 0; b->lists != NULL && i < b->lists->len; i++)
    {
      PickedList *pl = &g_array_index (b->lists, PickedList, i);
      if (pl->list == list)
        return pl;
    }
  return NULL;
}

static gboolean
builder_is_partial (Builder *b, const DdbValue *v)
{
  if (v->type == DDB_TYPE_L)
    return builder_find_list (b, v) != NULL;
  if (v->type != DDB_TYPE_M || b->maps == NULL)
    return FALSE;
  for (guint i = 0; i < b->maps->len; i++)
    {
      if (g_ptr_array_index (b->maps, i) == v)
        return TRUE;
    }
  return FALSE;
}

/* The result's container for the step after `next`: a map for a name, a list for an index. */
static DdbValue *
builder_new_container (Builder *b, const DdbPathElem *next)
{
  DdbValue *c;
  PickedList pl;

  if (next->name != NULL)
    {
      c = ddb_value_new_m ();
      if (b->maps == NULL)
        b->maps = g_ptr_array_new ();
      g_ptr_array_add (b->maps, c);
      return c;
    }
  c = ddb_value_new_l ();
  pl.list = c;
  pl.orig = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (b->lists == NULL)
    b->lists = g_array_new (FALSE, FALSE, sizeof (PickedList));
  g_array_append_val (b->lists, pl);
  return c;
}

/* Finds the slot for `e` in the result container `dst`: `*slot` points to the existing value,
 * or is NULL when there is none yet, and `*pos` is then where a list element goes. FALSE when
 * `dst` cannot hold `e` (a container of the other kind). */
static gboolean
builder_locate (Builder *b, DdbValue *dst, const DdbPathElem *e, DdbValue ***slot, guint *pos,
                GArray **origp)
{
  *slot = NULL;
  *origp = NULL;
  if (e->name != NULL)
    {
      gsize len;

      if (dst->type != DDB_TYPE_M)
        return FALSE;
      len = strlen (e->name);
      for (guint i = 0; i < dst->attrs->len; i++)
        {
          DdbAttr *a = &g_array_index (dst->attrs, DdbAttr, i);
          if (a->name_len == len && memcmp (a->name, e->name, len) == 0)
            {
              *slot = &a->value;
              break;
            }
        }
      return TRUE;
    }
  else
    {
      PickedList *pl = dst->type == DDB_TYPE_L ? builder_find_list (b, dst) : NULL;
      guint lo = 0, hi;

      if (pl == NULL)
        return FALSE;
      hi = pl->orig->len;
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (g_array_index (pl->orig, guint32, mid) < e->index)
            lo = mid + 1;
          else
            hi = mid;
        }
      *pos = lo;
      *origp = pl->orig;
      if (lo < pl->orig->len && g_array_index (pl->orig, guint32, lo) == e->index)
        *slot = (DdbValue **) &g_ptr_array_index (dst->elems, lo);
      return TRUE;
    }
}

static void
builder_insert (GArray *orig, DdbValue *dst, const DdbPathElem *e, guint pos, DdbValue *v)
{
  if (orig == NULL)
    {
      ddb_value_map_append (dst, e->name, strlen (e->name), v);
    }
  else
    {
      g_array_insert_val (orig, pos, e->index);
      g_ptr_array_insert (dst->elems, (gint) pos, v);
    }
}

static void
builder_add_path (Builder *b, DdbValue *result, const DdbValue *item, const DdbPath *p)
{
  const DdbValue *found = ddb_path_lookup (item, p);
  DdbValue *dst = result;

  if (found == NULL)
    return;
  for (guint i = 0; i < p->n; i++)
    {
      gboolean last = i + 1 == p->n;
      DdbValue **slot;
      guint pos = 0;
      GArray *orig; /* the picked indices of `dst` when it is a list (a stable pointer) */

      if (!builder_locate (b, dst, &p->elems[i], &slot, &pos, &orig))
        return;
      if (slot == NULL)
        {
          DdbValue *v = last ? ddb_value_copy (found) : builder_new_container (b, &p->elems[i + 1]);

          builder_insert (orig, dst, &p->elems[i], pos, v);
          dst = v;
          continue;
        }
      /* Something is already there: a whole value holds anything deeper, and a whole value
       * replaces what was picked inside it before. */
      if (!builder_is_partial (b, *slot))
        return;
      if (last)
        {
          if (b->graveyard == NULL)
            b->graveyard = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
          g_ptr_array_add (b->graveyard, *slot);
          *slot = ddb_value_copy (found);
          return;
        }
      dst = *slot;
    }
}

DdbValue *
ddb_projection_apply (const DdbProjection *p, const DdbValue *item)
{
  Builder b = { NULL, NULL, NULL };
  DdbValue *result;

  g_return_val_if_fail (p != NULL, NULL);
  g_return_val_if_fail (item != NULL && item->type == DDB_TYPE_M, NULL);

  result = ddb_value_new_m_sized (p->n_paths);
  for (guint i = 0; i < p->n_paths; i++)
    builder_add_path (&b, result, item, &p->paths[i]);

  if (b.lists != NULL)
    {
      for (guint i = 0; i < b.lists->len; i++)
        g_array_unref (g_array_index (b.lists, PickedList, i).orig);
      g_array_unref (b.lists);
    }
  if (b.maps != NULL)
    g_ptr_array_unref (b.maps);
  if (b.graveyard != NULL)
    g_ptr_array_unref (b.graveyard);
  return result;
}
