// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/pci.h"

bool pci_same(const char *a, const char *b)
{
	const char *ca = strchr(a, ':'), *cb = strchr(b, ':');
	char *ea, *eb;
	unsigned long da = strtoul(a, &ea, 16), db = strtoul(b, &eb, 16);

	return ca && cb && ea == ca && eb == cb && da == db && !strcasecmp(ca, cb);
}
