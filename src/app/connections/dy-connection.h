/* dy-connection.h: one place tables live in (a database file, the demo database, an AWS profile
 * of the shared config files, a local endpoint added by URL), with its backend and its table
 * list. Every call goes through the backend seam on a worker thread; a remote backend is opened
 * there too, at its first call. */
#pragma once

#include <gio/gio.h>
#include <jansson.h>

#include "backend/backend.h"

G_BEGIN_DECLS

#define DY_TYPE_CONNECTION (dy_connection_get_type ())
G_DECLARE_FINAL_TYPE (DyConnection, dy_connection, DY, CONNECTION, GObject)

typedef enum {
  DY_CONNECTION_DATABASE, /* a database file (or the demo database) */
  DY_CONNECTION_PROFILE,  /* an AWS profile: its region, credentials and endpoint */
  DY_CONNECTION_ENDPOINT, /* a local endpoint (DynamoDB Local, dynalite, dynoscope-cli serve) */
} DyConnectionKind;

/* How careful the app is with a connection (the "mark" property; dy-marks.h keeps the marks in
 * the settings): PRODUCTION asks for the table's name before a commit and is tinted; READ_ONLY
 * refuses every write, in the app and in the connection's backends (ddb_backend_set_read_only). */
typedef enum {
  DY_CONNECTION_MARK_NORMAL,
  DY_CONNECTION_MARK_PRODUCTION,
  DY_CONNECTION_MARK_READ_ONLY,
} DyConnectionMark;

#define DY_TYPE_CONNECTION_MARK (dy_connection_mark_get_type ())
GType dy_connection_mark_get_type (void);

/* A profile in the AWS shared config files, as the sidebar lists it. */
typedef struct {
  char *name;
  char *region; /* NULL: none configured */
} DyProfileInfo;

void dy_profile_info_free (DyProfileInfo *info);
/* The profiles of the shared config files (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE or
 * ~/.aws/...), sorted, as a GPtrArray of DyProfileInfo. Reads files: call it on a thread. */
GPtrArray *dy_list_aws_profiles (GError **error);

/* Takes ownership of BACKEND. */
DyConnection *dy_connection_new (const char *title, const char *path, DdbBackend *backend);
/* Opens the database file at PATH on a thread. */
void dy_connection_open_async (const char *title, const char *path, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data);
DyConnection *dy_connection_open_finish (GAsyncResult *result, GError **error);

/* Remote connections: nothing is opened until the first call (dy_connection_ensure_tables). */
DyConnection *dy_connection_new_profile (const char *profile, const char *region);
/* A local endpoint: requests are signed for REGION (NULL: us-east-1) with fixed placeholder
 * credentials, as DynamoDB Local and dynalite accept any; the user's profiles play no part. */
DyConnection *dy_connection_new_endpoint (const char *url, const char *region);
/* The Environment connection: keys from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and
 * AWS_SESSION_TOKEN), as aws-vault, granted or CI set them, resolved with no profile so that
 * botocore's order applies (the environment first). Kind DY_CONNECTION_PROFILE with a NULL
 * profile. NULL when ENVP (NULL: the process's) has no AWS_ACCESS_KEY_ID. */
DyConnection *dy_connection_new_environment (const char *const *envp);
gboolean dy_connection_is_environment (DyConnection *self);
/* AWS's commercial regions, NULL-terminated. */
const char *const *dy_aws_regions (void);
/* The same profile (or the Environment) as BASE, in REGION instead of its configured one
 * (as --region does). */
DyConnection *dy_connection_new_in_region (DyConnection *base, const char *region);
/* Whether the region was picked (dy_connection_new_in_region) rather than configured. */
gboolean dy_connection_get_region_chosen (DyConnection *self);

DyConnectionKind dy_connection_get_kind (DyConnection *self);
/* What names the connection from one start to the next (its kind, path or profile or URL,
 * and region): the key of what is remembered about it. Newly allocated. */
char *dy_connection_dup_key (DyConnection *self);
const char *dy_connection_get_title (DyConnection *self);
/* A second line for the sidebar: the region of a profile or an endpoint, or NULL. */
const char *dy_connection_get_subtitle (DyConnection *self);
/* The profile name (PROFILE), the URL (ENDPOINT), or NULL. */
const char *dy_connection_get_profile (DyConnection *self);
const char *dy_connection_get_url (DyConnection *self);
const char *dy_connection_get_region (DyConnection *self);
/* The database file, or NULL for a remote connection. */
const char *dy_connection_get_path (DyConnection *self);
/* Table names (GtkStringObject), sorted as ListTables returns them. */
GListModel *dy_connection_get_tables (DyConnection *self);
/* TRUE while the table list is being fetched ("loading" property). */
gboolean dy_connection_get_loading (DyConnection *self);
/* The last error text ("ResourceNotFoundException: ..."), or NULL ("error" property). */
const char *dy_connection_get_error (DyConnection *self);
/* Fetches every page of ListTables on a thread and replaces the table list, each page shown as
 * it arrives, and describes every table (many DescribeTable calls at once): "tables-described"
 * tells when more descriptions are in. */
void dy_connection_refresh_tables (DyConnection *self);
/* DescribeTable's Table of NAME from the last listing (borrowed), or NULL: not described yet,
 * or DescribeTable failed (*ERROR, may be NULL, then says why; else NULL). */
json_t *dy_connection_get_table_description (DyConnection *self, const char *name,
                                             const char **error);
/* Refreshes the table list unless it has been fetched (or is being fetched) already. */
void dy_connection_ensure_tables (DyConnection *self);
/* Lists the tables again after a failure, the session first resolved again from the files
 * (a token written by `aws sso login` elsewhere, new keys). When that succeeds, "renewed" is
 * emitted: open views run again what failed for want of a session
 * (dy_connection_error_wants_session). */
void dy_connection_retry (DyConnection *self);
/* How the person signs in again after the last failure (NONE when there is no failure or
 * nothing to sign in to), and the command that does it ("aws sso login --profile P"). */
DdbAwsSignInKind dy_connection_get_sign_in (DyConnection *self, char **command);
/* The AWS session of a remote connection once its backend is open, else NULL. */
DdbAwsSession *dy_connection_get_session (DyConnection *self);
/* Who an AWS connection is signed in as, once connected ("identity" property): "as
 * Role/session · until 17:45 · IAM Identity Center", or "identity unknown · ..." when STS does
 * not answer; NULL before. The tooltip has the whole Arn. */
const char *dy_connection_get_identity (DyConnection *self);
const char *dy_connection_get_identity_tooltip (DyConnection *self);
/* The account id STS gave once connected (notify::identity tells), or NULL. */
const char *dy_connection_get_account (DyConnection *self);
/* Asks STS again on a thread (done after each successful table listing). */
void dy_connection_refresh_identity (DyConnection *self);
/* TRUE once a table list (or an error) has come back at least once. */
gboolean dy_connection_get_loaded (DyConnection *self);

/* The text the window shows for ERROR from a call on this connection: the error's name
 * (DynamoDB's exception name, or botocore's name for a configuration, credentials or network
 * failure), its message and, where one helps, what to do about it naming the profile. */
char *dy_connection_describe_error (DyConnection *self, const GError *error, json_t *extra);

/* Whether ERROR (from a call on a connection) is one that signing in again or renewed keys
 * cure: no or expired credentials, a session to sign in to, a token the service refused. */
gboolean dy_connection_error_wants_session (const GError *error);
/* Whether sending the same request again may succeed where it failed with ERROR: the network
 * failed (no connection, a timeout, a connection broken: ddb_http_error_is_transient), DynamoDB
 * throttled it or failed itself (ddb_client_error_is_retryable; NAME is the exception's name
 * when the caller has it, NULL: the code's, or the name the text of dy_connection_call_* starts
 * with), or the session wants renewing (dy_connection_error_wants_session). Not a request
 * refused as it is (ValidationException, no such table, access denied), nor a cancelled one. */
gboolean dy_connection_error_is_retryable (const GError *error, const char *name);
/* A view's call failed with ERROR: when the session is what failed, the connection shows the
 * error (and Sign In where one helps) until a retry succeeds. Main thread. */
void dy_connection_report_failure (DyConnection *self, const GError *error);

/* Runs OPERATION with REQUEST (borrowed; copied for the thread) on a thread. */
void dy_connection_call_async (DyConnection *self, const char *operation, json_t *request,
                               GCancellable *cancellable, GAsyncReadyCallback callback,
                               gpointer user_data);
/* The response (new reference), or NULL with the error; for a DynamoDB error its message is
 * "ExceptionName: message" as the window shows it. */
json_t *dy_connection_call_finish (DyConnection *self, GAsyncResult *result, GError **error);
/* A new backend configured as the connection's own (another handle on the same database file,
 * or a client with the connection's profile, region, endpoint and environment; MAX_ATTEMPTS 0
 * is the client's default), for work that should not queue behind browsing, such as a commit.
 * Worker threads only: it may run a credential process. Free with ddb_backend_free. */
DdbBackend *dy_connection_open_backend (DyConnection *self, guint max_attempts, GError **error);
/* The mark (main thread sets it; any thread reads it). Setting READ_ONLY makes the connection's
 * own backend read-only at once, and every backend dy_connection_open_backend opens from then
 * on; backends kept elsewhere follow it through dy_connection_apply_mark. */
DyConnectionMark dy_connection_get_mark (DyConnection *self);
void dy_connection_set_mark (DyConnection *self, DyConnectionMark mark);
gboolean dy_connection_get_read_only (DyConnection *self);
gboolean dy_connection_get_production (DyConnection *self);
/* Makes BACKEND (one of this connection's) read-only or not as the mark says. Any thread. */
void dy_connection_apply_mark (DyConnection *self, DdbBackend *backend);
/* "CONNECTION is read-only", the reason every refused write gives. Newly allocated. */
char *dy_connection_dup_read_only_reason (DyConnection *self);
/* Blocking form for worker threads. */
json_t *dy_connection_call_sync (DyConnection *self, const char *operation, json_t *request,
                                 GCancellable *cancellable, GError **error);
/* A Query or Scan like dy_connection_call_sync, with each item of the page handed to EACH as a
 * value it owns instead of the response's Items (ddb_backend_read: a database builds no JSON
 * for them). Worker threads. */
json_t *dy_connection_read_sync (DyConnection *self, const char *operation, json_t *request,
                                 DdbItemFunc each, gpointer user_data, GCancellable *cancellable,
                                 GError **error);

G_END_DECLS
