/* http.c: the libcurl transport: one easy handle driven by one multi handle, so that the
 * connection cache lives as long as the DdbHttp and a cancellation can wake the transfer at
 * once (curl_multi_wakeup) instead of at the next progress tick. */
#include <curl/curl.h>
#include <string.h>

#include "core/error.h"
#include "net/http.h"

#define DEFAULT_CONNECT_TIMEOUT_MS 10000
#define DEFAULT_TIMEOUT_MS 60000
/* Bodies larger than this are refused: DynamoDB's answers stay far below it. */
#define MAX_RESPONSE_BYTES (256u * 1024u * 1024u)

struct _DdbHttp {
  GMutex lock; /* one request at a time on the handle */
  CURL *easy;
  CURLM *multi;
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

static void
init_curl_once (void)
{
  /* curl_global_init is not thread-safe; do it once, before any handle exists. */
  if (g_once_init_enter (&curl_initialised))
    {
      curl_global_init (CURL_GLOBAL_DEFAULT);
      g_once_init_leave (&curl_initialised, 1);
    }
}

/* A copy of a proxy URL, which may hold a password: wiped when freed. */
typedef char WipedString;

static void
wiped_string_free (WipedString *s)
{
  if (s != NULL)
    memset (s, 0, strlen (s));
  g_free (s);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WipedString, wiped_string_free)

/* Proxy URLs may hold a password: wiped. */
static void
clear_proxies (DdbHttp *http)
{
  char **fields[] = { &http->https_proxy, &http->http_proxy, &http->no_proxy };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      if (*fields[i] != NULL)
        memset (*fields[i], 0, strlen (*fields[i]));
      g_clear_pointer (fields[i], g_free);
    }
}

DdbHttp *
ddb_http_new (const DdbHttpOptions *options, GError **error)
{
  DdbHttp *http;

  init_curl_once ();
  http = g_new0 (DdbHttp, 1);
  g_mutex_init (&http->lock);
  http->easy = curl_easy_init ();
  http->multi = curl_multi_init ();
  if (http->easy == NULL || http->multi == NULL)
    {
      g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED, "Cannot initialise libcurl");
      ddb_http_free (http);
      return NULL;
    }
  http->connect_timeout_ms = DEFAULT_CONNECT_TIMEOUT_MS;
  http->timeout_ms = DEFAULT_TIMEOUT_MS;
  if (options != NULL)
    {
      if (options->connect_timeout_ms > 0)
        http->connect_timeout_ms = options->connect_timeout_ms;
      if (options->timeout_ms > 0)
        http->timeout_ms = options->timeout_ms;
      http->ca_bundle = g_strdup (options->ca_bundle);
    }
  return http;
}

void
ddb_http_free (DdbHttp *http)
{
  if (http == NULL)
    return;
  if (http->easy != NULL)
    curl_easy_cleanup (http->easy);
  if (http->multi != NULL)
    curl_multi_cleanup (http->multi);
  g_free (http->ca_bundle);
  clear_proxies (http);
  g_mutex_clear (&http->lock);
  g_free (http);
}

void
ddb_http_set_ca_bundle (DdbHttp *http, const char *ca_bundle)
{
  g_mutex_lock (&http->lock);
  g_free (http->ca_bundle);
  http->ca_bundle = g_strdup (ca_bundle);
  g_mutex_unlock (&http->lock);
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

typedef struct {
  GByteArray *body;
  GHashTable *headers;
  GCancellable *cancellable;
  gboolean too_big;
} Transfer;

static size_t
on_body (char *data, size_t size, size_t nmemb, void *user_data)
{
  Transfer *t = user_data;
  size_t n = size * nmemb;

  if (t->body->len + n > MAX_RESPONSE_BYTES)
    {
      t->too_big = TRUE;
      return 0;
    }
  g_byte_array_append (t->body, (const guint8 *) data, (guint) n);
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

/* Runs the transfer set up on the easy handle; returns its result. */
static CURLcode
perform (DdbHttp *http, GCancellable *cancellable, gboolean *cancelled)
{
  CURLcode result = CURLE_OK;
  gulong handler = 0;
  int running = 1;

  if (curl_multi_add_handle (http->multi, http->easy) != CURLM_OK)
    return CURLE_FAILED_INIT;
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), http->multi, NULL);
  while (running)
    {
      CURLMcode mc = curl_multi_perform (http->multi, &running);

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
      if (curl_multi_poll (http->multi, NULL, 0, 1000, NULL) != CURLM_OK)
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
      while ((msg = curl_multi_info_read (http->multi, &left)) != NULL)
        if (msg->msg == CURLMSG_DONE && msg->easy_handle == http->easy)
          result = msg->data.result;
    }
  if (result == CURLE_ABORTED_BY_CALLBACK)
    *cancelled = TRUE;
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  curl_multi_remove_handle (http->multi, http->easy);
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

  memset (response, 0, sizeof *response);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  for (guint i = 0; i < n_headers; i++)
    {
      g_autofree char *line = g_strdup_printf ("%s: %s", headers[i].name, headers[i].value);

      list = curl_slist_append (list, line);
      /* The line may hold a session token: wipe our copy (curl keeps its own). */
      memset (line, 0, strlen (line));
    }
  /* No "Expect: 100-continue" round trip, and no body encoding we did not ask for: the
   * x-amz-crc32 of a DynamoDB answer is computed over the bytes as sent. */
  list = curl_slist_append (list, "Expect:");

  t.body = g_byte_array_new ();
  t.headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t.cancellable = cancellable;

  g_mutex_lock (&http->lock);
  curl_easy_reset (http->easy);
  curl_easy_setopt (http->easy, CURLOPT_URL, url);
  curl_easy_setopt (http->easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt (http->easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt (http->easy, CURLOPT_HTTP_VERSION, (long) CURL_HTTP_VERSION_1_1);
  curl_easy_setopt (http->easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt (http->easy, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt (http->easy, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt (http->easy, CURLOPT_SSL_VERIFYHOST, 2L);
  if (http->ca_bundle != NULL)
    curl_easy_setopt (http->easy, CURLOPT_CAINFO, http->ca_bundle);
  if (http->ca_bundle != NULL)
    /* An HTTPS proxy is verified against the same bundle (a company's proxy CA is usually the
     * reason for a custom bundle). */
    curl_easy_setopt (http->easy, CURLOPT_PROXY_CAINFO, http->ca_bundle);
  if (http->proxy_set)
    {
      const char *p = g_ascii_strncasecmp (url, "https:", 6) == 0 ? http->https_proxy
                                                                  : http->http_proxy;

      /* "" turns libcurl's own reading of the environment off. */
      curl_easy_setopt (http->easy, CURLOPT_PROXY, p != NULL ? p : "");
      curl_easy_setopt (http->easy, CURLOPT_NOPROXY, http->no_proxy);
      proxy = g_strdup (p);
    }
  curl_easy_setopt (http->easy, CURLOPT_PROXY_SSL_VERIFYPEER, 1L);
  curl_easy_setopt (http->easy, CURLOPT_PROXY_SSL_VERIFYHOST, 2L);
  curl_easy_setopt (http->easy, CURLOPT_CONNECTTIMEOUT_MS,
                    (long) (send->connect_timeout_ms > 0 ? send->connect_timeout_ms
                                                         : http->connect_timeout_ms));
  curl_easy_setopt (http->easy, CURLOPT_TIMEOUT_MS,
                    (long) (send->timeout_ms > 0 ? send->timeout_ms : http->timeout_ms));
  curl_easy_setopt (http->easy, CURLOPT_USERAGENT, "dynoscope/" PACKAGE_VERSION);
  if (g_ascii_strcasecmp (method, "GET") == 0 && body_len == 0)
    curl_easy_setopt (http->easy, CURLOPT_HTTPGET, 1L);
  else
    {
      curl_easy_setopt (http->easy, CURLOPT_POST, 1L);
      curl_easy_setopt (http->easy, CURLOPT_POSTFIELDS, body != NULL ? (const char *) body : "");
      curl_easy_setopt (http->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) body_len);
      if (g_ascii_strcasecmp (method, "POST") != 0)
        curl_easy_setopt (http->easy, CURLOPT_CUSTOMREQUEST, method);
    }
  curl_easy_setopt (http->easy, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt (http->easy, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt (http->easy, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt (http->easy, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt (http->easy, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt (http->easy, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt (http->easy, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt (http->easy, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt (http->easy, CURLOPT_ERRORBUFFER, errbuf);

  result = perform (http, cancellable, &cancelled);
  curl_easy_getinfo (http->easy, CURLINFO_RESPONSE_CODE, &status);
  /* The handle must not keep pointers into this frame. */
  curl_easy_setopt (http->easy, CURLOPT_HTTPHEADER, NULL);
  curl_easy_setopt (http->easy, CURLOPT_ERRORBUFFER, NULL);
  curl_easy_setopt (http->easy, CURLOPT_POSTFIELDS, NULL);
  curl_easy_setopt (http->easy, CURLOPT_CUSTOMREQUEST, NULL);
  g_mutex_unlock (&http->lock);
  curl_slist_free_all (list);

  if (cancelled)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
      g_byte_array_unref (t.body);
      g_hash_table_unref (t.headers);
      return FALSE;
    }
  if (t.too_big)
    {
      g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED,
                   "The response from %s is too large", url);
      g_byte_array_unref (t.body);
      g_hash_table_unref (t.headers);
      return FALSE;
    }
  if (result != CURLE_OK)
    {
      g_byte_array_unref (t.body);
      g_hash_table_unref (t.headers);
      return set_curl_error (result, errbuf, url, proxy, error);
    }
  response->status = (guint) status;
  response->body = g_byte_array_free_to_bytes (t.body);
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
