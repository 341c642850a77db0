/* dy-connection.c: a database and its tables, reached through the backend seam. */
#define G_LOG_DOMAIN "dynoscope-connection"

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <string.h>

#include "app/connections/dy-connection-private.h"
#include "app/connections/dy-mfa-dialog.h"
#include "net/hash.h"
#include "core/error.h"
#include "exports/s3-target.h"
#include "net/awsconfig.h"
#include "net/http.h"

/* Local endpoints accept any credentials; these only have to sign. */
#define LOCAL_ACCESS_KEY "dynoscope"
#define LOCAL_SECRET_KEY "dynoscope-local"
#define LOCAL_REGION "us-east-1"

G_DEFINE_FINAL_TYPE (DyConnection, dy_connection, G_TYPE_OBJECT)
G_DEFINE_ENUM_TYPE (DyConnectionMark, dy_connection_mark,
                    G_DEFINE_ENUM_VALUE (DY_CONNECTION_MARK_NORMAL, "normal"),
                    G_DEFINE_ENUM_VALUE (DY_CONNECTION_MARK_PRODUCTION, "production"),
                    G_DEFINE_ENUM_VALUE (DY_CONNECTION_MARK_READ_ONLY, "read-only"))

enum {
  PROP_0,
  PROP_TITLE,
  PROP_LOADING,
  PROP_ERROR,
  PROP_IDENTITY,
  PROP_MARK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_RENEWED,
  SIGNAL_TABLES_DESCRIBED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
dy_connection_dispose (GObject *object)
{
  DyConnection *self = DY_CONNECTION (object);

  g_cancellable_cancel (self->cancellable);
  if (self->identity_cancellable != NULL)
    g_cancellable_cancel (self->identity_cancellable);
  G_OBJECT_CLASS (dy_connection_parent_class)->dispose (object);
}

static void
dy_connection_finalize (GObject *object)
{
  DyConnection *self = DY_CONNECTION (object);

  g_free (self->title);
  g_free (self->subtitle);
  g_free (self->path);
  g_free (self->profile);
  g_free (self->url);
  g_free (self->region);
  ddb_environ_free (self->envp);
  g_free (self->error);
  g_free (self->sign_in_command);
  g_free (self->identity);
  g_free (self->identity_tooltip);
  g_free (self->account);
  g_clear_object (&self->identity_cancellable);
  g_mutex_clear (&self->lock);
  /* Worker threads hold a reference while they use the backend, so none is using it now. */
  g_clear_pointer (&self->backend, ddb_backend_free);
  g_clear_object (&self->tables);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->described, g_hash_table_unref);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  G_OBJECT_CLASS (dy_connection_parent_class)->finalize (object);
}

static void
dy_connection_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DyConnection *self = DY_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_IDENTITY:
      g_value_set_string (value, self->identity);
      break;
    case PROP_MARK:
      g_value_set_enum (value, dy_connection_get_mark (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_connection_class_init (DyConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dy_connection_dispose;
  object_class->finalize = dy_connection_finalize;
  object_class->get_property = dy_connection_get_property;

  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                                     | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                                  | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_IDENTITY] = g_param_spec_string ("identity", NULL, NULL, NULL,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                                     | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MARK] = g_param_spec_enum ("mark", NULL, NULL, DY_TYPE_CONNECTION_MARK,
                                             DY_CONNECTION_MARK_NORMAL,
                                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                               | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A listing after a failure succeeded (signed in again, keys renewed): views whose request
   * failed for want of a session run it again. */
  signals[SIGNAL_RENEWED] = g_signal_new ("renewed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* More tables have their DescribeTable (dy_connection_get_table_description). */
  signals[SIGNAL_TABLES_DESCRIBED]
      = g_signal_new ("tables-described", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);
}

void
dy_connection_emit_renewed (DyConnection *self)
{
  g_signal_emit (self, signals[SIGNAL_RENEWED], 0);
}

void
dy_connection_emit_tables_described (DyConnection *self)
{
  g_signal_emit (self, signals[SIGNAL_TABLES_DESCRIBED], 0);
}

static void
dy_connection_init (DyConnection *self)
{
  self->tables = gtk_string_list_new (NULL);
  self->cancellable = g_cancellable_new ();
  dy_connection_tables_init (self);
  g_mutex_init (&self->lock);
}

/* A database's exports (ExportTableToPointInTime) go to S3 with the default session: the
 * environment and the default profile, as the AWS CLI signs in without --profile. */
static void
database_exports_to_s3 (DdbBackend *backend)
{
  DdbS3Options options = { .mfa_prompt = dy_mfa_prompt };

  if (backend != NULL && ddb_backend_get_engine (backend) != NULL)
    ddb_s3_set_export_target (ddb_backend_get_engine (backend), &options);
}

DyConnection *
dy_connection_new (const char *title, const char *path, DdbBackend *backend)
{
  DyConnection *self = g_object_new (DY_TYPE_CONNECTION, NULL);

  self->title = g_strdup (title);
  self->path = g_strdup (path);
  self->backend = backend;
  self->kind = DY_CONNECTION_DATABASE;
  database_exports_to_s3 (backend);
  return self;
}

DyConnection *
dy_connection_new_profile (const char *profile, const char *region)
{
  DyConnection *self = g_object_new (DY_TYPE_CONNECTION, NULL);

  self->kind = DY_CONNECTION_PROFILE;
  self->title = g_strdup (profile);
  self->profile = g_strdup (profile);
  self->region = g_strdup (region);
  /* TRANSLATORS: the sidebar's second line for an AWS profile without a region */
  self->subtitle = g_strdup_printf (_("AWS profile · %s"), region != NULL ? region : _("no region"));
  return self;
}

DyConnection *
dy_connection_new_endpoint (const char *url, const char *region)
{
  DyConnection *self = g_object_new (DY_TYPE_CONNECTION, NULL);
  char **envp = ddb_environ_get ();

  self->kind = DY_CONNECTION_ENDPOINT;
  self->title = g_strdup (url);
  self->url = g_strdup (url);
  self->region = g_strdup (region != NULL && *region != '\0' ? region : LOCAL_REGION);
  /* TRANSLATORS: the sidebar's second line for a local endpoint, with its region */
  self->subtitle = g_strdup_printf (_("Local endpoint · %s"), self->region);
  /* The user's profiles, keys and endpoint settings must not leak into a local endpoint (and
   * the keys replaced are wiped, not only freed). */
  ddb_environ_wipe_secrets (envp);
  envp = g_environ_setenv (envp, "AWS_ACCESS_KEY_ID", LOCAL_ACCESS_KEY, TRUE);
  envp = g_environ_setenv (envp, "AWS_SECRET_ACCESS_KEY", LOCAL_SECRET_KEY, TRUE);
  envp = g_environ_setenv (envp, "AWS_CONFIG_FILE", "/dev/null", TRUE);
  envp = g_environ_setenv (envp, "AWS_SHARED_CREDENTIALS_FILE", "/dev/null", TRUE);
  envp = g_environ_unsetenv (envp, "AWS_SESSION_TOKEN");
  envp = g_environ_unsetenv (envp, "AWS_PROFILE");
  envp = g_environ_unsetenv (envp, "AWS_DEFAULT_PROFILE");
  envp = g_environ_unsetenv (envp, "AWS_ENDPOINT_URL");
  envp = g_environ_unsetenv (envp, "AWS_ENDPOINT_URL_DYNAMODB");
  self->envp = envp;
  return self;
}

void
dy_profile_info_free (DyProfileInfo *info)
{
  g_free (info->name);
  g_free (info->region);
  g_free (info);
}

GPtrArray *
dy_list_aws_profiles (GError **error)
{
  g_autoptr (DdbAwsConfig) config = ddb_aws_config_load (NULL, error);
  g_auto (GStrv) names = NULL;
  GPtrArray *profiles;

  if (config == NULL)
    return NULL;
  names = ddb_aws_config_list_profiles (config);
  profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) dy_profile_info_free);
  for (guint i = 0; names[i] != NULL; i++)
    {
      DyProfileInfo *info = g_new0 (DyProfileInfo, 1);

      info->name = g_strdup (names[i]);
      info->region = g_strdup (ddb_aws_config_get (config, names[i], "region"));
      g_ptr_array_add (profiles, info);
    }
  return profiles;
}

char *
dy_connection_dup_key (DyConnection *self)
{
  const char *region = dy_connection_get_region (self);

  switch (dy_connection_get_kind (self))
    {
    case DY_CONNECTION_DATABASE:
      return g_strconcat ("database\t", dy_connection_get_path (self), NULL);
    case DY_CONNECTION_PROFILE:
      if (dy_connection_is_environment (self))
        return g_strconcat ("environment\t\t", region != NULL ? region : "", NULL);
      return g_strconcat ("profile\t", dy_connection_get_profile (self), "\t",
                          region != NULL ? region : "", NULL);
    case DY_CONNECTION_ENDPOINT:
    default:
      return g_strconcat ("endpoint\t", dy_connection_get_url (self), "\t",
                          region != NULL ? region : "", NULL);
    }
}

DyConnectionKind
dy_connection_get_kind (DyConnection *self)
{
  return self->kind;
}

const char *
dy_connection_get_subtitle (DyConnection *self)
{
  return self->subtitle;
}

const char *
dy_connection_get_profile (DyConnection *self)
{
  return self->profile;
}

const char *
dy_connection_get_url (DyConnection *self)
{
  return self->url;
}

const char *
dy_connection_get_region (DyConnection *self)
{
  return self->region;
}

gboolean
dy_connection_get_loaded (DyConnection *self)
{
  return self->loaded;
}

/* botocore's names for what is not a DynamoDB exception, as people search for them. */
static const char *
error_name (const GError *error, json_t *extra)
{
  static const struct { DdbAwsErrorCode code; const char *name; } aws[] = {
    { DDB_AWS_ERROR_CONFIG_PARSE, "ConfigParseError" },
    { DDB_AWS_ERROR_PROFILE_NOT_FOUND, "ProfileNotFound" },
    { DDB_AWS_ERROR_INVALID_CONFIG, "InvalidConfigError" },
    { DDB_AWS_ERROR_PARTIAL_CREDENTIALS, "PartialCredentialsError" },
    { DDB_AWS_ERROR_NO_CREDENTIALS, "NoCredentialsError" },
    { DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL, "CredentialRetrievalError" },
    { DDB_AWS_ERROR_UNSUPPORTED, "UnsupportedConfigurationError" },
    { DDB_AWS_ERROR_INVALID_REGION, "InvalidRegionError" },
    { DDB_AWS_ERROR_NO_REGION, "NoRegionError" },
    { DDB_AWS_ERROR_INVALID_ENDPOINT, "InvalidEndpointConfigurationError" },
  };
  static const struct { DdbHttpErrorCode code; const char *name; } http[] = {
    { DDB_HTTP_ERROR_INVALID_URL, "InvalidEndpointConfigurationError" },
    { DDB_HTTP_ERROR_CONNECT, "EndpointConnectionError" },
    { DDB_HTTP_ERROR_TLS, "SSLError" },
    { DDB_HTTP_ERROR_TIMEOUT, "ConnectTimeoutError" },
    { DDB_HTTP_ERROR_IO, "ConnectionClosedError" },
    { DDB_HTTP_ERROR_FAILED, "HTTPClientError" },
  };

  if (error->domain == DDB_ERROR)
    return ddb_backend_error_name (error, extra);
  if (error->domain == DDB_AWS_ERROR)
    for (guint i = 0; i < G_N_ELEMENTS (aws); i++)
      if ((int) aws[i].code == error->code)
        return aws[i].name;
  if (error->domain == DDB_HTTP_ERROR)
    for (guint i = 0; i < G_N_ELEMENTS (http); i++)
      if ((int) http[i].code == error->code)
        return http[i].name;
  return NULL;
}

static gboolean
name_is (const char *name, const char *const *names)
{
  return name != NULL && g_strv_contains (names, name);
}

/* What the user can do about NAME, or NULL. */
static char *
error_hint (DyConnection *self, const char *name, const GError *error)
{
  static const char *const expired[] = { "ExpiredTokenException", "ExpiredToken",
                                         "RequestExpired", NULL };
  static const char *const bad_keys[] = { "UnrecognizedClientException",
                                          "InvalidSignatureException", "InvalidClientTokenId",
                                          "SignatureDoesNotMatch", "IncompleteSignatureException",
                                          "MissingAuthenticationTokenException", NULL };
  static const char *const no_creds[] = { "NoCredentialsError", "PartialCredentialsError", NULL };
  const char *profile = self->profile;

  if (error->domain == DDB_AWS_ERROR && error->code == DDB_AWS_ERROR_SIGN_IN_REQUIRED)
    {
      g_autofree char *command = NULL;

      g_mutex_lock (&self->lock);
      command = g_strdup (self->sign_in_command);
      g_mutex_unlock (&self->lock);
      if (command != NULL)
        /* TRANSLATORS: %s is the command that signs in, e.g. aws sso login --profile dev */
        return g_strdup_printf (_("Click Sign In, or run %s in a terminal, then click the "
                                  "connection to retry."),
                                command);
      return g_strdup (_("Sign in again, then click the connection to retry."));
    }
  if (self->environment)
    {
      if (name_is (name, expired)
          || (g_strcmp0 (name, "CredentialRetrievalError") == 0
              && strstr (error->message, "expired") != NULL))
        return g_strdup (_("The credentials in the environment (AWS_ACCESS_KEY_ID, "
                           "AWS_SESSION_TOKEN) have expired. Start Dynoscope again from a "
                           "shell with fresh ones (aws-vault, granted, ...)."));
      if (name_is (name, bad_keys))
        return g_strdup (_("The keys in the environment (AWS_ACCESS_KEY_ID, "
                           "AWS_SECRET_ACCESS_KEY) were not accepted."));
      if (g_strcmp0 (name, "NoRegionError") == 0)
        return g_strdup (_("No region is set: set AWS_REGION in the environment, or a region "
                           "in the default profile."));
    }
  else if (self->kind == DY_CONNECTION_PROFILE)
    {
      if (name_is (name, expired)
          || (g_strcmp0 (name, "CredentialRetrievalError") == 0
              && strstr (error->message, "expired") != NULL))
        /* TRANSLATORS: %s is an AWS profile name */
        return g_strdup_printf (_("The credentials of profile “%s” have expired. Refresh them "
                                  "(aws sso login --profile %s, or new keys in the credentials "
                                  "file), then click the connection to retry."),
                                profile, profile);
      if (g_strcmp0 (name, "CredentialRetrievalError") == 0)
        return g_strdup_printf (_("Profile “%s” could not get credentials. Check its "
                                  "credential_process or role settings, then click the "
                                  "connection to retry."),
                                profile);
      if (name_is (name, bad_keys))
        return g_strdup_printf (_("The keys of profile “%s” were not accepted. Check its "
                                  "aws_access_key_id and aws_secret_access_key (aws configure "
                                  "--profile %s), then click the connection to retry."),
                                profile, profile);
      if (name_is (name, no_creds))
        return g_strdup_printf (_("Profile “%s” has no credentials. Add them with aws configure "
                                  "--profile %s, then click the connection to retry."),
                                profile, profile);
      if (g_strcmp0 (name, "NoRegionError") == 0)
        return g_strdup_printf (_("Profile “%s” has no region. Set one with aws configure set "
                                  "region REGION --profile %s."),
                                profile, profile);
      if (g_strcmp0 (name, "AccessDeniedException") == 0)
        return g_strdup_printf (_("Profile “%s” is not allowed to do this: its IAM policy needs "
                                  "the DynamoDB action named above."),
                                profile);
    }
  if (g_strcmp0 (name, "EndpointConnectionError") == 0
      || g_strcmp0 (name, "ConnectTimeoutError") == 0)
    /* TRANSLATORS: %s is a URL or a profile */
    return g_strdup_printf (_("Nothing answered at %s. Is the server running and the address "
                              "right? Click the connection to retry."),
                            self->url != NULL ? self->url : self->title);
  return NULL;
}

char *
dy_connection_describe_error (DyConnection *self, const GError *error, json_t *extra)
{
  const char *name = error_name (error, extra);
  g_autofree char *hint = error_hint (self, name, error);
  GString *text = g_string_new (NULL);

  if (name != NULL)
    g_string_append_printf (text, "%s: ", name);
  g_string_append (text, error->message);
  if (hint != NULL)
    g_string_append_printf (text, "\n%s", hint);
  return g_string_free (text, FALSE);
}

DdbBackend *
dy_connection_open_backend (DyConnection *self, guint max_attempts, GError **error)
{
  DdbClientOptions options = { 0 };
  DdbBackend *backend;

  if (self->kind == DY_CONNECTION_DATABASE)
    {
      backend = ddb_backend_open_database (self->path, error);
      if (backend != NULL)
        {
          database_exports_to_s3 (backend);
          dy_connection_apply_mark (self, backend);
        }
      return backend;
    }
  options.profile = self->profile; /* NULL for the Environment: the chain's own order */
  /* A profile's region is its own unless one was picked for this connection. */
  options.region = self->kind == DY_CONNECTION_ENDPOINT || self->region_chosen ? self->region
                                                                                 : NULL;
  /* Roles with mfa_serial ask for the code in a dialog, from the thread that needs it. */
  options.mfa_prompt = dy_mfa_prompt;
  options.mfa_prompt_data = NULL;
  options.endpoint_url = self->url;
  options.envp = (const char *const *) self->envp;
  /* A sidebar waiting on an address that never answers helps nobody. */
  options.connect_timeout_ms = 5000;
  options.max_attempts = max_attempts;
  backend = ddb_backend_open_remote (&options, error);
  if (backend != NULL)
    dy_connection_apply_mark (self, backend);
  return backend;
}

DdbBackend *
dy_connection_get_backend_internal (DyConnection *self, GError **error)
{
  DdbBackend *backend;

  g_mutex_lock (&self->lock);
  /* Fewer attempts than the SDK's 10 for DynamoDB: a person is waiting, and can press Load
   * more again; throttling still gets a few backed-off retries. */
  if (self->backend == NULL && self->kind != DY_CONNECTION_DATABASE)
    self->backend = dy_connection_open_backend (self, 4, error);
  else if (self->backend == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CLOSED, _("The database is not open"));
  backend = self->backend;
  g_mutex_unlock (&self->lock);
  return backend;
}

typedef struct {
  char *title;
  char *path;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_free (data->title);
  g_free (data->path);
  g_free (data);
}

static void
open_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  OpenData *data = task_data;
  GError *error = NULL;
  DdbBackend *backend;

  /* Opening a database file must not create one where the user pointed at nothing. */
  if (!g_file_test (data->path, G_FILE_TEST_IS_REGULAR))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("%s: no such database file"), data->path);
      return;
    }
  backend = ddb_backend_open_database (data->path, &error);
  if (backend == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, dy_connection_new (data->title, data->path, backend),
                           g_object_unref);
}

void
dy_connection_open_async (const char *title, const char *path, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  OpenData *data = g_new0 (OpenData, 1);

  data->title = g_strdup (title);
  data->path = g_strdup (path);
  g_task_set_source_tag (task, dy_connection_open_async);
  g_task_set_task_data (task, data, (GDestroyNotify) open_data_free);
  g_task_run_in_thread (task, open_thread);
}

DyConnection *
dy_connection_open_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

const char *
dy_connection_get_title (DyConnection *self)
{
  return self->title;
}

const char *
dy_connection_get_path (DyConnection *self)
{
  return self->path;
}

GListModel *
dy_connection_get_tables (DyConnection *self)
{
  return G_LIST_MODEL (self->tables);
}

gboolean
dy_connection_get_loading (DyConnection *self)
{
  return self->loading;
}

const char *
dy_connection_get_error (DyConnection *self)
{
  return self->error;
}

void
dy_connection_set_error (DyConnection *self, const char *error)
{
  if (g_strcmp0 (error, self->error) == 0)
    return;
  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

void
dy_connection_set_loading (DyConnection *self, gboolean loading)
{
  if (self->loading == loading)
    return;
  self->loading = loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

void
dy_connection_call_failed (DyConnection *self, DdbBackend *backend, GError *local,
                           json_t *response, GError **error)
{
  if (backend != NULL && ddb_backend_get_client (backend) != NULL
      && self->kind == DY_CONNECTION_PROFILE)
    {
      /* How to sign in again, for the Sign In button that the failure may call for. */
      g_autofree char *command = NULL;
      DdbAwsSignInKind kind
        = ddb_aws_session_get_sign_in (ddb_client_get_session (ddb_backend_get_client (backend)),
                                       &command);

      g_mutex_lock (&self->lock);
      self->sign_in = kind;
      g_free (self->sign_in_command);
      self->sign_in_command = g_steal_pointer (&command);
      g_mutex_unlock (&self->lock);
    }
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, local);
  else
    {
      /* The error's name first: it is what people search for. */
      g_autofree char *text = dy_connection_describe_error (self, local, response);

      g_set_error_literal (error, local->domain, local->code, text);
      g_error_free (local);
    }
}

json_t *
dy_connection_call_sync (DyConnection *self, const char *operation, json_t *request,
                         GCancellable *cancellable, GError **error)
{
  json_t *response = NULL;
  GError *local = NULL;
  DdbBackend *backend = dy_connection_get_backend_internal (self, &local);

  if (backend != NULL
      && ddb_backend_call (backend, operation, request, cancellable, &response, &local))
    return response;
  dy_connection_call_failed (self, backend, local, response, error);
  if (response != NULL)
    json_decref (response);
  return NULL;
}

json_t *
dy_connection_read_sync (DyConnection *self, const char *operation, json_t *request,
                         DdbItemFunc each, gpointer user_data, GCancellable *cancellable,
                         GError **error)
{
  json_t *response = NULL;
  GError *local = NULL;
  DdbBackend *backend = dy_connection_get_backend_internal (self, &local);

  if (backend != NULL
      && ddb_backend_read (backend, operation, request, each, user_data, cancellable, &response,
                           &local))
    return response;
  dy_connection_call_failed (self, backend, local, response, error);
  if (response != NULL)
    json_decref (response);
  return NULL;
}

typedef struct {
  char *operation;
  json_t *request;
} CallData;

static void
call_data_free (CallData *data)
{
  g_free (data->operation);
  json_decref (data->request);
  g_free (data);
}

static void
call_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  CallData *data = task_data;
  GError *error = NULL;
  json_t *response = dy_connection_call_sync (source, data->operation, data->request,
                                              cancellable, &error);

  if (response == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, response, (GDestroyNotify) json_decref);
}

void
dy_connection_call_async (DyConnection *self, const char *operation, json_t *request,
                          GCancellable *cancellable, GAsyncReadyCallback callback,
                          gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  CallData *data = g_new0 (CallData, 1);

  data->operation = g_strdup (operation);
  /* The thread gets a tree of its own, so the view may go on changing its copy. */
  data->request = json_deep_copy (request);
  g_task_set_source_tag (task, dy_connection_call_async);
  g_task_set_task_data (task, data, (GDestroyNotify) call_data_free);
  g_task_run_in_thread (task, call_thread);
}

json_t *
dy_connection_call_finish (DyConnection *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
dy_connection_notify_identity (DyConnection *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IDENTITY]);
}

/* ---- The mark ---- */

DyConnectionMark
dy_connection_get_mark (DyConnection *self)
{
  return (DyConnectionMark) g_atomic_int_get (&self->mark);
}

gboolean
dy_connection_get_read_only (DyConnection *self)
{
  return dy_connection_get_mark (self) == DY_CONNECTION_MARK_READ_ONLY;
}

gboolean
dy_connection_get_production (DyConnection *self)
{
  return dy_connection_get_mark (self) == DY_CONNECTION_MARK_PRODUCTION;
}

void
dy_connection_apply_mark (DyConnection *self, DdbBackend *backend)
{
  ddb_backend_set_read_only (backend, dy_connection_get_read_only (self));
}

void
dy_connection_set_mark (DyConnection *self, DyConnectionMark mark)
{
  if (dy_connection_get_mark (self) == mark)
    return;
  g_atomic_int_set (&self->mark, mark);
  /* the connection's own backend (browsing, the table list) follows at once */
  g_mutex_lock (&self->lock);
  if (self->backend != NULL)
    dy_connection_apply_mark (self, self->backend);
  g_mutex_unlock (&self->lock);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MARK]);
}

char *
dy_connection_dup_read_only_reason (DyConnection *self)
{
  /* TRANSLATORS: why a write is refused; %s is a connection (a profile, a database) */
  return g_strdup_printf (_("%s is read-only"), self->title);
}
