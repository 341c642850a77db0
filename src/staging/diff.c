/* diff.c: item diffs by document path, and setting or removing the value at a path. */
#include "staging/diff.h"

void
ddb_diff_entry_free (DdbDiffEntry *entry)
{
  if (entry == NULL)
    return;
  ddb_path_clear (&entry->path);
  g_clear_pointer (&entry->old_value, ddb_value_free);
  g_clear_pointer (&entry->new_value, ddb_value_free);
  g_free (entry);
}

/* The path being walked grows and shrinks as the recursion goes; entries take copies. */
typedef struct {
  GArray *elems; /* DdbPathElem, names borrowed */
  GPtrArray *out;
} DiffWalk;

static void
emit (DiffWalk *w, const DdbValue *a, const DdbValue *b)
{
  DdbDiffEntry *entry = g_new0 (DdbDiffEntry, 1);
  DdbPath borrowed = { w->elems->len, (DdbPathElem *) (void *) w->elems->data };

  ddb_path_copy (&entry->path, &borrowed);
  entry->old_value = a != NULL ? ddb_value_copy (a) : NULL;
  entry->new_value = b != NULL ? ddb_value_copy (b) : NULL;
  g_ptr_array_add (w->out, entry);
}

static void diff_value (DiffWalk *w, const DdbValue *a, const DdbValue *b);

static void
push_name (DiffWalk *w, const char *name)
{
  DdbPathElem e = { (char *) name, 0 };

  g_array_append_val (w->elems, e);
}

static void
push_index (DiffWalk *w, guint index)
{
  DdbPathElem e = { NULL, index };

  g_array_append_val (w->elems, e);
}

static void
pop (DiffWalk *w)
{
  g_array_set_size (w->elems, w->elems->len - 1);
}

static void
diff_maps (DiffWalk *w, const DdbValue *a, const DdbValue *b)
{
  for (guint i = 0; i < ddb_value_map_size (a); i++)
    {
      DdbAttr *attr = ddb_value_map_nth (a, i);
      DdbValue *other = ddb_value_map_get_len (b, attr->name, attr->name_len);

      push_name (w, attr->name);
      if (other == NULL)
        emit (w, attr->value, NULL);
      else
        diff_value (w, attr->value, other);
      pop (w);
    }
  for (guint i = 0; i < ddb_value_map_size (b); i++)
    {
      DdbAttr *attr = ddb_value_map_nth (b, i);

      if (ddb_value_map_get_len (a, attr->name, attr->name_len) != NULL)
        continue;
      push_name (w, attr->name);
      emit (w, NULL, attr->value);
      pop (w);
    }
}

static void
diff_value (DiffWalk *w, const DdbValue *a, const DdbValue *b)
{
  if (ddb_value_equal (a, b))
    return;
  if (a->type == DDB_TYPE_M && b->type == DDB_TYPE_M)
    {
      diff_maps (w, a, b);
      return;
    }
  if (a->type == DDB_TYPE_L && b->type == DDB_TYPE_L
      && ddb_value_list_size (a) == ddb_value_list_size (b))
    {
      for (guint i = 0; i < ddb_value_list_size (a); i++)
        {
          push_index (w, i);
          diff_value (w, ddb_value_list_nth (a, i), ddb_value_list_nth (b, i));
          pop (w);
        }
      return;
    }
  emit (w, a, b);
}

GPtrArray *
ddb_diff_items (const DdbValue *old_item, const DdbValue *new_item)
{
  DiffWalk w;

  w.elems = g_array_new (FALSE, FALSE, sizeof (DdbPathElem));
  w.out = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_diff_entry_free);
  diff_maps (&w, old_item, new_item);
  g_array_free (w.elems, TRUE);
  return w.out;
}

gboolean
ddb_path_set (DdbValue *item, const DdbPath *path, DdbValue *value)
{
  DdbValue *parent = item;
  const DdbPathElem *last;

  if (path->n == 0)
    goto fail;
  for (guint i = 0; i + 1 < path->n; i++)
    {
      const DdbPathElem *e = &path->elems[i];

      if (e->name != NULL)
        parent = parent->type == DDB_TYPE_M ? ddb_value_map_get (parent, e->name) : NULL;
      else
        parent = parent->type == DDB_TYPE_L && e->index < ddb_value_list_size (parent)
                   ? ddb_value_list_nth (parent, e->index)
                   : NULL;
      if (parent == NULL)
        goto fail;
    }
  last = &path->elems[path->n - 1];
  if (last->name != NULL)
    {
      if (parent->type != DDB_TYPE_M)
        goto fail;
      if (value != NULL)
        ddb_value_map_set (parent, last->name, value);
      else
        ddb_value_map_remove (parent, last->name);
      return TRUE;
    }
  if (parent->type != DDB_TYPE_L || value == NULL || last->index >= ddb_value_list_size (parent))
    goto fail;
  ddb_value_free (g_ptr_array_index (parent->elems, last->index));
  g_ptr_array_index (parent->elems, last->index) = value;
  return TRUE;

fail:
  if (value != NULL)
    ddb_value_free (value);
  return FALSE;
}
