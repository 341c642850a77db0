/* dy-group.c: an item collection, and the plan that gathers numbered keys into shard sets (the
 * collections built from rows are in dy-group-builder.c). */
#define G_LOG_DOMAIN "dynoscope-group"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "app/browser/dy-group-private.h"

struct _DyGroup {
  GObject parent_instance;
  char *key_text;
  GListModel *items; /* DyItem (the view's rows), or DyGroup for a shard set; NULL until set */
  guint64 total_size;
  guint n_items;
  gboolean shard_set;
  char *shard_base;
  char *shard_suffix;
  guint shard_count;
  /* Items made when first asked for (dy_group_set_lazy_items). */
  DyGroupItemsFunc make_items;
  gpointer make_data;
  GDestroyNotify make_destroy;
};

G_DEFINE_FINAL_TYPE (DyGroup, dy_group, G_TYPE_OBJECT)

static void
dy_group_finalize (GObject *object)
{
  DyGroup *self = DY_GROUP (object);

  g_free (self->key_text);
  g_free (self->shard_base);
  g_free (self->shard_suffix);
  g_clear_object (&self->items);
  if (self->make_destroy != NULL)
    self->make_destroy (self->make_data);
  G_OBJECT_CLASS (dy_group_parent_class)->finalize (object);
}

static void
dy_group_class_init (DyGroupClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_group_finalize;
}

static void
dy_group_init (DyGroup *self)
{
}

DyGroup *
dy_group_new (const char *key_text)
{
  DyGroup *self = g_object_new (DY_TYPE_GROUP, NULL);

  self->key_text = g_strdup (key_text);
  return self;
}

const char *
dy_group_get_key_text (DyGroup *self)
{
  return self->key_text;
}

void
dy_group_set_items (DyGroup *self, GListModel *items, guint64 total_size)
{
  g_set_object (&self->items, items);
  self->n_items = g_list_model_get_n_items (items);
  self->total_size = total_size;
}

void
dy_group_set_lazy_items (DyGroup *self, guint n_items, guint64 total_size, DyGroupItemsFunc func,
                         gpointer data, GDestroyNotify destroy)
{
  self->n_items = n_items;
  self->total_size = total_size;
  self->make_items = func;
  self->make_data = data;
  self->make_destroy = destroy;
}

GListModel *
dy_group_get_items (DyGroup *self)
{
  if (self->items == NULL && self->make_items != NULL)
    {
      self->items = self->make_items (self->make_data);
      if (self->make_destroy != NULL)
        self->make_destroy (self->make_data);
      self->make_items = NULL;
      self->make_data = NULL;
      self->make_destroy = NULL;
    }
  return G_LIST_MODEL (self->items);
}

guint
dy_group_get_n_items (DyGroup *self)
{
  return self->n_items;
}

guint64
dy_group_get_total_size (DyGroup *self)
{
  return self->total_size;
}

gboolean
dy_group_is_shard_set (DyGroup *self)
{
  return self->shard_set;
}

const char *
dy_group_get_shard_base (DyGroup *self)
{
  return self->shard_base;
}

const char *
dy_group_get_shard_suffix (DyGroup *self)
{
  return self->shard_suffix;
}

guint
dy_group_get_shard_count (DyGroup *self)
{
  return self->shard_count;
}

gboolean
dy_shard_split (const char *key, char **base, char **suffix)
{
  const char *hash = key != NULL ? strrchr (key, '#') : NULL;
  size_t digits;

  if (hash == NULL || hash == key)
    return FALSE;
  digits = strlen (hash + 1);
  if (digits < 2 || digits > 3 || strspn (hash + 1, "0123456789") != digits)
    return FALSE;
  /* The base names an entity itself (TENANT#bigco), not just a kind (USER). */
  if (memchr (key, '#', (size_t) (hash - key)) == NULL)
    return FALSE;
  if (base != NULL)
    *base = g_strndup (key, (gsize) (hash - key));
  if (suffix != NULL)
    *suffix = g_strdup (hash + 1);
  return TRUE;
}

/* ---- Shard sets: the plan ---- */

/* A family of numbered keys (BASE#01, BASE#02, ...) while the plan is made. */
typedef struct {
  char *base;
  GArray *members;     /* guint: collection indices, first seen first */
  GPtrArray *suffixes; /* char *, the members' numbers as written */
  guint first;         /* the first member */
  gboolean padded;     /* some number starts with 0 */
  gboolean one_width;
} Family;

static void
family_free (Family *family)
{
  g_free (family->base);
  g_array_unref (family->members);
  g_ptr_array_unref (family->suffixes);
  g_free (family);
}

static void
shard_mark_free (DyShardMark *mark)
{
  g_free (mark->base);
  g_free (mark->suffix);
  g_free (mark);
}

static void
shard_set_free (DyShardSet *set)
{
  g_free (set->key_text);
  g_free (set->base);
  g_array_unref (set->members);
  g_free (set);
}

typedef struct {
  guint index;
  const char *suffix;
} Member;

static int
compare_members (gconstpointer a, gconstpointer b)
{
  /* Numbers of one width: their text order is their numeric order. */
  return strcmp (((const Member *) a)->suffix, ((const Member *) b)->suffix);
}

static void
mark (DyShardPlan *plan, guint index, const char *base, const char *suffix, guint count)
{
  DyShardMark *m = g_new0 (DyShardMark, 1);

  m->base = g_strdup (base);
  m->suffix = g_strdup (suffix);
  m->count = count;
  g_hash_table_insert (plan->marks, GUINT_TO_POINTER (index + 1), m);
}

DyShardPlan *
dy_shard_plan_new (const char *const *keys, guint n)
{
  DyShardPlan *plan = g_new0 (DyShardPlan, 1);
  g_autoptr (GHashTable) families
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) family_free);
  /* The bases of lone numbered keys -> non-NULL once a key is that base: a million keys are
   * looked at only when there is such a base. */
  g_autoptr (GHashTable) lone_bases = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree Family **family_of = g_new0 (Family *, MAX (n, 1));
  GHashTableIter iter;
  Family *family;

  plan->entries = g_array_new (FALSE, FALSE, sizeof (DyShardEntry));
  plan->sets = g_ptr_array_new_with_free_func ((GDestroyNotify) shard_set_free);
  plan->marks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) shard_mark_free);

  for (guint i = 0; i < n; i++)
    {
      char *base = NULL;
      char *suffix = NULL;

      if (!dy_shard_split (keys[i], &base, &suffix))
        continue;
      family = g_hash_table_lookup (families, base);
      if (family == NULL)
        {
          family = g_new0 (Family, 1);
          family->base = base;
          family->members = g_array_new (FALSE, FALSE, sizeof (guint));
          family->suffixes = g_ptr_array_new_with_free_func (g_free);
          family->first = i;
          family->one_width = TRUE;
          g_hash_table_insert (families, family->base, family);
        }
      else
        g_free (base);
      if (family->suffixes->len > 0 && strlen (family->suffixes->pdata[0]) != strlen (suffix))
        family->one_width = FALSE;
      family->padded |= suffix[0] == '0';
      g_array_append_val (family->members, i);
      g_ptr_array_add (family->suffixes, suffix);
      family_of[i] = family;
    }
  g_hash_table_iter_init (&iter, families);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &family))
    if (family->members->len == 1 && family->padded)
      g_hash_table_insert (lone_bases, family->base, NULL);
  for (guint i = 0; i < n && g_hash_table_size (lone_bases) > 0; i++)
    if (g_hash_table_contains (lone_bases, keys[i]))
      g_hash_table_insert (lone_bases, (gpointer) keys[i], GINT_TO_POINTER (1));

  for (guint i = 0; i < n; i++)
    {
      DyShardEntry entry = { i, FALSE };

      family = family_of[i];
      if (family != NULL && family->members->len >= 2 && family->padded && family->one_width)
        {
          DyShardSet *set;
          guint len = family->members->len;
          g_autofree Member *members = NULL;

          if (family->first != i)
            continue; /* already in its set */
          members = g_new (Member, len);
          for (guint m = 0; m < len; m++)
            {
              members[m].index = g_array_index (family->members, guint, m);
              members[m].suffix = family->suffixes->pdata[m];
            }
          qsort (members, len, sizeof (Member), compare_members);
          set = g_new0 (DyShardSet, 1);
          set->key_text = g_strdup_printf ("%s#%s…#%s", family->base, members[0].suffix,
                                           members[len - 1].suffix);
          set->base = g_strdup (family->base);
          set->members = g_array_sized_new (FALSE, FALSE, sizeof (guint), len);
          for (guint m = 0; m < len; m++)
            {
              g_array_append_val (set->members, members[m].index);
              mark (plan, members[m].index, family->base, members[m].suffix, len);
            }
          entry.index = plan->sets->len;
          entry.set = TRUE;
          g_ptr_array_add (plan->sets, set);
        }
      /* A lone numbered key beside its base (WS#acme#01 next to WS#acme): a shard all the
       * same, flagged where it is. */
      else if (family != NULL && family->members->len == 1 && family->padded
               && g_hash_table_lookup (lone_bases, family->base) != NULL)
        mark (plan, i, family->base, family->suffixes->pdata[0], 1);
      g_array_append_val (plan->entries, entry);
    }
  return plan;
}

void
dy_shard_plan_free (DyShardPlan *plan)
{
  if (plan == NULL)
    return;
  g_array_unref (plan->entries);
  g_ptr_array_unref (plan->sets);
  g_hash_table_unref (plan->marks);
  g_free (plan);
}

const DyShardMark *
dy_shard_plan_get_mark (const DyShardPlan *plan, guint index)
{
  return g_hash_table_lookup (plan->marks, GUINT_TO_POINTER (index + 1));
}

void
dy_group_set_shard (DyGroup *self, const DyShardMark *mark)
{
  g_clear_pointer (&self->shard_suffix, g_free);
  if (mark == NULL)
    return;
  g_free (self->shard_base);
  self->shard_base = g_strdup (mark->base);
  self->shard_suffix = g_strdup (mark->suffix);
  self->shard_count = mark->count;
}

DyGroup *
dy_group_new_shard_set (const DyShardSet *set, GListModel *members)
{
  DyGroup *self = dy_group_new (set->key_text);
  guint n = g_list_model_get_n_items (members);

  self->shard_set = TRUE;
  self->shard_base = g_strdup (set->base);
  self->shard_count = n;
  self->items = g_object_ref (members);
  for (guint m = 0; m < n; m++)
    {
      g_autoptr (DyGroup) member = g_list_model_get_item (members, m);

      self->n_items += member->n_items;
      self->total_size += member->total_size;
    }
  return self;
}

GListModel *
dy_group_collect_shards (GListModel *groups)
{
  guint n = g_list_model_get_n_items (groups);
  g_autoptr (GPtrArray) all = g_ptr_array_new_full (n, g_object_unref);
  g_autofree const char **keys = g_new0 (const char *, MAX (n, 1));
  DyShardPlan *plan;
  GListStore *out = g_list_store_new (DY_TYPE_GROUP);

  for (guint i = 0; i < n; i++)
    {
      DyGroup *group = g_list_model_get_item (groups, i);

      g_ptr_array_add (all, group);
      keys[i] = group->key_text;
    }
  plan = dy_shard_plan_new (keys, n);
  for (guint i = 0; i < n; i++)
    dy_group_set_shard (all->pdata[i], dy_shard_plan_get_mark (plan, i));
  for (guint e = 0; e < plan->entries->len; e++)
    {
      const DyShardEntry *entry = &g_array_index (plan->entries, DyShardEntry, e);

      if (entry->set)
        {
          const DyShardSet *set = plan->sets->pdata[entry->index];
          g_autoptr (GListStore) members = g_list_store_new (DY_TYPE_GROUP);
          g_autoptr (DyGroup) group = NULL;

          for (guint m = 0; m < set->members->len; m++)
            g_list_store_append (members, all->pdata[g_array_index (set->members, guint, m)]);
          group = dy_group_new_shard_set (set, G_LIST_MODEL (members));
          g_list_store_append (out, group);
        }
      else
        g_list_store_append (out, all->pdata[entry->index]);
    }
  dy_shard_plan_free (plan);
  return G_LIST_MODEL (out);
}

/* BYTES in hundredths of a percent of the limit, rounded down, in integers. */
static guint64
limit_basis (guint64 bytes)
{
  return bytes > G_MAXUINT64 / 10000 ? G_MAXUINT64 / DY_COLLECTION_LIMIT_BYTES
                                     : bytes * 10000 / DY_COLLECTION_LIMIT_BYTES;
}

gboolean
dy_collection_limit_below_shown (guint64 bytes)
{
  return bytes > 0 && limit_basis (bytes) == 0;
}

char *
dy_collection_limit_text (guint64 bytes, int *level)
{
  guint64 basis = limit_basis (bytes);

  if (level != NULL)
    *level = bytes >= DY_COLLECTION_LIMIT_BYTES ? 2
             : basis >= (guint64) DY_COLLECTION_WARN_PERCENT * 100 ? 1 : 0;
  if (basis == 0)
    return g_strdup (bytes == 0
                     /* xgettext:no-c-format */
                     ? _ ("0% of 10 GB")
                     /* xgettext:no-c-format */
                     : _ ("< 0.01% of 10 GB"));

  g_autofree char *share = basis % 100 == 0
      ? g_strdup_printf ("%" G_GUINT64_FORMAT, basis / 100)
      : g_strdup_printf ("%" G_GUINT64_FORMAT "%s%02u", basis / 100,
                         localeconv ()->decimal_point, (guint) (basis % 100));
  /* TRANSLATORS: %s is a percentage such as "12.5" (already in the locale's decimal notation);
     10 GB is DynamoDB's item collection size limit. */
  return g_strdup_printf (_ ("%s%% of 10 GB"), share);
}

GListModel *
dy_group_tree_children (gpointer item, gpointer user_data)
{
  (void) user_data;
  if (DY_IS_GROUP (item))
    return g_object_ref (dy_group_get_items (DY_GROUP (item)));
  return NULL;
}
