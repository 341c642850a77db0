/* dy-change.h: one DynamoDB Streams record as the Changes view shows it, without GTK: the event,
 * the key in one line, when it happened, whether Time to Live removed the item, and for a
 * MODIFY whose record carries both images what changed, per attribute (old -> new, added,
 * removed), every value formatted as the grid formats it (dy-format.h). */
#pragma once

#include <gio/gio.h>
#include <jansson.h>

G_BEGIN_DECLS

typedef enum {
  DY_CHANGE_INSERT,
  DY_CHANGE_MODIFY,
  DY_CHANGE_REMOVE,
  DY_CHANGE_OTHER, /* an eventName this version does not know */
} DyChangeEvent;

typedef enum {
  DY_CHANGE_DIFF_CHANGED,
  DY_CHANGE_DIFF_ADDED,
  DY_CHANGE_DIFF_REMOVED,
} DyChangeDiffKind;

/* One changed path of a MODIFY. */
typedef struct {
  DyChangeDiffKind kind;
  char *path;     /* "status", "settings.theme", "tags[2]" */
  char *old_text; /* NULL when added */
  char *new_text; /* NULL when removed */
} DyChangeDiff;

typedef struct {
  DyChangeEvent event;
  char *event_name;      /* as the record has it */
  char *sequence_number; /* NULL when absent */
  gint64 time_s;         /* ApproximateCreationDateTime (epoch seconds), 0 when absent */
  char *key_text;        /* "PK = WS#1, SK = 12": key attributes in KEY_NAMES' order */
  gboolean ttl;          /* removed by Time to Live (userIdentity: the service) */
  char *view_type;       /* StreamViewType, NULL when absent */
  gboolean both_images;  /* OldImage and NewImage present: DIFFS is what changed */
  GPtrArray *diffs;      /* DyChangeDiff, for a MODIFY with both images, else empty */
  char *image_text;      /* the non-key attributes of the one image an INSERT or REMOVE
                          * carries ("status = open, n = 3"), or NULL */
  gint64 size_bytes;     /* SizeBytes, -1 when absent */
  char *key_folded;      /* KEY_TEXT case-folded, for the filter */
} DyChange;

/* RECORD (a Records element of GetRecords, borrowed) as a change. KEY_NAMES (NULL-terminated,
 * may be NULL) orders the key's attributes (hash, then range); others follow by name. FALSE
 * only for a record that is no object or whose images are not DynamoDB JSON. */
DyChange *dy_change_new (json_t *record, const char *const *key_names, GError **error);
void dy_change_free (DyChange *change);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyChange, dy_change_free)

/* "INSERT", "MODIFY", "REMOVE", or the record's own name. */
const char *dy_change_event_label (const DyChange *change);
/* The time as local "HH:MM:SS" (with the date when it is not today), or "" when unknown. */
char *dy_change_time_text (const DyChange *change, GDateTime *now);
/* TRUE when FILTER is NULL or empty, or the key text contains it (ignoring case). */
gboolean dy_change_matches (const DyChange *change, const char *filter);
/* "status: open → closed", "+ note: hi", "− old: 3": one line. Newly allocated. */
char *dy_change_diff_text (const DyChangeDiff *diff);
/* What the row shows under the key: the diff lines (MODIFY with both images), the image (INSERT,
 * REMOVE), or a word on what the view type leaves out. Newly allocated, may be "". */
char *dy_change_detail_text (const DyChange *change);

/* A DyChange in a GListModel. */
#define DY_TYPE_CHANGE_OBJECT (dy_change_object_get_type ())
G_DECLARE_FINAL_TYPE (DyChangeObject, dy_change_object, DY, CHANGE_OBJECT, GObject)

/* Takes CHANGE. */
DyChangeObject *dy_change_object_new (DyChange *change);
const DyChange *dy_change_object_get (DyChangeObject *self);

G_END_DECLS
