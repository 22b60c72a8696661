/* cyctop serve's HTTP side (engine/http.h): libmicrohttpd parses and
 * answers; this file checks the method and the token and turns a handler's
 * reply into a response.  No other file talks HTTP.  libmicrohttpd is
 * loaded by the first http_start (engine/lib-load.c): linked, it and the
 * TLS libraries it needs cost every start of cyctop 5 ms of CPU, and only
 * cyctop serve listens. */
#include "config.h"

#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "engine/http.h"
#include "engine/lib-load.h"

/* libmicrohttpd's entry points: one library image a process, loaded once
 * and kept (its threads call back into this file until http_stop). */
static struct {
	struct lib_image image;
	LIB_FN(MHD_start_daemon);
	LIB_FN(MHD_stop_daemon);
	LIB_FN(MHD_get_daemon_info);
	LIB_FN(MHD_is_feature_supported);
	LIB_FN(MHD_lookup_connection_value);
	LIB_FN(MHD_create_response_from_buffer);
	LIB_FN(MHD_add_response_header);
	LIB_FN(MHD_queue_response);
	LIB_FN(MHD_destroy_response);
} mhd = { .image = { .soname = MHD_SONAME } };

/* 0, or -1 with the line that says the library cannot be loaded. */
static int load_mhd(char *err, size_t errsz)
{
	const struct lib_sym sym[] = {
		LIB_SYM(mhd, MHD_start_daemon),
		LIB_SYM(mhd, MHD_stop_daemon),
		LIB_SYM(mhd, MHD_get_daemon_info),
		LIB_SYM(mhd, MHD_is_feature_supported),
		LIB_SYM(mhd, MHD_lookup_connection_value),
		LIB_SYM(mhd, MHD_create_response_from_buffer),
		LIB_SYM(mhd, MHD_add_response_header),
		LIB_SYM(mhd, MHD_queue_response),
		LIB_SYM(mhd, MHD_destroy_response),
	};

	return lib_load(&mhd.image, sym, sizeof(sym) / sizeof(sym[0]), err, errsz);
}

struct http {
	struct MHD_Daemon *d;
	char *token;
	http_handler_fn *handler;
	void *arg;
};

const char *http_query(const struct http_request *r, const char *key)
{
	return mhd.MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, key);
}

static enum MHD_Result queue(struct MHD_Connection *c, int status, const char *type,
			     struct MHD_Response *resp)
{
	if (!resp)
		return MHD_NO;
	if (type)
		mhd.MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	enum MHD_Result rc = mhd.MHD_queue_response(c, (unsigned)status, resp);
	mhd.MHD_destroy_response(resp);
	return rc;
}

static enum MHD_Result text(struct MHD_Connection *c, int status, const char *msg)
{
	struct MHD_Response *r = mhd.MHD_create_response_from_buffer(strlen(msg), (void *)msg,
								     MHD_RESPMEM_PERSISTENT);
	if (r && status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (r && status == MHD_HTTP_UNAUTHORIZED)
		mhd.MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
	return queue(c, status, "text/plain; charset=utf-8", r);
}

/* Whether the request carries "Authorization: Bearer TOKEN", compared in a
 * time that does not depend on where it differs. */
static bool authorized(const struct http *h, struct MHD_Connection *c)
{
	if (!h->token)
		return true;
	const char *a = mhd.MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						        MHD_HTTP_HEADER_AUTHORIZATION);
	if (!a || strncmp(a, "Bearer ", 7) != 0)
		return false;
	a += 7;
	size_t n = strlen(h->token), m = strlen(a);
	unsigned char diff = n != m;
	for (size_t i = 0; i < n; i++)
		diff |= (unsigned char)(h->token[i] ^ (i < m ? a[i] : 0));
	return diff == 0;
}

/* The reply's body, made now (a reply with WAIT blocks this connection's
 * thread until it is ready: one thread per connection, the others go on). */
static struct MHD_Response *response(struct http_reply *r)
{
	if (r->wait) {
		int rc = r->wait(r->arg, &r->body, &r->len);
		if (r->done)
			r->done(r->arg);
		if (rc < 0) {
			free(r->body);
			return NULL;
		}
	}
	return mhd.MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **con_cls)
{
	struct http *h = cls;

	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n");
	if (*upload_size) {
		*upload_size = 0;      /* a GET's body: read and dropped */
		return MHD_YES;
	}
	if (!authorized(h, c))
		return text(c, MHD_HTTP_UNAUTHORIZED, "a bearer token is wanted\n");
	const char *accept = mhd.MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							     MHD_HTTP_HEADER_ACCEPT);
	struct http_request req = { method, url, accept ? accept : "", c };
	struct http_reply r = { .status = MHD_HTTP_NOT_FOUND };
	h->handler(h->arg, &req, &r);
	struct MHD_Response *resp = response(&r);
	if (resp && r.disposition)
		mhd.MHD_add_response_header(resp, "Content-Disposition", r.disposition);
	return queue(c, r.status, r.type, resp);
}

/* HOST:PORT or [HOST]:PORT into an address; -1 with one line in ERR. */
static int resolve(const char *listen, struct addrinfo **out, char *err, size_t errsz)
{
	char host[256];
	const char *colon = strrchr(listen, ':');
	const char *h = listen;
	size_t hl = colon ? (size_t)(colon - listen) : 0;

	if (!colon || hl == 0 || !colon[1] || hl >= sizeof(host)) {
		snprintf(err, errsz, "--listen %s: want HOST:PORT (127.0.0.1:9464)", listen);
		return -1;
	}
	if (h[0] == '[' && hl > 2 && h[hl - 1] == ']') {
		h++;
		hl -= 2;
	}
	snprintf(host, sizeof(host), "%.*s", (int)hl, h);
	struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICSERV,
				  .ai_socktype = SOCK_STREAM };
	int rc = getaddrinfo(host, colon + 1, &hints, out);
	if (rc != 0) {
		snprintf(err, errsz, "--listen %s: %s", listen, gai_strerror(rc));
		return -1;
	}
	return 0;
}

struct http *http_start(const struct http_opts *o, char *err, size_t errsz)
{
	struct addrinfo *ai;
	bool tls = o->tls_cert && o->tls_key;

	if (load_mhd(err, errsz) < 0)
		return NULL;
	if (tls && mhd.MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(err, errsz, "--tls-cert: this libmicrohttpd was built without TLS");
		return NULL;
	}
	if (resolve(o->listen, &ai, err, errsz) < 0)
		return NULL;
	struct http *h = calloc(1, sizeof(*h));
	if (!h || (o->token && !(h->token = strdup(o->token)))) {
		snprintf(err, errsz, "out of memory");
		free(h);
		freeaddrinfo(ai);
		return NULL;
	}
	h->handler = o->handler;
	h->arg = o->arg;
	unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
			 (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0) | (tls ? MHD_USE_TLS : 0);
	struct MHD_OptionItem opts[] = {
		{ MHD_OPTION_SOCK_ADDR, 0, ai->ai_addr },
		{ MHD_OPTION_CONNECTION_LIMIT, HTTP_CONNECTIONS_DEFAULT, NULL },
		{ MHD_OPTION_PER_IP_CONNECTION_LIMIT, HTTP_CONNECTIONS_DEFAULT / 2, NULL },
		{ MHD_OPTION_CONNECTION_TIMEOUT, HTTP_TIMEOUT_DEFAULT, NULL },
		{ MHD_OPTION_CONNECTION_MEMORY_LIMIT, HTTP_REQUEST_BYTES_MAX, NULL },
		{ tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, (void *)o->tls_cert },
		{ tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, (void *)o->tls_key },
		{ MHD_OPTION_END, 0, NULL },
	};
	h->d = mhd.MHD_start_daemon(flags, 0, NULL, NULL, answer, h, MHD_OPTION_ARRAY, opts,
				    MHD_OPTION_END);
	freeaddrinfo(ai);
	if (!h->d) {
		snprintf(err, errsz, "--listen %s: cannot listen there (in use, or not this "
			 "machine's address%s)", o->listen, tls ? ", or a bad certificate or key" : "");
		free(h->token);
		free(h);
		return NULL;
	}
	return h;
}

int http_port(const struct http *h)
{
	const union MHD_DaemonInfo *i = mhd.MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);

	return i ? i->port : 0;
}

void http_stop(struct http *h)
{
	if (!h)
		return;
	mhd.MHD_stop_daemon(h->d);
	free(h->token);
	free(h);
}
