/* dy-group.c: an item collection. */
#define G_LOG_DOMAIN "dynoscope-group"

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>

#include "app/browser/dy-group.h"

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

GListModel *
dy_group_get_items (DyGroup *self)
{
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

typedef struct {
  char *base;
  GPtrArray *members; /* DyGroup, borrowed from the input list */
  guint first;        /* position of the first member */
  gboolean padded;    /* some suffix starts with 0 */
  gboolean one_width;
} Family;

static void
family_free (Family *family)
{
  g_free (family->base);
  g_ptr_array_unref (family->members);
  g_free (family);
}

static int
compare_shards (gconstpointer a, gconstpointer b)
{
  DyGroup *ga = *(DyGroup **) a;
  DyGroup *gb = *(DyGroup **) b;

  /* Suffixes of one width: their text order is their numeric order. */
  return strcmp (ga->shard_suffix, gb->shard_suffix);
}

GListModel *
dy_group_collect_shards (GListModel *groups)
{
  guint n = g_list_model_get_n_items (groups);
  g_autoptr (GHashTable) families = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                           (GDestroyNotify) family_free);
  g_autoptr (GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);
  GListStore *out = g_list_store_new (DY_TYPE_GROUP);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DyGroup) group = g_list_model_get_item (groups, i);
      char *base = NULL;
      char *suffix = NULL;
      Family *family;

      g_hash_table_add (keys, group->key_text);
      if (!dy_shard_split (group->key_text, &base, &suffix))
        continue;
      family = g_hash_table_lookup (families, base);
      if (family == NULL)
        {
          family = g_new0 (Family, 1);
          family->base = base;
          family->members = g_ptr_array_new ();
          family->first = i;
          family->one_width = TRUE;
          g_hash_table_insert (families, family->base, family);
        }
      else
        g_free (base);
      if (family->members->len > 0
          && strlen (((DyGroup *) family->members->pdata[0])->shard_suffix) != strlen (suffix))
        family->one_width = FALSE;
      family->padded |= suffix[0] == '0';
      g_free (group->shard_suffix);
      group->shard_suffix = suffix;
      g_ptr_array_add (family->members, group);
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DyGroup) group = g_list_model_get_item (groups, i);
      g_autofree char *base = NULL;
      Family *family = NULL;

      if (dy_shard_split (group->key_text, &base, NULL))
        family = g_hash_table_lookup (families, base);
      if (family != NULL && family->members->len >= 2 && family->padded && family->one_width)
        {
          DyGroup *set;
          g_autofree char *first = NULL;
          g_autofree char *last = NULL;

          if (family->first != i)
            continue; /* already in its set */
          g_ptr_array_sort (family->members, compare_shards);
          first = g_strdup (((DyGroup *) family->members->pdata[0])->shard_suffix);
          last = g_strdup (((DyGroup *) family->members->pdata[family->members->len - 1])->shard_suffix);
          set = g_object_new (DY_TYPE_GROUP, NULL);
          g_clear_object (&set->items);
          set->items = G_LIST_MODEL (g_list_store_new (DY_TYPE_GROUP));
          set->key_text = g_strdup_printf ("%s#%s…#%s", family->base, first, last);
          set->shard_set = TRUE;
          set->shard_base = g_strdup (family->base);
          set->shard_count = family->members->len;
          for (guint m = 0; m < family->members->len; m++)
            {
              DyGroup *member = family->members->pdata[m];

              g_free (member->shard_base);
              member->shard_base = g_strdup (family->base);
              member->shard_count = family->members->len;
              set->n_items += member->n_items;
              set->total_size += member->total_size;
              g_list_store_append (G_LIST_STORE (set->items), member);
            }
          g_list_store_append (out, set);
          g_object_unref (set);
          continue;
        }
      /* A lone numbered key beside its base (WS#acme#01 next to WS#acme): a shard all the
       * same, flagged where it is. */
      if (family != NULL && family->members->len == 1 && family->padded
          && g_hash_table_contains (keys, family->base))
        {
          g_free (group->shard_base);
          group->shard_base = g_strdup (family->base);
          group->shard_count = 1;
        }
      else if (family != NULL)
        g_clear_pointer (&group->shard_suffix, g_free);
      g_list_store_append (out, group);
    }
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

/* ---- Collections built from rows ---- */

typedef struct {
  DyGroup *group;
  GArray *positions; /* guint32 */
  guint64 size;
} Collection;

struct _DyGroupBuilder {
  GHashTable *by_key;      /* key text -> Collection (borrowed from collections) */
  GPtrArray *collections; /* Collection*, first seen first */
};

static void
collection_free (Collection *c)
{
  g_clear_object (&c->group);
  if (c->positions != NULL)
    g_array_unref (c->positions);
  g_free (c);
}

DyGroupBuilder *
dy_group_builder_new (void)
{
  DyGroupBuilder *b = g_new0 (DyGroupBuilder, 1);

  b->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b->collections = g_ptr_array_new_with_free_func ((GDestroyNotify) collection_free);
  return b;
}

void
dy_group_builder_free (DyGroupBuilder *builder)
{
  if (builder == NULL)
    return;
  g_hash_table_unref (builder->by_key);
  g_ptr_array_unref (builder->collections);
  g_free (builder);
}

void
dy_group_builder_add (DyGroupBuilder *builder, const char *key_text, guint32 position,
                      guint64 size)
{
  Collection *c = g_hash_table_lookup (builder->by_key, key_text);

  if (c == NULL)
    {
      c = g_new0 (Collection, 1);
      c->group = dy_group_new (key_text);
      c->positions = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_hash_table_insert (builder->by_key, g_strdup (key_text), c);
      g_ptr_array_add (builder->collections, c);
    }
  g_array_append_val (c->positions, position);
  c->size += size;
}

GListModel *
dy_group_builder_finish (DyGroupBuilder *builder, DyRows *rows, GCompareDataFunc compare,
                         gpointer user_data)
{
  g_autoptr (GListStore) groups = g_list_store_new (DY_TYPE_GROUP);

  for (guint i = 0; i < builder->collections->len; i++)
    {
      Collection *c = builder->collections->pdata[i];
      g_autoptr (DyRowList) items = NULL;

      if (compare != NULL)
        g_qsort_with_data (c->positions->data, (int) c->positions->len, sizeof (guint32), compare,
                           user_data);
      items = dy_row_list_new (rows, g_steal_pointer (&c->positions));
      dy_group_set_items (c->group, G_LIST_MODEL (items), c->size);
      g_list_store_append (groups, c->group);
    }
  g_hash_table_remove_all (builder->by_key);
  g_ptr_array_set_size (builder->collections, 0);
  return dy_group_collect_shards (G_LIST_MODEL (groups));
}
