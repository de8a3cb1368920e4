/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --web-config FILE: who may scrape the endpoint, in the YAML of Prometheus'
 * exporter-toolkit (the file node_exporter and the other exporters take):
 *
 *   tls_server_config:
 *     cert_file: server.crt      # PEM; a path relative to the file's folder
 *     key_file: server.key
 *     min_version: TLS12         # TLS12 (the default) or TLS13
 *   basic_auth_users:
 *     prometheus: $2y$10$...     # bcrypt hashes (htpasswd -nBC 10 "" | tr -d ':\n')
 *
 * Keys this monitor does not implement (client certificates, cipher suites,
 * http_server_config) are refused by name rather than ignored: a file meant to
 * restrict who scrapes never silently restricts less.
 */
#ifndef GPUTOP_WEB_CONFIG_H
#define GPUTOP_WEB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct web_user {
	char *name, *hash;
};

struct web_config {
	char *cert_pem, *key_pem; /* both NULL: plain HTTP */
	bool tls13_only; /* min_version: TLS13 */
	struct web_user *users; /* none: no authentication */
	size_t nusers;
};

/*
 * Reads FILE and the certificate and key it names, with the invoking user's
 * rights. 0, or -1 with err naming the file, the key and the fix.
 */
int web_config_load(const char *path, struct web_config *wc, char *err, size_t errlen);
void web_config_free(struct web_config *wc);
/*
 * Whether user and password match an entry of basic_auth_users (bcrypt);
 * about as slow for a user who is not there, so that timing tells no names.
 */
bool web_config_check(const struct web_config *wc, const char *user, const char *password);

#endif
