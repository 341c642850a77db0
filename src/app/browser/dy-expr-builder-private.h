/* dy-expr-builder-private.h: what the expression builder's files share: the dialog's fields
 * and the rows (dy-expr-builder-rows.c). */
#pragma once

#include "app/browser/dy-expr-builder.h"
#include "exprbuild/exprbuild.h"

G_BEGIN_DECLS

/* A condition row's operators, in the order of its dropdown. */
typedef enum {
  OP_EQ,
  OP_NE,
  OP_LT,
  OP_LE,
  OP_GT,
  OP_GE,
  OP_BETWEEN,
  OP_IN,
  OP_BEGINS_WITH,
  OP_CONTAINS,
  OP_EXISTS,
  OP_NOT_EXISTS,
  OP_TYPE,
  OP_SIZE_EQ,
  OP_SIZE_NE,
  OP_SIZE_LT,
  OP_SIZE_LE,
  OP_SIZE_GT,
  OP_SIZE_GE,
} CondOp;

/* SET's forms, in the order of the row's dropdown. */
typedef enum {
  FORM_VALUE,
  FORM_PATH,
  FORM_PLUS,
  FORM_MINUS,
  FORM_IF_NOT_EXISTS,
  FORM_LIST_APPEND,
} SetForm;

/* The comparisons (= <> < <= > >=) as OP_EQ.. and OP_SIZE_EQ.. order them, and the action
 * kinds (SET REMOVE ADD DELETE) as the action rows' dropdown does. */
#define DY_EXPR_BUILDER_N_COMPARISONS 6
#define DY_EXPR_BUILDER_N_ACTION_KINDS 4
extern const DdbNodeKind dy_expr_builder_comparison_kinds[DY_EXPR_BUILDER_N_COMPARISONS];
extern const DdbUpdateKind dy_expr_builder_action_kinds[DY_EXPR_BUILDER_N_ACTION_KINDS];

typedef struct _CondRow CondRow;
struct _CondRow {
  GtkWidget *box;
  CondRow *parent; /* the group row holding this row, or NULL: the top level */
  GtkToggleButton *not_toggle;
  /* A group of rows (JOIN non-NULL; path, op, type, values and raw are then NULL): its rows
   * combined by AND or OR, shown indented under it. */
  GtkDropDown *join;
  GtkBox *children_box;
  GPtrArray *children; /* CondRow*, owned */
  GtkEntry *path;
  GtkDropDown *op;
  GtkDropDown *type;
  GtkEntry *value;
  GtkEntry *value2;
  GtkEntry *raw; /* a loaded part the rows cannot hold, as text; the others are then NULL */
  json_t *raw_names, *raw_values; /* RAW's placeholders (its own: render re-aliases them) */
};

typedef struct {
  GtkWidget *box;
  GtkDropDown *kind;
  GtkEntry *path;
  GtkDropDown *form;
  GtkEntry *path2;
  GtkDropDown *type;
  GtkEntry *value;
  GtkEntry *raw; /* as in CondRow */
  json_t *raw_names, *raw_values;
} ActionRow;

struct _DyExprBuilder {
  AdwWindow parent_instance;

  AdwWindowTitle *window_title;
  GtkDropDown *operation_dropdown;
  GtkWidget *run_button;
  GtkWidget *stage_button;
  GtkMenuButton *copy_as_button;
  GtkWidget *key_section;
  GtkEntry *key_raw_entry;
  GtkWidget *pk_box;
  GtkLabel *pk_label;
  GtkEntry *pk_entry;
  GtkWidget *sk_box;
  GtkLabel *sk_label;
  GtkDropDown *sk_op_dropdown;
  GtkEntry *sk_entry;
  GtkEntry *sk_entry2;
  GtkCheckButton *descending_check;
  GtkWidget *condition_section;
  GtkLabel *condition_heading;
  GtkDropDown *join_dropdown;
  GtkBox *condition_rows;
  GtkWidget *update_section;
  GtkBox *action_rows;
  GtkWidget *projection_section;
  GtkEntry *projection_entry;
  GtkTextView *load_view;
  GtkTextView *preview_view;
  GtkLabel *error_label;
  GtkLabel *status_label;

  DyTableView *view; /* weak */
  char *table;
  char *pk_name, *sk_name;
  DdbType pk_type, sk_type;
  GStrv known;                            /* key attributes and attributes seen in the results */
  GtkListStore *names;                    /* the same, for the path entries' completion */
  GPtrArray *cond_rows;                   /* CondRow*, in order */
  GPtrArray *action_rows_;                /* ActionRow*, in order */
  DdbValue *item;                         /* Stage only this item, or NULL */
  json_t *key_raw_names, *key_raw_values; /* a loaded key condition's placeholders */
  json_t *loaded_extra; /* a loaded request's members the rows do not make (IndexName, Limit) */
  json_t *loaded_key;   /* the Key of a loaded request: the request's Key while ITEM is NULL */
  json_t *request;      /* the last rendered request, or NULL */
  char *error;
  char *status;
  gboolean loading; /* filling the rows: no re-render per widget */
  gboolean staging; /* a Stage runs on a thread: no second one meanwhile */
};

/* Re-renders unless rows are being filled (dy-expr-builder.c). */
void dy_expr_builder_render (DyExprBuilder *self);
/* A widget changed: re-renders unless rows are being filled. */
void dy_expr_builder_changed (DyExprBuilder *self);

/* Rows (dy-expr-builder-rows.c). A raw row holds a loaded part the rows cannot hold, as text
 * checked against its own placeholders NAMES and VALUES (request maps, copied; may be NULL). */
CondRow *dy_expr_builder_cond_row_add (DyExprBuilder *self, CondRow *parent);
/* A group row under PARENT (NULL: the top level), holding one empty row. */
CondRow *dy_expr_builder_cond_group_add (DyExprBuilder *self, CondRow *parent);
CondRow *dy_expr_builder_cond_row_add_raw (DyExprBuilder *self, CondRow *parent,
                                           const char *text, json_t *names, json_t *values);
ActionRow *dy_expr_builder_action_row_add (DyExprBuilder *self);
ActionRow *dy_expr_builder_action_row_add_raw (DyExprBuilder *self, const char *text, json_t *names,
                                               json_t *values);
void dy_expr_builder_cond_row_free (CondRow *row);
void dy_expr_builder_action_row_free (ActionRow *row);
void dy_expr_builder_clear_rows (DyExprBuilder *self);

/* Reading entries: a wrong one gets the error style and, when *MESSAGE is still NULL, the
 * message "PART: what is wrong". */
void dy_expr_builder_mark (GtkWidget *entry, gboolean wrong);
DdbValue *dy_expr_builder_entry_value (GtkEntry *entry, DdbType type, const char *part,
                                       char **message);
gboolean dy_expr_builder_entry_path (DyExprBuilder *self, GtkEntry *entry, const char *part,
                                     DdbPath *out, char **message);
/* The condition or action of row N (1-based, for messages), or NULL: an empty row, or an
 * error in *MESSAGE. */
DdbEbCond *dy_expr_builder_cond_row_build (DyExprBuilder *self, CondRow *row, guint n,
                                           char **message);
DdbEbAction *dy_expr_builder_action_row_build (DyExprBuilder *self, ActionRow *row, guint n,
                                               char **message);
/* Projection text split at commas outside "quoted" names. */
GPtrArray *dy_expr_builder_split_projection (const char *text);

/* Loading: rows from a loaded model's parts. */
void dy_expr_builder_set_value_entry (GtkEntry *entry, GtkDropDown *type, const DdbValue *value);
/* Rows under PARENT (NULL: the top level) for COND: a row for a test (NOT a test: a negated
 * row), a group row for an AND or OR group (NOT a group: a negated group), text for the rest. */
void dy_expr_builder_cond_load (DyExprBuilder *self, CondRow *parent, DdbEbCond *cond);
void dy_expr_builder_action_row_load (DyExprBuilder *self, DdbEbAction *action);

G_END_DECLS
