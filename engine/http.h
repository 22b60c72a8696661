/* cyctop serve's HTTP side, through libmicrohttpd: one thread per
 * connection (a profile request may wait its seconds without holding up
 * the others), GET and HEAD only, an optional bearer token, optional TLS,
 * and bounds on connections, request size and idle time. */
#ifndef ENGINE_HTTP_H
#define ENGINE_HTTP_H

#include <stdbool.h>
#include <stddef.h>

struct http_request {
	const char *method;   /* "GET" or "HEAD": the others are refused here */
	const char *path;
	const char *accept;   /* the Accept header, "" when none */
	void *conn;           /* for http_query */
};
/* Query argument KEY of R, NULL when absent. */
const char *http_query(const struct http_request *r, const char *key);

/* What a handler answers: STATUS, TYPE and BODY (malloc'd, freed here), or
 * a body made later: WAIT is called from the connection's thread when the
 * answer is sent and may block until it has BODY (malloc'd; returns -1:
 * none, the connection is closed); DONE then releases ARG. */
struct http_reply {
	int status;
	const char *type;
	const char *disposition;   /* Content-Disposition, or NULL */
	char *body;
	size_t len;
	int (*wait)(void *arg, char **body, size_t *len);
	void (*done)(void *arg);
	void *arg;
};
typedef void http_handler_fn(void *arg, const struct http_request *r, struct http_reply *out);

#define HTTP_CONNECTIONS_DEFAULT 16
#define HTTP_TIMEOUT_DEFAULT 10         /* seconds a connection may be idle */
#define HTTP_REQUEST_BYTES_MAX (16u << 10)

struct http_opts {
	const char *listen;        /* HOST:PORT; [V6ADDR]:PORT; port 0: any free one */
	const char *token;         /* the bearer token asked for; NULL: none */
	const char *tls_cert;      /* PEM text of the certificate and key; NULL: HTTP */
	const char *tls_key;
	http_handler_fn *handler;
	void *arg;
};

struct http;
/* Listens and serves from libmicrohttpd's threads.  NULL with one line in
 * ERR (the address, TLS the library lacks). */
struct http *http_start(const struct http_opts *o, char *err, size_t errsz);
/* The port it listens on (port 0 asked for any). */
int http_port(const struct http *h);
/* Stops listening, ends every connection (their WAITs must return). */
void http_stop(struct http *h);

#endif
