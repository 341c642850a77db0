/* dy-keys-rows.h: the lists of the key-distribution view (dy-keys-view.h): a row of text
 * cells naming a partition key value, and a GtkColumnView of such rows with buttons that copy
 * the selected row's key or query its partition (the actions keys.copy-key and keys.query,
 * whose string target is the key). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DY_TYPE_KEYS_ROW (dy_keys_row_get_type ())
G_DECLARE_FINAL_TYPE (DyKeysRow, dy_keys_row, DY, KEYS_ROW, GObject)

/* KEY is the partition key value as text (N as its digits, B in base64) that the row's
 * buttons act on; CELLS the texts of its columns, NULL-terminated (copied). */
DyKeysRow *dy_keys_row_new (const char *key, const char *const *cells);
const char *dy_keys_row_get_key (DyKeysRow *self);
/* The text of column COLUMN, or NULL past the last. */
const char *dy_keys_row_get_cell (DyKeysRow *self, guint column);

/* Column kinds: a key (expands, cut in the middle with the whole value as tooltip), text, or a
 * figure (right-aligned, tabular digits). */
typedef enum {
  DY_KEYS_COLUMN_KEY,
  DY_KEYS_COLUMN_TEXT,
  DY_KEYS_COLUMN_FIGURE,
} DyKeysColumnKind;

typedef struct {
  const char *title; /* translated */
  DyKeysColumnKind kind;
} DyKeysColumn;

/* A box with a column view of ROWS (DyKeysRow; the view keeps a reference) with N_COLUMNS
 * columns, at most MAX_HEIGHT pixels tall (it scrolls past that), and under it Copy Key and
 * Query Partition buttons for the selected row. Activating a row queries its partition.
 * *VIEW (may be NULL) is set to the column view. */
GtkWidget *dy_keys_list_new (GListModel *rows, const DyKeysColumn *columns, guint n_columns,
                             int max_height, GtkColumnView **view);


/* Sizes LIST (from dy_keys_list_new) to show N_ROWS rows, up to its MAX_HEIGHT. */
void dy_keys_list_fit (GtkWidget *list, guint n_rows);

/* The height of a row of one line of text, and of the column titles, about. */
#define DY_KEYS_ROW_HEIGHT 33
#define DY_KEYS_HEADER_HEIGHT 32

G_END_DECLS
