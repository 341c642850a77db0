/* http.c: the libcurl transport: a pool of connections, each an easy handle driven by a multi
 * handle of its own, so that requests from several threads run at once, each connection stays
 * alive between the requests that take it in turn, and a cancellation wakes its transfer at
 * once (curl_multi_wakeup) instead of at the next progress tick. DNS answers and TLS sessions
 * are shared between the connections (a CURLSH). */
#include <curl/curl.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "net/hash.h"
#include "net/http.h"

#define DEFAULT_CONNECT_TIMEOUT_MS 10000
#define DEFAULT_TIMEOUT_MS 60000
/* Connections open at once: enough for a region's DescribeTable calls over a slow link. */
#define DEFAULT_MAX_CONNECTIONS 64
/* Bodies larger than this are refused: DynamoDB's answers stay far below it. */
#define MAX_RESPONSE_BYTES (256u * 1024u * 1024u)

/* One connection: a request at a time. */
typedef struct {
  CURL *easy;
  CURLM *multi;
} Slot;

struct _DdbHttp {
  GMutex lock;      /* the fields below */
  GCond slot_freed; /* a slot went back to idle, or a waiting request was cancelled */
  GPtrArray *idle;  /* Slot *, the most recently used last */
  guint n_slots;    /* idle and taken */
  guint max_slots;
  CURLSH *share;
  GMutex share_locks[CURL_LOCK_DATA_LAST];
  char *ca_bundle;
  gboolean proxy_set; /* the fields below are set (else libcurl reads the environment) */
  char *https_proxy;
  char *http_proxy;
  char *no_proxy;
  guint connect_timeout_ms;
  guint timeout_ms;
};

G_DEFINE_QUARK (ddb-http-error-quark, ddb_http_error)

static gsize curl_initialised;

/* libcurl's memory, wiped before it goes back to the heap: its copies of the request's header
 * lines (a session token), its receive buffers (STS's and SSO's answers). */
static void
curl_wiping_free (void *p)
{
  if (p != NULL)
    ddb_secure_zero (p, malloc_usable_size (p));
  free (p);
}

static void *
curl_wiping_realloc (void *p, size_t size)
{
  size_t old;
  void *moved;

  if (p == NULL)
    return malloc (size);
  old = malloc_usable_size (p);
  if (size <= old)
    return p;
  moved = malloc (size);
  if (moved == NULL)
    return NULL;
  memcpy (moved, p, old);
  curl_wiping_free (p);
  return moved;
}

static void
init_curl_once (void)
{
  /* curl_global_init is not thread-safe; do it once, before any handle exists. */
  if (g_once_init_enter (&curl_initialised))
    {
      curl_global_init_mem (CURL_GLOBAL_DEFAULT, malloc, curl_wiping_free, curl_wiping_realloc,
                            strdup, calloc);
      g_once_init_leave (&curl_initialised, 1);
    }
}

/* A copy of a proxy URL, which may hold a password: wiped when freed. */
typedef char WipedString;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WipedString, ddb_secret_free)

/* Request header lines may hold a session token: wiped before they are freed. */
static void
header_list_free (struct curl_slist *list)
{
  for (struct curl_slist *l = list; l != NULL; l = l->next)
    ddb_secure_zero (l->data, strlen (l->data));
  curl_slist_free_all (list);
}

/* Proxy URLs may hold a password: wiped. */
static void
clear_proxies (DdbHttp *http)
{
  char **fields[] = { &http->https_proxy, &http->http_proxy, &http->no_proxy };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_clear_pointer (fields[i], ddb_secret_free);
    }
}

static void
share_lock (CURL *handle, curl_lock_data data, curl_lock_access access, void *user_data)
{
  DdbHttp *http = user_data;

  g_mutex_lock (&http->share_locks[data]);
}

static void
share_unlock (CURL *handle, curl_lock_data data, void *user_data)
{
  DdbHttp *http = user_data;

  g_mutex_unlock (&http->share_locks[data]);
}

static void
slot_free (Slot *slot)
{
  if (slot->easy != NULL)
    curl_easy_cleanup (slot->easy);
  if (slot->multi != NULL)
    curl_multi_cleanup (slot->multi);
  g_free (slot);
}

DdbHttp *
ddb_http_new (const DdbHttpOptions *options, GError **error)
{
  DdbHttp *http;

  init_curl_once ();
  http = g_new0 (DdbHttp, 1);
  g_mutex_init (&http->lock);
  g_cond_init (&http->slot_freed);
  for (guint i = 0; i < G_N_ELEMENTS (http->share_locks); i++)
    g_mutex_init (&http->share_locks[i]);
  http->idle = g_ptr_array_new ();
  http->share = curl_share_init ();
  if (http->share == NULL
      || curl_share_setopt (http->share, CURLSHOPT_LOCKFUNC, share_lock) != CURLSHE_OK
      || curl_share_setopt (http->share, CURLSHOPT_UNLOCKFUNC, share_unlock) != CURLSHE_OK
      || curl_share_setopt (http->share, CURLSHOPT_USERDATA, http) != CURLSHE_OK
      || curl_share_setopt (http->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) != CURLSHE_OK
      || curl_share_setopt (http->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION)
             != CURLSHE_OK)
    {
      g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED, "Cannot initialise libcurl");
      ddb_http_free (http);
      return NULL;
    }
  http->max_slots = DEFAULT_MAX_CONNECTIONS;
  http->connect_timeout_ms = DEFAULT_CONNECT_TIMEOUT_MS;
  http->timeout_ms = DEFAULT_TIMEOUT_MS;
  if (options != NULL)
    {
      if (options->connect_timeout_ms > 0)
        http->connect_timeout_ms = options->connect_timeout_ms;
      if (options->timeout_ms > 0)
        http->timeout_ms = options->timeout_ms;
      if (options->max_connections > 0)
        http->max_slots = options->max_connections;
      http->ca_bundle = g_strdup (options->ca_bundle);
    }
  return http;
}

void
ddb_http_free (DdbHttp *http)
{
  if (http == NULL)
    return;
  /* Every request has returned its slot: the handles go before the share they use. */
  g_warn_if_fail (http->idle->len == http->n_slots);
  for (guint i = 0; i < http->idle->len; i++)
    slot_free (g_ptr_array_index (http->idle, i));
  g_ptr_array_unref (http->idle);
  if (http->share != NULL)
    curl_share_cleanup (http->share);
  g_free (http->ca_bundle);
  clear_proxies (http);
  for (guint i = 0; i < G_N_ELEMENTS (http->share_locks); i++)
    g_mutex_clear (&http->share_locks[i]);
  g_cond_clear (&http->slot_freed);
  g_mutex_clear (&http->lock);
  g_free (http);
}

static void
wake_waiters (GCancellable *cancellable, gpointer user_data)
{
  DdbHttp *http = user_data;

  g_mutex_lock (&http->lock);
  g_cond_broadcast (&http->slot_freed);
  g_mutex_unlock (&http->lock);
}

/* A connection for one request: an idle one (the last used, its connection warm), a new one
 * while fewer than max_slots exist, else the first to come back. NULL when cancelled first. */
static Slot *
take_slot (DdbHttp *http, GCancellable *cancellable)
{
  Slot *slot = NULL;
  gulong handler = 0;

  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (wake_waiters), http, NULL);
  g_mutex_lock (&http->lock);
  while (slot == NULL && !g_cancellable_is_cancelled (cancellable))
    {
      if (http->idle->len > 0)
        slot = g_ptr_array_steal_index (http->idle, http->idle->len - 1);
      else if (http->n_slots < http->max_slots)
        {
          slot = g_new0 (Slot, 1);
          slot->easy = curl_easy_init ();
          slot->multi = curl_multi_init ();
          if (slot->easy == NULL || slot->multi == NULL)
            {
              slot_free (slot);
              slot = NULL;
              break;
            }
          http->n_slots++;
        }
      else
        g_cond_wait (&http->slot_freed, &http->lock);
    }
  g_mutex_unlock (&http->lock);
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  return slot;
}

static void
give_back_slot (DdbHttp *http, Slot *slot)
{
  g_mutex_lock (&http->lock);
  g_ptr_array_add (http->idle, slot);
  g_cond_signal (&http->slot_freed);
  g_mutex_unlock (&http->lock);
}

void
ddb_http_set_ca_bundle (DdbHttp *http, const char *ca_bundle)
{
  g_mutex_lock (&http->lock);
  g_free (http->ca_bundle);
  http->ca_bundle = g_strdup (ca_bundle);
  g_mutex_unlock (&http->lock);
}

gboolean
ddb_http_configure_ca_bundle (DdbHttp *http, const char *given, const char *const *envp,
                              DdbAwsConfig *config, const char *profile, GError **error)
{
  const char *ca = given;
  g_autofree char *path = NULL;

  if (ca == NULL || *ca == '\0')
    ca = ddb_aws_getenv (envp, "AWS_CA_BUNDLE");
  if ((ca == NULL || *ca == '\0') && config != NULL && profile != NULL)
    ca = ddb_aws_config_get (config, profile, "ca_bundle");
  if (ca == NULL || *ca == '\0')
    return TRUE;
  path = ddb_aws_expand_path (ca, envp);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_TLS,
                   "The CA bundle %s does not exist or is not a file", path);
      return FALSE;
    }
  ddb_http_set_ca_bundle (http, path);
  return TRUE;
}

static const char *
first_env (const char *const *envp, const char *lower, const char *upper)
{
  const char *v = ddb_aws_getenv (envp, lower);

  if ((v == NULL || *v == '\0') && upper != NULL)
    v = ddb_aws_getenv (envp, upper);
  return v != NULL && *v != '\0' ? v : NULL;
}

void
ddb_http_set_proxy_env (DdbHttp *http, const char *const *envp)
{
  const char *all = first_env (envp, "all_proxy", "ALL_PROXY");
  const char *https = first_env (envp, "https_proxy", "HTTPS_PROXY");
  /* httpoxy: in a CGI script HTTP_PROXY is a request header, not a setting. */
  const char *http_p = first_env (envp, "http_proxy",
                                  ddb_aws_getenv (envp, "REQUEST_METHOD") == NULL ? "HTTP_PROXY"
                                                                                  : NULL);

  g_mutex_lock (&http->lock);
  clear_proxies (http);
  http->proxy_set = TRUE;
  http->https_proxy = g_strdup (https != NULL ? https : all);
  http->http_proxy = g_strdup (http_p != NULL ? http_p : all);
  http->no_proxy = g_strdup (first_env (envp, "no_proxy", "NO_PROXY"));
  g_mutex_unlock (&http->lock);
}

/* Replaces the user name and password of PROXY's URL, wherever MESSAGE holds them, with ***. */
static void
scrub_proxy_secret (GString *message, const char *proxy)
{
  g_autoptr (GUri) uri = NULL;
  g_autofree char *with_scheme = NULL;
  const char *parts[3];

  if (proxy == NULL || strchr (proxy, '@') == NULL)
    return;
  if (strstr (proxy, "://") == NULL)
    proxy = with_scheme = g_strconcat ("http://", proxy, NULL);
  uri = g_uri_parse (proxy, G_URI_FLAGS_HAS_PASSWORD | G_URI_FLAGS_ENCODED, NULL);
  if (uri == NULL)
    {
      /* Unparsable: nothing of it is shown. */
      g_string_assign (message, "the proxy URL is not valid");
      return;
    }
  parts[0] = g_uri_get_userinfo (uri);
  parts[1] = g_uri_get_password (uri);
  parts[2] = g_uri_get_user (uri);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i] != NULL && *parts[i] != '\0')
      g_string_replace (message, parts[i], "***", 0);
}

void
ddb_http_response_clear (DdbHttpResponse *response)
{
  g_clear_pointer (&response->body, g_bytes_unref);
  g_clear_pointer (&response->headers, g_hash_table_unref);
  response->status = 0;
}

const char *
ddb_http_response_header (const DdbHttpResponse *response, const char *name)
{
  if (response->headers == NULL)
    return NULL;
  return g_hash_table_lookup (response->headers, name);
}

char *
ddb_http_host_header (const char *url, GError **error)
{
  g_autoptr (GUri) uri = NULL;
  const char *scheme;
  g_autofree char *lower = NULL;
  const char *host;
  gboolean default_port;
  int port;

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL || (scheme = g_uri_get_scheme (uri)) == NULL
      || (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
      || (host = g_uri_get_host (uri)) == NULL || *host == '\0')
    {
      g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_INVALID_URL, "Invalid endpoint: %s", url);
      return NULL;
    }
  port = g_uri_get_port (uri);
  lower = g_ascii_strdown (host, -1);
  default_port = port < 0 || port == (g_ascii_strcasecmp (scheme, "https") == 0 ? 443 : 80);
  /* GUri drops the brackets of an IPv6 literal; the Host header keeps them. */
  if (strchr (lower, ':') != NULL)
    return default_port ? g_strdup_printf ("[%s]", lower)
                        : g_strdup_printf ("[%s]:%d", lower, port);
  return default_port ? g_steal_pointer (&lower) : g_strdup_printf ("%s:%d", lower, port);
}

/* A response body as it arrives. Answers of STS, SSO and the credential endpoints hold secrets:
 * when the buffer grows, the old block is wiped; the GBytes it becomes wipes it when freed. */
typedef struct {
  guint8 *data;
  gsize len;
  gsize size;
} Body;

static void
body_clear (Body *body)
{
  ddb_secure_zero (body->data, body->size);
  g_clear_pointer (&body->data, g_free);
  body->len = body->size = 0;
}

static void
body_free (gpointer data)
{
  body_clear (data);
  g_free (data);
}

static void
body_append (Body *body, const guint8 *data, gsize n)
{
  if (body->len + n > body->size)
    {
      gsize size = MAX (body->size, 4096);
      guint8 *moved;

      while (size < body->len + n)
        size *= 2;
      moved = g_malloc (size);
      if (body->len > 0)
        memcpy (moved, body->data, body->len);
      ddb_secure_zero (body->data, body->size);
      g_free (body->data);
      body->data = moved;
      body->size = size;
    }
  memcpy (body->data + body->len, data, n);
  body->len += n;
}

/* The body as GBytes (which owns it from then on), wiped when the last reference goes. */
static GBytes *
body_steal_to_bytes (Body *body)
{
  Body *owned = g_memdup2 (body, sizeof *body);

  memset (body, 0, sizeof *body);
  return g_bytes_new_with_free_func (owned->data, owned->len, body_free, owned);
}

typedef struct {
  Body body;
  GHashTable *headers;
  GCancellable *cancellable;
  gboolean too_big;
  CURL *easy;
  DdbHttpSinkFunc sink; /* or NULL */
  gpointer sink_data;
  GError *sink_error;   /* the sink stopped the transfer */
} Transfer;

static size_t
on_body (char *data, size_t size, size_t nmemb, void *user_data)
{
  Transfer *t = user_data;
  size_t n = size * nmemb;

  if (t->sink != NULL)
    {
      long status = 0;

      curl_easy_getinfo (t->easy, CURLINFO_RESPONSE_CODE, &status);
      if (status >= 200 && status < 300)
        {
          if (!t->sink ((guint) status, t->headers, (const guint8 *) data, n, t->sink_data,
                        &t->sink_error))
            {
              if (t->sink_error == NULL)
                g_set_error_literal (&t->sink_error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED,
                                     "The response body was refused");
              return 0;
            }
          return n;
        }
    }
  if (t->body.len + n > MAX_RESPONSE_BYTES)
    {
      t->too_big = TRUE;
      return 0;
    }
  body_append (&t->body, (const guint8 *) data, n);
  return n;
}

static size_t
on_header (char *data, size_t size, size_t nmemb, void *user_data)
{
  Transfer *t = user_data;
  size_t n = size * nmemb;
  const char *colon = memchr (data, ':', n);

  /* A new status line (after a 100 Continue, or a redirect we do not follow) starts afresh. */
  if (n >= 5 && memcmp (data, "HTTP/", 5) == 0)
    {
      g_hash_table_remove_all (t->headers);
      return n;
    }
  if (colon != NULL)
    {
      g_autofree char *name = g_ascii_strdown (data, colon - data);
      char *value = g_strndup (colon + 1, n - (gsize) (colon + 1 - data));

      g_strstrip (name);
      g_strstrip (value);
      g_hash_table_replace (t->headers, g_steal_pointer (&name), value);
    }
  return n;
}

static int
on_progress (void *user_data, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
             curl_off_t ulnow)
{
  Transfer *t = user_data;

  return g_cancellable_is_cancelled (t->cancellable) ? 1 : 0;
}

static void
on_cancelled (GCancellable *cancellable, gpointer user_data)
{
  curl_multi_wakeup ((CURLM *) user_data);
}

static gboolean
set_curl_error (CURLcode code, const char *detail, const char *url, const char *proxy,
                GError **error)
{
  g_autoptr (GString) what
      = g_string_new (detail != NULL && *detail != '\0' ? detail : curl_easy_strerror (code));
  DdbHttpErrorCode ecode;

  switch (code)
    {
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
      ecode = DDB_HTTP_ERROR_INVALID_URL;
      break;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
      ecode = DDB_HTTP_ERROR_CONNECT;
      break;
    case CURLE_OPERATION_TIMEDOUT:
      ecode = DDB_HTTP_ERROR_TIMEOUT;
      break;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
      ecode = DDB_HTTP_ERROR_TLS;
      break;
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      ecode = DDB_HTTP_ERROR_IO;
      break;
    default:
      ecode = DDB_HTTP_ERROR_FAILED;
      break;
    }
  /* libcurl's messages name the host and the cause, never headers or bodies; a proxy's
   * credentials are taken out all the same. */
  scrub_proxy_secret (what, proxy);
  g_set_error (error, DDB_HTTP_ERROR, ecode, "Could not reach %s: %s", url, what->str);
  return FALSE;
}

/* Runs the transfer set up on the slot's easy handle; returns its result. */
static CURLcode
perform (Slot *slot, GCancellable *cancellable, gboolean *cancelled)
{
  CURLcode result = CURLE_OK;
  gulong handler = 0;
  int running = 1;

  if (curl_multi_add_handle (slot->multi, slot->easy) != CURLM_OK)
    return CURLE_FAILED_INIT;
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), slot->multi, NULL);
  while (running)
    {
      CURLMcode mc = curl_multi_perform (slot->multi, &running);

      if (mc != CURLM_OK)
        {
          result = CURLE_FAILED_INIT;
          break;
        }
      if (g_cancellable_is_cancelled (cancellable))
        {
          *cancelled = TRUE;
          break;
        }
      if (!running)
        break;
      if (curl_multi_poll (slot->multi, NULL, 0, 1000, NULL) != CURLM_OK)
        {
          result = CURLE_FAILED_INIT;
          break;
        }
    }
  if (!*cancelled && result == CURLE_OK)
    {
      CURLMsg *msg;
      int left;

      result = CURLE_GOT_NOTHING;
      while ((msg = curl_multi_info_read (slot->multi, &left)) != NULL)
        if (msg->msg == CURLMSG_DONE && msg->easy_handle == slot->easy)
          result = msg->data.result;
    }
  if (result == CURLE_ABORTED_BY_CALLBACK)
    *cancelled = TRUE;
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  curl_multi_remove_handle (slot->multi, slot->easy);
  return result;
}

gboolean
ddb_http_post (DdbHttp *http, const char *url, const DdbHttpHeader *headers, guint n_headers,
               const guint8 *body, gsize body_len, GCancellable *cancellable,
               DdbHttpResponse *response, GError **error)
{
  DdbHttpSend send = { 0 };

  send.method = "POST";
  send.url = url;
  send.headers = headers;
  send.n_headers = n_headers;
  send.body = body;
  send.body_len = body_len;
  return ddb_http_send (http, &send, cancellable, response, error);
}

gboolean
ddb_http_send (DdbHttp *http, const DdbHttpSend *send, GCancellable *cancellable,
               DdbHttpResponse *response, GError **error)
{
  const char *url = send->url;
  const DdbHttpHeader *headers = send->headers;
  guint n_headers = send->n_headers;
  const guint8 *body = send->body;
  gsize body_len = send->body_len;
  const char *method = send->method != NULL ? send->method : "POST";
  struct curl_slist *list = NULL;
  char errbuf[CURL_ERROR_SIZE] = "";
  Transfer t = { 0 };
  gboolean cancelled = FALSE;
  CURLcode result;
  long status = 0;
  g_autoptr (WipedString) proxy = NULL;
  g_autoptr (WipedString) no_proxy = NULL;
  g_autofree char *ca_bundle = NULL;
  gboolean proxy_set;
  guint connect_timeout_ms;
  guint timeout_ms;
  Slot *slot = NULL;

  memset (response, 0, sizeof *response);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  for (guint i = 0; i < n_headers; i++)
    {
      /* The line may hold a session token: made in one allocation (a printf would leave
       * pieces of it in the blocks it outgrew), and wiped (curl keeps its own copy). */
      char *line = g_strconcat (headers[i].name, ": ", headers[i].value, NULL);

      list = curl_slist_append (list, line);
      ddb_secret_free (line);
    }
  /* No "Expect: 100-continue" round trip, and no body encoding we did not ask for: the
   * x-amz-crc32 of a DynamoDB answer is computed over the bytes as sent. */
  list = curl_slist_append (list, "Expect:");

  /* The settings as they are now (another thread may change them during the request). */
  g_mutex_lock (&http->lock);
  ca_bundle = g_strdup (http->ca_bundle);
  proxy_set = http->proxy_set;
  if (proxy_set)
    {
      proxy = g_strdup (g_ascii_strncasecmp (url, "https:", 6) == 0 ? http->https_proxy
                                                                    : http->http_proxy);
      no_proxy = g_strdup (http->no_proxy);
    }
  connect_timeout_ms = send->connect_timeout_ms > 0 ? send->connect_timeout_ms
                                                    : http->connect_timeout_ms;
  timeout_ms = send->timeout_ms > 0 ? send->timeout_ms : http->timeout_ms;
  g_mutex_unlock (&http->lock);

  slot = take_slot (http, cancellable);
  if (slot == NULL)
    {
      header_list_free (list);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED, "Cannot initialise libcurl");
      return FALSE;
    }
  t.headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t.cancellable = cancellable;
  t.easy = slot->easy;
  t.sink = send->sink;
  t.sink_data = send->sink_data;

  curl_easy_reset (slot->easy);
  curl_easy_setopt (slot->easy, CURLOPT_SHARE, http->share);
  curl_easy_setopt (slot->easy, CURLOPT_URL, url);
  curl_easy_setopt (slot->easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt (slot->easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt (slot->easy, CURLOPT_HTTP_VERSION, (long) CURL_HTTP_VERSION_1_1);
  curl_easy_setopt (slot->easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt (slot->easy, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt (slot->easy, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt (slot->easy, CURLOPT_SSL_VERIFYHOST, 2L);
  if (ca_bundle != NULL)
    curl_easy_setopt (slot->easy, CURLOPT_CAINFO, ca_bundle);
  if (ca_bundle != NULL)
    /* An HTTPS proxy is verified against the same bundle (a company's proxy CA is usually the
     * reason for a custom bundle). */
    curl_easy_setopt (slot->easy, CURLOPT_PROXY_CAINFO, ca_bundle);
  if (proxy_set)
    {
      /* "" turns libcurl's own reading of the environment off. */
      curl_easy_setopt (slot->easy, CURLOPT_PROXY, proxy != NULL ? proxy : "");
      curl_easy_setopt (slot->easy, CURLOPT_NOPROXY, no_proxy);
    }
  curl_easy_setopt (slot->easy, CURLOPT_PROXY_SSL_VERIFYPEER, 1L);
  curl_easy_setopt (slot->easy, CURLOPT_PROXY_SSL_VERIFYHOST, 2L);
  curl_easy_setopt (slot->easy, CURLOPT_CONNECTTIMEOUT_MS, (long) connect_timeout_ms);
  if (send->idle_timeout_ms > 0)
    {
      curl_easy_setopt (slot->easy, CURLOPT_TIMEOUT_MS, 0L);
      curl_easy_setopt (slot->easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
      curl_easy_setopt (slot->easy, CURLOPT_LOW_SPEED_TIME,
                        (long) ((send->idle_timeout_ms + 999) / 1000));
    }
  else
    curl_easy_setopt (slot->easy, CURLOPT_TIMEOUT_MS, (long) timeout_ms);
  if (send->path_as_is)
    curl_easy_setopt (slot->easy, CURLOPT_PATH_AS_IS, 1L);
  curl_easy_setopt (slot->easy, CURLOPT_USERAGENT, "dynoscope/" PACKAGE_VERSION);
  if (g_ascii_strcasecmp (method, "GET") == 0 && body_len == 0)
    curl_easy_setopt (slot->easy, CURLOPT_HTTPGET, 1L);
  else if (g_ascii_strcasecmp (method, "HEAD") == 0 && body_len == 0)
    curl_easy_setopt (slot->easy, CURLOPT_NOBODY, 1L);
  else
    {
      curl_easy_setopt (slot->easy, CURLOPT_POST, 1L);
      curl_easy_setopt (slot->easy, CURLOPT_POSTFIELDS, body != NULL ? (const char *) body : "");
      curl_easy_setopt (slot->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) body_len);
      if (g_ascii_strcasecmp (method, "POST") != 0)
        curl_easy_setopt (slot->easy, CURLOPT_CUSTOMREQUEST, method);
    }
  curl_easy_setopt (slot->easy, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt (slot->easy, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt (slot->easy, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt (slot->easy, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt (slot->easy, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt (slot->easy, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt (slot->easy, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt (slot->easy, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt (slot->easy, CURLOPT_ERRORBUFFER, errbuf);

  result = perform (slot, cancellable, &cancelled);
  curl_easy_getinfo (slot->easy, CURLINFO_RESPONSE_CODE, &status);
  /* The handle must not keep pointers into this frame. */
  curl_easy_setopt (slot->easy, CURLOPT_HTTPHEADER, NULL);
  curl_easy_setopt (slot->easy, CURLOPT_ERRORBUFFER, NULL);
  curl_easy_setopt (slot->easy, CURLOPT_POSTFIELDS, NULL);
  curl_easy_setopt (slot->easy, CURLOPT_CUSTOMREQUEST, NULL);
  give_back_slot (http, slot);
  header_list_free (list);

  if (cancelled)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
      g_clear_error (&t.sink_error);
      body_clear (&t.body);
      g_hash_table_unref (t.headers);
      return FALSE;
    }
  if (t.sink_error != NULL)
    {
      g_propagate_error (error, t.sink_error);
      body_clear (&t.body);
      g_hash_table_unref (t.headers);
      return FALSE;
    }
  if (t.too_big)
    {
      g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED,
                   "The response from %s is too large", url);
      body_clear (&t.body);
      g_hash_table_unref (t.headers);
      return FALSE;
    }
  if (result != CURLE_OK)
    {
      body_clear (&t.body);
      g_hash_table_unref (t.headers);
      return set_curl_error (result, errbuf, url, proxy, error);
    }
  response->status = (guint) status;
  response->body = body_steal_to_bytes (&t.body);
  response->headers = t.headers;
  return TRUE;
}

gboolean
ddb_http_error_is_transient (const GError *error)
{
  if (error == NULL || error->domain != DDB_HTTP_ERROR)
    return FALSE;
  return error->code == DDB_HTTP_ERROR_CONNECT || error->code == DDB_HTTP_ERROR_TIMEOUT
         || error->code == DDB_HTTP_ERROR_IO;
}

gboolean
ddb_http_aws_transport (const DdbAwsRequest *request, guint *status, GBytes **body,
                        gpointer user_data, GCancellable *cancellable, GError **error)
{
  DdbHttp *http = user_data;
  g_autofree char *host = NULL;
  DdbHttpHeader headers[24];
  DdbHttpRequest req = { 0 };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  DdbHttpResponse response = { 0 };
  DdbHttpSend send = { 0 };
  g_autoptr (GUri) uri = NULL;
  guint n = 0;
  gboolean ok;

  host = ddb_http_host_header (request->url, error);
  if (host == NULL)
    return FALSE;
  if (request->n_headers + 1 > G_N_ELEMENTS (headers) - 8)
    {
      g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED, "Too many headers");
      return FALSE;
    }
  headers[n++] = (DdbHttpHeader) { "Host", host };
  for (guint i = 0; i < request->n_headers; i++)
    headers[n++] = request->headers[i];
  if (request->sign_credentials != NULL)
    {
      uri = g_uri_parse (request->url, G_URI_FLAGS_ENCODED, NULL);
      req.method = request->method != NULL ? request->method : "POST";
      req.path = uri != NULL && *g_uri_get_path (uri) != '\0' ? g_uri_get_path (uri) : "/";
      req.query = uri != NULL ? g_uri_get_query (uri) : NULL;
      req.headers = headers;
      req.n_headers = n;
      req.body = request->body;
      req.body_len = request->body_len;
      params.region = request->sign_region;
      params.service = request->sign_service;
      params.time = g_get_real_time () / G_USEC_PER_SEC;
      params.normalize_path = TRUE;
      if (!ddb_sigv4_sign_headers (&req, request->sign_credentials, &params, &sig, error))
        return FALSE;
      for (guint i = 0; sig.add_headers[i] != NULL && sig.add_headers[i + 1] != NULL
                        && n < G_N_ELEMENTS (headers);
           i += 2)
        headers[n++] = (DdbHttpHeader) { sig.add_headers[i], sig.add_headers[i + 1] };
    }
  send.method = request->method;
  send.url = request->url;
  send.headers = headers;
  send.n_headers = n;
  send.body = request->body;
  send.body_len = request->body_len;
  send.connect_timeout_ms = request->connect_timeout_ms;
  send.timeout_ms = request->timeout_ms;
  ok = ddb_http_send (http, &send, cancellable, &response, error);
  ddb_signature_clear (&sig);
  if (!ok)
    return FALSE;
  *status = response.status;
  *body = g_bytes_ref (response.body);
  ddb_http_response_clear (&response);
  return TRUE;
}
