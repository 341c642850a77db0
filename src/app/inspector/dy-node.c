/* dy-node.c: the values inside an item, as a tree. */
#define G_LOG_DOMAIN "dynoscope-node"

#include "app/common/dy-format.h"
#include "app/inspector/dy-node.h"
#include "core/base64.h"

struct _DyNode {
  GObject parent_instance;
  DyItem *item; /* keeps VALUE alive */
  const DdbValue *value;
  char *name;
  char *path;
};

G_DEFINE_FINAL_TYPE (DyNode, dy_node, G_TYPE_OBJECT)

static void
dy_node_finalize (GObject *object)
{
  DyNode *self = DY_NODE (object);

  g_clear_object (&self->item);
  g_free (self->name);
  g_free (self->path);
  G_OBJECT_CLASS (dy_node_parent_class)->finalize (object);
}

static void
dy_node_class_init (DyNodeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_node_finalize;
}

static void
dy_node_init (DyNode *self)
{
}

static gboolean
name_needs_quotes (const char *name)
{
  if (name[0] == '\0')
    return TRUE;
  for (const char *p = name; *p != '\0'; p++)
    if (*p == '.' || *p == '[' || *p == ']' || *p == '"' || *p == '\\' || (guchar) *p < 0x20)
      return TRUE;
  return FALSE;
}

static DyNode *
node_new (DyItem *item, const DdbValue *value, char *name, char *path)
{
  DyNode *self = g_object_new (DY_TYPE_NODE, NULL);

  self->item = g_object_ref (item);
  self->value = value;
  self->name = name;
  self->path = path;
  return self;
}

static char *
quoted (const char *name)
{
  g_autofree char *escaped = g_strescape (name, NULL);

  return name_needs_quotes (name) ? g_strdup_printf ("\"%s\"", escaped) : g_strdup (name);
}

static GListModel *
members (DyItem *item, const DdbValue *value, const char *parent_path)
{
  GListStore *store = g_list_store_new (DY_TYPE_NODE);

  if (value->type == DDB_TYPE_M)
    {
      for (guint i = 0; i < ddb_value_map_size (value); i++)
        {
          DdbAttr *attr = ddb_value_map_nth (value, i);
          g_autofree char *q = quoted (attr->name);
          char *path = parent_path != NULL ? g_strdup_printf ("%s.%s", parent_path, q)
                                           : g_strdup (q);
          g_autoptr (DyNode) node = node_new (item, attr->value, g_strdup (attr->name), path);

          g_list_store_append (store, node);
        }
    }
  else
    {
      for (guint i = 0; i < value->elems->len; i++)
        {
          g_autoptr (DyNode) node = node_new (item, value->elems->pdata[i],
                                              g_strdup_printf ("[%u]", i),
                                              g_strdup_printf ("%s[%u]", parent_path, i));

          g_list_store_append (store, node);
        }
    }
  return G_LIST_MODEL (store);
}

GListModel *
dy_node_list_for_item (DyItem *item)
{
  return members (item, dy_item_get_value (item), NULL);
}

GListModel *
dy_node_get_children (DyNode *self)
{
  switch (self->value->type)
    {
    case DDB_TYPE_M:
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      return members (self->item, self->value, self->path);
    default:
      return NULL;
    }
}

const char *
dy_node_get_name (DyNode *self)
{
  return self->name;
}

const char *
dy_node_get_path (DyNode *self)
{
  return self->path;
}

const DdbValue *
dy_node_get_value (DyNode *self)
{
  return self->value;
}

char *
dy_node_dup_value_text (DyNode *self)
{
  const DdbValue *v = self->value;

  /* The inspector is where values are read exactly: nothing cut, binary whole. A label ends at
   * U+0000, so that one is shown as the escape the grid's cells show. */
  if (v->type == DDB_TYPE_S)
    {
      GString *out = g_string_sized_new (v->bytes.len);

      for (gsize i = 0; i < v->bytes.len; i++)
        if (v->bytes.data[i] == '\0')
          g_string_append (out, "\\u0000");
        else
          g_string_append_c (out, v->bytes.data[i]);
      return g_string_free (out, FALSE);
    }
  if (v->type == DDB_TYPE_B)
    {
      g_autofree char *b64 = ddb_base64_encode ((const guchar *) v->bytes.data, v->bytes.len);

      return g_strdup_printf ("%s (%" G_GSIZE_FORMAT " B)", b64, v->bytes.len);
    }
  return dy_format_value (v);
}
