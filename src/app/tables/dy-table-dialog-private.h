/* dy-table-dialog-private.h: what the table dialog's files share: the dialog (dy-table-dialog.c:
 * modes, Review, sending) and its form (dy-table-dialog-form.c: the widgets of a table's
 * description, read back into a DdbTableSpec). */
#pragma once

#include "app/tables/dy-table-dialog.h"

G_BEGIN_DECLS

typedef enum {
  DY_TABLE_DIALOG_CREATE,
  DY_TABLE_DIALOG_EDIT,
  DY_TABLE_DIALOG_DELETE,
} DyTableDialogMode;

typedef struct {
  AdwEntryRow *name, *pk_name, *sk_name;
  AdwComboRow *pk_type, *sk_type;
  AdwActionRow *keys_row; /* edit: the keys, fixed */
  AdwComboRow *billing;
  GtkSpinButton *rcu, *wcu;
  AdwPreferencesGroup *indexes_group;
  GPtrArray *index_rows;     /* the rows of indexes_group, as spec's GSIs then LSIs */
  AdwExpanderRow *new_index; /* the fields below, last in indexes_group */
  AdwComboRow *index_kind;
  AdwEntryRow *index_name, *index_pk_name, *index_sk_name, *index_include;
  AdwComboRow *index_pk_type, *index_sk_type, *index_projection;
  GtkButton *add_index;
  AdwComboRow *stream;
  AdwExpanderRow *ttl;
  AdwEntryRow *ttl_attribute;
} DyTableForm;

struct _DyTableDialog {
  AdwWindow parent_instance;

  AdwWindowTitle *window_title;
  GtkButton *cancel_button, *back_button, *primary_button;
  GtkSpinner *spinner;
  GtkLabel *error_label;
  GtkStack *stack;
  AdwPreferencesPage *form_page;
  GtkLabel *review_label;
  GtkMenuButton *copy_as_button;
  GtkTextView *review_view;
  GtkListBox *confirm_box;
  AdwEntryRow *confirm_row;
  GtkLabel *progress_label;

  DyTableForm form;
  DyTableDialogMode mode;
  DyConnection *connection;
  char *table;           /* edit, delete */
  DdbTableSpec *spec;    /* the form's indexes live here; the rest is read from the form */
  DdbTableSpec *current; /* edit: as described */
  GPtrArray *steps;      /* reviewed */
  gboolean ready;
  GCancellable *cancellable; /* while describing or sending */
  gboolean sending;
  char *error;
};

/* dy-table-dialog-form.c */
/* Builds the form's groups into the dialog's form page for its mode. */
void dy_table_form_build (DyTableDialog *self);
/* Shows SELF->spec in the form (the keys, capacity, indexes, stream, TTL). */
void dy_table_form_show (DyTableDialog *self);
/* The form's table: a new spec (SELF->spec's indexes, the other fields from the widgets). */
DdbTableSpec *dy_table_form_read (DyTableDialog *self);
/* Lists SELF->spec's indexes again. */
void dy_table_form_show_indexes (DyTableDialog *self);
/* Shows MESSAGE (NULL: hides the error). */
void dy_table_dialog_set_error (DyTableDialog *self, const char *message);

G_END_DECLS
