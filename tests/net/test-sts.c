/* test-sts.c: STS's form bodies and XML answers (net/sts.h): the answers as AWS's documentation
 * shows them, the strict XML reader that reads them (entities, character references, CDATA,
 * comments, namespaces, the XML declaration, line ends, limits; malformed documents refused),
 * the paths its fields are taken from, and the reader against GMarkup, which sts.c used before
 * (tests/net/sts-gmarkup.h): where both take a document they must read the same fields, and
 * where only one does, the table below says which and why. */
#include <string.h>

#include "net/sts.h"
#include "sts-gmarkup.h"

#define SECRET_MARK "SeCrEt"

#define NS "https://sts.amazonaws.com/doc/2011-06-15/"

/* A GetCallerIdentity answer whose Arn is TEXT: the reader's text, as the API returns it. */
#define ARN_DOC(text) \
  "<GetCallerIdentityResponse xmlns=\"" NS "\"><GetCallerIdentityResult><Arn>" text \
  "</Arn></GetCallerIdentityResult></GetCallerIdentityResponse>"

static const char *const NOT_XML = "The GetCallerIdentity response from STS is not XML";

/* ---- AWS's examples ---- */

/* The example response of AssumeRole in the STS API reference (its SessionToken across lines,
 * as the page has it). */
static const char *const assume_role_example
    = "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
      "<AssumeRoleResult>\n"
      "<SourceIdentity>DevUser123</SourceIdentity>\n"
      "<Credentials>\n"
      "  <SessionToken>\n"
      "   AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQW\n"
      "   LWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGd\n"
      "   QrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU\n"
      "   9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz\n"
      "   +scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==\n"
      "  </SessionToken>\n"
      "  <SecretAccessKey>\n"
      "   wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY\n"
      "  </SecretAccessKey>\n"
      "  <Expiration>2019-07-15T23:28:33.359Z</Expiration>\n"
      "  <AccessKeyId>AKIAIOSFODNN7EXAMPLE</AccessKeyId>\n"
      "</Credentials>\n"
      "<AssumedRoleUser>\n"
      "  <Arn>arn:aws:sts::123456789012:assumed-role/demo/John</Arn>\n"
      "  <AssumedRoleId>ARO123EXAMPLE123:John</AssumedRoleId>\n"
      "</AssumedRoleUser>\n"
      "<PackedPolicySize>8</PackedPolicySize>\n"
      "</AssumeRoleResult>\n"
      "<ResponseMetadata>\n"
      "<RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>\n"
      "</ResponseMetadata>\n"
      "</AssumeRoleResponse>";

/* AssumeRoleWithWebIdentity's example response, with the XML declaration STS may send. */
static const char *const web_identity_example
    = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<AssumeRoleWithWebIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
      "  <AssumeRoleWithWebIdentityResult>\n"
      "    <SubjectFromWebIdentityToken>amzn1.account.AF6RHO7KZU5XRVQJGXK6HB56KR2A"
      "</SubjectFromWebIdentityToken>\n"
      "    <Audience>client.5498841531868486423.1548@apps.example.com</Audience>\n"
      "    <AssumedRoleUser>\n"
      "      <Arn>arn:aws:sts::123456789012:assumed-role/FederatedWebIdentityRole/app1</Arn>\n"
      "      <AssumedRoleId>AROACLKWSDQRAOEXAMPLE:app1</AssumedRoleId>\n"
      "    </AssumedRoleUser>\n"
      "    <Credentials>\n"
      "      <SessionToken>AQoDYXdzEE0a8ANXXXXXXXXNO1ewxE5TijQyp+IEXAMPLE</SessionToken>\n"
      "      <SecretAccessKey>wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY</SecretAccessKey>\n"
      "      <Expiration>2014-10-24T23:00:23Z</Expiration>\n"
      "      <AccessKeyId>ASgeIAIOSFODNN7EXAMPLE</AccessKeyId>\n"
      "    </Credentials>\n"
      "    <SourceIdentity>SourceIdentityValue</SourceIdentity>\n"
      "    <Provider>www.amazon.com</Provider>\n"
      "  </AssumeRoleWithWebIdentityResult>\n"
      "  <ResponseMetadata>\n"
      "    <RequestId>ad4156e9-bce1-11e2-82e6-6b6efEXAMPLE</RequestId>\n"
      "  </ResponseMetadata>\n"
      "</AssumeRoleWithWebIdentityResponse>\n";

static const char *const caller_identity_example
    = "<GetCallerIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
      "  <GetCallerIdentityResult>\n"
      "  <Arn>arn:aws:iam::123456789012:user/Alice</Arn>\n"
      "    <UserId>AKIAI44QH8DHBEXAMPLE</UserId>\n"
      "    <Account>123456789012</Account>\n"
      "  </GetCallerIdentityResult>\n"
      "  <ResponseMetadata>\n"
      "    <RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId>\n"
      "  </ResponseMetadata>\n"
      "</GetCallerIdentityResponse>\n";

/* The query protocol's error response. */
static const char *const error_example
    = "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
      "  <Error>\n"
      "    <Type>Sender</Type>\n"
      "    <Code>AccessDenied</Code>\n"
      "    <Message>User: arn:aws:iam::123456789012:user/Alice is not authorized to perform: "
      "sts:AssumeRole on resource: arn:aws:iam::123456789012:role/demo</Message>\n"
      "  </Error>\n"
      "  <RequestId>4fc0d3ee-efef-11e9-9282-3b7bffe54a9b</RequestId>\n"
      "</ErrorResponse>\n";

static gint64
timestamp (const char *text)
{
  gint64 t = 0;

  g_assert_true (ddb_aws_parse_timestamp (text, &t));
  return t;
}

static void
test_aws_examples (void)
{
  GError *error = NULL;
  DdbAwsCredentials *c;
  char *arn = NULL, *account = NULL, *user_id = NULL;

  c = ddb_sts_parse_credentials ("AssumeRole", 200, assume_role_example,
                                 strlen (assume_role_example), "assume-role", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (c->creds.access_key_id, ==, "AKIAIOSFODNN7EXAMPLE");
  g_assert_cmpstr (c->creds.secret_access_key, ==, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY");
  /* Trimmed at its ends only. */
  g_assert_cmpstr (c->creds.session_token, ==,
                   "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQW\n"
                   "   LWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGd\n"
                   "   QrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU\n"
                   "   9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz\n"
                   "   +scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==");
  g_assert_cmpint (c->expiration, ==, timestamp ("2019-07-15T23:28:33Z"));
  g_assert_cmpstr (c->method, ==, "assume-role");
  ddb_aws_credentials_free (c);

  /* Another operation's answer has no credentials for this one. */
  c = ddb_sts_parse_credentials ("AssumeRoleWithWebIdentity", 200, assume_role_example,
                                 strlen (assume_role_example), "m", &error);
  g_assert_null (c);
  g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL);
  g_assert_cmpstr (error->message, ==,
                   "The AssumeRoleWithWebIdentity response from STS has no credentials");
  g_clear_error (&error);

  c = ddb_sts_parse_credentials ("AssumeRoleWithWebIdentity", 200, web_identity_example,
                                 strlen (web_identity_example), "assume-role-with-web-identity",
                                 &error);
  g_assert_no_error (error);
  g_assert_cmpstr (c->creds.access_key_id, ==, "ASgeIAIOSFODNN7EXAMPLE");
  g_assert_cmpstr (c->creds.secret_access_key, ==, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY");
  g_assert_cmpstr (c->creds.session_token, ==, "AQoDYXdzEE0a8ANXXXXXXXXNO1ewxE5TijQyp+IEXAMPLE");
  g_assert_cmpint (c->expiration, ==, timestamp ("2014-10-24T23:00:23Z"));
  ddb_aws_credentials_free (c);

  g_assert_true (ddb_sts_parse_caller_identity (200, caller_identity_example,
                                                strlen (caller_identity_example), &arn, &account,
                                                &user_id, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (arn, ==, "arn:aws:iam::123456789012:user/Alice");
  g_assert_cmpstr (account, ==, "123456789012");
  g_assert_cmpstr (user_id, ==, "AKIAI44QH8DHBEXAMPLE");
  g_clear_pointer (&arn, g_free);
  g_clear_pointer (&account, g_free);
  g_clear_pointer (&user_id, g_free);

  c = ddb_sts_parse_credentials ("AssumeRole", 403, error_example, strlen (error_example),
                                 "assume-role", &error);
  g_assert_null (c);
  g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL);
  g_assert_cmpstr (error->message, ==,
                   "An error occurred (AccessDenied) when calling the AssumeRole operation: "
                   "User: arn:aws:iam::123456789012:user/Alice is not authorized to perform: "
                   "sts:AssumeRole on resource: arn:aws:iam::123456789012:role/demo");
  g_clear_error (&error);
  /* An error answer with a success status has no credentials, its code is not read. */
  c = ddb_sts_parse_credentials ("AssumeRole", 200, error_example, strlen (error_example),
                                 "assume-role", &error);
  g_assert_null (c);
  g_assert_cmpstr (error->message, ==, "The AssumeRole response from STS has no credentials");
  g_clear_error (&error);
  g_assert_false (ddb_sts_parse_caller_identity (403, error_example, strlen (error_example), &arn,
                                                 NULL, NULL, &error));
  g_assert_null (arn);
  g_assert_cmpstr (error->message, ==,
                   "An error occurred (AccessDenied) when calling the GetCallerIdentity "
                   "operation: User: arn:aws:iam::123456789012:user/Alice is not authorized to "
                   "perform: sts:AssumeRole on resource: arn:aws:iam::123456789012:role/demo");
  g_clear_error (&error);
}

/* ---- The reader, through the Arn of a GetCallerIdentity answer ---- */

/* The Arn DOC gives, NO_ARN when it has none, or NULL when the reader refuses DOC (LEN 0:
 * strlen). */
#define NO_ARN "(no Arn)"

static char *
arn_of (const char *doc, gsize len)
{
  GError *error = NULL;
  char *arn = NULL;

  if (len == 0)
    len = strlen (doc);
  if (ddb_sts_parse_caller_identity (200, doc, len, &arn, NULL, NULL, &error))
    {
      g_assert_no_error (error);
      g_assert_nonnull (arn);
      return arn;
    }
  g_assert_null (arn);
  g_assert_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL);
  if (strcmp (error->message, "The GetCallerIdentity response from STS has no Arn") == 0)
    arn = g_strdup (NO_ARN);
  else
    g_assert_cmpstr (error->message, ==, NOT_XML);
  g_error_free (error);
  return arn;
}

static void
assert_arn (const char *doc, const char *expected)
{
  char *arn = arn_of (doc, 0);

  g_assert_cmpstr (arn, ==, expected);
  g_free (arn);
}

static void
test_entities (void)
{
  assert_arn (ARN_DOC ("a&lt;b&gt;c&amp;d&quot;e&apos;f"), "a<b>c&d\"e'f");
  /* Decimal and hexadecimal (either case of digit), to UTF-8 of one to four bytes. */
  assert_arn (ARN_DOC ("&#65;&#x42;&#x0063;&#0100;&#xe9;&#xE9;&#233;&#x20AC;&#x1F600;&#128512;"),
              "ABcd\xc3\xa9\xc3\xa9\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf0\x9f\x98\x80");
  /* The characters XML allows at the edges of its ranges. */
  assert_arn (ARN_DOC ("x&#9;&#xA;&#xD;&#x20;&#xD7FF;&#xE000;&#xFFFD;&#x10000;&#x10FFFF;x"),
              "x\t\n\r \xed\x9f\xbf\xee\x80\x80\xef\xbf\xbd\xf0\x90\x80\x80\xf4\x8f\xbf\xbfx");
  /* A reference is text, never markup. */
  assert_arn (ARN_DOC ("&lt;/Arn&gt;&lt;![CDATA[x]]&gt;"), "</Arn><![CDATA[x]]>");
  /* Refused: a character XML does not allow, an undefined entity, a malformed reference. */
  assert_arn (ARN_DOC ("&#0;"), NULL);
  assert_arn (ARN_DOC ("&#1;"), NULL);
  assert_arn (ARN_DOC ("&#x1F;"), NULL);
  assert_arn (ARN_DOC ("&#xD800;"), NULL);
  assert_arn (ARN_DOC ("&#xDFFF;"), NULL);
  assert_arn (ARN_DOC ("&#xFFFE;"), NULL);
  assert_arn (ARN_DOC ("&#xFFFF;"), NULL);
  assert_arn (ARN_DOC ("&#x110000;"), NULL);
  assert_arn (ARN_DOC ("&#99999999999999999999999;"), NULL);
  assert_arn (ARN_DOC ("&#xFFFFFFFF00000041;"), NULL);
  assert_arn (ARN_DOC ("&#X41;"), NULL);
  assert_arn (ARN_DOC ("&#x;"), NULL);
  assert_arn (ARN_DOC ("&#;"), NULL);
  assert_arn (ARN_DOC ("&#65"), NULL);
  assert_arn (ARN_DOC ("&#+65;"), NULL);
  assert_arn (ARN_DOC ("&# 65;"), NULL);
  assert_arn (ARN_DOC ("&#x0x41;"), NULL);
  assert_arn (ARN_DOC ("&nbsp;"), NULL);
  assert_arn (ARN_DOC ("&AMP;"), NULL);
  assert_arn (ARN_DOC ("&amp"), NULL);
  assert_arn (ARN_DOC ("&;"), NULL);
  assert_arn (ARN_DOC ("a & b"), NULL);
}

static void
test_cdata (void)
{
  GError *error = NULL;
  const char *doc = "<AssumeRoleResponse><AssumeRoleResult><Credentials>"
                    "<AccessKeyId><![CDATA[ASIA]]>EXAMPLE</AccessKeyId>"
                    "<SecretAccessKey><![CDATA[" SECRET_MARK "<&>]]]]><![CDATA[>x]]>"
                    "</SecretAccessKey>"
                    "<SessionToken><![CDATA[]]></SessionToken>"
                    "<Expiration>  <![CDATA[2030-01-01T00:00:00Z]]>\n</Expiration>"
                    "</Credentials></AssumeRoleResult></AssumeRoleResponse>";
  DdbAwsCredentials *c
      = ddb_sts_parse_credentials ("AssumeRole", 200, doc, strlen (doc), "m", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (c->creds.access_key_id, ==, "ASIAEXAMPLE");
  g_assert_cmpstr (c->creds.secret_access_key, ==, SECRET_MARK "<&>]]>x");
  g_assert_cmpstr (c->creds.session_token, ==, "");
  g_assert_cmpint (c->expiration, ==, timestamp ("2030-01-01T00:00:00Z"));
  ddb_aws_credentials_free (c);

  /* No entities in CDATA; its line ends normalized like any text's. */
  assert_arn (ARN_DOC ("<![CDATA[&amp;&#65;]]>"), "&amp;&#65;");
  assert_arn (ARN_DOC ("a<![CDATA[b\r\nc\rd]]>e"), "ab\nc\nde");
  /* Refused: unterminated, in the wrong case, outside the root. */
  assert_arn (ARN_DOC ("<![CDATA[x]]"), NULL);
  assert_arn (ARN_DOC ("<![CDATA[x"), NULL);
  assert_arn (ARN_DOC ("<![cdata[x]]>"), NULL);
  assert_arn ("<![CDATA[x]]>" ARN_DOC ("a"), NULL);
  assert_arn (ARN_DOC ("a") "<![CDATA[x]]>", NULL);
}

static void
test_comments_and_pis (void)
{
  /* Text around a comment or a processing instruction is one text. */
  assert_arn (ARN_DOC ("ab<!-- a comment, <Arn>x</Arn> & - -->cd<?pi data?>ef<?pi?>gh"),
              "abcdefgh");
  assert_arn ("<!-- before -->\n<?xml-stylesheet href=\"s.xsl\" type=\"text/xsl\"?>\n" ARN_DOC (
                  "a") "\n<!-- after --><?after?>\n \t",
              "a");
  assert_arn (ARN_DOC ("<!---->x<!-- - -->"), "x");
  /* XML: "--" only ends a comment. */
  assert_arn (ARN_DOC ("<!-- a -- b -->"), NULL);
  assert_arn (ARN_DOC ("<!-- a --->"), NULL);
  assert_arn (ARN_DOC ("<!-- a"), NULL);
  assert_arn (ARN_DOC ("<!-- a --"), NULL);
  assert_arn (ARN_DOC ("<!- a -->"), NULL);
  /* A processing instruction has a target, and it is not xml. */
  assert_arn (ARN_DOC ("<?\?>"), NULL);
  assert_arn (ARN_DOC ("<?>"), NULL);
  assert_arn (ARN_DOC ("<?xml version=\"1.0\"?>"), NULL);
  assert_arn (ARN_DOC ("<?XmL x?>"), NULL);
  assert_arn (ARN_DOC ("<?pi"), NULL);
  assert_arn (ARN_DOC ("<?pi x"), NULL);
  assert_arn (ARN_DOC ("<?pi?x?>"), NULL);
}

static void
test_namespaces_and_attributes (void)
{
  char *arn = NULL;

  /* Namespace declarations are attributes, in either quote, with spaces around "=". The
   * paths are the innermost elements', whatever the root. */
  arn = arn_of ("<sts:Envelope xmlns:sts='" NS "' xmlns = \"" NS "\" >"
                "<GetCallerIdentityResponse xmlns:a=\"urn:a\" a:x='1&amp;&#x32;' b=\"'\" c='\"'>"
                "<GetCallerIdentityResult\n\txmlns=\"" NS "\"\r\n><Arn a=\">\">x</Arn>"
                "</GetCallerIdentityResult></GetCallerIdentityResponse></sts:Envelope>",
                0);
  g_assert_cmpstr (arn, ==, "x");
  g_free (arn);
  /* Names are compared whole, prefix and all. */
  assert_arn ("<r xmlns:s='" NS "'><s:GetCallerIdentityResult><Arn>x</Arn>"
              "</s:GetCallerIdentityResult></r>",
              NO_ARN);
  /* Refused: an attribute twice, without a value or a space before it, a "<" in a value. */
  assert_arn ("<r a='1' a='2'><GetCallerIdentityResult><Arn>x</Arn></GetCallerIdentityResult></r>",
              NULL);
  assert_arn ("<r xmlns='a' xmlns='a'><GetCallerIdentityResult><Arn>x</Arn>"
              "</GetCallerIdentityResult></r>",
              NULL);
  assert_arn ("<r a><GetCallerIdentityResult><Arn>x</Arn></GetCallerIdentityResult></r>", NULL);
  assert_arn ("<r a=><GetCallerIdentityResult><Arn>x</Arn></GetCallerIdentityResult></r>", NULL);
  assert_arn ("<r a=b><GetCallerIdentityResult><Arn>x</Arn></GetCallerIdentityResult></r>", NULL);
  assert_arn ("<r a='1'b='2'><GetCallerIdentityResult><Arn>x</Arn></GetCallerIdentityResult></r>",
              NULL);
  assert_arn ("<r a='<'><GetCallerIdentityResult><Arn>x</Arn></GetCallerIdentityResult></r>", NULL);
  assert_arn ("<r a='&nbsp;'><GetCallerIdentityResult><Arn>x</Arn></GetCallerIdentityResult></r>",
              NULL);
  assert_arn ("<r a='1></r>", NULL);
  assert_arn ("<r 1a='1'></r>", NULL);
}

static void
test_elements (void)
{
  const char *doc = "<GetCallerIdentityResponse><GetCallerIdentityResult><UserId/><Account />"
                    "<Arn>a<b/>c</Arn></GetCallerIdentityResult><ResponseMetadata/>"
                    "</GetCallerIdentityResponse>";
  char *arn = NULL, *account = NULL, *user_id = NULL;
  GError *error = NULL;

  /* Self-closing tags, with and without a space, and an empty field. */
  g_assert_true (
      ddb_sts_parse_caller_identity (200, doc, strlen (doc), &arn, &account, &user_id, &error));
  g_assert_no_error (error);
  /* The text after an element's last child is its text (as it was with GMarkup). */
  g_assert_cmpstr (arn, ==, "c");
  g_assert_cmpstr (account, ==, "");
  g_assert_cmpstr (user_id, ==, "");
  g_free (arn);
  g_free (account);
  g_free (user_id);

  /* White space in an end tag, non-ASCII names (XML's NameStartChar and NameChar). */
  assert_arn ("<GetCallerIdentityResponse\n><GetCallerIdentityResult><\xc3\xa9l\xc2\xb7-.9 />"
              "<Arn>x</Arn\n\t></GetCallerIdentityResult  ></GetCallerIdentityResponse>",
              "x");
  /* Refused: mismatched, unterminated, unopened, nameless; text or a second element outside
   * the root. */
  assert_arn (ARN_DOC ("<a></b>"), NULL);
  assert_arn (ARN_DOC ("<a>"), NULL);
  assert_arn (ARN_DOC ("</a>"), NULL);
  assert_arn (ARN_DOC ("<a"), NULL);
  assert_arn (ARN_DOC ("<a/"), NULL);
  assert_arn (ARN_DOC ("<a/ >"), NULL);
  assert_arn (ARN_DOC ("<>"), NULL);
  assert_arn (ARN_DOC ("< a/>"), NULL);
  assert_arn (ARN_DOC ("<1a/>"), NULL);
  assert_arn (ARN_DOC ("<-a/>"), NULL);
  assert_arn (ARN_DOC ("<a></a"), NULL);
  assert_arn (ARN_DOC ("<a></ a>"), NULL);
  assert_arn (ARN_DOC ("<a></a b>"), NULL);
  assert_arn ("<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>x</Arn>"
              "</GetCallerIdentityResult>",
              NULL);
  assert_arn ("x" ARN_DOC ("a"), NULL);
  assert_arn (ARN_DOC ("a") "x", NULL);
  assert_arn (ARN_DOC ("a") "<r/>", NULL);
  assert_arn (ARN_DOC ("a") "&amp;", NULL);
  assert_arn (ARN_DOC ("a") "</GetCallerIdentityResponse>", NULL);
  assert_arn (ARN_DOC ("]]>"), NULL);
  assert_arn (ARN_DOC ("a]]>b"), NULL);
  /* But "]]" and ">" alone are text. */
  assert_arn (ARN_DOC ("]] > ]>"), "]] > ]>");
  /* A document type declaration (STS sends none; its entities are refused with it). */
  assert_arn ("<!DOCTYPE GetCallerIdentityResponse>" ARN_DOC ("a"), NULL);
  assert_arn ("<!DOCTYPE r [<!ENTITY e 'x'>]>" ARN_DOC ("&e;"), NULL);
  /* Nothing, or nothing but white space and comments. */
  g_assert_null (arn_of ("", 0));
  g_assert_false (ddb_sts_parse_caller_identity (200, NULL, 0, NULL, NULL, NULL, &error));
  g_assert_cmpstr (error->message, ==, NOT_XML);
  g_clear_error (&error);
  assert_arn (" \n\t", NULL);
  assert_arn ("<!-- -->", NULL);
  assert_arn ("<?pi?>", NULL);
}

static void
test_declaration (void)
{
  assert_arn ("<?xml version=\"1.0\"?>" ARN_DOC ("a"), "a");
  assert_arn ("<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n" ARN_DOC ("a"), "a");
  assert_arn ("<?xml\tversion = \"1.1\"\nstandalone=\"no\"?>" ARN_DOC ("a"), "a");
  /* A byte order mark before it, or before the root. */
  assert_arn ("\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"UTF-8\"?>" ARN_DOC ("a"), "a");
  assert_arn ("\xef\xbb\xbf" ARN_DOC ("a"), "a");
  /* Refused: not at the very start, another version or encoding (the reader reads UTF-8 only),
   * its parts out of order or malformed. */
  assert_arn (" <?xml version=\"1.0\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<!-- x --><?xml version=\"1.0\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.0\"?><?xml version=\"1.0\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"2.0\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.0a\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml encoding=\"UTF-8\" version=\"1.0\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.0\" standalone=\"yes\" encoding=\"UTF-8\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.0\"encoding=\"UTF-8\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.0\" standalone=\"maybe\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.0\" other=\"x\"?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.0\">" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml version=\"1.0" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml ?>" ARN_DOC ("a"), NULL);
  assert_arn ("<?xml?>" ARN_DOC ("a"), NULL);
  assert_arn ("\xef\xbb\xbf\xef\xbb\xbf" ARN_DOC ("a"), NULL);
}

static void
test_characters (void)
{
  static const char nul[] = ARN_DOC ("a\0b");
  static const char nul_after[] = ARN_DOC ("a") "\0";

  /* Line ends: \r\n and a lone \r are \n; a referenced \r stays. */
  assert_arn (ARN_DOC ("a\r\nb\rc\n\rd&#13;e\r\n"), "a\nb\nc\n\nd\re");
  /* Any UTF-8 character XML allows, C1 controls included. */
  assert_arn (ARN_DOC ("\xc2\x85\xc2\x9f\xef\xbf\xbd\xf4\x8f\xbf\xbf\x7f"),
              "\xc2\x85\xc2\x9f\xef\xbf\xbd\xf4\x8f\xbf\xbf\x7f");
  /* Refused: a NUL, other C0 controls, invalid UTF-8 (even in a comment), U+FFFE and U+FFFF,
   * surrogates and overlong forms. */
  g_assert_null (arn_of (nul, sizeof nul - 1));
  g_assert_null (arn_of (nul_after, sizeof nul_after - 1));
  assert_arn (ARN_DOC ("a\x01"), NULL);
  assert_arn (ARN_DOC ("a\x0b"), NULL);
  assert_arn (ARN_DOC ("a\x0c"), NULL);
  assert_arn (ARN_DOC ("a\x1f"), NULL);
  assert_arn (ARN_DOC ("a\xff"), NULL);
  assert_arn (ARN_DOC ("a\xc3"), NULL);
  assert_arn (ARN_DOC ("<!-- \xff -->"), NULL);
  assert_arn (ARN_DOC ("\xef\xbf\xbe"), NULL);
  assert_arn (ARN_DOC ("\xef\xbf\xbf"), NULL);
  assert_arn (ARN_DOC ("\xed\xa0\x80"), NULL);
  assert_arn (ARN_DOC ("\xc0\xbc"), NULL);
  assert_arn (ARN_DOC ("\xf4\x90\x80\x80"), NULL);
}

/* Elements DEPTH deep, the innermost an Arn in a GetCallerIdentityResult. */
static char *
nested (guint depth)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < depth - 2; i++)
    g_string_append (s, "<e>");
  g_string_append (s, "<GetCallerIdentityResult><Arn>deep</Arn></GetCallerIdentityResult>");
  for (guint i = 0; i < depth - 2; i++)
    g_string_append (s, "</e>");
  return g_string_free (s, FALSE);
}

static void
test_limits (void)
{
  char *doc = nested (64);
  GString *big;
  char *arn;
  GError *error = NULL;
  DdbAwsCredentials *c;

  assert_arn (doc, "deep");
  g_free (doc);
  doc = nested (65);
  assert_arn (doc, NULL);
  g_free (doc);

  /* A megabyte in all, not a byte more. */
  big = g_string_new (ARN_DOC ("a"));
  while (big->len < 1024 * 1024)
    g_string_append_c (big, ' ');
  arn = arn_of (big->str, big->len);
  g_assert_cmpstr (arn, ==, "a");
  g_free (arn);
  g_string_append_c (big, ' ');
  g_assert_null (arn_of (big->str, big->len));
  g_string_free (big, TRUE);

  /* A session token of 200 kB (STS makes no promise of a maximum size). */
  big = g_string_new ("<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>A"
                      "</AccessKeyId><SecretAccessKey>S</SecretAccessKey><SessionToken>");
  for (guint i = 0; i < 200 * 1024 / 8; i++)
    g_string_append (big, "T0k/n+==");
  g_string_append (big, "</SessionToken><Expiration>2030-01-01T00:00:00Z</Expiration>"
                        "</Credentials></AssumeRoleResult></AssumeRoleResponse>");
  c = ddb_sts_parse_credentials ("AssumeRole", 200, big->str, big->len, "m", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (c->creds.session_token), ==, 200 * 1024);
  ddb_aws_credentials_free (c);
  g_string_free (big, TRUE);

  /* 32 attributes, not 33. */
  big = g_string_new ("<r");
  for (guint i = 0; i < 32; i++)
    g_string_append_printf (big, " a%u='%u'", i, i);
  g_string_append (big, "><GetCallerIdentityResult><Arn>x</Arn></GetCallerIdentityResult></r>");
  assert_arn (big->str, "x");
  g_string_insert (big, 2, " z=''");
  assert_arn (big->str, NULL);
  g_string_free (big, TRUE);
}

/* ---- The paths the fields are taken from ---- */

static void
test_paths (void)
{
  GError *error = NULL;
  DdbAwsCredentials *c;
  const char *twice
      = "<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>A</AccessKeyId>"
        "<SecretAccessKey>first</SecretAccessKey></Credentials></AssumeRoleResult>"
        "<AssumeRoleResult><Credentials><AccessKeyId>B</AccessKeyId>"
        "<SecretAccessKey>second</SecretAccessKey><SessionToken>T</SessionToken>"
        "<Expiration>2030-01-01T00:00:00Z</Expiration></Credentials></AssumeRoleResult>"
        "</AssumeRoleResponse>";
  const char *elsewhere
      = "<AssumeRoleResponse><Credentials><AccessKeyId>A</AccessKeyId></Credentials>"
        "<AssumeRoleResult><Other><Credentials><SecretAccessKey>S</SecretAccessKey>"
        "</Credentials></Other><AccessKeyId>A</AccessKeyId><Credentials><SessionToken>T"
        "</SessionToken><Expiration>2030-01-01T00:00:00Z</Expiration><x><AccessKeyId>A"
        "</AccessKeyId></x></Credentials></AssumeRoleResult></AssumeRoleResponse>";
  const char *unclosed = "<ErrorResponse><Error><Code>AccessDenied</Code></Error>";
  const char *deep_error
      = "<Response><Errors><Error><Code>Throttling</Code><Message>Rate &amp; limit\r\n"
        "</Message></Error><Error><Code>Second</Code></Error></Errors></Response>";

  /* A field given twice: the later one (as with GMarkup). */
  c = ddb_sts_parse_credentials ("AssumeRole", 200, twice, strlen (twice), "m", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (c->creds.access_key_id, ==, "B");
  g_assert_cmpstr (c->creds.secret_access_key, ==, "second");
  ddb_aws_credentials_free (c);

  /* Credentials count only as <Operation>Result/Credentials/<Field>. */
  c = ddb_sts_parse_credentials ("AssumeRole", 200, elsewhere, strlen (elsewhere), "m", &error);
  g_assert_null (c);
  g_assert_cmpstr (error->message, ==, "The AssumeRole response from STS has no credentials");
  g_clear_error (&error);

  /* An error's Code and Message at any depth, untrimmed; the last Code, the last Message. */
  c = ddb_sts_parse_credentials ("AssumeRole", 400, deep_error, strlen (deep_error), "m", &error);
  g_assert_null (c);
  g_assert_cmpstr (error->message, ==,
                   "An error occurred (Second) when calling the AssumeRole operation: Rate & "
                   "limit\n");
  g_clear_error (&error);

  /* A malformed error answer: the status only, whatever it held. */
  c = ddb_sts_parse_credentials ("AssumeRole", 403, unclosed, strlen (unclosed), "m", &error);
  g_assert_null (c);
  g_assert_cmpstr (error->message, ==,
                   "An error occurred (403) when calling the AssumeRole operation");
  g_clear_error (&error);

  /* A malformed success answer: "not XML", though it had all the fields before the fault. */
  {
    const char *broken = "<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>A"
                         "</AccessKeyId><SecretAccessKey>" SECRET_MARK "</SecretAccessKey>"
                         "<SessionToken>T</SessionToken><Expiration>2030-01-01T00:00:00Z"
                         "</Expiration></Credentials></AssumeRoleResult></Oops>";

    c = ddb_sts_parse_credentials ("AssumeRole", 200, broken, strlen (broken), "m", &error);
    g_assert_null (c);
    g_assert_cmpstr (error->message, ==, "The AssumeRole response from STS is not XML");
    g_assert_null (strstr (error->message, SECRET_MARK));
    g_clear_error (&error);
  }
}

/* ---- Form bodies ---- */

static void
test_bodies (void)
{
  GString *all = g_string_new (NULL);
  char *escaped, *expected, *body;

  for (guint c = 1; c < 256; c++)
    g_string_append_c (all, (char) c);
  escaped = g_uri_escape_string (all->str, NULL, FALSE);

  /* Every byte escaped as g_uri_escape_string escapes it. */
  body = ddb_sts_assume_role_body ("arn:aws:iam::1:role/r", all->str, "ext", 900, "serial/1",
                                   all->str);
  expected = g_strconcat ("Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A1"
                          "%3Arole%2Fr&RoleSessionName=",
                          escaped, "&DurationSeconds=900&ExternalId=ext&SerialNumber=serial%2F1",
                          "&TokenCode=", escaped, NULL);
  g_assert_cmpstr (body, ==, expected);
  g_free (expected);
  g_free (body);

  body = ddb_sts_assume_role_body ("r", "s", NULL, 0, "arn:aws:iam::1:mfa/me", "123456");
  g_assert_cmpstr (body, ==,
                   "Action=AssumeRole&Version=2011-06-15&RoleArn=r&RoleSessionName=s"
                   "&DurationSeconds=0&SerialNumber=arn%3Aaws%3Aiam%3A%3A1%3Amfa%2Fme"
                   "&TokenCode=123456");
  g_free (body);

  body = ddb_sts_web_identity_body ("arn:aws:iam::1:role/w", "s-1_2.3~", all->str, -1);
  expected = g_strconcat ("Action=AssumeRoleWithWebIdentity&Version=2011-06-15&RoleArn=arn%3Aaws"
                          "%3Aiam%3A%3A1%3Arole%2Fw&RoleSessionName=s-1_2.3~&WebIdentityToken=",
                          escaped, NULL);
  g_assert_cmpstr (body, ==, expected);
  g_free (expected);
  g_free (body);

  body = ddb_sts_web_identity_body ("r", "s", "eyJ.x.y", 3600);
  g_assert_cmpstr (body, ==,
                   "Action=AssumeRoleWithWebIdentity&Version=2011-06-15&RoleArn=r"
                   "&RoleSessionName=s&WebIdentityToken=eyJ.x.y&DurationSeconds=3600");
  g_free (body);
  g_free (escaped);
  g_string_free (all, TRUE);
}

/* ---- Against GMarkup ---- */

typedef struct {
  const char *name;
  const char *doc;
  gsize len; /* 0: strlen */
  gboolean ours, gmarkup;
} Case;

#define CREDS_DOC(secret) \
  "<AssumeRoleResponse xmlns=\"" NS "\"><AssumeRoleResult><Credentials>" \
  "<AccessKeyId>ASIAX</AccessKeyId><SecretAccessKey>" secret "</SecretAccessKey>" \
  "<SessionToken>tok</SessionToken><Expiration>2030-01-01T00:00:00Z</Expiration>" \
  "</Credentials></AssumeRoleResult></AssumeRoleResponse>"

#define ERROR_DOC(message) \
  "<ErrorResponse xmlns=\"" NS "\"><Error><Type>Sender</Type><Code>ValidationError</Code>" \
  "<Message>" message "</Message></Error><RequestId>r</RequestId></ErrorResponse>"

/* Where the two readers agree, and where they do not and why. */
static const Case cases[] = {
  /* Both take them. */
  { "plain", CREDS_DOC (SECRET_MARK), 0, TRUE, TRUE },
  { "declaration", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" CREDS_DOC ("s"), 0, TRUE, TRUE },
  { "declaration-quotes", "<?xml version='1.0' standalone='no' ?>" CREDS_DOC ("s"), 0, TRUE, TRUE },
  { "comments-pis", "<!-- c --><?pi x?>\n" CREDS_DOC ("a<!-- - -->b<?p?>c") "<!----><?e?> ", 0,
    TRUE, TRUE },
  { "entities", CREDS_DOC ("&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#xe9;&#x1F600;&#133;"), 0, TRUE,
    TRUE },
  { "cdata", CREDS_DOC (" <![CDATA[a<b>&amp;]]]]><![CDATA[>]]> "), 0, TRUE, TRUE },
  { "cdata-line-ends", CREDS_DOC ("<![CDATA[a\r\nb\rc]]>"), 0, TRUE, TRUE },
  { "line-ends", ERROR_DOC ("a\r\nb\rc&#13;\r"), 0, TRUE, TRUE },
  /* The \r ends a CDATA section, the \n follows it: two line ends (the fuzzer's find). */
  { "cdata-cr-then-newline", ERROR_DOC ("a\n<![CDATA[x\r]]>\n "), 0, TRUE, TRUE },
  { "attributes",
    "<r a='1' b = \"&amp;'\" xmlns:s='" NS "'><s:x/>"
    "<GetCallerIdentityResult><Arn c='>'>arn</Arn></GetCallerIdentityResult></r>",
    0, TRUE, TRUE },
  { "self-closing", "<r><GetCallerIdentityResult><Arn/><Account /></GetCallerIdentityResult></r>",
    0, TRUE, TRUE },
  { "mixed", CREDS_DOC ("a<x>b</x>c<y/>d"), 0, TRUE, TRUE },
  { "c1-controls", CREDS_DOC ("\xc2\x85\xc2\x9f\x7f"), 0, TRUE, TRUE },
  { "trailing-newline", CREDS_DOC ("s") "\n", 0, TRUE, TRUE },
  { "aws-assume-role", NULL, 0, TRUE, TRUE },
  { "aws-web-identity", NULL, 0, TRUE, TRUE },
  { "aws-caller-identity", NULL, 0, TRUE, TRUE },
  { "aws-error", NULL, 0, TRUE, TRUE },

  /* Both refuse them. */
  { "empty", "", 0, FALSE, FALSE },
  { "blank", " \n", 0, FALSE, FALSE },
  { "mismatched", CREDS_DOC ("<a></b>"), 0, FALSE, FALSE },
  { "unclosed", "<ErrorResponse><Error><Code>x</Code></Error>", 0, FALSE, FALSE },
  { "unterminated-tag", "<r><a", 0, FALSE, FALSE },
  { "unterminated-attribute", "<r a='1></r>", 0, FALSE, FALSE },
  { "unterminated-comment", "<r><!-- x</r>", 0, FALSE, FALSE },
  { "unterminated-cdata", "<r><![CDATA[x</r>", 0, FALSE, FALSE },
  { "unterminated-pi", "<r><?pi x</r>", 0, FALSE, FALSE },
  { "text-before", "x<r/>", 0, FALSE, FALSE },
  { "text-after", "<r/>x", 0, FALSE, FALSE },
  { "bad-utf8", CREDS_DOC ("\xff"), 0, FALSE, FALSE },
  { "bare-ampersand", CREDS_DOC ("a & b"), 0, FALSE, FALSE },
  { "unknown-entity", CREDS_DOC ("&nbsp;"), 0, FALSE, FALSE },
  { "nul-reference", CREDS_DOC ("&#0;"), 0, FALSE, FALSE },
  { "surrogate-reference", CREDS_DOC ("&#xD800;"), 0, FALSE, FALSE },
  { "fffe-reference", CREDS_DOC ("&#xFFFE;"), 0, FALSE, FALSE },
  { "big-reference", CREDS_DOC ("&#x110000;"), 0, FALSE, FALSE },
  { "no-semicolon", CREDS_DOC ("&#65"), 0, FALSE, FALSE },
  { "attribute-no-value", "<r a></r>", 0, FALSE, FALSE },
  { "close-only", "</r>", 0, FALSE, FALSE },

  /* GMarkup takes them, XML 1.0 does not (nor the reader). */
  { "nul", CREDS_DOC ("a\0b"), sizeof CREDS_DOC ("a\0b") - 1, FALSE, TRUE },
  { "c0-control", CREDS_DOC ("a\x01"), 0, FALSE, TRUE },
  { "c0-reference", CREDS_DOC ("&#1;"), 0, FALSE, TRUE },
  { "fffe", CREDS_DOC ("\xef\xbf\xbe"), 0, FALSE, TRUE },
  { "reference-sign", CREDS_DOC ("&#+65;"), 0, FALSE, TRUE },
  { "reference-space", CREDS_DOC ("&# 65;"), 0, FALSE, TRUE },
  { "reference-0x", CREDS_DOC ("&#x0x41;"), 0, FALSE, TRUE },
  { "cdata-end-in-text", CREDS_DOC ("a]]>b"), 0, FALSE, TRUE },
  { "double-dash-comment", CREDS_DOC ("a<!-- -- -->b"), 0, FALSE, TRUE },
  { "empty-pi", CREDS_DOC ("a<?>b"), 0, FALSE, TRUE },
  { "bad-utf8-comment", CREDS_DOC ("a<!-- \xff -->b"), 0, FALSE, TRUE },
  { "lt-in-attribute", "<r a='<'/>", 0, FALSE, TRUE },
  { "attribute-twice", "<r a='1' a='2'/>", 0, FALSE, TRUE },
  { "attributes-unspaced", "<r a='1'b='2'/>", 0, FALSE, TRUE },
  { "no-root-comment", "<!-- -->", 0, FALSE, TRUE },
  { "no-root-pi", " <?pi x?>\n", 0, FALSE, TRUE },
  { "two-roots", "<r/><r/>", 0, FALSE, TRUE },
  { "two-answers", ERROR_DOC ("one") ERROR_DOC ("two"), 0, FALSE, TRUE },
  { "cdata-outside", "<![CDATA[x]]><r/>", 0, FALSE, TRUE },
  { "declaration-late", " <?xml version=\"1.0\"?><r/>", 0, FALSE, TRUE },
  { "declaration-twice", "<?xml version=\"1.0\"?><?xml version=\"1.0\"?><r/>", 0, FALSE, TRUE },
  { "declaration-empty", "<?xml?><r/>", 0, FALSE, TRUE },
  { "version-2", "<?xml version=\"2.0\"?><r/>", 0, FALSE, TRUE },
  /* XML allows these, the reader refuses them. Another encoding: GMarkup reads it as UTF-8
   * regardless, the reader reads UTF-8 only. A document type declaration: STS sends none, and
   * its internal subset may declare entities (billion laughs) that GMarkup would not expand
   * anyway. And the limits. */
  { "latin1", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r/>", 0, FALSE, TRUE },
  { "doctype", "<!DOCTYPE r><r/>", 0, FALSE, TRUE },
  { "deep", NULL, 0, FALSE, TRUE },
  { "attributes-33", NULL, 0, FALSE, TRUE },

  /* XML takes them, GMarkup does not (nor does it know the byte order mark or all names). */
  { "bom", "\xef\xbb\xbf<r/>", 0, TRUE, FALSE },
  { "name-chars", "<r\xc2\xb7\xcc\x80\xe2\x80\xbf/>", 0, TRUE, FALSE },
  /* and the converse: U+00AA is a letter, not a NameStartChar */
  { "name-letter", "<\xc2\xaa/>", 0, FALSE, TRUE },
};

static char *
case_doc (const Case *c, gsize *len)
{
  char *doc = NULL;

  if (c->doc != NULL)
    doc = g_memdup2 (c->doc, c->len != 0 ? c->len + 1 : strlen (c->doc) + 1);
  else if (strcmp (c->name, "aws-assume-role") == 0)
    doc = g_strdup (assume_role_example);
  else if (strcmp (c->name, "aws-web-identity") == 0)
    doc = g_strdup (web_identity_example);
  else if (strcmp (c->name, "aws-caller-identity") == 0)
    doc = g_strdup (caller_identity_example);
  else if (strcmp (c->name, "aws-error") == 0)
    doc = g_strdup (error_example);
  else if (strcmp (c->name, "deep") == 0)
    doc = nested (65);
  else if (strcmp (c->name, "attributes-33") == 0)
    {
      GString *s = g_string_new ("<r");

      for (guint i = 0; i < 33; i++)
        g_string_append_printf (s, " a%u='%u'", i, i);
      g_string_append (s, "/>");
      doc = g_string_free (s, FALSE);
    }
  g_assert_nonnull (doc);
  *len = c->len != 0 ? c->len : strlen (doc);
  return doc;
}

static void
test_gmarkup (void)
{
  static const guint statuses[] = { 200, 400, 403, 503 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize len;
      char *doc = case_doc (&cases[i], &len);
      gboolean ours = sts_ours_accepts (doc, len);
      gboolean gmarkup = sts_reference_accepts (doc, len);

      g_test_message ("%s: ours %d, GMarkup %d", cases[i].name, ours, gmarkup);
      if (ours != cases[i].ours || gmarkup != cases[i].gmarkup)
        g_error ("%s: ours %s it, GMarkup %s it", cases[i].name, ours ? "takes" : "refuses",
                 gmarkup ? "takes" : "refuses");
      if (ours && gmarkup)
        for (guint s = 0; s < G_N_ELEMENTS (statuses); s++)
          {
            char *diff = sts_outcome_compare (doc, len, statuses[s]);

            if (diff != NULL)
              g_error ("%s: %s", cases[i].name, diff);
          }
      g_free (doc);
    }
}

/* GMarkup ends a comment at "<!-->": both take the document, and read different text. XML's
 * reading is the reader's. */
static void
test_gmarkup_comments (void)
{
  const char *doc = ARN_DOC ("a<!-->b-->c<!--->d-->e");
  char *ours = sts_outcome_ours ("GetCallerIdentity", 200, doc, strlen (doc));
  char *reference = sts_outcome_reference ("GetCallerIdentity", 200, doc, strlen (doc));

  g_assert_true (sts_reference_misreads_comments (doc, strlen (doc)));
  g_assert_cmpstr (ours, ==, "identity 3:ace - -");
  g_assert_cmpstr (reference, ==, "identity 11:ab-->cd-->e - -");
  g_free (ours);
  g_free (reference);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_writer_default_set_use_stderr (TRUE);
  g_test_add_func ("/net/sts/aws-examples", test_aws_examples);
  g_test_add_func ("/net/sts/reader/entities", test_entities);
  g_test_add_func ("/net/sts/reader/cdata", test_cdata);
  g_test_add_func ("/net/sts/reader/comments-pis", test_comments_and_pis);
  g_test_add_func ("/net/sts/reader/namespaces-attributes", test_namespaces_and_attributes);
  g_test_add_func ("/net/sts/reader/elements", test_elements);
  g_test_add_func ("/net/sts/reader/declaration", test_declaration);
  g_test_add_func ("/net/sts/reader/characters", test_characters);
  g_test_add_func ("/net/sts/reader/limits", test_limits);
  g_test_add_func ("/net/sts/paths", test_paths);
  g_test_add_func ("/net/sts/bodies", test_bodies);
  g_test_add_func ("/net/sts/gmarkup", test_gmarkup);
  g_test_add_func ("/net/sts/gmarkup-comments", test_gmarkup_comments);
  return g_test_run ();
}
