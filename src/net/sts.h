/* sts.h: AWS STS's query API (form-encoded requests, XML answers), as the credential providers
 * and `whoami` use it: AssumeRole (with MFA and an external ID), AssumeRoleWithWebIdentity and
 * GetCallerIdentity. Pure: building bodies and parsing answers; the call goes through the
 * session's transport. */
#pragma once

#include "net/credentials.h"

G_BEGIN_DECLS

/* The form body of an AssumeRole request. EXTERNAL_ID, SERIAL_NUMBER and TOKEN_CODE may be
 * NULL, DURATION_SECONDS < 0 for none. It may hold an MFA code: free it with ddb_secret_free
 * (it is built in one block, so no other copy is left behind). */
char *ddb_sts_assume_role_body (const char *role_arn, const char *session_name,
                                const char *external_id, gint64 duration_seconds,
                                const char *serial_number, const char *token_code);

/* The form body of an AssumeRoleWithWebIdentity request (sent unsigned). It holds the token:
 * free it with ddb_secret_free. */
char *ddb_sts_web_identity_body (const char *role_arn, const char *session_name,
                                 const char *web_identity_token, gint64 duration_seconds);

/* The body of GetCallerIdentity. */
#define DDB_STS_GET_CALLER_IDENTITY_BODY "Action=GetCallerIdentity&Version=2011-06-15"

/* The answers are read as XML 1.0 in UTF-8 without a DOCTYPE, strictly (a malformed one is an
 * error, "not XML" for a 2xx status), by a reader that wipes what it copied.
 *
 * Parses the answer to OPERATION ("AssumeRole", "AssumeRoleWithWebIdentity"): the
 * credentials of its <OPERATION>Result (STATUS 2xx), labelled METHOD; or the ErrorResponse's
 * code and message as the CLI prints them ("An error occurred (AccessDenied) when calling the
 * AssumeRole operation: ..."). The body is never quoted otherwise: it may hold the secret. */
DdbAwsCredentials *ddb_sts_parse_credentials (const char *operation, guint status,
                                              const char *body, gsize len, const char *method,
                                              GError **error);

/* Parses GetCallerIdentity's answer; any of ARN, ACCOUNT, USER_ID may be NULL. */
gboolean ddb_sts_parse_caller_identity (guint status, const char *body, gsize len, char **arn,
                                        char **account, char **user_id, GError **error);

/* Sends the STS call BODY (form-encoded) for SESSION, to the STS endpoint its profile
 * configures (AWS_ENDPOINT_URL_STS, [services], ...) or STS's regional endpoint; signed with
 * CREDENTIALS unless they are NULL (AssumeRoleWithWebIdentity). *STATUS and *BODY as the
 * transport gives them. */
gboolean ddb_sts_call (DdbAwsSession *session, const char *body, const DdbCredentials *credentials,
                       guint *status, GBytes **answer, GCancellable *cancellable, GError **error);

/* `whoami`: GetCallerIdentity with the session's credentials. Fills *ARN (and *ACCOUNT if
 * non-NULL). */
gboolean ddb_sts_get_caller_identity (DdbAwsSession *session, const DdbCredentials *credentials,
                                      char **arn, char **account, GCancellable *cancellable,
                                      GError **error);

G_END_DECLS
