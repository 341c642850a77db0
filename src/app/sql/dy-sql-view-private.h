/* dy-sql-view-private.h: what the parts of the SQL tab share.
 *
 *   dy-sql-view.c        the class: the editor, history and saved queries, the tab
 *   dy-sql-partiql.c     the PartiQL mode: ExecuteStatement pages, parameters, Load more,
 *                        the confirmation of a write, Copy as
 *   dy-sql-results.c     Run: plan, confirmation, the rows streamed from a worker, Cancel, the
 *                        grid's columns, the footer and the reads per table
 *   dy-sql-completion.c  completion of table and column names
 *   dy-sql-export.c      export of the result (CSV, JSON lines) with progress
 *   dy-sql-drift.c       the "Find drift…" dialog
 *   dy-sql-stage.c       the result's key (which table's items the rows are) and the
 *                        "Stage update…" dialog */
#pragma once

#include <gtksourceview/gtksource.h>

#include "app/browser/dy-row-feed.h"
#include "app/browser/dy-rows.h"
#include "app/sql/dy-sql-view.h"

G_BEGIN_DECLS

/* What a tab's workers share, and may outlive the tab: one backend of the connection's own
 * (dy_connection_open_backend), the DdbSql its statements run on (one at a time: RUN_LOCK)
 * and a second one for completion's lookups (NAMES_LOCK), so that they never wait for a long
 * statement. Atomically reference counted; opened on a worker. */
typedef struct {
  DyConnection *connection;
  GMutex open_lock; /* BACKEND, SQL, NAMES_SQL being made; STEPPING */
  GMutex run_lock;  /* held by the worker using SQL */
  GMutex names_lock;
  DdbBackend *backend;
  DdbSql *sql;
  DdbSql *names_sql;
  gboolean stepping; /* a statement is running on SQL */
  gboolean remote;
} DySqlSession;

DySqlSession *dy_sql_session_new (DyConnection *connection);
DySqlSession *dy_sql_session_ref (DySqlSession *session);
void dy_sql_session_unref (DySqlSession *session);
/* Opens the backend and SQL (worker threads only); cheap once done. */
gboolean dy_sql_session_open (DySqlSession *session, GError **error);
/* The backend alone, opened if needed (worker threads only). */
DdbBackend *dy_sql_session_backend (DySqlSession *session, GError **error);
/* The completion's DdbSql, opened if needed; call with NAMES_LOCK held (workers only). */
DdbSql *dy_sql_session_names (DySqlSession *session, GError **error);
/* Stops the statement running on SQL, if any (any thread). */
void dy_sql_session_cancel (DySqlSession *session);
/* SQL identifier text for NAME: as it is when it needs no quotes, else quoted. */
char *dy_sql_identifier (const char *name);

/* Which table's items the rows of a result are: its key attributes and the result columns
 * holding them (a column of the table or of one of its indexes, taken as is). */
typedef struct {
  char *table;
  GStrv key_names;   /* the table's key attributes: partition key, then sort key */
  GStrv key_columns; /* the result columns holding them, in the same order */
  GStrv attributes;  /* per result column (as dy_sql_view_get_columns lists them): the
                      * table's attribute it is, or "" */
} DySqlTarget;

void dy_sql_target_free (DySqlTarget *target);
/* Worker side: the first table (in the order of its columns) whose full key QUERY's result
 * carries (the key as the SQL layer knows it); NULL when none. COLUMNS are the result's column
 * names as shown. */
DySqlTarget *dy_sql_target_find (DdbSqlQuery *query, GPtrArray *columns);

#define DY_TYPE_SQL_COMPLETION (dy_sql_completion_get_type ())
G_DECLARE_FINAL_TYPE (DySqlCompletion, dy_sql_completion, DY, SQL_COMPLETION, GObject)

DySqlCompletion *dy_sql_completion_new (DySqlSession *session);
/* Lists the tables on a worker now, so that the first completion need not wait. */
void dy_sql_completion_prefetch (DySqlCompletion *self);
GPtrArray *dy_sql_completion_get_tables (DySqlCompletion *self);
GPtrArray *dy_sql_completion_get_columns (DySqlCompletion *self, const char *table);
/* The tables a statement reads, from its FROM and JOIN clauses, and the aliases it gives them
 * (alias -> table; a table named without an alias is its own). Main thread or any. */
GHashTable *dy_sql_completion_scan_tables (const char *text);

/* What the error bar's Retry runs again: a failure that sending again may cure
 * (dy_connection_error_is_retryable), as it was run, whatever the editor holds since. */
typedef enum {
  DY_SQL_RETRY_NONE,
  DY_SQL_RETRY_STATEMENT,     /* the SQL statement (retry_text): its plan, then its rows */
  DY_SQL_RETRY_PARTIQL_FIRST, /* the PartiQL statement's first page (partiql_request) */
  DY_SQL_RETRY_PARTIQL_NEXT,  /* the page after the rows shown (next_token) */
} DySqlRetry;

struct _DySqlView {
  GtkBox parent_instance;

  GtkSourceView *editor;
  GtkColumnView *column_view;
  GtkRevealer *plan_revealer;
  GtkLabel *plan_label;
  GtkLabel *stats_label;
  GtkRevealer *error_revealer;
  GtkLabel *error_label;
  GtkWidget *retry_button; /* in the error bar, beside the message */
  GtkLabel *footer_label;
  GtkSpinner *spinner;
  GtkProgressBar *progress_bar;
  GtkButton *cancel_button;
  GtkMenuButton *history_button;
  GtkMenuButton *saved_button;

  DyConnection *connection;
  DySqlSession *session;
  DySqlCompletion *completion;
  gulong history_handler;

  /* The results of the last Run. */
  DyRows *rows;
  DyRowFeed *feed; /* the rows handed to the grid a few at a time */
  GtkSingleSelection *selection;
  GPtrArray *columns;        /* char*: the result's distinct column names, then NULL */
  DySqlTarget *target;       /* NULL: no table's full key */
  gboolean widths_set;       /* the first page sized the columns */
  GCancellable *cancellable; /* of the Run */
  guint serial;              /* of the Run; answers of older ones are dropped */
  gboolean running;
  gboolean cancelled;
  gint64 started; /* monotonic µs */
  gint64 elapsed;
  DdbSqlStats stats;
  char *plan;
  char *error;
  DySqlRetry retry; /* what the error bar's Retry runs again */
  char *retry_text; /* the SQL statement, for DY_SQL_RETRY_STATEMENT */
  char *status;
  double confirm_rcu;
  GSettings *settings; /* where confirm_rcu is kept, or NULL */
  AdwMessageDialog *confirm_dialog;

  /* The PartiQL mode (dy-sql-partiql.c). */
  gboolean partiql;
  GtkRevealer *partiql_revealer;
  GtkEntry *params_entry;
  GtkSpinButton *limit_spin;
  GtkMenuButton *copy_as_button;
  GtkButton *load_more_button;
  json_t *partiql_request; /* of the last statement, without NextToken */
  char *next_token;        /* NULL: no more pages */
  GStrv key_names;         /* the table's key attributes, when known */
  guint pages;
  double partiql_rcu;
  AdwMessageDialog *write_dialog;

  /* Export. */
  GCancellable *export_cancellable; /* while exporting */
  guint export_timer;
  gpointer export; /* the export's shared state, while exporting */
};

/* dy-sql-view.c */
void dy_sql_view_set_running (DySqlView *self, gboolean running);
void dy_sql_view_update_actions (DySqlView *self);

/* dy-sql-results.c */
/* Empties the grid, the plan and the error before a new result. */
void dy_sql_results_clear (DySqlView *self);
/* Adds grid columns NAMES after those shown. */
void dy_sql_results_append_columns (DySqlView *self, GPtrArray *names);
/* Sizes the columns to PAGE's values, once per result. */
void dy_sql_results_size_columns (DySqlView *self, DyRowPage *page);
/* The selected text when there is a selection, else the editor's. */
char *dy_sql_view_statement_text (DySqlView *self);
void dy_sql_results_class_init (GtkWidgetClass *widget_class);
void dy_sql_results_init (DySqlView *self);
void dy_sql_results_dispose (DySqlView *self);
/* MESSAGE in the error bar, without Retry; NULL hides the bar. Either way what failed before is
 * forgotten (self->retry). */
void dy_sql_view_show_error (DySqlView *self, const char *message);
/* MESSAGE (the words for ERROR) in the error bar, with Retry when sending again may cure ERROR
 * (NAME: DynamoDB's name for it, or NULL): RETRY then names what it runs again (TEXT: the SQL
 * statement, for DY_SQL_RETRY_STATEMENT). */
void dy_sql_view_show_failure (DySqlView *self, const char *message, const GError *error,
                               const char *name, DySqlRetry retry, const char *text);
void dy_sql_view_update_footer (DySqlView *self);
/* Stops the Run (view.cancel, Escape): the rows read stay. */
void dy_sql_view_cancel (DySqlView *self);

/* dy-sql-partiql.c */
void dy_sql_partiql_class_init (GtkWidgetClass *widget_class);
void dy_sql_partiql_init (DySqlView *self);
void dy_sql_partiql_dispose (DySqlView *self);
void dy_sql_partiql_finalize (DySqlView *self);
/* Run in PartiQL mode: the first page of ExecuteStatement. */
void dy_sql_partiql_run (DySqlView *self);
/* Retry in PartiQL mode: the last statement's first page as it was sent (a write to a live
 * connection asked about again), or with NEXT_PAGE the page after the rows shown. */
void dy_sql_partiql_retry (DySqlView *self, gboolean next_page);
/* The tab's title and tooltip, which say the mode. */
void dy_sql_partiql_update_tab (DySqlView *self);
void dy_sql_partiql_update_actions (DySqlView *self);

/* dy-sql-export.c */
void dy_sql_export_class_init (GtkWidgetClass *widget_class);
void dy_sql_export_cancel (DySqlView *self);

/* dy-sql-drift.c */
void dy_sql_drift_class_init (GtkWidgetClass *widget_class);

/* dy-sql-stage.c */
void dy_sql_stage_class_init (GtkWidgetClass *widget_class);

G_END_DECLS
