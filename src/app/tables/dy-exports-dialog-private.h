/* dy-exports-dialog-private.h: what dy-exports-dialog.c (the dialog, point-in-time recovery, the
 * list, starting an export) shares with dy-exports-dialog-incremental.c (the incremental export's
 * form, and an incremental export opened with the exports it goes on top of). */
#pragma once

#include <jansson.h>

#include "app/tables/dy-exports-dialog.h"

G_BEGIN_DECLS

struct _DyExportsDialog {
  AdwWindow parent_instance;

  DyConnection *connection;
  char *table;
  GSettings *settings;
  char *table_arn;
  char *key_spec;
  GCancellable *cancellable;
  guint poll_source;
  /* Export and Open: the export started for it (its ARN, once ExportTableToPointInTime
   * answered), opened as a snapshot when the list shows it Completed. */
  gboolean open_pending;
  char *open_when_done;
  gboolean start_when_described; /* dy_exports_dialog_export_and_open before the table was read */
  GHashTable *described; /* ExportArn -> its ExportDescription, as the list last read them */
  guint list_serial;     /* of the last listing asked for (ListExports' pages) */
  double earliest_s;     /* point-in-time recovery's earliest restorable time, -1: unknown */
  char *from_default;    /* what the dialog last put in Changes From */

  AdwActionRow *pitr_row;
  GtkButton *pitr_button;
  char *pitr_text;
  AdwEntryRow *bucket_row;
  AdwEntryRow *prefix_row;
  AdwComboRow *format_row;
  AdwComboRow *type_row; /* full, incremental */
  AdwEntryRow *from_row;
  AdwEntryRow *to_row;
  AdwComboRow *view_row; /* new and old images, new images */
  GtkButton *export_button;
  GtkButton *export_open_button;
  AdwActionRow *button_row;
  GtkListBox *list;
  GtkLabel *empty_label;
  GtkRevealer *error_revealer;
  GtkLabel *error_label;
};

/* Shows MESSAGE above the form (NULL: hides it). */
void dy_exports_dialog_show_error (DyExportsDialog *self, const char *message);
/* Emits "open" for the export whose manifest is at URL, with INCREMENTALS on top (may be NULL). */
void dy_exports_dialog_emit_open (DyExportsDialog *self, const char *url,
                                  const char *const *incrementals);

/* An ExportDescription's facts. */
gboolean dy_export_is_completed (json_t *d);
gboolean dy_export_is_incremental (json_t *d);
/* "s3://BUCKET/MANIFEST": the export's manifest-summary.json (newly allocated). */
char *dy_export_manifest_url (json_t *d);

/* ---- dy-exports-dialog-incremental.c ---- */

/* The form's Type, Changes From, Until and Images rows, added to GROUP. */
void dy_exports_dialog_incremental_init (DyExportsDialog *self, AdwPreferencesGroup *group);
/* Whether the form asks for an incremental export. */
gboolean dy_exports_dialog_is_incremental (DyExportsDialog *self);
/* Changes From's default, again: the time point-in-time recovery or the list changed. */
void dy_exports_dialog_update_from (DyExportsDialog *self);
/* The export's type (and an incremental one's specification) into REQ; FALSE (the error shown)
 * when the form's times are wrong. */
gboolean dy_exports_dialog_add_incremental (DyExportsDialog *self, json_t *req);
/* The Open of an incremental export's row (its ARN in the button's "arn" data). */
void dy_exports_dialog_open_incremental (GtkButton *button, DyExportsDialog *self);

G_END_DECLS
