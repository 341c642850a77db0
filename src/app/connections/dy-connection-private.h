/* dy-connection-private.h: what dy-connection.c, dy-connection-aws.c and dy-connection-tables.c
 * share: the connection's fields and a few internal calls. */
#pragma once

#include <gtk/gtk.h>

#include "app/connections/dy-connection.h"

G_BEGIN_DECLS

struct _DyConnection {
  GObject parent_instance;
  DyConnectionKind kind;
  char *title;
  char *subtitle;
  char *path;
  char *profile;
  char *url;
  char *region;
  char **envp; /* endpoints: an environment of their own */
  GMutex lock; /* guards backend, opened by the first worker that needs it */
  DdbBackend *backend;
  GtkStringList *tables;
  GCancellable *cancellable;
  char *error;
  gboolean loading;
  gboolean loaded;
  gboolean requested;
  gboolean environment; /* the Environment connection: no profile, the chain's order */
  gboolean region_chosen; /* REGION was picked in the sidebar: it overrides the profile's */
  /* How to sign in again after the last failure (set by the worker that failed, under LOCK;
   * read on the main thread once the failure is reported). */
  DdbAwsSignInKind sign_in;
  char *sign_in_command;
  char *identity;         /* "as Role/session · until 17:45 · IAM Identity Center", or NULL */
  char *identity_tooltip; /* the whole Arn and account */
  GCancellable *identity_cancellable;
  char *account;          /* STS's account id, or NULL */
  gint mark;              /* DyConnectionMark, atomic: workers read it */
  /* The table list (dy-connection-tables.c). */
  guint listing;           /* the serial of the latest listing: older ones' pages are dropped */
  GHashTable *described;   /* table name -> DyTableInfo, filled as DescribeTable answers */
  GPtrArray *pending;      /* DyTableInfo waiting for the main thread, under LOCK */
  guint flush_id;          /* the main thread's flush of PENDING, under LOCK */
};

/* The backend, opened at the first call for a remote connection. Worker threads only. */
DdbBackend *dy_connection_get_backend_internal (DyConnection *self, GError **error);
/* A retry: the session of an opened remote backend resolves again from the files. Worker
 * threads only. */
void dy_connection_reload_session (DyConnection *self);
/* The failure of a call on BACKEND (NULL: not opened; LOCAL taken, RESPONSE borrowed) as the
 * window shows it in *ERROR; remembers how to sign in again. Worker threads. */
void dy_connection_call_failed (DyConnection *self, DdbBackend *backend, GError *local,
                                json_t *response, GError **error);
/* Property setters that notify (main thread). */
void dy_connection_set_error (DyConnection *self, const char *error);
void dy_connection_set_loading (DyConnection *self, gboolean loading);
/* The table list's fields (dy-connection-tables.c). */
void dy_connection_tables_init (DyConnection *self);
/* Emits "renewed" (dy-connection-tables.c). */
void dy_connection_emit_renewed (DyConnection *self);
void dy_connection_emit_tables_described (DyConnection *self);
/* Emits notify::identity. */
void dy_connection_notify_identity (DyConnection *self);

G_END_DECLS
