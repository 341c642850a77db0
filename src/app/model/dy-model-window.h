/* dy-model-window.h: the Model window: a key design model (src/model) with its tables,
 * entities, access patterns and sample items side by side; each pattern's resolution (the
 * one GetItem or Query it needs, its request and "Copy as" code) or why it is flagged, and the
 * model's flags, checked again as the user edits; Open and Save of NoSQL Workbench files (ours
 * carry the "x-dynoscope" member). */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"

#include "model/check.h"
#include "model/model.h"

G_BEGIN_DECLS

#define DY_TYPE_MODEL_WINDOW (dy_model_window_get_type ())
G_DECLARE_FINAL_TYPE (DyModelWindow, dy_model_window, DY, MODEL_WINDOW, AdwWindow)

/* An empty Model window of APPLICATION (a window of its own, so that it can stand beside the
 * browser; the application lives while it is open). */
DyModelWindow *dy_model_window_new (GtkApplication *application);
/* A new Model window showing the model at PATH (NULL: none yet), presented; a file that
 * cannot be read shows its error in the window. */
DyModelWindow *dy_model_window_open (GtkApplication *application, const char *path);

/* Reads the model at PATH (a Workbench data model, ours or not) and shows it; FALSE with the
 * reader's error (the model shown stays). */
gboolean dy_model_window_load (DyModelWindow *self, const char *path, GError **error);
/* Shows MODEL (taken), e.g. one inferred from a table; PATH (may be NULL) is where Save writes.
 * With MODIFIED, closing asks to save it. */
void dy_model_window_set_model (DyModelWindow *self, DyModel *model, const char *path,
                                gboolean modified);
/* Writes the model to PATH as Workbench JSON; PATH becomes the window's file. */
gboolean dy_model_window_save_to (DyModelWindow *self, const char *path, GError **error);

/* The model shown (NULL before one is loaded), owned by the window. */
DyModel *dy_model_window_get_model (DyModelWindow *self);
/* dy_model_check of the model as it is now (NULL without a model). */
const DyCheckReport *dy_model_window_get_report (DyModelWindow *self);
const char *dy_model_window_get_path (DyModelWindow *self);
/* TRUE when the model changed since it was read or saved. */
gboolean dy_model_window_get_modified (DyModelWindow *self);

typedef enum {
  DY_MODEL_SELECT_TABLE,
  DY_MODEL_SELECT_ENTITY,
  DY_MODEL_SELECT_PATTERN,
} DyModelSelectKind;

/* Shows the INDEX-th table, entity or access pattern in the detail pane. */
void dy_model_window_select (DyModelWindow *self, DyModelSelectKind kind, guint index);

/* What Create on… and Infer from Table… do once the user has picked where: CONNECTION (one
 * of the browser window's) and, when asked for, one of its TABLE names (else NULL). */
typedef void (*DyModelTargetFunc) (DyModelWindow *self, DyConnection *connection, const char *table,
                                   gpointer user_data);
/* Asks which connection (WITH_TABLE: and which of its tables) with HEADING and BODY, the
 * answer button labelled ACTION_LABEL; FUNC runs on that answer. Returns the dialog (it closes
 * by itself), or NULL when the browser window has no connection (a toast says so). */
GtkWidget *dy_model_window_choose_target (DyModelWindow *self, const char *heading,
                                          const char *body, const char *action_label,
                                          gboolean with_table, DyModelTargetFunc func,
                                          gpointer user_data);

/* Create on… once CONNECTION is chosen: the dialog showing the CreateTable requests, with the
 * choice of sample or generated items, whose "create" response starts the work (progress and
 * Cancel in a dialog of their own). NULL (and a toast) when there is nothing to create or the
 * work runs already. */
GtkWidget *dy_model_window_review_create (DyModelWindow *self, DyConnection *connection);
/* Infer from Table… once CONNECTION and TABLE are chosen: reads a sample on a worker thread
 * (progress and Cancel in a dialog), then shows the proposed model, not yet saved. */
void dy_model_window_start_infer (DyModelWindow *self, DyConnection *connection,
                                  const char *table);
/* TRUE while Create on… or Infer works; then how the last one ended, as the toast or the error dialog said it. */
gboolean dy_model_window_get_applying (DyModelWindow *self);
const char *dy_model_window_get_apply_message (DyModelWindow *self);

/* A widget of the detail pane by name, or NULL: for an access pattern the editors "name",
 * "entity", "index" (GtkDropDown), "inputs" ("tenantId=acme, customerId": inputs with their
 * example values), "many", "order" (GtkDropDown), "range-from", "range-to", "filters", and the
 * resolution shown: "operation", "target", "key-condition", "direction", "why" (GtkLabel),
 * "request" (GtkTextView); for an entity "key:ATTR" (the template of key attribute ATTR, a
 * GtkEntry) and "key-error:ATTR" (its inline error, a GtkLabel). */
GtkWidget *dy_model_window_get_field (DyModelWindow *self, const char *name);
/* The sample items' grid: GtkTreeListRow of DyGroup (item collections by partition key, as
 * the browser groups them) and of DyItem. */
GListModel *dy_model_window_get_item_rows (DyModelWindow *self);
/* The sidebar's flags, then the checks that could not run. */
GtkListBox *dy_model_window_get_flags_list (DyModelWindow *self);

G_END_DECLS
