/* dy-rows.c: results kept as encoded items in a spill file, decoded per row on demand. */
#define G_LOG_DOMAIN "dynoscope-rows"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "app/common/dy-format.h"
#include "app/browser/dy-rows.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemcodec.h"

/* ---- The store ---- */

struct _DyRowStore {
  gatomicrefcount ref;
  int fd;             /* -1: in memory */
  GByteArray *memory; /* when fd is -1 */
  GMutex lock;        /* appends (and reads of memory) */
  guint64 end;
};

static int
open_spill_file (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "dynoscope", NULL);
  g_autofree char *path = NULL;
  int fd = -1;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    return -1;
#ifdef O_TMPFILE
  fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
  if (fd >= 0)
    return fd;
  /* Without O_TMPFILE: a named file, unlinked at once, so that it goes with the process. */
  path = g_build_filename (dir, "rows-XXXXXX", NULL);
  fd = g_mkstemp_full (path, O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0)
    g_unlink (path);
  return fd;
}

static DyRowStore *
dy_row_store_new (void)
{
  DyRowStore *store = g_new0 (DyRowStore, 1);

  g_atomic_ref_count_init (&store->ref);
  g_mutex_init (&store->lock);
  store->fd = open_spill_file ();
  if (store->fd < 0)
    {
      g_debug ("no spill file (%s): results kept in memory", g_strerror (errno));
      store->memory = g_byte_array_new ();
    }
  return store;
}

DyRowStore *
dy_row_store_ref (DyRowStore *store)
{
  g_atomic_ref_count_inc (&store->ref);
  return store;
}

void
dy_row_store_unref (DyRowStore *store)
{
  if (!g_atomic_ref_count_dec (&store->ref))
    return;
  if (store->fd >= 0)
    close (store->fd);
  if (store->memory != NULL)
    g_byte_array_unref (store->memory);
  g_mutex_clear (&store->lock);
  g_free (store);
}

static gboolean
store_append (DyRowStore *store, const guint8 *data, gsize len, guint64 *offset, GError **error)
{
  gsize done = 0;
  gboolean ok = TRUE;

  g_mutex_lock (&store->lock);
  *offset = store->end;
  if (store->fd < 0)
    g_byte_array_append (store->memory, data, (guint) len);
  else
    while (done < len)
      {
        ssize_t n = pwrite (store->fd, data + done, len - done, (off_t) (store->end + done));

        if (n < 0 && errno == EINTR)
          continue;
        if (n <= 0)
          {
            int saved = errno;

            /* TRANSLATORS: %s says why (disk full, ...) */
            g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                         _ ("Cannot keep the results in the cache folder: %s. Free some disk "
                            "space, or narrow the Query."),
                         g_strerror (saved));
            ok = FALSE;
            break;
          }
        done += (gsize) n;
      }
  if (ok)
    store->end += len;
  g_mutex_unlock (&store->lock);
  return ok;
}

static gboolean
store_read (DyRowStore *store, guint64 offset, guint8 *out, gsize len, GError **error)
{
  gsize done = 0;

  if (store->fd < 0)
    {
      g_mutex_lock (&store->lock);
      memcpy (out, store->memory->data + offset, len);
      g_mutex_unlock (&store->lock);
      return TRUE;
    }
  while (done < len)
    {
      ssize_t n = pread (store->fd, out + done, len - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "Cannot read a row back from the cache folder: %s",
                       n < 0 ? g_strerror (errno) : "short read");
          return FALSE;
        }
      done += (gsize) n;
    }
  return TRUE;
}

static DdbValue *
store_decode (DyRowStore *store, guint64 offset, guint32 len, GError **error)
{
  guint8 small[4096];
  g_autofree guint8 *big = len > sizeof small ? g_malloc (len) : NULL;
  guint8 *buf = big != NULL ? big : small;

  if (!store_read (store, offset, buf, len, error))
    return NULL;
  return ddb_item_decode (buf, len, error);
}

/* ---- Pages ---- */

/* As many items as the widths look at: enough to see the common lengths, few enough that a
 * page's work stays small. */
#define WIDTH_SAMPLE 100

static DyRowPage *
page_begin (DyRowStore *store, guint n_items)
{
  DyRowPage *page = g_new0 (DyRowPage, 1);

  page->store = dy_row_store_ref (store);
  page->lengths = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_items);
  page->names = g_ptr_array_new_with_free_func (g_free);
  page->widths = g_array_new (FALSE, FALSE, sizeof (int));
  return page;
}

/* Encodes the page's row I, ITEM, into BYTES and takes in its names (SEEN: name -> index). */
static void
page_add (DyRowPage *page, GHashTable *seen, GByteArray *bytes, const DdbValue *item, gsize i)
{
  guint before = bytes->len;
  guint32 len;

  for (guint a = 0; a < ddb_value_map_size (item); a++)
    {
      const DdbAttr *attr = ddb_value_map_nth (item, a);
      gpointer index;
      int *width;

      if (!g_hash_table_lookup_extended (seen, attr->name, NULL, &index))
        {
          char *copy = g_strdup (attr->name);
          int chars = (int) g_utf8_strlen (copy, -1) + 2;

          index = GUINT_TO_POINTER (page->names->len);
          g_hash_table_insert (seen, copy, index);
          g_ptr_array_add (page->names, copy);
          g_array_append_val (page->widths, chars);
        }
      width = &g_array_index (page->widths, int, GPOINTER_TO_UINT (index));
      if (i < WIDTH_SAMPLE)
        {
          g_autofree char *text = dy_format_value (attr->value);

          *width = MAX (*width, (int) g_utf8_strlen (text, -1));
        }
    }
  ddb_item_encode (item, bytes);
  len = bytes->len - before;
  g_array_append_val (page->lengths, len);
}

struct _DyRowPageBuilder {
  DyRowPage *page;
  GHashTable *seen; /* name -> index in page->names */
  GByteArray *bytes;
  gsize n;
};

DyRowPageBuilder *
dy_row_page_builder_new (DyRowStore *store, guint n_expected)
{
  DyRowPageBuilder *b = g_new0 (DyRowPageBuilder, 1);

  b->page = page_begin (store, n_expected);
  b->seen = g_hash_table_new (g_str_hash, g_str_equal);
  b->bytes = g_byte_array_new ();
  return b;
}

static void
builder_add (DyRowPageBuilder *b, const DdbValue *item)
{
  page_add (b->page, b->seen, b->bytes, item, b->n++);
}

void
dy_row_page_builder_take (DdbValue *item, gpointer builder)
{
  builder_add (builder, item);
  ddb_value_free (item);
}

void
dy_row_page_builder_free (DyRowPageBuilder *b)
{
  if (b->page != NULL)
    dy_row_page_free (b->page);
  g_hash_table_unref (b->seen);
  g_byte_array_unref (b->bytes);
  g_free (b);
}

DyRowPage *
dy_row_page_builder_finish (DyRowPageBuilder *b, GError **error)
{
  DyRowPage *page = g_steal_pointer (&b->page);

  if (!store_append (page->store, b->bytes->data, b->bytes->len, &page->base, error))
    g_clear_pointer (&page, dy_row_page_free);
  dy_row_page_builder_free (b);
  return page;
}

DyRowPage *
dy_row_page_new (DyRowStore *store, json_t *items, GError **error)
{
  DyRowPageBuilder *b = dy_row_page_builder_new (store, (guint) json_array_size (items));
  json_t *json;
  size_t i;

  json_array_foreach (items, i, json)
    {
      g_autoptr (DdbValue) item = ddb_json_to_item (json, error);

      if (item == NULL)
        {
          dy_row_page_builder_free (b);
          return NULL;
        }
      builder_add (b, item);
    }
  return dy_row_page_builder_finish (b, error);
}

DyRowPage *
dy_row_page_new_from_values (DyRowStore *store, GPtrArray *items, GError **error)
{
  DyRowPageBuilder *b = dy_row_page_builder_new (store, items->len);

  for (guint i = 0; i < items->len; i++)
    builder_add (b, items->pdata[i]);
  return dy_row_page_builder_finish (b, error);
}

void
dy_row_page_free (DyRowPage *page)
{
  dy_row_store_unref (page->store);
  g_array_unref (page->lengths);
  g_ptr_array_unref (page->names);
  g_array_unref (page->widths);
  g_free (page);
}

/* ---- The index: where each row's bytes are ---- */

/* Four bytes a row: its offset within its page's bytes; the pages (a few hundred for a million
 * rows) hold where they start in the store. A row ends where the next one of its page starts,
 * or at its page's end. */
typedef struct {
  guint64 base; /* the page's first byte in the store */
  guint first;  /* its first row */
  guint32 end;  /* its length in bytes */
} Span;

typedef struct {
  GArray *starts; /* guint32 per row, from its span's base */
  GArray *spans;  /* Span */
} RowIndex;

static void
row_index_init (RowIndex *index)
{
  index->starts = g_array_new (FALSE, FALSE, sizeof (guint32));
  index->spans = g_array_new (FALSE, FALSE, sizeof (Span));
}

static void
row_index_clear (RowIndex *index)
{
  g_clear_pointer (&index->starts, g_array_unref);
  g_clear_pointer (&index->spans, g_array_unref);
}

static void
row_index_copy (const RowIndex *from, RowIndex *to)
{
  to->starts = g_array_sized_new (FALSE, FALSE, sizeof (guint32), from->starts->len);
  g_array_append_vals (to->starts, from->starts->data, from->starts->len);
  to->spans = g_array_sized_new (FALSE, FALSE, sizeof (Span), from->spans->len);
  g_array_append_vals (to->spans, from->spans->data, from->spans->len);
}

/* Adds a page's rows (LENGTHS, back to back from BASE); FALSE if it is too big to index (4 GB:
 * far beyond a page of DynamoDB's). */
static gboolean
row_index_add (RowIndex *index, guint64 base, GArray *lengths)
{
  Span span = { base, index->starts->len, 0 };
  guint64 offset = 0;

  for (guint i = 0; i < lengths->len; i++)
    offset += g_array_index (lengths, guint32, i);
  if (offset > G_MAXUINT32)
    return FALSE;
  if (lengths->len == 0)
    return TRUE;
  span.end = (guint32) offset;
  g_array_append_val (index->spans, span);
  g_array_set_size (index->starts, span.first + lengths->len);
  offset = 0;
  for (guint i = 0; i < lengths->len; i++)
    {
      g_array_index (index->starts, guint32, span.first + i) = (guint32) offset;
      offset += g_array_index (lengths, guint32, i);
    }
  return TRUE;
}

static void
row_index_locate (const RowIndex *index, guint row, guint64 *offset, guint32 *len)
{
  const Span *spans = (const Span *) (void *) index->spans->data;
  const guint32 *starts = (const guint32 *) (void *) index->starts->data;
  guint lo = 0, hi = index->spans->len;
  guint next_first;
  guint32 end;

  /* The last span starting at or before ROW. */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (spans[mid].first <= row)
        lo = mid;
      else
        hi = mid;
    }
  next_first = lo + 1 < index->spans->len ? spans[lo + 1].first : index->starts->len;
  end = row + 1 < next_first ? starts[row + 1] : spans[lo].end;
  *offset = spans[lo].base + starts[row];
  *len = end - starts[row];
}

/* ---- DyRows ---- */

/* Rows decoded lately, by position: the grid asks for the rows it shows again and again as
 * it lays them out and scrolls, and the inspector for the selected one. */
#define CACHE_SLOTS 1024

typedef struct {
  guint position;
  DyItem *item;
} CacheSlot;

struct _DyRows {
  GObject parent_instance;
  DyRowStore *store;
  RowIndex index;
  CacheSlot cache[CACHE_SLOTS];
};

static void dy_rows_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DyRows, dy_rows, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, dy_rows_list_model_init))

static GType
dy_rows_get_item_type (GListModel *model)
{
  return DY_TYPE_ITEM;
}

static guint
dy_rows_get_n_items (GListModel *model)
{
  return DY_ROWS (model)->index.starts->len;
}

static gpointer
dy_rows_get_item (GListModel *model, guint position)
{
  return dy_rows_get_row (DY_ROWS (model), position);
}

static void
dy_rows_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dy_rows_get_item_type;
  iface->get_n_items = dy_rows_get_n_items;
  iface->get_item = dy_rows_get_item;
}

static void
clear_cache (DyRows *self)
{
  for (guint i = 0; i < CACHE_SLOTS; i++)
    g_clear_object (&self->cache[i].item);
}

static void
dy_rows_finalize (GObject *object)
{
  DyRows *self = DY_ROWS (object);

  clear_cache (self);
  g_clear_pointer (&self->store, dy_row_store_unref);
  row_index_clear (&self->index);
  G_OBJECT_CLASS (dy_rows_parent_class)->finalize (object);
}

static void
dy_rows_class_init (DyRowsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_rows_finalize;
}

static void
dy_rows_init (DyRows *self)
{
  row_index_init (&self->index);
}

DyRows *
dy_rows_new (void)
{
  return g_object_new (DY_TYPE_ROWS, NULL);
}

DyRowStore *
dy_rows_get_store (DyRows *self)
{
  if (self->store == NULL)
    self->store = dy_row_store_new ();
  return self->store;
}

gboolean
dy_rows_add_page (DyRows *self, DyRowPage *page)
{
  guint before = self->index.starts->len;

  if (page->store != self->store || !row_index_add (&self->index, page->base, page->lengths))
    return FALSE;
  if (page->lengths->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), before, 0, page->lengths->len);
  return TRUE;
}

void
dy_rows_clear (DyRows *self)
{
  guint n = self->index.starts->len;

  /* New arrays: large ones go back to the system now, not at the next Run's size. */
  row_index_clear (&self->index);
  row_index_init (&self->index);
  clear_cache (self);
  g_clear_pointer (&self->store, dy_row_store_unref);
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}

DyItem *
dy_rows_get_row (DyRows *self, guint position)
{
  CacheSlot *slot = &self->cache[position % CACHE_SLOTS];
  g_autoptr (GError) error = NULL;
  DdbValue *value;
  guint64 offset;
  guint32 len;

  if (position >= self->index.starts->len)
    return NULL;
  if (slot->item != NULL && slot->position == position)
    return g_object_ref (slot->item);
  row_index_locate (&self->index, position, &offset, &len);
  value = store_decode (self->store, offset, len, &error);
  if (value == NULL)
    {
      /* The grid needs an item at every position: an empty one says the row is lost. */
      g_warning ("row %u: %s", position, error->message);
      value = ddb_value_new_m ();
    }
  g_clear_object (&slot->item);
  slot->item = dy_item_new (value);
  slot->position = position;
  return g_object_ref (slot->item);
}

/* ---- Snapshots ---- */

struct _DyRowsSnapshot {
  DyRowStore *store;
  RowIndex index;
};

DyRowsSnapshot *
dy_rows_snapshot (DyRows *self)
{
  DyRowsSnapshot *snapshot = g_new0 (DyRowsSnapshot, 1);

  row_index_copy (&self->index, &snapshot->index);
  if (self->store != NULL)
    snapshot->store = dy_row_store_ref (self->store);
  return snapshot;
}

void
dy_rows_snapshot_free (DyRowsSnapshot *snapshot)
{
  if (snapshot->store != NULL)
    dy_row_store_unref (snapshot->store);
  row_index_clear (&snapshot->index);
  g_free (snapshot);
}

guint
dy_rows_snapshot_get_n (DyRowsSnapshot *snapshot)
{
  return snapshot->index.starts->len;
}

DdbValue *
dy_rows_snapshot_read (DyRowsSnapshot *snapshot, guint i, GError **error)
{
  guint64 offset;
  guint32 len;

  g_return_val_if_fail (i < snapshot->index.starts->len, NULL);
  row_index_locate (&snapshot->index, i, &offset, &len);
  return store_decode (snapshot->store, offset, len, error);
}

gboolean
dy_rows_snapshot_foreach (DyRowsSnapshot *snapshot, DyRowsEachFunc func, gpointer user_data,
                          GCancellable *cancellable, GError **error)
{
  const Span *spans = (const Span *) (void *) snapshot->index.spans->data;
  const guint32 *starts = (const guint32 *) (void *) snapshot->index.starts->data;
  guint n_rows = snapshot->index.starts->len;
  g_autofree guint8 *buf = NULL;
  gsize size = 0;

  for (guint s = 0; s < snapshot->index.spans->len; s++)
    {
      guint last = s + 1 < snapshot->index.spans->len ? spans[s + 1].first : n_rows;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (spans[s].end > size)
        {
          size = spans[s].end;
          g_free (buf);
          buf = g_malloc (size);
        }
      if (!store_read (snapshot->store, spans[s].base, buf, spans[s].end, error))
        return FALSE;
      for (guint row = spans[s].first; row < last; row++)
        {
          guint32 end = row + 1 < last ? starts[row + 1] : spans[s].end;

          if (!func (row, buf + starts[row], end - starts[row], user_data, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* ---- DyRowList ---- */

struct _DyRowList {
  GObject parent_instance;
  DyRows *rows;
  GArray *positions; /* guint32 */
};

static void dy_row_list_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DyRowList, dy_row_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      dy_row_list_list_model_init))

static guint
dy_row_list_get_n_items (GListModel *model)
{
  return DY_ROW_LIST (model)->positions->len;
}

static gpointer
dy_row_list_get_item (GListModel *model, guint position)
{
  DyRowList *self = DY_ROW_LIST (model);

  if (position >= self->positions->len)
    return NULL;
  return dy_rows_get_row (self->rows, g_array_index (self->positions, guint32, position));
}

guint
dy_row_list_get_source_position (DyRowList *self, guint position)
{
  g_return_val_if_fail (position < self->positions->len, G_MAXUINT);
  return g_array_index (self->positions, guint32, position);
}

static void
dy_row_list_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dy_rows_get_item_type;
  iface->get_n_items = dy_row_list_get_n_items;
  iface->get_item = dy_row_list_get_item;
}

static void
dy_row_list_finalize (GObject *object)
{
  DyRowList *self = DY_ROW_LIST (object);

  g_clear_object (&self->rows);
  g_array_unref (self->positions);
  G_OBJECT_CLASS (dy_row_list_parent_class)->finalize (object);
}

static void
dy_row_list_class_init (DyRowListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_row_list_finalize;
}

static void
dy_row_list_init (DyRowList *self)
{
}

DyRowList *
dy_row_list_new (DyRows *rows, GArray *positions)
{
  DyRowList *self = g_object_new (DY_TYPE_ROW_LIST, NULL);

  self->rows = g_object_ref (rows);
  self->positions = positions;
  return self;
}

void
dy_row_list_append_range (DyRowList *self, guint from, guint to)
{
  guint before = self->positions->len;

  for (guint32 i = from; i < to; i++)
    g_array_append_val (self->positions, i);
  if (to > from)
    g_list_model_items_changed (G_LIST_MODEL (self), before, 0, to - from);
}
