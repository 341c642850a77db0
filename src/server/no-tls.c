/* no-tls.c: stand-ins for the GnuTLS functions that libmicrohttpd's HTTPS code refers to, so that
 * dynoscope-serve can link libmicrohttpd statically without loading GnuTLS and the eight libraries
 * it brings (about 1.5 ms of every start, most of the lean server's start time). serve speaks plain
 * HTTP only: the daemon is never started with MHD_USE_TLS, so none of these is ever called, except
 * the global init and deinit that libmicrohttpd's constructor and destructor run. Should any other
 * be reached, the process stops at once rather than pretend to speak TLS. src/cli/meson.build
 * links them only when a test link against the static libmicrohttpd succeeds with them. */
#include <stdlib.h>

/* Not a function in GnuTLS: the allocator libmicrohttpd's HTTPS code frees GnuTLS buffers with. */
void *(*gnutls_malloc) (size_t size) = malloc;

int gnutls_global_init (void);
void gnutls_global_deinit (void);

int
gnutls_global_init (void)
{
  return 0;
}

void
gnutls_global_deinit (void)
{
}

#define NO_TLS(name) \
  void name (void); \
  void name (void) \
  { \
    abort (); \
  }

NO_TLS (gnutls_alpn_set_protocols)
NO_TLS (gnutls_bye)
NO_TLS (gnutls_certificate_allocate_credentials)
NO_TLS (gnutls_certificate_free_credentials)
NO_TLS (gnutls_certificate_server_set_request)
NO_TLS (gnutls_certificate_set_dh_params)
NO_TLS (gnutls_certificate_set_retrieve_function2)
NO_TLS (gnutls_certificate_set_retrieve_function3)
NO_TLS (gnutls_certificate_set_x509_key_mem)
NO_TLS (gnutls_certificate_set_x509_key_mem2)
NO_TLS (gnutls_certificate_set_x509_trust_mem)
NO_TLS (gnutls_cipher_get)
NO_TLS (gnutls_credentials_set)
NO_TLS (gnutls_deinit)
NO_TLS (gnutls_dh_params_deinit)
NO_TLS (gnutls_dh_params_import_pkcs3)
NO_TLS (gnutls_dh_params_init)
NO_TLS (gnutls_handshake)
NO_TLS (gnutls_init)
NO_TLS (gnutls_priority_deinit)
NO_TLS (gnutls_priority_init)
NO_TLS (gnutls_priority_set)
NO_TLS (gnutls_protocol_get_version)
NO_TLS (gnutls_psk_allocate_server_credentials)
NO_TLS (gnutls_psk_free_server_credentials)
NO_TLS (gnutls_psk_set_server_credentials_function)
NO_TLS (gnutls_record_check_pending)
NO_TLS (gnutls_record_get_direction)
NO_TLS (gnutls_record_recv)
NO_TLS (gnutls_record_send)
NO_TLS (gnutls_session_get_ptr)
NO_TLS (gnutls_session_set_ptr)
NO_TLS (gnutls_strerror)
NO_TLS (gnutls_transport_set_int2)
