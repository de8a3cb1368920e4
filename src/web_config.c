// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include "src/web_config.h"

#ifdef GPUTOP_NO_HTTP
/* The static and portable builds have no endpoint (src/exporter.c says why). */
int web_config_load(const char *path, struct web_config *wc, char *err, size_t errlen)
{
	(void)path;
	memset(wc, 0, sizeof(*wc));
	snprintf(err, errlen, "--web-config: this build has no HTTP server; use the default build ('make')");
	return -1;
}

void web_config_free(struct web_config *wc)
{
	(void)wc;
}

bool web_config_check(const struct web_config *wc, const char *user, const char *password)
{
	(void)wc;
	(void)user;
	(void)password;
	return false;
}
#else
#include <crypt.h>
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <yaml.h>
#include <gnutls/crypto.h>
#include "core/privileges.h"

#define FILE_MAX (1 << 20) /* the config, a certificate or a key: bytes at most */
#define CACHE_SLOTS 8

static void say(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* A whole file, NUL-terminated, read with the user's rights; NULL with errno set. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = privileges_fopen_as_user(path, "re");
	char *buf = f ? malloc(FILE_MAX + 1) : NULL;
	size_t n = 0;
	int e;

	if (!buf) {
		e = errno;
		if (f)
			fclose(f);
		errno = e ? e : ENOMEM;
		return NULL;
	}
	n = fread(buf, 1, FILE_MAX + 1, f);
	e = ferror(f) ? EIO : n > FILE_MAX ? EFBIG : 0;
	fclose(f);
	if (e) {
		free(buf);
		errno = e;
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A path in the config: relative ones from the config file's folder, as exporter-toolkit. */
static char *load_named(const char *config, const char *name, char *err, size_t errlen)
{
	char dir[4096], path[8192], *text;

	if (name[0] == '/') {
		snprintf(path, sizeof(path), "%s", name);
	} else {
		snprintf(dir, sizeof(dir), "%s", config);
		snprintf(path, sizeof(path), "%s/%s", dirname(dir), name);
	}
	text = read_file(path, NULL);
	if (!text)
		say(err, errlen, "--web-config %.200s: cannot read '%.200s': %s", config, path,
		    strerror(errno));
	return text;
}

static int tls_section(yaml_document_t *doc, yaml_node_t *map, const char *path,
		       struct web_config *wc, char *err, size_t errlen)
{
	const char *cert = NULL, *key = NULL;

	if (map->type != YAML_MAPPING_NODE) {
		say(err, errlen, "--web-config %.200s: tls_server_config must be a mapping", path);
		return -1;
	}
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(doc, p->key));
		const char *v = scalar(yaml_document_get_node(doc, p->value));

		if (!k || !v) {
			say(err, errlen, "--web-config %.200s: tls_server_config: every key takes a plain value",
			    path);
			return -1;
		}
		if (!strcmp(k, "cert_file")) {
			cert = v;
		} else if (!strcmp(k, "key_file")) {
			key = v;
		} else if (!strcmp(k, "min_version")) {
			if (strcmp(v, "TLS12") && strcmp(v, "TLS13")) {
				say(err, errlen, "--web-config %.200s: min_version '%.40s': TLS12 or TLS13",
				    path, v);
				return -1;
			}
			wc->tls13_only = !strcmp(v, "TLS13");
		} else {
			say(err, errlen,
			    "--web-config %.200s: tls_server_config: '%.60s' is not supported by gputop-bpf (it takes cert_file, key_file, min_version)",
			    path, k);
			return -1;
		}
	}
	if (!cert || !key) {
		say(err, errlen, "--web-config %.200s: tls_server_config needs both cert_file and key_file",
		    path);
		return -1;
	}
	if (!(wc->cert_pem = load_named(path, cert, err, errlen)) ||
	    !(wc->key_pem = load_named(path, key, err, errlen)))
		return -1;
	return 0;
}

static bool bcrypt_hash(const char *h)
{
	return (!strncmp(h, "$2a$", 4) || !strncmp(h, "$2b$", 4) || !strncmp(h, "$2y$", 4)) &&
	       strlen(h) == 60;
}

static int users_section(yaml_document_t *doc, yaml_node_t *map, const char *path,
			 struct web_config *wc, char *err, size_t errlen)
{
	size_t n = 0;

	if (map->type != YAML_MAPPING_NODE) {
		say(err, errlen, "--web-config %.200s: basic_auth_users must map user names to bcrypt hashes",
		    path);
		return -1;
	}
	n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	wc->users = calloc(n ? n : 1, sizeof(*wc->users));
	if (!wc->users) {
		say(err, errlen, "out of memory");
		return -1;
	}
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(doc, p->key));
		const char *v = scalar(yaml_document_get_node(doc, p->value));

		if (!k || !*k || !v || !bcrypt_hash(v)) {
			say(err, errlen,
			    "--web-config %.200s: basic_auth_users: '%.60s' needs a bcrypt hash ($2y$..., 60 characters: htpasswd -nBC 10 \"\" | tr -d ':\\n')",
			    path, k ? k : "?");
			return -1;
		}
		wc->users[wc->nusers].name = strdup(k);
		wc->users[wc->nusers].hash = strdup(v);
		if (!wc->users[wc->nusers].name || !wc->users[wc->nusers++].hash) {
			say(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

static int parse(yaml_document_t *doc, const char *path, struct web_config *wc, char *err,
		 size_t errlen)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);

	if (!root || (root->type == YAML_SCALAR_NODE && !*scalar(root)))
		return 0; /* an empty file: plain HTTP, no users (as exporter-toolkit) */
	if (root->type != YAML_MAPPING_NODE) {
		say(err, errlen, "--web-config %.200s: expected a mapping (tls_server_config, basic_auth_users)",
		    path);
		return -1;
	}
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(doc, p->key));
		yaml_node_t *v = yaml_document_get_node(doc, p->value);

		if (k && !strcmp(k, "tls_server_config")) {
			if (tls_section(doc, v, path, wc, err, errlen))
				return -1;
		} else if (k && !strcmp(k, "basic_auth_users")) {
			if (users_section(doc, v, path, wc, err, errlen))
				return -1;
		} else {
			say(err, errlen,
			    "--web-config %.200s: '%.60s' is not supported by gputop-bpf (it takes tls_server_config and basic_auth_users)",
			    path, k ? k : "?");
			return -1;
		}
	}
	return 0;
}

int web_config_load(const char *path, struct web_config *wc, char *err, size_t errlen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	size_t len;
	char *text;
	int rc;

	memset(wc, 0, sizeof(*wc));
	text = read_file(path, &len);
	if (!text) {
		say(err, errlen, "--web-config: cannot read '%.200s': %s", path, strerror(errno));
		return -1;
	}
	if (!yaml_parser_initialize(&parser)) {
		free(text);
		say(err, errlen, "out of memory");
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		say(err, errlen, "--web-config %.200s:%lu: not YAML: %.100s", path,
		    (unsigned long)parser.problem_mark.line + 1,
		    parser.problem ? parser.problem : "?");
		yaml_parser_delete(&parser);
		free(text);
		return -1;
	}
	rc = parse(&doc, path, wc, err, errlen);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	free(text);
	if (rc)
		web_config_free(wc);
	return rc;
}

void web_config_free(struct web_config *wc)
{
	for (size_t i = 0; i < wc->nusers; i++) {
		free(wc->users[i].name);
		free(wc->users[i].hash);
	}
	free(wc->users);
	free(wc->cert_pem);
	if (wc->key_pem)
		explicit_bzero(wc->key_pem, strlen(wc->key_pem));
	free(wc->key_pem);
	memset(wc, 0, sizeof(*wc));
}

/* Whether two strings of the same length are equal, in time that does not tell where they differ. */
static bool same(const char *a, const char *b)
{
	size_t n = strlen(a);
	unsigned char d = n != strlen(b);

	for (size_t i = 0; i < n && b[i]; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return !d;
}

/*
 * Logins checked lately (the server's one thread only): a scrape every few
 * seconds would otherwise pay bcrypt's tens of milliseconds each time. A
 * digest of user, password and hash, never the password itself.
 */
static unsigned char cache[CACHE_SLOTS][32];
static unsigned int cache_next;

static bool digest(const char *user, const char *password, const char *hash, unsigned char out[32])
{
	size_t lu = strlen(user), lp = strlen(password), lh = strlen(hash);
	char *buf = malloc(lu + lp + lh + 3);
	bool ok;

	if (!buf)
		return false;
	memcpy(buf, user, lu + 1);
	memcpy(buf + lu + 1, password, lp + 1);
	memcpy(buf + lu + lp + 2, hash, lh + 1);
	ok = !gnutls_hash_fast(GNUTLS_DIG_SHA256, buf, lu + lp + lh + 3, out);
	explicit_bzero(buf, lu + lp + lh + 3);
	free(buf);
	return ok;
}

bool web_config_check(const struct web_config *wc, const char *user, const char *password)
{
	static const char dummy[] = "$2y$10$gputopbpfdummysaltAAA.pZgEjEOQQu42H./c77RA5qPhT2vWMAq";
	const struct web_user *u = NULL;
	struct crypt_data *cd;
	unsigned char key[32];
	bool ok, have_key;

	for (size_t i = 0; i < wc->nusers && user; i++)
		if (!strcmp(wc->users[i].name, user))
			u = &wc->users[i];
	if (!password)
		password = "";
	have_key = u && digest(user, password, u->hash, key);
	for (unsigned int i = 0; have_key && i < CACHE_SLOTS; i++)
		if (!memcmp(cache[i], key, sizeof(key)))
			return true;
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	/* an unknown user costs a bcrypt too */
	ok = crypt_rn(password, u ? u->hash : dummy, cd, sizeof(*cd)) && u &&
	     same(cd->output, u->hash);
	explicit_bzero(cd, sizeof(*cd));
	free(cd);
	if (ok && have_key)
		memcpy(cache[cache_next++ % CACHE_SLOTS], key, sizeof(key));
	return ok;
}
#endif
