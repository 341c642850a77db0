/* http.h: the HTTP transport under the DynamoDB client and STS: a pool of libcurl connections
 * per DdbHttp, so that requests from several threads run at once and connections are kept alive
 * and reused between requests (HTTP/1.1); TLS peers are
 * always verified (against the system's CAs or a CA bundle given; there is no way to turn
 * verification off); connect and total timeouts; a request can be cancelled from another thread
 * through a GCancellable. Nothing here logs headers or bodies. */
#pragma once

#include <gio/gio.h>

#include "net/credentials.h"
#include "net/sigv4.h"

G_BEGIN_DECLS

#define DDB_HTTP_ERROR (ddb_http_error_quark ())

/* Failures before a whole HTTP response came back. Cancellation is G_IO_ERROR_CANCELLED. */
typedef enum {
  DDB_HTTP_ERROR_INVALID_URL, /* not an http(s) URL libcurl accepts */
  DDB_HTTP_ERROR_CONNECT,     /* name resolution failed, connection refused or unreachable */
  DDB_HTTP_ERROR_TLS,         /* the peer's certificate or name did not verify, handshake failed */
  DDB_HTTP_ERROR_TIMEOUT,     /* the connect or the total timeout expired */
  DDB_HTTP_ERROR_IO,          /* the connection broke while sending or receiving */
  DDB_HTTP_ERROR_FAILED,      /* anything else libcurl reports */
} DdbHttpErrorCode;

GQuark ddb_http_error_quark (void);

typedef struct {
  const char *ca_bundle;      /* a PEM file of CAs to trust instead of the system's, or NULL */
  guint connect_timeout_ms;   /* 0: 10 s */
  guint timeout_ms;           /* the whole request; 0: 60 s */
  guint max_connections;      /* requests in flight at once (more wait their turn); 0: 64 */
} DdbHttpOptions;

typedef struct _DdbHttp DdbHttp;

/* OPTIONS may be NULL. Fails only if libcurl cannot be initialised. */
DdbHttp *ddb_http_new (const DdbHttpOptions *options, GError **error);
void ddb_http_free (DdbHttp *http);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbHttp, ddb_http_free)

/* Replaces the CA bundle (NULL: the system's) for the following requests. It also verifies an
 * HTTPS proxy. */
void ddb_http_set_ca_bundle (DdbHttp *http, const char *ca_bundle);

/* The CA bundle as the AWS CLI picks it: GIVEN (--ca-bundle), else AWS_CA_BUNDLE in ENVP, else
 * PROFILE's ca_bundle in CONFIG (CONFIG may be NULL); "~" and $VARS expanded. Sets it on HTTP
 * when one is named. Error (DDB_HTTP_ERROR_TLS): the named file does not exist. */
gboolean ddb_http_configure_ca_bundle (DdbHttp *http, const char *given, const char *const *envp,
                                       DdbAwsConfig *config, const char *profile,
                                       GError **error);

/* Takes the proxies from ENVP (NULL: the process environment) as botocore (urllib) does:
 * https_proxy / HTTPS_PROXY for https URLs, http_proxy / HTTP_PROXY for http URLs (the lower
 * case name first; HTTP_PROXY not when REQUEST_METHOD is set, as in a CGI script), all_proxy /
 * ALL_PROXY for either, no_proxy / NO_PROXY for the hosts to reach directly. Set on libcurl
 * explicitly, so that the process environment does not apply when ENVP is given. Credentials
 * in a proxy URL never appear in an error message. Until this is called, libcurl's own
 * defaults apply. */
void ddb_http_set_proxy_env (DdbHttp *http, const char *const *envp);

typedef struct {
  guint status;
  GBytes *body;
  /* Response headers: lower-cased name -> value of the last occurrence. */
  GHashTable *headers;
} DdbHttpResponse;

void ddb_http_response_clear (DdbHttpResponse *response);
/* NAME in lower case; NULL if absent. */
const char *ddb_http_response_header (const DdbHttpResponse *response, const char *name);

/* POSTs BODY to URL with HEADERS (exactly as given: the caller signs them; Host included or
 * not) and waits for the response. Any HTTP status is a success here. Requests from several
 * threads on one DdbHttp run at once, each on a connection of its own (up to max_connections;
 * more wait for one); another thread may cancel through CANCELLABLE at any time, also while
 * the request waits for a connection. */
gboolean ddb_http_post (DdbHttp *http, const char *url, const DdbHttpHeader *headers,
                        guint n_headers, const guint8 *body, gsize body_len,
                        GCancellable *cancellable, DdbHttpResponse *response, GError **error);

/* Receives a response body as it arrives, for DdbHttpSend.sink: STATUS and HEADERS (lower-cased
 * name -> value, as in DdbHttpResponse) of the response, then a chunk of its body. FALSE with
 * ERROR set stops the transfer; ddb_http_send then fails with that error. */
typedef gboolean (*DdbHttpSinkFunc) (guint status, GHashTable *headers, const guint8 *data,
                                     gsize len, gpointer user_data, GError **error);

/* Any method: GET (no body) and POST as such, HEAD without reading a body, PUT and others as a
 * custom request with BODY. */
typedef struct {
  const char *method; /* NULL: "POST" */
  const char *url;
  const DdbHttpHeader *headers;
  guint n_headers;
  const guint8 *body;
  gsize body_len;
  guint connect_timeout_ms; /* 0: the DdbHttp's */
  guint timeout_ms;         /* 0: the DdbHttp's */
  /* Streaming: the body of a 2xx response goes to SINK chunk by chunk as it arrives, with no
   * size limit (response->body is then empty); any other response is buffered as usual. */
  DdbHttpSinkFunc sink;
  gpointer sink_data;
  /* Non-zero: no total timeout; the request fails (DDB_HTTP_ERROR_TIMEOUT) once no byte came
   * for this long (whole seconds, rounded up): for long downloads. */
  guint idle_timeout_ms;
  /* The URL's path goes out as it is: "." and ".." segments are not squashed (S3 keys). */
  gboolean path_as_is;
} DdbHttpSend;

gboolean ddb_http_send (DdbHttp *http, const DdbHttpSend *send, GCancellable *cancellable,
                        DdbHttpResponse *response, GError **error);

/* Whether an error of ddb_http_post is worth retrying as the AWS SDKs do (connection errors
 * and timeouts), not TLS verification failures, bad URLs or cancellation. */
gboolean ddb_http_error_is_transient (const GError *error);

/* The Host header value for URL: host, plus ":port" when not the scheme's default; NULL
 * (with DDB_HTTP_ERROR_INVALID_URL) if URL is not http(s) with a host. */
char *ddb_http_host_header (const char *url, GError **error);

/* The DdbAwsTransport of credentials.h over a DdbHttp (USER_DATA): adds Host, signs with
 * SigV4 when the request asks for it, and sends it. */
gboolean ddb_http_aws_transport (const DdbAwsRequest *request, guint *status, GBytes **body,
                                 gpointer user_data, GCancellable *cancellable, GError **error);

G_END_DECLS
