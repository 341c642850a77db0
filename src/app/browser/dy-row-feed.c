/* dy-row-feed.c: the grid's slots in front of its rows (see the header). */
#define G_LOG_DOMAIN "dynoscope-rows"

#include "app/browser/dy-row-feed.h"
#include "app/browser/dy-rows.h"

/* Rows shown per main-loop iteration while they need widgets made (each costs a widget per
 * column), rows with widgets taken away per iteration (destroying a row's widgets costs GTK a
 * third of making them), and up to how many rows the feed goes step by step. */
#define FEED_STEP 20
#define FEED_DRAIN_STEP 60
#define FEED_STEPPED 256
/* Slots given a new row told per iteration (each binds a row's cells anew): the first ones,
 * those on screen, at once, the others in the next iterations. */
#define FEED_REBIND_STEP 40

/* ---- DyRowSlot ---- */

struct _DyRowSlot {
  GObject parent_instance;
  GObject *row;
  DyRowFeed *feed; /* NULL once the slot has left the feed */
  guint position;
  gboolean stale; /* shows another row than its cells, until told */
};

enum { SLOT_CHANGED, N_SLOT_SIGNALS };
static guint slot_signals[N_SLOT_SIGNALS];

G_DEFINE_FINAL_TYPE (DyRowSlot, dy_row_slot, G_TYPE_OBJECT)

struct _DyRowFeed {
  GObject parent_instance;
  GListModel *source;
  guint shown;       /* SOURCE's first rows, shown */
  GPtrArray *kept;   /* rows shown after them, from before, going (GObject, or NULL) */
  guint retiring;    /* while rows go at once: rows after KEPT not gone yet */
  GHashTable *slots; /* position -> DyRowSlot, not referenced: a slot leaves when finalized */
  GQueue stale;      /* DyRowSlot (referenced) to tell of their new row, first rows first */
  guint idle_id;
};

enum { ROWS_REPLACED, N_FEED_SIGNALS };
static guint feed_signals[N_FEED_SIGNALS];

static void
dy_row_slot_finalize (GObject *object)
{
  DyRowSlot *self = DY_ROW_SLOT (object);

  /* A slot in the feed is the one at its position. */
  if (self->feed != NULL)
    g_hash_table_remove (self->feed->slots, GUINT_TO_POINTER (self->position));
  g_clear_object (&self->row);
  G_OBJECT_CLASS (dy_row_slot_parent_class)->finalize (object);
}

static void
dy_row_slot_class_init (DyRowSlotClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_row_slot_finalize;
  slot_signals[SLOT_CHANGED] = g_signal_new (
      "changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
dy_row_slot_init (DyRowSlot *self)
{
}

GObject *
dy_row_slot_get_row (DyRowSlot *self)
{
  g_return_val_if_fail (DY_IS_ROW_SLOT (self), NULL);
  return self->row;
}

/* SELF shows ROW (taken) now; TRUE if it is another one (its cells not told yet). */
static gboolean
slot_show (DyRowSlot *self, GObject *row)
{
  if (self->row == row)
    {
      g_clear_object (&row);
      return FALSE;
    }
  g_clear_object (&self->row);
  self->row = row;
  return TRUE;
}

/* ---- The feed's rows and slots ---- */

static void dy_row_feed_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DyRowFeed, dy_row_feed, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      dy_row_feed_list_model_init))

static guint
dy_row_feed_get_n_items (GListModel *model)
{
  DyRowFeed *self = DY_ROW_FEED (model);

  return self->shown + self->kept->len + self->retiring;
}

/* The row at POSITION (a new reference); NULL past the end or among rows going at once. */
static GObject *
row_at (DyRowFeed *self, guint position)
{
  if (position < self->shown)
    return g_list_model_get_item (self->source, position);
  position -= self->shown;
  if (position < self->kept->len && self->kept->pdata[position] != NULL)
    return g_object_ref (self->kept->pdata[position]);
  return NULL;
}

static gpointer
dy_row_feed_get_item (GListModel *model, guint position)
{
  DyRowFeed *self = DY_ROW_FEED (model);
  DyRowSlot *slot;

  if (position >= dy_row_feed_get_n_items (model))
    return NULL;
  slot = g_hash_table_lookup (self->slots, GUINT_TO_POINTER (position));
  if (slot != NULL)
    return g_object_ref (slot);
  slot = g_object_new (DY_TYPE_ROW_SLOT, NULL);
  slot->row = row_at (self, position);
  slot->feed = self;
  slot->position = position;
  g_hash_table_insert (self->slots, GUINT_TO_POINTER (position), slot);
  return slot;
}

static GType
dy_row_feed_get_item_type (GListModel *model)
{
  return DY_TYPE_ROW_SLOT;
}

static void
dy_row_feed_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dy_row_feed_get_item_type;
  iface->get_n_items = dy_row_feed_get_n_items;
  iface->get_item = dy_row_feed_get_item;
}

static int
compare_positions (gconstpointer a, gconstpointer b)
{
  guint pa = (*(DyRowSlot **) a)->position;
  guint pb = (*(DyRowSlot **) b)->position;

  return pa < pb ? -1 : pa > pb;
}

/* The slots at FROM and after (new references), in order. */
static GPtrArray *
slots_from (DyRowFeed *self, guint from)
{
  GPtrArray *found = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  gpointer slot;

  g_hash_table_iter_init (&iter, self->slots);
  while (g_hash_table_iter_next (&iter, NULL, &slot))
    if (DY_ROW_SLOT (slot)->position >= from)
      g_ptr_array_add (found, g_object_ref (slot));
  g_ptr_array_sort (found, compare_positions);
  return found;
}

/* Rows AT .. AT+REMOVED-1 leave, ADDED rows come in their place: the slots there leave the
 * feed, those after move. */
static void
slots_splice (DyRowFeed *self, guint at, guint removed, guint added)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer slot;

  g_hash_table_iter_init (&iter, self->slots);
  while (g_hash_table_iter_next (&iter, NULL, &slot))
    g_ptr_array_add (all, slot);
  g_hash_table_remove_all (self->slots);
  for (guint i = 0; i < all->len; i++)
    {
      DyRowSlot *s = all->pdata[i];

      if (s->position >= at && s->position - at < removed)
        {
          s->feed = NULL;
          continue;
        }
      if (s->position >= at)
        s->position = s->position - removed + added;
      g_hash_table_insert (self->slots, GUINT_TO_POINTER (s->position), s);
    }
}

static void
changed (DyRowFeed *self, guint position, guint removed, guint added)
{
  slots_splice (self, position, removed, added);
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

/* Tells up to N slots given a new row, the first rows first. */
static void
tell_stale (DyRowFeed *self, guint n)
{
  for (guint i = 0; i < n && !g_queue_is_empty (&self->stale); i++)
    {
      g_autoptr (DyRowSlot) slot = g_queue_pop_head (&self->stale);

      slot->stale = FALSE;
      g_signal_emit (slot, slot_signals[SLOT_CHANGED], 0);
    }
}

/* The slots of rows FROM .. TO-1 show the rows there now, in place: those at the top are
 * told at once, the others over the next iterations. */
static void
replace (DyRowFeed *self, guint from, guint to)
{
  g_autoptr (GPtrArray) slots = NULL;

  if (to <= from)
    return;
  slots = slots_from (self, from);
  for (guint i = 0; i < slots->len; i++)
    {
      DyRowSlot *slot = slots->pdata[i];

      if (slot->feed == self && slot->position < to
          && slot_show (slot, row_at (self, slot->position)) && !slot->stale)
        {
          slot->stale = TRUE;
          g_queue_push_tail (&self->stale, g_object_ref (slot));
        }
    }
  g_signal_emit (self, feed_signals[ROWS_REPLACED], 0, from, to - from);
  tell_stale (self, FEED_REBIND_STEP);
}

/* The rows from FROM on go: those with slots (widgets) stay for now, moved up to FROM, the
 * others go at once, a run at a time, so that each change the grid hears of is true. */
static void
retire (DyRowFeed *self, guint from)
{
  g_autoptr (GPtrArray) live = slots_from (self, from);
  guint at = from;

  self->retiring = dy_row_feed_get_n_items (G_LIST_MODEL (self)) - from;
  self->shown = from;
  g_ptr_array_set_size (self->kept, 0);
  for (guint i = 0; i < live->len; i++)
    {
      DyRowSlot *slot = live->pdata[i];
      guint gap;

      if (slot->feed != self)
        continue; /* taken away with a run before it */
      gap = slot->position - at;
      if (gap > 0)
        {
          self->retiring -= gap;
          changed (self, at, gap, 0);
        }
      g_ptr_array_add (self->kept, slot->row != NULL ? g_object_ref (slot->row) : NULL);
      self->retiring--;
      at++;
    }
  if (self->retiring > 0)
    {
      guint gap = self->retiring;

      self->retiring = 0;
      changed (self, at, gap, 0);
    }
}

/* Rows of SOURCE past those shown take the places of the rows kept from before, in place;
 * FALSE if there were none. */
static gboolean
absorb (DyRowFeed *self)
{
  guint n = g_list_model_get_n_items (self->source);
  guint from = self->shown;
  guint take;

  if (self->kept->len == 0 || n <= self->shown)
    return FALSE;
  take = MIN (self->kept->len, n - self->shown);
  g_ptr_array_remove_range (self->kept, 0, take);
  self->shown += take;
  replace (self, from, from + take);
  return TRUE;
}

/* Shows more of SOURCE: a few rows while they may need widgets, then the rest at once. */
static void
grow (DyRowFeed *self)
{
  guint n = g_list_model_get_n_items (self->source);
  guint before = self->shown;
  guint add;

  if (self->kept->len > 0 || self->shown >= n)
    return;
  add = self->shown < FEED_STEPPED ? MIN (n - self->shown, FEED_STEP) : n - self->shown;
  self->shown += add;
  changed (self, before, 0, add);
}

static gboolean
pending (DyRowFeed *self)
{
  return !g_queue_is_empty (&self->stale) || self->kept->len > 0
         || self->shown < g_list_model_get_n_items (self->source);
}

/* One step: slots told of their new rows, or SOURCE's new rows taking the kept ones' places,
 * or kept rows SOURCE has no row for taken away, or more of SOURCE shown. */
static gboolean
feed_idle (gpointer data)
{
  DyRowFeed *self = data;

  if (!g_queue_is_empty (&self->stale))
    tell_stale (self, FEED_REBIND_STEP);
  else if (absorb (self))
    ;
  else if (self->kept->len > 0)
    {
      guint take = MIN (self->kept->len, FEED_DRAIN_STEP);
      guint at = self->shown + self->kept->len - take;

      g_ptr_array_remove_range (self->kept, self->kept->len - take, take);
      changed (self, at, take, 0);
    }
  else
    grow (self);
  if (pending (self))
    return G_SOURCE_CONTINUE;
  self->idle_id = 0;
  return G_SOURCE_REMOVE;
}

/* After a change: SOURCE's new rows take the kept ones' places at once, a first few more are
 * shown, and the rest follows step by step. */
static void
settle (DyRowFeed *self)
{
  absorb (self);
  grow (self);
  /* Below redrawing's priority, so that a frame is drawn between steps. */
  if (pending (self) && self->idle_id == 0)
    self->idle_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, feed_idle, self, NULL);
}

static void
source_changed (GListModel *source, guint position, guint removed, guint added, DyRowFeed *self)
{
  guint gone, same;

  if (position >= self->shown)
    {
      /* Past the rows shown: shown by the steps. */
      settle (self);
      return;
    }
  gone = MIN (removed, self->shown - position);
  same = MIN (gone, added);
  /* Rows that only changed keep their slots (a sort's step, a row replaced). */
  replace (self, position, position + same);
  if (gone > same && position + gone == self->shown)
    retire (self, position + same); /* the rows shown from there on (DyRows emptied) */
  else if (gone > same)
    {
      /* a collection closed */
      self->shown -= gone - same;
      changed (self, position + same, gone - same, 0);
    }
  else if (added > same && position + gone < self->shown)
    {
      /* a collection opened */
      self->shown += added - same;
      changed (self, position + same, 0, added - same);
    }
  settle (self);
}

static void
dy_row_feed_dispose (GObject *object)
{
  DyRowFeed *self = DY_ROW_FEED (object);
  GHashTableIter iter;
  gpointer slot;

  g_clear_handle_id (&self->idle_id, g_source_remove);
  if (self->source != NULL)
    g_signal_handlers_disconnect_by_func (self->source, source_changed, self);
  g_clear_object (&self->source);
  g_hash_table_iter_init (&iter, self->slots);
  while (g_hash_table_iter_next (&iter, NULL, &slot))
    DY_ROW_SLOT (slot)->feed = NULL;
  g_hash_table_remove_all (self->slots);
  g_queue_clear_full (&self->stale, g_object_unref);
  G_OBJECT_CLASS (dy_row_feed_parent_class)->dispose (object);
}

static void
dy_row_feed_finalize (GObject *object)
{
  DyRowFeed *self = DY_ROW_FEED (object);

  g_ptr_array_unref (self->kept);
  g_hash_table_unref (self->slots);
  G_OBJECT_CLASS (dy_row_feed_parent_class)->finalize (object);
}

static void
dy_row_feed_class_init (DyRowFeedClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = dy_row_feed_dispose;
  G_OBJECT_CLASS (klass)->finalize = dy_row_feed_finalize;
  feed_signals[ROWS_REPLACED]
      = g_signal_new ("rows-replaced", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
}

static void
unref_row (gpointer row)
{
  if (row != NULL)
    g_object_unref (row);
}

static void
dy_row_feed_init (DyRowFeed *self)
{
  self->kept = g_ptr_array_new_with_free_func (unref_row);
  self->slots = g_hash_table_new (NULL, NULL);
}

DyRowFeed *
dy_row_feed_new (GListModel *source)
{
  DyRowFeed *self = g_object_new (DY_TYPE_ROW_FEED, NULL);

  self->source = g_object_ref (source);
  g_signal_connect (source, "items-changed", G_CALLBACK (source_changed), self);
  settle (self);
  return self;
}

void
dy_row_feed_set_source (DyRowFeed *self, GListModel *source)
{
  g_return_if_fail (DY_IS_ROW_FEED (self));
  g_return_if_fail (G_IS_LIST_MODEL (source));

  /* Every row goes, but those with widgets stay until SOURCE's rows take their places. */
  retire (self, 0);
  if (source != self->source)
    {
      g_signal_handlers_disconnect_by_func (self->source, source_changed, self);
      g_set_object (&self->source, source);
      g_signal_connect (source, "items-changed", G_CALLBACK (source_changed), self);
    }
  settle (self);
}

GListModel *
dy_row_feed_get_source (DyRowFeed *self)
{
  g_return_val_if_fail (DY_IS_ROW_FEED (self), NULL);
  return self->source;
}

GObject *
dy_row_feed_get_row (DyRowFeed *self, guint position)
{
  g_return_val_if_fail (DY_IS_ROW_FEED (self), NULL);
  return row_at (self, position);
}

guint
dy_row_feed_get_source_position (DyRowFeed *self, guint position)
{
  g_return_val_if_fail (DY_IS_ROW_FEED (self), G_MAXUINT);
  if (position >= self->shown)
    return G_MAXUINT;
  if (DY_IS_ROW_LIST (self->source))
    return dy_row_list_get_source_position (DY_ROW_LIST (self->source), position);
  return DY_IS_ROWS (self->source) ? position : G_MAXUINT;
}

gboolean
dy_row_feed_get_pending (DyRowFeed *self)
{
  return self->idle_id != 0;
}
