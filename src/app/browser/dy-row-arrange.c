/* dy-row-arrange.c: sorting and grouping a grid's loaded rows on a worker (see
 * dy-row-arrange.h), a million of them in a fraction of a second. No item is built: the
 * attributes that matter are found where they lie in each row's encoding
 * (ddb_item_encoded_lookup), and each row's order is written as bytes whose memcmp order is
 * the comparison's (core/keycodec.h for strings, binaries and numbers), so that sorting compares
 * bytes. A row's collection is found by its partition key's text in a hash table of this file's
 * (a plain string's text is its bytes, where they lie), most rows by the last row's key.
 *
 * A cell's sort key: a byte for its type (1 + DdbType: values of different types order by type),
 * 0xFF for a missing attribute (after every value); then for S and B the keycodec encoding of
 * their bytes (by bytes, a shorter one first), for N the keycodec encoding of the number
 * (numerically, every digit), for BOOL a byte (false first), for NULL nothing (all equal), for
 * the others their one-line text (dy_format_value) and a 0 byte, as strcmp orders texts that
 * hold no 0 byte. Each of these is prefix-free: no key is the start of another one, so keys
 * written one after the other order as the tuple of them, and a descending column's key, its
 * bytes inverted, orders in reverse. */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include "app/browser/dy-row-arrange.h"

#include <string.h>

#include "app/browser/dy-group.h"
#include "app/common/dy-format.h"
#include "core/itemcodec.h"
#include "core/keycodec.h"

DyRowSortKey *
dy_row_sort_key_new (const char *name, gboolean descending)
{
  DyRowSortKey *key = g_new0 (DyRowSortKey, 1);

  key->name = g_strdup (name);
  key->descending = descending;
  return key;
}

void
dy_row_sort_key_free (DyRowSortKey *key)
{
  if (key == NULL)
    return;
  g_free (key->name);
  g_free (key);
}

/* ---- Sort keys ---- */

#define KEY_MISSING 0xFF

/* Appends to OUT the sort key of VALUE (one ddb_item_encoded_lookup found, or missing), its
 * bytes inverted when DESCENDING. */
static gboolean
append_sort_key (const DdbEncodedValue *value, gboolean descending, GByteArray *out, GError **error)
{
  guint start = out->len;
  DdbEncodedScalar scalar;
  DdbNumber number;
  guint8 byte;

  if (value->data == NULL)
    {
      byte = KEY_MISSING;
      g_byte_array_append (out, &byte, 1);
    }
  else
    {
      if (!ddb_encoded_value_get_scalar (value, &scalar, &number, error))
        return FALSE;
      byte = (guint8) (1 + scalar.type);
      g_byte_array_append (out, &byte, 1);
      switch (scalar.type)
        {
        case DDB_TYPE_S:
        case DDB_TYPE_B:
          ddb_key_encode_bytes (scalar.bytes, scalar.len, out);
          break;
        case DDB_TYPE_N:
          if (!ddb_key_encode_number (&number, out, error))
            return FALSE;
          break;
        case DDB_TYPE_BOOL:
          byte = scalar.boolean ? 1 : 0;
          g_byte_array_append (out, &byte, 1);
          break;
        case DDB_TYPE_NULL:
          break;
          default: {
            g_autoptr (DdbValue) built = ddb_encoded_value_decode (value, error);
            g_autofree char *text = NULL;

            if (built == NULL)
              return FALSE;
            text = dy_format_value (built);
            g_byte_array_append (out, (const guint8 *) text, (guint) strlen (text) + 1);
          }
          break;
        }
    }
  if (descending)
    for (guint i = start; i < out->len; i++)
      out->data[i] = (guint8) ~out->data[i];
  return TRUE;
}

/* ---- Sorting ---- */

/* A row kept, and where its key is. */
typedef struct {
  guint64 prefix; /* the key's bytes from the depth sorted at, 8 of them big-endian (0 past its
                     end): most comparisons need no more */
  guint32 row;
  guint32 index; /* its key: keys->data[starts[index] .. starts[index + 1]) */
} Entry;

typedef struct {
  const guint8 *bytes; /* every key, back to back */
  const guint64 *starts;
} Keys;

static inline gsize
key_len (const Keys *keys, const Entry *e)
{
  return (gsize) (keys->starts[e->index + 1] - keys->starts[e->index]);
}

/* The 8 bytes of E's key from DEPTH, as a big-endian number. */
static inline guint64
key_prefix (const Keys *keys, const Entry *e, gsize depth)
{
  const guint8 *p = keys->bytes + keys->starts[e->index];
  gsize len = key_len (keys, e);
  guint64 v = 0;

  if (len >= depth + 8)
    {
      memcpy (&v, p + depth, 8);
      return GUINT64_FROM_BE (v);
    }
  for (gsize i = depth; i < depth + 8; i++)
    v = (v << 8) | (i < len ? p[i] : 0);
  return v;
}

/* Orders A and B by their keys from DEPTH on (their bytes before it are equal), then by row. */
static inline int
compare_entries (const Keys *keys, const Entry *a, const Entry *b, gsize depth)
{
  gsize la = key_len (keys, a), lb = key_len (keys, b);
  int c;

  if (a->prefix != b->prefix)
    return a->prefix < b->prefix ? -1 : 1;
  if (la > depth + 8 && lb > depth + 8)
    {
      c = memcmp (keys->bytes + keys->starts[a->index] + depth + 8,
                  keys->bytes + keys->starts[b->index] + depth + 8, MIN (la, lb) - depth - 8);
      if (c != 0)
        return c;
    }
  /* Keys are prefix-free: equal up to the shorter one's end, they are equal. */
  if (la != lb)
    return la < lb ? -1 : 1;
  return a->row < b->row ? -1 : a->row > b->row;
}

/* Sorts E (N entries, their prefixes set) by prefix alone, keeping the order of equal ones:
 * a byte at a time from the last, TMP as scratch of N entries. */
static void
radix_sort (Entry *e, gsize n, Entry *tmp)
{
  g_autofree gsize *counts = g_new0 (gsize, 8 * 256); /* per byte, per value */
  Entry *from = e, *to = tmp;

  for (gsize i = 0; i < n; i++)
    for (guint b = 0; b < 8; b++)
      counts[b * 256 + ((e[i].prefix >> (8 * b)) & 0xFF)]++;
  for (guint b = 0; b < 8; b++)
    {
      gsize *count = counts + b * 256;
      gsize sum = 0;
      Entry *swap;

      /* A byte every entry has alike moves nothing. */
      if (count[(e[0].prefix >> (8 * b)) & 0xFF] == n)
        continue;
      for (guint v = 0; v < 256; v++)
        {
          gsize c = count[v];

          count[v] = sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        to[count[(from[i].prefix >> (8 * b)) & 0xFF]++] = from[i];
      swap = from;
      from = to;
      to = swap;
    }
  if (from != e)
    memcpy (e, from, n * sizeof *e);
}

typedef struct {
  const Keys *keys;
  gsize depth;
} AtDepth;

static int
compare_at_depth (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const AtDepth *at = user_data;

  return compare_entries (at->keys, a, b, at->depth);
}

/* Past this many bytes alike (long strings that start alike), entries are compared whole rather
 * than sorted a piece of their keys at a time. */
#define RADIX_MAX_DEPTH 256

/* Sorts E (N entries whose keys are equal before DEPTH) by key, then by row (the order they
 * are in). */
static void
sort_entries (const Keys *keys, Entry *e, gsize n, gsize depth, Entry *tmp)
{
  for (gsize i = 0; i < n; i++)
    e[i].prefix = key_prefix (keys, &e[i], depth);
  if (depth >= RADIX_MAX_DEPTH)
    {
      AtDepth at = { keys, depth };

      g_qsort_with_data (e, (gint) n, sizeof *e, compare_at_depth, &at);
      return;
    }
  if (n < 48)
    {
      /* Insertion: few entries, often in order already. */
      for (gsize i = 1; i < n; i++)
        {
          Entry x = e[i];
          gsize j = i;

          for (; j > 0 && compare_entries (keys, &e[j - 1], &x, depth) > 0; j--)
            e[j] = e[j - 1];
          e[j] = x;
        }
      return;
    }
  radix_sort (e, n, tmp);
  /* Equal prefixes: equal keys, in row order already, or keys longer than them to sort by
   * what follows (being prefix-free, they are all longer). */
  for (gsize i = 0; i < n;)
    {
      gsize j = i + 1;

      while (j < n && e[j].prefix == e[i].prefix)
        j++;
      if (j - i > 1 && key_len (keys, &e[i]) > depth + 8)
        sort_entries (keys, e + i, j - i, depth + 8, tmp);
      i = j;
    }
}

typedef struct {
  const char **names; /* the keys' attribute names */
  const gboolean *descending;
  guint k;
  DdbEncodedValue *values;
  DyRowMatch *match;
  GArray *kept;     /* guint32 (no keys): the rows kept, in their loaded order */
  GArray *entries;  /* Entry (keys): the same */
  GByteArray *keys; /* their keys */
  GArray *starts;   /* guint64: where each entry's key starts, and where the last one ends */
} SortRead;

/* Keeps row ROW, if Find's text is in it, with its sort key. */
static gboolean
read_sort_key (guint row, const guint8 *bytes, gsize len, gpointer user_data, GError **error)
{
  SortRead *r = user_data;
  gboolean found;
  guint32 position = row;
  Entry entry = { 0 };

  if (!dy_row_match_encoded (r->match, bytes, len, &found, error))
    return FALSE;
  if (!found)
    return TRUE;
  if (r->k == 0)
    {
      g_array_append_val (r->kept, position);
      return TRUE;
    }
  if (!ddb_item_encoded_lookup (bytes, len, r->names, r->k, r->values, NULL, error))
    return FALSE;
  for (guint j = 0; j < r->k; j++)
    if (!append_sort_key (&r->values[j], r->descending[j], r->keys, error))
      return FALSE;
  entry.row = row;
  entry.index = r->entries->len;
  g_array_append_val (r->entries, entry);
  g_array_append_val (r->starts, (guint64){ r->keys->len });
  return TRUE;
}

GArray *
dy_row_arrange_sort (DyRowsSnapshot *snapshot, DyRowMatch *match, GPtrArray *keys,
                     GCancellable *cancellable, GError **error)
{
  guint n = dy_rows_snapshot_get_n (snapshot);
  guint k = keys->len;
  g_autofree const char **names = g_new0 (const char *, MAX (k, 1));
  g_autofree gboolean *descending = g_new0 (gboolean, MAX (k, 1));
  g_autofree DdbEncodedValue *values = g_new0 (DdbEncodedValue, MAX (k, 1));
  guint sized = match != NULL ? 0 : n;
  SortRead read = { names, descending, k, values, match };
  GArray *positions = NULL;

  for (guint j = 0; j < k; j++)
    {
      names[j] = ((DyRowSortKey *) keys->pdata[j])->name;
      descending[j] = ((DyRowSortKey *) keys->pdata[j])->descending;
    }
  if (k == 0)
    {
      read.kept = g_array_sized_new (FALSE, FALSE, sizeof (guint32), sized);
      if (!dy_rows_snapshot_foreach (snapshot, read_sort_key, &read, cancellable, error))
        g_clear_pointer (&read.kept, g_array_unref);
      return read.kept;
    }
  read.entries = g_array_sized_new (FALSE, FALSE, sizeof (Entry), sized);
  read.keys = g_byte_array_sized_new (MIN (sized, G_MAXUINT / 16) * 16);
  read.starts = g_array_sized_new (FALSE, FALSE, sizeof (guint64), sized + 1);
  g_array_append_val (read.starts, (guint64){ 0 });
  if (dy_rows_snapshot_foreach (snapshot, read_sort_key, &read, cancellable, error))
    {
      Keys sort_keys = { read.keys->data, (const guint64 *) (void *) read.starts->data };
      Entry *entries = (Entry *) (void *) read.entries->data;
      gsize kept = read.entries->len;
      g_autofree Entry *tmp = g_new (Entry, MAX (kept, 1));
      guint32 *p;

      sort_entries (&sort_keys, entries, kept, 0, tmp);
      positions = g_array_sized_new (FALSE, FALSE, sizeof (guint32), (guint) kept);
      g_array_set_size (positions, (guint) kept);
      p = (guint32 *) (void *) positions->data;
      for (gsize i = 0; i < kept; i++)
        p[i] = entries[i].row;
    }
  g_array_unref (read.entries);
  g_byte_array_unref (read.keys);
  g_array_unref (read.starts);
  return positions;
}

/* ---- Grouping ---- */

/* The collections met so far by the text their partition key shows as (dy_format_key, which
 * is what makes a collection): open addressing, the texts back to back in BYTES. */
typedef struct {
  guint64 start; /* of its text in bytes */
  guint32 len;
  guint32 hash;
  guint collection;
} Known;

typedef struct {
  guint32 hash;
  guint32 known; /* index in known + 1; 0: free */
} Slot;

typedef struct {
  GByteArray *bytes;
  GArray *known; /* Known */
  Slot *slots;
  guint32 mask;
  guint last; /* the known text found last + 1 (0: none): a collection's rows mostly come
                 together */
} KeyTable;

static guint32
hash_bytes (const char *p, gsize len)
{
  guint32 h = 2166136261u; /* FNV-1a */

  for (gsize i = 0; i < len; i++)
    h = (h ^ (guint8) p[i]) * 16777619u;
  return h;
}

/* A table for up to N_ROWS rows: sized for as many keys (up to a few million) at once, so that
 * it need not grow as a million rows come. */
static void
key_table_init (KeyTable *t, guint n_rows)
{
  t->bytes = g_byte_array_sized_new (MIN (n_rows, G_MAXUINT / 4) * 4);
  t->known = g_array_sized_new (FALSE, FALSE, sizeof (Known), n_rows / 4);
  t->mask = 1023;
  while (t->mask < MIN (n_rows, 1u << 22))
    t->mask = 2 * t->mask + 1;
  t->slots = g_new0 (Slot, t->mask + 1);
  t->last = 0;
}

static void
key_table_clear (KeyTable *t)
{
  g_byte_array_unref (t->bytes);
  g_array_unref (t->known);
  g_free (t->slots);
}

static inline gboolean
key_table_is (const KeyTable *t, guint known, const char *text, gsize len)
{
  const Known *k = &g_array_index (t->known, Known, known);

  return k->len == len && memcmp (t->bytes->data + k->start, text, len) == 0;
}

/* The slot where TEXT (LEN bytes, hashed HASH) is, or the free one where it would go. */
static Slot *
key_table_slot (KeyTable *t, const char *text, gsize len, guint32 hash)
{
  for (guint32 i = hash & t->mask;; i = (i + 1) & t->mask)
    if (t->slots[i].known == 0
        || (t->slots[i].hash == hash && key_table_is (t, t->slots[i].known - 1, text, len)))
      return &t->slots[i];
}

/* Where TEXT (LEN bytes) is: the slot that holds it, or where it would go (its known then 0),
 * and its hash. */
typedef struct {
  Slot *slot;
  guint32 hash;
} Place;

/* The collection of TEXT (LEN bytes) if it is the one found last. */
static inline gboolean
key_table_last (const KeyTable *t, const char *text, gsize len, guint *collection)
{
  if (t->last == 0 || !key_table_is (t, t->last - 1, text, len))
    return FALSE;
  *collection = g_array_index (t->known, Known, t->last - 1).collection;
  return TRUE;
}

/* Starts fetching the slot of HASH into the cache, for a lookup a little later. */
static inline void
key_table_prefetch (const KeyTable *t, guint32 hash)
{
#ifdef __GNUC__
  __builtin_prefetch (&t->slots[hash & t->mask]);
#endif
}

/* The collection of TEXT (LEN bytes, hashed HASH), if it was met before; else where it would
 * go. */
static gboolean
key_table_lookup (KeyTable *t, const char *text, gsize len, guint32 hash, guint *collection,
                  Place *place)
{
  place->hash = hash;
  place->slot = key_table_slot (t, text, len, hash);
  if (place->slot->known == 0)
    return FALSE;
  t->last = place->slot->known;
  *collection = g_array_index (t->known, Known, t->last - 1).collection;
  return TRUE;
}

/* Remembers that TEXT (LEN bytes, not met before) is COLLECTION's, at PLACE (as
 * key_table_lookup found it). */
static void
key_table_add (KeyTable *t, const char *text, gsize len, const Place *place, guint collection)
{
  Known k = { t->bytes->len, (guint32) len, place->hash, collection };

  g_byte_array_append (t->bytes, (const guint8 *) text, (guint) len);
  g_array_append_val (t->known, k);
  place->slot->hash = place->hash;
  place->slot->known = t->known->len;
  t->last = t->known->len;
  if (t->known->len > (t->mask + 1) / 2)
    {
      t->mask = 2 * t->mask + 1;
      g_free (t->slots);
      t->slots = g_new0 (Slot, t->mask + 1);
      for (guint e = 0; e < t->known->len; e++)
        {
          guint32 h = g_array_index (t->known, Known, e).hash;
          guint32 i = h & t->mask;

          while (t->slots[i].known != 0)
            i = (i + 1) & t->mask;
          t->slots[i].hash = h;
          t->slots[i].known = e + 1;
        }
    }
}

typedef struct {
  const char *names[2]; /* the partition key, the sort key */
  guint n_names;
  DyRowMatch *match;
  const char *no_pk_text;
  gboolean descending;
  guint kept;
  DyGroupBuilder *builder;
  KeyTable table;
  GString *text;
  /* The last row's partition key as encoded (NULL: none yet; empty: it had none), and its
   * collection: the same bytes show as the same text. */
  GByteArray *last_pk;
  guint last_collection;
  GByteArray *sk;     /* each row's sort key, back to back (none for a row not kept) */
  guint64 *sk_starts; /* where each row's starts, and where the last one ends */
} GroupRead;

/* The text PK (a partition key found in a row, or missing) shows as: *TEXT, *LEN (no 0 byte in
 * it), in the row's bytes or in R->text. */
static gboolean
key_text (GroupRead *r, const DdbEncodedValue *pk, const char **text, gsize *len, GError **error)
{
  DdbEncodedScalar scalar;
  DdbNumber number;
  g_autoptr (DdbValue) value = NULL;
  g_autofree char *formatted = NULL;

  if (pk->data == NULL)
    {
      *text = r->no_pk_text;
      *len = strlen (r->no_pk_text);
      return TRUE;
    }
  if (!ddb_encoded_value_get_scalar (pk, &scalar, &number, error))
    return FALSE;
  g_string_truncate (r->text, 0);
  if (scalar.type == DDB_TYPE_S)
    {
      guint8 lowest = 0xFF;

      /* Shown as it is, unless it holds a control character (written as an escape). */
      for (gsize i = 0; i < scalar.len; i++)
        lowest = MIN (lowest, scalar.bytes[i]);
      if (lowest >= 0x20)
        {
          *text = (const char *) scalar.bytes;
          *len = scalar.len;
          return TRUE;
        }
    }
  if (scalar.type == DDB_TYPE_N)
    {
      char buf[DDB_NUMBER_MAX_TEXT];

      g_string_append_len (r->text, buf, (gssize) ddb_number_write (&number, buf));
    }
  else
    {
      value = ddb_encoded_value_decode (pk, error);
      if (value == NULL)
        return FALSE;
      formatted = dy_format_key (value);
      g_string_append (r->text, formatted);
    }
  *text = r->text->str;
  *len = r->text->len;
  return TRUE;
}

/* Appends to OUT the key of VALUE (a sort key found in a row, or missing) in its collection:
 * its type's byte (KEY_MISSING if missing) and, for S and B, its bytes, for N its keycodec
 * bytes; ordered by memcmp and then by length, it orders as dy_format_compare_keys (missing
 * last). */
static gboolean
append_collection_key (const DdbEncodedValue *value, GByteArray *out, GError **error)
{
  DdbEncodedScalar scalar;
  DdbNumber number;
  guint8 byte = KEY_MISSING;

  if (value->data == NULL)
    {
      g_byte_array_append (out, &byte, 1);
      return TRUE;
    }
  if (!ddb_encoded_value_get_scalar (value, &scalar, &number, error))
    return FALSE;
  byte = (guint8) (1 + scalar.type);
  if (scalar.type == DDB_TYPE_S || scalar.type == DDB_TYPE_B)
    {
      guint at = out->len;

      g_byte_array_set_size (out, at + 1 + (guint) scalar.len);
      out->data[at] = byte;
      memcpy (out->data + at + 1, scalar.bytes, scalar.len);
      return TRUE;
    }
  g_byte_array_append (out, &byte, 1);
  if (scalar.type == DDB_TYPE_N)
    return ddb_key_encode_number (&number, out, error);
  return TRUE;
}

/* Puts row ROW, if Find's text is in it, in its collection, keeping its sort key. */
static gboolean
read_group_row (guint row, const guint8 *bytes, gsize len, gpointer user_data, GError **error)
{
  GroupRead *r = user_data;
  DdbEncodedValue values[2];
  const char *text = NULL;
  gsize text_len = 0, size;
  guint collection = 0;
  guint32 hash = 0;
  Place place;
  gboolean found, same, last = FALSE;

  if (r->sk != NULL)
    r->sk_starts[row] = r->sk->len;
  if (!dy_row_match_encoded (r->match, bytes, len, &found, error))
    return FALSE;
  if (!found)
    return TRUE;
  /* The key attributes, and the size of the whole item. */
  if (!ddb_item_encoded_lookup (bytes, len, r->names, r->n_names, values, &size, error))
    return FALSE;
  /* Its collection: the last row's, mostly (its key encoded alike, or showing alike); or one
   * looked up in the table, whose slot (likely not in the cache) is fetched while the sort key
   * is read. */
  same = r->last_pk != NULL && r->last_pk->len == values[0].len
         && (values[0].len == 0 || memcmp (r->last_pk->data, values[0].data, values[0].len) == 0);
  if (same)
    collection = r->last_collection;
  else
    {
      if (!key_text (r, &values[0], &text, &text_len, error))
        return FALSE;
      last = key_table_last (&r->table, text, text_len, &collection);
      if (!last)
        {
          hash = hash_bytes (text, text_len);
          key_table_prefetch (&r->table, hash);
        }
    }
  if (r->sk != NULL && !append_collection_key (&values[1], r->sk, error))
    return FALSE;
  if (!same && !last && !key_table_lookup (&r->table, text, text_len, hash, &collection, &place))
    {
      /* The builder wants it as a string. */
      if (text != r->text->str)
        {
          g_string_truncate (r->text, 0);
          g_string_append_len (r->text, text, (gssize) text_len);
        }
      collection = dy_group_builder_add_collection (r->builder, r->text->str);
      key_table_add (&r->table, r->text->str, r->text->len, &place, collection);
    }
  if (!same)
    {
      if (r->last_pk == NULL)
        r->last_pk = g_byte_array_new ();
      g_byte_array_set_size (r->last_pk, 0);
      if (values[0].data != NULL)
        g_byte_array_append (r->last_pk, values[0].data, (guint) values[0].len);
      r->last_collection = collection;
    }
  dy_group_builder_add_to (r->builder, collection, row, size);
  r->kept++;
  return TRUE;
}

/* The order of rows of a collection (guint32 positions): by sort key (reversed when
 * descending), then as loaded. */
static int
compare_in_collection (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const GroupRead *r = user_data;
  guint32 ra = *(const guint32 *) a, rb = *(const guint32 *) b;
  gsize la = (gsize) (r->sk_starts[ra + 1] - r->sk_starts[ra]);
  gsize lb = (gsize) (r->sk_starts[rb + 1] - r->sk_starts[rb]);
  int c = memcmp (r->sk->data + r->sk_starts[ra], r->sk->data + r->sk_starts[rb], MIN (la, lb));

  if (c == 0 && la != lb)
    c = la < lb ? -1 : 1;
  if (c != 0)
    return r->descending ? -c : c;
  return ra < rb ? -1 : ra > rb;
}

GListModel *
dy_row_arrange_group (DyRows *rows, DyRowsSnapshot *snapshot, DyRowMatch *match, const char *pk,
                      const char *sk, gboolean descending, const char *no_pk_text, guint *kept,
                      GCancellable *cancellable, GError **error)
{
  guint n = dy_rows_snapshot_get_n (snapshot);
  g_autoptr (DyGroupBuilder) builder = dy_group_builder_new ();
  GroupRead read = { { pk, sk }, sk != NULL ? 2 : 1, match, no_pk_text, descending, 0, builder };
  GListModel *groups = NULL;

  /* Room for every row at once: growing arrays of a million rows step by step costs more. */
  dy_group_builder_reserve (builder, match != NULL ? 0 : n);
  key_table_init (&read.table, n);
  read.text = g_string_new (NULL);
  if (sk != NULL)
    {
      read.sk = g_byte_array_sized_new (match != NULL ? 0 : MIN (n, G_MAXUINT / 16) * 16);
      read.sk_starts = g_new0 (guint64, (gsize) n + 1);
    }
  if (dy_rows_snapshot_foreach (snapshot, read_group_row, &read, cancellable, error))
    {
      if (sk != NULL)
        read.sk_starts[n] = read.sk->len;
      groups = dy_group_builder_finish (builder, rows, sk != NULL ? compare_in_collection : NULL,
                                        &read);
    }
  key_table_clear (&read.table);
  g_string_free (read.text, TRUE);
  if (read.last_pk != NULL)
    g_byte_array_unref (read.last_pk);
  if (read.sk != NULL)
    g_byte_array_unref (read.sk);
  g_free (read.sk_starts);
  *kept = read.kept;
  return groups;
}
